"""A case's page as data: every variant with every model × seed's answer, its judgments, exclusions, clinician
labels and model calls (:func:`case_view`); two runs' cells side by side (:func:`mark_differences`). Tables are
made to fit the page (:func:`table`): request keys shortened (the whole key in the cell's title), JSON values
(a judge's parsed label) shown as ``key: value`` text."""

from __future__ import annotations

import json
import re
from typing import Any

import pandas as pd

from .api import na, reference_text
from .data import RunView
from .diff import diff_html

__all__ = ["case_view", "mark_differences", "table", "cell"]

_HEX = re.compile(r"[0-9a-f]{24,}")


def cell(column: str, value: Any) -> dict[str, Any]:
    """A table cell to show: ``{"text", "title"}`` (``title``: the whole value where the text is shortened)."""
    if value is None:
        return {"text": "", "title": None}
    text = str(value)
    if _HEX.fullmatch(text) or (column.endswith(("key", "_id")) and len(text) > 40 and " " not in text):
        return {"text": text[:10] + "…", "title": text}
    if text[:1] in "{[" and text[-1:] in "}]":
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            shown = "; ".join(f"{k}: {_scalar(v)}" for k, v in data.items()) or "(empty)"
            return {"text": shown, "title": text if len(text) <= 2000 else text[:2000] + " …"}
        if isinstance(data, list):
            return {"text": ", ".join(_scalar(v) for v in data) or "(empty)", "title": None}
    if len(text) > 400:
        return {"text": text[:400] + " …", "title": text[:4000]}
    return {"text": text, "title": None}


def _scalar(v: Any) -> str:
    if isinstance(v, dict):
        s = ", ".join(f"{k}={_scalar(x)}" for k, x in v.items())
        return s if len(s) <= 120 else s[:120] + " …"
    if isinstance(v, list):
        s = json.dumps(v, ensure_ascii=False)
        return s if len(s) <= 80 else s[:80] + " …"
    return str(v)


def table(df: pd.DataFrame) -> dict[str, Any]:
    df = df.astype(object).where(df.notna(), None)
    cols = [str(c) for c in df.columns]
    return {"columns": cols, "rows": [[cell(c, v) for c, v in zip(cols, row)] for row in df.to_numpy().tolist()]}


