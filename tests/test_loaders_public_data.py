"""Each dataset format loads its published file from ../shared/data (first rows checked by hand)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clinaudit.loaders import DataSource, list_loaders, load_cases

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _path(rel: str) -> Path:
    p = DATA / rel
    if not p.exists():
        pytest.skip(f"public data file {p} is absent (the tests read ../shared/data relative to the repo root)")
    return p


def test_builtin_formats_registered() -> None:
    assert {"mts", "aci", "craftmd", "medperturb", "csv", "jsonl", "demo"} <= set(list_loaders())


def test_mts_validation_set() -> None:
    path = _path("mts-dialog/MTS-Dialog-ValidationSet.csv")
    cases = load_cases(DataSource(format="mts", path=str(path)))
    assert len(cases) == 100
    c0, c1, c2 = cases[:3]
    assert (c0.case_id, c0.source_row, c0.dataset, c0.source) == ("0", 1, "mts", str(path))
    assert c0.fields["section_header"] == "GENHX"
    assert c0.fields["n_turns"] == 20
    assert c0.fields["turns"][0] == {"speaker": "doctor", "utterance": "When did your pain begin?"}
    assert (c1.case_id, c1.fields["section_header"], c1.fields["n_turns"]) == ("1", "ROS", 14)
    assert (c2.case_id, c2.fields["section_header"], c2.fields["n_turns"]) == ("2", "PASTMEDICALHX", 4)
    assert "\r" not in c0.text and c0.text.startswith("Doctor: When did your pain begin?")
    # every labelled line is one turn
    for c in cases:
        labelled = sum(1 for line in c.text.split("\n") if re.match(r'^\s*"?(Doctor|Patient|Guest_\w+)\s*:', line))
        assert c.fields["n_turns"] == labelled, c.case_id
    assert sum(c.fields["n_turns"] >= 10 for c in cases) == 33


def test_mts_min_turns_and_limit_and_ids() -> None:
    path = str(_path("mts-dialog/MTS-Dialog-ValidationSet.csv"))
    assert len(load_cases(DataSource(format="mts", path=path, options={"min_turns": 10}))) == 33
    assert [c.case_id for c in load_cases(DataSource(format="mts", path=path, limit=2))] == ["0", "1"]
    assert [c.case_id for c in load_cases(DataSource(format="mts", path=path, ids=["5", "7"]))] == ["5", "7"]


def test_mts_training_set_guests_and_quirks() -> None:
    cases = {c.case_id: c for c in load_cases(DataSource(format="mts", path=str(_path(
        "mts-dialog/MTS-Dialog-TrainingSet.csv"))))}
    assert len(cases) == 1201
    speakers_209 = [t["speaker"] for t in cases["209"].fields["turns"]]
    assert speakers_209[:4] == ["doctor", "patient", "doctor", "guest_family_1"]
    assert "guest_family_2" in speakers_209
    # "Guest_family. Hello. I'm his wife." (period instead of colon) starts a guest turn
    t1156 = cases["1156"].fields["turns"]
    assert {"speaker": "guest_family", "utterance": "Hello. I'm his wife."} in t1156
    # a stray "Sp 3" line after a blank line continues the last turn
    assert cases["307"].fields["turns"][-1]["utterance"].endswith("\nSp 3")


def test_aci_valid_with_metadata_loads_the_recorded_gender_and_no_name() -> None:
    path = _path("aci-bench/valid.csv")
    cases = load_cases(DataSource(format="aci", path=str(path)))
    assert len(cases) == 20
    c0 = cases[0]
    assert (c0.case_id, c0.source_row, c0.dataset) == ("D2N068", 1, "aci")
    assert c0.fields["n_turns"] == 73
    assert c0.fields["turns"][:2] == [
        {"speaker": "doctor", "utterance": "hi , brian . how are you ?"},
        {"speaker": "patient", "utterance": "hi , good to see you ."},
    ]
    assert c0.fields["source_dataset"] == "virtassist"
    assert c0.fields["note"].startswith("CHIEF COMPLAINT\n\nFollow-up of chronic problems.")
    assert c0.fields["metadata_id"] == "VA052"
    assert c0.fields["cc"] == "follow-up of chronic problems"
    assert c0.fields["2nd_complaints"] == "congestive heart failure;hypertension"
    assert c0.fields["patient_gender"] == "male"  # valid_metadata.csv: D2N068 male
    for c in cases:
        assert not {"patient_age", "patient_firstname", "patient_familyname", "doctor_name"} & set(c.fields)
    assert {t["speaker"] for c in cases for t in c.fields["turns"]} == {"doctor", "patient", "patient_guest"}


def test_aci_keep_metadata_cleans_values() -> None:
    path = _path("aci-bench/valid.csv")
    cases = load_cases(DataSource(format="aci", path=str(path), options={"keep_metadata": True}))
    c0, c1 = cases[0], cases[1]
    assert (c0.fields["patient_age"], c0.fields["patient_firstname"], c0.fields["patient_familyname"]) == (
        58, "Brian", "White")
    assert c0.fields["doctor_name"] is None
    assert (c1.fields["patient_age"], c1.fields["patient_firstname"]) == (43, None)  # missing -> None
    assert {c.fields["patient_gender"] for c in cases} == {"female", "male", None}
    # '22-month' stays text; '34.0' becomes 34
    ages = {c.fields["patient_age"] for c in cases}
    assert "22-month" in ages and 34 in ages
    # trailing spaces in the metadata are stripped ('Brian ' in valid_metadata.csv)
    for c in cases:
        for key in ("cc", "2nd_complaints", "patient_firstname", "patient_familyname"):
            v = c.fields[key]
            assert v is None or v == v.strip()


def test_aci_without_metadata_join() -> None:
    path = _path("aci-bench/train.csv")
    cases = load_cases(DataSource(format="aci", path=str(path), options={"metadata": False}))
    assert len(cases) == 67 and cases[0].case_id == "D2N001" and cases[0].fields["n_turns"] == 56
    assert "cc" not in cases[0].fields and "metadata_file" not in cases[0].fields


@pytest.mark.parametrize("rel", ["aci-bench/train.csv", "aci-bench/clinicalnlp_taskB_test1.csv",
                                 "aci-bench/clinicalnlp_taskC_test2.csv"])
def test_aci_other_splits(rel: str) -> None:
    cases = load_cases(DataSource(format="aci", path=str(_path(rel))))
    assert len(cases) in (67, 40)
    assert all(c.fields["n_turns"] >= 10 for c in cases)


#: patient_gender of each split's *_metadata.csv, counted with the csv module over the raw files ('female ' with
#: its trailing space counted as female, an empty cell as not recorded): train 27 + 7 female, 27 + 4 male, 2 empty
ACI_GENDER_COUNTS = {"train": {"female": 34, "male": 31, None: 2}, "valid": {"male": 11, "female": 8, None: 1},
                     "clinicalnlp_taskB_test1": {"male": 22, "female": 18},
                     "clinicalnlp_taskC_test2": {"female": 24, "male": 16}}


@pytest.mark.parametrize("split", sorted(ACI_GENDER_COUNTS))
def test_aci_loads_the_patient_gender_of_every_encounter(split: str) -> None:
    """ACI-Bench's metadata records the patient's gender: it is the case's recorded gender (``patient_gender``),
    so the exclusions-by-group audit can test de-identification and the sex-specific filter by gender on
    ACI-Bench. Counted by value against an independent count of the raw metadata file."""
    import csv
    from collections import Counter

    from clinaudit.exclusion_skew import case_attributes

    path = _path(f"aci-bench/{split}.csv")
    with open(path.with_name(f"{split}_metadata.csv"), encoding="utf-8", newline="") as fh:
        raw = Counter((r["patient_gender"].strip().lower() or None) for r in csv.DictReader(fh))
    assert dict(raw) == ACI_GENDER_COUNTS[split]
    cases = load_cases(DataSource(format="aci", path=str(path)))
    assert Counter(c.fields["patient_gender"] for c in cases) == raw
    attrs = case_attributes(cases)  # what the exclusions-by-group audit reads: attribute "gender"
    assert Counter(None if v is None or v != v else v for v in attrs["gender"]) == raw


def test_craftmd_published_file() -> None:
    cases = load_cases(DataSource(format="craftmd", path=str(_path("craft-md/usmle_and_derm_dataset.csv"))))
    assert len(cases) == 2004
    c0 = cases[0]
    assert (c0.case_id, c0.source_row) == ("case_0", 1)
    assert c0.text.startswith("A 22-year-old man presented with complaints of painful lesions on his penis")
    assert c0.fields == {
        "choices": ["Lymphogranuloma venereum", "Herpes", "Chancroid", "Syphilis"],
        "answer": "Lymphogranuloma venereum",
        "answer_letter": "A",
        "category": "Dermatology",
        "source_dataset": "dermatology_public",
    }
    assert (cases[1].fields["answer"], cases[1].fields["answer_letter"]) == ("Acute contact dermatitis", "D")
    by_id = {c.case_id: c for c in cases}
    # trailing space in the written answer; a former name of the correct choice
    assert (by_id["case_124"].fields["answer_letter"], by_id["case_124"].fields["answer_raw"]) == ("D", "Melanoma ")
    assert by_id["case_112"].fields["answer"] == "IgA vasculitis"
    assert by_id["case_112"].fields["answer_raw"] == "Henoch-Scholein vasculitis"
    assert all(c.fields["answer"] in c.fields["choices"] for c in cases)
    assert {c.fields["source_dataset"] for c in cases} == {"MedQA_USMLE", "dermatology_public", "dermatology_private"}


def test_craftmd_without_builtin_alias_reports_the_row() -> None:
    from clinaudit.errors import InputError

    path = _path("craft-md/usmle_and_derm_dataset.csv")
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="craftmd", path=str(path), options={"builtin_aliases": False}))
    assert (ei.value.row, ei.value.field, ei.value.file) == (113, "answer", str(path))
    skipped = load_cases(DataSource(format="craftmd", path=str(path),
                                    options={"builtin_aliases": False, "unmatched_answer": "skip"}))
    assert len(skipped) == 2003


@pytest.mark.parametrize("name,n", [("baseline.csv", 1333), ("gender.csv", 1333), ("no_gender.csv", 1333),
                                    ("typo.first50.csv", 50), ("exclamation.first50.csv", 50)])
def test_craftmd_mim_perturbed_files(name: str, n: int) -> None:
    path = _path(f"mim-craftmd-perturbed/{name}")
    cases = load_cases(DataSource(format="craftmd", path=str(path)))
    assert len(cases) == n
    c0 = cases[0]
    assert (c0.case_id, c0.source_row) == ("case_1", 1)
    assert c0.fields["case_type"] == "ungendered"
    assert c0.fields["choices"][3] == "Acute contact dermatitis" and c0.fields["answer_letter"] == "D"
    # the index columns of the published files are not case fields
    assert not any(k.startswith(("Unnamed", "column_")) for k in c0.fields)


def test_craftmd_text_is_byte_exact() -> None:
    import csv

    path = _path("mim-craftmd-perturbed/whitespace.first50.csv")
    with open(path, encoding="utf-8", newline="") as f:
        raw = [r["case_vignette"] for r in csv.DictReader(f)]
    cases = load_cases(DataSource(format="craftmd", path=str(path)))
    assert [c.text for c in cases] == raw


def test_medperturb() -> None:
    path = _path("medperturb/data.csv")
    cases = load_cases(DataSource(format="medperturb", path=str(path)))
    assert len(cases) == 800
    c0 = cases[0]
    assert (c0.case_id, c0.source_row, c0.dataset) == ("askadoc:N75:1", 1, "medperturb")
    assert c0.text.startswith("Why do I not bruise Hi there, I'm a 19 year old white female.")
    f = c0.fields
    assert (f["dataset"], f["dataset_id"], f["context_id"], f["pair_id"], f["arm"]) == (
        "askadoc", 1, "N75", "askadoc:N75", "baseline")
    assert f["original_patient_gender"] == "F"
    assert f["clinician_labels"] == {"MANAGE": [1, 1, 1], "VISIT": [0, 0, 0], "RESOURCE": [0, 0, 0]}
    assert f["clinician_majority"] == {"MANAGE": 1, "VISIT": 0, "RESOURCE": 0}
    assert f["clinician_ids"] == [579547, 579918, 587164]
    assert f["clinician_durations_s"] == [30.915, 63.497, 35.571]
    assert f["model_labels"] == {
        "GPT4": {"MANAGE": 0, "VISIT": 0, "RESOURCE": 1},
        "LLAMA3": {"MANAGE": 0, "VISIT": 0, "RESOURCE": 1},
        "LLAMA3-70": {"MANAGE": 1, "VISIT": 0, "RESOURCE": 1},
        "PALMYRA-MED": {"MANAGE": 1, "VISIT": 1, "RESOURCE": 1},
    }
    assert cases[1].fields["clinician_majority"] == {"MANAGE": 1, "VISIT": 0, "RESOURCE": 0}
    ids = [c.case_id for c in cases]
    assert len(set(ids)) == 800
    # the published file has conversational:211:2 twice; both get their Index appended
    assert "conversational:211:2#570" in ids and "conversational:211:2#582" in ids
    assert "conversational:211:2" not in ids
    arms = {(c.fields["dataset"], c.fields["arm"]) for c in cases}
    assert ("conversational", "summarized") in arms and ("oncqa", "colorful") in arms


def test_medperturb_filters_and_overrides() -> None:
    path = str(_path("medperturb/data.csv"))
    onc = load_cases(DataSource(format="medperturb", path=path, options={"datasets": ["oncqa"], "dataset_ids": [1, 2]}))
    assert len(onc) == 100 and {c.fields["dataset_id"] for c in onc} == {1, 2}
    fixed = load_cases(DataSource(format="medperturb", path=path, options={"context_id_overrides": {570: "1017"}}))
    by_id = {c.case_id: c for c in fixed}
    assert "conversational:211:2" in by_id and "conversational:1017:2" in by_id
    assert by_id["conversational:1017:2"].fields["context_id_published"] == "211"
