"""Issue 48 acceptance: the minimum detectable effect (MDE) of a primary treatment-shift row, simulated through the
product's own path and set beside uncorrected paired t-tests on the same per-case data.

Each run plants a TSR excess ``e`` on one primary row (uppercase × MANAGE) of a run with 2 perturbations × 3
questions, 3 seeds and a noise floor of 20% (benchmarks/verdict_power.py's ``labels``), sends it through
``results_table`` → ``assign_verdicts`` (benchmarks/calibration.py's ``treatment_verdicts``) and records for that
row:

* ``bias`` — its verdict is ``bias`` (the product's answer);
* ``sig`` — its test is significant over the run (``p_run < 0.05``: the sign flip, Holm over the 6 primary rows);
* ``sig_out`` — ``sig`` and its equivalence bound not inside the 5 pp margin: the rule before ``beyond_margin``
  (a significant row is ``bias`` only when its estimate reaches the margin), so ``sig_out − bias`` is that rule's
  cost;
* ``t2`` / ``t1`` — scipy ``ttest_rel`` of the perturbed pairs' per-case flip rate against the floor pairs' (the
  same per-case data), two-sided / one-sided ("greater"), p < 0.05, no correction: the issue's oracle;
* ``t1_holm`` — the one-sided t at alpha/6 (the level of Holm's first step);
* ``value``, ``mde`` (the row's own column), ``other_bias`` (any other row ``bias``) and the load.

The MDE of each is the planted excess found with 80% power: linear interpolation of the per-effect rates, and a
probit fit of the 0/1 outcomes on ``e`` (statsmodels ``GLM``, binomial, probit link), whose 95% interval comes from
resampling the runs (500 bootstrap refits). ``--dry-run``'s prediction is ``planned_power`` at 200 cases.

``python benchmarks/verdict_mde.py --runs 24 --effects 3 4 5 6 7 8 9`` appends one row per run (seeded by effect
and run, so resumable) to benchmarks/verdict_mde_runs.csv; ``--report`` prints the tables from the stored rows.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
OUT = ROOT / "benchmarks" / "verdict_mde_runs.csv"
CELL = ("uppercase", "MANAGE")
ALPHA, MARGIN, POWER = 0.05, 0.05, 0.8
TOL = 1e-9  # an estimate equal to the margin up to rounding reaches it (stats.verdicts.beyond_margin)
#: the quantities of a run that are 0/1 outcomes (a power curve each), with the table's words
OUTCOMES = {
    "bias": "product: the row `bias` (test over the run and estimate ≥ margin)",
    "sig": "product's test alone: `p_run` < 0.05 (sign flip, Holm over 6 primary rows)",
    "sig_out": "product's test and bound not inside the margin (the rule before `beyond_margin`)",
    "t1_holm": "paired t, one-sided at 0.05/6 (Holm's first step)",
    "t1": "oracle: paired t, one-sided at 0.05, uncorrected",
    "t2": "oracle: paired t, two-sided at 0.05, uncorrected (scipy `ttest_rel` default)",
}
COLUMNS = ["n", "effect", "run", *OUTCOMES, "value", "p", "p_run", "mde", "other_bias", "load"]


def per_case(lab: pd.DataFrame, cell: tuple[str, str] = CELL) -> tuple[np.ndarray, np.ndarray]:
    """(perturbed pairs' flip rate, floor pairs' flip rate) per case of one perturbation × question, from the
    product's own pairing (``build_paired``), aligned on the case."""
    from clinaudit.families.treatment_shift.analysis import build_paired

    paired = build_paired(lab)
    paired = paired[paired["question"] == cell[1]]
    paired = paired.assign(flip=(paired["T_b"] != paired["T_p"]).astype(float))
    per = paired.groupby(["perturbation", "case_id"])["flip"].mean()
    a, b = per.loc[cell[0]].align(per.loc["noise_floor"], join="inner")
    return a.to_numpy(), b.to_numpy()


def oracles(a: np.ndarray, b: np.ndarray, family: int = 6) -> dict[str, int]:
    """The uncorrected paired t-tests (scipy ``ttest_rel``) of ``a`` against ``b``: significant or not."""
    from scipy.stats import ttest_rel

    p2 = float(ttest_rel(a, b).pvalue)
    p1 = float(ttest_rel(a, b, alternative="greater").pvalue)
    return {"t2": int(p2 < ALPHA), "t1": int(p1 < ALPHA), "t1_holm": int(p1 < ALPHA / family)}


