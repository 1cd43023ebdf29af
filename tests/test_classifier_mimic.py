"""Tests of the MIMIC-III loader (format ``mimic3``) on small synthetic files in MIMIC's schema."""

from __future__ import annotations

import csv
import gzip
from datetime import datetime
from pathlib import Path

import pytest

from clinaudit.errors import InputError
from clinaudit.loaders.base import DataSource, list_loaders, load_cases
from clinaudit.loaders.mimic import ethnicity_group, language_group

NOTE_HEADER = ["ROW_ID", "SUBJECT_ID", "HADM_ID", "CHARTDATE", "CHARTTIME", "STORETIME", "CATEGORY", "DESCRIPTION",
               "CGID", "ISERROR", "TEXT"]
ADM_HEADER = ["ROW_ID", "SUBJECT_ID", "HADM_ID", "ADMITTIME", "DISCHTIME", "DEATHTIME", "ADMISSION_TYPE",
              "ADMISSION_LOCATION", "DISCHARGE_LOCATION", "INSURANCE", "LANGUAGE", "RELIGION", "MARITAL_STATUS",
              "ETHNICITY", "EDREGTIME", "EDOUTTIME", "DIAGNOSIS", "HOSPITAL_EXPIRE_FLAG", "HAS_CHARTEVENTS_DATA"]
PAT_HEADER = ["ROW_ID", "SUBJECT_ID", "GENDER", "DOB", "DOD", "DOD_HOSP", "DOD_SSN", "EXPIRE_FLAG"]

NOTES = [
    [1, 10, 100, "2150-01-05", "", "", "Discharge summary", "Report", "", "", "Admission Date: ...\nHTN, on lisinopril."],
    [2, 10, 100, "2150-01-03", "2150-01-03 10:00:00", "", "Nursing", "Nursing Progress Note", "17", "",
     "Pt resting comfortably."],
    [3, 11, 101, "2160-06-02", "", "", "Discharge summary", "Report", "", "", "Elderly pt, \"quoted\", multi\nline"],
    [4, 12, "", "2170-01-01", "", "", "Echo", "Report", "", "", "Outpatient echo."],  # no admission: dropped
    [5, 13, 103, "2180-03-03", "", "", "Discharge summary", "Report", "", "1", "Error note."],  # ISERROR: dropped
    [6, 14, 104, "2190-04-04", "", "", "Discharge summary", "Report", "", "", "Unknown ethnicity pt."],
]
ADMS = [
    [1, 10, 100, "2150-01-01 12:00:00", "2150-01-06 10:00:00", "", "EMERGENCY", "", "", "Medicare", "ENGL", "", "",
     "WHITE - RUSSIAN", "", "", "CHEST PAIN", 0, 1],
    [2, 11, 101, "2160-06-01 08:00:00", "2160-06-03 10:00:00", "", "EMERGENCY", "", "", "Medicaid", "SPAN", "", "",
     "HISPANIC OR LATINO", "", "", "FALL", 0, 1],
    [3, 13, 103, "2180-03-01 00:00:00", "", "", "ELECTIVE", "", "", "Private", "", "", "", "BLACK/AFRICAN AMERICAN",
     "", "", "", 0, 1],
    [4, 14, 104, "2190-04-01 00:00:00", "", "", "URGENT", "", "", "Government", "ENGL", "", "",
     "UNKNOWN/NOT SPECIFIED", "", "", "", 0, 1],
]
PATS = [
    [1, 10, "M", "2090-01-01 00:00:00", "", "", "", 0],  # 60 at admission
    [2, 11, "F", "1860-06-01 00:00:00", "", "", "", 0],  # shifted >89: computed 300 -> capped at 90
    [3, 12, "F", "2140-01-01 00:00:00", "", "", "", 0],
    [4, 13, "M", "2150-01-01 00:00:00", "", "", "", 0],
    [5, 14, "F", "2150-04-01 00:00:00", "", "", "", 0],
]


