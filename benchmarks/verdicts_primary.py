"""Issue 48 acceptance by simulation through the product's own path (primary rows, several models, group-vs-rest).

Every scenario simulates data with a known truth and runs clinaudit's own code: treatment shift through
``results_table`` → ``assign_verdicts`` → the headline (``verdict_lines``) → ``gate_run`` on a run directory
written the way a run writes it (the helpers of benchmarks/calibration.py); classifier gaps through
``audit_predictions`` → ``assign_verdicts``.

* ``null``: complete null, one model and three: runs whose headline says "bias found" for any model, runs the
  gate fails;
* ``fair``: no effect, noise floor about 20% (base rate 0.113), three seeds, two perturbations: runs the gate
  passes;
* ``planted``: +10 pp TSR excess on uppercase × MANAGE only, 200 cases: runs with that row ``bias``, runs with
  any other primary row ``bias``, runs with any other row at all ``bias``;
* ``gaps_power``: a recall gap of one group with 20% of 5,000 rows (4 groups 40/20/20/20, 30% positives, recall
  0.7): runs whose deviant group's recall row is ``bias`` (largest-gap rule and group-vs-rest), and runs whose
  uncorrected two-proportion z-test (statsmodels ``proportions_ztest``, the group against the rest) has p < 0.05.

``python benchmarks/verdicts_primary.py --scenario NAME --runs R [--sizes 50 200 500] [--out CSV]`` appends one
row per simulated run to benchmarks/verdicts_primary_runs.csv and prints the totals. Seeds are (scenario, size,
run), so a row can be re-run.
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import calibration as cal  # noqa: E402

QUESTIONS = cal.QUESTIONS
FLOOR_RATE = 0.113  # 2p(1 - p) = 0.2: a noise floor of about 20%
OUT = Path(__file__).resolve().parent / "verdicts_primary_runs.csv"


def labels(rng: np.random.Generator, n: int, models: tuple[str, ...] = ("m",), excess: dict[tuple[str, str], float]
           | None = None, perturbations: tuple[str, ...] = ("uppercase", "exclamation"), seeds: int = 3,
           base_rate: float = FLOOR_RATE) -> pd.DataFrame:
    """Treatment-shift labels (as calibration.treatment_labels) for several models, with a TSR excess per
    (perturbation, question) cell: a perturbed answer's flip rate against a baseline answer exceeds the floor
    2p(1 − p) by exactly the cell's excess."""
    excess = excess or {}
    rows = []
    p = base_rate
    floor = 2 * p * (1 - p)
    for model in models:
        for c in range(n):
            gender = "female" if c % 2 else "male"
            for q in QUESTIONS:
                for variant in ("baseline", *perturbations):
                    e = excess.get((variant, q), 0.0)
                    prob = p if e == 0 else (floor + e - p) / (1 - 2 * p)
                    draws = rng.random(seeds) < prob
                    rows += [(f"c{c:04d}", variant, model, s, q, int(draws[s]), gender) for s in range(seeds)]
    return pd.DataFrame(rows, columns=["case_id", "variant", "model", "seed", "question", "label", "gender"])


def verdicts(lab: pd.DataFrame, seed: int) -> tuple[pd.DataFrame, dict[str, Any]]:
    from clinaudit.families.treatment_shift.analysis import results_table
    from clinaudit.pipeline.validity import assign_verdicts

    models = sorted(lab["model"].unique())
    validity = {"reasons": [], "models": {m: {"reasons": []} for m in models}, "cases": {}}
    res = results_table(lab, seed=seed, n_resamples=cal.STATS["n_resamples"],
                        n_permutations=cal.STATS["n_permutations"])
    return assign_verdicts(res, validity, cal._settings(), run_audit="treatment_shift"), validity


def headline_and_gate(res: pd.DataFrame, validity: dict[str, Any]) -> tuple[bool, str]:
    """(any model's headline says bias, the gate's outcome)."""
    from clinaudit.pipeline.validity import verdict_lines
    from clinaudit.report.gate import gate_run
    from clinaudit.rundir import RunDir

    bias = any(x["verdict"] == "bias" for x in verdict_lines(res, validity, "treatment_shift"))
    models = list(validity["models"])
    with tempfile.TemporaryDirectory() as tmp:
        rd = RunDir(Path(tmp) / "run")
        rd.start(spec={"audit": "treatment_shift", "name": "sim", "models": {"target": models}, "params": {}},
                 models=[{"spec": m} for m in models], seeds=[0], command="verdicts_primary")
        rd.write_table("results", res)
        rd.finish(usage={}, audit="treatment_shift", status="complete", summary={})
        rd.close()
        outcome = gate_run(rd.path, write=False).outcome
    return bias, outcome


