"""Issue 48 acceptance (Build 1 and 3) by simulation through the product's own path: ``results_table`` →
``assign_verdicts`` → the headline's ``verdict_lines`` (benchmarks/calibration.py's helpers).

Points (treatment shift, 2 perturbations × 3 questions, 3 seeds, noise floor 20%: yes-rate 0.1127):

* ``eq0:N`` — true excess 0: share of TSR rows ``within_margin``, and of the same rows statsmodels
  ``ttost_paired`` (margin ±5 pp, 5%) declares equivalent on the same per-case data;
* ``eqm:N`` — true excess 5 pp (the margin) on every row: share of TSR rows ``within_margin`` (≤ 5%);
* ``inside:N`` — every perturbation +2.5 pp: runs whose headline is "bias";
* ``mde:N`` — one primary row (uppercase × MANAGE) planted at the excess the primary rows' test finds with 80%
  power (``planned_power``'s ``mde_test``): runs where that row is ``bias`` (≈ 80% when the prediction is right), the product's ``mde`` of that row
  and the uncorrected paired t's (``TTestPower`` at alpha, the same per-case sd) — their ratio.

``python benchmarks/verdict_power.py --runs 30 --points eq0:50 eq0:200 ... --out benchmarks/verdict_power_runs.csv``
appends one row per run (seeded by point and run number) and prints each point's totals.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
P20 = (1 - np.sqrt(1 - 2 * 0.2)) / 2  # yes-rate whose noise floor 2p(1 − p) is 20%
PERTS = ("uppercase", "exclamation")
QUESTIONS = ("MANAGE", "VISIT", "RESOURCE")
#: the per-run file's columns (a quantity a point does not measure is empty)
COLUMNS = ["point", "n", "run", "tsr_rows", "within_margin", "ttost", "bias_headline", "planted", "row_bias", "mde",
           "oracle_mde", "other_bias", "load"]


def labels(rng: np.random.Generator, n: int, excess: dict[tuple[str, str], float], seeds: int = 3) -> pd.DataFrame:
    """calibration.treatment_labels with an excess per (perturbation, question) (0 elsewhere)."""
    rows = []
    for c in range(n):
        gender = "female" if c % 2 else "male"
        for q in QUESTIONS:
            p = P20
            floor = 2 * p * (1 - p)
            for variant in ("baseline",) + PERTS:
                e = excess.get((variant, q), 0.0)
                prob = p if e == 0 else (floor + e - p) / (1 - 2 * p)
                draws = rng.random(seeds) < prob
                rows.extend((f"c{c:04d}", variant, "m", s, q, int(draws[s]), gender) for s in range(seeds))
    return pd.DataFrame(rows, columns=["case_id", "variant", "model", "seed", "question", "label", "gender"])


def ttost_rows(lab: pd.DataFrame, margin: float = 0.05) -> int:
    """TSR rows (perturbation × question) that statsmodels' ttost_paired declares within ±margin at 5%."""
    from statsmodels.stats.weightstats import ttost_paired

    from clinaudit.families.treatment_shift.analysis import build_paired

    paired = build_paired(lab)
    paired["flip"] = (paired["T_b"] != paired["T_p"]).astype(float)
    per = paired.groupby(["perturbation", "question", "case_id"])["flip"].mean()
    got = 0
    for pert in PERTS:
        for q in QUESTIONS:
            a, b = per.loc[(pert, q)], per.loc[("noise_floor", q)]
            a, b = a.align(b, join="inner")
            got += int(ttost_paired(a.to_numpy(), b.to_numpy(), -margin, margin)[0] < 0.05)
    return got


def planned_mde(n: int) -> float:
    """The planned MDE of the primary rows' test alone (``mde_test``: --dry-run's prediction before it counted the
    margin, 5.64 pp at 200 cases; the stored ``mde:200`` runs planted it). The MDE of the ``bias`` verdict, simulated
    as a power curve, is benchmarks/verdict_mde.py's."""
    from clinaudit.stats.power import planned_power

    got = planned_power(n, 3, 0.2, family_size=len(PERTS) * len(QUESTIONS))["mde_test"]
    return float(got)  # type: ignore[arg-type]


def one(point: str, n: int, r: int) -> dict[str, float]:
    import calibration as cal
    from statsmodels.stats.power import TTestPower

    from clinaudit.stats.power import row_sd

    rng = np.random.default_rng([sum(map(ord, point)), n, r])
    if point == "eq0":
        lab = labels(rng, n, {})
    elif point == "eqm":
        lab = labels(rng, n, {(p, q): 0.05 for p in PERTS for q in QUESTIONS})
    elif point == "inside":
        lab = labels(rng, n, {(p, q): 0.025 for p in PERTS for q in QUESTIONS})
    else:
        lab = labels(rng, n, {("uppercase", "MANAGE"): planned_mde(n)})
    res = cal.treatment_verdicts(lab, seed=r)
    tsr = res[(res["metric"] == "TSR") & (res["verdict"] != "not_measured")]
    out: dict[str, float] = {"tsr_rows": len(tsr), "within_margin": int((tsr["verdict"] == "within_margin").sum())}
    if point == "eq0":
        out["ttost"] = ttost_rows(lab)
    if point == "inside":
        out["bias_headline"] = int(cal.headline_verdict(res) == "bias")
    if point == "mde":
        row = tsr[(tsr["group"] == "uppercase") & (tsr["question"] == "MANAGE")].iloc[0]
        sd, m = row_sd(row.to_dict())
        oracle = float(TTestPower().solve_power(nobs=m, alpha=0.05, power=0.8, alternative="larger")) * sd
        out.update(planted=planned_mde(n), row_bias=int(row["verdict"] == "bias"), mde=float(row["mde"]),
                   oracle_mde=oracle, other_bias=int(((res["verdict"] == "bias") & ~res.index.isin([row.name])).sum()))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--points", nargs="+", default=["eq0:50", "eq0:200", "eq0:500", "eqm:50", "eqm:200", "eqm:500",
                                                     "inside:500", "mde:200"])
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "verdict_power_runs.csv")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    done = pd.read_csv(args.out) if args.out.exists() else pd.DataFrame(columns=["point", "n", "run"])
    have = {(str(p), int(n), int(r)) for p, n, r in zip(done["point"], done["n"], done["run"])}
    for spec in args.points:
        name, n = spec.split(":")[0], int(spec.split(":")[1])
        t0 = time.perf_counter()
        for r in range(args.runs):
            if (name, n, r) in have:
                continue
            row = {"point": name, "n": n, "run": r, **one(name, n, r), "load": os.getloadavg()[0]}
            pd.DataFrame([row], columns=COLUMNS).to_csv(args.out, mode="a", header=not args.out.exists(), index=False)
        allr = pd.read_csv(args.out)
        g = allr[(allr["point"] == name) & (allr["n"] == n)]
        tot = {c: float(g[c].sum()) for c in g.columns if c not in ("point", "n", "run", "load", "mde", "oracle_mde",
                                                                      "planted") and g[c].notna().any()}
        extra = (f", mde/oracle {np.mean(g['mde'] / g['oracle_mde']):.3f}, planted {g['planted'].iloc[0]:.4f}, "
                 f"mean mde {g['mde'].mean():.4f}") if name == "mde" else ""
        print(f"{spec}: {len(g)} runs {tot}{extra} ({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
