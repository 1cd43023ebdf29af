"""P4's cohorts and 57 tasks on small hand-written MIMIC-III tables: every count below is worked out by hand."""

from __future__ import annotations

import gzip
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.errors import InputError
from clinaudit.families.hurtful_words.mimic_phenotypes import phenotype_labels, task_definitions
from clinaudit.families.hurtful_words.mimic_tasks import TaskOptions, build_mimic_tasks
from clinaudit.families.hurtful_words.synth_mimic import TABLE_COLUMNS

T0 = pd.Timestamp("2100-01-01 00:00:00")


def _t(hours: float, base: pd.Timestamp = T0) -> str:
    return str(base + pd.Timedelta(hours=hours))


class Mimic:
    """Builds the five tables row by row (unused MIMIC columns left empty)."""

    def __init__(self):
        self.rows: dict[str, list[dict]] = {t: [] for t in TABLE_COLUMNS}

    def add(self, table: str, **kw):
        kw = {k.upper(): v for k, v in kw.items()}
        kw.setdefault("ROW_ID", len(self.rows[table]) + 1)
        self.rows[table].append(kw)

    def patient(self, sid, gender, dob="2050-01-01 00:00:00", dod=""):
        self.add("PATIENTS", subject_id=sid, gender=gender, dob=dob, dod=dod)

    def admission(self, sid, hid, admit, disch, death="", insurance="Medicare", language="ENGL", ethnicity="WHITE"):
        self.add("ADMISSIONS", subject_id=sid, hadm_id=hid, admittime=admit, dischtime=disch, deathtime=death,
                 insurance=insurance, language=language, ethnicity=ethnicity)

    def stay(self, sid, hid, icu, intime, hours, unit=("MICU", "MICU")):
        self.add("ICUSTAYS", subject_id=sid, hadm_id=hid, icustay_id=icu, first_careunit=unit[0],
                 last_careunit=unit[1], first_wardid=7, last_wardid=7, intime=intime,
                 outtime=str(pd.Timestamp(intime) + pd.Timedelta(hours=hours)), los=hours / 24)

    def note(self, row_id, sid, hid, category, charttime="", chartdate="", text="Pt stable. Plan unchanged.",
             iserror=""):
        chartdate = chartdate or charttime[:10]
        self.add("NOTEEVENTS", row_id=row_id, subject_id=sid, hadm_id=hid, chartdate=chartdate, charttime=charttime,
                 category=category, iserror=iserror, text=text)

    def dx(self, sid, hid, *codes):
        for c in codes:
            self.add("DIAGNOSES_ICD", subject_id=sid, hadm_id=hid, icd9_code=c)

    def write(self, folder: Path, *, gz: bool = False, lower: bool = False) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        for table, cols in TABLE_COLUMNS.items():
            df = pd.DataFrame(self.rows[table], columns=cols)
            if lower:
                df.columns = [c.lower() for c in df.columns]
            name = (table.lower() if lower else table) + ".csv"
            if gz:
                with gzip.open(folder / (name + ".gz"), "wt", encoding="utf-8", newline="") as fh:
                    df.to_csv(fh, index=False)
            else:
                df.to_csv(folder / name, index=False)
        return folder


