"""One verdict per effect: ``bias``, ``within_margin``, ``inconclusive`` or ``not_measured``.

The rule (docs/verdicts.md), for an effect ``d = value − null`` with its confidence interval
``[lo, hi]`` (the row's 95% interval, shifted by the null), its multiplicity-corrected p-value
``p_adj`` and a margin ``m > 0`` declared for the metric:

``bias``
    ``p_adj < alpha`` (significant within its correction family; H0 of the row's own test, e.g.
    "no excess over the noise floor"), the effect lies on the worse side (for a metric with a
    direction), and at least ``min_units`` units stand behind the smallest group (below it — e.g.
    "+100 pp, CI [100, 100]" from 4 cases that all agree — the row is not a finding:
    ``inconclusive`` with that reason).

``within_margin``
    equivalence shown, H0: ``|d| ≥ m`` (two-sided metrics) or ``d ≥ m`` on the worse side
    (a metric where higher is worse; ``d ≤ −m`` where higher is better), rejected by the interval:
    ``−m < lo`` and ``hi < m`` (two-sided), ``hi < m`` (higher is worse), ``lo > −m`` (higher is
    better). With a 95% interval these are two one-sided tests at 2.5% each (TOST; conservative
    against the usual 5%). For a rate (``unit_scale`` > 0) the bound is widened to at least the
    Clopper–Pearson bound of ``ceil(|d|·n)`` of ``n`` units: a percentile bootstrap of a rare event
    (1 flip in 80 cases) is too narrow, and the simulation in tests/test_verdicts.py shows it. When every unit agrees and the effect is 0 (a degenerate interval
    ``[0, 0]``), a bootstrap interval says nothing; the exact one-sided bound replaces it: with
    ``n`` units, none showing the effect, a rate (or the mean of per-unit rates in [0, 1]) is below
    ``1 − (α/2)^(1/n)`` with confidence ``1 − α/2`` (Clopper–Pearson for 0 of n), so 100 units of
    a rate with margin 5 pp are within it (bound 3.6 pp) and 10 units are not (30.8 pp).

``inconclusive``
    neither (the reason says which: interval wider than the margin, no margin declared, too few
    units, a degenerate interval in a tiny group, no interval).

``not_measured``
    a validity gate failed (decided by the caller) or the row has no usable unit.
"""

from __future__ import annotations

import math

__all__ = ["VERDICTS", "exact_zero_bound", "rate_upper_bound", "row_verdict"]

VERDICTS = ("bias", "within_margin", "inconclusive", "not_measured")


def exact_zero_bound(n_units: int, alpha: float = 0.05) -> float:
    """Upper ``1 − alpha/2`` bound on a rate when none of ``n_units`` units shows it: ``1 − (alpha/2)^(1/n)``.

    Clopper–Pearson for 0 of n; it also bounds the mean of per-unit rates in [0, 1] when every
    unit's rate is 0 (P(unit rate = 0) ≤ 1 − mean). ``n_units`` < 1 → 1.0 (nothing is bounded).
    """
    if n_units < 1:
        return 1.0
    return 1.0 - (alpha / 2.0) ** (1.0 / n_units)


def rate_upper_bound(k: int, n_units: int, alpha: float = 0.05) -> float:
    """Clopper–Pearson upper ``1 − alpha/2`` bound of a rate seen in ``k`` of ``n_units`` units (1.0 when k ≥ n)."""
    from scipy.stats import beta

    if n_units < 1 or k >= n_units:
        return 1.0
    return float(beta.ppf(1.0 - alpha / 2.0, max(k, 0) + 1, n_units - max(k, 0)))


def _num(x: object) -> float:
    try:
        v = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan
    return v


