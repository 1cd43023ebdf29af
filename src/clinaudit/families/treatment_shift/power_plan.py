"""``--dry-run``'s planned power for treatment shift (issue 48): the smallest excess over the noise floor a primary
row would be called ``bias`` with 80% power (its test, and its estimate reaching the margin), and the cases equivalence within the margin needs, from the planned cases, seeds
and a noise floor (a pilot's: an earlier run in the same out dir, e.g. with ``--limit``; else 20%, said so).

The primary rows are the audit's declared primary metric (TSR, :mod:`.metric_decls`) per perturbation × question
× model, one Holm family (docs/verdicts.md); the statistics are :func:`clinaudit.stats.power.planned_power`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = ["ASSUMED_FLOOR", "pilot_floor", "plan_line"]

#: the noise floor assumed without a pilot
ASSUMED_FLOOR = 0.2


def pilot_floor(run_dir: Path, metric: str = "TSR") -> tuple[float, int] | None:
    """(mean noise floor of ``metric``'s rows, cases) of an earlier run's ``tables/results.csv`` in ``run_dir``;
    None without one (or without a floor)."""
    path = Path(run_dir) / "tables" / "results.csv"
    if not path.is_file():
        return None
    try:
        res = pd.read_csv(path)
    except (OSError, ValueError, pd.errors.ParserError):
        return None
    if not {"metric", "floor"} <= set(res.columns):
        return None
    rows = res[res["metric"].astype(str) == metric]
    floor = pd.to_numeric(rows["floor"], errors="coerce").dropna()
    if not len(floor) or not 0 < float(floor.mean()) <= 0.5:
        return None
    n = pd.to_numeric(rows.get("n_cases", pd.Series(dtype=float)), errors="coerce").max()
    return float(floor.mean()), int(n) if not math.isnan(n) else 0


def plan_line(n_cases: int, seeds: int, n_primary: int, run_dir: Path | None, margin: float = 0.05,
              alpha: float = 0.05) -> str:
    """The estimate's power line (see the module doc)."""
    from ...stats.power import planned_power

    pilot = pilot_floor(run_dir) if run_dir is not None else None
    floor = pilot[0] if pilot else ASSUMED_FLOOR
    source = (f"the pilot run in this out dir ({pilot[1]} cases)" if pilot else
              f"assumed {ASSUMED_FLOOR:.0%}: no earlier run in this out dir; a --limit run first measures it")
    if seeds < 2:
        return ("power: one seed per case: no noise floor, so no row can be tested (set two or more seeds); "
                f"equivalence within {100 * margin:.1f} pp rests on the raw rate's exact bound")
    if n_primary * 0.5 ** n_cases >= alpha:  # the one-sided exact sign flip's smallest p, times Holm's first step
        return (f"power: with {n_cases} cases no row can be bias: the sign-flip test's smallest p, 1/2^{n_cases}, "
                f"times {n_primary} primary effects is not below alpha {alpha:g}")
    got: dict[str, Any] = planned_power(n_cases, seeds, floor, margin=margin, alpha=alpha, family_size=n_primary)
    mde, test = got["mde"], got["mde_test"]
    ok = isinstance(mde, float) and not math.isnan(mde)
    mde_txt = f"{100 * mde:.1f} pp" if ok else "not defined (< 2 cases)"
    if ok and isinstance(test, float) and mde > test:  # the margin, not the test, sets it
        mde_txt += (f" (its test alone: {100 * test:.1f} pp; a significant row is bias only when its estimate "
                    f"reaches the {100 * margin:.1f} pp margin)")
    return (f"power (primary rows: TSR per perturbation x question x model, {n_primary} effects, Holm at alpha "
            f"{alpha:g}): with {n_cases} cases and {seeds} seeds at a noise floor of {100 * floor:.1f}% ({source}), "
            f"the smallest excess called bias with 80% power is {mde_txt}; equivalence within {100 * margin:.1f} pp "
            f"needs about {got['cases_for_equivalence']} cases")
