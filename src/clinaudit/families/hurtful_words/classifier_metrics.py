"""The classifier-gaps audit's metrics (METHODS §4.5, P4 §4.1–4.2, Eq. 1–2).

The F1-optimal threshold, the note-level merge of window probabilities and the
bootstrap gap table across tasks with its Table-4 summary. The per-group metric
functions (:func:`~clinaudit.metrics.classifier.positive_rate`, ``recall``,
``specificity``, :func:`~clinaudit.metrics.classifier.multigroup_gaps`) are the core's
(:mod:`clinaudit.metrics.classifier`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...metrics.classifier import as_binary, multigroup_gaps

__all__ = [
    "f1_optimal_threshold",
    "merge_window_probs",
    "classifier_gap_table",
    "gap_summary",
]


def f1_optimal_threshold(y_true: Any, scores: Any) -> tuple[float, float]:
    """Decision threshold with the best F1 on (validation) data → ``(threshold, f1)``.

    Uses :func:`sklearn.metrics.precision_recall_curve`; predict positive when
    ``score >= threshold``. Ties in F1 go to the lowest threshold. NaN when
    there are no positives (F1 undefined).
    """
    from sklearn.metrics import precision_recall_curve

    t = as_binary(y_true, "y_true")
    s = np.asarray(scores, dtype=float).ravel()
    if t.sum() == 0:
        return (math.nan, math.nan)
    precision, rec, thresholds = precision_recall_curve(t, s)
    precision, rec = precision[:-1], rec[:-1]  # last point has no threshold
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(precision + rec > 0, 2 * precision * rec / (precision + rec), 0.0)
    k = int(np.argmax(f1))
    return float(thresholds[k]), float(f1[k])


def merge_window_probs(p_windows: Sequence[float] | np.ndarray, c: float) -> float:
    """Merge per-window probabilities of one long note into one (P4 Eq. 1).

    P = (P_max + P_mean · n/c) / (1 + n/c), with n the number of windows and c
    a per-task constant tuned on validation data. Large c → P_max; small c →
    P_mean. NaN for a note with no windows.
    """
    p = np.asarray(p_windows, dtype=float).ravel()
    if p.size == 0:
        return math.nan
    if c <= 0:
        raise ValueError("c must be positive")
    r = p.size / c
    return float((p.max() + p.mean() * r) / (1.0 + r))


#: the written name of each base metric's gap, as declared (metric_decls.py): the positive-rate gap is the
#: parity gap (demographic parity), so its rows find their margin and their per-group units
GAP_NAMES: dict[str, str] = {"positive_rate": "parity_gap", "recall": "recall_gap", "specificity": "specificity_gap"}


def classifier_gap_table(
    df: pd.DataFrame,
    task_col: str | None,
    label_col: str,
    pred_col: str,
    group_cols: Sequence[str] | str,
    metrics: Sequence[str] = ("positive_rate", "recall", "specificity"),
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    correction: str = "fdr_bh",
    audit: str = "classifier_gaps",
    stratify_by_label: bool = True,
    n_permutations: int = 9999,
    reference_group: Mapping[str, Any] | None = None,
    reach_alpha: float | None = None,
    comparison: str = "largest_gap",
) -> pd.DataFrame:
    """Per task × attribute × group × metric: value, multi-group gap, bootstrap CI, permutation p, BH.

    ``comparison="rest"`` (an attribute without a declared reference): each group against all the other groups'
    rows pooled, a reference fixed by the rule (:func:`_rest_rows`; one row per question: a two-group attribute
    gets one row, its first group against the other).

    For every protected attribute in ``group_cols`` and every task, each group's metric is computed, and
    its gap to the group it differs from most (:func:`multigroup_gaps`, P4 Eq. 2) is found on the data —
    or, for an attribute named in ``reference_group`` (attribute → group, declared before the data), its
    gap to that group (no row for the reference group itself).

    Because the reference is chosen on the data, the choice is part of the statistic: ``p`` is a Monte
    Carlo permutation p (:func:`clinaudit.stats.gap_permutation_test`, ``n_permutations`` relabellings of
    the group over the metric's rows, the reference re-chosen in every one; H0: the metric does not depend
    on the group), and ``ci_low``/``ci_high`` the percentile interval of the gap over ``n_resamples``
    bootstrap resamples of the task's test rows (stratified by label), the reference re-chosen in every
    resample (:func:`clinaudit.stats.max_gap_resamples`). P4's own interval (the reference held at the one
    chosen on the data) is kept as ``ci_low_p4``/``ci_high_p4``, and ``significant`` (P4 Table 4's "CI
    excludes 0") reads it. ``p`` is corrected with Benjamini–Hochberg across tasks within each family
    ``metric × attribute``. With a declared reference the three agree with a plain two-group comparison.
    ``reach_alpha``: raise ``n_permutations`` to the fewest with which Holm over every tested row of the
    table can reach ``reach_alpha / 2`` (m/(R + 1) < alpha/2), so the run-level correction does not rule
    every finding out (the rows' ``n_permutations`` say what was used).

    Returns a result table (:mod:`clinaudit.results` schema) with extra columns ``task``, ``attribute``,
    ``group_value`` (the group's own metric), ``reference_value``, ``n_group``, ``n_pos_group``,
    ``reference_source`` ("chosen on the data (largest gap)" or "declared") and ``significant``; ``value``
    is the gap, ``group`` the group and ``reference`` i*.
    """
    from ...results import result_row, results_frame
    from ...stats.resolution import draws_to_reach
    from ...stats import (
        apply_correction,
        bootstrap_group_metrics,
        gap_permutation_test,
        max_gap_resamples,
        percentile_ci,
    )

    cols = [group_cols] if isinstance(group_cols, str) else list(group_cols)
    declared = {str(k): v for k, v in (reference_group or {}).items()}
    rows: list[dict[str, Any]] = []
    strat = ", stratified by label" if stratify_by_label else ""
    per_attr = []
    for k, attr in enumerate(cols):
        sub = df[df[attr].notna()]
        res = bootstrap_group_metrics(
            sub,
            task_col,
            attr,
            label_col,
            pred_col,
            metrics=metrics,
            n_resamples=n_resamples,
            seed=seed + k,
            stratify_by_label=stratify_by_label,
        )
        groups = res["groups"]
        fixed = declared.get(attr)
        if fixed is not None and str(fixed) not in [str(g) for g in groups]:
            raise ValueError(f"reference_group: attribute '{attr}' has no group {fixed!r} in the test rows "
                             f"(groups: {', '.join(map(str, groups))})")
        per_attr.append((res, None if fixed is None else [str(g) for g in groups].index(str(fixed))))
    if reach_alpha is not None:  # enough relabellings that Holm over every tested row can reach reach_alpha / 2
        n_tests = sum(_tested_rows(res, fixed_idx) for res, fixed_idx in per_attr)
        n_permutations = max(n_permutations, draws_to_reach(n_tests, reach_alpha / 2))
    for k, attr in enumerate(cols):
        res, fixed_idx = per_attr[k]
        groups = res["groups"]
        perm_rng = np.random.default_rng([seed, k, 1])  # the permutations' own stream: the CIs stay as they were
        if comparison == "rest" and fixed_idx is None:
            rows += _rest_rows(res, attr, perm_rng, n_permutations, audit=audit, confidence=confidence)
            continue
        for t, task in enumerate(res["tasks"]):
            present = [g for g in range(len(groups)) if res["n"][t, g] > 0]
            for m, metric in enumerate(res["metrics"]):
                vals = {groups[g]: float(res["point"][t, g, m]) for g in present}
                if fixed_idx is None:
                    gaps = multigroup_gaps(vals)
                    # the bootstrap with the reference re-chosen in every resample, over the groups present
                    reselected = np.full((len(groups), n_resamples), np.nan)
                    if present:
                        reselected[present] = max_gap_resamples(res["resamples"][t, present, m])
                else:
                    gaps = {g: ({"gap": vals[g] - vals[groups[fixed_idx]], "reference": groups[fixed_idx]}
                                if fixed_idx in present and g != groups[fixed_idx] else
                                {"gap": math.nan, "reference": None}) for g in vals}
                p_perm = gap_permutation_test(res["counts"][t], metric, n_permutations, perm_rng, fixed_idx)
                for g in present:
                    gname = groups[g]
                    if fixed_idx is not None and g == fixed_idx:
                        continue  # the declared reference: its value is every other row's reference_value
                    ref = gaps[gname]["reference"]
                    if ref is None or math.isnan(gaps[gname]["gap"]):
                        lo = hi = lo4 = hi4 = p = math.nan
                        ref = None
                    else:
                        r = groups.index(ref)
                        diff = res["resamples"][t, g, m] - res["resamples"][t, r, m]
                        lo4, hi4 = percentile_ci(diff, confidence)
                        lo, hi = (lo4, hi4) if fixed_idx is not None else percentile_ci(reselected[g], confidence)
                        p = float(p_perm[g])
                    source = "declared" if fixed_idx is not None else "chosen on the data (largest gap)"
                    rows.append(
                        result_row(
                            audit=audit,
                            metric=GAP_NAMES.get(metric, f"{metric}_gap"),
                            group=gname,
                            reference=ref if ref is not None else "",
                            value=gaps[gname]["gap"],
                            n=int(res["n"][t].sum()),
                            ci_low=lo,
                            ci_high=hi,
                            ci_method=(
                                f"percentile bootstrap ({n_resamples} resamples{strat}"
                                + ("; the reference re-chosen in every resample)" if fixed_idx is None else ")")
                            ),
                            test=GAP_TEST if ref is not None else "",
                            p=p,
                            p_method="monte carlo" if ref is not None else "",
                            n_permutations=n_permutations if ref is not None else math.nan,
                            null_hypothesis=(_null_text(metric, attr, ref, fixed_idx is not None)
                                             if ref is not None else ""),
                            task=task,
                            attribute=attr,
                            base_metric=metric,
                            group_value=vals[gname],
                            reference_value=vals[ref] if ref is not None else math.nan,
                            reference_source=source if ref is not None else "",
                            n_group=int(res["n"][t, g]),
                            n_pos_group=int(res["n_pos"][t, g]),
                            ci_low_p4=lo4,
                            ci_high_p4=hi4,
                            significant=bool(not math.isnan(lo4) and (lo4 > 0 or hi4 < 0)),
                        )
                    )
    table = results_frame(rows)
    if len(table):
        table = apply_correction(table, family_cols=["base_metric", "attribute"], method=correction)
    return table


def _rest_rows(res: dict[str, Any], attr: str, rng: np.random.Generator, n_permutations: int, *, audit: str,
               confidence: float) -> list[dict[str, Any]]:
    """Group-vs-rest rows of one attribute (:func:`clinaudit.stats.rest_gap_p`): the gap of each group to the
    other groups' rows pooled, its permutation p, and Newcombe's interval for a difference of two independent
    proportions (statsmodels ``confint_proportions_2indep``). A two-group attribute has one question: its first
    group against the other (named as the reference)."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    from ...results import result_row
    from ...stats import rest_gap_p

    groups = res["groups"]
    out = []
    for t, task in enumerate(res["tasks"]):
        for metric in res["metrics"]:
            counts = np.asarray(res["counts"][t], dtype=np.int64)
            gap, p, n, hits = rest_gap_p(counts, metric, n_permutations, rng)
            present = [g for g in range(len(groups)) if n[g] > 0]
            two = len(present) == 2
            for g in present[:1] if two else present:
                if math.isnan(gap[g]):
                    continue
                n_rest, k_rest = int(n.sum() - n[g]), int(hits.sum() - hits[g])
                lo, hi = confint_proportions_2indep(int(hits[g]), int(n[g]), k_rest, n_rest, method="newcomb",
                                                    compare="diff", alpha=1 - confidence)
                ref = str(groups[present[1]]) if two else "rest"
                out.append(result_row(
                    audit=audit, metric=GAP_NAMES.get(metric, f"{metric}_gap"), group=groups[g], reference=ref,
                    value=float(gap[g]), n=int(res["n"][t].sum()), ci_low=float(lo), ci_high=float(hi),
                    ci_method="Newcombe (statsmodels confint_proportions_2indep), group vs the rest", test=GAP_TEST,
                    p=float(p[g]), p_method="monte carlo", n_permutations=n_permutations,
                    null_hypothesis=(f"H0: the {metric} does not depend on {attr} (group labels exchangeable over "
                                     f"{_ROWS.get(metric, 'the rows')}); statistic: |gap| of the group to the "
                                     "rest of the rows; two-sided Monte Carlo permutation p"),
                    task=task, attribute=attr, base_metric=metric, group_value=float(res["point"][t, g,
                                                                                        res["metrics"].index(metric)]),
                    reference_value=k_rest / n_rest if n_rest else math.nan, reference_source="the rest (group vs rest)",
                    n_group=int(res["n"][t, g]), n_pos_group=int(res["n_pos"][t, g]), ci_low_p4=float(lo),
                    ci_high_p4=float(hi), significant=bool(lo > 0 or hi < 0)))
    return out


def _tested_rows(res: dict[str, Any], fixed_idx: int | None) -> int:
    """How many rows of one attribute's gap table get a p (a group and a reference both with a defined metric)."""
    count = 0
    for t in range(len(res["tasks"])):
        for m in range(len(res["metrics"])):
            defined = [g for g in range(len(res["groups"])) if res["n"][t, g] > 0
                       and not math.isnan(float(res["point"][t, g, m]))]
            if fixed_idx is None:
                count += len(defined) if len(defined) >= 2 else 0
            elif fixed_idx in defined:
                count += len(defined) - 1
    return count


#: the ``test`` of a gap row: a permutation of the group labels (the reference re-chosen in each, unless declared)
GAP_TEST = "permutation of group labels over the metric's rows"

_ROWS = {"positive_rate": "all test rows", "recall": "the label-positive rows", "specificity": "the label-negative rows",
         "accuracy": "all test rows"}


def _null_text(metric: str, attr: str, ref: Any, declared: bool) -> str:
    stat = (f"|gap| to the declared reference {ref}" if declared else
            "the largest |gap| to any other group (the reference re-chosen in every permutation)")
    return (f"H0: the {metric} does not depend on {attr} (group labels exchangeable over "
            f"{_ROWS.get(metric, 'the rows')}); statistic: {stat}; two-sided Monte Carlo permutation p")


def gap_summary(table: pd.DataFrame, alpha: float | None = None) -> pd.DataFrame:
    """P4 Table 4 style summary: how many gaps are significant and whom they favour.

    For every ``metric × attribute`` (and group), counts the significant gaps
    across tasks and the percentage of those that *favour* the group (gap > 0:
    the group has the higher parity / recall / specificity). A gap counts as
    significant when its CI excludes 0 (``significant`` column); with
    ``alpha`` given, the BH-corrected ``p_adj < alpha`` is used instead.

    Columns: ``metric, attribute, group, n_tasks, n_significant, n_favour,
    pct_favour`` (NaN when nothing is significant).
    """
    if len(table) == 0:
        return pd.DataFrame(
            columns=["metric", "attribute", "group", "n_tasks", "n_significant", "n_favour", "pct_favour"]
        )
    t = table.copy()
    sig = t["p_adj"] < alpha if alpha is not None else t["significant"].astype(bool)
    t["_sig"] = sig.to_numpy()
    t["_fav"] = (t["_sig"] & (t["value"] > 0)).to_numpy()
    metric_col = "base_metric" if "base_metric" in t.columns else "metric"
    out = (
        t.groupby([metric_col, "attribute", "group"], sort=False)
        .agg(n_tasks=("task", "nunique"), n_significant=("_sig", "sum"), n_favour=("_fav", "sum"))
        .reset_index()
        .rename(columns={metric_col: "metric"})
    )
    out["n_significant"] = out["n_significant"].astype(int)
    out["n_favour"] = out["n_favour"].astype(int)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["pct_favour"] = np.where(
            out["n_significant"] > 0, 100.0 * out["n_favour"] / out["n_significant"].clip(lower=1), np.nan
        )
    return out
