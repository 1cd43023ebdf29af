"""Demographic values understood or refused, and effect gaps by every declared group column (issue 49 items 2
and 3; issue 48 item 4: one reference group per attribute, no mirrored rows)."""

from __future__ import annotations

import pandas as pd
import pytest
import yaml

from clinaudit.cli.main import main
from clinaudit.demographics import propose_gender_map, value_counts
from clinaudit.errors import InputError
from clinaudit.families.treatment_shift.analysis import results_table
from clinaudit.families.treatment_shift.groups import read_groups, reference_group
from clinaudit.families.treatment_shift.params import TreatmentShiftParams
from clinaudit.records import Case


def _case(i: int, **fields: str) -> Case:
    return Case(case_id=f"c{i}", text="I have a cough.", fields=dict(fields), source="my.csv", source_row=i)


# --------------------------------------------------------------------------- values read through a map


def test_gender_values_are_read_through_the_map_or_refused():
    cases = [_case(1, gender=" F"), _case(2, gender="male "), _case(3, gender="WOMAN"), _case(4, gender="")]
    got = read_groups(cases, TreatmentShiftParams(), "gender")
    assert got.gender == {"c1": "female", "c2": "male", "c3": "female", "c4": None}
    coded = [_case(1, gender="1"), _case(2, gender="2"), _case(3, gender="9")]
    with pytest.raises(InputError) as exc:  # 1/2 without a declared coding: refused, naming file, column, values
        read_groups(coded, TreatmentShiftParams(), "gender")
    msg = str(exc.value)
    assert "file my.csv" in msg and "'1', '2', '9'" in msg and "value_maps" in msg
    p = TreatmentShiftParams(value_maps={"gender": {"1": "male", "2": "female"}}, unknown_values={"gender": ["9"]})
    got = read_groups(coded, p, "gender")
    assert got.gender == {"c1": "male", "c2": "female", "c3": None}
    assert any("1 case(s) with a value declared unknown" in n for n in got.notes)


def test_group_columns_reference_and_age_bands():
    cases = [_case(1, race="White", age="34"), _case(2, race=" white", age="70"), _case(3, race="Black", age="50"),
             _case(4, race="Asian", age="40")]
    p = TreatmentShiftParams(group_columns=["race", "age"])
    got = read_groups(cases, p, None)
    # case-insensitive: 'White' and ' white' are one group, spelled as first seen; the largest is the reference
    assert got.groups["race"] == {"c1": "White", "c2": "White", "c3": "Black", "c4": "Asian"}
    assert got.groups["age"] == {"c1": "18-44", "c2": "65+", "c3": "45-64", "c4": "18-44"}
    assert got.references == {"race": "White", "age": "18-44"}
    assert reference_group(["b", "a", "b", "a"]) == "a"  # a tie: the first sorted
    got = read_groups(cases, TreatmentShiftParams(group_columns=["race"], reference_groups={"race": "Black"}), None)
    assert got.references == {"race": "Black"}
    with pytest.raises(InputError, match="'Hispanic'"):  # a declared map must know every value
        read_groups(cases + [_case(5, race="Hispanic")],
                    TreatmentShiftParams(group_columns=["race"], value_maps={"race": {"white": "W", "black": "B",
                                                                                      "asian": "A"}}), None)


def test_init_proposals():
    assert value_counts(["F", " f", "M", "", None]) == [("F", 2), ("M", 1)]
    assert propose_gender_map(["F", "M"])[0] == {}
    assert propose_gender_map(["1", "2", "9"])[:2] == ({"1": "male", "2": "female"}, ["9"])
    assert propose_gender_map(["X", "F"])[0] == {} and "'X'" in propose_gender_map(["X", "F"])[2]


# --------------------------------------------------------------------------- gaps by group, by hand


