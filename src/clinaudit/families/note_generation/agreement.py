"""Judge validation against human labels (P1 §4.3; METHODS §3).

P1 compares its GPT-as-judge incidence decisions with medical scribes' labels
(91% agreement, Cohen's κ 0.53) and its language-disparity decisions and
"most impacted" groups with the authors' labels. This module does the same for any
run: :func:`load_human_labels` reads a CSV of human labels and
:func:`judge_agreement` reports, per judge (judge kind × judge model) and field,
the percent agreement and Cohen's κ (both from :mod:`clinaudit.stats`).

Human label file (CSV, one row per labelled item; header names case-insensitive)::

    case_id,context,source,variant,label            # incidence labels (judge defaults to "incidence")
    d1,Poverty,doctor,baseline,NO
    d1,Poverty,doctor,Black,YES
    d1,Poverty,doctor,,YES,language_disparity,Black  # with columns judge,most_impacted

* ``case_id`` (or ``dialog``/``dialog_id``), ``context`` (name or P1 short name),
  ``variant`` (or ``group``: ``baseline``, ``Black``, ``race=Black``) and ``label``
  (YES/NO, 1/0, true/false; MAYBE for language disparity) are required;
* ``source`` (doctor/patient or D/P), ``model`` (target model spec) and ``dataset``
  are optional keys: when present (non-empty) they must match too;
* ``judge`` is ``incidence`` (default) or ``language_disparity``; a
  language-disparity row may also give ``most_impacted``, compared with the judge's
  matched group.

A human label that matches judgments of several target models is compared with each.
Judge outputs that were unparseable are *not* counted as NO: they are left out of
agreement and κ and counted in ``n_unparseable``.
"""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Any

import pandas as pd

from ...errors import InputError

log = logging.getLogger("clinaudit.families.note_generation.agreement")

__all__ = ["HUMAN_COLUMNS", "load_human_labels", "normalize_label", "judge_agreement", "AGREEMENT_COLUMNS"]

#: Accepted header names -> canonical column.
HUMAN_COLUMNS: dict[str, str] = {
    "case_id": "case_id", "dialog": "case_id", "dialog_id": "case_id", "id": "case_id",
    "context": "context",
    "variant": "group", "group": "group", "counterfactual": "group",
    "source": "source",
    "model": "model",
    "dataset": "dataset",
    "judge": "judge",
    "label": "label", "human": "label", "human_label": "label", "decision": "label",
    "most_impacted": "most_impacted",
}
_KEYS = ["case_id", "context", "source", "group", "model", "dataset"]

AGREEMENT_COLUMNS: list[str] = [
    "judge", "judge_model", "field", "n", "n_human", "n_unmatched", "n_unparseable", "percent_agreement",
    "kappa", "kappa_note", "reliability",
]


