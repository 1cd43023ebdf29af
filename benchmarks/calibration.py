"""Calibration of the verdicts by simulation through the product's own code path (issue 39).

Every scenario simulates data with a known truth, computes the statistics with clinaudit's own functions
(:func:`clinaudit.families.treatment_shift.analysis.results_table`: ``build_paired`` → the metric cells
through ``treatment_shift_table`` and the gender gaps through ``subgroup_gap``, each corrected in its
family; then :func:`clinaudit.pipeline.validity.assign_verdicts`, the headline's
:func:`~clinaudit.pipeline.validity.verdict_lines` and :func:`clinaudit.report.gate.gate_run` on a run
directory written the way a run writes it) and counts how often a verdict is wrong:

* ``null``: a complete null (every perturbed answer drawn like a baseline answer; the gender makes no
  difference): runs whose headline says "bias found", runs the gate fails, and the share of ``bias`` rows;
* ``margin``: every perturbation's true TSR excess over the noise floor exactly at the 5 pp margin:
  share of TSR rows that are ``within_margin`` (should be ≤ 5%);
* ``compare_margin``: run B's true flip rate 5 pp above run A's: share of ``compare`` rows
  ``within_margin``;
* ``gate_inside``: run B 3 pp worse than its baseline under a 5 pp margin: runs the gate fails;
* ``association``: frame-level noise (sd 0.5, 30 frames × 8 targets, mean difference 0): runs with a
  ``bias`` row;
* ``gaps``: classifier gaps, 4 groups, no true gap: runs with a ``bias`` row.

``python benchmarks/calibration.py [--runs 200] [--quick] [--scenario NAME ...] [--write-doc]`` prints
the table (and with ``--write-doc`` replaces the table between the calibration markers of
docs/verdicts.md). tests/test_calibration.py runs the same functions with fewer runs (slow-marked).
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ("MANAGE", "VISIT", "RESOURCE")
#: statistics settings of the simulated runs (the product's defaults are 1000 resamples / 9999 permutations;
#: fewer keep 200 runs per point affordable, the p-values stay exact or Monte Carlo-valid)
STATS = {"n_resamples": 200, "n_permutations": 999}


def _settings() -> Any:
    from clinaudit.spec import VerdictSettings

    return VerdictSettings()


def treatment_labels(rng: np.random.Generator, n: int, *, excess: float = 0.0, perturbations: tuple[str, ...] =
                     ("uppercase", "exclamation"), seeds: int = 3, base_rate: float | None = None) -> pd.DataFrame:
    """A treatment-shift label table of ``n`` cases (half female), 3 baseline seeds (the noise floor) and
    the same seeds under each perturbation, one model, three questions.

    Per case and question the answer is yes with probability ``p`` (uniform in [0.1, 0.9], or
    ``base_rate``); a perturbed answer with ``p'`` chosen so that its flip rate against a baseline answer
    exceeds the baseline's own (2p(1−p), the floor) by ``excess`` exactly: p + p' − 2pp' = 2p(1−p) + excess."""
    rows = []
    cases = np.arange(n)
    for c in cases:
        gender = "female" if c % 2 else "male"
        for q in QUESTIONS:
            p = base_rate if base_rate is not None else float(rng.uniform(0.1, 0.9))
            floor = 2 * p * (1 - p)
            p_alt = p if excess == 0 else (floor + excess - p) / (1 - 2 * p)
            for variant, prob in [("baseline", p)] + [(v, p_alt) for v in perturbations]:
                labels = rng.random(seeds) < prob
                for s in range(seeds):
                    rows.append((f"c{c:04d}", variant, "m", s, q, int(labels[s]), gender))
    return pd.DataFrame(rows, columns=["case_id", "variant", "model", "seed", "question", "label", "gender"])