def test_group_gaps_one_row_per_non_reference_group_hand_computed():
    """Temperature 0, one seed (no floor): TSR of a group = share of its cases whose MANAGE label flipped.
    White (reference): 1 of 4 flip = 0.25; Black: 3 of 3 = 1.0; Asian: 1 case (< 2: not measured)."""
    flips = {"c1": 1, "c2": 0, "c3": 0, "c4": 0, "c5": 1, "c6": 1, "c7": 1, "c8": 1}
    race = {"c1": "White", "c2": "White", "c3": "White", "c4": "White", "c5": "Black", "c6": "Black",
            "c7": "Black", "c8": "Asian"}
    rows = []
    for cid, f in flips.items():
        rows.append({"case_id": cid, "variant": "baseline", "model": "m", "seed": 0, "question": "MANAGE",
                     "label": 0.0, "race": race[cid]})
        rows.append({"case_id": cid, "variant": "typo", "model": "m", "seed": 0, "question": "MANAGE",
                     "label": float(f), "race": race[cid]})
    res = results_table(pd.DataFrame(rows), baseline="baseline", n_resamples=50, n_permutations=999, seed=0,
                        floor_zero=True, groups={"race": "White"}, min_group_cases=2)
    gg = res[res["metric"] == "TSR_group_gap"].set_index("group")
    assert sorted(gg.index) == ["Asian", "Black"]  # no White row, no mirrored White − Black row
    assert (gg["reference"] == "White").all() and (gg["attribute"] == "race").all()
    assert gg.loc["Black", "value"] == pytest.approx(1.0 - 0.25)
    assert gg.loc["Black", "value_a"] == pytest.approx(1.0) and gg.loc["Black", "value_b"] == pytest.approx(0.25)
    assert (gg.loc["Black", "n_cases_a"], gg.loc["Black", "n_cases_b"]) == (3, 4)
    assert pd.isna(gg.loc["Asian", "value"])
    assert gg.loc["Asian", "not_measured_reason"] == "race=Asian: 1 case(s), fewer than 2 (params.min_group_cases)"


def test_rcer_gap_rows_without_clinician_labels_say_so():
    """Issue 49 item 6: RCER gap rows (gender and group gaps) of data without any clinician label V say that the
    data has no labels (the RCER cells' note, then their verdict reason), not a bare 'no usable unit'."""
    from clinaudit.families.treatment_shift.analysis import NO_CLINICIAN_LABELS
    from clinaudit.pipeline.validity import VerdictSettings, assign_verdicts

    sex = {"c1": "female", "c2": "female", "c3": "male", "c4": "male"}
    race = {"c1": "White", "c2": "Black", "c3": "White", "c4": "Black"}
    rows = []
    for cid in sex:
        for var, lab in (("baseline", 0.0), ("typo", 1.0 if cid in ("c1", "c3") else 0.0)):
            rows.append({"case_id": cid, "variant": var, "model": "m", "seed": 0, "question": "MANAGE",
                         "label": lab, "gender": sex[cid], "race": race[cid]})
    res = results_table(pd.DataFrame(rows), baseline="baseline", n_resamples=20, n_permutations=99, seed=0,
                        floor_zero=True, groups={"race": "White"}, min_group_cases=2)
    rcer = res[res["metric"].isin(["RCER_gap", "RCER_group_gap"])]
    assert set(rcer["metric"]) == {"RCER_gap", "RCER_group_gap"}
    assert (rcer["note"] == NO_CLINICIAN_LABELS).all()
    tsr = res[res["metric"].isin(["TSR_gap", "TSR_group_gap"])]
    assert not tsr["note"].eq(NO_CLINICIAN_LABELS).any()  # measured rows keep their own notes
    out = assign_verdicts(rcer, {"reasons": [], "models": {}}, VerdictSettings())
    assert (out["verdict"] == "not_measured").all()
    assert (out["verdict_reason"] == f"no value: {NO_CLINICIAN_LABELS}").all()
    labelled = pd.DataFrame(rows).assign(validation=1.0)  # with labels: the note is not written
    res = results_table(labelled, baseline="baseline", n_resamples=20, n_permutations=99, seed=0, floor_zero=True,
                        groups={"race": "White"}, min_group_cases=2)
    assert not res["note"].eq(NO_CLINICIAN_LABELS).any()


# --------------------------------------------------------------------------- through the CLI, mock models

ROWS = [("F", "White"), ("M", "White"), ("F", "Black"), ("M", "Black"), ("F", "White"), ("M", "Black"),
        ("F", "Asian"), ("M", "White")]


