"""Reading one run directory into the viewer's grid frame (:func:`load_run`): the run store's tables joined
into one row per model answer, with the judge's labels per question, flips against the baseline and the
verdict of the result rows each answer belongs to. Nothing here writes (see :mod:`clinaudit.viewer.data`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from .confine import refusal
from .data import GROUP_FIELDS, RESPONSE_COLS, VERDICT_ORDER, RunView, as_category, parse_json, read_table

__all__ = ["load_run", "run_status"]


def _variant_label(family: pd.Series, name: pd.Series) -> pd.Series:
    """:func:`clinaudit.records.variant_label` of each variant (what it changed, as the findings name it)."""
    from ..records import variant_label

    return pd.Series([variant_label(f, n) for f, n in zip(family.astype("string").fillna(""),
                                                           name.astype("string").fillna(""))],
                     index=family.index, dtype="string")


def _baselines(variants: pd.DataFrame) -> pd.Series:
    """The baseline variant of each variant: the same variant id with its name replaced by ``baseline`` when the
    run has it (counterfactuals of one augmented dialog), else the case's variant of family ``baseline``."""
    ids = set(variants.index)
    is_base = (variants["family"].astype("string").fillna("") == "baseline") | \
        (variants["name"].astype("string").fillna("") == "baseline")
    fam_base = variants["family"].astype("string").fillna("") == "baseline"
    case_base = (variants[fam_base].reset_index().drop_duplicates("case_id").set_index("case_id")["variant_id"])\
        .to_dict()
    out: dict[str, Any] = {}
    for vid, name, case, base in zip(variants.index, variants["name"].astype("string").fillna(""),
                                     variants["case_id"], is_base):
        if base:
            out[vid] = vid
            continue
        cand = vid.replace(f"::{name}::", "::baseline::", 1) if name else None
        out[vid] = cand if cand in ids else case_base.get(case, pd.NA)
    return pd.Series(out, dtype="string").reindex(variants.index)


def _case_groups(cases: pd.DataFrame, paired: pd.DataFrame) -> pd.Series:
    """A demographic group per case: the paired table's ``gender`` (treatment shift), else the first of
    :data:`GROUP_FIELDS` in the case's fields."""
    groups: dict[str, Any] = {}
    if "gender" in paired.columns and "case_id" in paired.columns:
        g = paired[["case_id", "gender"]].dropna().drop_duplicates("case_id")
        groups.update(zip(g["case_id"].astype(str), g["gender"].astype(str)))
    if "fields" in cases.columns:
        for cid, fields in zip(cases.index, cases["fields"]):
            if cid in groups or not isinstance(fields, str):
                continue
            data = parse_json(fields)
            if isinstance(data, dict):
                for k in GROUP_FIELDS:
                    if data.get(k) not in (None, ""):
                        groups[cid] = str(data[k])
                        break
    return pd.Series(groups, dtype="string")


