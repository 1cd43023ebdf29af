"""Power before the run and after it (issue 48): the smallest effect a row's test finds with 80% power, and the
cases that showing equivalence within a margin needs.

* :func:`mde` — the minimum detectable effect of a mean per-case difference with standard deviation ``sd`` over
  ``n`` cases: statsmodels ``TTestPower.solve_power`` (effect size in sd units at ``power``) × ``sd``, at the
  level of Holm's first step over the row's family of ``family_size`` effects (alpha / m: a lone effect among m).
  With a ``margin`` it is the effect the row is called ``bias`` with ``power``: a significant row is ``bias`` only
  when its estimate reaches the margin (:func:`clinaudit.stats.verdicts.beyond_margin`), so the larger of the
  test's MDE and ``margin + t_{power, n−1} · sd/√n`` (the effect whose estimate reaches the margin with
  ``power``); both conditions are on the same estimate, so the larger one decides.
* :func:`cases_for_equivalence` — the cases with which a true difference of 0 gives an equivalence bound inside
  the margin with ``power``: the verdicts' bound is one-sided at alpha/2 (:func:`clinaudit.stats.verdicts.
  paired_interval`), so ``TTestPower`` at alpha/2 with effect size margin / sd.
* :func:`row_mde` — a result row's MDE from its per-case differences (``eq_se``, ``eq_n``, ``eq_df``:
  :func:`clinaudit.stats.paired.paired_spread`; for a Welch gap the one-sample t with Satterthwaite's df,
  an approximation).
* :func:`planned_sd` — the standard deviation of a treatment-shift case's excess (perturbed pairs' flip rate
  minus the floor pairs') under no effect, for a noise floor ``f`` and ``k`` seeds, simulated from the
  product's pairing (a perturbed answer at seed s' against the baseline at every other seed; the floor counts
  each pair of baseline seeds once), for ``--dry-run``'s planned power.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["POWER", "mde", "cases_for_equivalence", "row_sd", "row_mde", "planned_sd", "planned_power", "power_note"]

#: the power the minimum detectable effect is quoted at
POWER = 0.8


def _alternative(direction: str) -> str:
    return "two-sided" if direction == "two_sided" else "larger"


def mde(sd: float, n: float, *, alpha: float = 0.05, family_size: int = 1, direction: str = "higher_is_worse",
        power: float = POWER, margin: float | None = None) -> float:
    """The smallest true mean difference found with ``power`` (NaN when undefined: n < 2, sd not > 0); with a
    ``margin`` (> 0, the metric's units) the smallest the row's verdict calls ``bias`` with ``power`` (module doc)."""
    from scipy.stats import t as t_dist
    from statsmodels.stats.power import TTestPower

    if not (sd > 0 and n >= 2) or math.isnan(sd):
        return math.nan
    es = TTestPower().solve_power(effect_size=None, nobs=float(n), alpha=alpha / max(int(family_size), 1),
                                  power=power, alternative=_alternative(direction))
    test = float(np.asarray(es).item()) * float(sd)
    if margin is None or not margin > 0:
        return test
    return max(test, float(margin) + float(t_dist.ppf(power, float(n) - 1)) * float(sd) / math.sqrt(float(n)))


def cases_for_equivalence(sd: float, margin: float, *, alpha: float = 0.05, power: float = POWER) -> int | None:
    """The cases with which a true difference of 0 is shown inside ``margin`` with ``power`` (None when undefined)."""
    from statsmodels.stats.power import TTestPower

    if not (sd > 0 and margin > 0) or math.isnan(sd):
        return None
    n = TTestPower().solve_power(effect_size=margin / sd, nobs=None, alpha=alpha / 2, power=power,
                                 alternative="larger")
    return int(math.ceil(float(np.asarray(n).item())))


def _num(x: Any) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def row_sd(row: Mapping[str, Any]) -> tuple[float, float]:
    """(sd of the per-case differences, cases) of a result row that carries them; NaNs otherwise."""
    se, n, df = _num(row.get("eq_se")), _num(row.get("eq_n")), _num(row.get("eq_df"))
    kind = str(row.get("eq_kind") or "")
    if kind == "welch":
        n = df + 1
    if kind not in ("paired", "welch") or math.isnan(se) or math.isnan(n) or n < 2:
        return math.nan, math.nan
    return se * math.sqrt(n), n


def row_mde(row: Mapping[str, Any], *, alpha: float = 0.05, family_size: int = 1,
            direction: str = "higher_is_worse", margin: float | None = None) -> float:
    """The MDE of a result row (module doc; with its ``margin``, of its ``bias`` verdict); NaN when the row has no
    per-case differences."""
    sd, n = row_sd(row)
    return mde(sd, n, alpha=alpha, family_size=family_size, direction=direction, margin=margin)


def planned_sd(floor: float, seeds: int, n_sim: int = 20000, seed: int = 0) -> float:
    """The sd of one case's excess (module doc) at noise floor ``floor`` (0 < floor ≤ 0.5) with ``seeds`` seeds
    under no effect; NaN with fewer than 2 seeds (no floor pairs)."""
    if seeds < 2 or not 0 < floor <= 0.5:
        return math.nan
    p = (1 - math.sqrt(1 - 2 * floor)) / 2  # a yes-rate p with 2p(1 − p) = floor
    rng = np.random.default_rng(seed)
    b = rng.random((n_sim, seeds)) < p
    a = rng.random((n_sim, seeds)) < p
    pert = np.mean([a[:, s1] != b[:, s0] for s1 in range(seeds) for s0 in range(seeds) if s0 != s1], axis=0)
    fl = np.mean([b[:, s0] != b[:, s1] for s0 in range(seeds) for s1 in range(s0 + 1, seeds)], axis=0)
    return float(np.std(pert - fl, ddof=1))


def planned_power(n_cases: int, seeds: int, floor: float, *, margin: float = 0.05, alpha: float = 0.05,
                  family_size: int = 1) -> dict[str, float | int | None]:
    """Before a run: the MDE of a primary row's ``bias`` verdict (``mde``: its test and its estimate reaching
    ``margin``; ``mde_test`` the test's alone) and the cases equivalence within ``margin`` needs
    (``cases_for_equivalence``), from the planned cases, seeds and noise floor; ``sd`` the per-case sd used."""
    sd = planned_sd(floor, seeds)
    return {"sd": sd, "mde": mde(sd, n_cases, alpha=alpha, family_size=family_size, margin=margin),
            "mde_test": mde(sd, n_cases, alpha=alpha, family_size=family_size),
            "cases_for_equivalence": cases_for_equivalence(sd, margin, alpha=alpha)}


def _fmt(x: float, proportion: bool) -> str:
    return f"{100 * x:.1f} pp" if proportion else f"{x:.3g}"


def power_note(rows: Any, cases_used: int | None = None, alpha: float = 0.05) -> str:
    """For an inconclusive verdict line: the shift its (primary) rows could see with 80% power and about how many
    cases equivalence within their margin needs ("this run could see shifts of 7.1 pp or more (80% power); none
    was found; equivalence within 5.0 pp needs about 191 cases"); empty when no row carries an MDE. The largest
    MDE and the largest case count over the rows: every row could see that shift, and that many cases would let
    each row with no true shift be shown inside its margin with 80% power. Rates (margin ≤ 1) in pp."""
    import pandas as pd

    if rows is None or not len(rows) or "mde" not in rows.columns:
        return ""
    m = pd.to_numeric(rows["mde"], errors="coerce")
    ok = m.notna()
    if not ok.any():
        return ""
    part = rows[ok]
    margins = pd.to_numeric(part.get("margin", pd.Series(math.nan, index=part.index)), errors="coerce")
    proportion = bool(margins.notna().all() and (margins <= 1).all())
    text = f"this run could see shifts of {_fmt(float(m[ok].max()), proportion)} or more (80% power); none was found"
    need = [cases_for_equivalence(row_sd(r)[0], float(mg), alpha=alpha)
            for r, mg in zip(part.to_dict("records"), margins) if not math.isnan(float(mg))]
    need_ok = [x for x in need if x is not None]
    if need_ok and margins.notna().any():
        text += (f"; equivalence within {_fmt(float(margins.max()), proportion)} needs about {max(need_ok):,} cases"
                 + (f" (this run used {cases_used:,})" if cases_used else ""))
    return text
