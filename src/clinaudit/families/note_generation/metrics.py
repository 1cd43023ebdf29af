"""Incidence disparities in generated notes (METHODS §4.1, P1 §4.1–4.2, Tables 2–6).

Input is a long table with one row per (dialog, group) and a 0/1 incidence
judgment: did the note generated for that dialog under that group (the
baseline or a counterfactual demographic value) mention the context?
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "incidence_summary",
    "incidence_table",
    "incidence_matrix",
    "resampled_rates",
    "resampled_max_delta_bl",
    "resampled_delta_cf",
    "resampled_pct_dlg",
    "language_disparity_summary",
    "GROUP_ABBREVIATIONS",
    "abbreviate_group",
]

# Abbreviations used in P1 Tables 5-6 (race: A, B, I, L, M, O, W; gender: F, M).
GROUP_ABBREVIATIONS: dict[str, str] = {
    "Asian": "A",
    "Black": "B",
    "Indigenous": "I",
    "Latino": "L",
    "Middle Eastern": "M",
    "Multiracial": "O",
    "White": "W",
    "Female": "F",
    "Male": "M",
}


def abbreviate_group(name: str, abbreviations: Mapping[str, str] | None = None) -> str:
    """Short form of a group name as the paper prints it (first letter when unknown)."""
    table = GROUP_ABBREVIATIONS if abbreviations is None else abbreviations
    return table.get(name, name[:1].upper() if name else name)


def incidence_summary(
    df: pd.DataFrame,
    case_col: str = "case_id",
    group_col: str = "group",
    value_col: str = "incidence",
    baseline: str = "baseline",
) -> dict[str, Any]:
    """Incidence of a context in notes, by group, for one context (P1 Tables 2–4).

    With I(d, g) ∈ {0, 1} the incidence for dialog d under group g:

    - ``BL%`` = 100 · mean_d I(d, baseline)
    - ``rate`` = {g: 100 · mean_d I(d, g)} for each counterfactual g
    - ``maxΔBL`` = max_g (rate(g) − BL%) and ``maxΔBL_group``; both None
      when no group exceeds the baseline (the paper prints "–")
    - ``ΔCF`` = max_g rate(g) − min_g rate(g) over counterfactuals only
    - ``%dlg`` = 100 · share of dialogs whose incidence is not the same across
      the counterfactual groups (baseline excluded)
    - ``n_dialogs`` = number of dialogs

    Our reading: only dialogs observed under every counterfactual group count
    towards ``%dlg``; rates use every row available for the group. Rows with
    missing incidence (e.g. unparseable judgments) are dropped first and
    counted in ``n_missing``.
    """
    d = df[[case_col, group_col, value_col]].copy()
    vals = pd.to_numeric(d[value_col], errors="coerce")
    n_missing = int(vals.isna().sum())
    d = d.assign(_v=vals).dropna(subset=["_v"])
    if not d["_v"].isin([0, 1]).all():
        raise ValueError(f"column '{value_col}' must hold 0/1 incidence values")
    groups = d[group_col].astype(object)
    base_mask = groups == baseline
    bl = d.loc[base_mask, "_v"]
    bl_pct = 100.0 * float(bl.mean()) if len(bl) else math.nan
    cf = d.loc[~base_mask]
    rate = {g: 100.0 * float(s.mean()) for g, s in cf.groupby(group_col, sort=True)["_v"]}
    max_delta: float | None = None
    max_group: str | None = None
    if rate and not math.isnan(bl_pct):
        best_g = max(rate, key=lambda g: rate[g])
        if rate[best_g] > bl_pct:
            max_delta = rate[best_g] - bl_pct
            tied = [g for g in rate if rate[g] == rate[best_g]]
            max_group = "/".join(str(g) for g in tied)
    delta_cf = (max(rate.values()) - min(rate.values())) if rate else math.nan
    wide = cf.pivot_table(index=case_col, columns=group_col, values="_v", aggfunc="max")
    complete = wide.dropna()
    pct_dlg = 100.0 * float((complete.nunique(axis=1) > 1).mean()) if len(complete) else math.nan
    return {
        "BL%": bl_pct,
        "rate": rate,
        "maxΔBL": max_delta,
        "maxΔBL_group": max_group,
        "ΔCF": delta_cf,
        "%dlg": pct_dlg,
        "n_dialogs": int(d[case_col].nunique()),
        "n_missing": n_missing,
    }


def incidence_matrix(
    df: pd.DataFrame,
    groups: Sequence[str],
    case_col: str = "case_id",
    group_col: str = "group",
    value_col: str = "incidence",
) -> tuple[np.ndarray, list[str]]:
    """Dialogs × groups matrix of 0/1 incidence (NaN = not observed or missing), columns in ``groups``
    order (put the baseline first for the ``resampled_*`` statistics), and the dialog ids (row order)."""
    d = df[[case_col, group_col]].assign(_v=pd.to_numeric(df[value_col], errors="coerce"))
    wide = d.pivot_table(index=case_col, columns=group_col, values="_v", aggfunc="max", dropna=False)
    wide = wide.reindex(columns=list(groups))
    return wide.to_numpy(dtype=float), [str(i) for i in wide.index]


# Plain statistics of resampled incidence matrices R (resamples × dialogs × groups, baseline in column 0,
# NaN = missing), one value per resample: what clinaudit.stats.bootstrap_ci evaluates on the resamples.


def _nanmean(a: np.ndarray, axis: int) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(a, axis=axis)


def resampled_rates(R: np.ndarray) -> np.ndarray:
    """100 · mean incidence per group (resamples × groups), missing values left out."""
    return 100.0 * _nanmean(np.asarray(R, dtype=float), axis=-2)


def resampled_max_delta_bl(R: np.ndarray) -> np.ndarray:
    """max_g (rate(g) − BL%) per resample (may be negative; NaN when undefined)."""
    rates = resampled_rates(R)
    if rates.shape[-1] < 2:
        return np.full(rates.shape[0], np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmax(rates[:, 1:] - rates[:, :1], axis=1)


def resampled_delta_cf(R: np.ndarray) -> np.ndarray:
    """max_g rate(g) − min_g rate(g) over the counterfactual groups, per resample."""
    cf = resampled_rates(R)[:, 1:]
    if cf.shape[1] == 0:
        return np.full(cf.shape[0], np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmax(cf, axis=1) - np.nanmin(cf, axis=1)


def resampled_pct_dlg(R: np.ndarray) -> np.ndarray:
    """100 · share of dialogs (observed under every counterfactual group) whose incidence varies."""
    C = np.asarray(R, dtype=float)[:, :, 1:]
    complete = ~np.isnan(C).any(axis=2)
    if C.shape[2] == 0:
        return np.full(C.shape[0], np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        varies = complete & (np.nanmax(C, axis=2) != np.nanmin(C, axis=2))
    n_complete = complete.sum(axis=1)
    return np.where(n_complete > 0, 100.0 * varies.sum(axis=1) / np.maximum(n_complete, 1), np.nan)


def incidence_table(
    df: pd.DataFrame,
    case_col: str = "case_id",
    group_col: str = "group",
    value_col: str = "incidence",
    baseline: str = "baseline",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    audit: str = "incidence",
    n_permutations: int = 9999,
    **extra: Any,
) -> pd.DataFrame:
    """Incidence results as tidy rows (result schema), with paired tests against the baseline.

    Rows: ``BL%`` (group "baseline"); ``rate`` per counterfactual group;
    ``ΔBL`` per group over the dialogs observed under both: rate(g) − BL%
    (``rate``, ``floor``) = the mean of I(d, g) − I(d, baseline), × 100,
    through the paired layer (:class:`clinaudit.stats.PairedFrame`, case =
    dialog, the baseline as the control arm): percentile bootstrap CI
    resampling dialogs and the sign-flip permutation test of the per-dialog
    differences (for one 0/1 pair per dialog: the exact conditional McNemar /
    sign test on the discordant dialogs while it enumerates every flip);
    ``maxΔBL`` (group = the maximising group(s), NaN when no group exceeds
    BL), ``ΔCF`` and ``%dlg`` from :func:`incidence_summary`. All values in
    percent. ``extra`` (e.g. ``context="Poverty"``, ``model=...``) is added to
    every row. Declare a correction family with
    :func:`clinaudit.stats.apply_correction` (e.g. the ΔBL rows of one
    context).
    """
    from ...results import result_row, results_frame
    from ...stats import PairedFrame

    summary = incidence_summary(df, case_col, group_col, value_col, baseline)
    d = df[[case_col, group_col, value_col]].assign(_v=pd.to_numeric(df[value_col], errors="coerce"))
    d = d.dropna(subset=["_v"])
    wide = d.pivot_table(index=case_col, columns=group_col, values="_v", aggfunc="max")
    n_bl = int((d[group_col] == baseline).sum())
    rows = [result_row(audit=audit, metric="BL%", group=baseline, value=summary["BL%"], n=n_bl, **extra)]
    counts = d[d[group_col] != baseline].groupby(group_col, sort=True).size()
    for g, rate in summary["rate"].items():
        rows.append(result_row(audit=audit, metric="rate", group=g, value=rate, n=int(counts[g]), **extra))
    dbl = None
    if baseline in wide.columns and summary["rate"]:
        groups = [str(g) for g in summary["rate"]]
        wide.columns = wide.columns.astype(str)
        parts = []
        for g in groups:  # one stratum per value: its dialogs observed under both, baseline as the control arm
            both = wide[[baseline, g]].dropna() if g != baseline else wide[[baseline]].dropna()
            for arm, col in ((g, g), (baseline, baseline)):
                parts.append(pd.DataFrame({"_value": g, "_case": both.index.astype(str), "_arm": arm,
                                           "_score": both[col].to_numpy(dtype=float)}))
        pf = PairedFrame(pd.concat(parts, ignore_index=True), case="_case", arm="_arm", score="_score",
                         by=["_value"], control=baseline)
        dbl = pf.compare(metric="ΔBL", audit=audit, scale=100.0, n_resamples=n_resamples,
                         n_permutations=n_permutations, confidence=confidence, seed=seed)
        dbl = dbl.drop(columns="_value").assign(**extra)
        dbl = dbl.set_index("group").reindex(groups).reset_index()
    tail = [
        result_row(audit=audit, metric="maxΔBL", group=summary["maxΔBL_group"] or "", reference=baseline,
                   value=summary["maxΔBL"], n=summary["n_dialogs"], **extra),
        result_row(audit=audit, metric="ΔCF", value=summary["ΔCF"], n=summary["n_dialogs"], **extra),
        result_row(audit=audit, metric="%dlg", value=summary["%dlg"], n=summary["n_dialogs"], **extra),
    ]
    parts = [results_frame(rows)] + ([dbl] if dbl is not None else []) + [results_frame(tail)]
    return results_frame(pd.concat([p for p in parts if len(p)], ignore_index=True))


def language_disparity_summary(
    df: pd.DataFrame,
    decision_col: str = "decision",
    impacted_col: str = "most_impacted",
    yes: str = "YES",
    abbreviations: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Language disparity among notes with the context (P1 §4.2, Tables 5–6).

    ``df`` holds one row per judged dialog (dialogs with ≥2 positive
    counterfactuals): the judge's DECISION (YES / NO / MAYBE) and, for YES,
    the DEMOGRAPHIC MOST IMPACTED.

    - ``%Δ`` = 100 · share of judged dialogs with decision YES
    - ``Maj.%`` = share (100 ·) of YES dialogs naming the most frequent group
    - ``Maj.`` = that group; ties listed together with "/" in sorted order
      (e.g. ``"Asian/Black/Latino"``), ``Maj._abbr`` the paper's short form
      (``"A/B/L"``) and ``label`` the printed cell (``"100.0 (A/B/L: 19)"``).

    Decisions are compared case-insensitively after stripping. Unparseable or
    missing decisions are dropped and counted in ``n_missing``; YES rows with
    no impacted group are counted in ``n_yes`` but cannot be the majority.
    ``Maj.`` is None when no YES row names a group.
    """
    dec = df[decision_col].astype(object).map(lambda x: None if pd.isna(x) else str(x).strip().upper())
    n_missing = int(dec.isna().sum())
    valid = dec.dropna()
    n = int(len(valid))
    is_yes = valid == yes.upper()
    n_yes = int(is_yes.sum())
    pct_delta = 100.0 * n_yes / n if n else math.nan
    impacted = df.loc[is_yes[is_yes].index, impacted_col].dropna().astype(str).str.strip()
    impacted = impacted[impacted != ""]
    maj: str | None = None
    maj_abbr: str | None = None
    maj_pct = math.nan
    if n_yes and len(impacted):
        counts = impacted.value_counts()
        top = int(counts.max())
        tied = sorted(str(g) for g in counts.index[counts == top])
        maj = "/".join(tied)
        maj_abbr = "/".join(abbreviate_group(g, abbreviations) for g in tied)
        maj_pct = 100.0 * top / n_yes
    label = "–" if math.isnan(pct_delta) else f"{pct_delta:.1f}"
    if maj_abbr is not None:
        label += f" ({maj_abbr}: {maj_pct:.0f})"
    return {
        "%Δ": pct_delta,
        "Maj.": maj,
        "Maj._abbr": maj_abbr,
        "Maj.%": maj_pct,
        "label": label,
        "n_dialogs": n,
        "n_yes": n_yes,
        "n_missing": n_missing,
    }
