"""Group metrics of a classifier under a label-stratified bootstrap, from cell counts.

Per task, the test rows are summarised as counts per (group, label, prediction)
cell; a stratified resample is a multinomial draw over a stratum's cells, so all
resamples of a task cost one ``rng.multinomial`` call per stratum (docs/metrics.md §2).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .core import bootstrap_indices

__all__ = ["GROUP_METRICS", "bootstrap_group_metrics", "metrics_from_counts", "gap_permutation_test",
           "max_gap_resamples", "max_gap_statistic", "rest_gap_p"]


GROUP_METRICS: tuple[str, ...] = ("positive_rate", "recall", "specificity", "accuracy")


def bootstrap_group_metrics(
    df: pd.DataFrame,
    task_col: str | None,
    group_col: str,
    label_col: str,
    pred_col: str,
    metrics: Sequence[str] = ("positive_rate", "recall", "specificity"),
    n_resamples: int = 1000,
    seed: int = 0,
    stratify_by_label: bool = True,
    method: str = "multinomial",
) -> dict[str, Any]:
    """Resampled classifier metrics per task × group, all from the same resamples.

    For each task, the test rows are resampled with replacement (within each
    label when ``stratify_by_label``, preserving the number of positives and
    negatives), and each metric is computed per group on each resample. Because
    all groups of a task share the resample, a gap between two groups and its
    CI come from the same resamples.

    Fast: a resample of a task is summarised by its counts per (group, label,
    prediction) cell. Within a stratum (label) each resample is a multinomial
    draw over the stratum's (group, prediction) cells, so 1000 resamples of
    30,000 rows cost one ``rng.multinomial`` call per stratum instead of
    30 million index draws.

    ``method="indices"`` instead draws an explicit (resamples × rows) index
    matrix per task (with :func:`bootstrap_indices`, in blocks) and counts
    cells with ``np.bincount``: the same distribution, slower, but resample
    for resample identical to a loop that uses those indices (used in tests).

    Returns a dict with

    - ``tasks``: task values (in order of first appearance; ``[None]`` when
      ``task_col`` is None),
    - ``groups``: group values (sorted),
    - ``metrics``: the metric names,
    - ``point``: array (tasks × groups × metrics) of the metric on the data,
    - ``resamples``: array (tasks × groups × metrics × n_resamples),
    - ``n``: array (tasks × groups) of rows per group,
    - ``n_pos``: array (tasks × groups) of label-positive rows per group,
    - ``counts``: array (tasks × groups × 2 [label] × 2 [prediction]) of the data's cell counts.

    Undefined values (a group with no rows, no positives for recall, no
    negatives for specificity) are NaN.
    """
    unknown = [m for m in metrics if m not in GROUP_METRICS]
    if unknown:
        raise ValueError(f"unknown group metric(s) {unknown}; choose from {GROUP_METRICS}")
    rng = np.random.default_rng(seed)
    if task_col is None:
        task_codes = np.zeros(len(df), dtype=np.intp)
        tasks: list[Any] = [None]
    else:
        task_codes, task_uniques = pd.factorize(df[task_col], sort=False)
        tasks = list(task_uniques)
    group_codes, group_uniques = pd.factorize(df[group_col], sort=True)
    groups = list(group_uniques)
    y = _as_binary(df[label_col], label_col)
    yhat = _as_binary(df[pred_col], pred_col)
    G = len(groups)
    T = len(tasks)
    M = len(metrics)
    point = np.full((T, G, M), np.nan)
    resamples = np.full((T, G, M, n_resamples), np.nan)
    n_rows = np.zeros((T, G), dtype=np.int64)
    n_pos = np.zeros((T, G), dtype=np.int64)
    all_counts = np.zeros((T, G, 2, 2), dtype=np.int64)
    # cell code within a task: group * 4 + label * 2 + prediction
    cell = group_codes.astype(np.int64) * 4 + y * 2 + yhat
    order = np.argsort(task_codes, kind="stable")
    bounds = np.searchsorted(task_codes[order], np.arange(T + 1))
    for t in range(T):
        rows = order[bounds[t] : bounds[t + 1]]
        if rows.size == 0:
            continue
        counts = np.bincount(cell[rows], minlength=G * 4).reshape(G, 2, 2).astype(np.int64)
        # counts[g, label, pred]
        if method == "multinomial":
            res_counts = _resample_cell_counts(counts, n_resamples, rng, stratify_by_label)
        elif method == "indices":
            res_counts = _index_cell_counts(cell[rows], y[rows] if stratify_by_label else None, G, n_resamples, rng)
        else:
            raise ValueError("method must be 'multinomial' or 'indices'")
        point[t] = metrics_from_counts(counts[..., None], metrics)[..., 0]
        resamples[t] = metrics_from_counts(res_counts, metrics)
        n_rows[t] = counts.sum(axis=(1, 2))
        n_pos[t] = counts[:, 1, :].sum(axis=1)
        all_counts[t] = counts
    return {
        "tasks": tasks,
        "groups": groups,
        "metrics": list(metrics),
        "point": point,
        "resamples": resamples,
        "n": n_rows,
        "n_pos": n_pos,
        "counts": all_counts,
    }


def _as_binary(s: pd.Series, name: str) -> np.ndarray:
    arr = pd.to_numeric(pd.Series(s), errors="coerce").to_numpy(dtype=float)
    if np.isnan(arr).any() or not np.isin(arr, (0.0, 1.0)).all():
        raise ValueError(f"column '{name}' must hold only 0/1 values (no missing values)")
    return np.asarray(arr.astype(np.int64))


def _resample_cell_counts(
    counts: np.ndarray, n_resamples: int, rng: np.random.Generator, stratify_by_label: bool
) -> np.ndarray:
    """Multinomial resampling of a task's (group, label, pred) cell counts.

    Returns counts with shape (G, 2, 2, n_resamples).
    """
    G = counts.shape[0]
    out = np.zeros((G, 2, 2, n_resamples), dtype=np.int64)
    if stratify_by_label:
        for label in (0, 1):
            stratum = counts[:, label, :].reshape(-1)  # G*2 cells
            total = int(stratum.sum())
            if total == 0:
                continue
            draws = rng.multinomial(total, stratum / total, size=n_resamples)  # (R, G*2)
            out[:, label, :, :] = draws.T.reshape(G, 2, n_resamples)
    else:
        flat = counts.reshape(-1)
        total = int(flat.sum())
        if total:
            draws = rng.multinomial(total, flat / total, size=n_resamples)
            out[:] = draws.T.reshape(G, 2, 2, n_resamples)
    return out


def _index_cell_counts(
    cells: np.ndarray, strata: np.ndarray | None, G: int, n_resamples: int, rng: np.random.Generator, block: int = 100
) -> np.ndarray:
    """Cell counts (G, 2, 2, R) from explicit resample indices, ``block`` resamples at a time."""
    idx = bootstrap_indices(len(cells), n_resamples, strata=strata, seed=rng)
    out = np.empty((n_resamples, G * 4), dtype=np.int64)
    for start in range(0, n_resamples, block):
        chunk = cells[idx[start : start + block]]  # (b, n)
        b = chunk.shape[0]
        flat = (chunk + (np.arange(b)[:, None] * G * 4)).ravel()
        out[start : start + b] = np.bincount(flat, minlength=b * G * 4).reshape(b, G * 4)
    return out.T.reshape(G, 2, 2, n_resamples)


def metrics_from_counts(counts: np.ndarray, metrics: Sequence[str]) -> np.ndarray:
    """counts (G, 2[label], 2[pred], R) → metric values (G, M, R), NaN where undefined."""
    tn = counts[:, 0, 0].astype(float)
    fp = counts[:, 0, 1].astype(float)
    fn = counts[:, 1, 0].astype(float)
    tp = counts[:, 1, 1].astype(float)
    n = tn + fp + fn + tp
    out = []
    with np.errstate(invalid="ignore", divide="ignore"):
        for m in metrics:
            if m == "positive_rate":
                num, den = tp + fp, n
            elif m == "recall":
                num, den = tp, tp + fn
            elif m == "specificity":
                num, den = tn, tn + fp
            elif m == "accuracy":
                num, den = tp + tn, n
            else:  # pragma: no cover - validated earlier
                raise ValueError(m)
            out.append(np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan))
    return np.stack(out, axis=1)


def _metric_rows(counts: np.ndarray, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """(rows the metric is computed on, rows counted in its numerator) per group from counts (G, 2, 2)."""
    if metric == "positive_rate":
        return counts.sum(axis=(1, 2)), counts[:, :, 1].sum(axis=1)
    if metric == "recall":
        return counts[:, 1, :].sum(axis=1), counts[:, 1, 1]
    if metric == "specificity":
        return counts[:, 0, :].sum(axis=1), counts[:, 0, 0]
    if metric == "accuracy":
        return counts.sum(axis=(1, 2)), counts[:, 0, 0] + counts[:, 1, 1]
    raise ValueError(f"unknown group metric {metric!r}; choose from {GROUP_METRICS}")


def max_gap_statistic(values: np.ndarray, reference: int | None = None) -> np.ndarray:
    """|gap| of every group (last axis) to the group it differs from most, max_i |m_j − m_i| (P4's multi-group
    gap, the reference chosen on these values), or to the fixed group ``reference`` (NaN for it); NaN values
    (undefined metrics) are never chosen, and a NaN group gets NaN."""
    v = np.asarray(values, dtype=float)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if reference is not None:
            out: np.ndarray = np.abs(v - v[..., reference : reference + 1])
            out[..., reference] = np.nan
            return out
        hi = np.nanmax(v, axis=-1, keepdims=True)
        lo = np.nanmin(v, axis=-1, keepdims=True)
        return np.asarray(np.maximum(hi - v, v - lo), dtype=float)


def max_gap_resamples(values: np.ndarray) -> np.ndarray:
    """Signed gap of every group (axis 0 of ``values``: groups × resamples) to the group it differs from most,
    the reference re-chosen in every resample (the selection is part of the statistic): m_j − max or m_j − min,
    whichever is larger in size (the minimum on a tie)."""
    v = np.asarray(values, dtype=float)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        to_hi = v - np.nanmax(v, axis=0, keepdims=True)
        to_lo = v - np.nanmin(v, axis=0, keepdims=True)
    return np.asarray(np.where(np.abs(to_lo) >= np.abs(to_hi), to_lo, to_hi), dtype=float)


def gap_permutation_test(counts: np.ndarray, metric: str, n_permutations: int, rng: np.random.Generator,
                         reference: int | None = None) -> np.ndarray:
    """Monte Carlo permutation p of every group's gap for ``metric`` from one task's counts (G, 2, 2).

    H0: the group labels are exchangeable over the rows the metric is computed on (all rows for the positive
    rate and the accuracy, the label's rows for recall and specificity): the metric does not depend on the group.
    A permutation of the group labels over those rows leaves every group's size and the rows' total of
    numerator rows (e.g. predicted positives) as they are, so the numerator counts of the groups are one draw of
    a multivariate hypergeometric distribution (numpy ``Generator.multivariate_hypergeometric``). The statistic
    is :func:`max_gap_statistic`: with ``reference`` None each group's largest |gap| to any other group, the
    reference re-chosen in every permutation, so choosing it on the data is part of the test. p =
    (1 + #(T* ≥ T)) / (R + 1) (two-sided in the gap's sign; never below 1/(R + 1)). Groups without rows for the
    metric (and the fixed reference) get NaN; fewer than two groups with rows: all NaN.
    """
    n, k = _metric_rows(np.asarray(counts, dtype=np.int64), metric)
    G = n.shape[0]
    p = np.full(G, np.nan)
    present = np.flatnonzero(n > 0)
    if present.size < 2 or n_permutations < 1:
        return p
    ref = None
    if reference is not None:
        if reference not in present:
            return p
        ref = int(np.flatnonzero(present == reference)[0])
    sizes, hits = n[present], k[present]
    observed = max_gap_statistic(hits / sizes, ref)
    draws = rng.multivariate_hypergeometric(sizes, int(hits.sum()), size=n_permutations)
    stats = max_gap_statistic(draws / sizes, ref)
    tol = 1e-12  # equal gaps computed from other counts may differ in the last bit
    ge = (stats >= observed - tol).sum(axis=0)
    p[present] = (1.0 + ge) / (n_permutations + 1.0)
    if ref is not None:
        p[reference] = np.nan
    return p


def _rest_gaps(sizes: np.ndarray, hits: np.ndarray) -> np.ndarray:
    total_n, total_k = sizes.sum(), hits.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(hits / sizes - (total_k - hits) / (total_n - sizes), dtype=float)


def rest_gap_p(counts: np.ndarray, metric: str, n_permutations: int,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Group-vs-rest from one task's counts (G, 2, 2): every group's ``metric`` minus that of all the other groups'
    rows pooled, and its Monte Carlo permutation p. The reference ("the rest") is fixed by the rule, not chosen on
    the data, so each group's question is one two-sample comparison. H0 as in :func:`gap_permutation_test` (the
    group labels exchangeable over the metric's rows; the group counts one multivariate hypergeometric draw);
    statistic the group's own |m_g − m_rest|; p = (1 + #(T* ≥ T)) / (R + 1). Returns (gap, p, rows, numerator rows)
    per group: gap and p NaN for a group without rows, all NaN with fewer than two groups with rows."""
    n, k = _metric_rows(np.asarray(counts, dtype=np.int64), metric)
    gap = np.full(n.shape[0], np.nan)
    p = np.full(n.shape[0], np.nan)
    present = np.flatnonzero(n > 0)
    if present.size < 2 or n_permutations < 1:
        return gap, p, n, k
    sizes, hits = n[present], k[present]
    observed = _rest_gaps(sizes, hits)
    draws = rng.multivariate_hypergeometric(sizes, int(hits.sum()), size=n_permutations)
    stats = np.abs(_rest_gaps(sizes, draws))
    ge = (stats >= np.abs(observed) - 1e-12).sum(axis=0)
    gap[present] = observed
    p[present] = (1.0 + ge) / (n_permutations + 1.0)
    return gap, p, n, k