def treatment_verdicts(labels: pd.DataFrame, seed: int) -> pd.DataFrame:
    """results.csv of a treatment-shift run of ``labels`` with its verdicts (the product's path)."""
    from clinaudit.families.treatment_shift.analysis import results_table
    from clinaudit.pipeline.validity import assign_verdicts

    results = results_table(labels, seed=seed, **STATS)
    return assign_verdicts(results, {"reasons": [], "models": {"m": {"reasons": []}}}, _settings(),
                           run_audit="treatment_shift")


def write_run(base: Path, name: str, results: pd.DataFrame, paired: pd.DataFrame | None = None,
              audit: str = "treatment_shift") -> Path:
    """A finished run directory holding ``results`` (with verdicts) and ``paired``, as ``clinaudit run`` writes."""
    from clinaudit.rundir import RunDir

    rd = RunDir(base / name)
    rd.start(spec={"audit": audit, "name": "calibration", "models": {"target": "m"}, "params": {}},
             models=[{"spec": "m"}], seeds=[0], command="calibration")
    if paired is not None:
        rd.write_table("paired", paired)
    rd.write_table("results", results)
    rd.finish(usage={}, audit=audit, status="complete", summary={})
    rd.close()
    return rd.path


def headline_verdict(results: pd.DataFrame, audit: str = "treatment_shift") -> str:
    """The first screen's verdict of the (one) audit × model line."""
    from clinaudit.pipeline.validity import verdict_lines

    validity = {"models": {"m": {"reasons": []}}, "reasons": [], "cases": {}}
    return str(verdict_lines(results, validity, audit)[0]["verdict"])


# --------------------------------------------------------------------------- scenarios
# each scenario simulates one run: (n, r) -> {quantity: (count, out of)}; the rng is seeded by (scenario, n, r)


def _rng(name: str, n: int, r: int) -> np.random.Generator:
    return np.random.default_rng([sum(map(ord, name)), n, r])


def scenario_null(n: int, r: int) -> dict[str, tuple[int, int]]:
    """Complete null with gender gaps: headline "bias found", gate failure, bias rows."""
    from clinaudit.report.gate import gate_run

    res = treatment_verdicts(treatment_labels(_rng("null", n, r), n), seed=r)
    eff = res[res["effect"].astype(bool) & (res["verdict"] != "not_measured")]
    with tempfile.TemporaryDirectory() as tmp:
        g = gate_run(write_run(Path(tmp), "run", res), write=False)
    return {"bias_found": (int(headline_verdict(res) == "bias"), 1), "gate_fail": (int(g.outcome == "fail"), 1),
            "bias_rows": (int((eff["verdict"] == "bias").sum()), len(eff))}


def scenario_margin(n: int, r: int) -> dict[str, tuple[int, int]]:
    """True TSR excess over the noise floor exactly at the 5 pp margin: TSR rows within_margin."""
    res = treatment_verdicts(treatment_labels(_rng("margin", n, r), n, excess=0.05, base_rate=0.2), seed=r)
    tsr = res[(res["metric"] == "TSR") & (res["verdict"] != "not_measured")]
    return {"within_margin_rows": (int((tsr["verdict"] == "within_margin").sum()), len(tsr))}


def _flip_pairs(rng: np.random.Generator, n: int, rates: dict[str, np.ndarray]) -> pd.DataFrame:
    """Treatment-shift pairs of one run (one MANAGE pair per case and perturbation, baseline answer 0), the
    perturbed answer flipping with each case's probability ``rates[perturbation][case]``."""
    rows = [(f"c{i:04d}", "d", "m", pert, "MANAGE", 0, 1, 0, int(rng.random() < pr[i]))
            for pert, pr in rates.items() for i in range(n)]
    return pd.DataFrame(rows, columns=["case_id", "dataset", "model", "perturbation", "question", "seed", "seed_b",
                                       "T_b", "T_p"])