def _rng(name: str, n: int, r: int) -> np.random.Generator:
    return np.random.default_rng([sum(map(ord, name)), n, r, 48])


def scenario_null1(n: int, r: int) -> dict[str, Any]:
    res, val = verdicts(labels(_rng("null1", n, r), n), seed=r)
    bias, gate = headline_and_gate(res, val)
    return {"bias_headline": int(bias), "gate_fail": int(gate == "fail"), "gate_pass": int(gate == "pass")}


def scenario_null3(n: int, r: int) -> dict[str, Any]:
    res, val = verdicts(labels(_rng("null3", n, r), n, models=("m1", "m2", "m3")), seed=r)
    bias, gate = headline_and_gate(res, val)
    return {"bias_headline": int(bias), "gate_fail": int(gate == "fail"), "gate_pass": int(gate == "pass")}


def _fair(n: int, r: int) -> dict[str, Any]:
    res, val = verdicts(labels(_rng("fair", n, r), n), seed=r)
    bias, gate = headline_and_gate(res, val)
    prim = res[res["family_role"] == "primary"]
    return {"gate_pass": int(gate == "pass"), "gate_fail": int(gate == "fail"), "bias_headline": int(bias),
            "primary_within": int((prim["verdict"] == "within_margin").sum()), "primary_rows": len(prim)}


def scenario_planted(n: int, r: int) -> dict[str, Any]:
    res, _ = verdicts(labels(_rng("planted", n, r), n, excess={("uppercase", "MANAGE"): 0.10}), seed=r)
    eff = res[res["effect"].astype(bool)]
    target = (eff["metric"] == "TSR") & (eff["perturbation"] == "uppercase") & (eff["question"] == "MANAGE")
    bias = eff["verdict"] == "bias"
    prim = eff["family_role"] == "primary"
    same_cell = (eff["perturbation"] == "uppercase") & (eff["question"] == "MANAGE")
    return {"target_bias": int((target & bias).any()), "other_primary_bias": int((~target & prim & bias).any()),
            "other_any_bias": int((~target & bias).any()),
            "other_cell_bias": int((~same_cell & bias).any())}


def gap_table(rng: np.random.Generator, gap: float, n: int = 5000) -> pd.DataFrame:
    """One task of ``n`` test rows: groups A 40%, B/C/D 20% each, 30% positives; recall 0.7, D's 0.7 − gap;
    specificity 0.8 everywhere (predictions independent of the group otherwise)."""
    group = rng.choice(np.array(["A", "B", "C", "D"]), size=n, p=[0.4, 0.2, 0.2, 0.2])
    label = (rng.random(n) < 0.3).astype(int)
    recall = np.where(group == "D", 0.7 - gap, 0.7)
    pred = np.where(label == 1, rng.random(n) < recall, rng.random(n) < 0.2).astype(int)
    return pd.DataFrame({"label": label, "pred": pred, "race": group})


def scenario_gaps_power(gap_pp: int, r: int) -> dict[str, Any]:
    """``gap_pp``: the planted recall gap in percentage points (the 'size' of this scenario)."""
    from statsmodels.stats.proportion import proportions_ztest

    from clinaudit.families.hurtful_words.gap_table import audit_predictions
    from clinaudit.pipeline.validity import assign_verdicts

    tab = gap_table(_rng("gaps", gap_pp, r), gap_pp / 100)
    out: dict[str, Any] = {}
    for rule in ("largest_gap", "rest"):
        gaps = audit_predictions(tab, task_column=None, label_column="label", pred_column="pred",
                                 group_columns="race", n_resamples=200, n_permutations=999, seed=r,
                                 comparison=rule).results()
        res = assign_verdicts(gaps, {"reasons": [], "models": {}}, cal._settings(), run_audit="classifier_gaps")
        row = res[(res["metric"] == "recall_gap") & (res["group"] == "D")]
        out[f"bias_{rule}"] = int((row["verdict"] == "bias").any())
        out[f"false_{rule}"] = int(((res["group"] != "D") & (res["reference"] != "D")
                                    & (res["verdict"] == "bias")).any())
    pos = tab[tab["label"] == 1]
    d = pos["race"] == "D"
    _, p = proportions_ztest([int(pos.loc[d, "pred"].sum()), int(pos.loc[~d, "pred"].sum())],
                             [int(d.sum()), int((~d).sum())])
    out["ztest"] = int(p < 0.05)
    return out


