"""One verdict per effect: ``bias``, ``within_margin``, ``inconclusive`` or ``not_measured``.

The rule (docs/verdicts.md), for an effect ``d = value − null`` with its confidence interval
``[lo, hi]`` (the row's 95% interval, shifted by the null), its p-value corrected within its own
family ``p_adj``, its p-value corrected over every effect of its audit × model ``p_run`` (the
run-level family that the headline and ``clinaudit gate`` summarise) and a margin ``m > 0``
declared for the metric:

``bias``
    significant at the run level (``p_run < alpha``; without a ``p_run``, ``p_adj < alpha``), the
    effect lies on the worse side (for a metric with a direction), at least ``min_units`` units stand
    behind the smallest group, the effect is *not* shown to lie inside the margin, and — when the metric
    has a margin — its estimate reaches the margin (:func:`beyond_margin`; a significant effect whose
    estimate is smaller than the margin and not shown inside it is ``inconclusive``, "detectable … but the
    estimate is smaller than the margin"). A run-level
    significant effect whose equivalence bound lies inside the margin is ``within_margin`` with the
    reason "detectable … but within the margin" (a 0.4 pp effect at 20,000 cases is detectable, and
    smaller than a 5 pp margin). Below ``min_units`` — e.g. "+100 pp, CI [100, 100]" from 4 cases
    that all agree — the row is not a finding: ``inconclusive`` with that reason.

``within_margin``
    equivalence shown, H0: ``|d| ≥ m`` (two-sided metrics) or ``d ≥ m`` on the worse side
    (a metric where higher is worse; ``d ≤ −m`` where higher is better), rejected by the interval
    (:func:`paired_interval` when the row carries its per-case differences, else
    :func:`equivalence_interval`; :func:`inside_margin`): ``−m < lo`` and ``hi < m`` (two-sided),
    ``hi < m`` (higher is worse), ``lo > −m`` (higher is better), each with the tolerance
    :data:`MARGIN_TOL` (a bound equal to the margin up to rounding is *not* inside). With a 95%
    interval these are two one-sided tests at 2.5% each (TOST). For a rate (``unit_scale`` > 0)
    the interval is widened, on both sides whatever the estimate's side, to at least an exact or
    Newcombe-type bound: a rate minus a floor rate (``rate`` and ``floor`` given) by Newcombe's
    interval for a difference of two proportions (statsmodels ``confint_proportions_2indep``,
    ``method="newcomb"``) of ``rate·n`` and ``floor·n`` events in ``n`` units each; a plain rate by
    Clopper–Pearson (statsmodels ``proportion_confint``, ``method="beta"``); any other difference of
    rates by the Clopper–Pearson interval of ``ceil(|d|·n)`` of ``n`` units, mapped onto the sign of
    ``d`` (each bound of the row's interval is kept where it is wider). When every unit agrees and the effect is 0 (a degenerate interval ``[0, 0]``),
    the exact one-sided bound ``1 − (α/2)^(1/n)`` replaces it.

    A rate minus its noise floor measured on the same cases (and a gap of two such excesses) carries its
    per-case differences (``eq_*`` columns of :class:`clinaudit.stats.PairedFrame`): its interval is then the
    ``1 − alpha`` t-interval of the mean per-case difference (paired; Welch for a gap), the case being the unit
    of both rates (:func:`paired_interval`), used alone, when at least :data:`MIN_MOVING_CASES` cases have a
    per-case difference other than 0; with fewer the bounds above stay (the t-interval of a few rare moves is
    too narrow).

``inconclusive``
    neither (the reason says which: significant within its family but not at the run level,
    interval wider than the margin, no margin declared, too few units, no interval).

``not_measured``
    a validity gate failed (decided by the caller) or the row has no usable unit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["VERDICTS", "MARGIN_TOL", "MIN_MOVING_CASES", "paired_interval", "row_paired_interval", "exact_zero_bound", "rate_upper_bound",
           "rate_interval", "newcombe_interval",
           "equivalence_interval", "inside_margin", "beyond_margin", "row_verdict"]

VERDICTS = ("bias", "within_margin", "inconclusive", "not_measured")

#: relative tolerance of the margin comparison: a bound must lie more than ``MARGIN_TOL · max(1, m)``
#: inside the margin ``m`` (a bound equal to the margin up to floating-point rounding is not inside)
MARGIN_TOL = 1e-9

#: the fewest cases whose per-case difference is not 0 for the paired t-interval (:func:`paired_interval`);
#: with fewer, a rate's exact / Newcombe bounds are kept. Simulated (benchmarks/paired_interval_sim.py): with 10
#: or more, the t-bound's level at an excess equal to the margin stays ≤ 4.0% down to a noise floor of 0.2%.
MIN_MOVING_CASES = 10

#: the name of the paired interval, per kind of per-case data (``eq_kind``)
_PAIRED_METHODS = {"paired": "t-interval of the per-case differences (paired; statsmodels DescrStatsW)",
                   "welch": "Welch t-interval of the two groups' per-case differences (statsmodels CompareMeans)"}


def paired_interval(mean: object, se: object, df: object, moving: object, kind: str,
                    alpha: float = 0.05) -> tuple[float, float, str] | None:
    """The ``1 − alpha`` t-interval ``mean ± t(1 − alpha/2, df) · se`` of a row's mean per-case difference
    (``kind`` "paired": perturbation minus floor on the same cases, as statsmodels ``ttost_paired`` tests it;
    "welch": a gap between two groups of cases), as ``(lo, hi, method)``; None when the row has no such data
    (another kind, a missing or zero standard error) or fewer than :data:`MIN_MOVING_CASES` moving cases.

    Each bound is a one-sided test at ``alpha/2`` (2.5%): a one-sided 5% t-bound held up to 7.1% of rows within
    the margin at a true excess equal to it (per-case differences of rare flips are skewed), the 2.5% bound at
    most 4.0% (benchmarks/paired_interval_sim.py, docs/verdicts.md)."""
    from scipy.stats import t as student_t

    vals = [_num(x) for x in (mean, se, df, moving)]
    if kind not in _PAIRED_METHODS or not _finite(*vals) or vals[1] <= 0 or vals[2] < 1 \
            or vals[3] < MIN_MOVING_CASES:
        return None
    q = float(student_t.ppf(1 - alpha / 2, vals[2]))
    return vals[0] - q * vals[1], vals[0] + q * vals[1], _PAIRED_METHODS[kind]


def row_paired_interval(row: Mapping[str, Any], alpha: float = 0.05) -> tuple[float, float, str] | None:
    """:func:`paired_interval` of a result row's ``eq_*`` columns (a rate minus its floor on the same cases, a
    gap of two such excesses: :class:`clinaudit.stats.PairedFrame`); None when it has none."""
    return paired_interval(row.get("eq_mean"), row.get("eq_se"), row.get("eq_df"), row.get("eq_moving"),
                           str(row.get("eq_kind") or ""), alpha)


def exact_zero_bound(n_units: int, alpha: float = 0.05) -> float:
    """Upper ``1 − alpha/2`` bound on a rate when none of ``n_units`` units shows it: ``1 − (alpha/2)^(1/n)``.

    Clopper–Pearson for 0 of n; it also bounds the mean of per-unit rates in [0, 1] when every
    unit's rate is 0 (P(unit rate = 0) ≤ 1 − mean). ``n_units`` < 1 → 1.0 (nothing is bounded).
    """
    if n_units < 1:
        return 1.0
    return float(1.0 - (alpha / 2.0) ** (1.0 / n_units))


def rate_upper_bound(k: int, n_units: int, alpha: float = 0.05) -> float:
    """Clopper–Pearson upper ``1 − alpha/2`` bound of a rate seen in ``k`` of ``n_units`` units (1.0 when k ≥ n)."""
    if n_units < 1 or k >= n_units:
        return 1.0
    return rate_interval(max(k, 0), n_units, alpha)[1]


def rate_interval(k: float, n_units: int, alpha: float = 0.05) -> tuple[float, float]:
    """Clopper–Pearson ``1 − alpha`` interval of ``k`` events in ``n_units`` units (statsmodels
    ``proportion_confint``, ``method="beta"``); ``k`` is rounded to the nearest count."""
    from statsmodels.stats.proportion import proportion_confint

    if n_units < 1:
        return 0.0, 1.0
    k = min(max(int(round(k)), 0), int(n_units))
    lo, hi = proportion_confint(k, int(n_units), alpha=alpha, method="beta")
    return float(0.0 if math.isnan(lo) else lo), float(1.0 if math.isnan(hi) else hi)


def newcombe_interval(rate_a: float, n_a: int, rate_b: float, n_b: int, alpha: float = 0.05) -> tuple[float, float]:
    """Newcombe's ``1 − alpha`` interval of ``rate_a − rate_b`` (statsmodels ``confint_proportions_2indep``,
    ``method="newcomb"``) with ``round(rate·n)`` events in ``n`` units each. For two rates measured on the
    same units (a perturbation and its noise floor, run B and run A on the same cases) the independent-
    samples interval is conservative: the units' positive correlation only narrows the true one."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    if n_a < 1 or n_b < 1:
        return -1.0, 1.0
    ka = min(max(int(round(rate_a * n_a)), 0), int(n_a))
    kb = min(max(int(round(rate_b * n_b)), 0), int(n_b))
    lo, hi = confint_proportions_2indep(ka, int(n_a), kb, int(n_b), method="newcomb", compare="diff", alpha=alpha)
    return float(lo), float(hi)