def _write(path: Path, header: list[str], rows: list[list], gz: bool = False, lower: bool = False) -> Path:
    opener = gzip.open if gz else open
    with opener(path, "wt", encoding="utf-8", newline="") as fh:  # type: ignore[operator]
        w = csv.writer(fh, quoting=csv.QUOTE_MINIMAL)
        w.writerow([h.lower() for h in header] if lower else header)
        w.writerows(rows)
    return path


@pytest.fixture()
def mimic_dir(tmp_path: Path) -> Path:
    _write(tmp_path / "NOTEEVENTS.csv", NOTE_HEADER, NOTES)
    _write(tmp_path / "ADMISSIONS.csv", ADM_HEADER, ADMS)
    _write(tmp_path / "PATIENTS.csv", PAT_HEADER, PATS)
    return tmp_path


def test_registered():
    assert "mimic3" in list_loaders()


def test_join_demographics_and_filters(mimic_dir: Path):
    cases = load_cases(DataSource(format="mimic3", path=str(mimic_dir)))
    assert [c.case_id for c in cases] == ["1", "2", "3", "6"]
    by = {c.case_id: c for c in cases}
    f = by["1"].fields
    assert by["1"].text == "Admission Date: ...\nHTN, on lisinopril."
    assert (f["subject_id"], f["hadm_id"], f["category"], f["gender"], f["sex"]) == (10, 100, "Discharge summary",
                                                                                     "M", "male")
    assert (f["ethnicity"], f["ethnicity_group"]) == ("WHITE - RUSSIAN", "White")
    assert (f["insurance"], f["language"], f["language_group"]) == ("Medicare", "ENGL", "English")
    assert f["admittime"] == "2150-01-01 12:00:00"
    days = (datetime(2150, 1, 1, 12) - datetime(2090, 1, 1)).days  # 21914 (14 leap days; 2100 is not one)
    assert days == 60 * 365 + 14
    assert f["age"] == pytest.approx(days / 365.2425, abs=1e-12)
    assert by["3"].text == 'Elderly pt, "quoted", multi\nline'
    f3 = by["3"].fields
    assert f3["age"] == 90.0 and f3["ethnicity_group"] == "Hispanic" and f3["language_group"] == "Other"
    assert f3["sex"] == "female" and f3["insurance"] == "Medicaid"
    assert by["6"].fields["ethnicity_group"] is None and by["6"].fields["insurance"] == "Government"
    assert by["2"].source_row == 2 and by["2"].source.endswith("NOTEEVENTS.csv")


def test_options_categories_outpatient_errors(mimic_dir: Path):
    src = DataSource(format="mimic3", path=str(mimic_dir / "NOTEEVENTS.csv"),
                     options={"categories": ["discharge summary"], "include_error_notes": True})
    cases = load_cases(src)
    assert [c.case_id for c in cases] == ["1", "3", "5", "6"]
    cases = load_cases(DataSource(format="mimic3", path=str(mimic_dir), options={"require_admission": False}))
    out = {c.case_id: c for c in cases}["4"]
    assert out.fields["hadm_id"] is None and out.fields["sex"] == "female" and out.fields["age"] is None


def test_gzip_and_lowercase_headers(tmp_path: Path):
    _write(tmp_path / "NOTEEVENTS.csv.gz", NOTE_HEADER, NOTES, gz=True, lower=True)
    _write(tmp_path / "ADMISSIONS.csv.gz", ADM_HEADER, ADMS, gz=True)
    _write(tmp_path / "PATIENTS.csv.gz", PAT_HEADER, PATS, gz=True, lower=True)
    cases = load_cases(DataSource(format="mimic3", path=str(tmp_path), limit=2))
    assert [c.case_id for c in cases] == ["1", "2"]
    assert cases[0].fields["ethnicity_group"] == "White"


