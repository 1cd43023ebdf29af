"""One tidy result table that every audit writes and every report reads.

Each row is one reported number: a metric for a group (or a difference between
a group and a reference), with its sample size, its confidence interval, the
test behind its p-value, the multiplicity-corrected p-value and the *family*
the correction was applied over.

A **family** is a declared, named set of rows whose p-values are corrected
together (for example "all recall gaps for the attribute *ethnicity* across the
57 tasks", or "the five regex perturbations for one model and question"). A
family is declared either by naming it directly (``family="perturbations"``:
every row passed in is one family) or by listing the columns whose values
define it (``family_cols=["metric", "attribute"]``: one family per distinct
combination). The family name is written into the ``family`` column so a
reader can always see which p-values were corrected together.

Columns (in this order, then any free extra columns such as ``dataset``,
``model``, ``perturbation``, ``question``, ``context``, ``task``):

``audit, metric, group, reference, value, n, ci_low, ci_high, ci_method, test,
statistic, p, p_adj, correction, family``
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["RESULT_COLUMNS", "result_row", "results_frame", "apply_correction", "cell_float"]

RESULT_COLUMNS: list[str] = [
    "audit",
    "metric",
    "group",
    "reference",
    "value",
    "n",
    "ci_low",
    "ci_high",
    "ci_method",
    "test",
    "statistic",
    "p",
    "p_adj",
    "correction",
    "family",
]

_NUMERIC = {"value", "ci_low", "ci_high", "statistic", "p", "p_adj"}
_DEFAULTS: dict[str, Any] = {
    "audit": "",
    "metric": "",
    "group": "",
    "reference": "",
    "value": math.nan,
    "n": 0,
    "ci_low": math.nan,
    "ci_high": math.nan,
    "ci_method": "",
    "test": "",
    "statistic": math.nan,
    "p": math.nan,
    "p_adj": math.nan,
    "correction": "",
    "family": "",
}


def cell_float(x: Any) -> float | None:
    """A result-table cell as a float, or None when it is not a number or is NaN (cells read back from a run's
    CSVs). :func:`clinaudit.report.formatting.as_float` is this function."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def _as_float(x: Any) -> float:
    if x is None:
        return math.nan
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def result_row(**kw: Any) -> dict[str, Any]:
    """A result row with every schema column present.

    Missing columns get their defaults (empty string for labels, NaN for
    numbers, 0 for ``n``); numeric columns are coerced to float (``None`` →
    NaN). Any extra keyword (``model="gpt-4o"``, ``task="sepsis"``) is kept as
    a free extra column.
    """
    row: dict[str, Any] = dict(_DEFAULTS)
    for key, value in kw.items():
        if key in _NUMERIC:
            row[key] = _as_float(value)
        elif key == "n":
            row[key] = 0 if value is None else int(value)
        elif key in ("group", "reference") and value is None:
            row[key] = ""
        else:
            row[key] = value
    return row


def results_frame(rows: Iterable[Mapping[str, Any]] | pd.DataFrame) -> pd.DataFrame:
    """Rows (dicts or a DataFrame) → DataFrame with :data:`RESULT_COLUMNS` first, in order.

    Missing schema columns are filled with their defaults; extra columns follow
    in first-seen order.
    """
    if isinstance(rows, pd.DataFrame):
        records = rows.to_dict("records")
    else:
        records = [dict(r) for r in rows]
    filled = [result_row(**r) for r in records]
    if not filled:
        return pd.DataFrame({c: pd.Series(dtype=_dtype(c)) for c in RESULT_COLUMNS})
    df = pd.DataFrame(filled)
    extra = [c for c in df.columns if c not in RESULT_COLUMNS]
    df = df[RESULT_COLUMNS + extra]
    for c in _NUMERIC:
        df[c] = df[c].astype("float64")
    df["n"] = df["n"].astype("int64")
    return df


def _dtype(col: str) -> str:
    if col in _NUMERIC:
        return "float64"
    if col == "n":
        return "int64"
    return "object"


def apply_correction(
    df: pd.DataFrame,
    family_cols: Sequence[str] | None = None,
    family: str | None = None,
    method: str = "fdr_bh",
) -> pd.DataFrame:
    """Fill ``p_adj``, ``correction`` and ``family`` by correcting p-values within families.

    Parameters
    ----------
    df:
        A result table (see :func:`results_frame`).
    family_cols:
        Columns whose distinct value combinations each form one family, e.g.
        ``["metric", "attribute"]``. The family name is the values joined with
        ``"|"`` (prefixed by ``family`` when both are given).
    family:
        A name for the family when all rows form one family (or a prefix when
        ``family_cols`` is also given).
    method:
        ``"fdr_bh"`` (Benjamini–Hochberg) or ``"bonferroni"``; any method name
        that :func:`statsmodels.stats.multitest.multipletests` accepts works.

    Rows whose ``p`` is NaN keep ``p_adj`` = NaN and do not count towards the
    family size. Returns a new frame; the input is not modified.
    """
    from .core import correct_pvalues

    if family_cols is None and family is None:
        raise ValueError("declare the family: pass family_cols=[...] or family='<name>'")
    out = results_frame(df) if not set(RESULT_COLUMNS) <= set(df.columns) else df.copy()
    if family_cols:
        missing = [c for c in family_cols if c not in out.columns]
        if missing:
            raise KeyError(f"family columns not in the result table: {missing}")
        keys = out[list(family_cols)].astype(str).agg("|".join, axis=1)
        names = keys if family is None else (family + ":" + keys)
    else:
        names = pd.Series([family] * len(out), index=out.index, dtype=object)
    p_adj = np.full(len(out), np.nan)
    pvals = out["p"].to_numpy(dtype=float)
    names_arr = names.to_numpy(dtype=object)
    for name in pd.unique(names_arr):
        mask = names_arr == name
        p_adj[mask] = correct_pvalues(pvals[mask], method=method)
    out["p_adj"] = p_adj
    out["correction"] = method
    out["family"] = names_arr
    return out
