"""MIMIC-III tables → the ICU-stay cohort of P4's tasks, with labels, attributes and patient-level splits.

P4 (§3.2) follows the MIMIC-III benchmark's cohort (Harutyunyan et al. 2019,
``mimic3benchmark``): ICU stays without a care-unit or ward transfer
(``FIRST_CAREUNIT == LAST_CAREUNIT`` and ``FIRST_WARDID == LAST_WARDID``),
admissions with exactly one such stay, patients 18 or older at ``INTIME``
(a negative age — MIMIC's shifted dates — counts as 90). In-hospital
mortality: ``DEATHTIME`` or the patient's ``DOD`` lies within
[``ADMITTIME``, ``DISCHTIME``]. Every dropped stay is listed with its reason
(:attr:`StayCohort.exclusions`).

Attributes (P4 §4.1, groupings of :mod:`clinaudit.loaders.mimic`): ``gender``
(M/F), ``language_group`` (English/Other; empty → missing), ``ethnicity_group``
(White, Black, Hispanic, Asian, Other; unknown/declined → missing),
``insurance_group`` (Medicare, Medicaid, Private; Government and Self Pay →
missing, as P4 drops them), the raw values beside them, and ``age`` at
``INTIME`` (capped at 90).

Splits (P4 §4.1): by patient, so no patient is in two splits. The patients of a
held-out test list (e.g. the benchmark's ``testset.csv``) are the test split —
exactly those; without a list, a seeded ``test_fraction`` of the patients.
Of the rest, a seeded ``valid_fraction`` (P4: 20 %) is the validation split.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...errors import InputError
from ...loaders.mimic import (ethnicity_group, find_mimic_table, insurance_group, iter_mimic_csv, language_group,
                              parse_mimic_datetime, parse_mimic_int)

__all__ = ["MimicTables", "StayCohort", "read_mimic_tables", "stay_cohort", "assign_splits", "read_subject_list",
           "ATTRIBUTE_COLUMNS", "TABLE_REQUIRED", "end_of_day"]

TABLE_REQUIRED: dict[str, list[str]] = {
    "PATIENTS": ["SUBJECT_ID", "GENDER", "DOB"],
    "ADMISSIONS": ["SUBJECT_ID", "HADM_ID", "ADMITTIME", "DISCHTIME", "DEATHTIME", "INSURANCE", "LANGUAGE",
                   "ETHNICITY"],
    "ICUSTAYS": ["SUBJECT_ID", "HADM_ID", "ICUSTAY_ID", "FIRST_CAREUNIT", "LAST_CAREUNIT", "FIRST_WARDID",
                 "LAST_WARDID", "INTIME", "OUTTIME"],
    "DIAGNOSES_ICD": ["SUBJECT_ID", "HADM_ID", "ICD9_CODE"],
    "NOTEEVENTS": ["ROW_ID", "SUBJECT_ID", "HADM_ID", "CHARTDATE", "CHARTTIME", "CATEGORY", "TEXT"],
}
ATTRIBUTE_COLUMNS = ["gender", "language", "language_group", "ethnicity", "ethnicity_group", "insurance",
                     "insurance_group", "age"]


@dataclass
class MimicTables:
    """The four structured tables, parsed and checked (notes are streamed separately)."""

    folder: Path
    paths: dict[str, Path]
    patients: pd.DataFrame
    admissions: pd.DataFrame
    icustays: pd.DataFrame
    diagnoses: pd.DataFrame
    encoding: str = "utf-8"


@dataclass
class StayCohort:
    """ICU stays kept (one row each, with labels and attributes) and every dropped stay with its reason."""

    stays: pd.DataFrame
    exclusions: pd.DataFrame


def _table(folder: Path, name: str) -> Path:
    p = find_mimic_table(folder, name)
    if p is None:
        raise InputError(f"no {name}.csv or {name}.csv.gz (upper or lower case) in the folder", file=str(folder))
    return p


def _text(v: str) -> str | None:
    return v.strip() or None


def read_mimic_tables(folder: str | Path, encoding: str = "utf-8") -> MimicTables:
    """Read PATIENTS, ADMISSIONS, ICUSTAYS and DIAGNOSES_ICD from ``folder`` (CSV or CSV.gz)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("not a folder (expected the MIMIC-III folder with the CSV tables)", file=str(folder))
    paths = {name: _table(folder, name) for name in TABLE_REQUIRED}

    p = paths["PATIENTS"]
    pats = []
    for row, r in iter_mimic_csv(p, encoding, TABLE_REQUIRED["PATIENTS"]):
        g = r["GENDER"].strip().upper()
        if g not in ("M", "F"):
            raise InputError(f"expected M or F, got {r['GENDER']!r}", file=str(p), row=row, field="GENDER")
        pats.append({"subject_id": parse_mimic_int(r["SUBJECT_ID"], p, row, "SUBJECT_ID"), "gender": g,
                     "dob": parse_mimic_datetime(r["DOB"], p, row, "DOB"),
                     "dod": parse_mimic_datetime(r.get("DOD", ""), p, row, "DOD")})
    patients = pd.DataFrame(pats, columns=["subject_id", "gender", "dob", "dod"])
    _unique(patients, "subject_id", p)

    p = paths["ADMISSIONS"]
    adms = []
    for row, r in iter_mimic_csv(p, encoding, TABLE_REQUIRED["ADMISSIONS"]):
        adms.append({"hadm_id": parse_mimic_int(r["HADM_ID"], p, row, "HADM_ID"),
                     "subject_id": parse_mimic_int(r["SUBJECT_ID"], p, row, "SUBJECT_ID"),
                     "admittime": parse_mimic_datetime(r["ADMITTIME"], p, row, "ADMITTIME"),
                     "dischtime": parse_mimic_datetime(r["DISCHTIME"], p, row, "DISCHTIME"),
                     "deathtime": parse_mimic_datetime(r["DEATHTIME"], p, row, "DEATHTIME"),
                     "insurance": _text(r["INSURANCE"]), "language": _text(r["LANGUAGE"]),
                     "ethnicity": _text(r["ETHNICITY"])})
        if adms[-1]["admittime"] is None:
            raise InputError("empty value", file=str(p), row=row, field="ADMITTIME")
    admissions = pd.DataFrame(adms, columns=["hadm_id", "subject_id", "admittime", "dischtime", "deathtime",
                                             "insurance", "language", "ethnicity"])
    _unique(admissions, "hadm_id", p)

    p = paths["ICUSTAYS"]
    stays = []
    known_adm = dict(zip(admissions["hadm_id"], admissions["subject_id"]))
    for row, r in iter_mimic_csv(p, encoding, TABLE_REQUIRED["ICUSTAYS"]):
        rec: dict[str, Any] = {"icustay_id": parse_mimic_int(r["ICUSTAY_ID"], p, row, "ICUSTAY_ID"),
               "hadm_id": parse_mimic_int(r["HADM_ID"], p, row, "HADM_ID"),
               "subject_id": parse_mimic_int(r["SUBJECT_ID"], p, row, "SUBJECT_ID"),
               "first_careunit": r["FIRST_CAREUNIT"].strip(), "last_careunit": r["LAST_CAREUNIT"].strip(),
               "first_wardid": r["FIRST_WARDID"].strip(), "last_wardid": r["LAST_WARDID"].strip(),
               "intime": parse_mimic_datetime(r["INTIME"], p, row, "INTIME"),
               "outtime": parse_mimic_datetime(r["OUTTIME"], p, row, "OUTTIME"), "los": None}
        if rec["intime"] is None:
            raise InputError("empty value", file=str(p), row=row, field="INTIME")
        if rec["hadm_id"] not in known_adm:
            raise InputError(f"admission {rec['hadm_id']} is not in {paths['ADMISSIONS']}", file=str(p), row=row,
                             field="HADM_ID")
        if known_adm[rec["hadm_id"]] != rec["subject_id"]:
            raise InputError(f"admission {rec['hadm_id']} belongs to subject {known_adm[rec['hadm_id']]}",
                             file=str(p), row=row, field="SUBJECT_ID")
        los = r.get("LOS", "").strip()
        if los:
            try:
                rec["los"] = float(los)
            except ValueError:
                raise InputError(f"expected a number of days, got {los!r}", file=str(p), row=row, field="LOS") from None
        elif rec["outtime"] is not None:
            rec["los"] = (rec["outtime"] - rec["intime"]).total_seconds() / 86400
        stays.append(rec)
    icustays = pd.DataFrame(stays, columns=["icustay_id", "hadm_id", "subject_id", "first_careunit", "last_careunit",
                                            "first_wardid", "last_wardid", "intime", "outtime", "los"])
    _unique(icustays, "icustay_id", p)

    p = paths["DIAGNOSES_ICD"]
    dx = []
    for row, r in iter_mimic_csv(p, encoding, TABLE_REQUIRED["DIAGNOSES_ICD"]):
        code = r["ICD9_CODE"].strip()
        if code:  # MIMIC has a few diagnoses rows without a code
            dx.append((parse_mimic_int(r["HADM_ID"], p, row, "HADM_ID"), code))
    diagnoses = pd.DataFrame(dx, columns=["hadm_id", "icd9_code"])
    return MimicTables(folder, paths, patients, admissions, icustays, diagnoses, encoding)


