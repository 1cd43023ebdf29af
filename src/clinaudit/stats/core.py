"""Statistics shared by every audit: bootstrap CIs, paired tests, corrections, effect sizes.

The tests themselves come from scipy, statsmodels and scikit-learn; this
module only chooses the right test, guards the degenerate cases (a test that
is undefined returns NaN with a ``note`` saying why, instead of crashing) and
returns results in a shape the result table (:mod:`clinaudit.results`) reads.

The bootstrap is vectorised: one matrix of resample indices (resamples × n) is
drawn, and the statistic is evaluated on all resamples at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "StatResult",
    "bootstrap_ci",
    "bootstrap_resamples",
    "bootstrap_indices",
    "percentile_ci",
    "bootstrap_p_value",
    "ZERO_ATOL",
    "ZERO_RTOL",
    "zero_small_differences",
    "paired_binary_test",
    "wilcoxon_test",
    "anova_oneway",
    "correct_pvalues",
    "cohens_d",
    "cohens_kappa",
    "percent_agreement",
]


@dataclass(frozen=True)
class StatResult:
    """The outcome of one statistical test or agreement measure.

    ``test`` names what was run (e.g. ``"mcnemar_exact"``), ``statistic`` and
    ``p`` are NaN when the test is undefined for the data, ``n`` is the number
    of (paired) observations used, and ``note`` explains any special case.
    """

    test: str
    statistic: float
    p: float
    n: int
    note: str = ""

    def as_row(self) -> dict[str, Any]:
        """The fields that go into a result row (``test``, ``statistic``, ``p``, ``n``)."""
        d = asdict(self)
        d.pop("note")
        return d


# --------------------------------------------------------------------------- bootstrap


def bootstrap_indices(
    n: int,
    n_resamples: int = 1000,
    strata: Sequence[Any] | np.ndarray | None = None,
    seed: int | np.random.Generator | None = 0,
) -> np.ndarray:
    """A (n_resamples × n) matrix of row indices drawn with replacement.

    With ``strata`` (one label per row), each resample draws within each
    stratum as many rows as the stratum holds, so stratum sizes are preserved
    (e.g. the number of positive and negative cases stays fixed when
    stratifying by label). Column positions of a stratum are the positions of
    its rows in the original order.
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    if n == 0:
        return np.zeros((n_resamples, 0), dtype=np.intp)
    if strata is None:
        return rng.integers(0, n, size=(n_resamples, n))
    codes, uniques = pd.factorize(np.asarray(strata), use_na_sentinel=False)
    if len(codes) != n:
        raise ValueError(f"strata has {len(codes)} labels for {n} rows")
    idx = np.empty((n_resamples, n), dtype=np.intp)
    for k in range(len(uniques)):
        members = np.flatnonzero(codes == k)
        draws = rng.integers(0, len(members), size=(n_resamples, len(members)))
        idx[:, members] = members[draws]
    return idx


def percentile_ci(values: np.ndarray, confidence: float = 0.95, axis: int = 0) -> tuple[Any, Any]:
    """Percentile interval of resampled values, ignoring NaN resamples.

    Returns NaN bounds where every resample is NaN.
    """
    alpha = (1.0 - confidence) / 2.0
    values = np.asarray(values, dtype=float)
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            low = np.nanquantile(values, alpha, axis=axis)
            high = np.nanquantile(values, 1.0 - alpha, axis=axis)
    if np.ndim(low) == 0:
        return float(low), float(high)
    return low, high


def bootstrap_resamples(
    stat_fn: Callable[..., np.ndarray],
    *arrays: Sequence[Any] | np.ndarray,
    n_resamples: int = 1000,
    strata: Sequence[Any] | np.ndarray | None = None,
    seed: int | np.random.Generator | None = 0,
) -> np.ndarray:
    """The statistic on every bootstrap resample (a 1-D array of length ``n_resamples``).

    ``arrays`` are equal-length, row-aligned (paired) arrays; the same rows are
    drawn from each. ``stat_fn`` receives one 2-D array per input (resamples ×
    n) and must return a 1-D array (one value per resample), e.g.
    ``lambda x: x.mean(axis=1)``.
    """
    arrs = [np.asarray(a) for a in arrays]
    if not arrs:
        raise ValueError("bootstrap needs at least one array")
    n = len(arrs[0])
    if any(len(a) != n for a in arrs):
        raise ValueError("all arrays must have the same length (they are paired by row)")
    idx = bootstrap_indices(n, n_resamples, strata=strata, seed=seed)
    values = np.asarray(stat_fn(*[a[idx] for a in arrs]), dtype=float)
    if values.shape != (n_resamples,):
        raise ValueError(
            f"stat_fn must return one value per resample (shape ({n_resamples},)), got {values.shape}"
        )
    return values


