"""Two-sample tests and a cluster bootstrap of a difference of means (P4's published statistics).

P4's published analysis code compares the male and female score distributions
per category with three *unpaired* tests; the paper's text names the *paired*
Wilcoxon signed-rank test (:func:`clinaudit.stats.wilcoxon_test`). This module
holds the unpaired ones, each exactly as scipy computes it, with the same
guards as the rest of the layer: a test that is undefined for the data returns
NaN with a ``note`` saying why instead of raising.

============  ==========================================  =====================================
name          scipy                                       null hypothesis (:data:`NULL_HYPOTHESES`)
============  ==========================================  =====================================
``rank-sum``  ``scipy.stats.ranksums(x, y)``              x and y come from one distribution
``ks``        ``scipy.stats.ks_2samp(x, y)`` (auto)       the two distributions are identical
``t``         ``scipy.stats.ttest_ind(x, y)`` (Student)   equal means (normal, equal variances)
============  ==========================================  =====================================

:func:`cluster_bootstrap_mean_difference` gives the percentile CI of
mean(a) − mean(b) (or of mean(a) alone) resampling *clusters* (e.g. the
filled sentence frame template × attribute: all target words of one frame move
together), so dependent rows are never treated as independent observations.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .core import StatResult, bootstrap_indices, percentile_ci

__all__ = [
    "TWO_SAMPLE_TESTS",
    "NULL_HYPOTHESES",
    "rank_sum_test",
    "ks_test",
    "t_test",
    "two_sample_test",
    "cluster_bootstrap_mean_difference",
]

#: Null hypothesis of each test, by the ``test`` name of its :class:`StatResult` (the scipy function).
NULL_HYPOTHESES: dict[str, str] = {
    "wilcoxon": "the paired differences are symmetric about 0 (two-sided: no shift between the paired scores)",
    "ranksums": "both samples come from the same distribution (neither is stochastically larger)",
    "ks_2samp": "both samples come from the same continuous distribution",
    "ttest_ind": "the two means are equal (normal scores with equal variances)",
}


def _clean(v: Sequence[float] | np.ndarray) -> np.ndarray:
    a = np.asarray(v, dtype=float).ravel()
    return np.asarray(a[~np.isnan(a)])


def _guard(name: str, x: np.ndarray, y: np.ndarray, min_each: int = 1) -> StatResult | None:
    n = int(x.size + y.size)
    if x.size < min_each or y.size < min_each:
        return StatResult(name, math.nan, math.nan, n, f"needs at least {min_each} value(s) per sample "
                                                       f"(got {x.size} and {y.size})")
    return None


def rank_sum_test(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
                  alternative: str = "two-sided") -> StatResult:
    """Wilcoxon rank-sum test of ``x`` vs ``y`` (:func:`scipy.stats.ranksums`, normal approximation).

    NaN values are dropped; ``n`` = n_x + n_y. The statistic is scipy's z
    (positive when ``x`` tends to be larger). Undefined (NaN, note) when a
    sample is empty.
    """
    from scipy.stats import ranksums

    xa, ya = _clean(x), _clean(y)
    bad = _guard("ranksums", xa, ya)
    if bad is not None:
        return bad
    res = ranksums(xa, ya, alternative=alternative)
    return StatResult("ranksums", float(res.statistic), float(res.pvalue), int(xa.size + ya.size))


def ks_test(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
            alternative: str = "two-sided") -> StatResult:
    """Two-sample Kolmogorov–Smirnov test (:func:`scipy.stats.ks_2samp`, ``method="auto"``).

    NaN values are dropped; ``n`` = n_x + n_y; the statistic is D (the largest
    distance between the two empirical CDFs). Undefined when a sample is empty.
    """
    from scipy.stats import ks_2samp

    xa, ya = _clean(x), _clean(y)
    bad = _guard("ks_2samp", xa, ya)
    if bad is not None:
        return bad
    res = ks_2samp(xa, ya, alternative=alternative)
    return StatResult("ks_2samp", float(res.statistic), float(res.pvalue), int(xa.size + ya.size))


def t_test(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
           alternative: str = "two-sided") -> StatResult:
    """Student's two-sample t test, pooled variance (:func:`scipy.stats.ttest_ind`, ``equal_var=True``).

    NaN values are dropped; ``n`` = n_x + n_y; statistic t > 0 when mean(x) >
    mean(y). Undefined (NaN, note) with fewer than 3 values in all (no degree
    of freedom), an empty sample, or no variance within the samples (scipy
    would return NaN or ±inf).
    """
    from scipy.stats import ttest_ind

    xa, ya = _clean(x), _clean(y)
    bad = _guard("ttest_ind", xa, ya)
    if bad is not None:
        return bad
    n = int(xa.size + ya.size)
    if n - 2 < 1:
        return StatResult("ttest_ind", math.nan, math.nan, n, "no degree of freedom (n_x + n_y - 2 < 1)")
    if float(((xa - xa.mean()) ** 2).sum() + ((ya - ya.mean()) ** 2).sum()) == 0.0:
        return StatResult("ttest_ind", math.nan, math.nan, n, "no variance within the samples")
    res = ttest_ind(xa, ya, equal_var=True, alternative=alternative)
    return StatResult("ttest_ind", float(res.statistic), float(res.pvalue), n)


#: Unpaired tests by their command-line name.
TWO_SAMPLE_TESTS: dict[str, Callable[..., StatResult]] = {"rank-sum": rank_sum_test, "ks": ks_test, "t": t_test}


def two_sample_test(name: str, x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
                    alternative: str = "two-sided") -> StatResult:
    """Run the unpaired test ``name`` (``rank-sum``, ``ks`` or ``t``; see :data:`TWO_SAMPLE_TESTS`)."""
    try:
        fn = TWO_SAMPLE_TESTS[name]
    except KeyError:
        raise ValueError(f"unknown two-sample test {name!r}; choose from {sorted(TWO_SAMPLE_TESTS)}") from None
    return fn(x, y, alternative=alternative)


def cluster_bootstrap_mean_difference(
    values: Sequence[float] | np.ndarray,
    clusters: Sequence[Any] | np.ndarray,
    in_a: Sequence[bool] | np.ndarray,
    in_b: Sequence[bool] | np.ndarray | None = None,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | np.random.Generator | None = 0,
) -> tuple[float, float]:
    """Percentile CI of mean(values[in_a]) − mean(values[in_b]) resampling clusters.

    Each resample draws as many clusters as there are, with replacement
    (:func:`clinaudit.stats.bootstrap_indices` over clusters); every row of a
    drawn cluster enters, in both samples, so rows of one cluster (the target
    words of one filled template, the seeds of one case) move together. The
    means are pooled over the drawn rows (Σ values / n rows), so the point
    estimate is the plain difference of means. With ``in_b=None`` the CI is of
    mean(values[in_a]) alone. Rows with a NaN value are ignored. Resamples in
    which a sample is empty are NaN and dropped by the percentile; ``(nan,
    nan)`` when no cluster holds data or ``n_resamples`` is 0.
    """
    v = np.asarray(values, dtype=float).ravel()
    a = np.asarray(in_a, dtype=bool).ravel()
    b = np.zeros_like(a) if in_b is None else np.asarray(in_b, dtype=bool).ravel()
    cl = np.asarray(clusters, dtype=object).ravel()
    if not (len(v) == len(a) == len(b) == len(cl)):
        raise ValueError("values, clusters, in_a and in_b must have the same length")
    ok = ~np.isnan(v)
    v, a, b, cl = v[ok], a[ok], b[ok], cl[ok]
    keep = a | b
    v, a, b, cl = v[keep], a[keep], b[keep], cl[keep]
    if v.size == 0 or n_resamples < 1:
        return (math.nan, math.nan)
    codes, uniques = pd.factorize(pd.Series(cl, dtype=object).astype(str), sort=True)
    C = len(uniques)
    sum_a = np.bincount(codes, weights=np.where(a, v, 0.0), minlength=C)
    n_a = np.bincount(codes, weights=a.astype(float), minlength=C)
    sum_b = np.bincount(codes, weights=np.where(b, v, 0.0), minlength=C)
    n_b = np.bincount(codes, weights=b.astype(float), minlength=C)
    idx = bootstrap_indices(C, n_resamples, seed=seed)  # (R, C) drawn cluster positions
    R = idx.shape[0]
    flat = (idx + np.arange(R)[:, None] * C).ravel()
    w = np.bincount(flat, minlength=R * C).reshape(R, C).astype(float)  # times each cluster was drawn
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_a = (w @ sum_a) / (w @ n_a)
        diff = mean_a if in_b is None else mean_a - (w @ sum_b) / (w @ n_b)
    diff = np.where(np.isfinite(diff), diff, np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        lo, hi = percentile_ci(diff, confidence)
    return float(lo), float(hi)