def _unique(df: pd.DataFrame, col: str, path: Path) -> None:
    dup = df[col].duplicated()
    if dup.any():
        i = int(np.flatnonzero(dup.to_numpy())[0])
        raise InputError(f"duplicate {col.upper()} {df[col].iloc[i]}", file=str(path), row=i + 1, field=col.upper())


def _age(intime: datetime, dob: datetime | None) -> float | None:
    if dob is None:
        return None
    years = (intime - dob).total_seconds() / 3600 / 24 / 365  # the benchmark's formula
    return 90.0 if years < 0 else min(years, 90.0)


def _between(t: Any, lo: Any, hi: Any) -> bool:
    return t is not None and not pd.isna(t) and lo is not None and hi is not None and not pd.isna(hi) and lo <= t <= hi


def stay_cohort(tables: MimicTables, *, min_age: float = 18.0) -> StayCohort:
    """The benchmark's stay filters, the in-hospital mortality label and the protected attributes."""
    st = tables.icustays.merge(tables.admissions.drop(columns=["subject_id"]), on="hadm_id", how="left")
    st = st.merge(tables.patients, on="subject_id", how="left")
    missing = st["gender"].isna()
    if missing.any():
        sid = int(st.loc[missing, "subject_id"].iloc[0])
        raise InputError(f"subject {sid} of an ICU stay is not in {tables.paths['PATIENTS']}",
                         file=str(tables.paths["ICUSTAYS"]), field="SUBJECT_ID")
    excl: list[dict[str, Any]] = []

    def drop(mask: pd.Series, reason: str) -> None:
        nonlocal st
        for r in st.loc[mask, ["subject_id", "hadm_id", "icustay_id"]].itertuples(index=False):
            excl.append({"cohort": "all", "level": "icustay", "subject_id": r.subject_id, "hadm_id": r.hadm_id,
                         "icustay_id": r.icustay_id, "reason": reason})
        st = st.loc[~mask]

    drop((st["first_careunit"] != st["last_careunit"]) | (st["first_wardid"] != st["last_wardid"]),
         "ICU stay with a transfer (FIRST/LAST_CAREUNIT or FIRST/LAST_WARDID differ)")
    n_per_adm = st.groupby("hadm_id")["icustay_id"].transform("size")
    drop(n_per_adm != 1, "admission with more than one ICU stay (the benchmark keeps admissions with exactly one)")
    st = st.copy()
    st["age"] = [_age(t, d) for t, d in zip(st["intime"], st["dob"])]
    drop(st["age"].isna(), "no date of birth (age unknown)")
    drop(st["age"] < min_age, f"age under {min_age:g} at ICU admission")
    st = st.copy()
    st["inhosp_mort"] = [int(_between(dod, a, d) or _between(dt, a, d)) for dod, dt, a, d in
                         zip(st["dod"], st["deathtime"], st["admittime"], st["dischtime"])]
    for col, fn in (("language", language_group), ("ethnicity", ethnicity_group), ("insurance", insurance_group)):
        st[f"{col}_group"] = [fn(v if isinstance(v, str) else None) for v in st[col]]
    st = st.sort_values("icustay_id").reset_index(drop=True)
    exclusions = pd.DataFrame(excl, columns=["cohort", "level", "subject_id", "hadm_id", "icustay_id", "reason"])
    return StayCohort(stays=st, exclusions=exclusions)