def case_view(run: RunView, case_id: str) -> dict[str, Any] | None:
    g = run.grid[run.grid["case_id"] == case_id]
    in_cases = case_id in run.cases.index
    if not len(g) and not in_cases:
        return None
    variants = run.variants[run.variants["case_id"] == case_id]
    calls = run.calls_of_case(case_id)
    cached = run.cached_calls(calls["request_key"].dropna().astype(str).tolist()) if "request_key" in calls else {}
    # one column per model × seed, one row per variant (the baseline first)
    cols = g[["model", "seed"]].drop_duplicates().sort_values(["model", "seed"]).astype(object) \
        .where(lambda d: d.notna(), None).to_records(index=False).tolist() if len(g) else []
    cells: dict[tuple[Any, ...], dict[str, Any]] = {}
    for rec in g.to_dict("records"):
        seed = None if na(rec.get("seed")) else rec.get("seed")
        cells[(rec["variant_id"], rec["model"], seed)] = {
            "answer": rec.get("answer"), "flip": rec.get("flip") is True, "status": rec.get("judge_status"),
            "labels": [{"question": q, "label": rec.get(f"label::{q}"), "flip": rec.get(f"flip::{q}") is True,
                        "noise": bool(rec.get(f"noise::{q}"))}
                       for q in run.questions if not na(rec.get(f"label::{q}"))],
            "request_key": rec.get("request_key"), "differs": False}
    answered = {k[0] for k in cells}
    # the baselines first, then the variants with answers, then those no model answered (augmentation inputs ...)
    order = sorted(variants.index, key=lambda v: (v not in answered, str(variants.loc[v, "baseline_id"]) != v, str(v)))
    vrows = []
    for vid in order:
        v = variants.loc[vid]
        bid = v["baseline_id"]
        base = reference_text(run, vid, bid, case_id)
        vrows.append({"variant_id": vid, "label": v["label"], "family": None if na(v["family"]) else v["family"],
                      "description": None if na(v["description"]) else v["description"],
                      "diff": diff_html(base, v["text"]), "is_baseline": isinstance(bid, str) and vid == bid,
                      "answered": vid in answered,
                      "cells": [cells.get((vid, m, s)) for m, s in cols]})
    judg = run.judgments
    keys = set(calls["request_key"].dropna().astype(str)) if "request_key" in calls else set()
    if len(judg):
        sel = pd.Series(False, index=judg.index)
        for col, vals in (("request_key", keys), ("item_id", keys), ("case_id", {case_id}),
                          ("variant_id", set(variants.index))):
            if col in judg:
                sel |= judg[col].astype("string").isin(vals).fillna(False)
        judg = judg[sel]
    exclusions = run.exclusions
    if "case_id" in exclusions:
        exclusions = exclusions[exclusions["case_id"].astype("string") == case_id]
    extra = {name: df[df["case_id"] == case_id] for name, df in run.extra_tables.items()}
    extra = {k: v for k, v in extra.items() if len(v)}
    paired = run.paired
    if "V" in paired.columns and "case_id" in paired.columns:
        clin = paired[(paired["case_id"].astype("string") == case_id) & paired["V"].notna()]
        if len(clin):
            extra["clinician labels (paired V)"] = clin
    call_rows = []
    for rec in calls.to_dict("records") if len(calls) else []:
        key = rec.get("request_key")
        c = cached.get(str(key)) if isinstance(key, str) else None
        req = c["request"] if c else None
        call_rows.append({**{k: (None if na(v) else v) for k, v in rec.items()},
                          "cached_request": json.dumps(req, indent=1, ensure_ascii=False) if req is not None else None,
                          "cached_response": json.dumps(c["response"], indent=1, ensure_ascii=False) if c else None,
                          "backend": c["backend"] if c else None})
    case_text = run.cases.loc[case_id, "text"] if case_id in run.cases.index and "text" in run.cases else None
    return {"run": run, "columns": [{"model": m, "seed": s} for m, s in cols], "variants": vrows,
            "judgments": table(judg), "exclusions": table(exclusions), "extra": {k: table(v) for k, v in
                                                                                   extra.items()},
            "calls": call_rows, "cache": run.cache() is not None, "case_text": case_text,
            "verdict": next((str(x) for x in g["verdict"].dropna().unique()), None) if len(g) else None}



def mark_differences(views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Two runs side by side: a cell whose flip differs from the same variant and seed in another run is marked.
    Returns the rows of the side-by-side table: one per variant × seed (× model, when the runs share it), each
    run's cell beside the others'."""
    counts: dict[Any, int] = {}
    for v in views:
        for m in {c["model"] for c in v["columns"]}:
            counts[m] = counts.get(m, 0) + 1

    def key(row: dict[str, Any], col: dict[str, Any]) -> tuple[Any, ...]:
        # a model in both runs is compared with itself (two versions), else the runs' models with each other
        return (row["variant_id"], col["seed"], col["model"] if counts.get(col["model"], 0) > 1 else None)

    seen: dict[tuple[Any, ...], set[bool]] = {}
    for v in views:
        for row in v["variants"]:
            for col, cell in zip(v["columns"], row["cells"]):
                if cell is not None:
                    seen.setdefault(key(row, col), set()).add(cell["flip"])
    rows: dict[tuple[Any, ...], dict[str, Any]] = {}
    for v in views:
        for row in v["variants"]:
            for col, cell in zip(v["columns"], row["cells"]):
                if cell is None:
                    continue
                k = key(row, col)
                if len(seen.get(k, set())) > 1:
                    cell["differs"] = True
                entry = rows.setdefault(k, {"variant": row["label"], "seed": col["seed"], "shared_model": k[2],
                                            "differs": False, "cells": {}})
                entry["cells"][v["run"].key] = {**cell, "model": col["model"]}
                entry["differs"] = entry["differs"] or cell["differs"]
    return sorted(rows.values(), key=lambda r: not r["differs"])  # the rows whose flips differ first