def scenario() -> Mimic:
    m = Mimic()
    # 1: the window edges, note types, error and pre-stay notes, discharge summary; died in hospital
    m.patient(1, "M")
    m.admission(1, 11, _t(-5), _t(24 * 5), death=_t(24 * 5), insurance="Medicaid", language="SPAN",
                ethnicity="HISPANIC OR LATINO")
    m.stay(1, 11, 101, _t(0), 96)
    m.note(1, 1, 11, "Nursing/other", _t(-1))            # before INTIME: never
    m.note(2, 1, 11, "Nursing/other", _t(1))
    m.note(3, 1, 11, "Physician ", _t(10))                # MIMIC's trailing space
    m.note(4, 1, 11, "Nursing/other", _t(48))             # exactly 48 h: in
    m.note(5, 1, 11, "Nursing/other", _t(48 + 1 / 60))    # 48 h + 1 min: out of the first 48 h
    m.note(6, 1, 11, "Radiology", _t(2))                  # not a used type
    m.note(7, 1, 11, "Nursing", _t(0.5), iserror="1")     # error note: never (else it would be PF's first note)
    m.note(8, 1, 11, "Discharge summary", chartdate="2100-01-06")
    m.note(9, 1, 11, "Physician ", _t(72))
    m.note(10, 1, 11, "Nursing/other", _t(98))            # after OUTTIME
    m.dx(1, 11, "0389", "4019", "V1582")                  # septicemia (acute), hypertension (chronic), other
    # 2: 36 h stay (not in mortality); only Nursing/other notes: PF falls back to the earliest of them
    m.patient(2, "F")
    m.admission(2, 21, _t(-2), _t(60), insurance="Self Pay", language="", ethnicity="UNKNOWN/NOT SPECIFIED")
    m.stay(2, 21, 201, _t(0), 36)
    m.note(11, 2, 21, "Nursing/other", _t(30))
    m.note(12, 2, 21, "Nursing/other", _t(2))
    m.dx(2, 21, "V1582")
    # 3: care-unit transfer; 4: two ICU stays in one admission; 5: a child
    m.patient(3, "M")
    m.admission(3, 31, _t(0), _t(100))
    m.stay(3, 31, 301, _t(1), 60, unit=("MICU", "SICU"))
    m.note(13, 3, 31, "Nursing/other", _t(2))
    m.patient(4, "F")
    m.admission(4, 41, _t(0), _t(300))
    m.stay(4, 41, 401, _t(1), 60)
    m.stay(4, 41, 402, _t(100), 60)
    m.note(14, 4, 41, "Nursing/other", _t(2))
    m.patient(5, "M", dob="2090-01-01 00:00:00")
    m.admission(5, 51, _t(0), _t(100))
    m.stay(5, 51, 501, _t(1), 60)
    m.note(15, 5, 51, "Nursing/other", _t(2))
    # 6: no note in the first 48 h (mortality and PF drop it), a late one and a discharge summary (PA keeps it)
    m.patient(6, "F")
    m.admission(6, 61, _t(-3), _t(90), ethnicity="BLACK/AFRICAN AMERICAN", insurance="Private")
    m.stay(6, 61, 601, _t(0), 72)
    m.note(16, 6, 61, "Nursing/other", _t(50))
    m.note(17, 6, 61, "Discharge summary", chartdate="2100-01-04")
    m.dx(6, 61, "41401")
    # 7: a stay of exactly 48 h (kept); died by PATIENTS.DOD only; PF prefers the later Nursing note
    m.patient(7, "M", dod="2100-01-02 00:00:00")
    m.admission(7, 71, _t(-1), _t(49), ethnicity="ASIAN - CHINESE")
    m.stay(7, 71, 701, _t(0), 48)
    m.note(18, 7, 71, "Nursing/other", _t(1))
    m.note(19, 7, 71, "Nursing", _t(47))
    m.note(20, 7, 71, "Nursing/other", "", chartdate="2100-01-01")  # no CHARTTIME: not in any time window
    m.dx(7, 71, "51881")
    # 8: an outpatient note (no HADM_ID) of patient 1's subject
    m.note(21, 1, "", "Radiology", _t(-400))
    return m


@pytest.fixture(scope="module")
def res(tmp_path_factory):
    folder = scenario().write(tmp_path_factory.mktemp("mimic"))
    return build_mimic_tasks(folder, options=TaskOptions(valid_fraction=0.0, test_fraction=0.0))


def _notes(df: pd.DataFrame, icu: int) -> list[int]:
    return [int(x) for x in df.loc[df["icustay_id"] == icu, "note_ids"].iloc[0].split()]


def test_stay_exclusions_with_reasons(res):
    ex = res.exclusions
    stays = ex[(ex["cohort"] == "all") & (ex["level"] == "icustay")].set_index("icustay_id")["reason"]
    assert set(stays.index) == {301, 401, 402, 501}
    assert "transfer" in stays[301] and "more than one ICU stay" in stays[401] and "under 18" in stays[501]
    mort = ex[ex["cohort"] == "inhosp_mort"].set_index("icustay_id")["reason"]
    assert mort.to_dict() == {201: "ICU stay shorter than 48 h",
                              601: "no Nursing, Nursing/other or Physician note in the first 48 h"}
    assert ex[ex["cohort"] == "phenotype_first"]["icustay_id"].tolist() == [601]
    notes = ex[ex["level"] == "note"].set_index("reason")["n"]
    assert notes["ISERROR = 1"] == 1 and notes["outpatient note (no HADM_ID)"] == 1
    assert notes["note category not used"] == 1 and notes["admission not in the cohort"] == 3  # 6; 13, 14, 15