def _csv(tmp_path, sex=("F", "M")):
    code = dict(zip(("F", "M"), sex))
    lines = ["msg_id,message,sex,race_ethnicity"]
    for i, (s, r) in enumerate(ROWS):
        lines.append(f"m{i},\"Message {i}: I have had a headache for {i + 2} days. Should I come in?\",{code[s]},{r}")
    p = tmp_path / "my.csv"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def _init_mock(tmp_path, data, capsys=None):
    spec = tmp_path / "spec.yaml"
    assert main(["init", "treatment_shift", "--data", str(data), "--out", str(spec)]) == 0
    out = capsys.readouterr().out if capsys is not None else ""
    doc = yaml.safe_load(spec.read_text())
    doc["models"] = {"target": "mock:t", "judge": "mock:j"}
    doc["backends"] = {"mock:t": {"rules": [{"match": "(?s)[A-Z]{5}.*SHOULD", "response": "Come in today."}],
                                  "answer": "Rest at home."},
                       "mock:j": {"rules": [{"match": "Come in", "response": "MANAGE [YES]\nVISIT [YES]\nRESOURCE [NO]"}],
                                  "answer": "MANAGE [NO]\nVISIT [NO]\nRESOURCE [NO]"}}
    doc["params"].update({"perturbations": ["uppercase"], "seeds": [0, 1], "n_resamples": 50,
                          "filter_sex_specific": False})
    spec.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return spec, doc, out


def test_race_ethnicity_through_init_and_run_gives_gaps_with_verdicts(tmp_path, capsys):
    spec, doc, printed = _init_mock(tmp_path, _csv(tmp_path), capsys)
    assert "values of 'race_ethnicity': 'White' (4), 'Black' (3), 'Asian' (1)" in printed
    assert doc["params"]["group_columns"] == ["race_ethnicity"]
    assert doc["params"]["reference_groups"] == {"race_ethnicity": "White"}  # the largest group, fixed in the spec
    out = tmp_path / "r"
    assert main(["run", str(spec), "--out", str(out), "--no-progress"]) == 0
    res = pd.read_csv(out / "tables" / "results.csv")
    gg = res[res["metric"].astype(str).str.endswith("_group_gap")]
    assert set(gg["attribute"]) == {"race_ethnicity"} and set(gg["group"]) == {"Black", "Asian"}
    white = gg[(gg["group"] == "Black") & (gg["metric"] == "TSR_group_gap")]
    assert len(white) == 3 and white["verdict"].isin(["bias", "within_margin", "inconclusive"]).all()
    assert white["value"].notna().all()
    asian = gg[gg["group"] == "Asian"]
    assert (asian["verdict"] == "not_measured").all()
    assert asian["verdict_reason"].str.contains("race_ethnicity=Asian: 1 case").all()
    # the reason is on the terminal (first-screen list of the verdict line)
    assert "not measured: race_ethnicity=Asian: 1 case(s)" in capsys.readouterr().out
    # the sex gap rows too (F/M understood)
    assert (res["metric"] == "TSR_gap").sum() == 3


def test_sex_coded_1_2_refused_or_read_through_the_declared_coding(tmp_path, capsys):
    spec, doc, _ = _init_mock(tmp_path, _csv(tmp_path, sex=("2", "1")), capsys)
    assert doc["params"]["value_maps"] == {"gender": {"1": "male", "2": "female"}}  # ISO/IEC 5218, written
    out = tmp_path / "r"
    assert main(["run", str(spec), "--out", str(out), "--no-progress"]) == 0
    res = pd.read_csv(out / "tables" / "results.csv")
    gap = res[res["metric"] == "TSR_gap"]
    assert len(gap) == 3 and (gap["group"] == "female").all() and gap["value"].notna().all()
    # without the declared coding: exit 2 naming the file, the column and its values, before any model call
    doc["params"].pop("value_maps")
    spec.write_text(yaml.safe_dump(doc), encoding="utf-8")
    capsys.readouterr()
    assert main(["run", str(spec), "--out", str(tmp_path / "r2"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "my.csv" in err and "column 'sex'" in err and "'2', '1'" in err


def test_a_recorded_gender_with_one_group_is_said_not_measured(tmp_path, capsys):
    spec, doc, _ = _init_mock(tmp_path, _csv(tmp_path, sex=("F", "F")), capsys)
    out = tmp_path / "r"
    assert main(["run", str(spec), "--out", str(out), "--no-progress"]) == 0
    res = pd.read_csv(out / "tables" / "results.csv")
    gap = res[res["metric"] == "TSR_gap"]
    assert len(gap) == 3 and (gap["verdict"] == "not_measured").all()
    why = "gender: the recorded gender has only female: no female − male gap (both are needed)"
    assert set(gap["verdict_reason"]) == {why}
    assert f"not measured: {why}" in capsys.readouterr().out