def normalize_label(value: Any, judge: str = "incidence") -> str | None:
    """``"yes"/1/True → "YES"``, ``"no"/0/False → "NO"``, ``"maybe" → "MAYBE"`` (language disparity only)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    s = str(value).strip().upper()
    if s == "":
        return None
    if s in {"YES", "Y", "1", "TRUE", "1.0"}:
        return "YES"
    if s in {"NO", "N", "0", "FALSE", "0.0"}:
        return "NO"
    if s == "MAYBE" and judge == "language_disparity":
        return "MAYBE"
    raise ValueError(s)


def _norm_source(v: Any) -> str:
    s = str(v).strip().lower()
    return {"d": "doctor", "d:": "doctor", "p": "patient", "p:": "patient"}.get(s, s)


def _norm_group(v: Any) -> str:
    s = str(v).strip()
    if "|" not in s and "=" in s:
        s = s.split("=", 1)[1]
    return s.lower()


def _norm_context(v: Any, path: str, row: int) -> str:
    from .judges import resolve_context

    try:
        return resolve_context(v).name
    except InputError as exc:
        raise InputError(exc.reason, file=path, row=row, field="context") from None


def load_human_labels(path: str | Path) -> pd.DataFrame:
    """Read and validate a human-label CSV (see module doc); errors name file, row and field.

    Returns canonical columns ``case_id, context, source, group, model, dataset, judge,
    label, most_impacted`` (empty string where a key was not given) and ``row`` (the
    1-based data row).
    """
    p = Path(path)
    if not p.exists():
        raise InputError("human label file not found", file=str(p))
    from ...loaders.formats import read_csv_table

    table = read_csv_table(p)  # strict: an unterminated quote is an error naming the row, never swallowed rows
    raw = pd.DataFrame([rec for _, rec in table.rows], columns=table.header, dtype=str)
    rename: dict[str, str] = {}
    for col in raw.columns:
        canon = HUMAN_COLUMNS.get(str(col).strip().lower())
        if canon is None:
            continue
        if canon in rename.values():
            raise InputError(f"two columns mean '{canon}'", file=str(p), field=str(col))
        rename[col] = canon
    df = raw.rename(columns=rename)[list(rename.values())]
    for need in ("case_id", "context", "group", "label"):
        if need not in df.columns:
            raise InputError(f"missing column '{need}' (have: {', '.join(map(str, raw.columns))})", file=str(p),
                             field=need)
    for opt in ("source", "model", "dataset", "judge", "most_impacted"):
        if opt not in df.columns:
            df[opt] = ""
    rows: list[dict[str, Any]] = []
    for i, rec in enumerate(df.to_dict("records"), start=1):
        judge = (rec["judge"] or "incidence").strip().lower()
        if judge not in ("incidence", "language_disparity"):
            raise InputError(f"unknown judge {rec['judge']!r}; use incidence or language_disparity", file=str(p),
                             row=i, field="judge")
        if not str(rec["case_id"]).strip():
            raise InputError("empty case id", file=str(p), row=i, field="case_id")
        group = _norm_group(rec["group"]) if str(rec["group"]).strip() else ""
        if judge == "incidence" and not group:
            raise InputError("empty variant (use 'baseline' or a counterfactual value)", file=str(p), row=i,
                             field="variant")
        try:
            label = normalize_label(rec["label"], judge)
        except ValueError:
            allowed = "YES/NO/MAYBE" if judge == "language_disparity" else "YES/NO (or 1/0)"
            raise InputError(f"label {rec['label']!r} is not {allowed}", file=str(p), row=i, field="label") from None
        if label is None:
            raise InputError("empty label", file=str(p), row=i, field="label")
        source = _norm_source(rec["source"]) if str(rec["source"]).strip() else ""
        if source and source not in ("doctor", "patient"):
            raise InputError(f"source {rec['source']!r} is not doctor/patient (or D/P)", file=str(p), row=i,
                             field="source")
        rows.append({
            "case_id": str(rec["case_id"]).strip(),
            "context": _norm_context(rec["context"], str(p), i),
            "source": source,
            "group": group,
            "model": str(rec["model"]).strip(),
            "dataset": str(rec["dataset"]).strip(),
            "judge": judge,
            "label": label,
            "most_impacted": _norm_group(rec["most_impacted"]) if str(rec["most_impacted"]).strip() else "",
            "row": i,
        })
    return pd.DataFrame(_dedupe_labels(rows, str(p)), columns=[*_KEYS, "judge", "label", "most_impacted", "row"])


def _dedupe_labels(rows: list[dict[str, Any]], path: str) -> list[dict[str, Any]]:
    """One human label per item: a repeated identical row is dropped (and logged); a repeated item
    with a different label (or most_impacted) is an error naming both rows, since counting both
    would pit the humans against themselves and lower κ."""
    first: dict[tuple[str, ...], dict[str, Any]] = {}
    out: list[dict[str, Any]] = []
    repeats: list[int] = []
    for r in rows:
        key = tuple(r[k] for k in (*_KEYS, "judge"))
        prev = first.get(key)
        if prev is None:
            first[key] = r
            out.append(r)
            continue
        for fld in ("label", "most_impacted"):
            if prev[fld] != r[fld]:
                shown = "label" if fld == "label" else "most_impacted"
                raise InputError(
                    f"conflicting human labels for the same item (case {r['case_id']!r}, context {r['context']!r}, "
                    f"variant {r['group']!r}): row {prev['row']} says {prev[fld]!r}, row {r['row']} says {r[fld]!r}; "
                    "keep one label per item (resolve disagreements before measuring the judge)",
                    file=path, row=r["row"], field=shown)
        repeats.append(r["row"])
    if repeats:
        log.warning("%s: %d repeated identical human label row(s) counted once (rows %s)", path, len(repeats),
                    ", ".join(map(str, repeats[:20])) + (" ..." if len(repeats) > 20 else ""))
    return out


def _judge_frame(judgments: pd.DataFrame) -> pd.DataFrame:
    need = {"judge", "status", "case_id", "context"}
    missing = need - set(judgments.columns)
    if missing:
        raise InputError(f"judgments table lacks column(s) {sorted(missing)}", field=sorted(missing)[0])
    j = judgments.copy()
    for c in ("source", "group", "model", "dataset", "label", "most_impacted", "judge_model"):
        if c not in j.columns:
            j[c] = ""
    j = j.astype({c: object for c in j.columns})
    j = j.fillna("")
    j["case_id"] = j["case_id"].astype(str)
    j["source"] = j["source"].map(lambda v: _norm_source(v) if str(v) else "")
    j["group"] = j["group"].map(lambda v: _norm_group(v) if str(v) else "")
    j["most_impacted"] = j["most_impacted"].map(lambda v: _norm_group(v) if str(v) else "")
    j["label"] = j["label"].map(lambda v: str(v).strip().upper())
    return j


def judge_agreement(judgments: pd.DataFrame, human: pd.DataFrame) -> pd.DataFrame:
    """Percent agreement and Cohen's κ of each judge against human labels.

    ``judgments`` is a run's ``judgments`` table (columns ``judge, judge_model,
    status, case_id, context, source, group, model, dataset, label,
    most_impacted``); ``human`` comes from :func:`load_human_labels`. One row per
    judge × judge model × field (``decision``; ``most_impacted`` for the
    language-disparity judge when humans gave it), columns :data:`AGREEMENT_COLUMNS`.
    ``reliability`` is a plain-words summary (``"91% agreement, κ = 0.53 (n=72)"``).
    """
    from ...stats import cohens_kappa, percent_agreement

    j = _judge_frame(judgments)
    out: list[dict[str, Any]] = []
    for (judge_name, judge_model), jj in j.groupby(["judge", "judge_model"], sort=True, dropna=False):
        hh = human[human["judge"] == judge_name]
        if hh.empty:
            continue
        fields = ["decision"] + (["most_impacted"] if judge_name == "language_disparity"
                                 and (hh["most_impacted"] != "").any() else [])
        for fld in fields:
            h_vals: list[str] = []
            j_vals: list[str] = []
            n_unmatched = n_unparseable = 0
            n_human = 0
            for rec in hh.to_dict("records"):
                if fld == "most_impacted" and not rec["most_impacted"]:
                    continue
                n_human += 1
                mask = (jj["case_id"] == rec["case_id"]) & (jj["context"] == rec["context"])
                for k in ("source", "group", "model", "dataset"):
                    if rec[k]:
                        mask &= jj[k] == rec[k]
                hits = jj[mask]
                if hits.empty:
                    n_unmatched += 1
                    continue
                for hit in hits.to_dict("records"):
                    if hit["status"] != "ok":
                        n_unparseable += 1
                        continue
                    if fld == "decision":
                        h_vals.append(rec["label"])
                        j_vals.append(hit["label"])
                    else:
                        h_vals.append(rec["most_impacted"])
                        j_vals.append(hit["most_impacted"] or "(none)")
            n = len(h_vals)
            pa = percent_agreement(h_vals, j_vals) if n else math.nan
            kappa = cohens_kappa(h_vals, j_vals) if n else None
            kval = kappa.statistic if kappa is not None else math.nan
            knote = kappa.note if kappa is not None else "no matched labels"
            if n:
                ktext = f"κ = {kval:.2f}" if not math.isnan(kval) else "κ undefined"
                rel = f"{pa:.0f}% agreement, {ktext} (n={n})"
            else:
                rel = "no human label matched a parsed judgment"
            out.append({
                "judge": judge_name, "judge_model": judge_model, "field": fld, "n": n, "n_human": n_human,
                "n_unmatched": n_unmatched, "n_unparseable": n_unparseable, "percent_agreement": pa,
                "kappa": kval, "kappa_note": knote, "reliability": rel,
            })
    return pd.DataFrame(out, columns=AGREEMENT_COLUMNS)