def test_mortality_window_edges_and_labels(res):
    m = res.tables["inhosp_mort"]
    assert sorted(m["icustay_id"]) == [101, 701]
    assert _notes(m, 101) == [2, 3, 4]  # not 1 (before INTIME), 5 (48 h + 1 min), 6 (Radiology), 7 (error)
    assert _notes(m, 701) == [18, 19]  # 20 has no CHARTTIME
    assert m.set_index("icustay_id")["Inhosp Mort"].to_dict() == {101: 1, 701: 1}  # DEATHTIME; DOD only
    row = m.set_index("icustay_id").loc[101]
    assert (row["gender"], row["language_group"], row["ethnicity_group"], row["insurance_group"]) == \
        ("M", "Other", "Hispanic", "Medicaid")
    assert row["text"].count("Pt stable.") == 3 and row["n_sequences"] == 3


def test_phenotype_all_notes_and_labels(res):
    pa = res.tables["phenotype_all"]
    assert sorted(pa["icustay_id"]) == [101, 201, 601, 701]
    assert _notes(pa, 101) == [2, 3, 4, 5, 9, 8]  # discharge summary last (end of its CHARTDATE); not 1, 10
    assert _notes(pa, 601) == [16, 17]  # 16 at 2100-01-03 02:00, summary at the end of 2100-01-04
    lab = pa.set_index("icustay_id")
    assert lab.loc[101, ["PA Septicemia", "PA Hypertension", "PA Acute", "PA Chronic", "PA Disease"]].tolist() == \
        [1, 1, 1, 1, 1]
    assert lab.loc[101, "PA Shock"] == 0 and lab.loc[101, "PA Atherosclerosis"] == 0
    assert lab.loc[201, ["PA Acute", "PA Chronic", "PA Disease"]].tolist() == [0, 0, 0]
    assert lab.loc[601, ["PA Atherosclerosis", "PA Acute", "PA Chronic", "PA Disease"]].tolist() == [1, 0, 1, 1]
    assert lab.loc[701, ["PA Resp Failure", "PA Acute", "PA Chronic", "PA Disease"]].tolist() == [1, 1, 0, 1]
    assert lab.loc[201, "insurance_group"] != lab.loc[201, "insurance_group"]  # Self Pay → missing (NaN)
    assert lab.loc[201, "insurance"] == "Self Pay"


def test_phenotype_first_note_rules_and_fallback(res):
    pf = res.tables["phenotype_first"].set_index("icustay_id")
    assert sorted(pf.index) == [101, 201, 701]
    assert pf.loc[101, "note_ids"] == "3" and pf.loc[101, "note_rule"] == "Nursing or Physician"
    assert pf.loc[201, "note_ids"] == "12" and pf.loc[201, "note_rule"] == "Nursing/other (fallback)"
    assert pf.loc[701, "note_ids"] == "19"  # the Nursing note at 47 h beats the earlier Nursing/other note
    assert (pf["n_notes"] == 1).all()
    assert pf.loc[101, "PF Septicemia"] == 1 and pf.loc[201, "PF Disease"] == 0


def test_task_index_counts(res):
    t = res.tasks.set_index("task")
    assert len(t) == 57 and len(task_definitions()) == 57
    assert (t.loc["Inhosp Mort", "n"], t.loc["Inhosp Mort", "n_pos"]) == (2, 2)
    assert (t.loc["PA Disease", "n"], t.loc["PA Disease", "n_pos"]) == (4, 3)
    assert (t.loc["PF Disease", "n"], t.loc["PF Disease", "n_pos"]) == (3, 2)
    assert (t.loc["PA Chronic", "n_pos"], t.loc["PA Acute", "n_pos"]) == (2, 2)
    long = res.labels_long()
    assert len(long) == 2 * 1 + 4 * 28 + 3 * 28
    assert set(long["task"]) == set(t.index)


def test_or_tasks_from_codes():
    labels = phenotype_labels(["428.0", "V1582"])  # heart failure (acute in the benchmark's definitions)
    assert labels["Heart Failure"] == 1 and labels["Acute"] == 1 and labels["Chronic"] == 0 and labels["Disease"] == 1
    labels = phenotype_labels(["5849", "41401"])
    assert labels["Acute Renal"] == labels["Atherosclerosis"] == labels["Acute"] == labels["Chronic"] == 1
    assert sum(phenotype_labels([]).values()) == 0


