"""What the grid shows, as data: its rows (for the page and the ``/api/grid`` JSON the page's script re-renders
from as filters change), the summary band (flip rate per variant × model, with the noise floor), the export of
the filtered rows (CSV, formula-safe) and a case's previous and next case under the grid's filters."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import numpy as np
import pandas as pd

from .data import FILTERS, GridQuery, RunView, Viewer
from .diff import diff_html, diff_pieces

__all__ = ["grid_rows", "summary", "export_frame", "neighbours", "reference_text", "na", "row_json",
           "query_params"]

#: the grid's query parameters a case link carries (its filters, search and sort: not the page, nor the case
#: filter, which the case page's own ``case`` replaces)
_CARRIED = (*(f for f in FILTERS if f != "case"), "question", "flipped", "q", "sort", "desc")


def na(v: Any) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and v != v)


def query_params(params: dict[str, str]) -> dict[str, str]:
    """The grid parameters worth carrying to a case page (no token, no page, nothing empty)."""
    return {k: v for k, v in params.items() if k in _CARRIED and v}


def reference_text(run: RunView, vid: str, bid: Any, case_id: Any) -> Any:
    """The text a variant's change is shown against: its baseline variant's, or (for a baseline, or a variant
    with none) the case's text as loaded."""
    if isinstance(bid, str) and bid != vid and bid in run.variants.index:
        return run.variants.loc[bid, "text"]
    if isinstance(case_id, str) and case_id in run.cases.index and "text" in run.cases:
        return run.cases.loc[case_id, "text"]
    return None


def grid_rows(viewer: Viewer, rows: pd.DataFrame, query: GridQuery, carried: dict[str, str]) -> list[dict[str, Any]]:
    """The rows of a grid page, each with its diff (HTML for the page, pieces for the script), labels and the
    link to its case page (both runs side by side when the viewer has two and the grid is not filtered to one)."""
    out = []
    questions = [query.question] if query.question else viewer.questions
    for rec in rows.to_dict("records"):
        run = viewer.runs[str(rec["run"])]
        vid = rec.get("variant_id")
        text = base = None
        if isinstance(vid, str) and vid in run.variants.index:
            v = run.variants.loc[vid]
            text = v["text"]
            base = reference_text(run, vid, v["baseline_id"], v["case_id"])
        labels = []
        for q in questions:
            lab = rec.get(f"label::{q}")
            if na(lab):
                continue
            labels.append({"question": q, "label": lab, "flip": rec.get(f"flip::{q}") is True,
                           "noise": bool(rec.get(f"noise::{q}"))})
        link = {"case": rec.get("case_id"), **carried}
        if len(viewer.runs) > 1 and "run" not in carried:
            link.pop("run", None)
        else:
            link["run"] = rec["run"]
        out.append({**{k: (None if na(v) else v) for k, v in rec.items()},
                    "diff": diff_html(base, text, context=60) if text is not None else "",
                    "pieces": diff_pieces(base, text, context=60) if text is not None else [],
                    "labels": labels, "flip": None if rec.get("flip") is pd.NA else bool(rec.get("flip")),
                    "case_href": "/case?" + urlencode({k: (v if isinstance(v, list) else str(v))
                                                       for k, v in link.items() if v is not None}, doseq=True)})
    return out


def row_json(r: dict[str, Any]) -> dict[str, Any]:
    """A grid row as the script gets it (plain JSON values; the script renders every text with textContent)."""
    keep = ("run", "case_id", "dataset", "variant", "context", "source", "model", "group", "judge_status",
            "verdict", "excluded", "is_baseline", "noise", "flip_differs", "flip", "labels", "pieces", "case_href")
    out = {k: _plain(r.get(k)) for k in keep}
    out["seed"] = None if r.get("seed") is None else int(r["seed"])
    answer = r.get("answer")
    out["answer"] = None if answer is None else (answer if len(answer) <= 300 else answer[:300] + " …")
    error = r.get("error")
    out["error"] = None if error is None else (error if len(error) <= 120 else error[:120] + " …")
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return None if v != v else float(v)
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return None if na(v) else v


