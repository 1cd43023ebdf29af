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
#: a scenario cheap enough to run at the product's defaults says so here (what the store records per run)
SCENARIO_STATS = {"gaps": {"n_resamples": 1000, "n_permutations": 9999}}


def stats_of(name: str) -> dict[str, int]:
    """The resamples and permutations a scenario's runs use."""
    return SCENARIO_STATS.get(name, STATS)


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

    results = results_table(labels, seed=seed, n_resamples=STATS["n_resamples"], n_permutations=STATS["n_permutations"])
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
    # the tests and alpha of a model run's defaults (frame-level sign-flip, the labelled sentence-level
    # signed-rank beside it; alpha 0.01 written on the rows, which assign_verdicts uses)
    tests = association_tests(scores, ["male", "female"], n_bootstrap=STATS["n_resamples"], seed=r)
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
    gaps = classifier_gap_table(df, "task", "label", "pred", ["group"], n_resamples=stats_of("gaps")["n_resamples"],
                                n_permutations=stats_of("gaps")["n_permutations"], seed=r)
    res = assign_verdicts(gaps, {"reasons": [], "models": {}}, _settings(), run_audit="classifier_gaps")
    eff = res[res["verdict"] != "not_measured"]
    return {"bias_found": (int((eff["verdict"] == "bias").any()), 1),
            "bias_rows": (int((eff["verdict"] == "bias").sum()), len(eff))}


#: the rows of the doc's table, in order: (scenario, quantity) -> what it counts
WHAT = {("null", "bias_found"): "complete null, treatment shift + gender gaps: headline \"bias found\"",
        ("null", "gate_fail"): "complete null: `clinaudit gate` fails",
        ("null", "bias_rows"): "complete null: rows `bias` (of effect rows)",
        ("margin", "within_margin_rows"): "TSR excess exactly at the 5 pp margin: rows `within_margin`",
        ("compare_margin", "within_margin_rows"): "`compare`, B − A exactly at the margin: rows `within_margin`",
        ("gate_inside", "gate_fail"): "B 3 pp worse than its baseline, margin 5 pp: gate fails",
        ("association", "bias_found"): "association, frame-level noise (30 frames × 8 targets): runs with `bias`",
        ("association", "signed_rank_significant"): "… not a verdict: the sentence-level signed-rank test alone, "
                                                     "p_adj < 0.01 (what it would say)",
        ("gaps", "bias_found"): "classifier gaps, 4 groups, no gap: runs with `bias`",
        ("gaps", "bias_rows"): "… gap rows `bias`"}
#: rows that are not a verdict of the product (no 5% bound)
NOT_A_VERDICT = {("association", "signed_rank_significant")}
BOUND = 0.05


def _rate(rate: float) -> str:
    return f"{rate:.2%}" if 0 < rate < 0.01 else f"{rate:.1%}"