def _two_runs(tmp: Path, rng: np.random.Generator, n: int, worsening: float) -> tuple[Path, Path]:
    """A baseline run and a new run whose every case flips ``worsening`` more often under each perturbation
    (case flip probabilities uniform in [0.05, 0.25] in the baseline, shared by both runs)."""
    base_p = {pert: rng.uniform(0.05, 0.25, n) for pert in ("uppercase", "exclamation")}
    new_p = {k: v + worsening for k, v in base_p.items()}
    res = pd.DataFrame({"audit": ["treatment_shift"], "model": "m", "metric": "TSR", "group": "uppercase",
                        "reference": "noise_floor", "value": 0.0, "ci_low": -0.01, "ci_high": 0.01, "p_adj": 1.0,
                        "verdict": "within_margin", "verdict_reason": "simulated", "margin": 0.05, "effect": True})
    return (write_run(tmp, "a", res, _flip_pairs(rng, n, base_p)), write_run(tmp, "b", res, _flip_pairs(rng, n, new_p)))


def scenario_compare_margin(n: int, r: int) -> dict[str, tuple[int, int]]:
    """Run B flips exactly 5 pp more often than run A on every case (the margin): compare rows within_margin."""
    from clinaudit.report.compare import compare_runs

    with tempfile.TemporaryDirectory() as tmp:
        a, b = _two_runs(Path(tmp), _rng("compare_margin", n, r), n, 0.05)
        t = compare_runs(a, b, n_resamples=STATS["n_resamples"], n_permutations=STATS["n_permutations"], seed=r).table
    t = t[t["metric"] == "TSR"]
    return {"within_margin_rows": (int((t["verdict"] == "within_margin").sum()), len(t))}


def scenario_gate_inside(n: int, r: int) -> dict[str, tuple[int, int]]:
    """Run B 3 pp worse than its baseline on every case, margin 5 pp: the gate fails (it should not)."""
    from clinaudit.report.gate import gate_run

    with tempfile.TemporaryDirectory() as tmp:
        a, b = _two_runs(Path(tmp), _rng("gate_inside", n, r), n, 0.03)
        g = gate_run(b, baseline=a, n_resamples=STATS["n_resamples"], n_permutations=STATS["n_permutations"],
                     seed=r, write=False)
    return {"gate_fail": (int(g.outcome == "fail"), 1)}


def association_scores(rng: np.random.Generator, frames: int = 30, targets: int = 8, sd: float = 0.5) -> pd.DataFrame:
    """Log-probability bias scores of ``frames`` frames × ``targets`` target pairs (female vs male), one
    category, with a frame-level random difference (mean 0, sd ``sd``) shared by the frame's sentences and
    sentence noise (sd 0.5)."""
    rows = []
    for f in range(frames):
        shift = rng.normal(0.0, sd)
        for t in range(targets):
            base = rng.normal(0.0, 1.0)
            rows.append(("m", "CVD", "male", f"frame{f}", t, base + rng.normal(0, 0.5)))
            rows.append(("m", "CVD", "female", f"frame{f}", t, base + shift + rng.normal(0, 0.5)))
    return pd.DataFrame(rows, columns=["model", "category", "group", "frame", "position", "score"])


def scenario_association(n: int, r: int) -> dict[str, tuple[int, int]]:
    """Frame-level noise, mean difference 0 (``n`` frames × 8 targets): runs with a bias row, and the share of
    null runs in which the sentence-level signed-rank test alone is significant (what it would say)."""
    from clinaudit.families.hurtful_words.association_stats import association_tests
    from clinaudit.pipeline.validity import assign_verdicts

    scores = association_scores(_rng("association", n, r), frames=n)
    tests = association_tests(scores, ["male", "female"], ["signed-rank", "sign-flip"], n_bootstrap=200, seed=r)
    res = assign_verdicts(tests, {"reasons": [], "models": {"m": {"reasons": []}}}, _settings(),
                          run_audit="association")
    sr = tests[tests["test_option"] == "signed-rank"]
    return {"bias_found": (int((res["verdict"] == "bias").any()), 1),
            "signed_rank_significant": (int((sr["p_adj"] < 0.01).any()), 1)}