def one(n: int, effect_pp: float, r: int) -> dict[str, Any]:
    import calibration as cal
    import verdict_power as vp

    rng = np.random.default_rng([n, int(round(effect_pp * 100)), r, 4848])
    lab = vp.labels(rng, n, {CELL: effect_pp / 100})
    res = cal.treatment_verdicts(lab, seed=r)
    tsr = res[res["metric"] == "TSR"]
    row = tsr[(tsr["group"] == CELL[0]) & (tsr["question"] == CELL[1])].iloc[0]
    sig = bool(row["p_run"] < ALPHA)
    inside = bool(row["eq_high"] < MARGIN)
    out: dict[str, Any] = {"bias": int(row["verdict"] == "bias"), "sig": int(sig), "sig_out": int(sig and not inside),
                           **oracles(*per_case(lab)), "value": float(row["value"]), "p": float(row["p"]),
                           "p_run": float(row["p_run"]), "mde": float(row["mde"]),
                           "other_bias": int(((res["verdict"] == "bias") & (res.index != row.name)).sum())}
    return out


def fast_curves(n: int, effects: list[float], sims: int = 4000, seeds: int = 3, seed: int = 0) -> pd.DataFrame:
    """The t-tests' power per planted effect (pp) from ``sims`` data sets of the same generator, vectorised (no
    product path: the perturbed and floor pairs of one cell as :func:`clinaudit.stats.power.planned_sd` forms them),
    with ``proxy`` = the one-sided t at alpha/6 and the estimate ≥ the margin (the ``bias`` rule with the t in the
    sign flip's place; its agreement with the product's verdict is measured on the product runs)."""
    from scipy.stats import ttest_rel

    from verdict_power import P20

    rng = np.random.default_rng(seed)
    p = P20
    floor = 2 * p * (1 - p)
    out = []
    for e in effects:
        q = (floor + e / 100 - p) / (1 - 2 * p)
        b = rng.random((sims, n, seeds)) < p
        a = rng.random((sims, n, seeds)) < q
        pert = np.mean([a[..., s1] != b[..., s0] for s1 in range(seeds) for s0 in range(seeds) if s0 != s1], axis=0)
        fl = np.mean([b[..., s0] != b[..., s1] for s0 in range(seeds) for s1 in range(s0 + 1, seeds)], axis=0)
        p2 = ttest_rel(pert, fl, axis=1).pvalue
        p1 = ttest_rel(pert, fl, axis=1, alternative="greater").pvalue
        est = (pert - fl).mean(axis=1)
        out.append({"effect": e, "t2": np.mean(p2 < ALPHA), "t1": np.mean(p1 < ALPHA),
                    "t1_holm": np.mean(p1 < ALPHA / 6), "proxy": np.mean((p1 < ALPHA / 6) & (est >= MARGIN - TOL)),
                    "sd": float(np.std(pert - fl, ddof=1, axis=1).mean())})
    return pd.DataFrame(out)


def interpolated(effects: np.ndarray, rates: np.ndarray, power: float = POWER) -> float:
    """The effect at which the per-effect rates first cross ``power`` (linear interpolation); NaN when they do not."""
    for (x0, r0), (x1, r1) in zip(zip(effects, rates), zip(effects[1:], rates[1:])):
        if r0 < power <= r1:
            return float(x0 + (x1 - x0) * (power - r0) / (r1 - r0))
    return float("nan")


def probit_mde(x: np.ndarray, y: np.ndarray, power: float = POWER) -> float:
    """The effect with fitted probability ``power`` under a probit regression of ``y`` (0/1) on ``x``."""
    import statsmodels.api as sm
    from scipy.stats import norm

    if y.min() == y.max():
        return float("nan")
    fam = sm.families.Binomial(link=sm.families.links.Probit())
    b0, b1 = sm.GLM(y, sm.add_constant(x), family=fam).fit().params
    return float((norm.ppf(power) - b0) / b1)


def summary(rows: pd.DataFrame, boot: int = 500, seed: int = 0) -> pd.DataFrame:
    """Per outcome: MDE by interpolation and by the probit fit with its bootstrap 95% interval (runs resampled
    within each planted effect)."""
    rng = np.random.default_rng(seed)
    effects = np.array(sorted(rows["effect"].unique()))
    groups = [rows[rows["effect"] == e] for e in effects]
    out = []
    for q in OUTCOMES:
        rates = np.array([g[q].mean() for g in groups])
        fit = probit_mde(rows["effect"].to_numpy(float), rows[q].to_numpy(float))
        reps = []
        for _ in range(boot):
            s = pd.concat([g.iloc[rng.integers(0, len(g), len(g))] for g in groups])
            reps.append(probit_mde(s["effect"].to_numpy(float), s[q].to_numpy(float)))
        lo, hi = np.nanpercentile(reps, [2.5, 97.5])
        out.append({"outcome": q, "interpolated": interpolated(effects, rates), "probit": fit, "lo": lo, "hi": hi,
                    **{f"{e:g}": f"{int(g[q].sum())}/{len(g)}" for e, g in zip(effects, groups)}})
    return pd.DataFrame(out).set_index("outcome")


