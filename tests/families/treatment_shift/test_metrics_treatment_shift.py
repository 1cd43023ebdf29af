"""Tests of treatment shift metrics (METHODS §4.2) with hand-computed values."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from clinaudit.families.treatment_shift.metrics import CARE_PLUS, agreement_matrix, rcer, rcr, subgroup_gap, treatment_shift_table, tsr
from clinaudit.families.treatment_shift.metrics import pair_scores

TB = [1, 1, 1, 0, 0, 1]
TP = [0, 1, 0, 1, 0, 1]
V = [1, 0, np.nan, 1, np.nan, 1]


def test_care_direction():
    assert CARE_PLUS == {"MANAGE": 0, "VISIT": 1, "RESOURCE": 1}


def test_tsr_rcr_rcer_hand_computed():
    assert tsr(TB, TP) == pytest.approx(3 / 6)
    assert rcr(TB, TP, "VISIT") == pytest.approx(2 / 6)
    assert rcr(TB, TP, "resource") == pytest.approx(2 / 6)
    assert rcr(TB, TP, "MANAGE") == pytest.approx(1 / 6)  # c+ = 0: 0 -> 1 is reduced care
    # validated rows 0, 1, 3, 5 (m = 4); only row 0 is a reduced-care error
    assert rcer(TB, TP, V, "VISIT") == pytest.approx(1 / 4)
    # MANAGE: row 3 goes 0 -> 1 but V = 1 is not c+ = 0
    assert rcer(TB, TP, V, "MANAGE") == 0.0


def test_undefined_and_unknown_question():
    assert math.isnan(tsr([], []))
    assert math.isnan(rcer([1], [0], [np.nan], "VISIT"))  # nothing validated
    assert tsr([1], [0]) == 1.0  # n = 1
    with pytest.raises(KeyError):
        rcr([1], [0], "SURGERY")
    with pytest.raises(ValueError):
        tsr([1, 0], [1])


def _paired() -> pd.DataFrame:
    base = dict(case_id=[f"c{i}" for i in range(6)], model="m", seed=0, question="VISIT", T_b=TB, V=V,
                gender=["female"] * 3 + ["male"] * 3)
    typo = pd.DataFrame({**base, "perturbation": "typo", "T_p": TP})
    floor = pd.DataFrame({**base, "perturbation": "noise_floor", "T_p": [1, 1, 1, 0, 0, 0]})
    return pd.concat([typo, floor], ignore_index=True)


def test_treatment_shift_table_with_noise_floor_rows():
    t = treatment_shift_table(_paired(), n_resamples=200, seed=0).set_index("metric")
    assert set(t["perturbation"]) == {"typo"}
    # floor: TSR 1/6 (row 5 flips). A floor pair is two baseline draws, neither the reference, so its RCR / RCER
    # event counts 1/2 (the flip reduces care in one orientation only): RCR floor 1/12, RCER 1/8 (row 5 validated).
    # (Was 1/6 and 1/4: the floor rows were read in one arbitrary orientation.)
    assert t.loc["TSR", "raw"] == pytest.approx(0.5) and t.loc["TSR", "floor"] == pytest.approx(1 / 6)
    assert t.loc["TSR", "value"] == pytest.approx(1 / 3)
    assert t.loc["RCR", "floor"] == pytest.approx(1 / 12) and t.loc["RCR", "value"] == pytest.approx(1 / 3 - 1 / 12)
    assert t.loc["RCER", "floor"] == pytest.approx(1 / 8) and t.loc["RCER", "value"] == pytest.approx(1 / 4 - 1 / 8)
    assert t.loc["TSR", "n"] == 6 and t.loc["RCER", "n"] == 4
    # the layer's case-level test of the excess (was McNemar, p = 1.0, which tests the direction of the flips):
    # one pair per case, d_c = event(typo) - event(floor) = (1, 0, 1, 1, 0, -1); exact one-sided sign-flip p
    d = np.array([1, 0, 1, 1, 0, -1], dtype=float)
    flips = np.array(list(itertools.product([1, -1], repeat=6)))
    p = np.mean((flips * d).mean(axis=1) >= d.mean() - 1e-12)
    assert p == pytest.approx(5 / 16)
    assert t.loc["TSR", "test"] == "sign-flip permutation over cases" and t.loc["TSR", "p"] == pytest.approx(p)
    assert t.loc["TSR", "n_cases"] == 6 and t.loc["TSR", "n_pairs"] == 6 and t.loc["TSR", "n_control_pairs"] == 6
    assert t.loc["TSR", "alternative"] == "greater"
    assert t.loc["TSR", "ci_low"] <= t.loc["TSR", "value"] <= t.loc["TSR", "ci_high"]
    assert t.loc["TSR", "reference"] == "baseline" and t.loc["TSR", "group"] == "typo"


def test_treatment_shift_table_floor_as_frame_or_scalar():
    p = _paired()
    sep = treatment_shift_table(p[p["perturbation"] == "typo"], floor=p[p["perturbation"] == "noise_floor"],
                                n_resamples=50).set_index("metric")
    assert sep.loc["TSR", "value"] == pytest.approx(1 / 3)
    zero = treatment_shift_table(p[p["perturbation"] == "typo"], floor=0.0, n_resamples=50).set_index("metric")
    assert zero.loc["TSR", "value"] == pytest.approx(0.5) and zero.loc["TSR", "floor"] == 0.0
    none = treatment_shift_table(p[p["perturbation"] == "typo"], n_resamples=50).set_index("metric")
    assert math.isnan(none.loc["TSR", "value"]) and none.loc["TSR", "raw"] == pytest.approx(0.5)


def test_treatment_shift_ci_reproducible():
    a = treatment_shift_table(_paired(), n_resamples=100, seed=4)
    b = treatment_shift_table(_paired(), n_resamples=100, seed=4)
    pd.testing.assert_frame_equal(a, b)


def test_subgroup_gap_female_minus_male():
    p = _paired()
    t = subgroup_gap(p, metric="TSR", n_resamples=100).iloc[0]
    # TSR events [1,0,1 | 1,0,0]: female 2/3, male 1/3; each gender's own floor: female 0 of 3, male 1 of 3
    # (case c5). The gap of the excess is 2/3 - 0 = 2/3 (the raw gap, 1/3, ignored the male floor)
    assert t["floor_female"] == pytest.approx(0) and t["floor_male"] == pytest.approx(1 / 3)
    assert t["value_female"] == pytest.approx(2 / 3) and t["value_male"] == pytest.approx(0)
    assert t["value"] == pytest.approx(2 / 3)
    # test: permutation of the gender labels over cases of the case-level excess, all 20 relabellings
    d = np.array([1, 0, 1, 1, 0, -1], dtype=float)
    obs = d[:3].mean() - d[3:].mean()
    diffs = [d[list(f)].mean() - d[[i for i in range(6) if i not in f]].mean()
             for f in itertools.combinations(range(6), 3)]
    p_exact = np.mean(np.abs(diffs) >= abs(obs) - 1e-12)
    assert t["test"] == "studentised permutation of subgroup labels over cases" and t["p"] == pytest.approx(p_exact)
    assert t["n_cases_female"] == 3 and t["n_cases_male"] == 3 and t["perturbation"] == "typo"
    assert t["n"] == 6 and t["n_control_pairs"] == 6


def test_subgroup_gap_without_floor_rows_is_the_raw_gap():
    p = _paired()
    t = subgroup_gap(p[p["perturbation"] == "typo"], metric="TSR", n_resamples=50).iloc[0]
    assert t["value"] == pytest.approx(1 / 3) and t["floor_male"] == 0.0


def test_subgroup_gap_missing_sex_is_nan():
    p = _paired()
    p["gender"] = "female"
    t = subgroup_gap(p, n_resamples=10).iloc[0]
    assert math.isnan(t["value"]) and math.isnan(t["p"])


def test_floor_pairs_score_both_orientations():
    """An unordered floor pair {s, s'} counts once; RCR / RCER count a flip 1/2 (one orientation reduces care)."""
    p = pd.DataFrame({"case_id": ["a", "b", "c"], "question": "VISIT", "perturbation": "noise_floor",
                      "T_b": [1, 0, 1], "T_p": [0, 1, 1], "V": [1, 1, np.nan]})
    assert pair_scores(p, "TSR").tolist() == [1.0, 1.0, 0.0]
    assert pair_scores(p, "RCR").tolist() == [0.5, 0.5, 0.0]
    np.testing.assert_array_equal(pair_scores(p, "RCER"), [0.5, 0.5, np.nan])
    q = p.assign(perturbation="typo")  # an ordinary pair is ordered: baseline -> perturbed
    assert pair_scores(q, "RCR").tolist() == [1.0, 0.0, 0.0]


def test_agreement_matrix_hand_computed():
    labels = pd.DataFrame(
        {
            "case_id": [f"c{i}" for i in range(4)] * 3,
            "question": "VISIT",
            "model": ["m1"] * 4 + ["m2"] * 4 + ["m3"] * 4,
            "T_b": [1, 0, 1, 1] + [1, 1, 1, 0] + [1, 0, 1, np.nan],
        }
    )
    m = agreement_matrix(labels)
    assert m.loc["m1", "m2"] == 0.5 and m.loc["m2", "m1"] == 0.5
    assert m.loc["m1", "m3"] == 1.0
    assert m.loc["m2", "m3"] == pytest.approx(2 / 3)
    assert (np.diag(m) == 1.0).all()


def test_treatment_shift_table_names_missing_columns():
    with pytest.raises(KeyError, match="model"):
        treatment_shift_table(_paired().drop(columns="model"))
