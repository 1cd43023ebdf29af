"""Exact sign-flip p-values for any number of cases, Monte Carlo bounds, ties at 0, smallest_p.

References are independent: scipy's binomial test, itertools enumeration of sign patterns, hand
counts of the patterns of small examples.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from clinaudit.stats import PairedFrame, sign_flip_test, smallest_p
from clinaudit.stats.permutation import lattice, sign_flip_p, studentised_permutation_test
from clinaudit.stats.resolution import SIGN_FLIP_TEST, SUBGROUP_TEST


def _enumerated(d, alternative):
    d = np.asarray(d, float)
    null = np.array([np.dot(s, d) for s in itertools.product((1, -1), repeat=len(d))])
    obs = d.sum()
    if alternative == "greater":
        return np.mean(null >= obs - 1e-9)
    if alternative == "less":
        return np.mean(null <= obs + 1e-9)
    return np.mean(np.abs(null) >= abs(obs) - 1e-9)


def test_hundred_cases_all_flipping_gives_the_exact_value_not_a_monte_carlo_floor():
    stat, p, note = sign_flip_test(np.ones(100), "greater")
    assert p == pytest.approx(2.0 ** -100, rel=1e-12)
    assert note.startswith("exact")
    assert sign_flip_test(np.ones(100)).p == pytest.approx(2.0 ** -99, rel=1e-12)
    assert sign_flip_test(np.ones(100)).method == "exact"


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_plus_minus_one_differences_are_the_binomial_sign_test(alternative):
    d = np.array([1.0] * 31 + [-1.0] * 14 + [0.0] * 9)  # 54 cases: far beyond enumeration
    ref = sps.binomtest(31, 45, alternative=alternative).pvalue
    assert sign_flip_test(d, alternative).p == pytest.approx(ref, rel=1e-10)


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_lattice_convolution_equals_enumeration(alternative):
    rng = np.random.default_rng(4)
    # case-level differences of 3 arm pairs vs 3 half-integer control pairs: multiples of 1/6
    d = rng.integers(-6, 7, size=16) / 6
    got = sign_flip_test(d, alternative, n_permutations=99)  # 2^16 > 99: the old code drew 99 flips
    assert got.method == "exact"
    assert got.p == pytest.approx(_enumerated(d, alternative), rel=1e-10)
    assert lattice(d)[1] in (1, 2, 3, 6)


def test_sign_flip_p_on_integers():
    # v = (2, 1): W (positive part) ∈ {0, 1, 2, 3} each 1/4; observed W = 3 → P(T ≥ t) = 1/4
    assert sign_flip_p([2, 1], "greater") == pytest.approx(0.25)
    assert sign_flip_p([2, -1], "greater") == pytest.approx(0.5)  # W_obs = 2: W ∈ {2, 3}
    assert sign_flip_p([0, 0]) == 1.0


def test_real_valued_differences_beyond_enumeration_give_a_bound_when_no_draw_is_as_extreme():
    d = np.sqrt(np.arange(2, 42))  # 40 irrational positive differences: no lattice
    res = sign_flip_test(d, "greater", n_permutations=999, seed=3)
    assert res.method == "bound" and res.n_permutations == 999
    assert res.p == pytest.approx(1 / 1000)
    assert "p < 1/(999 + 1)" in res.note
    # a Monte Carlo estimate when some draws are as extreme
    rng = np.random.default_rng(1)
    mixed = rng.normal(0.05, 1, 40) * np.sqrt(2)
    est = sign_flip_test(mixed, "greater", n_permutations=999, seed=3)
    assert est.method == "monte carlo" and 0.01 < est.p < 1


@pytest.mark.parametrize("d", [[0.1, 0.2, -0.3], [0.1 * math.sqrt(2), 0.2 * math.sqrt(3), -(0.1 * math.sqrt(2) + 0.2 * math.sqrt(3))]])
def test_ties_at_an_observed_statistic_of_zero_count_on_an_absolute_tolerance(d):
    # the 8 patterns of (a, b, −(a+b)): sums 0, 2(a+b), −2b... by hand: + + + → 0, − − − → 0, and of the
    # remaining six exactly three are positive; P(T ≥ 0) = (2 + 3) / 8
    assert abs(np.mean(d)) < 1e-15
    assert sign_flip_test(d, "greater").p == pytest.approx(5 / 8)
    assert sign_flip_test(d, "less").p == pytest.approx(5 / 8)
    assert sign_flip_test(d).p == 1.0


def test_ties_at_zero_in_the_issue_setting():
    # 8 cases whose differences cancel: exact one-sided p = 141/256 ≈ 0.55 (scipy's relative tolerance: 0.457)
    d = [-0.3, 0.1, 0.4, 0.2, -0.4, -0.1, 0.3, -0.2]
    ref = _enumerated(d, "greater")
    assert ref == pytest.approx(141 / 256)
    assert sign_flip_test(d, "greater").p == pytest.approx(ref)


def test_compare_reports_exact_p_and_method_for_many_cases():
    rows = [dict(case_id=c, arm="typo", score=1.0) for c in range(30)]
    rows += [dict(case_id=c, arm="noise_floor", score=0.0) for c in range(30)]
    row = PairedFrame(pd.DataFrame(rows), control="noise_floor").compare(alternative="greater", n_resamples=20).iloc[0]
    assert row["p"] == pytest.approx(2.0 ** -30, rel=1e-12)
    assert row["p_method"] == "exact" and row["n_permutations"] == 0


def test_exact_route_keeps_the_shared_generator_and_so_the_cis_unchanged():
    """A cell whose p became exact still draws what scipy's Monte Carlo drew: later cells' CIs are as before."""
    rng = np.random.default_rng(0)
    rows = []
    for arm in ("a_first", "b_second"):
        for c in range(20):
            rows += [dict(case_id=c, arm=arm, score=float(rng.random() < 0.6)) for _ in range(3)]
            rows += [dict(case_id=c, arm="noise_floor", score=float(rng.random() < 0.2)) for _ in range(3)]
    t = PairedFrame(pd.DataFrame(rows), control="noise_floor").compare(n_resamples=200, seed=5).set_index("group")
    # reference: the bootstrap of the second cell after scipy's 9999 sign flips of the first
    g = np.random.default_rng(5)
    from clinaudit.stats import bootstrap_indices
    bootstrap_indices(20, 200, seed=g)
    d = np.ones(20)  # any 20 values: scipy draws the same patterns whatever the data
    sps.permutation_test((d,), lambda x, axis: x.mean(axis), permutation_type="samples", vectorized=True,
                         n_resamples=9999, rng=g)
    idx = bootstrap_indices(20, 200, seed=g)
    df = pd.DataFrame(rows)
    df = df[df.arm != "a_first"]
    case = df.case_id.to_numpy()
    arm = df[df.arm == "b_second"].groupby("case_id").score.agg(["sum", "size"])
    ctl = df[df.arm == "noise_floor"].groupby("case_id").score.agg(["sum", "size"])
    cases = list(pd.unique(case))
    ex = (arm.loc[cases, "sum"].to_numpy()[idx].sum(1) / arm.loc[cases, "size"].to_numpy()[idx].sum(1)
          - ctl.loc[cases, "sum"].to_numpy()[idx].sum(1) / ctl.loc[cases, "size"].to_numpy()[idx].sum(1))
    lo, hi = np.percentile(ex, [2.5, 97.5])
    assert t.loc["b_second", "ci_low"] == pytest.approx(lo, abs=1e-12)
    assert t.loc["b_second", "ci_high"] == pytest.approx(hi, abs=1e-12)


def test_smallest_p_agrees_with_what_the_test_reaches():
    for n in (1, 5, 14, 40, 100):
        d = np.ones(n)
        assert sign_flip_test(d).p == pytest.approx(smallest_p(SIGN_FLIP_TEST, n_cases=n), rel=1e-12)
        assert sign_flip_test(d, "greater").p == pytest.approx(smallest_p(SIGN_FLIP_TEST, n_cases=n, alternative="greater"),
                                                             rel=1e-12)
    # a Monte Carlo test cannot go below 1/(N + 1)
    res = sign_flip_test(np.sqrt(np.arange(2, 42)), "greater", n_permutations=999)
    assert res.p == pytest.approx(smallest_p(SIGN_FLIP_TEST, n_cases=40, alternative="greater",
                                             p_method=res.method, n_permutations=res.n_permutations))
    # subgroup test, exact: the most extreme relabelling; two-sided its mirror too only when n_a = n_b
    a, b = np.array([5.0, 6.0, 7.0]), np.array([0.0, 1.0, 0.5, 0.2])
    assert studentised_permutation_test(a, b, "greater").p == pytest.approx(smallest_p(SUBGROUP_TEST, n_a=3, n_b=4,
                                                                                       alternative="greater"))
    assert studentised_permutation_test(a, b).p == pytest.approx(smallest_p(SUBGROUP_TEST, n_a=3, n_b=4))
    a2, b2 = np.array([5.0, 6.0, 7.0]), np.array([0.0, 1.0, 0.5])
    assert studentised_permutation_test(a2, b2).p == pytest.approx(smallest_p(SUBGROUP_TEST, n_a=3, n_b=3))
    assert smallest_p(SUBGROUP_TEST, n_a=3, n_b=3) == pytest.approx(2 / 20)


def test_a_monte_carlo_bound_is_printed_as_a_bound():
    from clinaudit.report.findings import format_p

    assert format_p(1 / 1000, bound=True) == "< 0.001"
    assert format_p(1 / 100, bound=True) == "< 0.01"
    assert format_p(1 / 100) == "= 0.01"