def report(rows: pd.DataFrame, n: int = 200) -> str:
    from clinaudit.stats.power import POWER as P
    from clinaudit.stats.power import mde, planned_power, planned_sd

    rows = rows[rows["n"] == n]
    s = summary(rows)
    effects = sorted(rows["effect"].unique())
    lines = [f"| outcome (planted row, {n} cases) | " + " | ".join(f"{e:g} pp" for e in effects)
             + " | MDE interpolated | MDE probit [95% CI] |", "|---|" + "---|" * (len(effects) + 2)]
    for q, words in OUTCOMES.items():
        r = s.loc[q]
        lines.append(f"| {words} | " + " | ".join(str(r[f"{e:g}"]) for e in effects)
                     + f" | {r['interpolated']:.2f} pp | {r['probit']:.2f} pp [{r['lo']:.2f}, {r['hi']:.2f}] |")
    sd = planned_sd(0.2, 3)
    plan = 100 * float(planned_power(n, 3, 0.2, family_size=6)["mde"])  # type: ignore[arg-type]
    an = {"t2": mde(sd, n, direction="two_sided"), "t1": mde(sd, n), "t1_holm": mde(sd, n, family_size=6)}
    lines.append("")
    lines.append(f"ratios (probit MDEs): bias / t2 {s.loc['bias', 'probit'] / s.loc['t2', 'probit']:.3f}, "
                 f"bias / t1 {s.loc['bias', 'probit'] / s.loc['t1', 'probit']:.3f}, "
                 f"sig / t2 {s.loc['sig', 'probit'] / s.loc['t2', 'probit']:.3f}, "
                 f"sig / t1 {s.loc['sig', 'probit'] / s.loc['t1', 'probit']:.3f}, "
                 f"sig_out / t2 {s.loc['sig_out', 'probit'] / s.loc['t2', 'probit']:.3f}")
    lines.append(f"analytic at the planned sd {sd:.4f} (statsmodels TTestPower, {P:.0%} power): t2 "
                 f"{100 * an['t2']:.2f} pp, t1 {100 * an['t1']:.2f} pp, t1 at alpha/6 {100 * an['t1_holm']:.2f} pp; "
                 f"--dry-run's planned MDE {plan:.2f} pp (dry-run / simulated: bias "
                 f"{plan / s.loc['bias', 'probit']:.3f}, sig {plan / s.loc['sig', 'probit']:.3f})")
    fine = [float(x) for x in np.arange(3.0, 9.01, 0.25)]
    fc = fast_curves(n, fine, sims=2000)
    fmde = {q: interpolated(fc["effect"].to_numpy(), fc[q].to_numpy()) for q in ("t2", "t1", "t1_holm", "proxy")}
    proxy = (rows["t1_holm"].astype(bool) & (rows["value"] >= MARGIN - TOL)).astype(int)
    lines.append(f"t-tests on 2,000 data sets per effect (3-9 pp by 0.25), interpolated: t2 {fmde['t2']:.2f} pp, t1 "
                 f"{fmde['t1']:.2f} pp, t1 at alpha/6 {fmde['t1_holm']:.2f} pp, t1 at alpha/6 and estimate >= margin "
                 f"{fmde['proxy']:.2f} pp (agrees with the product's bias verdict in {int((proxy == rows['bias']).sum())}"
                 f"/{len(rows)} product runs; sig = t1 at alpha/6 in {int((rows['sig'] == rows['t1_holm']).sum())}/"
                 f"{len(rows)}); ratios: proxy / t2 {fmde['proxy'] / fmde['t2']:.3f}, proxy / t1 "
                 f"{fmde['proxy'] / fmde['t1']:.3f}, t1 at alpha/6 / t1 {fmde['t1_holm'] / fmde['t1']:.3f}, "
                 f"t1 at alpha/6 / t2 {fmde['t1_holm'] / fmde['t2']:.3f}; dry-run / proxy {plan / fmde['proxy']:.3f}")
    lines.append(f"runs {len(rows)}, mean row mde {100 * rows['mde'].mean():.2f} pp, other rows bias in "
                 f"{int((rows['other_bias'] > 0).sum())} runs, load {rows['load'].min():.1f}-{rows['load'].max():.1f}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=24)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--effects", type=float, nargs="+", default=[3, 4, 5, 6, 7, 8, 9], help="planted excess, pp")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--report", action="store_true", help="print the tables from --out and stop")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    if args.report:
        print(report(pd.read_csv(args.out), args.n))
        return 0
    done = pd.read_csv(args.out) if args.out.exists() else pd.DataFrame(columns=COLUMNS)
    have = {(int(n), float(e), int(r)) for n, e, r in zip(done["n"], done["effect"], done["run"])}
    for r in range(args.runs):  # effects interleaved, so a stopped run leaves every effect about as measured
        for e in args.effects:
            if (args.n, float(e), r) in have:
                continue
            t0 = time.perf_counter()
            row = {"n": args.n, "effect": e, "run": r, **one(args.n, e, r), "load": os.getloadavg()[0]}
            pd.DataFrame([row], columns=COLUMNS).to_csv(args.out, mode="a", header=not args.out.exists(), index=False)
            print(f"{e:g} pp run {r}: bias {row['bias']} sig {row['sig']} t2 {row['t2']} "
                  f"({time.perf_counter() - t0:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
