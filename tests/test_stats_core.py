"""Tests of clinaudit.stats: tests, corrections, effect sizes, bootstrap CIs (hand-computed values)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clinaudit.stats import (
    StatResult,
    anova_oneway,
    bootstrap_ci,
    bootstrap_indices,
    bootstrap_p_value,
    bootstrap_resamples,
    cohens_d,
    cohens_kappa,
    correct_pvalues,
    paired_binary_test,
    percent_agreement,
    wilcoxon_test,
)

# ------------------------------------------------------------------ McNemar


def test_mcnemar_exact_on_few_discordant_pairs():
    # 5 pairs 1->0, 1 pair 0->1, 4 concordant: exact binomial, n=6, k=1
    a = [1] * 5 + [0] + [1, 1, 0, 0]
    b = [0] * 5 + [1] + [1, 1, 0, 0]
    r = paired_binary_test(a, b)
    assert r.test == "mcnemar_exact"
    assert r.n == 10
    assert r.statistic == 1.0
    assert r.p == pytest.approx(2 * (1 + 6) / 64)  # 0.21875


def test_mcnemar_chi2_on_many_discordant_pairs():
    # 20 pairs 1->0, 10 pairs 0->1 (30 >= 25): chi2 = (|20-10|-1)^2/30 = 2.7
    a = [1] * 20 + [0] * 10 + [1] * 5
    b = [0] * 20 + [1] * 10 + [1] * 5
    r = paired_binary_test(a, b)
    assert r.test == "mcnemar_chi2"
    assert r.statistic == pytest.approx(2.7)
    assert r.p == pytest.approx(math.erfc(math.sqrt(2.7 / 2)))  # chi2(1) survival
    assert r.n == 35


def test_mcnemar_identical_vectors_p_is_one():
    r = paired_binary_test([1, 0, 1], [1, 0, 1])
    assert r.p == 1.0 and r.n == 3 and "no discordant" in r.note


def test_mcnemar_drops_missing_pairs_and_rejects_non_binary():
    r = paired_binary_test([1, None, 0], [0, 1, float("nan")])
    assert r.n == 1
    assert r.p == 1.0  # one discordant pair: exact binomial p = 1
    with pytest.raises(ValueError):
        paired_binary_test([2, 0], [1, 0])


def test_mcnemar_empty_is_nan():
    r = paired_binary_test([], [])
    assert r.n == 0 and math.isnan(r.p)


# ------------------------------------------------------------------ Wilcoxon


def test_wilcoxon_hand_computed_exact():
    # d = [1, 2, 3, -4, 5]: W- = 4; exact two-sided p = 2 * #{subsets of 1..5 with sum <= 4} / 32 = 14/32
    x = [2, 4, 6, 1, 10]
    y = [1, 2, 3, 5, 5]
    r = wilcoxon_test(x, y)
    assert r.test == "wilcoxon"
    assert r.statistic == 4.0
    assert r.p == pytest.approx(14 / 32)
    assert r.n == 5


def test_wilcoxon_all_zero_differences_is_p_one_with_note():
    r = wilcoxon_test([1, 2, 3], [1, 2, 3])
    assert r.p == 1.0 and math.isnan(r.statistic) and r.n == 3
    assert "zero" in r.note


def test_wilcoxon_n1_and_missing():
    r = wilcoxon_test([2.0, np.nan], [1.0, 3.0])
    assert r.n == 1 and r.p == 1.0
    assert math.isnan(wilcoxon_test([], []).p)


# ------------------------------------------------------------------ ANOVA


def test_anova_hand_computed():
    # means 2 and 5; SSB = 13.5 (df 1), SSW = 4 (df 4) -> F = 13.5
    r = anova_oneway([1, 2, 3], [4, 5, 6])
    assert r.statistic == pytest.approx(13.5)
    # two groups: ANOVA p equals the pooled two-sample t-test p
    from scipy.stats import ttest_ind

    assert r.p == pytest.approx(ttest_ind([1, 2, 3], [4, 5, 6]).pvalue)
    assert r.n == 6


@pytest.mark.parametrize(
    "groups, reason",
    [
        (([1, 2, 3],), "fewer than two"),
        (([1], [2]), "degrees of freedom"),
        (([1, 1], [2, 2]), "no variance"),
        (([1, 2], []), "fewer than two"),
    ],
)
def test_anova_degenerate_is_nan_with_reason(groups, reason):
    r = anova_oneway(*groups)
    assert math.isnan(r.p) and reason in r.note


# ------------------------------------------------------------------ corrections


def test_benjamini_hochberg_hand_computed_nan_safe():
    p = [0.01, 0.04, 0.03, np.nan, 0.20]
    adj = correct_pvalues(p, "fdr_bh")  # m = 4 non-missing tests
    assert adj[0] == pytest.approx(0.04)
    assert adj[1] == pytest.approx(0.16 / 3)
    assert adj[2] == pytest.approx(0.16 / 3)
    assert math.isnan(adj[3])
    assert adj[4] == pytest.approx(0.20)


def test_bonferroni_hand_computed_capped():
    adj = correct_pvalues([0.01, 0.04, np.nan, 0.3], "bonferroni")
    np.testing.assert_allclose(adj[[0, 1, 3]], [0.03, 0.12, 0.9])
    assert math.isnan(adj[2])
    assert correct_pvalues([0.5, 0.6], "bonferroni").tolist() == [1.0, 1.0]


def test_correct_all_nan():
    assert np.isnan(correct_pvalues([np.nan, np.nan])).all()


# ------------------------------------------------------------------ effect sizes


def test_cohens_d_pooled_hand_computed():
    assert cohens_d([1, 2, 3], [3, 4, 5]) == pytest.approx(-2.0)
    # unequal sizes: a=[1,3] (var 2), b=[2,4,6] (var 4): pooled = (1*2+2*4)/3 = 10/3
    assert cohens_d([1, 3], [2, 4, 6]) == pytest.approx((2 - 4) / math.sqrt(10 / 3))


def test_cohens_d_agrees_with_statsmodels_smd_without_hedges_factor():
    from statsmodels.stats.meta_analysis import effectsize_smd

    a = np.array([0.2, 0.5, 0.9, 1.4, 0.3])
    b = np.array([0.1, 0.4, 0.2, 0.6])
    g, _ = effectsize_smd(a.mean(), a.std(ddof=1), a.size, b.mean(), b.std(ddof=1), b.size)
    n = a.size + b.size
    assert cohens_d(a, b) == pytest.approx(g / (1 - 3 / (4 * n - 9)))


def test_cohens_d_paired_dz():
    # d = [1, 2, 4]: mean 7/3, sd sqrt(7/3) -> d_z = sqrt(7/3)
    assert cohens_d([1, 2, 4], [0, 0, 0], paired=True) == pytest.approx(math.sqrt(7 / 3))


def test_cohens_d_undefined_is_nan():
    assert math.isnan(cohens_d([1], [2, 3]))  # n = 1
    assert math.isnan(cohens_d([1, 1], [1, 1]))  # zero spread
    assert math.isnan(cohens_d([1, 2, 3], [3, 4, 5], paired=True))  # constant differences


def test_cohens_kappa_hand_computed():
    # po = 3/4, pe = .5*.25 + .5*.75 = .5 -> kappa = .5
    r = cohens_kappa([1, 1, 0, 0], [1, 0, 0, 0])
    assert isinstance(r, StatResult)
    assert r.statistic == pytest.approx(0.5) and r.n == 4


def test_cohens_kappa_all_identical_constant_labels_is_undefined():
    r = cohens_kappa(["YES"] * 5, ["YES"] * 5)
    assert math.isnan(r.statistic) and "undefined" in r.note
    assert percent_agreement(["YES"] * 5, ["YES"] * 5) == 100.0


def test_cohens_kappa_opposite_constants_is_zero():
    # pe = 1*0 + 0*1 = 0, po = 0 -> kappa = 0
    assert cohens_kappa([0, 0, 0], [1, 1, 1]).statistic == pytest.approx(0.0)


def test_percent_agreement_drops_missing():
    assert percent_agreement(["a", "b", None, "a"], ["a", "a", "b", "a"]) == pytest.approx(200 / 3)
    assert math.isnan(percent_agreement([], []))
    with pytest.raises(ValueError):
        percent_agreement([1], [1, 2])


# ------------------------------------------------------------------ bootstrap


def _mean(x: np.ndarray) -> np.ndarray:
    return x.mean(axis=1)


def test_bootstrap_ci_reproducible_with_seed():
    x = np.arange(20.0)
    assert bootstrap_ci(_mean, x, seed=3) == bootstrap_ci(_mean, x, seed=3)
    assert bootstrap_ci(_mean, x, seed=3) != bootstrap_ci(_mean, x, seed=4)


def test_vectorised_ci_equals_straightforward_loop():
    x = np.array([0.3, 1.2, 2.5, 0.7, 4.1, 3.3, 0.0, 2.2, 1.9])
    y = np.array([1, 0, 1, 1, 0, 0, 1, 1, 0])
    # the straightforward version: one resample at a time, 1-D statistic
    rng = np.random.default_rng(7)
    vals = []
    for _ in range(500):
        i = rng.integers(0, len(x), size=len(x))
        vals.append(np.mean(x[i] * y[i]) - np.mean(x[i]))
    loop = (np.percentile(vals, 2.5), np.percentile(vals, 97.5))
    vec = bootstrap_ci(lambda a, b: (a * b).mean(1) - a.mean(1), x, y, n_resamples=500, seed=7)
    assert vec == pytest.approx(loop, abs=1e-12)


def test_stratified_bootstrap_preserves_stratum_sizes():
    strata = np.array(["pos"] * 3 + ["neg"] * 7)
    idx = bootstrap_indices(10, 200, strata=strata, seed=1)
    assert idx.shape == (200, 10)
    assert (strata[idx] == "pos").sum(axis=1).tolist() == [3] * 200
    # every stratum's columns draw only from that stratum
    assert set(np.unique(idx[:, :3])) <= {0, 1, 2}


def test_stratified_bootstrap_ci_of_a_fixed_share_is_degenerate():
    # share of positives is fixed when stratifying by label
    y = np.array([1, 1, 0, 0, 0])
    assert bootstrap_ci(_mean, y, strata=y, seed=0) == (pytest.approx(0.4), pytest.approx(0.4))


def test_bootstrap_edge_cases():
    assert bootstrap_ci(_mean, np.array([5.0])) == (5.0, 5.0)  # n = 1
    lo, hi = bootstrap_ci(_mean, np.array([]))
    assert math.isnan(lo) and math.isnan(hi)
    with pytest.raises(ValueError):
        bootstrap_resamples(lambda x: x.mean(), np.arange(3.0), n_resamples=10)
    with pytest.raises(ValueError):
        bootstrap_ci(_mean, np.arange(3.0), np.arange(4.0))


def test_bootstrap_ci_ignores_nan_resamples():
    # a statistic undefined on some resamples: NaN resamples are dropped
    x = np.array([0, 0, 0, 1])

    def recall_like(a: np.ndarray) -> np.ndarray:
        pos = a.sum(1)
        return np.where(pos > 0, 1.0, np.nan)

    assert bootstrap_ci(recall_like, x, seed=0) == (1.0, 1.0)
    lo, hi = bootstrap_ci(lambda a: np.full(a.shape[0], np.nan), x)
    assert math.isnan(lo) and math.isnan(hi)


def test_bootstrap_p_value():
    # issue 28: every resample above 0 gave p = 0 (printed "< 0.001"); now (b + 1)/(R + 1): 2·(0 + 1)/(4 + 1)
    assert bootstrap_p_value(np.array([1.0, 2.0, 3.0, 4.0])) == pytest.approx(0.4)
    assert bootstrap_p_value(np.ones(999)) == pytest.approx(2 / 1000)
    # 1 of 4 at or below 0 -> p = 2 * (1 + 1)/(4 + 1)
    assert bootstrap_p_value(np.array([-1.0, 2.0, 3.0, 4.0])) == pytest.approx(0.8)
    assert bootstrap_p_value(np.array([-1.0, 1.0, np.nan])) == pytest.approx(1.0)
    assert math.isnan(bootstrap_p_value(np.array([np.nan])))
    np.testing.assert_allclose(bootstrap_p_value(np.array([[1.0, 2.0], [-1.0, 1.0]])), [2 / 3, 1.0])