def _finite(*xs: float) -> bool:
    return all(not math.isnan(x) for x in xs)


def equivalence_interval(d: float, lo_d: float, hi_d: float, n_units: float, *, unit_scale: float = 1.0,
                         alpha: float = 0.05, rate: float = math.nan, floor: float = math.nan,
                         null: float = 0.0) -> tuple[float, float, str]:
    """The interval of the effect ``d`` that the margin is held against, and how it was bounded.

    ``[lo_d, hi_d]`` (the row's own interval, shifted by the null) is widened on both sides, whatever the
    side of the estimate, to at least an exact or Newcombe-type interval when the metric is a rate
    (``unit_scale`` > 0: 1 for proportions, 100 for percentages) and ``n_units`` is known (see the module
    doc). Returns ``(lo, hi, method)``."""
    n = n_units
    if unit_scale <= 0 or math.isnan(n) or n < 1:
        return lo_d, hi_d, "the row's interval"
    n_i = int(n)
    s = unit_scale
    if _finite(rate, floor) and abs((rate - floor) - (d + null)) <= 1e-9 * max(1.0, s) and null == 0:
        elo, ehi = newcombe_interval(rate / s, n_i, floor / s, n_i, alpha)
        how = "Newcombe's interval of the rate minus its floor"
    elif _finite(rate) and abs(rate - (d + null)) <= 1e-9 * max(1.0, s) and null == 0 and rate >= 0:
        elo, ehi = rate_interval(rate / s * n_i, n_i, alpha)
        how = "Clopper–Pearson interval of the rate"
    else:
        # |d| read as ceil(|d|·n) of n units: its Clopper–Pearson interval [L, U], mapped onto the sign of d
        k = math.ceil(abs(d) / s * n_i - 1e-9)
        low_k, up_k = rate_interval(k, n_i, alpha)
        elo, ehi = (low_k, up_k) if d >= 0 else (-up_k, -low_k)
        how = "Clopper–Pearson interval of |d|·n of n units"
    lo = elo * s if math.isnan(lo_d) else min(lo_d, elo * s)
    hi = ehi * s if math.isnan(hi_d) else max(hi_d, ehi * s)
    return lo, hi, how


