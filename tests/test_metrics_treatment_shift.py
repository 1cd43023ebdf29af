"""Tests of treatment shift metrics (METHODS §4.2) with hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from clinaudit.metrics import CARE_PLUS, agreement_matrix, rcer, rcr, subgroup_gap, treatment_shift_table, tsr

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
    # floor: TSR 1/6 (row 5), RCR 1/6, RCER 1/4 (row 5 validated)
    assert t.loc["TSR", "raw"] == pytest.approx(0.5) and t.loc["TSR", "floor"] == pytest.approx(1 / 6)
    assert t.loc["TSR", "value"] == pytest.approx(1 / 3)
    assert t.loc["RCR", "value"] == pytest.approx(1 / 3 - 1 / 6)
    assert t.loc["RCER", "value"] == pytest.approx(0.0)
    assert t.loc["TSR", "n"] == 6 and t.loc["RCER", "n"] == 4
    # McNemar: 2 pairs 1->0, 1 pair 0->1: exact, p = 2 * P(X <= 1 | n=3) capped at 1
    assert t.loc["TSR", "test"] == "mcnemar_exact" and t.loc["TSR", "p"] == 1.0
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
    # TSR events [1,0,1 | 1,0,0]: female 2/3, male 1/3
    assert t["value"] == pytest.approx(1 / 3)
    assert t["value_female"] == pytest.approx(2 / 3) and t["value_male"] == pytest.approx(1 / 3)
    assert t["test"] == "fisher_exact" and t["p"] == pytest.approx(1.0)
    assert t["n_female"] == 3 and t["n_male"] == 3 and t["perturbation"] == "typo"


def test_subgroup_gap_missing_sex_is_nan():
    p = _paired()
    p["gender"] = "female"
    t = subgroup_gap(p, n_resamples=10).iloc[0]
    assert math.isnan(t["value"]) and math.isnan(t["p"])


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