def summary(viewer: Viewer, query: GridQuery, limit: int = 40) -> dict[str, Any]:
    """Flip rate per variant × model over the rows matching the grid's filters (whatever their flip), and the
    noise floor per model: how often the baseline's own re-samples (other seeds of the same case and model) give
    a different label — the flip rate an unchanged text shows (on the question filtered to, or on any)."""
    sub, _ = viewer.matching(query, flips=False)
    qcol = f"flip::{query.question}" if query.question and f"flip::{query.question}" in sub else "flip"
    models = sorted(str(m) for m in sub["model"].dropna().unique())
    known = sub[sub[qcol].notna().to_numpy(dtype=bool)] if len(sub) else sub
    cells: dict[tuple[str, str], dict[str, Any]] = {}
    if len(known):
        flips = known[qcol].astype("boolean").fillna(False).astype(int)
        agg = flips.groupby([known["variant"].astype("string"), known["model"].astype("string")]).agg(["sum",
                                                                                                        "count"])
        for (variant, model), row in agg.iterrows():
            n, k = int(row["count"]), int(row["sum"])
            cells[(str(variant), str(model))] = {"flips": k, "n": n, "rate": k / n if n else None}
    variants = sorted({v for v, _ in cells}, key=lambda v: -max(c["rate"] or 0 for (vv, _), c in cells.items()
                                                                if vv == v))
    rows = [{"variant": v, "cells": {m: cells.get((v, m)) for m in models}} for v in variants[:limit]]
    return {"question": query.question or "any", "models": models, "rows": rows,
            "more": max(0, len(variants) - limit), "noise": _noise_floor(sub, viewer, query)}


def _noise_floor(sub: pd.DataFrame, viewer: Viewer, query: GridQuery) -> dict[str, dict[str, Any]]:
    """Per model: pairs of the baseline's answers at two seeds (same run, case and model) and how many of them
    disagree on the label (the question filtered to, or any question)."""
    qs = [query.question] if query.question else viewer.questions
    cols = [f"label::{q}" for q in qs if f"label::{q}" in sub]
    base = sub[sub["is_baseline"].fillna(False).to_numpy(dtype=bool)] if len(sub) and cols else sub.iloc[:0]
    out: dict[str, dict[str, Any]] = {}
    if not len(base):
        return out
    labels = base[cols].astype("string").fillna("∅")
    key = labels.iloc[:, 0]
    for c in labels.columns[1:]:
        key = key + "\x1f" + labels[c]
    frame = pd.DataFrame({"run": base["run"].astype("string"), "variant_id": base["variant_id"].astype("string"),
                          "model": base["model"].astype("string"), "key": key})
    counts = frame.groupby(["run", "variant_id", "model", "key"]).size().rename("c").reset_index()
    per = counts.assign(c2=counts["c"] ** 2).groupby(["run", "variant_id", "model"]).agg(k=("c", "sum"),
                                                                                         s2=("c2", "sum"))
    per["pairs"] = per["k"] * (per["k"] - 1) // 2
    per["disagree"] = (per["k"] ** 2 - per["s2"]) // 2
    tot = per.groupby(level="model")[["pairs", "disagree"]].sum()
    for model, row in tot.iterrows():
        pairs, dis = int(row["pairs"]), int(row["disagree"])
        out[str(model)] = {"pairs": pairs, "disagree": dis, "rate": dis / pairs if pairs else None}
    return out


def export_frame(viewer: Viewer, query: GridQuery) -> pd.DataFrame:
    """Every row matching the grid's filters (no paging), in its order, as a table to download: one row per
    answer, the labels and flips per question, the whole answer text."""
    sub = viewer.ordered(query)
    cols = [c for c in ("run", "audit", "case_id", "dataset", "variant_id", "variant", "family", "context", "source",
                        "attribute", "model", "seed", "group", "is_baseline", "answer", "error", "judge_status")
            if c in sub]
    for q in viewer.questions:
        cols += [c for c in (f"label::{q}", f"flip::{q}", f"noise::{q}") if c in sub]
    cols += [c for c in ("flip", "noise", "flip_differs", "verdict", "excluded", "prompt_tokens",
                         "completion_tokens", "latency_s", "request_key") if c in sub]
    if len(viewer.runs) < 2:
        cols = [c for c in cols if c != "flip_differs"]
    out = sub[cols].copy()
    out.columns = [c.replace("::", ":") for c in cols]
    return out.reset_index(drop=True)


def neighbours(viewer: Viewer, query: GridQuery, case_id: str) -> tuple[str | None, str | None, int, int]:
    """The cases before and after ``case_id`` among the rows the grid's filters keep, in the grid's order:
    ``(previous, next, position (1-based, 0: not among them), number of cases)``."""
    sub, _ = viewer.matching(query)
    ids = sub["case_id"].to_numpy(dtype=object, na_value=None)[viewer.order(sub, query)]
    cases = list(dict.fromkeys(str(c) for c in ids if c is not None))
    if case_id not in cases:
        return None, (cases[0] if cases else None), 0, len(cases)
    i = cases.index(case_id)
    return (cases[i - 1] if i else None), (cases[i + 1] if i + 1 < len(cases) else None), i + 1, len(cases)
