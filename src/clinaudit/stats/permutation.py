"""Permutation tests of the paired layer: sign flips over cases, relabelling of subgroups.

**Sign-flip test** (:func:`sign_flip_test`) of mean(d) = 0 for per-case differences d. Under H0
(each d_c symmetric about 0) the 2^n sign patterns are equally likely. The p-value is computed

* **exactly for any n** when the d_c lie on a lattice k/L (L ≤ :data:`MAX_DENOMINATOR`), which
  case-level differences of 0/1 (or ½) scores always do: d_c = mean of k_c arm scores − mean of
  m_c control scores is a multiple of 1/lcm(k_c, m_c, 2). With v_c = L·d_c integers, the positive
  part W = Σ_c [ε_c = +1]·|v_c| of a random sign pattern is a sum of independent Bernoulli(½)·|v_c|:
  its distribution is the convolution, over the distinct magnitudes a with multiplicity m, of
  Binomial(m, ½) (:func:`scipy.stats.binom.pmf`) placed on multiples of a. Observed and permuted
  statistics are then compared as integers, so ties are exact. With ±1 differences this is the
  binomial sign test (:func:`scipy.stats.binomtest`; tested).
* **exactly by enumeration** of the 2^n patterns when the d_c are not on such a lattice and
  2^n ≤ ``n_permutations``;
* otherwise by **Monte Carlo** over ``n_permutations`` random sign patterns, p = (b + 1)/(N + 1)
  (b = patterns at least as extreme). When b = 0 the p-value is reported as a **bound**,
  p < 1/(N + 1) (``p_method = "bound"``): the draws only say that p is below their resolution.

One-sided p = P(T ≥ t) (``greater``) or P(T ≤ t) (``less``); two-sided p = P(|T| ≥ |t|), which for
the symmetric sign-flip null equals scipy's 2·min(P(T ≥ t), P(T ≤ t)) capped at 1. Statistics are
compared with an **absolute** tolerance (:func:`_tolerance`: 1e-9 × the largest \\|d\\|), so a
permuted statistic equal to the observed one up to floating-point rounding is counted as tied even
when the observed statistic is 0 (scipy's tolerance is relative to the observed statistic and
counts none then).

**Subgroup test** (:func:`studentised_permutation_test`): permutation of the subgroup labels across
cases on Welch's t = (ā − b̄) / √(s²_a/n_a + s²_b/n_b) — a studentised statistic, whose permutation
test keeps its level when the subgroups differ in size and spread (Janssen 1997), unlike the raw
difference of means (:func:`two_sample_permutation_test`, kept for reference). Exact over all
C(n_a + n_b, n_a) relabellings when that is ≤ ``n_permutations``, else Monte Carlo as above.

Monte Carlo draws come from the caller's generator in the same order scipy's
``permutation_test`` draws them, so the generator a caller shares with its bootstrap (the paired
layer) advances exactly as before: the CIs of later cells do not depend on which p-value route a
test took.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

import numpy as np

from .core import ZERO_ATOL

__all__ = [
    "ALTERNATIVES",
    "check_alternative",
    "MAX_DENOMINATOR",
    "P_METHODS",
    "PermutationResult",
    "sign_flip_test",
    "sign_flip_p",
    "lattice",
    "studentised_permutation_test",
    "two_sample_permutation_test",
    "welch_t",
]

ALTERNATIVES = ("two-sided", "greater", "less")
#: the largest lattice denominator L tried for exact sign-flip p-values
MAX_DENOMINATOR = 1000
#: the largest number of elementary operations the exact convolution may take (then Monte Carlo)
MAX_EXACT_WORK = 300_000_000
#: ``p_method`` values: the p-value is exact, a Monte Carlo estimate, or an upper bound
P_METHODS = ("exact", "monte carlo", "bound")


def check_alternative(alternative: str) -> None:
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}, got {alternative!r}")


def _rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


class PermutationResult(tuple[float, float, str]):
    """``(statistic, p, note)`` — unpacks like the old 3-tuple — with ``method`` (one of
    :data:`P_METHODS`) and ``n_permutations`` (the draws behind a Monte Carlo p, 0 when exact)."""

    method: str
    n_permutations: int

    def __new__(cls, statistic: float, p: float, note: str, method: str = "exact",
                n_permutations: int = 0) -> "PermutationResult":
        self = super().__new__(cls, (statistic, p, note))
        self.method = method
        self.n_permutations = n_permutations
        return self

    @property
    def statistic(self) -> float:
        return float(self[0])

    @property
    def p(self) -> float:
        return float(self[1])

    @property
    def note(self) -> str:
        return str(self[2])


def _tolerance(values: np.ndarray) -> float:
    scale = float(np.max(np.abs(values))) if values.size else 0.0
    return max(ZERO_ATOL, 1e-9 * scale)


def _tail_p(null: np.ndarray, obs: float, alternative: str, tol: float) -> int:
    """How many null statistics are at least as extreme as ``obs`` (absolute tolerance ``tol``)."""
    if alternative == "greater":
        return int(np.count_nonzero(null >= obs - tol))
    if alternative == "less":
        return int(np.count_nonzero(null <= obs + tol))
    return int(np.count_nonzero(np.abs(null) >= abs(obs) - tol))


# --------------------------------------------------------------------------- sign flips


def lattice(d: np.ndarray, max_denominator: int = MAX_DENOMINATOR) -> tuple[np.ndarray, int] | None:
    """``(v, L)`` with integers v = L·d when every d is a multiple of 1/L (L ≤ ``max_denominator``,
    up to 1e-9), else ``None``."""
    d = np.asarray(d, dtype=float)
    mags = np.unique(np.abs(d[d != 0]))
    if mags.size > 20 * max_denominator:
        return None
    L = 1
    for x in mags:
        f = Fraction(float(x)).limit_denominator(max_denominator)
        if abs(float(f) - x) > 1e-9 * max(1.0, x):
            return None
        L = math.lcm(L, f.denominator)
        if L > max_denominator:
            return None
    v = np.rint(d * L)
    if np.any(np.abs(v - d * L) > 1e-6) or np.any(np.abs(v) > 2**40):
        return None
    return v.astype(np.int64), L


def _positive_part_pmf(mags: np.ndarray) -> np.ndarray:
    """pmf of W = Σ_c B_c·a_c (B_c iid Bernoulli(½)) over 0..Σa_c, for positive integers a_c."""
    from scipy.stats import binom

    pmf = np.ones(1)
    values, counts = np.unique(mags, return_counts=True)
    for a, m in zip(values.tolist(), counts.tolist()):
        weights = binom.pmf(np.arange(m + 1), m, 0.5)
        out = np.zeros(pmf.size + a * m)
        for i, w in enumerate(weights):
            if w > 0:
                out[i * a: i * a + pmf.size] += w * pmf
        pmf = out
    return pmf


def sign_flip_p(v: Sequence[int] | np.ndarray, alternative: str = "two-sided") -> float:
    """Exact sign-flip p of Σ v for integer case-level values ``v`` (see the module doc)."""
    check_alternative(alternative)
    v = np.asarray(v, dtype=np.int64)
    mags = np.abs(v[v != 0])
    if mags.size == 0:
        return 1.0
    total = int(mags.sum())
    w_obs = int(v[v > 0].sum())
    pmf = _positive_part_pmf(mags)
    w = np.arange(pmf.size)
    if alternative == "greater":
        p = pmf[w_obs:].sum()
    elif alternative == "less":
        p = pmf[: w_obs + 1].sum()
    else:
        p = pmf[np.abs(2 * w - total) >= abs(2 * w_obs - total)].sum()
    # 14 significant digits: the sum of binomial weights carries ~1e-16 rounding (0.5000000000000001 for ½)
    return float(min(1.0, float(f"{p:.14g}")))


def _scipy_sign_patterns(rng: np.random.Generator, n_perm: int, n: int, chunk: int = 0) -> Iterator[np.ndarray]:
    """±1 patterns (chunks of rows of an n_perm × n matrix) drawn exactly as
    ``scipy.stats.permutation_test`` draws them for one sample with ``permutation_type="samples"``
    (each case's pair (d, −d) permuted); chunking does not change the draws."""
    chunk = chunk or max(1, 2_000_000 // max(1, n))
    for start in range(0, n_perm, chunk):
        rows = min(chunk, n_perm - start)
        idx = rng.permuted(np.tile(np.arange(2, dtype=np.int8), (rows, n, 1)), axis=-1)
        yield np.where(idx[..., 0] == 0, 1.0, -1.0)


def sign_flip_test(
    d: Sequence[float] | np.ndarray,
    alternative: str = "two-sided",
    n_permutations: int = 9999,
    seed: int | np.random.Generator | None = 0,
) -> PermutationResult:
    """Sign-flip permutation test of mean(d) = 0 for per-case differences ``d`` (module doc).

    Returns ``(statistic, p, note)`` (a :class:`PermutationResult`, with ``method`` and
    ``n_permutations``), statistic = mean(d). \\|d\\| ≤ 1e-12 counts as 0. All d = 0 → p = 1; no
    d → NaN. Exact for lattice data of any size and for 2^n ≤ ``n_permutations``; else Monte
    Carlo (a bound when no draw is as extreme).
    """
    check_alternative(alternative)
    d = np.asarray(d, dtype=float)
    d = d[~np.isnan(d)]
    d = np.where(np.abs(d) <= ZERO_ATOL, 0.0, d)
    if d.size == 0:
        return PermutationResult(math.nan, math.nan, "no case with a usable pair")
    stat = float(d.mean())
    if np.all(d == 0):
        return PermutationResult(stat, 1.0, "every case-level difference is zero")
    rng = _rng(seed)
    scipy_exact = d.size == 1 or 2 ** d.size <= n_permutations
    lat = lattice(d)
    if lat is not None:
        v, L = lat
        mags = np.abs(v[v != 0])
        if int(mags.sum()) * mags.size <= MAX_EXACT_WORK:
            if not scipy_exact:  # draw what scipy's Monte Carlo drew, so a shared generator advances as before
                for _ in _scipy_sign_patterns(rng, n_permutations, d.size):
                    pass
            p = sign_flip_p(v, alternative)
            note = ("exact (all sign flips)" if scipy_exact
                    else f"exact (distribution of all 2^{d.size} sign flips, values on multiples of 1/{L})")
            return PermutationResult(stat, p, note)
    tol = _tolerance(d)
    if scipy_exact:  # enumerate every sign pattern
        patterns = np.array(list(itertools.product((1.0, -1.0), repeat=d.size)))
        null = patterns @ d / d.size
        p = _tail_p(null, stat, alternative, tol) / null.size
        return PermutationResult(stat, float(min(1.0, p)), "exact (all sign flips)")
    b = sum(_tail_p(chunk @ d / d.size, stat, alternative, tol)
            for chunk in _scipy_sign_patterns(rng, n_permutations, d.size))
    p = (b + 1) / (n_permutations + 1)
    if b == 0:
        return PermutationResult(stat, p, f"bound: p < 1/({n_permutations} + 1); no one of {n_permutations} "
                                          "random sign flips was as extreme", "bound", n_permutations)
    return PermutationResult(stat, p, f"Monte Carlo ({n_permutations} sign flips)", "monte carlo", n_permutations)


# --------------------------------------------------------------------------- subgroups


def welch_t(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    """Welch's t of mean(a) − mean(b) along ``axis``; 0 where both the difference and the standard
    error are 0 (within rounding), ±inf where only the standard error is."""
    na, nb = a.shape[axis], b.shape[axis]
    diff = np.mean(a, axis=axis) - np.mean(b, axis=axis)
    se = np.sqrt(np.var(a, axis=axis, ddof=1) / na + np.var(b, axis=axis, ddof=1) / nb)
    scale = max(1.0, float(np.max(np.abs(a), initial=0.0)), float(np.max(np.abs(b), initial=0.0)))
    tiny = 1e-12 * scale
    diff = np.where(np.abs(diff) <= tiny, 0.0, diff)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se <= tiny, np.where(diff == 0, 0.0, np.sign(diff) * np.inf), diff / np.where(se <= tiny, 1.0, se))
    return t


def _mean_diff(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.asarray(np.mean(a, axis=axis) - np.mean(b, axis=axis))


def _relabel_test(a: np.ndarray, b: np.ndarray, statistic: Callable[[np.ndarray, np.ndarray], np.ndarray],
                  alternative: str, n_permutations: int,
                  seed: int | np.random.Generator | None, unit: str,
                  doubled: bool = False) -> tuple[float, float, str, str, int]:
    """Relabelling test; two-sided p = P(|T| ≥ |t|), or with ``doubled`` scipy's 2·min(one-sided p's)."""
    rng = _rng(seed)
    pooled = np.concatenate([a, b])
    na, n = a.size, pooled.size
    obs = float(statistic(a[None, :], b[None, :])[0])
    n_relabel = math.comb(n, na)
    if n_relabel <= n_permutations:
        combos = np.array(list(itertools.combinations(range(n), na)), dtype=np.intp)
        mask = np.zeros((len(combos), n), dtype=bool)
        np.put_along_axis(mask, combos, True, axis=1)
        order = np.argsort(~mask, axis=1, kind="stable")  # the combination's members first
        perms = pooled[order]
        exact = True
    else:
        perms = pooled[rng.permuted(np.tile(np.arange(n), (n_permutations, 1)), axis=1)]
        exact = False
    null = statistic(perms[:, :na], perms[:, na:])
    finite = np.isfinite(null) & np.isfinite(obs)
    tol = 1e-9 * max(1.0, abs(obs)) if np.isfinite(obs) else 0.0
    ge = int(np.count_nonzero(np.where(finite, null >= obs - tol, null >= obs)))
    le = int(np.count_nonzero(np.where(finite, null <= obs + tol, null <= obs)))
    if alternative == "greater":
        b_count = ge
    elif alternative == "less":
        b_count = le
    elif doubled:
        b_count = min(ge, le)
    else:
        b_count = int(np.count_nonzero(np.where(finite, np.abs(null) >= abs(obs) - tol, np.abs(null) >= abs(obs))))
    k = 2.0 if doubled and alternative == "two-sided" else 1.0
    if exact:
        return obs, float(min(1.0, k * b_count / len(null))), "exact (all relabellings)", "exact", 0
    p = min(1.0, k * (b_count + 1) / (n_permutations + 1))
    if b_count == 0:
        return obs, p, (f"bound: p < {k:g}/({n_permutations} + 1); no one of {n_permutations} random {unit} "
                        "was as extreme"), "bound", n_permutations
    return obs, p, f"Monte Carlo ({n_permutations} {unit})", "monte carlo", n_permutations


def _two_sample(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray, alternative: str,
                n_permutations: int, seed: int | np.random.Generator | None,
                studentised: bool) -> PermutationResult:
    check_alternative(alternative)
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    if a.size == 0 or b.size == 0:
        return PermutationResult(math.nan, math.nan, "a group has no case with a usable pair")
    pooled = np.concatenate([a, b])
    if np.all(np.abs(pooled - pooled[0]) <= ZERO_ATOL):
        stat = 0.0 if studentised else float(a.mean() - b.mean())
        return PermutationResult(stat, 1.0, "every case-level value is the same")
    use_t = studentised and a.size >= 2 and b.size >= 2
    stat_fn = welch_t if use_t else _mean_diff
    stat, p, note, method, n_perm = _relabel_test(a, b, stat_fn, alternative, n_permutations, seed, "relabellings",
                                                  doubled=not studentised)
    if studentised and not use_t:
        note += "; difference of means (Welch's t needs two cases per subgroup)"
    return PermutationResult(stat, p, note, method, n_perm)


def studentised_permutation_test(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    alternative: str = "two-sided",
    n_permutations: int = 9999,
    seed: int | np.random.Generator | None = 0,
) -> PermutationResult:
    """Permutation of subgroup labels across units on Welch's t (statistic = Welch's t).

    H0: the values of both subgroups come from one distribution; the studentised statistic keeps
    the test's level near nominal also when only the means are equal and the spreads and sizes
    differ. With fewer than two values in a subgroup the difference of means is used (note).
    """
    return _two_sample(a, b, alternative, n_permutations, seed, studentised=True)


def two_sample_permutation_test(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    alternative: str = "two-sided",
    n_permutations: int = 9999,
    seed: int | np.random.Generator | None = 0,
) -> PermutationResult:
    """Permutation test of mean(a) − mean(b) = 0 on the raw difference of means (not studentised).

    H0: the values of both groups come from one distribution. Too liberal when the groups differ in
    size and spread with equal means; the paired layer's ``gap`` uses
    :func:`studentised_permutation_test`.
    """
    return _two_sample(a, b, alternative, n_permutations, seed, studentised=False)