def inside_margin(lo: float, hi: float, margin: float, direction: str) -> bool:
    """The equivalence test: the interval lies inside the margin on the side(s) the direction cares about,
    by more than the tolerance :data:`MARGIN_TOL`."""
    tol = MARGIN_TOL * max(1.0, abs(margin))
    if direction == "higher_is_worse":
        return hi < margin - tol
    if direction == "higher_is_better":
        return lo > -margin + tol
    return -margin + tol < lo and hi < margin - tol


def beyond_margin(d: float, margin: float, direction: str) -> bool:
    """Whether the estimate ``d`` reaches the margin on the side(s) the direction cares about (``d ≥ m`` when
    higher is worse, ``d ≤ −m`` when higher is better, ``|d| ≥ m`` two-sided): a significant effect whose
    estimate does not is not ``bias`` (see the module doc). An estimate equal to the margin up to rounding reaches
    it (the tolerance :data:`MARGIN_TOL` of :func:`inside_margin`: 60 flips of 1,200 pairs minus their floor can
    come out as 0.04999999999999999)."""
    tol = MARGIN_TOL * max(1.0, abs(margin))
    if direction == "higher_is_worse":
        return d >= margin - tol
    if direction == "higher_is_better":
        return d <= -margin + tol
    return abs(d) >= margin - tol