def read_subject_list(path: str | Path) -> set[int]:
    """Held-out test patients: a CSV whose first column is SUBJECT_ID (header optional).

    A second column, when present, is a 0/1 flag and only the rows with 1 are test
    patients — the format of the benchmark's ``mimic3benchmark/resources/testset.csv``
    (``subject_id,in_test`` rows, no header).
    """
    p = Path(path)
    if not p.is_file():
        raise InputError("file not found", file=str(p), field="test_subjects")
    out: set[int] = set()
    with open(p, encoding="utf-8", newline="") as fh:
        for n, rec in enumerate(csv.reader(fh), start=1):
            if not rec or not rec[0].strip():
                continue
            first = rec[0].strip()
            if n == 1 and not first.lstrip("-").isdigit():
                continue  # header
            sid = parse_mimic_int(first, p, n, "SUBJECT_ID")
            if len(rec) > 1 and rec[1].strip():
                flag = rec[1].strip()
                if flag not in ("0", "1"):
                    raise InputError(f"expected 0 or 1 (in test set), got {flag!r}", file=str(p), row=n,
                                     field="in_test")
                if flag == "0":
                    continue
            out.add(int(sid))  # type: ignore[arg-type]
    return out


def assign_splits(subjects: list[int] | np.ndarray, *, test_subjects: set[int] | None = None,
                  test_fraction: float = 0.15, valid_fraction: float = 0.2, seed: int = 0) -> pd.DataFrame:
    """``subject_id, split`` (train / valid / test) for every subject; seeded; see the module docstring."""
    for name, v in (("test_fraction", test_fraction), ("valid_fraction", valid_fraction)):
        if not 0 <= v < 1:
            raise InputError(f"expected a fraction in [0, 1), got {v!r}", field=name)
    subj = np.array(sorted({int(s) for s in subjects}), dtype=np.int64)
    rng = np.random.default_rng(seed)
    split = np.full(len(subj), "train", dtype=object)
    if test_subjects is not None:
        is_test = np.isin(subj, np.array(sorted(test_subjects), dtype=np.int64))
        source = "test list"
    else:
        order = rng.permutation(len(subj))
        is_test = np.zeros(len(subj), dtype=bool)
        is_test[order[: int(round(test_fraction * len(subj)))]] = True
        source = "random"
    split[is_test] = "test"
    rest = np.flatnonzero(~is_test)
    pick = rng.permutation(len(rest))[: int(round(valid_fraction * len(rest)))]
    split[rest[pick]] = "valid"
    return pd.DataFrame({"subject_id": subj, "split": split,
                         "split_source": np.where(is_test, source, "random")})


def end_of_day(d: datetime) -> datetime:
    """``CHARTDATE`` of a note without ``CHARTTIME`` (discharge summaries) ordered at the end of that day."""
    return d.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1) - timedelta(seconds=1)
