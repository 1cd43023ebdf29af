"""The paired-statistics layer (clinaudit.stats.PairedFrame) against independent recomputations.

The reference computations below are written separately from the layer: plain
loops over cases, pandas group-bys on the raw pair rows, itertools enumeration
of sign flips, scipy's own tests called directly.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from clinaudit.stats import PairedFrame, sign_flip_test, two_sample_permutation_test, wilcoxon_test


def _synthetic(n_cases=12, seeds=3, p_arm=0.45, p_floor=0.15, seed=3):
    """Pairs of a case share a case effect (known structure: correlated within case)."""
    rng = np.random.default_rng(seed)
    rows = []
    for c in range(n_cases):
        shift = rng.normal(0, 0.15)
        for _s in range(seeds):
            rows.append(dict(case_id=f"c{c}", arm="typo", score=float(rng.random() < np.clip(p_arm + shift, 0, 1)), model="m"))
            rows.append(dict(case_id=f"c{c}", arm="caps", score=float(rng.random() < np.clip(p_floor + shift, 0, 1)), model="m"))
        for _s in range(seeds):  # unordered seed pairs of the baseline: the floor
            rows.append(dict(case_id=f"c{c}", arm="noise_floor", score=float(rng.random() < np.clip(p_floor + shift, 0, 1)), model="m"))
    return pd.DataFrame(rows)


def _reference_excess(df, arm, control="noise_floor"):
    a = df[df.arm == arm]
    f = df[df.arm == control]
    return a.score.mean() - f.score.mean()


def test_point_estimates_are_pooled_rates_and_floor():
    df = _synthetic()
    t = PairedFrame(df, by=["model"], control="noise_floor").compare(metric="TSR", n_resamples=50)
    row = t.set_index("group").loc["typo"]
    assert row["rate"] == pytest.approx(df[df.arm == "typo"].score.mean(), abs=1e-15)
    assert row["floor"] == pytest.approx(df[df.arm == "noise_floor"].score.mean(), abs=1e-15)
    assert row["value"] == pytest.approx(_reference_excess(df, "typo"), abs=1e-15)
    assert row["n_pairs"] == 36 and row["n_cases"] == 12 and row["n_control_pairs"] == 36
    assert set(t["group"]) == {"typo", "caps"}  # the control is not reported as an arm


def test_case_clustered_bootstrap_equals_independent_loop():
    df = _synthetic(n_cases=15)
    R, seed = 400, 11
    t = PairedFrame(df, control="noise_floor").compare(metric="TSR", n_resamples=R, seed=seed, n_permutations=99)
    got = t.set_index("group").loc["caps"]  # arms run in sorted order: "caps" is the first cell
    # independent: resample case ids with replacement, rebuild the pair rows, recompute pooled rates
    cases = list(pd.unique(pd.concat([df[df.arm == "caps"].case_id, df[df.arm == "noise_floor"].case_id])))
    rng = np.random.default_rng(seed)
    boot = []
    by_case = {c: g for c, g in df.groupby("case_id")}
    for _ in range(R):
        draw = rng.integers(0, len(cases), len(cases))
        rows = pd.concat([by_case[cases[i]] for i in draw])
        boot.append(rows[rows.arm == "caps"].score.mean() - rows[rows.arm == "noise_floor"].score.mean())
    lo, hi = np.percentile(boot, [2.5, 97.5])
    assert got["ci_low"] == pytest.approx(lo, abs=1e-12)
    assert got["ci_high"] == pytest.approx(hi, abs=1e-12)


def test_exact_sign_flip_p_equals_enumeration():
    df = _synthetic(n_cases=10)
    t = PairedFrame(df, control="noise_floor").compare(metric="TSR", alternative="greater", n_permutations=5000)
    got = t.set_index("group").loc["typo"]
    d = (df[df.arm == "typo"].groupby("case_id").score.mean() - df[df.arm == "noise_floor"].groupby("case_id").score.mean()).to_numpy()
    obs = d.mean()
    flips = [np.mean(d * np.array(s)) for s in itertools.product([1, -1], repeat=len(d))]
    p_ref = np.mean(np.array(flips) >= obs - 1e-12)
    assert got["p"] == pytest.approx(p_ref, abs=1e-12)
    assert got["test_note"].startswith("exact")
    assert got["statistic"] == pytest.approx(obs, abs=1e-15)
    assert got["effect_size"] == pytest.approx(d.mean() / d.std(ddof=1), abs=1e-12)


def test_duplicating_pairs_within_cases_does_not_shrink_the_test():
    """The old noise floor counted (s, s') and (s', s) (n doubled): the case-level test is immune."""
    df = _synthetic(n_cases=10)
    doubled = pd.concat([df, df[df.arm == "noise_floor"]])
    kw = dict(control="noise_floor")
    a = PairedFrame(df, **kw).compare(alternative="greater", n_permutations=5000).set_index("group")
    b = PairedFrame(doubled, **kw).compare(alternative="greater", n_permutations=5000).set_index("group")
    assert a.loc["typo", "p"] == pytest.approx(b.loc["typo", "p"], abs=1e-12)
    assert b.loc["typo", "n_control_pairs"] == 2 * a.loc["typo", "n_control_pairs"]


def test_shift_rate_is_tested_for_amount_not_direction():
    """Half the answers flip, in both directions equally: McNemar p = 1, the excess test is significant."""
    rows = []
    for c in range(12):
        for _s in range(2):  # 1→0 for even cases, 0→1 for odd: symmetric flips, rate 100 % vs floor 0
            rows.append(dict(case_id=c, arm="uncertain", ref=c % 2, alt=1 - c % 2))
            rows.append(dict(case_id=c, arm="noise_floor", ref=c % 2, alt=c % 2))
    pairs = pd.DataFrame(rows)
    pf = PairedFrame.from_pairs(pairs, metric=lambda r, a: (r != a).astype(float), control="noise_floor")
    row = pf.compare(metric="TSR", alternative="greater").iloc[0]
    assert row["value"] == 1.0
    assert row["p"] == pytest.approx(2.0**-12, rel=1e-9)  # exact: only the all-positive sign vector reaches it


def test_unusable_pairs_are_counted_not_scored():
    df = pd.DataFrame(dict(case_id=[1, 1, 2, 2, 3], arm=["a"] * 5, score=[1.0, np.nan, 0.0, 1.0, np.nan]))
    row = PairedFrame(df).compare(n_resamples=20).iloc[0]
    assert row["n_pairs"] == 3 and row["n_unusable"] == 2 and row["n_cases"] == 2
    assert row["rate"] == pytest.approx(2 / 3)


def test_no_control_compares_with_null_and_degenerate_cases():
    df = pd.DataFrame(dict(case_id=[1, 2, 3], arm="a", score=[0.0, 0.0, 0.0]))
    row = PairedFrame(df).compare(null=0.0, n_resamples=20).iloc[0]
    assert row["value"] == 0 and row["p"] == 1.0 and row["reference"] == "0"
    empty = PairedFrame(pd.DataFrame(dict(case_id=[1], arm=["a"], score=[np.nan]))).compare(n_resamples=20).iloc[0]
    assert math.isnan(empty["value"]) and math.isnan(empty["p"]) and empty["n"] == 0


def test_family_correction_declared_once():
    df = _synthetic()
    t = PairedFrame(df, control="noise_floor").compare(family="perturbations", correction="bonferroni", n_permutations=999)
    assert (t["family"] == "perturbations").all() and (t["correction"] == "bonferroni").all()
    np.testing.assert_allclose(t["p_adj"], np.minimum(1, t["p"] * 2))


def test_gap_uses_each_subgroups_own_floor():
    # female cases: arm 0.5, floor 0.5 (no excess); male cases: arm 0.5, floor 0.0 (excess 0.5)
    rows = []
    for c in range(8):
        sex = "female" if c < 4 else "male"
        for s in range(2):
            rows.append(dict(case_id=c, arm="typo", score=float(s), gender=sex))
            rows.append(dict(case_id=c, arm="noise_floor", score=float(s) if sex == "female" else 0.0, gender=sex))
    df = pd.DataFrame(rows)
    g = PairedFrame(df, control="noise_floor").gap("gender", "female", "male", metric="TSR", n_resamples=200).iloc[0]
    assert g["value_a"] == pytest.approx(0.0) and g["value_b"] == pytest.approx(0.5)
    assert g["value"] == pytest.approx(-0.5)  # the raw-rate gap would be 0: the floor matters
    assert g["n_cases_a"] == 4 and g["n_cases_b"] == 4
    # exact permutation p: d_c = 0 for the 4 female cases and 0.5 for the 4 male ones
    d = np.array([0.0] * 4 + [0.5] * 4)
    obs = d[:4].mean() - d[4:].mean()
    vals = []
    for idx in itertools.combinations(range(8), 4):
        m = np.zeros(8, bool)
        m[list(idx)] = True
        vals.append(d[m].mean() - d[~m].mean())
    p_ref = np.mean(np.abs(vals) >= abs(obs) - 1e-12)
    assert g["p"] == pytest.approx(p_ref, abs=1e-12)


def test_gap_rejects_attribute_varying_within_case():
    df = pd.DataFrame(dict(case_id=[1, 1], arm="a", score=[1.0, 0.0], gender=["female", "male"]))
    with pytest.raises(ValueError, match="varies within case"):
        PairedFrame(df).gap("gender", "female", "male")


def test_sign_flip_matches_scipy_monte_carlo_bounds():
    rng = np.random.default_rng(0)
    d = rng.normal(0.3, 1, 40)
    stat, p, note = sign_flip_test(d, "two-sided", n_permutations=4999, seed=1)
    assert note.startswith("Monte Carlo")
    # the large-sample reference: a one-sample t test on the same differences
    assert abs(p - sps.ttest_1samp(d, 0).pvalue) < 0.05


def test_two_sample_permutation_matches_scipy_exact():
    a, b = np.array([0.1, 0.5, 0.7]), np.array([0.0, 0.2])
    stat, p, note = two_sample_permutation_test(a, b)
    ref = sps.permutation_test((a, b), lambda x, y, axis: x.mean(axis) - y.mean(axis), permutation_type="independent",
                               vectorized=True, n_resamples=np.inf).pvalue
    assert p == pytest.approx(ref) and note.startswith("exact")


def test_wilcoxon_ignores_floating_point_noise():
    """Association mock PSYCH: a mean difference of 1e-15 gave p = 0.034; noise is not an effect."""
    x = np.array([-10.2, -8.7, -9.1, -11.0, -7.5, -9.9, -10.4, -8.8])
    y = x + np.array([1e-15, 2e-15, 1.7e-15, 3e-15, 9e-16, 1e-15, 2e-15, 1.5e-15])
    r = wilcoxon_test(x, y)
    assert r.p == 1.0 and "zero" in r.note
    # a real difference is still tested
    assert wilcoxon_test(x, x + 0.5).p < 0.05


def test_effect_size_undefined_when_every_case_has_the_same_excess():
    # 0.1 + 0.2 - 0.3 style rounding: the case-level differences agree to ~1e-17, sd is noise, not spread
    d = pd.DataFrame(dict(case_id=[1, 2, 3], arm="a", score=[0.1 + 0.2, 0.3, 0.3]))
    row = PairedFrame(d).compare(n_resamples=20).iloc[0]
    assert math.isnan(row["effect_size"])