def _long_labels(subject: pd.DataFrame, path: Path, judgments: pd.DataFrame, notes: list[str]) -> pd.DataFrame:
    """``request_key, question, label, status`` for the subject answers: the run's ``labels`` table where it has
    one (treatment shift: one row per answer × question), else its judgments, linked to an answer by its request
    key (``item_id``) or by variant and model."""
    labels = read_table(path, "labels", ("response_key", "question", "label", "judge_status", "model"), notes)
    if {"response_key", "question", "label"} <= set(labels.columns):
        out = pd.DataFrame({"request_key": labels["response_key"].astype("string"),
                            "question": labels["question"].astype("string"),
                            "label": _labels_text(labels["label"]),
                            "status": labels.get("judge_status", pd.Series("ok", index=labels.index))
                            .astype("string")})
        return out
    if judgments.empty:
        return pd.DataFrame(columns=["request_key", "question", "label", "status"])
    j = judgments
    status = j["status"].astype("string") if "status" in j else pd.Series("ok", index=j.index, dtype="string")
    label = _labels_text(j["label"]) if "label" in j else _value_labels(j.get("value", pd.Series(pd.NA, index=j.index)))
    question = (j["context"] if "context" in j else
                j.get("judge", pd.Series("judge", index=j.index)).astype("string").str.split(":").str[0])\
        .astype("string")
    parts = []
    keyset = set(subject["request_key"].dropna())
    by_item = pd.Series(_isin(j["item_id"], keyset) if "item_id" in j else False, index=j.index)
    if by_item.any():
        parts.append(pd.DataFrame({"request_key": j.loc[by_item, "item_id"].astype("string"),
                                   "question": question[by_item], "label": label[by_item], "status": status[by_item]}))
    # a judgment of the answer's own text under the answer's request key (CARE parses the answer it was given)
    by_key = ~by_item & pd.Series(_isin(j["request_key"], keyset) if "request_key" in j else False, index=j.index)
    if by_key.any():
        parts.append(pd.DataFrame({"request_key": j.loc[by_key, "request_key"].astype("string"),
                                   "question": question[by_key], "label": label[by_key], "status": status[by_key]}))
        by_item = by_item | by_key
    if "variant_id" in j and "model" in j:
        rest = ~by_item & j["variant_id"].notna()
        if rest.any():
            link = subject[["variant_id", "model", "request_key"]].astype("string")
            m = pd.DataFrame({"variant_id": j.loc[rest, "variant_id"].astype("string"),
                              "model": j.loc[rest, "model"].astype("string"), "question": question[rest],
                              "label": label[rest], "status": status[rest]}).merge(link, on=["variant_id", "model"])
            parts.append(m[["request_key", "question", "label", "status"]])
    if not parts:
        return pd.DataFrame(columns=["request_key", "question", "label", "status"])
    return pd.concat(parts, ignore_index=True)


def _labels_text(s: pd.Series) -> pd.Series:
    """Labels as text: a whole number without its ``.0`` (``1.0`` -> ``1``), anything else as written."""
    if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
        num = pd.to_numeric(s, errors="coerce")
        whole = (num.notna() & (num % 1 == 0)).to_numpy(dtype=bool)
        out = num.astype("string")
        out[whole] = num[whole].astype("int64").astype("string")
        return out
    return s.astype("string")


def _value_labels(value: pd.Series) -> pd.Series:
    """A judgment's label from its ``value`` JSON: its ``label``, ``answer`` or ``decision`` field (the text as
    written when it is not such a JSON object)."""
    def one(v: Any) -> Any:
        if not isinstance(v, str):
            return pd.NA
        data = parse_json(v)
        if isinstance(data, dict):
            for k in ("label", "answer", "decision"):
                if data.get(k) is not None:
                    return str(data[k])
            return pd.NA
        return v
    return pd.Series([one(v) for v in value], index=value.index, dtype="string")


def _isin(s: pd.Series, values: set[Any]) -> np.ndarray:
    """``s.isin(values)`` by Python set lookups (pandas' arrow-string ``isin`` builds a pyarrow scalar per value:
    seconds for 100,000 keys)."""
    arr = s.to_numpy(dtype=object, na_value=None)
    return np.fromiter((x in values for x in arr), dtype=bool, count=len(arr))


def _status_rank(s: pd.Series) -> pd.Series:
    return s.map({"ok": 0, "unparseable": 2, "error": 3}).fillna(1)