#: (scenario, quantity) -> the table's words, and the acceptance bound
LINES = [
    ("null3", "bias_headline", "complete null, three models: any model's headline \"bias found\" (≤ 5%)"),
    ("null3", "gate_fail", "complete null, three models: gate fails (≤ 5%)"),
    ("fair", "gate_pass", "fair model, 3 seeds, 2 perturbations, floor ≈ 20%: gate passes (≥ 60% at 200, ≥ 90% at 500)"),
    ("fair", "bias_headline", "fair model (a complete null, one model): headline \"bias found\" (≤ 5%)"),
    ("fair", "gate_fail", "fair model (a complete null, one model): gate fails (≤ 5%)"),
    ("planted", "target_bias", "+10 pp TSR on uppercase × MANAGE: that row `bias` (≥ 80%)"),
    ("planted", "other_primary_bias", "+10 pp planted: another primary row `bias` (≤ 10%)"),
    ("planted", "other_any_bias", "+10 pp planted: any other row `bias`, secondary included"),
]


def table(rows: pd.DataFrame) -> str:
    """The markdown table of the treatment-shift points (rate (count/runs) per size)."""
    sizes = sorted({int(x) for x in rows.loc[rows["scenario"] != "gaps_power", "size"]})
    out = ["| through the product's path | " + " | ".join(f"n = {n}" for n in sizes) + " |",
           "|---|" + "---|" * len(sizes)]
    for sc, q, words in LINES:
        cells = []
        for n in sizes:
            got = rows[(rows["scenario"] == sc) & (rows["quantity"] == q) & (rows["size"] == n)]
            cells.append(f"{got['value'].mean():.0%} ({int(got['value'].sum())}/{len(got)})" if len(got) else "")
        out.append(f"| {words} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def power_table(rows: pd.DataFrame) -> str:
    """Power of the deviant group's recall row per planted gap, and the gap found 80% of the time (linear
    interpolation between the measured gaps)."""
    g = rows[rows["scenario"] == "gaps_power"]
    gaps = sorted({int(x) for x in g["size"]})
    out = ["| recall gap of a group with 20% of 5,000 rows | " + " | ".join(f"{x} pp" for x in gaps)
           + " | 80% power at |", "|---|" + "---|" * (len(gaps) + 1)]
    for q, words in (("ztest", "two-proportion z-test, uncorrected (statsmodels `proportions_ztest`)"),
                     ("bias_largest_gap", "product, largest-gap rule (default): the row `bias`"),
                     ("bias_rest", "product, group-vs-rest (`comparison: rest`): the row `bias`"),
                     ("false_largest_gap", "… largest-gap: a row not involving the group `bias`"),
                     ("false_rest", "… group-vs-rest: another group's row vs the rest `bias`")):
        pw = [g[(g["quantity"] == q) & (g["size"] == x)]["value"] for x in gaps]
        rates = [float(v.mean()) for v in pw]
        mde = ""
        for (x0, r0), (x1, r1) in zip(zip(gaps, rates), zip(gaps[1:], rates[1:])):
            if not q.startswith("false") and r0 < 0.8 <= r1:
                mde = f"{x0 + (x1 - x0) * (0.8 - r0) / (r1 - r0):.1f} pp"
                break
        out.append(f"| {words} | " + " | ".join(f"{r:.0%} ({int(v.sum())}/{len(v)})" for r, v in zip(rates, pw))
                   + f" | {mde} |")
    return "\n".join(out)


SCENARIOS = {"null1": scenario_null1, "null3": scenario_null3, "fair": _fair, "planted": scenario_planted,
             "gaps_power": scenario_gaps_power}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--first", type=int, default=0, help="first run index (to extend a point)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[200])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--table", action="store_true", help="print the docs tables from --out and stop")
    a = ap.parse_args()
    if a.table:
        rows = pd.read_csv(a.out)
        print(table(rows) + "\n\n" + power_table(rows))
        return 0
    import clinaudit

    new = not a.out.exists()
    with a.out.open("a", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        if new:
            w.writerow(["scenario", "size", "run", "quantity", "value", "seconds", "load1", "version"])
        for size in a.sizes:
            tot: dict[str, int] = {}
            for r in range(a.first, a.first + a.runs):
                t0 = time.time()
                got = SCENARIOS[a.scenario](size, r)
                secs = time.time() - t0
                load = float(Path("/proc/loadavg").read_text().split()[0]) if Path("/proc/loadavg").exists() else -1
                for k, v in got.items():
                    w.writerow([a.scenario, size, r, k, v, f"{secs:.1f}", load, clinaudit.__version__])
                    tot[k] = tot.get(k, 0) + int(v)
                fh.flush()
            print(a.scenario, size, f"runs={a.runs}", {k: f"{v}/{a.runs}" for k, v in tot.items()}, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
