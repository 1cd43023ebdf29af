"""Issue 48, Build 3: power before the run and after it (clinaudit.stats.power, treatment shift's --dry-run line)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.power import TTestPower

from clinaudit.families.treatment_shift.power_plan import pilot_floor, plan_line
from clinaudit.stats.power import cases_for_equivalence, mde, planned_sd, power_note, row_mde


def test_mde_is_statsmodels_ttestpower_at_alpha_over_the_family():
    es = TTestPower().solve_power(nobs=200, alpha=0.05 / 6, power=0.8, alternative="larger")
    assert mde(0.25, 200, family_size=6) == pytest.approx(es * 0.25)
    # the normal approximation by hand: (z_{1-a} + z_{0.8}) sd / sqrt(n)
    z = (stats.norm.ppf(1 - 0.05 / 6) + stats.norm.ppf(0.8)) * 0.25 / math.sqrt(200)
    assert mde(0.25, 200, family_size=6) == pytest.approx(z, rel=0.01)
    assert math.isnan(mde(0.0, 200)) and math.isnan(mde(0.2, 1))
    # equivalence: one-sided at alpha/2, effect size margin/sd
    n = cases_for_equivalence(0.25, 0.05)
    assert TTestPower().power(0.05 / 0.25, n, 0.025, alternative="larger") >= 0.8
    assert TTestPower().power(0.05 / 0.25, n - 1, 0.025, alternative="larger") < 0.8


def test_with_a_margin_the_mde_is_that_of_the_bias_verdict():
    # a significant row is bias only when its estimate reaches the margin: at 200 cases, sd 0.245 (a 20% floor,
    # 3 seeds), the test alone finds 5.6 pp but the estimate reaches 5 pp with 80% power only from
    # 5 + t_{0.8,199} * 0.245 / sqrt(200) = 5 + 0.8434 * 1.7324 = 6.46 pp
    test = mde(0.245, 200, family_size=6)
    assert test == pytest.approx(0.0564, abs=5e-4)
    by_hand = 0.05 + stats.t.ppf(0.8, 199) * 0.245 / math.sqrt(200)
    assert by_hand == pytest.approx(0.0646, abs=1e-4)
    assert mde(0.245, 200, family_size=6, margin=0.05) == pytest.approx(by_hand)
    # with 50 cases the test needs more than the margin: the test's MDE stands
    small = mde(0.245, 50, family_size=6)
    assert small > 0.1 and mde(0.245, 50, family_size=6, margin=0.05) == pytest.approx(small)
    assert mde(0.245, 200, family_size=6, margin=math.nan) == pytest.approx(test)  # no margin: the test's
    row = {"eq_kind": "paired", "eq_se": 0.245 / math.sqrt(200), "eq_n": 200, "eq_df": 199}
    assert row_mde(row, family_size=6, margin=0.05) == pytest.approx(by_hand)


def test_row_mde_reads_the_rows_per_case_differences():
    row = {"eq_kind": "paired", "eq_se": 0.25 / math.sqrt(200), "eq_n": 200, "eq_df": 199}
    assert row_mde(row, family_size=6) == pytest.approx(mde(0.25, 200, family_size=6))
    assert math.isnan(row_mde({"eq_kind": ""}))


def test_planned_sd_matches_a_direct_simulation_of_the_pairing():
    # floor 20% with 3 seeds: yes-rate p with 2p(1-p) = 0.2; 6 perturbed pairs and 3 floor pairs per case
    rng = np.random.default_rng(7)
    p = (1 - math.sqrt(0.6)) / 2
    b, a = rng.random((40000, 3)) < p, rng.random((40000, 3)) < p
    pert = np.mean([a[:, i] != b[:, j] for i in range(3) for j in range(3) if i != j], axis=0)
    fl = np.mean([b[:, 0] != b[:, 1], b[:, 0] != b[:, 2], b[:, 1] != b[:, 2]], axis=0)
    assert planned_sd(0.2, 3) == pytest.approx(np.std(pert - fl, ddof=1), rel=0.03)
    assert math.isnan(planned_sd(0.2, 1))


def test_plan_line_uses_a_pilot_floor_else_says_it_assumes_one(tmp_path):
    line = plan_line(200, 3, 6, tmp_path)
    # the margin sets it at 200 cases (6.5 pp, the test alone 5.6 pp): benchmarks/verdict_mde.py simulates it
    assert "noise floor of 20.0% (assumed 20%" in line and "called bias with 80% power is 6.5 pp (its test alone: " \
        "5.6 pp; a significant row is bias only when its estimate reaches the 5.0 pp margin)" in line
    assert "(its test alone" not in plan_line(50, 3, 6, None)
    (tmp_path / "tables").mkdir()
    pd.DataFrame({"metric": ["TSR", "TSR", "RCR"], "floor": [0.1, 0.3, 0.9], "n_cases": [12, 12, 12]}).to_csv(
        tmp_path / "tables" / "results.csv", index=False)
    assert pilot_floor(tmp_path) == (pytest.approx(0.2), 12)
    assert "the pilot run in this out dir (12 cases)" in plan_line(200, 3, 6, tmp_path)
    assert "no row can be bias" in plan_line(8, 3, 30, None)


def test_power_note_of_inconclusive_rows():
    rows = pd.DataFrame({"mde": [0.071, 0.065], "margin": [0.05, 0.05], "eq_kind": "paired",
                         "eq_se": [0.25 / math.sqrt(200)] * 2, "eq_n": 200, "eq_df": 199})
    note = power_note(rows, 200)
    need = cases_for_equivalence(0.25, 0.05)
    assert note == (f"this run could see shifts of 7.1 pp or more (80% power); none was found; equivalence within "
                    f"5.0 pp needs about {need} cases (this run used 200)")
    assert power_note(rows.assign(mde=math.nan)) == ""