def test_aggregation_takes_newest_notes_that_fit(tmp_path):
    m = Mimic()
    m.patient(1, "F")
    m.admission(1, 11, _t(-1), _t(100))
    m.stay(1, 11, 101, _t(0), 60)
    m.note(1, 1, 11, "Nursing/other", _t(1), text=" ".join(["w"] * 8))   # 2 windows of 4
    m.note(2, 1, 11, "Nursing/other", _t(2), text=" ".join(["w"] * 12))  # 3 windows
    m.note(3, 1, 11, "Nursing/other", _t(3), text=" ".join(["w"] * 4))   # 1 window
    folder = m.write(tmp_path / "t")
    four = build_mimic_tasks(folder, options=TaskOptions(window=4, stride=4, max_sequences=4))
    assert _notes(four.tables["inhosp_mort"], 101) == [2, 3]  # newest first: 3 (1), 2 (+3 = 4), 1 would make 6
    three = build_mimic_tasks(folder, options=TaskOptions(window=4, stride=4, max_sequences=3))
    assert _notes(three.tables["inhosp_mort"], 101) == [1, 3]  # 2 does not fit (1 + 3 > 3); 1 still does
    assert three.tables["inhosp_mort"]["n_sequences"].tolist() == [3]


def test_gzip_and_lower_case_tables_give_the_same_result(tmp_path, res):
    folder = scenario().write(tmp_path / "gz", gz=True, lower=True)
    other = build_mimic_tasks(folder, options=TaskOptions(valid_fraction=0.0, test_fraction=0.0))
    for name, df in res.tables.items():
        pd.testing.assert_frame_equal(df, other.tables[name])


def test_bad_input_names_file_row_and_field(tmp_path):
    m = scenario()
    m.rows["ICUSTAYS"][2]["INTIME"] = "2100-13-45 99:00"
    folder = m.write(tmp_path / "bad")
    with pytest.raises(InputError) as e:
        build_mimic_tasks(folder)
    assert e.value.file.endswith("ICUSTAYS.csv") and e.value.row == 3 and e.value.field == "INTIME"
    m = scenario()
    m.rows["PATIENTS"][1]["GENDER"] = "X"
    with pytest.raises(InputError) as e:
        build_mimic_tasks(m.write(tmp_path / "bad2"))
    assert e.value.file.endswith("PATIENTS.csv") and e.value.row == 2 and e.value.field == "GENDER"
    m = scenario()
    m.rows["NOTEEVENTS"][4]["HADM_ID"] = "abc"
    with pytest.raises(InputError) as e:
        build_mimic_tasks(m.write(tmp_path / "bad3"))
    assert e.value.file.endswith("NOTEEVENTS.csv") and e.value.row == 5 and e.value.field == "HADM_ID"
    m = scenario()
    m.rows["NOTEEVENTS"][5]["ROW_ID"] = 2
    with pytest.raises(InputError) as e:
        build_mimic_tasks(m.write(tmp_path / "dup"))
    assert e.value.row == 6 and e.value.field == "ROW_ID" and "rows 2 and 6" in str(e.value)
    m = scenario()
    m.rows["NOTEEVENTS"][1]["SUBJECT_ID"] = 2  # note of admission 11 (patient 1) says patient 2
    with pytest.raises(InputError) as e:
        build_mimic_tasks(m.write(tmp_path / "owner"))
    assert e.value.row == 2 and e.value.field == "SUBJECT_ID" and "belongs to subject 1" in str(e.value)
    folder = scenario().write(tmp_path / "bad4")
    (folder / "DIAGNOSES_ICD.csv").write_text("ROW_ID,SUBJECT_ID,HADM_ID\n1,1,11\n")
    with pytest.raises(InputError) as e:
        build_mimic_tasks(folder)
    assert e.value.field == "ICD9_CODE"
    (folder / "DIAGNOSES_ICD.csv").unlink()
    with pytest.raises(InputError, match="DIAGNOSES_ICD"):
        build_mimic_tasks(folder)


def test_task_order_and_names_follow_table_1():
    names = [t.name for t in task_definitions()]
    table1 = ["Acute Renal", "Cerebrovascular", "Myocardial", "Dysrhythmias", "Chronic Kidney", "COPD",
              "Comp. Surgical", "Conduction", "Heart Failure", "Atherosclerosis", "Diabetes Comp", "Diabetes No Comp",
              "Lipid Metabolism", "Hypertension", "Fluid Disorder", "GI Hemorrhage", "Hypertension Comp",
              "Other Liver", "Lower Resp", "Upper Resp", "Pleurisy", "Pneumonia", "Resp Failure", "Septicemia",
              "Shock", "Chronic", "Acute", "Disease"]
    assert names == ["Inhosp Mort"] + [f"PA {n}" for n in table1] + [f"PF {n}" for n in table1]
