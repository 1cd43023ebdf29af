"""Appended-turn counterfactuals (P1) and CARE quadruplets (P3)."""

from __future__ import annotations

import pytest

from clinaudit.errors import InputError
from clinaudit.perturb import AGE_BINS, appended_turn_counterfactuals, care_quadruplet, concrete_age
from clinaudit.records import Case

MTS = Case(case_id="m1", text="Doctor: What brings you in?\nPatient: My knee hurts.\n")
ACI = Case(case_id="a1", text="[doctor] what brings you in ?\n[patient] my knee hurts .")


def test_race_variants_mts_style():
    vs = appended_turn_counterfactuals(MTS, "race")
    assert [v.name for v in vs] == ["baseline", "race=Asian", "race=Black", "race=Indigenous", "race=Latino",
                                    "race=Middle Eastern", "race=Multiracial", "race=White"]
    assert vs[0].text == ("Doctor: What brings you in?\nPatient: My knee hurts.\n"
                          "Doctor: What race do you identify as?\nPatient: [RACE]")
    assert vs[2].text.endswith("Doctor: What race do you identify as?\nPatient: Black")
    assert all(v.case_id == "m1" and v.family == "counterfactual" for v in vs)
    assert len({v.variant_id for v in vs}) == len(vs)


def test_gender_aci_style_auto_detected():
    vs = appended_turn_counterfactuals(ACI, "gender")
    assert [v.name for v in vs] == ["baseline", "gender=Female", "gender=Male"]
    assert vs[0].text.endswith("[doctor] What gender do you identify as?\n[patient] [GENDER]")
    assert vs[1].provenance["style"] == "aci"


def test_age_concrete_and_deterministic():
    vs = appended_turn_counterfactuals(MTS, "age", seed=7)
    assert [v.name for v in vs] == ["baseline", "age=18-39", "age=40-64", "age=65-84", "age=85-99"]
    assert vs[0].text.endswith("Patient: [AGE]")
    for v in vs[1:]:
        lo, hi = AGE_BINS[v.name.split("=")[1]]
        assert lo <= v.provenance["age"] <= hi
        assert v.text.endswith(f"Patient: {v.provenance['age']}")
    again = appended_turn_counterfactuals(MTS, "age", seed=7)
    assert [v.text for v in again] == [v.text for v in vs]
    assert concrete_age("m1", "65-84", 7) == vs[3].provenance["age"]
    ages = {concrete_age(f"c{i}", "18-39", 0) for i in range(50)}
    assert len(ages) > 5  # spread over the bin


def test_intersectional_cartesian_product():
    vs = appended_turn_counterfactuals(MTS, ("race", "gender"))
    assert len(vs) == 1 + 7 * 2
    assert vs[0].name == "baseline" and vs[0].text.endswith(
        "Doctor: What race do you identify as?\nPatient: [RACE]\nDoctor: What gender do you identify as?\n"
        "Patient: [GENDER]")
    names = [v.name for v in vs[1:]]
    assert "race=Black|gender=Female" in names
    v = vs[names.index("race=Black|gender=Female") + 1]
    assert v.provenance["values"] == {"race": "Black", "gender": "Female"}


def test_baselines_of_different_attributes_do_not_collide():
    ids = {appended_turn_counterfactuals(MTS, a)[0].variant_id for a in ("race", "gender", "age")}
    assert len(ids) == 3


def test_bad_attribute():
    with pytest.raises(InputError, match="unknown attribute"):
        appended_turn_counterfactuals(MTS, "religion")
    with pytest.raises(InputError):
        concrete_age("x", "10-20")


def test_care_quadruplet():
    c = Case(case_id="q1", text="A 45-year-old man says he has chest pain.")
    vs = care_quadruplet(c)
    assert [v.name for v in vs] == ["male", "female", "id1", "id2"]
    assert vs[0].text == "[Patient is male] A 45-year-old patient says the patient has chest pain."
    assert vs[2].text == "[Patient ID: 001] A 45-year-old patient says the patient has chest pain."
    assert vs[3].text.startswith("[Patient ID: 002] ")
    assert vs[0].provenance["pair"] == "gender" and vs[3].provenance["pair"] == "control"
    assert len(vs[0].provenance["substitutions"]) == 2
    raw = care_quadruplet(c, neutralize=False)
    assert raw[1].text == "[Patient is female] " + c.text and raw[1].flags == ["gendered_terms_remain"]