def test_labels_join(mimic_dir: Path):
    _write(mimic_dir / "labels.csv", ["HADM_ID", "mortality", "sepsis"], [[100, 0, 1], [101, 1, 0]])
    cases = load_cases(DataSource(format="mimic3", path=str(mimic_dir), options={"labels": "labels.csv"}))
    assert [c.case_id for c in cases] == ["1", "2", "3"]  # note 6 has no labels row
    assert cases[2].fields["mortality"] == "1" and cases[2].fields["sepsis"] == "0"


def test_unmatched_admission_error_and_skip(mimic_dir: Path):
    notes = NOTES + [[7, 15, 999, "2150-01-01", "", "", "Discharge summary", "Report", "", "", "Orphan."]]
    _write(mimic_dir / "NOTEEVENTS.csv", NOTE_HEADER, notes)
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="mimic3", path=str(mimic_dir)))
    assert ei.value.row == 7 and ei.value.field == "HADM_ID" and ei.value.file.endswith("NOTEEVENTS.csv")
    cases = load_cases(DataSource(format="mimic3", path=str(mimic_dir), options={"unmatched": "skip"}))
    assert "7" not in {c.case_id for c in cases}


@pytest.mark.parametrize(
    ("table", "header", "rows", "row", "field"),
    [
        ("PATIENTS.csv", PAT_HEADER, [[1, 10, "X", "2090-01-01", "", "", "", 0]], 1, "GENDER"),
        ("PATIENTS.csv", PAT_HEADER, [[1, 10, "M", "01/01/2090", "", "", "", 0]], 1, "DOB"),
        ("ADMISSIONS.csv", ADM_HEADER, [ADMS[0], [2] + ["abc"] + ADMS[1][2:]], 2, "SUBJECT_ID"),
        ("NOTEEVENTS.csv", NOTE_HEADER, [NOTES[0], NOTES[0]], 2, "ROW_ID"),
        ("NOTEEVENTS.csv", [h for h in NOTE_HEADER if h != "TEXT"], [NOTES[0][:-1]], None, "TEXT"),
    ],
)
def test_bad_input_names_file_row_field(mimic_dir: Path, table, header, rows, row, field):
    _write(mimic_dir / table, header, rows)
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="mimic3", path=str(mimic_dir)))
    assert ei.value.file.endswith(table) and ei.value.row == row and ei.value.field == field


def test_missing_tables_and_options(tmp_path: Path):
    _write(tmp_path / "NOTEEVENTS.csv", NOTE_HEADER, NOTES)
    with pytest.raises(InputError, match="ADMISSIONS"):
        load_cases(DataSource(format="mimic3", path=str(tmp_path)))
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="mimic3", path=str(tmp_path), options={"bogus": 1}))
    assert ei.value.field == "options.bogus"


def test_group_mappings():
    assert ethnicity_group("ASIAN - CHINESE") == "Asian"
    assert ethnicity_group("BLACK/CAPE VERDEAN") == "Black"
    assert ethnicity_group("HISPANIC/LATINO - PUERTO RICAN") == "Hispanic"
    assert ethnicity_group("PATIENT DECLINED TO ANSWER") is None
    assert ethnicity_group("UNABLE TO OBTAIN") is None
    assert ethnicity_group("MIDDLE EASTERN") == "Other"
    assert ethnicity_group("") is None
    # issue 28 item 7: P4's script matches the group word anywhere in the field, in its order of bases
    assert ethnicity_group("UNKNOWN/NOT SPECIFIED") is None and ethnicity_group("BLACK/AFRICAN AMERICAN") == "Black"
    assert ethnicity_group("HISPANIC OR LATINO") == "Hispanic" and ethnicity_group("PORTUGUESE") == "Other"
    assert ethnicity_group("MULTI RACE ETHNICITY/WHITE") == "White"  # not at the start: the prefix rule said Other
    assert ethnicity_group("ASIAN - OTHER") == "Other"  # OTHER precedes ASIAN in P4's list
    assert language_group("ENGL") == "English" and language_group("*ARM") == "Other" and language_group(None) is None
