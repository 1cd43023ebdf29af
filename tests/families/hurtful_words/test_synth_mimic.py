"""``clinaudit synth-mimic``: schema, determinism per seed, structure and the planted effects (recomputed here)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.families.hurtful_words.mimic_phenotypes import load_phenotype_groups, task_definitions
from clinaudit.families.hurtful_words.synth_mimic import PLANTED_EFFECTS, TABLE_COLUMNS, synth_mimic
from clinaudit.loaders.base import DataSource
from clinaudit.loaders.mimic import load_mimic3

TABLES = ["PATIENTS", "ADMISSIONS", "ICUSTAYS", "DIAGNOSES_ICD", "NOTEEVENTS"]


@pytest.fixture(scope="module")
def synth(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("synth")
    synth_mimic(out, n_patients=600, seed=7)
    return out


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _read(folder: Path, table: str) -> pd.DataFrame:
    return pd.read_csv(folder / f"{table}.csv", keep_default_na=False, dtype=str)


def test_schema_is_mimic_iii(synth: Path):
    for table in TABLES:
        df = _read(synth, table)
        assert list(df.columns) == TABLE_COLUMNS[table]
    notes = _read(synth, "NOTEEVENTS")
    cats = set(notes["CATEGORY"])
    assert {"Nursing/other", "Nursing", "Physician ", "Discharge summary", "Radiology", "ECG"} <= cats
    ds = notes[notes["CATEGORY"] == "Discharge summary"]
    assert (ds["CHARTTIME"] == "").all() and (ds["CHARTDATE"] != "").all()  # as in MIMIC: date only
    assert (notes["HADM_ID"] == "").any() and (notes["ISERROR"] == "1").any()
    assert notes[notes["CATEGORY"] == "Nursing/other"]["TEXT"].str.contains("[**", regex=False).all()
    # every code written is an ICD-9 code; the 25 groups' codes come from the shipped definitions
    dx = _read(synth, "DIAGNOSES_ICD")
    known = {c for g in load_phenotype_groups().values() for c in g.codes}
    assert dx["ICD9_CODE"].isin(known).mean() > 0.5
    # the existing mimic3 loader reads the generated folder
    cases = load_mimic3(DataSource(format="mimic3", path=str(synth)), synth)
    assert len(cases) == (notes["HADM_ID"] != "").sum() - ((notes["ISERROR"] == "1") & (notes["HADM_ID"] != "")).sum()


def test_deterministic_per_seed_and_different_across_seeds(tmp_path: Path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    synth_mimic(a, 40, seed=1)
    synth_mimic(b, 40, seed=1)
    synth_mimic(c, 40, seed=2)
    assert _digest(a) == _digest(b)
    assert _digest(a)["NOTEEVENTS.csv"] != _digest(c)["NOTEEVENTS.csv"]
    # gzip output is byte-identical too (mtime 0) and holds the same CSV
    synth_mimic(tmp_path / "g1", 40, seed=1, compress=True)
    synth_mimic(tmp_path / "g2", 40, seed=1, compress=True)
    assert _digest(tmp_path / "g1") == _digest(tmp_path / "g2")
    assert pd.read_csv(tmp_path / "g1" / "NOTEEVENTS.csv.gz").equals(pd.read_csv(a / "NOTEEVENTS.csv"))


def test_cohort_structure_is_there(synth: Path):
    stays = _read(synth, "ICUSTAYS")
    per_adm = stays.groupby("HADM_ID").size()
    assert (per_adm == 1).mean() > 0.8 and (per_adm == 2).any()  # two-stay admissions exist
    assert (stays["FIRST_CAREUNIT"] != stays["LAST_CAREUNIT"]).any()  # transfers exist
    los_h = stays["LOS"].astype(float) * 24
    assert (los_h < 48).any() and (los_h >= 48).any()
    notes = _read(synth, "NOTEEVENTS")
    merged = notes[notes["CHARTTIME"] != ""].merge(stays, on=["SUBJECT_ID", "HADM_ID"])
    dt = pd.to_datetime(merged["CHARTTIME"]) - pd.to_datetime(merged["INTIME"])
    assert (dt == pd.Timedelta(hours=48)).sum() >= 10
    assert (dt == pd.Timedelta(hours=48, minutes=1)).sum() >= 10
    pats = _read(synth, "PATIENTS")
    adm = _read(synth, "ADMISSIONS").merge(pats, on="SUBJECT_ID")
    age = (pd.to_datetime(adm["ADMITTIME"]).dt.year - pd.to_datetime(adm["DOB"]).dt.year)
    assert (age < 18).any() and (age > 250).any()  # children and MIMIC's shifted >89 birth dates
    meta = json.loads((synth / "synth_mimic.json").read_text())
    assert meta["seed"] == 7 and meta["counts"]["PATIENTS"] == 600 and meta["planted_effects"] == PLANTED_EFFECTS
    assert len(task_definitions()) == 57


def test_planted_effects_are_present(synth: Path):
    """Recomputed from the written tables with pandas: prevalence, documentation and marker effects."""
    groups = {g.abbrev: g.codes for g in load_phenotype_groups().values()}
    pats, adm = _read(synth, "PATIENTS"), _read(synth, "ADMISSIONS")
    dx, notes = _read(synth, "DIAGNOSES_ICD"), _read(synth, "NOTEEVENTS")
    adm = adm.merge(pats[["SUBJECT_ID", "GENDER"]], on="SUBJECT_ID")
    ath = set(dx.loc[dx["ICD9_CODE"].isin(groups["Atherosclerosis"]), "HADM_ID"])
    adm["ath"] = adm["HADM_ID"].isin(ath)
    prev = adm.groupby("GENDER")["ath"].mean()
    assert prev["M"] - prev["F"] > 0.08  # planted odds ratio 2 for men (base 0.33)

    # documentation: share of atherosclerosis admissions whose nursing notes mention it, by gender
    nn = notes[(notes["CATEGORY"] == "Nursing/other") & notes["HADM_ID"].isin(ath)].merge(
        adm[["HADM_ID", "GENDER"]], on="HADM_ID")
    mention = nn["TEXT"].str.contains("coronary artery disease", regex=False).groupby(nn["GENDER"]).mean()
    assert mention["M"] > 0.8 and mention["F"] < 0.45  # planted 0.9 vs 0.35

    # markers: pronouns reveal gender in every nursing note; 'interpreter' etc. only for non-English speakers
    nn = notes[notes["CATEGORY"] == "Nursing/other"].merge(adm[["HADM_ID", "GENDER", "LANGUAGE"]], on="HADM_ID")
    assert nn.loc[nn["GENDER"] == "F", "TEXT"].str.startswith("Ms. ").all()
    assert nn.loc[nn["GENDER"] == "M", "TEXT"].str.startswith("Mr. ").all()
    marker = nn["TEXT"].str.contains("interpreter|non-English speaking|family translating", regex=True)
    other = (nn["LANGUAGE"] != "ENGL") & (nn["LANGUAGE"] != "")
    assert not marker[~other].any() and 0.55 < marker[other].mean() < 0.85

    # mortality: the Medicaid odds ratio and the under-documented poor prognosis of Black patients
    died = adm["HOSPITAL_EXPIRE_FLAG"] == "1"
    assert 0.04 < died.mean() < 0.3
    dying = notes[notes["HADM_ID"].isin(set(adm.loc[died, "HADM_ID"])) & (notes["CATEGORY"] == "Nursing/other")]
    dying = dying.merge(adm[["HADM_ID", "ETHNICITY"]], on="HADM_ID")
    said = dying["TEXT"].str.contains("comfort measures", regex=False)
    black = dying["ETHNICITY"].str.startswith("BLACK")
    assert said[~black].mean() > 0.7
    if black.sum() >= 5:
        assert said[black].mean() < 0.5


def test_cli_writes_the_tables(tmp_path: Path, capsys):
    from clinaudit.cli.main import main

    assert main(["synth-mimic", "--out", str(tmp_path / "o"), "--patients", "5", "--seed", "4"]) == 0
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == sorted([f"{t}.csv" for t in TABLES]
                                                                         + ["synth_mimic.json"])
    out = capsys.readouterr().out
    assert "PATIENTS" in out and "5 rows" in out
    with pytest.raises(SystemExit):
        main(["synth-mimic", "--out", str(tmp_path / "x"), "--patients", "0"])


@pytest.mark.slow
def test_planted_mortality_odds_ratio_for_medicaid(tmp_path: Path):
    """The Medicaid odds ratio (1.8) shows in a large synthetic cohort (recomputed from the tables).

    Medicaid patients are younger (insurance depends on age), so the comparison is within patients
    aged 18-64 at admission, where age matters less than the planted odds ratio.
    """
    synth_mimic(tmp_path, n_patients=4000, seed=5)
    adm = _read(tmp_path, "ADMISSIONS").merge(_read(tmp_path, "PATIENTS")[["SUBJECT_ID", "DOB"]], on="SUBJECT_ID")
    adm = adm.groupby("SUBJECT_ID").tail(1)  # deaths are planted on a patient's last admission
    age = (pd.to_datetime(adm["ADMITTIME"]) - pd.to_datetime(adm["DOB"])).dt.days / 365.25
    adm = adm[(age >= 18) & (age < 64)]
    died = adm["HOSPITAL_EXPIRE_FLAG"] == "1"
    medicaid = adm["INSURANCE"] == "Medicaid"
    p1, p0 = died[medicaid].mean(), died[~medicaid].mean()
    assert (p1 / (1 - p1)) / (p0 / (1 - p0)) > 1.2