def scenario_gaps(n: int, r: int) -> dict[str, tuple[int, int]]:
    """Classifier gaps, 4 groups (shares 40/30/20/10%) of ``n`` test rows, 3 tasks, predictions independent of
    the group: runs with a bias row, and the share of gap rows that are bias."""
    from clinaudit.families.hurtful_words.classifier_metrics import classifier_gap_table
    from clinaudit.pipeline.validity import assign_verdicts

    rng = _rng("gaps", n, r)
    df = pd.DataFrame({"task": np.repeat(["t1", "t2", "t3"], n), "label": rng.random(3 * n) < 0.3,
                       "group": rng.choice(["a", "b", "c", "d"], 3 * n, p=[0.4, 0.3, 0.2, 0.1])})
    df["pred"] = (rng.random(3 * n) < np.where(df["label"], 0.7, 0.2)).astype(int)
    df["label"] = df["label"].astype(int)
    gaps = classifier_gap_table(df, "task", "label", "pred", ["group"], n_resamples=STATS["n_resamples"], seed=r)
    res = assign_verdicts(gaps, {"reasons": [], "models": {}}, _settings(), run_audit="classifier_gaps")
    eff = res[res["verdict"] != "not_measured"]
    return {"bias_found": (int((eff["verdict"] == "bias").any()), 1),
            "bias_rows": (int((eff["verdict"] == "bias").sum()), len(eff))}


