"""Issue 48: choosing the equivalence interval of a rate minus its noise floor by simulation (vectorised, seconds).

Per case (one question, 3 seeds) the perturbed answers are paired with the baseline answers at every other seed
and the floor counts each pair of baseline seeds once (treatment shift's pairing); d_c = perturbed pairs' flip rate
− floor pairs' flip rate. For each noise-floor level and size, 4,000 simulated rows: the share whose t-bound of
mean d_c is below the 5 pp margin (``within_margin`` for a metric where higher is worse), at a true excess equal to
the margin (should be ≤ 5%) and at 0 (power), for the one-sided 5% bound (what a 90% interval / TOST at 5% uses)
and the 2.5% bound (the 95% interval the verdicts use), against statsmodels' two-sided paired TOST at 5%
(ttost_paired, whose decision is the 90% t-interval inside ±margin). Rows with fewer than 10 moving cases
(MIN_MOVING_CASES) fall back to the rate bounds and count as not within.

``python benchmarks/paired_interval_sim.py`` prints the table of docs/verdicts.md.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

R = 4000
MARGIN = 0.05
MIN_MOVING = 10


def simulate(rng: np.random.Generator, n: int, p: float, excess: float, seeds: int = 3) -> tuple[np.ndarray, ...]:
    floor = 2 * p * (1 - p)
    p_alt = p if excess == 0 else (floor + excess - p) / (1 - 2 * p)
    b = rng.random((R, n, seeds)) < p
    a = rng.random((R, n, seeds)) < p_alt
    pert = np.mean([a[..., i] != b[..., j] for i in range(seeds) for j in range(seeds) if i != j], axis=0)
    fl = np.mean([b[..., i] != b[..., j] for i in range(seeds) for j in range(i + 1, seeds)], axis=0)
    d = pert - fl
    return d.mean(1), d.std(1, ddof=1) / np.sqrt(n), (np.abs(d) > 1e-12).sum(1)


def main() -> int:
    rng = np.random.default_rng(48)
    print("| noise floor | cases | at the margin: 5% bound | at the margin: 2.5% bound (used) | excess 0: 2.5% bound "
          "(used) | excess 0: ttost_paired 5% |")
    print("|---|---|---|---|---|---|")
    for floor in (0.002, 0.01, 0.04, 0.2):
        p = (1 - np.sqrt(1 - 2 * floor)) / 2
        for n in (20, 50, 200, 500):
            row = [f"{100 * floor:g}%", str(n)]
            m, se, mv = simulate(rng, n, p, MARGIN)
            ok = mv >= MIN_MOVING
            for q in (0.95, 0.975):
                row.append(f"{np.mean(ok & (m + stats.t.ppf(q, n - 1) * se < MARGIN)):.1%}")
            m, se, mv = simulate(rng, n, p, 0.0)
            ok = mv >= MIN_MOVING
            row.append(f"{np.mean(ok & (m + stats.t.ppf(0.975, n - 1) * se < MARGIN)):.1%}")
            t95 = stats.t.ppf(0.95, n - 1)
            row.append(f"{np.mean((m + t95 * se < MARGIN) & (m - t95 * se > -MARGIN)):.1%}")
            print("| " + " | ".join(row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
