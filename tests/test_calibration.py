"""The calibration of the verdicts (issue 39) by simulation through the product's own path, with fewer runs
than benchmarks/calibration.py (which writes the table of docs/verdicts.md): each rate of a wrong verdict is
asserted not to exceed its 5% bound (the exact one-sided binomial test of "rate ≤ 5%" does not reject at 1%:
with 30 runs, at most 5 failures). The complete null and the margin at 20 cases, compare and the gate at 20
cases, the association with frame-level noise (30 frames) and classifier gaps with 4 groups (500 rows)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scipy.stats import binom
from script_modules import load_script

ROOT = Path(__file__).resolve().parents[1]


def _calibration():
    return load_script("benchmarks/calibration.py", "clinaudit_calibration")


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


def test_the_store_resumes_a_point_appends_each_run_and_the_doc_names_cells_over_5_percent(tmp_path, monkeypatch):
    """--store: the runs a point already has are not run again (runs 0..2 stored, asking 5 runs runs 3 and 4
    only), each run is appended with its commit, load and settings, the table sums every stored run
    (hand-counted), --redo drops a point's stored runs; the doc's table names a verdict over 5% in bold, a
    point with fewer runs says how many, and a row that is not a verdict is never flagged."""
    cal = _calibration()
    calls: list[int] = []

    def fake(n: int, r: int) -> dict[str, tuple[int, int]]:
        calls.append(r)
        return {"bias_found": (r % 2, 1), "bias_rows": (r, 10)}

    monkeypatch.setitem(cal.SCENARIOS, "null", fake)
    monkeypatch.setitem(cal.SCENARIOS, "association", lambda n, r: {"signed_rank_significant": (1, 1)})
    store = tmp_path / "runs.csv"
    cal.run([], runs=3, points=[("null", 5)], store=store)
    assert sorted(calls) == [0, 1, 2]
    table = cal.run([], runs=5, points=[("null", 5)], store=store).set_index("quantity")
    assert sorted(calls) == [0, 1, 2, 3, 4]  # runs 3 and 4 only
    assert (table.loc["bias_found", "count"], table.loc["bias_found", "of"]) == (2, 5)  # runs 1 and 3
    assert (table.loc["bias_rows", "count"], table.loc["bias_rows", "of"]) == (0 + 1 + 2 + 3 + 4, 50)
    assert table.loc["bias_found", "runs"] == 5 and table.loc["bias_found", "settings"] == "200/999"
    rows = cal.load_store(store)
    assert len(rows) == 10 and set(rows.columns) == set(cal.STORE_COLUMNS) and (rows["load"] >= 0).all()
    calls.clear()
    cal.run([], runs=2, points=[("null", 5)], store=store, redo=True)
    assert sorted(calls) == [0, 1] and len(cal.load_store(store)) == 4
    cal.run([], runs=3, points=[("null", 5), ("association", 30)], store=store)
    table = cal.summarise(cal.load_store(store))
    text = cal.doc_table(table)
    assert "**33.3% (1/3), over 5%**" in text  # null bias_found: run 1 of runs 0..2
    assert "100.0% (3/3)" in text and "**100.0%" not in text  # the sentence-level row is not a verdict
    doc = tmp_path / "verdicts.md"
    doc.write_text("a\n<!-- calibration:start -->\nold\n<!-- calibration:end -->\nb\n", encoding="utf-8")
    cal.write_doc(table, "python benchmarks/calibration.py --store --write-doc", doc)
    written = doc.read_text(encoding="utf-8")
    assert "old" not in written and written.startswith("a\n") and written.endswith("<!-- calibration:end -->\nb\n")
    assert "**Over 5%:** complete null, treatment shift + gender gaps: headline \"bias found\" at n = 5: 33.3% (1/3)" \
        in written
    # without a store (the slow test's way): the runs asked for, nothing written
    calls.clear()
    table = cal.run([], runs=2, points=[("null", 5)]).set_index("quantity")
    assert sorted(calls) == [0, 1] and (table.loc["bias_rows", "count"], table.loc["bias_rows", "of"]) == (1, 20)
    assert "settings" not in table and table.loc["bias_rows", "runs"] == 2