def bootstrap_ci(
    stat_fn: Callable[..., np.ndarray],
    *arrays: Sequence[Any] | np.ndarray,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    strata: Sequence[Any] | np.ndarray | None = None,
    seed: int | np.random.Generator | None = 0,
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval ``(low, high)`` of a statistic.

    Rows are resampled with replacement (within each stratum when ``strata``
    is given); ``stat_fn`` is evaluated on all resamples at once (see
    :func:`bootstrap_resamples`). Resamples where the statistic is undefined
    (NaN) are dropped before taking percentiles; if all are NaN the interval is
    ``(nan, nan)``. With an empty input the interval is ``(nan, nan)``.
    Reproducible for a given ``seed``.
    """
    if len(arrays) and len(arrays[0]) == 0:
        return (math.nan, math.nan)
    values = bootstrap_resamples(stat_fn, *arrays, n_resamples=n_resamples, strata=strata, seed=seed)
    return percentile_ci(values, confidence)


def bootstrap_p_value(values: np.ndarray, null: float = 0.0, axis: int = -1) -> np.ndarray | float:
    """Two-sided bootstrap p-value that the statistic equals ``null``, in the (b + 1)/(R + 1) form.

    Our reading (documented in ``docs/metrics.md``): with R the non-NaN resamples θ* and
    b = min(#(θ* ≤ null), #(θ* ≥ null)) the resamples on the far side of ``null``,
    ``p = min(1, 2·(b + 1)/(R + 1))`` — the smallest two-sided level at which the percentile
    interval would exclude ``null``, counted as Monte Carlo p-values are (the observed data
    count as one draw), so p is never 0: its smallest value is 2/(R + 1). p < 0.05 agrees with
    "the 95% percentile CI excludes ``null``" up to one resample at the bound. NaN when no
    resample is defined.
    """
    v = np.asarray(values, dtype=float)
    valid = ~np.isnan(v)
    n_valid = valid.sum(axis=axis)
    le = np.where(valid, v <= null, False).sum(axis=axis)
    ge = np.where(valid, v >= null, False).sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.minimum(1.0, 2.0 * (np.minimum(le, ge) + 1.0) / (n_valid + 1.0))
    p = np.where(n_valid > 0, p, np.nan)
    if np.ndim(p) == 0:
        return float(p)
    return p


# Grouped metrics that bootstrap_group_metrics computes from resampled counts.
# --------------------------------------------------------------------------- tests


def paired_binary_test(a: Sequence[Any] | np.ndarray, b: Sequence[Any] | np.ndarray) -> StatResult:
    """McNemar's test for paired binary labels (e.g. baseline vs perturbed treatment label).

    Only discordant pairs carry information: b01 = #(a=0, b=1), b10 = #(a=1, b=0).
    With fewer than 25 discordant pairs the exact binomial test on the
    discordant pairs is used (``test="mcnemar_exact"``); otherwise the
    chi-square statistic with continuity correction (``test="mcnemar_chi2"``).
    Both come from :func:`statsmodels.stats.contingency_tables.mcnemar`.
    With no discordant pairs (identical vectors) p = 1.0. Pairs where either
    value is missing are dropped; ``n`` is the number of complete pairs.
    """
    from statsmodels.stats.contingency_tables import mcnemar

    x = pd.to_numeric(pd.Series(np.asarray(a, dtype=object)), errors="coerce").to_numpy(dtype=float)
    y = pd.to_numeric(pd.Series(np.asarray(b, dtype=object)), errors="coerce").to_numpy(dtype=float)
    if len(x) != len(y):
        raise ValueError(f"paired vectors differ in length: {len(x)} vs {len(y)}")
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    if not (np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all()):
        raise ValueError("paired_binary_test needs 0/1 labels")
    n = int(len(x))
    b01 = int(((x == 0) & (y == 1)).sum())
    b10 = int(((x == 1) & (y == 0)).sum())
    discordant = b01 + b10
    if n == 0:
        return StatResult("mcnemar_exact", math.nan, math.nan, 0, "no complete pairs")
    if discordant == 0:
        return StatResult("mcnemar_exact", 0.0, 1.0, n, "no discordant pairs")
    table = [[int(((x == 0) & (y == 0)).sum()), b01], [b10, int(((x == 1) & (y == 1)).sum())]]
    exact = discordant < 25
    res = mcnemar(table, exact=exact, correction=True)
    return StatResult(
        "mcnemar_exact" if exact else "mcnemar_chi2",
        float(res.statistic),
        float(res.pvalue),
        n,
        f"discordant pairs: {b10} (1→0), {b01} (0→1)",
    )


# Differences this small are floating-point noise, not effects: two log-probabilities
# of -10 computed along different code paths differ by ~1e-15. Tests that rank
# differences (Wilcoxon) or take their signs (sign-flip permutation) treat them as 0.
ZERO_ATOL = 1e-12
ZERO_RTOL = 1e-9


def zero_small_differences(
    d: np.ndarray, scale: np.ndarray | float = 0.0, atol: float = ZERO_ATOL, rtol: float = ZERO_RTOL
) -> np.ndarray:
    r"""``d`` with every \|d\| ≤ atol + rtol · \|scale\| set to exactly 0 (NaN stays NaN).

    ``scale`` is the magnitude of the values that were subtracted (elementwise
    max of \|x\| and \|y\| for d = x − y), so the tolerance is relative to them.
    """
    d = np.asarray(d, dtype=float).copy()
    tol = atol + rtol * np.abs(np.asarray(scale, dtype=float))
    with np.errstate(invalid="ignore"):
        d[np.abs(d) <= tol] = 0.0
    return d


def wilcoxon_test(
    x: Sequence[float] | np.ndarray,
    y: Sequence[float] | np.ndarray | None = None,
    alternative: str = "two-sided",
    atol: float = ZERO_ATOL,
    rtol: float = ZERO_RTOL,
) -> StatResult:
    r"""Wilcoxon signed-rank test on paired values (or on ``x`` alone against 0).

    Uses :func:`scipy.stats.wilcoxon` (zero differences dropped, ``zero_method="wilcox"``).
    A difference with \|d\| ≤ ``atol + rtol · max(|x|, |y|)`` counts as zero
    (floating-point noise is not ranked as an effect; see
    :func:`zero_small_differences`). Pairs with a missing value are dropped.
    When every difference is zero the test is undefined: p = 1.0, statistic
    NaN, with a note. ``n`` is the number of complete pairs (before dropping
    zero differences). H0: the differences are symmetric about 0.
    """
    from scipy.stats import wilcoxon

    xa = np.asarray(x, dtype=float)
    if y is None:
        d, scale = xa, np.abs(xa)
    else:
        ya = np.asarray(y, dtype=float)
        d, scale = xa - ya, np.maximum(np.abs(xa), np.abs(ya))
    keep = ~np.isnan(d)
    d = zero_small_differences(d[keep], scale[keep], atol, rtol)
    n = int(d.size)
    if n == 0:
        return StatResult("wilcoxon", math.nan, math.nan, 0, "no complete pairs")
    if np.all(d == 0):
        return StatResult("wilcoxon", math.nan, 1.0, n, "all differences are zero (within tolerance)")
    res = wilcoxon(d, zero_method="wilcox", alternative=alternative)
    note = "" if np.all(d != 0) else f"{int((d == 0).sum())} zero differences dropped"
    return StatResult("wilcoxon", float(res.statistic), float(res.pvalue), n, note)


def anova_oneway(*groups: Sequence[float] | np.ndarray) -> StatResult:
    """One-way ANOVA across groups (:func:`scipy.stats.f_oneway`).

    NaN values are dropped within each group, and empty groups are dropped.
    Undefined (NaN with the reason in ``note``) when fewer than two groups
    remain, when no group has two values, or when there is no variance within
    the groups. ``n`` is the total number of values used.
    """
    from scipy.stats import f_oneway

    arrs = [np.asarray(g, dtype=float) for g in groups]
    arrs = [a[~np.isnan(a)] for a in arrs]
    arrs = [a for a in arrs if a.size > 0]
    n = int(sum(a.size for a in arrs))
    if len(arrs) < 2:
        return StatResult("anova_oneway", math.nan, math.nan, n, "fewer than two non-empty groups")
    if n - len(arrs) < 1:
        return StatResult("anova_oneway", math.nan, math.nan, n, "no within-group degrees of freedom")
    within = sum(float(((a - a.mean()) ** 2).sum()) for a in arrs)
    if within == 0.0:
        return StatResult("anova_oneway", math.nan, math.nan, n, "no variance within groups")
    res = f_oneway(*arrs)
    return StatResult("anova_oneway", float(res.statistic), float(res.pvalue), n)


def correct_pvalues(p: Sequence[float] | np.ndarray, method: str = "fdr_bh") -> np.ndarray:
    """Multiplicity-corrected p-values (:func:`statsmodels.stats.multitest.multipletests`).

    ``method`` is ``"fdr_bh"`` (Benjamini–Hochberg) or ``"bonferroni"`` (or any
    other statsmodels method). NaN p-values stay NaN and do not count towards
    the number of tests.
    """
    from statsmodels.stats.multitest import multipletests

    arr = np.asarray(p, dtype=float)
    out = np.full(arr.shape, np.nan)
    ok = ~np.isnan(arr)
    if ok.any():
        out[ok] = multipletests(arr[ok], method=method)[1]
    return out


# --------------------------------------------------------------------------- effect sizes / agreement


def cohens_d(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, paired: bool = False) -> float:
    """Cohen's d of ``a`` vs ``b`` (positive when ``a`` is larger on average).

    Unpaired: (mean(a) − mean(b)) / s_pooled with
    s_pooled = sqrt(((n_a − 1)·var(a) + (n_b − 1)·var(b)) / (n_a + n_b − 2)), sample
    variances (ddof=1). Paired: mean(a − b) / sd(a − b) (ddof=1, "d_z").
    scipy has no two-sample Cohen's d, and statsmodels'
    ``meta_analysis.effectsize_smd`` returns Hedges' g (d times the small-sample
    factor 1 − 3/(4N − 9), N = n_a + n_b, and marked as unstable API), so this is
    the textbook formula; the tests cross-check it against statsmodels by
    undoing that factor. NaN when undefined (fewer than 2
    observations per sample or zero spread). Missing values are dropped
    (pairwise when paired).
    """
    xa = np.asarray(a, dtype=float)
    xb = np.asarray(b, dtype=float)
    if paired:
        if xa.shape != xb.shape:
            raise ValueError("paired samples must have the same length")
        d = xa - xb
        d = d[~np.isnan(d)]
        if d.size < 2:
            return math.nan
        sd = float(np.std(d, ddof=1))
        return math.nan if sd == 0 else float(d.mean() / sd)
    xa = xa[~np.isnan(xa)]
    xb = xb[~np.isnan(xb)]
    na, nb = xa.size, xb.size
    if na < 2 or nb < 2:
        return math.nan
    pooled = ((na - 1) * np.var(xa, ddof=1) + (nb - 1) * np.var(xb, ddof=1)) / (na + nb - 2)
    if pooled == 0:
        return math.nan
    return float((xa.mean() - xb.mean()) / math.sqrt(pooled))


def cohens_kappa(a: Sequence[Any], b: Sequence[Any]) -> StatResult:
    """Cohen's κ between two raters (e.g. a judge and a clinician), via scikit-learn.

    Returned as a :class:`StatResult` with ``test="cohens_kappa"``, the value
    in ``statistic`` and ``p`` NaN. When both raters give one and the same
    label to every item, chance agreement is 1 and κ is undefined (0/0): κ is
    NaN with a note (percent agreement is then 100%). Pairs with a missing
    label are dropped.
    """
    from sklearn.metrics import cohen_kappa_score

    sa, sb = _paired_labels(a, b)
    n = len(sa)
    if n == 0:
        return StatResult("cohens_kappa", math.nan, math.nan, 0, "no complete pairs")
    labels = set(sa) | set(sb)
    if len(labels) == 1:
        return StatResult("cohens_kappa", math.nan, math.nan, n, "undefined: both raters used one identical label")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        k = float(cohen_kappa_score(sa, sb))
    note = "" if not math.isnan(k) else "undefined: chance agreement is 1"
    return StatResult("cohens_kappa", k, math.nan, n, note)


def percent_agreement(a: Sequence[Any], b: Sequence[Any]) -> float:
    """Percentage (0–100) of items on which two raters give the same label.

    Pairs with a missing label are dropped; NaN when no pair remains.
    """
    sa, sb = _paired_labels(a, b)
    if not sa:
        return math.nan
    return float(100.0 * sum(x == y for x, y in zip(sa, sb)) / len(sa))


def _paired_labels(a: Sequence[Any], b: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    la, lb = list(a), list(b)
    if len(la) != len(lb):
        raise ValueError(f"rater label vectors differ in length: {len(la)} vs {len(lb)}")
    pairs = [(x, y) for x, y in zip(la, lb) if not (_isna(x) or _isna(y))]
    return [str(x) if not isinstance(x, (int, float, np.integer, np.floating)) else x for x, _ in pairs], [
        str(y) if not isinstance(y, (int, float, np.integer, np.floating)) else y for _, y in pairs
    ]


def _isna(x: Any) -> bool:
    try:
        return bool(pd.isna(x))
    except (TypeError, ValueError):
        return False
