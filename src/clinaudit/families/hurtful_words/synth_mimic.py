"""Synthetic MIMIC-III-schema tables with planted group effects (``clinaudit synth-mimic``).

Writes ``PATIENTS``, ``ADMISSIONS``, ``ICUSTAYS``, ``DIAGNOSES_ICD`` and
``NOTEEVENTS`` (MIMIC-III v1.4 column names, upper case; ``.csv`` or
``.csv.gz``) for ``n_patients`` fictional patients, plus ``synth_mimic.json``
(the seed, the counts and the planted effects). Everything is fictional: no
row, note or date comes from MIMIC. The same seed gives byte-identical files.

Structure (so the cohort rules of :mod:`.mimic_cohorts` have something to do):
dates shifted into 2100–2200 as in MIMIC; patients older than 89 have their
birth date moved 300 years back; about 3 % are under 18; most admissions have
one ICU stay, some two (excluded by the benchmark's one-stay rule), some a
ward or care-unit transfer (excluded), some none; ICU stays of 0.5–12 days
(stays under 48 h leave the mortality cohort). Notes: ``Nursing/other``
(every 4–12 h), ``Nursing`` and ``Physician `` (with MIMIC's trailing space)
notes with ``CHARTTIME``; ``Radiology``, ``ECG``, ``Echo``; one ``Discharge
summary`` per admission with ``CHARTDATE`` only; some notes charted before the
ICU stay, some ``ISERROR = 1``, some outpatient notes without ``HADM_ID``. Every
fifth stay gets a ``Nursing/other`` note at exactly ``INTIME + 48 h`` and one
at ``INTIME + 48 h + 1 min`` (the window edges). Some stays have no
``Nursing``/``Physician `` note in their first 48 h (the first-note fallback).
Notes carry MIMIC-style de-identification spans (``[**2101-10-20**]``,
``[**Last Name (NamePattern1) 1234**]``).

Planted effects (:data:`PLANTED_EFFECTS`, also written to ``synth_mimic.json``):

* **prevalence** — odds ratios of a phenotype or of in-hospital death for one
  group against the rest (e.g. coronary disease more common in men);
* **documentation** — the chance that a present condition (or a dying
  patient's poor prognosis) is written in a note differs by group (e.g.
  cardiac conditions under-documented for women), so a text classifier has a
  lower recall for that group;
* **markers** — words that reveal the attribute (pronouns, ``Mr.``/``Ms.``,
  ``interpreter``), so the attribute is recoverable from the text.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from ...errors import InputError
from .mimic_phenotypes import load_phenotype_groups
from ...atomic import replacing, write_text

__all__ = ["synth_mimic", "SynthResult", "PLANTED_EFFECTS", "TABLE_COLUMNS"]

TABLE_COLUMNS: dict[str, list[str]] = {
    "PATIENTS": ["ROW_ID", "SUBJECT_ID", "GENDER", "DOB", "DOD", "DOD_HOSP", "DOD_SSN", "EXPIRE_FLAG"],
    "ADMISSIONS": ["ROW_ID", "SUBJECT_ID", "HADM_ID", "ADMITTIME", "DISCHTIME", "DEATHTIME", "ADMISSION_TYPE",
                   "ADMISSION_LOCATION", "DISCHARGE_LOCATION", "INSURANCE", "LANGUAGE", "RELIGION", "MARITAL_STATUS",
                   "ETHNICITY", "EDREGTIME", "EDOUTTIME", "DIAGNOSIS", "HOSPITAL_EXPIRE_FLAG", "HAS_CHARTEVENTS_DATA"],
    "ICUSTAYS": ["ROW_ID", "SUBJECT_ID", "HADM_ID", "ICUSTAY_ID", "DBSOURCE", "FIRST_CAREUNIT", "LAST_CAREUNIT",
                 "FIRST_WARDID", "LAST_WARDID", "INTIME", "OUTTIME", "LOS"],
    "DIAGNOSES_ICD": ["ROW_ID", "SUBJECT_ID", "HADM_ID", "SEQ_NUM", "ICD9_CODE"],
    "NOTEEVENTS": ["ROW_ID", "SUBJECT_ID", "HADM_ID", "CHARTDATE", "CHARTTIME", "STORETIME", "CATEGORY", "DESCRIPTION",
                   "CGID", "ISERROR", "TEXT"],
}

# Base prevalences (per admission) of the 25 groups, roughly P4 Table 1 (phenotype-all cohort).
BASE_PREVALENCE: dict[str, float] = {
    "Acute Renal": 0.20, "Cerebrovascular": 0.07, "Myocardial": 0.11, "Dysrhythmias": 0.32, "Chronic Kidney": 0.11,
    "COPD": 0.13, "Comp. Surgical": 0.20, "Conduction": 0.07, "Heart Failure": 0.28, "Atherosclerosis": 0.33,
    "Diabetes Comp": 0.09, "Diabetes No Comp": 0.19, "Lipid Metabolism": 0.26, "Hypertension": 0.41,
    "Fluid Disorder": 0.24, "GI Hemorrhage": 0.07, "Hypertension Comp": 0.12, "Other Liver": 0.08,
    "Lower Resp": 0.04, "Upper Resp": 0.04, "Pleurisy": 0.08, "Pneumonia": 0.14, "Resp Failure": 0.18,
    "Septicemia": 0.14, "Shock": 0.07,
}

PLANTED_EFFECTS: dict[str, Any] = {
    "prevalence_odds_ratio": [
        {"target": "Atherosclerosis", "attribute": "gender", "group": "M", "odds_ratio": 2.0},
        {"target": "Myocardial", "attribute": "gender", "group": "M", "odds_ratio": 2.0},
        {"target": "Inhosp Mort", "attribute": "insurance", "group": "Medicaid", "odds_ratio": 1.8},
    ],
    "documentation": [
        {"targets": ["Atherosclerosis", "Myocardial", "Heart Failure"], "attribute": "gender", "group": "F",
         "p_mentioned": 0.35, "p_mentioned_others": 0.9},
        {"targets": ["Inhosp Mort"], "attribute": "ethnicity_group", "group": "Black",
         "p_mentioned": 0.3, "p_mentioned_others": 0.85},
    ],
    "default_p_mentioned": 0.8,
    "markers": [
        {"attribute": "gender", "words": {"M": ["he", "his", "Mr.", "man"], "F": ["she", "her", "Ms.", "woman"]}},
        {"attribute": "language_group", "group": "Other", "p": 0.7,
         "words": ["interpreter", "non-English speaking", "family translating"]},
    ],
}

_ETHNICITY = [("WHITE", 0.66), ("WHITE - RUSSIAN", 0.03), ("BLACK/AFRICAN AMERICAN", 0.08),
              ("BLACK/CAPE VERDEAN", 0.01),
              ("HISPANIC OR LATINO", 0.03), ("HISPANIC/LATINO - PUERTO RICAN", 0.01), ("ASIAN", 0.02),
              ("ASIAN - CHINESE", 0.01), ("OTHER", 0.02), ("MULTI RACE ETHNICITY", 0.01),
              ("UNKNOWN/NOT SPECIFIED", 0.07), ("UNABLE TO OBTAIN", 0.02), ("PATIENT DECLINED TO ANSWER", 0.03)]
_LANGUAGE = [("ENGL", 0.80), ("SPAN", 0.06), ("RUSS", 0.03), ("PTUN", 0.02), ("CANT", 0.02), ("", 0.07)]
_CARE_UNITS = ["MICU", "SICU", "CCU", "CSRU", "TSICU"]
_FILLER_CODES = ["V1582", "3051", "V5861", "2724", "V4581", "E8782", "2859", "V1046", "30000", "V5867"]
_PROSE = {
    "Atherosclerosis": "known coronary artery disease, s/p cath with stent",
    "Myocardial": "troponin elevated, concerning for NSTEMI",
    "Heart Failure": "CHF exacerbation, diuresed with lasix",
    "Hypertension": "history of hypertension on home lisinopril",
    "Septicemia": "febrile with positive blood cultures, concern for sepsis",
    "Pneumonia": "RLL infiltrate on CXR consistent with pneumonia",
    "Resp Failure": "intubated for hypoxic respiratory failure",
    "Shock": "hypotensive requiring pressors, in shock",
    "Acute Renal": "creatinine rising, acute kidney injury",
    "Diabetes No Comp": "type 2 diabetes on insulin sliding scale",
    "Dysrhythmias": "atrial fibrillation with rapid ventricular response",
    "COPD": "COPD on home oxygen, nebs given",
    "Inhosp Mort": "poor prognosis discussed with family, transitioned to comfort measures",
}
_FILLER_SENTENCES = [
    "Pt resting comfortably in bed.", "Vital signs stable overnight.", "Lungs with coarse breath sounds bilaterally.",
    "Plan to continue current management.", "Tolerating tube feeds at goal.", "Skin intact, turned every two hours.",
    "Pain controlled with prn medication.", "Labs reviewed this morning.", "Foley draining clear yellow urine.",
    "Will follow up with the team in the morning.", "Neuro exam unchanged from prior.", "IV access maintained.",
]


@dataclass(frozen=True)
class SynthResult:
    """What :func:`synth_mimic` wrote: the folder, the table paths and the row counts."""

    out: Path
    paths: dict[str, Path]
    counts: dict[str, int]


def _fmt(t: datetime | None) -> str:
    return "" if t is None else t.strftime("%Y-%m-%d %H:%M:%S")


def _pick(rng: random.Random, options: list[tuple[str, float]]) -> str:
    return rng.choices([v for v, _ in options], weights=[w for _, w in options], k=1)[0]


def _odds(p: float, ratio: float) -> float:
    o = p / (1 - p) * ratio
    return o / (1 + o)


class _Writer:
    """Deterministic table builder; one instance per call."""

    def __init__(self, n_patients: int, seed: int):
        self.rng = random.Random(seed)  # Python's Mersenne Twister: fast scalar draws, stable across versions
        self.n = n_patients
        self.groups = load_phenotype_groups()
        self.rows: dict[str, list[list[Any]]] = {t: [] for t in TABLE_COLUMNS}
        self.next_hadm, self.next_icu, self.next_note = 100001, 200001, 1
        self.by_abbrev = {g.abbrev: g for g in self.groups.values()}
        self.day = ""
        in_groups = {c for g in self.groups.values() for c in g.codes}
        self.fillers = [c for c in _FILLER_CODES if c not in in_groups]

    # ------------------------------------------------------------------ attributes and labels
    def _p_mention(self, target: str, attrs: dict[str, Any]) -> float:
        for eff in PLANTED_EFFECTS["documentation"]:
            if target in eff["targets"]:
                return eff["p_mentioned"] if attrs.get(eff["attribute"]) == eff["group"] else eff["p_mentioned_others"]
        return float(PLANTED_EFFECTS["default_p_mentioned"])

    def _prevalence(self, target: str, base: float, attrs: dict[str, Any]) -> float:
        p = base
        for eff in PLANTED_EFFECTS["prevalence_odds_ratio"]:
            if eff["target"] == target and attrs.get(eff["attribute"]) == eff["group"]:
                p = _odds(p, eff["odds_ratio"])
        return p

    # ------------------------------------------------------------------ text
    def _sentence_with_marker(self, attrs: dict[str, Any], age: int) -> str:
        m = PLANTED_EFFECTS["markers"][0]["words"][attrs["gender"]]
        return f"{m[2]} [**Last Name (NamePattern1) {self.rng.randrange(1000, 9999)}**] is a {age} yo {m[3]}, " \
               f"{m[0]} was admitted to [**Hospital1 18**] on [**{self.day}**]."

    def _note_text(self, attrs: dict[str, Any], age: int, conditions: list[str], dying: bool, kind: str) -> str:
        rng = self.rng
        sents = [self._sentence_with_marker(attrs, age)]
        lang = PLANTED_EFFECTS["markers"][1]
        if attrs["language_group"] == lang["group"] and rng.random() < lang["p"]:
            sents.append(f"Communicating via {lang['words'][rng.randrange(len(lang['words']))]}.")
        for c in conditions:
            if c in _PROSE and rng.random() < self._p_mention(c, attrs):
                pron = PLANTED_EFFECTS["markers"][0]["words"][attrs["gender"]][1]
                sents.append(f"Assessment: {_PROSE[c]}, {pron} course followed closely.")
        if dying and rng.random() < self._p_mention("Inhosp Mort", attrs):
            sents.append(_PROSE["Inhosp Mort"].capitalize() + ".")
        k = rng.randrange(3, 9 if kind != "Discharge summary" else 14)
        sents += rng.choices(_FILLER_SENTENCES, k=k)
        rest = sents[1:]
        rng.shuffle(rest)
        order = [sents[0]] + rest
        if kind == "Discharge summary":
            return "Admission Date:  [**{0}**]\n\nService: MEDICINE\n\nHistory of Present Illness:\n{1}\n\n" \
                   "Discharge Condition: {2}\n".format(self.day, " ".join(order),
                                                      "expired" if dying else "stable")
        return "\n".join(order) + "\n"

    # ------------------------------------------------------------------ tables
    def note(self, sid: int, hid: int | None, t: datetime, category: str, description: str, text: str, *,
             with_time: bool = True, iserror: bool = False) -> None:
        store = t + timedelta(minutes=self.rng.randrange(5, 90))
        self.rows["NOTEEVENTS"].append([
            self.next_note, sid, "" if hid is None else hid, t.strftime("%Y-%m-%d"), _fmt(t) if with_time else "",
            _fmt(store) if with_time else "", category, description, self.rng.randrange(14000, 21000),
            "1" if iserror else "", text])
        self.next_note += 1

    def patient(self, i: int) -> None:
        rng = self.rng
        sid = 10001 + i
        gender = "M" if rng.random() < 0.56 else "F"
        age = rng.randrange(1, 17) if rng.random() < 0.03 else int(min(max(rng.gauss(64, 16), 18), 97))
        base = datetime(2100, 1, 1) + timedelta(days=rng.randrange(0, 36500), minutes=rng.randrange(0, 1440))
        dob = datetime(base.year - age, 1 + rng.randrange(0, 12), 1 + rng.randrange(0, 28))
        if age > 89:
            dob = dob.replace(year=base.year - 300)  # MIMIC: patients over 89 have their birth date ~300 years back
        ethnicity, language = _pick(rng, _ETHNICITY), _pick(rng, _LANGUAGE)
        if age >= 65:
            insurance = _pick(rng, [("Medicare", 0.85), ("Private", 0.1), ("Medicaid", 0.03), ("Government", 0.02)])
        else:
            insurance = _pick(rng, [("Private", 0.5), ("Medicaid", 0.25), ("Medicare", 0.12), ("Government", 0.06),
                                    ("Self Pay", 0.07)])
        from ...loaders.mimic import ethnicity_group, language_group

        attrs = {"gender": gender, "insurance": insurance, "ethnicity_group": ethnicity_group(ethnicity),
                 "language_group": language_group(language)}
        n_adm = 1 if rng.random() < 0.8 else 2
        admit = base
        dod: datetime | None = None
        for a in range(n_adm):
            died = self.admission(sid, admit, age + a, attrs, ethnicity, language, insurance, last=(a == n_adm - 1))
            if died is not None:
                dod = died
                break
            admit = admit + timedelta(days=rng.randrange(60, 700))
        if dod is None and rng.random() < 0.2:
            dod = admit + timedelta(days=rng.randrange(30, 2000))
        self.rows["PATIENTS"].append([len(self.rows["PATIENTS"]) + 1, sid, gender, _fmt(dob), _fmt(dod),
                                      _fmt(dod) if dod is not None and rng.random() < 0.5 else "", _fmt(dod),
                                      int(dod is not None)])
        if rng.random() < 0.3:  # an outpatient note (no HADM_ID)
            self.note(sid, None, admit - timedelta(days=rng.randrange(5, 300)), "Radiology", "CHEST (PA & LAT)",
                      "FINAL REPORT\nCHEST TWO VIEWS: No acute cardiopulmonary process.\n")

    def admission(self, sid: int, admit: datetime, age: int, attrs: dict[str, Any], ethnicity: str, language: str,
                  insurance: str, *, last: bool) -> datetime | None:
        rng = self.rng
        hid = self.next_hadm
        self.next_hadm += 1
        self.day = admit.strftime("%Y-%m-%d")
        conditions = [g for g, p in BASE_PREVALENCE.items() if rng.random() < self._prevalence(g, p, attrs)]
        severity = sum(c in ("Shock", "Septicemia", "Resp Failure") for c in conditions)
        p_die = self._prevalence("Inhosp Mort", 1 / (1 + math.exp(-(-2.6 + 0.03 * (age - 60) + 0.9 * severity))), attrs)
        dies = bool(rng.random() < p_die) and last
        kind = rng.random()
        n_stays = 0 if kind < 0.05 else (2 if kind < 0.12 else 1)
        transfer = n_stays == 1 and rng.random() < 0.08
        intime = admit + timedelta(hours=rng.uniform(0.5, 20))
        stays = []
        for _s in range(n_stays):
            los_h = min(max(rng.lognormvariate(math.log(70), 0.7), 12.0), 300.0)
            outtime = intime + timedelta(hours=los_h)
            stays.append((intime, outtime))
            intime = outtime + timedelta(hours=rng.uniform(6, 72))
        end = stays[-1][1] if stays else admit + timedelta(hours=rng.uniform(24, 120))
        discharge = end + timedelta(hours=rng.uniform(1, 96))
        death = (stays[-1][1] if stays and rng.random() < 0.6 else discharge) if dies else None
        if death is not None:
            discharge = death
        self.rows["ADMISSIONS"].append([
            len(self.rows["ADMISSIONS"]) + 1, sid, hid, _fmt(admit), _fmt(discharge), _fmt(death), "EMERGENCY",
            "EMERGENCY ROOM ADMIT", "DEAD/EXPIRED" if dies else "HOME", insurance, language, "NOT SPECIFIED",
            "MARRIED" if rng.random() < 0.5 else "SINGLE", ethnicity, _fmt(admit - timedelta(hours=3)), _fmt(admit),
            "FICTIONAL ADMISSION", int(dies), 1])
        codes = []
        for c in conditions:
            options = sorted(self.by_abbrev[c].codes)
            codes.append(options[rng.randrange(len(options))])
        codes += rng.sample(self.fillers, rng.randrange(1, 4))
        for k, code in enumerate(dict.fromkeys(codes)):
            self.rows["DIAGNOSES_ICD"].append([len(self.rows["DIAGNOSES_ICD"]) + 1, sid, hid, k + 1, code])
        for _s, (tin, tout) in enumerate(stays):
            unit = _CARE_UNITS[rng.randrange(len(_CARE_UNITS))]
            last_unit = _CARE_UNITS[(_CARE_UNITS.index(unit) + 1) % len(_CARE_UNITS)] if transfer else unit
            ward = rng.randrange(7, 60)
            self.rows["ICUSTAYS"].append([
                len(self.rows["ICUSTAYS"]) + 1, sid, hid, self.next_icu, "metavision" if tin.year % 2 else "carevue",
                unit, last_unit, ward, ward, _fmt(tin), _fmt(tout), round((tout - tin).total_seconds() / 86400, 4)])
            self.stay_notes(sid, hid, tin, tout, age, attrs, conditions, dies)
            self.next_icu += 1
        self.note(sid, hid, discharge, "Discharge summary", "Report",
                  self._note_text(attrs, age, conditions, dies, "Discharge summary"), with_time=False)
        self.note(sid, hid, admit + timedelta(hours=1), "ECG", "Report", "Sinus rhythm. Normal ECG.\n")
        return death

    def stay_notes(self, sid: int, hid: int, tin: datetime, tout: datetime, age: int, attrs: dict[str, Any],
                   conditions: list[str], dies: bool) -> None:
        rng = self.rng

        def text(kind: str) -> str:
            return self._note_text(attrs, age, conditions, dies, kind)

        self.note(sid, hid, tin - timedelta(hours=rng.uniform(1, 5)), "Nursing/other", "Report", text("n"))
        t = tin + timedelta(hours=rng.uniform(0.5, 6))
        while t < tout:
            self.note(sid, hid, t, "Nursing/other", "Report", text("n"), iserror=bool(rng.random() < 0.02))
            t += timedelta(hours=rng.uniform(4, 12))
        if rng.random() < 0.75:  # the others have no Nursing/Physician note in the first 48 h: fallback
            first = tin + timedelta(hours=rng.uniform(1, 40))
            cat, desc = ("Physician ", "Physician Resident Progress Note") if rng.random() < 0.5 else \
                ("Nursing", "Nursing Progress Note")
            self.note(sid, hid, first, cat, desc, text("p"))
        if tout - tin > timedelta(hours=60):
            self.note(sid, hid, tin + timedelta(hours=float(rng.uniform(50, (tout - tin).total_seconds() / 3600))),
                      "Physician ", "Physician Attending Progress Note", text("p"))
        if self.next_icu % 5 == 0:  # the 48 h window edges
            self.note(sid, hid, tin + timedelta(hours=48), "Nursing/other", "Report", text("n"))
            self.note(sid, hid, tin + timedelta(hours=48, minutes=1), "Nursing/other", "Report", text("n"))
        self.note(sid, hid, tin + timedelta(hours=rng.uniform(2, 30)), "Radiology", "CHEST (PORTABLE AP)",
                  "FINAL REPORT\nPORTABLE CHEST: Lines and tubes in standard position.\n")


def synth_mimic(out: str | Path, n_patients: int = 200, seed: int = 0, *, compress: bool = False) -> SynthResult:
    """Write the five MIMIC-III-schema tables and ``synth_mimic.json`` into ``out`` (see the module docstring)."""
    if not isinstance(n_patients, int) or n_patients < 1:
        raise InputError(f"expected a positive number of patients, got {n_patients!r}", field="patients")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    w = _Writer(n_patients, int(seed))
    for i in range(n_patients):
        w.patient(i)
    paths: dict[str, Path] = {}
    counts: dict[str, int] = {}
    for table, cols in TABLE_COLUMNS.items():
        df = pd.DataFrame(w.rows[table], columns=cols)
        if table == "NOTEEVENTS":
            df = df.sort_values(["SUBJECT_ID", "CHARTDATE", "CHARTTIME", "ROW_ID"], kind="stable")
        p = out / (f"{table}.csv.gz" if compress else f"{table}.csv")
        if compress:
            import gzip

            with replacing(p, "wb") as raw, gzip.GzipFile(filename=str(p), mode="wb", fileobj=raw, mtime=0) as fh:
                fh.write(df.to_csv(index=False).encode("utf-8"))  # mtime 0: byte-identical per seed
        else:
            write_text(p, df.to_csv(index=False), newline="")
        paths[table], counts[table] = p, len(df)
    meta = {"generator": "clinaudit synth-mimic", "seed": int(seed), "patients": n_patients, "counts": counts,
            "fictional": True, "planted_effects": PLANTED_EFFECTS}
    write_text(out / "synth_mimic.json", json.dumps(meta, indent=2) + "\n")
    return SynthResult(out=out, paths=paths, counts=counts)