def doc_table(table: pd.DataFrame) -> str:
    """The markdown table of docs/verdicts.md: one row per scenario × quantity, one column per size; a cell
    is rate (count/out of), with the number of runs where the point has fewer than the most, in bold with
    "over 5%" where a verdict's rate is over the bound."""
    sizes = sorted(set(table["n"]))
    most = int(table["runs"].max())
    lines = ["| wrong verdict (should be ≤ 5%) | " + " | ".join(f"n = {n}" for n in sizes) + " |",
             "|---|" + "---|" * len(sizes)]
    keys = [k for k in WHAT if k in set(zip(table["scenario"], table["quantity"], strict=True))]
    keys += sorted(set(zip(table["scenario"], table["quantity"], strict=True)) - set(keys))
    for sc, q in keys:
        g = table[(table["scenario"] == sc) & (table["quantity"] == q)]
        cells = []
        for n in sizes:
            row = g[g["n"] == n]
            if not len(row):
                cells.append("")
                continue
            rate, runs = float(row["rate"].iloc[0]), int(row["runs"].iloc[0])
            cell = f"{_rate(rate)} ({int(row['count'].iloc[0])}/{int(row['of'].iloc[0])}" + (
                f"; {runs} runs)" if runs < most else ")")
            cells.append(f"**{cell}, over 5%**" if rate > BOUND and (sc, q) not in NOT_A_VERDICT else cell)
        lines.append(f"| {WHAT.get((sc, q), sc + ' ' + q)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def doc_note(table: pd.DataFrame, command: str) -> str:
    """The text above the table: how it was measured (command, runs, settings, code, machine load), and every
    verdict cell over 5% named."""
    most = int(table["runs"].max())
    fewer = table[table["runs"] < most].drop_duplicates(["scenario", "n"])
    stored = "settings" in table
    parts = [f"Written by `{command}`" + (" from the per-run rows in `benchmarks/calibration_runs.csv`" if stored
                                          else "") + f": **{most} simulated runs per point**"
             + (" except " + ", ".join(f"{s} n = {n} ({r} runs)" for s, n, r in
                                        zip(fewer["scenario"], fewer["n"], fewer["runs"], strict=True))
                if len(fewer) else "") + "."]
    if stored:
        by_settings: dict[str, list[str]] = {}
        for (s, n), g in table.groupby(["scenario", "n"], sort=False):
            by_settings.setdefault(str(g["settings"].iloc[0]), []).append(f"{s}:{n}")
        parts.append("Bootstrap resamples / permutations per run: " + "; ".join(
            f"{x}{' (the product defaults)' if x == '1000/9999' else ''} for {' '.join(v)}"
            for x, v in by_settings.items())
            + ". Fewer than the defaults keep 200 runs affordable; the p-values stay exact or Monte Carlo-valid.")
        by_commit: dict[str, list[str]] = {}
        for (s, n), g in table.groupby(["scenario", "n"], sort=False):
            by_commit.setdefault(str(g["commits"].iloc[0]), []).append(f"{s}:{n}")
        parts.append("Code measured (commit: points): " + "; ".join(f"{c}: {' '.join(v)}" for c, v in
                                                                     by_commit.items()) + ".")
        parts.append(f"On the development container (2 CPU cores shared by the whole team; the 1-minute load "
                     f"average when each run finished was {table['load_min'].min():.1f}–{table['load_max'].max():.1f})."
                     " Each point was measured by `python benchmarks/calibration.py --store --runs 200 --workers 1|2 "
                     "--points SCENARIO:N ...`, which resumes a point from the stored rows and appends each new run.")
    parts.append("Cells: rate (count / out of); the column is the number of cases (frames for the association, "
                 "test rows per task for the gaps). Rows are effect rows that were measured; for `margin` the TSR "
                 "rows.")
    over = table[(table["rate"] > BOUND) & ~pd.Series(list(zip(table["scenario"], table["quantity"], strict=True)),
                                                      index=table.index).isin(NOT_A_VERDICT)]
    parts.append("**Over 5%:** " + "; ".join(f"{WHAT.get((s, q), s + ' ' + q)} at n = {n}: {_rate(r)} ({c}/{o})"
                                             for s, q, n, r, c, o in zip(over["scenario"], over["quantity"], over["n"],
                                                                        over["rate"], over["count"], over["of"],
                                                                        strict=True)) + "."
                 if len(over) else "No verdict's rate is over 5% at any point measured.")
    return " ".join(parts)


def write_doc(table: pd.DataFrame, command: str, path: Path = ROOT / "docs" / "verdicts.md") -> None:
    """Replace the text between the calibration markers of docs/verdicts.md with the note and the table."""
    text = path.read_text(encoding="utf-8")
    start, end = "<!-- calibration:start -->", "<!-- calibration:end -->"
    i, j = text.index(start) + len(start), text.index(end)
    path.write_text(text[:i] + "\n" + doc_note(table, command) + "\n\n" + doc_table(table) + "\n" + text[j:],
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


#: the per-run store: one row per simulated run × quantity, appended as each run finishes, so that a long
#: job that is stopped keeps what it measured and a later ``--store`` call adds runs to the same points. A
#: row covers runs ``run`` .. ``run + runs − 1`` (``runs`` is 1 for a run measured here; more for the totals
#: of an earlier measurement kept without its runs, whose ``load`` is then empty and ``commit`` says so)
STORE = ROOT / "benchmarks" / "calibration_runs.csv"
STORE_COLUMNS = ["scenario", "n", "run", "runs", "quantity", "count", "of", "commit", "load", "n_resamples",
                 "n_permutations"]


def code_version() -> str:
    """The commit the product's code was at (``+`` when src/ had uncommitted changes); ``unknown`` without git."""
    import subprocess

    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=7", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "src"], capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty else "")


def load_store(path: Path) -> pd.DataFrame:
    """The stored per-run rows (none when the file does not exist)."""
    if not path.exists():
        return pd.DataFrame({c: pd.Series(dtype="object") for c in STORE_COLUMNS})
    # keep_default_na=False: the scenario "null" is a name, not a missing value
    rows = pd.read_csv(path, dtype={"scenario": str, "quantity": str, "commit": str}, keep_default_na=False,
                       na_values={"load": [""]})
    if "runs" not in rows:
        rows.insert(3, "runs", 1)
    return rows


def summarise(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per scenario × n × quantity of per-run rows: rate, count, out of, runs, and the commits, the
    machine load range (1-minute load average when each run finished) and the statistics settings behind it."""
    if not len(rows):
        return pd.DataFrame(columns=["scenario", "n", "quantity", "rate", "count", "of", "runs"])
    out = []
    for (name, n, k), g in rows.groupby(["scenario", "n", "quantity"], sort=True):
        a, b = int(g["count"].sum()), int(g["of"].sum())
        row: dict[str, Any] = {"scenario": name, "n": int(n), "quantity": k, "rate": a / b if b else math.nan,
                               "count": a, "of": b, "runs": int(g["runs"].sum()) if "runs" in g else len(g)}
        if "commit" in g:
            row["commits"] = "; ".join(sorted(set(g["commit"].astype(str))))
            row["load_min"], row["load_max"] = float(g["load"].min()), float(g["load"].max())
            row["settings"] = " ".join(sorted({f"{int(x)}/{int(y)}" for x, y in
                                               zip(g["n_resamples"], g["n_permutations"], strict=True)}))
        out.append(row)
    return pd.DataFrame(out)


def _one(task: tuple[str, int, int]) -> tuple[str, int, int, dict[str, tuple[int, int]], float]:
    import os

    name, n, r = task
    got = SCENARIOS[name](n, r)
    return name, n, r, got, os.getloadavg()[0]


def run(names: list[str], runs: int, sizes: tuple[int, ...] = SIZES, workers: int = 1,
        points: list[tuple[str, int]] | None = None, store: Path | None = None, redo: bool = False) -> pd.DataFrame:
    """Every scenario × size (or the given ``points``, in their order), ``runs`` simulated runs each: one row
    per quantity with its rate and counts (:func:`summarise`).

    With ``store`` (a CSV of per-run rows, :data:`STORE_COLUMNS`) the runs already stored for a point are not
    run again (run ``r`` has its own seed, so runs 0..runs−1 are the same whoever measures them), each new
    run is appended as soon as it finishes, and the table is the point's stored runs (all of them); ``redo``
    first drops the stored runs of these points (after a change of the code they measure)."""
    points = points or [(name, n) for name in names for n in SCENARIO_SIZES.get(name, sizes)]
    stored = load_store(store) if store is not None else load_store(Path("/nonexistent"))
    if store is not None and redo and len(stored):
        drop = pd.Series([(s, int(m)) in set(points) for s, m in zip(stored["scenario"], stored["n"], strict=True)],
                         index=stored.index)
        stored = stored[~drop]
        stored.to_csv(store, index=False)
    done = {(s, int(m), int(r) + k) for s, m, r, runs_ in zip(stored["scenario"], stored["n"], stored["run"],
                                                                stored["runs"], strict=True) for k in range(int(runs_))}
    tasks = [(name, n, r) for name, n in points for r in range(runs) if (name, n, r) not in done]
    commit = code_version() if store is not None else ""
    new: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    left = {(name, n): sum(1 for t in tasks if t[:2] == (name, n)) for name, n, _ in tasks}
    if store is not None and not store.exists():
        store.parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame(columns=STORE_COLUMNS).to_csv(store, index=False)

    def add(name: str, n: int, r: int, got: dict[str, tuple[int, int]], load: float) -> None:
        rows = [{"scenario": name, "n": n, "run": r, "runs": 1, "quantity": k, "count": a, "of": b, "commit": commit,
                 "load": round(load, 1), "n_resamples": stats_of(name)["n_resamples"],
                 "n_permutations": stats_of(name)["n_permutations"]} for k, (a, b) in got.items()]
        new.extend(rows)
        if store is not None:  # appended at once: a stopped job keeps every finished run
            pd.DataFrame(rows, columns=STORE_COLUMNS).to_csv(store, mode="a", header=False, index=False)
        left[(name, n)] -= 1
        if not left[(name, n)]:  # a point is complete: print it at once
            point = summarise(pd.DataFrame([x for x in new if (x["scenario"], x["n"]) == (name, n)]))
            print(f"{name} n={n}: " + ", ".join(f"{k} {a}/{b} = {a / max(b, 1):.1%}" for k, a, b in
                                                zip(point["quantity"], point["count"], point["of"], strict=True))
                  + f" ({time.perf_counter() - t0:.0f} s)", flush=True)

    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(workers) as pool:
            for got in pool.imap_unordered(_one, tasks, chunksize=1):
                add(*got)
    else:
        for t in tasks:
            add(*_one(t))
    print(f"{len(tasks)} simulated runs in {time.perf_counter() - t0:.0f} s", flush=True)
    if store is None:
        return summarise(pd.DataFrame(new, columns=STORE_COLUMNS)).drop(
            columns=["commits", "load_min", "load_max", "settings"], errors="ignore")
    rows = load_store(store)
    keep = pd.Series([(s, int(m)) in set(points) for s, m in zip(rows["scenario"], rows["n"], strict=True)],
                     index=rows.index, dtype=bool)
    return summarise(rows[keep])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="20 runs per point")
    ap.add_argument("--scenario", nargs="*", default=list(SCENARIOS))
    ap.add_argument("--sizes", nargs="*", type=int, default=list(SIZES))
    ap.add_argument("--workers", type=int, default=1, help="processes")
    ap.add_argument("--points", nargs="*", default=None, metavar="SCENARIO:N",
                    help="run these points in this order instead of every scenario × size")
    ap.add_argument("--store", nargs="?", type=Path, const=STORE, default=None, metavar="CSV",
                    help=f"resume from and append each run to this per-run file (default {STORE.relative_to(ROOT)}):"
                         " only the runs a point lacks up to --runs are run")
    ap.add_argument("--redo", action="store_true", help="with --store: drop these points' stored runs first")
    ap.add_argument("--out", type=Path, help="write the table as CSV")
    ap.add_argument("--write-doc", action="store_true",
                    help="write the table into docs/verdicts.md: with --store, every point of the store")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    points = [(p.split(":")[0], int(p.split(":")[1])) for p in args.points] if args.points else None
    runs = 20 if args.quick else args.runs
    table = run(args.scenario, runs, tuple(args.sizes), args.workers, points, args.store, args.redo)
    print(table.pivot_table(index=["scenario", "quantity"], columns="n", values="rate").to_string(
        float_format=lambda x: f"{x:.1%}"))
    if args.out:
        table.to_csv(args.out, index=False)
    if args.write_doc:
        if args.store is not None:
            table = summarise(load_store(args.store))
        write_doc(table, "python benchmarks/calibration.py " + " ".join(sys.argv[1:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