def doc_table(table: pd.DataFrame) -> str:
    """The markdown table of docs/verdicts.md: one row per scenario × quantity, one column per size."""
    what = {("null", "bias_found"): "complete null, treatment shift + gender gaps: headline \"bias found\"",
            ("null", "gate_fail"): "complete null: `clinaudit gate` fails",
            ("null", "bias_rows"): "complete null: rows `bias` (of effect rows)",
            ("margin", "within_margin_rows"): "TSR excess exactly at the 5 pp margin: rows `within_margin`",
            ("compare_margin", "within_margin_rows"): "`compare`, B − A exactly at the margin: rows `within_margin`",
            ("gate_inside", "gate_fail"): "B 3 pp worse than its baseline, margin 5 pp: gate fails",
            ("association", "bias_found"): "association, frame-level noise (30 frames × 8 targets): runs with `bias`",
            ("association", "signed_rank_significant"): "… the sentence-level signed-rank test alone, p_adj < 0.01",
            ("gaps", "bias_found"): "classifier gaps, 4 groups, no gap: runs with `bias`",
            ("gaps", "bias_rows"): "… gap rows `bias`"}
    sizes = sorted(set(table["n"]))
    lines = ["| wrong verdict (should be ≤ 5%) | " + " | ".join(f"n = {n}" for n in sizes) + " |",
             "|---|" + "---|" * len(sizes)]
    for (sc, q), g in table.groupby(["scenario", "quantity"], sort=False):
        cells = []
        for n in sizes:
            row = g[g["n"] == n]
            rate = float(row["rate"].iloc[0]) if len(row) else math.nan
            cells.append("" if not len(row) else (f"{rate:.2%}" if 0 < rate < 0.01 else f"{rate:.1%}")
                         + f" ({int(row['count'].iloc[0])}/{int(row['of'].iloc[0])})")
        lines.append(f"| {what.get((sc, q), sc + ' ' + q)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_doc(table: pd.DataFrame, runs_note: str, path: Path = ROOT / "docs" / "verdicts.md") -> None:
    """Replace the text between the calibration markers of docs/verdicts.md with the table."""
    text = path.read_text(encoding="utf-8")
    start, end = "<!-- calibration:start -->", "<!-- calibration:end -->"
    i, j = text.index(start) + len(start), text.index(end)
    path.write_text(text[:i] + "\n" + runs_note.strip() + "\n\n" + doc_table(table) + "\n" + text[j:],
                    encoding="utf-8")


SCENARIOS: dict[str, Callable[[int, int], dict[str, tuple[int, int]]]] = {
    "null": scenario_null,
    "margin": scenario_margin,
    "compare_margin": scenario_compare_margin,
    "gate_inside": scenario_gate_inside,
    "association": scenario_association,
    "gaps": scenario_gaps,
}
#: sizes per scenario (cases; frames for the association)
SCENARIO_SIZES: dict[str, tuple[int, ...]] = {"association": (30,), "gaps": (500,)}
SIZES = (20, 80, 200, 500)


def _one(task: tuple[str, int, int]) -> tuple[str, int, dict[str, tuple[int, int]]]:
    name, n, r = task
    return name, n, SCENARIOS[name](n, r)


def run(names: list[str], runs: int, sizes: tuple[int, ...] = SIZES, workers: int = 1,
        points: list[tuple[str, int]] | None = None) -> pd.DataFrame:
    """Every scenario × size (or the given ``points``, in their order), ``runs`` simulated runs each: one row
    per quantity with its rate and counts."""
    points = points or [(name, n) for name in names for n in SCENARIO_SIZES.get(name, sizes)]
    tasks = [(name, n, r) for name, n in points for r in range(runs)]
    sums: dict[tuple[str, int, str], list[int]] = {}
    t0 = time.perf_counter()
    left = {(name, n): sum(1 for t in tasks if t[:2] == (name, n)) for name, n, _ in tasks}

    def add(name: str, n: int, got: dict[str, tuple[int, int]]) -> None:
        for k, (a, b) in got.items():
            s = sums.setdefault((name, n, k), [0, 0, 0])
            s[0], s[1], s[2] = s[0] + a, s[1] + b, s[2] + 1
        left[(name, n)] -= 1
        if not left[(name, n)]:  # a point is complete: print it at once
            print(f"{name} n={n}: " + ", ".join(f"{k} {s[0]}/{s[1]} = {s[0] / max(s[1], 1):.1%}"
                                                for (nm, nn, k), s in sums.items() if (nm, nn) == (name, n))
                  + f" ({time.perf_counter() - t0:.0f} s)", flush=True)

    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(workers) as pool:
            for name, n, got in pool.imap_unordered(_one, tasks, chunksize=2):
                add(name, n, got)
    else:
        for t in tasks:
            add(*_one(t))
    out = [{"scenario": name, "n": n, "quantity": k, "rate": a / b if b else math.nan, "count": a, "of": b,
            "runs": runs_} for (name, n, k), (a, b, runs_) in sorted(sums.items())]
    print(f"{len(tasks)} simulated runs in {time.perf_counter() - t0:.0f} s", flush=True)
    return pd.DataFrame(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="20 runs per point")
    ap.add_argument("--scenario", nargs="*", default=list(SCENARIOS))
    ap.add_argument("--sizes", nargs="*", type=int, default=list(SIZES))
    ap.add_argument("--workers", type=int, default=1, help="processes")
    ap.add_argument("--points", nargs="*", default=None, metavar="SCENARIO:N",
                    help="run these points in this order instead of every scenario × size")
    ap.add_argument("--out", type=Path, help="write the table as CSV")
    ap.add_argument("--write-doc", action="store_true", help="write the table into docs/verdicts.md")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    points = [(p.split(":")[0], int(p.split(":")[1])) for p in args.points] if args.points else None
    table = run(args.scenario, 20 if args.quick else args.runs, tuple(args.sizes), args.workers, points)
    print(table.pivot_table(index=["scenario", "quantity"], columns="n", values="rate").to_string(
        float_format=lambda x: f"{x:.1%}"))
    if args.out:
        table.to_csv(args.out, index=False)
    if args.write_doc:
        write_doc(table, f"{table['runs'].max()} simulated runs per point")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
