"""benchmarks/verdict_mde.py (issue 48: the simulated minimum detectable effect of a primary row): its oracles, its
per-case data and its MDE estimators, on small hand-made inputs (the simulation itself is the benchmark's)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm
from script_modules import load_script

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    return load_script("benchmarks/verdict_mde.py", "clinaudit_verdict_mde")


def test_the_oracles_are_paired_t_tests_two_sided_and_one_sided():
    vm = _bench()
    # 30 per-case differences with t = 2.0 exactly: two-sided p = 0.055 (not significant), one-sided 0.027
    z = np.linspace(-1.0, 1.0, 30)
    z = (z - z.mean()) / z.std(ddof=1)
    d = 0.1 + z * (0.1 / 2.0) * math.sqrt(30)  # mean 0.1, se 0.05
    got = vm.oracles(d, np.zeros(30))
    assert got == {"t2": 0, "t1": 1, "t1_holm": 0}
    assert vm.oracles(-d, np.zeros(30)) == {"t2": 0, "t1": 0, "t1_holm": 0}


def test_the_per_case_data_are_the_rows_own_differences():
    vm = _bench()
    import calibration as cal
    import verdict_power as vp

    lab = vp.labels(np.random.default_rng(3), 30, {vm.CELL: 0.08})
    a, b = vm.per_case(lab)
    res = cal.treatment_verdicts(lab, seed=0)
    row = res[(res["metric"] == "TSR") & (res["group"] == "uppercase") & (res["question"] == "MANAGE")].iloc[0]
    assert len(a) == 30 and (a - b).mean() == pytest.approx(row["value"])
    assert (a - b).std(ddof=1) / math.sqrt(30) == pytest.approx(row["eq_se"])


def test_the_mde_estimators():
    vm = _bench()
    assert vm.interpolated(np.array([3, 4, 5]), np.array([0.5, 0.7, 0.9])) == pytest.approx(4.5)
    assert math.isnan(vm.interpolated(np.array([3, 4]), np.array([0.1, 0.2])))
    # outcomes drawn from a known probit curve P(y) = Phi(x - 6): 80% at 6 + 0.8416
    rng = np.random.default_rng(0)
    x = np.repeat(np.arange(3.0, 10.0), 600)
    y = (rng.random(x.size) < norm.cdf(x - 6)).astype(float)
    assert vm.probit_mde(x, y) == pytest.approx(6 + norm.ppf(0.8), abs=0.1)
    assert math.isnan(vm.probit_mde(x, np.ones_like(x)))
