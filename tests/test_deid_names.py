"""De-identification of names (issue 31): listed names in every form, the gazetteer detector in lower-case
speech, the clinical vocabulary that keeps drugs / conditions / specialties / places from being names, and the
identifier columns the loaders keep."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from clinaudit.errors import InputError
from clinaudit.loaders import DataSource, load_cases
from clinaudit.perturb.deid import (
    deidentify_case_report,
    deidentify_names,
    deidentify_text,
    filter_residual_identifiers,
    find_residual_identifiers,
    residual_identifiers,
)
from clinaudit.perturb.name_detect import known_name_spans
from clinaudit.perturb.vocab import clinical_category
from clinaudit.records import Case


def test_lower_case_speech_names_found_by_the_detector():
    # the three dialog lines quoted in the issue (ACI-Bench test dialogs), no metadata given
    text = "[doctor] morning roy , how are you doing ?\n[patient] hi , natalie .\n[doctor] alright okay theresa"
    out, rep = deidentify_text(text)
    assert out == "[doctor] morning [NAME] , how are you doing ?\n[patient] hi , [NAME] .\n[doctor] alright okay [NAME]"
    # "roy" is also a dictionary word: found by the naming rule (after "morning"), the others by the detector
    assert [(r["old"], r["source"]) for r in rep.removed] == [("roy", "rule"), ("natalie", "detector"),
                                                              ("theresa", "detector")]
    # everyday words that are also surnames are not names ("guess", "love", "gonna" as ASR's "gon na")
    assert deidentify_text("[patient] i guess i love it , i'm gon na jog", gender=False)[0] == \
        "[patient] i guess i love it , i'm gon na jog"


def test_common_word_names_only_in_a_naming_context():
    out, rep = deidentify_text("[doctor] hi mark , i will mark the spot . thank you hope .\n[patient] bye doctor white")
    assert out == "[doctor] hi [NAME] , i will mark the spot . thank you [NAME] .\n[patient] bye doctor [NAME]"
    assert {r["source"] for r in rep.removed} == {"rule"}
    # clinical words and the demographic words of the counterfactual turn are never names
    out, _ = deidentify_text("[patient] my white blood cells , bell's palsy , I am a Black woman", gender=False,
                             origin=False)
    assert out == "[patient] my white blood cells , bell's palsy , I am a Black woman"


@pytest.mark.parametrize("word,category", [("Warfarin", "drug"), ("Psoriasis", "condition"),
                                           ("Neurologist", "specialty"), ("Germany", "place"),
                                           ("Care", "condition"), ("Center", "condition")])
def test_clinical_terms_are_not_names_nor_residuals(word, category):
    assert clinical_category(word) == category
    text = f"Doctor: We discussed {word} at the visit.\nPatient: Yes, {word} again."
    out, rep = deidentify_text(text)
    assert out == text and rep.removed == []
    # listed, explained by the vocabulary, not counted as an identifier
    assert {r["known"] for r in rep.remaining} == {category}
    assert residual_identifiers(rep.remaining) == []
    # the MTS example: the dialog is no longer excluded
    res, rows = filter_residual_identifiers([Case(case_id="m", text=text)], {"m": rep.remaining})
    assert [c.case_id for c in res.kept] == ["m"] and rows == []


def test_listed_names_every_form():
    names = ["Phillip", "O'Brien", "Hills", "Mary-Ann"]
    text = ("[doctor] hi philip o brien . obrien's knee , o'brien and hill . "
            "mary ann is here , ann too . the o-brien file")
    out, rep = deidentify_text(text, names=names, detector=False, gender=False)
    assert out == ("[doctor] hi [NAME] . [NAME]'s knee , [NAME] and [NAME] . "
                   "[NAME] is here , [NAME] too . the [NAME] file")
    assert {r["source"] for r in rep.removed} == {"metadata"}
    # whole words only: "walker" does not touch "walking"; "king" not "taking"
    spans = known_name_spans("i was walking and taking walker's pills", ["Walker", "King"])
    assert [(s.start, s.end) for s in spans] == [(25, 31)]


def test_case_identifiers_and_provenance_hold_no_original_words():
    c = Case(case_id="d", text="[doctor] hi , zebulon quixley .\n[patient] hello , ma'am jones",
             fields={"identifiers": {"patient_firstname": "Zebulon", "patient_familyname": "Quixley"}})
    v, rep = deidentify_case_report(c)
    assert v.text.startswith("[doctor] hi , [NAME] .")
    assert v.provenance["sources"]["name/metadata"] == 1 and v.provenance["sources"]["name/detector"] == 1
    blob = repr(v.provenance) + v.description
    assert "zebulon" not in blob.lower() and "quixley" not in blob.lower() and "jones" not in blob.lower()
    assert any(r["old"] == "zebulon quixley" for r in rep.removed)  # the in-memory report keeps them


def test_deidentify_names_changes_names_only():
    text = "Patient: My friend Natalie is a 45-year-old Black woman.\nPatient: [RACE]"
    assert deidentify_names(text, ["Doe"]) == (
        "Patient: My friend [NAME] is a 45-year-old Black woman.\nPatient: [RACE]", {("name", "detector"): 1})


def test_possible_name_is_masked_in_reasons_and_rows():
    text = "Doctor: Hello.\nPatient: My cousin Xylvane drove me."
    rem = find_residual_identifiers(text)
    res, rows = filter_residual_identifiers([Case(case_id="x", text=text, dataset="D")], {"x": rem})
    assert res.report() == [{"case_id": "x", "reason": "identifiers remain after de-identification: "
                                                       "possible_name [7 letters] at 34"}]
    assert rows[0]["text"] == "[7 letters]" and text[34:41] == "Xylvane"


def _write_aci(folder: Path) -> Path:
    data = folder / "split.csv"
    with data.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", "encounter_id", "dialogue", "note"])
        w.writerow(["virtassist", "E1", "[doctor] hi , zebulon .\n[patient] hi doctor .", "n"])
    with (folder / "split_metadata.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", "encounter_id", "id", "doctor_name", "patient_gender", "patient_age",
                    "patient_firstname", "patient_familyname", "cc", "2nd_complaints"])
        w.writerow(["virtassist", "E1", "VA1", "", "male", "50", "Zebulon ", "Quixley", "cough", ""])
    return data


def test_aci_loader_keeps_names_as_identifiers(tmp_path):
    c = load_cases(DataSource(format="aci", path=str(_write_aci(tmp_path))))[0]
    assert c.fields["identifiers"] == {"patient_firstname": "Zebulon", "patient_familyname": "Quixley"}
    assert "patient_firstname" not in c.fields and c.fields["patient_gender"] == "male"  # the recorded gender


def test_csv_identifier_columns(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("id,text,patient,ward\n1,Doctor: hi quinby.,Quinby,4\n", encoding="utf-8")
    src = DataSource(format="csv", path=str(path), columns={"id": "id", "text": "text"}, identifiers=["patient"],
                     options={"keep_columns": False})
    c = load_cases(src)[0]
    assert c.fields == {"identifiers": {"patient": "Quinby"}}
    assert deidentify_case_report(c, detector=False)[0].text == "Doctor: hi [NAME]."
    with pytest.raises(InputError, match="identifier column") as err:
        load_cases(src.model_copy(update={"identifiers": ["surname"]}))
    assert err.value.field == "identifiers"
