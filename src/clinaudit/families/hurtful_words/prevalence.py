"""Corpus prevalence of association categories by group (P4 Table 3, "Gender Ratio").

For each attribute category (e.g. ``CVD``: cvd, cad, chf, heart failure, ...)
the notes that mention *any* of the category's attribute strings are found
(case-insensitive, whole words: the string must not be preceded or followed
by a letter, digit or underscore; runs of whitespace inside a multi-word
attribute match any whitespace). Among those notes, the share belonging to
each group (e.g. the patient's recorded gender) is reported with its count,
its denominator and a binomial confidence interval
(:func:`statsmodels.stats.proportion.proportion_confint`, Wilson by default).

With a patient column the unit is the *patient* (as in P4: "out of all
patients who do have the label, what percentage are male or female"): a
patient counts once per category if any of their notes mentions it. Notes
whose group is missing are left out of the denominators and counted in
``n_missing_group``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ...errors import InputError

__all__ = ["attribute_pattern", "load_notes", "category_prevalence", "prevalence_results", "attributes_by_category",
           "PREVALENCE_COLUMNS"]

#: Columns of the prevalence table (one row per category × group).
PREVALENCE_COLUMNS: list[str] = [
    "category",
    "group",
    "n_group",
    "n_mentioning",
    "share",
    "ci_low",
    "ci_high",
    "ci_method",
    "unit",
    "n_missing_group",
    "n_total",
]


def attribute_pattern(words: Sequence[str]) -> re.Pattern[str]:
    """One case-insensitive, whole-word regex matching any of ``words``.

    Longer strings are tried first; inner whitespace matches any whitespace run.
    """
    cleaned = sorted({" ".join(str(w).split()) for w in words if str(w).strip()}, key=lambda w: (-len(w), w))
    if not cleaned:
        raise ValueError("attribute_pattern needs at least one non-empty attribute string")
    alts = [r"\s+".join(re.escape(part) for part in w.split(" ")) for w in cleaned]
    return re.compile(r"(?<!\w)(?:" + "|".join(alts) + r")(?!\w)", re.IGNORECASE)


def load_notes(
    path: str | Path, text_column: str, group_column: str, patient_column: str | None = None, encoding: str = "utf-8"
) -> pd.DataFrame:
    """Read a notes table (CSV, TSV or JSON Lines) into columns ``text``, ``group`` and ``patient``.

    Raises :class:`~clinaudit.errors.InputError` naming the file, the row and
    the field when the file or a column is missing or a text is not a string.
    """
    from ...loaders.formats import read_csv_table, read_jsonl_rows

    p = Path(path)
    if not p.is_file():
        raise InputError("notes file not found", file=str(p))
    wanted = {"text": text_column, "group": group_column}
    if patient_column:
        wanted["patient"] = patient_column
    if p.suffix.lower() in {".jsonl", ".ndjson"}:
        rows = read_jsonl_rows(p, encoding)
        records = []
        for row_no, obj in rows:
            rec: dict[str, Any] = {"row": row_no}
            for role, col in wanted.items():
                if col not in obj:
                    raise InputError(f"missing key for the {role} column", file=str(p), row=row_no, field=col)
                val = obj[col]
                if role == "text" and val is not None and not isinstance(val, str):
                    raise InputError(f"note text must be a string, got {type(val).__name__}", file=str(p),
                                     row=row_no, field=col)
                rec[role] = None if val is None else str(val)
            records.append(rec)
    else:
        table = read_csv_table(p, encoding)
        missing = [c for c in wanted.values() if c not in table.header]
        if missing:
            raise InputError(f"column not found; the header has: {', '.join(table.header)}", file=str(p),
                             field=missing[0])
        records = [{"row": n, **{role: rec[col] for role, col in wanted.items()}} for n, rec in table.rows]
    df = pd.DataFrame.from_records(records, columns=["row", *wanted])
    if "patient" not in df.columns:
        df["patient"] = None
    df["group"] = pd.Series([_clean_group(v) for v in df["group"]], index=df.index, dtype=object)
    df["text"] = [("" if _clean_group(v) is None else str(v)) for v in df["text"]]
    return df


def _clean_group(v: Any) -> str | None:
    """A group label, or ``None`` when missing (None, NaN, empty)."""
    if v is None:
        return None
    try:
        if pd.isna(v):
            return None
    except (TypeError, ValueError):
        pass
    text = str(v).strip()
    return text or None


def category_prevalence(
    notes: pd.DataFrame,
    attributes: Mapping[str, Sequence[str]],
    *,
    text_col: str = "text",
    group_col: str = "group",
    patient_col: str | None = None,
    groups: Sequence[str] | None = None,
    confidence: float = 0.95,
    ci_method: str = "wilson",
) -> pd.DataFrame:
    """Share of each group among the notes (or patients) mentioning each category.

    Parameters
    ----------
    notes:
        One row per note with its text and group (see :func:`load_notes`).
    attributes:
        Attribute strings per category code.
    patient_col:
        Count patients instead of notes (a patient counts once per category).
    groups:
        Groups to report, in order (default: every group present, sorted).
        A listed group with no mentions gets a share of 0.
    ci_method:
        Any ``method`` of :func:`statsmodels.stats.proportion.proportion_confint`.

    Returns one row per category × group with :data:`PREVALENCE_COLUMNS`.
    """
    from statsmodels.stats.proportion import proportion_confint

    for col in (text_col, group_col) + ((patient_col,) if patient_col else ()):
        if col not in notes.columns:
            raise KeyError(f"notes table has no column {col!r}")
    texts = notes[text_col].fillna("").astype(str)
    grp = pd.Series([_clean_group(v) for v in notes[group_col]], index=notes.index, dtype=object)
    known = grp.dropna()
    group_list = list(groups) if groups is not None else sorted(pd.unique(known))
    unit = "patients" if patient_col else "notes"
    n_total = int(notes[patient_col].nunique()) if patient_col else int(len(notes))
    rows: list[dict[str, Any]] = []
    for cat in attributes:
        hit = texts.map(attribute_pattern(list(attributes[cat])).search).notna()
        sub = pd.DataFrame({"group": grp[hit]})
        if patient_col:
            sub["unit"] = notes.loc[hit, patient_col].astype(str)
            # a patient counts once; conflicting group labels across a patient's notes are an input problem
            per = sub.dropna(subset=["group"]).groupby("unit")["group"].agg(lambda s: sorted(set(s)))
            clash = per[per.map(len) > 1]
            if len(clash):
                raise InputError(
                    f"patient {clash.index[0]!r} has notes with different groups {clash.iloc[0]}",
                    field=patient_col,
                )
            counts = per.map(lambda g: g[0]).value_counts()
            missing = int(len(set(sub["unit"]) - set(per.index)))  # mentioning patients with no known group
        else:
            counts = sub["group"].dropna().value_counts()
            missing = int(sub["group"].isna().sum())
        denom = int(counts.sum())
        for g in group_list:
            k = int(counts.get(g, 0))
            if denom > 0:
                low, high = proportion_confint(k, denom, alpha=1 - confidence, method=ci_method)
                share = k / denom
            else:
                low = high = share = float("nan")
            rows.append(
                {
                    "category": cat,
                    "group": g,
                    "n_group": k,
                    "n_mentioning": denom,
                    "share": share,
                    "ci_low": float(low),
                    "ci_high": float(high),
                    "ci_method": f"{ci_method} {int(round(confidence * 100))}%",
                    "unit": unit,
                    "n_missing_group": missing,
                    "n_total": n_total,
                }
            )
    return pd.DataFrame(rows, columns=PREVALENCE_COLUMNS)


def prevalence_results(prev: pd.DataFrame, audit: str = "prevalence") -> pd.DataFrame:
    """The prevalence table as tidy result rows (``metric="share_of_mentions"``).

    Shares are descriptive: no test, so no correction family; ``n`` is the
    number of notes (or patients) mentioning the category.
    """
    from ...results import result_row, results_frame

    rows = [
        result_row(
            audit=audit,
            metric="share_of_mentions",
            group=r.group,
            value=r.share,
            n=r.n_mentioning,
            ci_low=r.ci_low,
            ci_high=r.ci_high,
            ci_method=r.ci_method,
            category=r.category,
            count=r.n_group,
            unit=r.unit,
        )
        for r in prev.itertuples(index=False)
    ]
    return results_frame(rows)


def attributes_by_category(attributes_path: str | Path,
                           categories: Collection[str] | None = None) -> dict[str, list[str]]:
    """Attribute strings per category from an attributes file (only ``categories`` when given)."""
    from ...perturb.templates import load_attributes

    attrs: dict[str, list[str]] = {}
    for a in load_attributes(attributes_path):
        attrs.setdefault(a.category, []).append(a.attribute)
    if categories is not None:
        keep = set(categories)
        attrs = {c: v for c, v in attrs.items() if c in keep}
    return attrs