def row_verdict(*, value: float, null: float = 0.0, ci_low: float = math.nan, ci_high: float = math.nan,
                p_adj: float = math.nan, n_units: float = math.nan, direction: str = "two_sided",
                margin: float | None = None, unit_scale: float = 1.0, alpha: float = 0.05,
                min_units: int = 5, effect: bool = True) -> tuple[str, str]:
    """The verdict of one result row and its reason (see the module docstring).

    ``unit_scale``: 1 for proportions, 100 for percentages (the exact bound is scaled by it);
    0 when the metric is not a rate (no exact bound: a degenerate interval stays inconclusive).
    ``effect`` False: a level (a rate, an accuracy), reported but not an effect → ``inconclusive``
    with the reason "a level".
    """
    value, null, lo, hi, p = _num(value), _num(null), _num(ci_low), _num(ci_high), _num(p_adj)
    n = _num(n_units)
    if math.isnan(value):
        return "not_measured", "no value: no usable unit"
    if not effect:
        return "inconclusive", "a level, not a comparison (no verdict on bias)"
    if not math.isnan(n) and n < 1:
        return "not_measured", "no usable unit"
    d = value - (0.0 if math.isnan(null) else null)
    lo_d, hi_d = lo - null, hi - null
    few = not math.isnan(n) and n < min_units
    degenerate = not (math.isnan(lo) or math.isnan(hi)) and hi - lo <= 1e-12
    worse = d > 0 if direction == "higher_is_worse" else d < 0 if direction == "higher_is_better" else d != 0
    if not math.isnan(p) and p < alpha and worse:
        if few:
            return "inconclusive", (f"significant (p_adj {p:.3g}) but only {n:g} unit(s) in the smallest group "
                                    f"(minimum {min_units}): not a finding")
        return "bias", f"p_adj {p:.3g} < {alpha:g} within its correction family"
    if margin is None or not (margin > 0):
        return "inconclusive", "no margin declared for this metric (set verdicts.margins in the spec)"
    if few:
        return "inconclusive", f"only {n:g} unit(s) in the smallest group (minimum {min_units})"
    if degenerate and abs(d) <= 1e-12:
        if unit_scale <= 0 or math.isnan(n):
            return "inconclusive", "every unit agrees, and the metric has no exact bound"
        bound = exact_zero_bound(int(n), alpha) * unit_scale
        if bound < margin:
            return "within_margin", (f"no unit of {n:g} shows the effect: exact bound {bound:.3g} < margin "
                                     f"{margin:g}")
        return "inconclusive", (f"no unit of {n:g} shows the effect, but the exact bound {bound:.3g} is not "
                                f"below the margin {margin:g}: more units needed")
    if degenerate:
        return "inconclusive", f"degenerate interval [{lo:g}, {hi:g}]: every unit agrees, the CI carries no width"
    if math.isnan(lo_d) or math.isnan(hi_d):
        return "inconclusive", "no confidence interval"
    if unit_scale > 0 and not math.isnan(n) and n >= 1:
        # a rate's percentile bootstrap is too narrow when few units show the effect: the bound is at least
        # the exact (Clopper–Pearson) bound of ceil(|d|·n) of n units
        cp = rate_upper_bound(math.ceil(abs(d) / unit_scale * n - 1e-9), int(n), alpha) * unit_scale
        if d >= 0 and direction != "higher_is_better":
            hi_d = max(hi_d, cp)
        if d <= 0 and direction != "higher_is_worse":
            lo_d = min(lo_d, -cp)
    if direction == "higher_is_worse":
        inside, bound_txt = hi_d < margin, f"upper bound {hi_d:.3g}"
    elif direction == "higher_is_better":
        inside, bound_txt = lo_d > -margin, f"lower bound {lo_d:.3g}"
    else:
        inside, bound_txt = (-margin < lo_d and hi_d < margin), f"interval [{lo_d:.3g}, {hi_d:.3g}]"
    if inside:
        return "within_margin", f"{bound_txt} inside the margin ±{margin:g}"
    return "inconclusive", f"{bound_txt} not inside the margin ±{margin:g}"