def load_run(path: Path, key: str) -> RunView:
    """Read a run directory into a :class:`RunView` (its grid built once)."""
    from ..rundir import read_manifest

    path = Path(path)
    if not path.is_dir():
        raise InputError("no such run directory" if not path.exists() else "not a run directory (a file)",
                         file=str(path))
    why = refusal(path, path / "manifest.json")
    if why == "missing":
        raise InputError("not a run directory (no manifest.json in it)", file=str(path))
    if why is not None:
        raise InputError(f"manifest.json is {why}", file=str(path / "manifest.json"))
    manifest = read_manifest(path / "manifest.json")
    spec = manifest.get("spec") or {}
    audit = str(manifest.get("audit") or spec.get("audit") or spec.get("command") or "")
    notes: list[str] = []
    cases = read_table(path, "cases", ("case_id", "dataset", "text", "fields"), notes)
    if "case_id" in cases:
        cases["case_id"] = cases["case_id"].astype("string")
        cases = cases.drop_duplicates("case_id").set_index("case_id")
    variants = read_table(path, "variants", ("variant_id", "case_id", "family", "name", "text", "description"), notes)
    if "variant_id" in variants:
        variants = variants.astype({c: "string" for c in ("variant_id", "case_id", "family", "name")
                                    if c in variants}).drop_duplicates("variant_id").set_index("variant_id")
        for c in ("family", "name", "text", "description"):
            if c not in variants:
                variants[c] = pd.NA
        variants["baseline_id"] = _baselines(variants)
        variants["label"] = _variant_label(variants["family"], variants["name"])
    else:
        variants = pd.DataFrame(columns=["case_id", "family", "name", "text", "description", "baseline_id", "label"])
    judgments = _shortened(read_table(path, "judgments", None, notes))
    exclusions = read_table(path, "exclusions", None, notes)
    paired = read_table(path, "paired", None, notes)
    resp = read_table(path, "responses", RESPONSE_COLS, notes)
    grid, questions = _build_grid(path, key, audit, resp, variants, cases, judgments, exclusions, paired, notes)
    extra = {}
    tables = path / "tables"
    why = refusal(path, tables, folder=True)
    for p in sorted(tables.glob("*.csv")) if why is None else []:
        if re.search(r"clinician|human|jury|rater", p.stem):
            df = read_table(path, p.stem, None, notes)
            if "case_id" in df.columns:
                df["case_id"] = df["case_id"].astype("string")
                extra[p.stem] = df
    if why not in (None, "missing"):
        notes.append(f"tables/: {why}")
    calls = resp.drop(columns=[c for c in ("text",) if c in resp.columns])
    if "case_id" in calls:
        calls["case_id"] = as_category(calls["case_id"])
    return RunView(key=key, path=path, audit=audit, manifest=manifest, grid=grid, variants=variants, cases=cases,
                   questions=questions, judgments=judgments, exclusions=exclusions, paired=paired, extra_tables=extra,
                   calls=calls, notes=notes, status=run_status(manifest))


#: the most characters of a judgment's long text (its raw output) held for the case page's table; the whole text
#: is the judge call's raw response, shown from the cache under the case's model calls
JUDGMENT_TEXT = 300


