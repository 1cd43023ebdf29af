"""The calibration of the verdicts (issue 39) by simulation through the product's own path, with fewer runs
than benchmarks/calibration.py (which writes the table of docs/verdicts.md): each rate of a wrong verdict is
asserted not to exceed its 5% bound (the exact one-sided binomial test of "rate ≤ 5%" does not reject at 1%:
with 30 runs, at most 5 failures). The complete null and the margin at 20 cases, compare and the gate at 20
cases, the association with frame-level noise (30 frames) and classifier gaps with 4 groups (500 rows)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from scipy.stats import binom

ROOT = Path(__file__).resolve().parents[1]


def _calibration():
    spec = importlib.util.spec_from_file_location("clinaudit_calibration", ROOT / "benchmarks" / "calibration.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _most(of: int, bound: float = 0.05, level: float = 0.01) -> int:
    """The most wrong verdicts among ``of`` that a true rate of ``bound`` gives with probability ≥ 1 − level."""
    return int(binom.ppf(1 - level, of, bound))


@pytest.mark.slow
def test_calibration_of_the_verdicts_by_simulation():
    cal = _calibration()
    table = cal.run(["null", "margin"], runs=30, sizes=(20,)).set_index(["scenario", "quantity"])
    for key in [("null", "bias_found"), ("null", "gate_fail"), ("margin", "within_margin_rows")]:
        row = table.loc[key]
        assert row["count"] <= _most(int(row["of"])), (key, row.to_dict())
    table = cal.run(["compare_margin", "gate_inside"], runs=20, sizes=(20,)).set_index(["scenario", "quantity"])
    for key in [("compare_margin", "within_margin_rows"), ("gate_inside", "gate_fail")]:
        row = table.loc[key]
        assert row["count"] <= _most(int(row["of"])), (key, row.to_dict())
    table = cal.run(["association", "gaps"], runs=30).set_index(["scenario", "quantity"])
    for key in [("association", "bias_found"), ("gaps", "bias_found")]:
        row = table.loc[key]
        assert row["count"] <= _most(int(row["of"])), (key, row.to_dict())
    # what the sentence-level test would have said: far above 5% (it treats the sentences of a frame as
    # independent), which is why its rows are never bias
    assert table.loc[("association", "signed_rank_significant"), "rate"] > 0.1


@pytest.mark.slow
def test_calibration_module_runs_one_simulated_run_of_each_scenario():
    """The benchmark's scenarios run (one run each, small sizes) and return counts out of their totals."""
    cal = _calibration()
    for name in cal.SCENARIOS:
        got = cal.SCENARIOS[name](12 if name != "association" else 6, 0)
        assert got and all(0 <= a <= b for a, b in got.values()), (name, got)


def test_the_simulation_path_gives_the_results_of_analyze_labels():
    """results_table (what the benchmark runs) equals analyze_labels' results on the same labels and seed."""
    import numpy as np
    import pandas as pd

    from clinaudit.families.treatment_shift.analysis import analyze_labels, results_table

    cal = _calibration()
    labels = cal.treatment_labels(np.random.default_rng(5), 10)
    a = analyze_labels(labels, n_resamples=50, n_permutations=99, seed=3).results
    b = results_table(labels, n_resamples=50, n_permutations=99, seed=3)
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))