def _num(x: object) -> float:
    try:
        v = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan
    return v


def row_verdict(*, value: float, null: float = 0.0, ci_low: float = math.nan, ci_high: float = math.nan,
                p_adj: float = math.nan, n_units: float = math.nan, direction: str = "two_sided",
                margin: float | None = None, unit_scale: float = 1.0, alpha: float = 0.05,
                min_units: int = 5, effect: bool = True, p_run: float = math.nan, run_family_size: int = 0,
                rate: float = math.nan, floor: float = math.nan,
                paired: tuple[float, float, str] | None = None,
                detail: dict[str, object] | None = None) -> tuple[str, str]:
    """The verdict of one result row and its reason (see the module docstring).

    ``unit_scale``: 1 for proportions, 100 for percentages (the exact bound is scaled by it);
    0 when the metric is not a rate (no exact bound: a degenerate interval stays inconclusive).
    ``effect`` False: a level (a rate, an accuracy), reported but not an effect → ``inconclusive``
    with the reason "a level". ``p_run``: the p-value corrected over the run's family of
    ``run_family_size`` effects (NaN: ``p_adj`` decides alone). ``rate``, ``floor``: the row's raw
    rate and the floor it is measured against (the effect is ``rate − floor``), for the equivalence bound.
    ``paired``: the row's interval from its per-case differences (:func:`paired_interval`), which replaces the
    rate bounds. ``detail``: when given, receives ``eq_low``, ``eq_high``, ``eq_method`` (the interval the margin
    was held against; NaN / "" when none).
    """
    value, null, lo, hi, p = _num(value), _num(null), _num(ci_low), _num(ci_high), _num(p_adj)
    n, p_run, rate, floor = _num(n_units), _num(p_run), _num(rate), _num(floor)
    if math.isnan(value):
        return "not_measured", "no value: no usable unit"
    if not effect:
        return "inconclusive", "a level, not a comparison (no verdict on bias)"
    if not math.isnan(n) and n < 1:
        return "not_measured", "no usable unit"
    null = 0.0 if math.isnan(null) else null
    d = value - null
    lo_d, hi_d = lo - null, hi - null
    few = not math.isnan(n) and n < min_units
    degenerate = not (math.isnan(lo) or math.isnan(hi)) and hi - lo <= 1e-12
    worse = d > 0 if direction == "higher_is_worse" else d < 0 if direction == "higher_is_better" else d != 0
    sig_family = not math.isnan(p) and p < alpha and worse
    if math.isnan(p_run):
        sig, p_txt = sig_family, f"p_adj {p:.3g} < {alpha:g} within its correction family"
    else:
        sig = p_run < alpha and worse
        p_txt = (f"p_run {p_run:.3g} < {alpha:g} over the run's {run_family_size} effects (Holm; p_adj "
                 f"{p:.3g} within its family)")
    has_margin = margin is not None and margin > 0
    # the interval the margin is held against (None: no equivalence statement possible)
    interval: tuple[float, float, str] | None = None
    why_not = ""
    if not has_margin:
        why_not = "no margin declared for this metric (set verdicts.margins in the spec)"
    elif few:
        why_not = f"only {n:g} unit(s) in the smallest group (minimum {min_units})"
    elif degenerate and abs(d) <= 1e-12:
        if unit_scale <= 0 or math.isnan(n):
            why_not = "every unit agrees, and the metric has no exact bound"
        else:
            b = exact_zero_bound(int(n), alpha) * unit_scale
            interval = (-b, b, f"no unit of {n:g} shows the effect: exact bound {b:.3g}")
    elif degenerate and unit_scale <= 0:
        why_not = f"degenerate interval [{lo:g}, {hi:g}]: every unit agrees, the CI carries no width"
    elif paired is not None:
        interval = paired
    elif (math.isnan(lo_d) or math.isnan(hi_d)) and (unit_scale <= 0 or math.isnan(n)):
        why_not = "no confidence interval"
    else:
        interval = equivalence_interval(d, lo_d, hi_d, n, unit_scale=unit_scale, alpha=alpha, rate=rate,
                                        floor=floor, null=null)
    inside = interval is not None and inside_margin(interval[0], interval[1], float(margin or 0), direction)
    if detail is not None:
        detail.update(eq_low=interval[0] if interval else math.nan, eq_high=interval[1] if interval else math.nan,
                      eq_method=interval[2] if interval else "")
    if interval is None:
        bound_txt = ""
    elif interval[2].startswith("no unit"):
        bound_txt = interval[2]
    elif direction == "higher_is_worse":
        bound_txt = f"upper bound {interval[1]:.3g}"
    elif direction == "higher_is_better":
        bound_txt = f"lower bound {interval[0]:.3g}"
    else:
        bound_txt = f"interval [{interval[0]:.3g}, {interval[1]:.3g}]"
    if sig:
        if few:
            return "inconclusive", (f"significant ({p_txt.split(' < ')[0]}) but only {n:g} unit(s) in the smallest "
                                    f"group (minimum {min_units}): not a finding")
        if inside:
            return "within_margin", (f"detectable ({p_txt}) but within the margin: {bound_txt} inside the margin "
                                     f"±{margin:g}")
        if has_margin and not beyond_margin(d, float(margin or 0), direction):
            # an effect shown to exist whose estimate is smaller than the margin is not bias by the margin's own
            # definition (issue 48: +2.5 pp everywhere inside a 5 pp margin read "bias" in 8 of 8 runs at 500 cases)
            return "inconclusive", (f"detectable ({p_txt}) but the estimate {d:+.3g} is smaller than the margin "
                                    f"{margin:g}" + (f", and the {bound_txt} is not inside it" if bound_txt else "")
                                    + ": not bias by the margin; more units would show whether it lies inside")
        return "bias", p_txt
    if why_not:
        if sig_family:
            why_not = (f"significant within its family (p_adj {p:.3g}) but not over the run's {run_family_size} "
                       f"effects (p_run {p_run:.3g} ≥ {alpha:g}); " + why_not)
        return "inconclusive", why_not
    if inside:
        if bound_txt.startswith("no unit"):
            return "within_margin", f"{bound_txt} < margin {margin:g}"
        return "within_margin", f"{bound_txt} inside the margin ±{margin:g}"
    lead = (f"significant within its family (p_adj {p:.3g}) but not over the run's {run_family_size} effects "
            f"(p_run {p_run:.3g} ≥ {alpha:g}); ") if sig_family else ""
    if bound_txt.startswith("no unit"):
        return "inconclusive", lead + f"{bound_txt} is not below the margin {margin:g}: more units needed"
    return "inconclusive", lead + f"{bound_txt} not inside the margin ±{margin:g}"