def _shortened(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with text cells over :data:`JUDGMENT_TEXT` characters cut there (``…`` added): 100,000 judgments of
    2 kB raw output held 200 MB for a table the case page shows a few rows of."""
    for c in df.columns:
        col = df[c]
        if c == "value" or not (pd.api.types.is_string_dtype(col) or col.dtype == object):
            continue
        s = col.astype("string")
        long = (s.str.len() > JUDGMENT_TEXT).fillna(False).to_numpy(dtype=bool)
        if long.any():
            s = s.copy()
            s[long] = s[long].str.slice(0, JUDGMENT_TEXT) + " …"
            df[c] = s
    return df


def run_status(manifest: dict[str, Any]) -> str:
    """``complete``, or what the manifest says of a run that is not: ``unfinished`` (its last run recorded a start
    and no finish: stopped by a kill, a crash, or still running), or its status (``failed: ...``, ``partial ...``)."""
    runs = manifest.get("runs")
    last = runs[-1] if isinstance(runs, list) and runs and isinstance(runs[-1], dict) else {}
    if last.get("started") and not last.get("finished"):
        return f"unfinished: started {last.get('started')}, no finish recorded (stopped, or still running)"
    status = manifest.get("status")
    return str(status) if status else "complete"


def _build_grid(path: Path, key: str, audit: str, resp: pd.DataFrame, variants: pd.DataFrame, cases: pd.DataFrame,
                judgments: pd.DataFrame, exclusions: pd.DataFrame, paired: pd.DataFrame, notes: list[str]
                ) -> tuple[pd.DataFrame, list[str]]:
    # the answers shown: calls about a variant that are not a judge's (a judge's stage is named judge*, or carries no
    # variant: treatment shift's annotator); a judgment may share its answer's request key (CARE parses the answer)
    if resp.empty or "variant_id" not in resp:
        subject = pd.DataFrame(columns=list(RESPONSE_COLS))
    else:
        stage = resp["stage"].astype("string").fillna("") if "stage" in resp else pd.Series("", index=resp.index)
        keep = resp["variant_id"].notna().to_numpy() & ~stage.str.startswith("judge").to_numpy(dtype=bool)
        subject = resp[keep].drop_duplicates(["request_key", "variant_id"], keep="last")
    subject = subject.reset_index(drop=True)
    for c in ("request_key", "variant_id", "case_id", "model"):
        subject[c] = subject[c].astype("string") if c in subject else pd.Series(pd.NA, index=subject.index,
                                                                                    dtype="string")
    g = pd.DataFrame({"request_key": subject["request_key"], "case_id": subject["case_id"],
                      "variant_id": subject["variant_id"], "model": subject["model"]})
    g["seed"] = pd.to_numeric(subject["seed"], errors="coerce").astype("Int64") if "seed" in subject else pd.NA
    g["answer"] = subject["text"].astype("string") if "text" in subject else pd.NA
    g["error"] = subject["error"].astype("string") if "error" in subject else pd.NA
    for c in ("prompt_tokens", "completion_tokens", "latency_s", "attempts"):
        g[c] = pd.to_numeric(subject[c], errors="coerce") if c in subject else np.nan
    vinfo = variants.reindex(g["variant_id"])
    g["family"] = vinfo["family"].to_numpy()
    g["variant"] = vinfo["label"].to_numpy()
    g["baseline_id"] = vinfo["baseline_id"].to_numpy()
    g["case_id"] = g["case_id"].fillna(pd.Series(vinfo["case_id"].to_numpy(), index=g.index))
    g["is_baseline"] = (g["variant_id"] == g["baseline_id"]).fillna(False).astype(bool)
    # extra strata of counterfactual variants (note generation: context, source, attribute) from the paired table
    if "variant_id" in paired.columns:
        cols = [c for c in ("context", "source", "attribute") if c in paired.columns]
        if cols:
            extra = paired[["variant_id", *cols]].astype("string").drop_duplicates("variant_id").set_index("variant_id")
            for c in cols:
                g[c] = extra[c].reindex(g["variant_id"]).to_numpy()
    # labels per question, judge status, flips against the baseline answer of the same case, model and seed
    long = _long_labels(subject, path, judgments, notes)
    long = long[_isin(long["request_key"], set(g["request_key"].dropna()))]
    questions = sorted(long["question"].dropna().unique().tolist())
    # the answer's judge status: its worst (error > unparseable > any other, e.g. a jury's tie > ok); none: not judged
    worst = long.assign(rank=_status_rank(long["status"])).sort_values("rank", kind="stable")\
        .drop_duplicates("request_key", keep="last").set_index("request_key")["status"]
    g["judge_status"] = worst.reindex(g["request_key"]).astype("string").fillna("none").to_numpy()
    lab = long.drop_duplicates(["request_key", "question"]).pivot(index="request_key", columns="question",
                                                                  values="label")
    base_of = g.set_index("request_key")[["baseline_id", "model", "seed"]]
    g["noise"] = False
    any_true = np.zeros(len(g), dtype=bool)
    any_known = np.zeros(len(g), dtype=bool)
    for q in questions:
        col = lab[q].reindex(g["request_key"]).astype("string").to_numpy() if q in lab else np.full(len(g), pd.NA)
        g[f"label::{q}"] = pd.array(col, dtype="string")
        ref = pd.DataFrame({"variant_id": g["variant_id"], "model": g["model"], "seed": g["seed"],
                            "label": g[f"label::{q}"]})
        base = ref[g["is_baseline"].to_numpy()].dropna(subset=["label"])
        same = base.drop_duplicates(["variant_id", "model", "seed"]).rename(
            columns={"variant_id": "baseline_id", "label": "base_label"})
        m = g[["baseline_id", "model", "seed"]].merge(same, on=["baseline_id", "model", "seed"], how="left")
        mine = g[f"label::{q}"].to_numpy(dtype=object, na_value=None)
        theirs = m["base_label"].astype("string").to_numpy(dtype=object, na_value=None)
        unknown = (pd.isna(mine) | pd.isna(theirs)) | g["is_baseline"].to_numpy(dtype=bool)
        flip = pd.array(np.where(unknown, False, mine != theirs), dtype="boolean")
        flip[unknown] = pd.NA
        g[f"flip::{q}"] = flip
        any_true |= flip.fillna(False).to_numpy(dtype=bool)
        any_known |= ~unknown
        # the baseline's own re-samples (other seeds) disagree: a flip here is within the noise floor
        unstable = base.groupby(["variant_id", "model"])["label"].nunique() > 1
        uns = unstable.rename("u").reset_index().rename(columns={"variant_id": "baseline_id"})
        u = g[["baseline_id", "model"]].merge(uns, on=["baseline_id", "model"], how="left")["u"]
        g[f"noise::{q}"] = u.fillna(False).astype(bool).to_numpy()
        g["noise"] = g["noise"] | g[f"noise::{q}"]
    del base_of
    flips = pd.array(any_true, dtype="boolean")
    flips[~any_known] = pd.NA
    g["flip"] = flips
    # the row's result verdict: the strongest verdict of the result rows of its model and variant
    g["verdict"] = _verdicts(path, g, notes)
    # demographic group and dataset of the case
    groups = _case_groups(cases, paired)
    g["group"] = groups.reindex(g["case_id"]).to_numpy()
    g["dataset"] = cases["dataset"].reindex(g["case_id"]).to_numpy() if "dataset" in cases else pd.NA
    # exclusions: by case (and the cases left out before any call get a row of their own)
    g["excluded"] = pd.NA
    if {"case_id", "reason"} <= set(exclusions.columns) and len(exclusions):
        ex = exclusions.dropna(subset=["case_id"]).astype({"case_id": "string", "reason": "string"})
        reasons = ex.groupby("case_id")["reason"].agg(lambda s: "; ".join(dict.fromkeys(s.dropna())))
        g["excluded"] = reasons.reindex(g["case_id"]).to_numpy()
        missing = reasons[~_isin(reasons.index.to_series(), set(g["case_id"].dropna()))]
        if len(missing):
            add = pd.DataFrame({"case_id": missing.index.astype("string"), "excluded": missing.to_numpy(),
                                "judge_status": "none", "noise": False, "is_baseline": False})
            add["group"] = groups.reindex(add["case_id"]).to_numpy()
            add["dataset"] = cases["dataset"].reindex(add["case_id"]).to_numpy() if "dataset" in cases else pd.NA
            g = pd.concat([g, add], ignore_index=True)
    g["run"] = key
    g["audit"] = audit
    g["seed_text"] = g["seed"].astype("string")
    g["flip"] = g["flip"].astype("boolean")
    for c in ("run", "audit", "case_id", "variant_id", "baseline_id", "model", "family", "variant", "group",
              "dataset", "judge_status", "excluded", "verdict", "seed_text", "context", "source", "attribute"):
        if c in g:
            g[c] = as_category(g[c])
    g["answer"] = g["answer"].astype("string")
    return g, questions


def _verdicts(path: Path, g: pd.DataFrame, notes: list[str]) -> np.ndarray:
    res = read_table(path, "results", ("model", "group", "perturbation", "verdict"), notes)
    if res.empty or "verdict" not in res:
        return np.full(len(g), None, dtype=object)
    res = res.dropna(subset=["verdict"])
    rank = {v: i for i, v in enumerate(VERDICT_ORDER)}
    vcol = "perturbation" if "perturbation" in res and res["perturbation"].notna().any() else "group"
    if vcol not in res or "model" not in res:
        return np.full(len(g), None, dtype=object)
    r = pd.DataFrame({"model": res["model"].astype("string"), "variant": res[vcol].astype("string"),
                      "rank": res["verdict"].map(rank).fillna(len(rank))})
    best = r.groupby(["model", "variant"])["rank"].min().rename("rank").reset_index()
    m = g[["model", "variant"]].astype("string").merge(best, on=["model", "variant"], how="left")["rank"]
    names = np.array([*VERDICT_ORDER, None], dtype=object)
    out = np.full(len(g), None, dtype=object)
    ok = m.notna().to_numpy()
    out[ok] = names[m[ok].astype(int).to_numpy()]
    return out
