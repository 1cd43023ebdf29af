"""MIMIC-III notes with patient demographics (format ``mimic3``; P4 §3).

Reads MIMIC-III's ``NOTEEVENTS``, ``ADMISSIONS`` and ``PATIENTS`` tables (CSV,
optionally gzip-compressed, with MIMIC's column names in upper or lower case)
and joins them into one case per note::

    data:
      - format: mimic3
        path: /data/mimic-iii-1.4          # folder with the three tables, or NOTEEVENTS.csv[.gz] itself
        options:
          categories: [Discharge summary]  # keep only these note categories (default: all)

``case_id`` = NOTEEVENTS ``ROW_ID``; ``text`` = ``TEXT``. Fields:
``subject_id``, ``hadm_id``, ``category``, ``description``, ``chartdate``,
``gender`` (``M``/``F`` as recorded) and ``sex`` (``male``/``female``),
``ethnicity`` (as recorded) and ``ethnicity_group`` (White, Black, Hispanic,
Asian, Other; None when unknown/declined/unable to obtain — P4 drops those),
``insurance`` (Medicare, Medicaid, Private, Government, Self Pay),
``language`` (as recorded) and ``language_group`` (English when ``ENGL``,
else Other; None when empty), ``admittime`` and ``age`` (years at admission;
MIMIC shifts the birth date of patients older than 89 so their computed age is
about 300: ages above ``max_age`` are set to ``max_age``, 90 by default).

Notes without an admission (``HADM_ID`` empty; outpatient notes, which P4
drops) are skipped unless ``options.require_admission: false``; notes marked
``ISERROR = 1`` are skipped unless ``options.include_error_notes: true``.
A note whose admission or patient is not in the other tables is an error
naming the file, row and field, unless ``options.unmatched: skip``.

Task labels (P4's tasks come from other MIMIC tables: diagnoses, mortality)
can be joined on: ``options.labels`` names a CSV whose key column is the first
of ``ROW_ID``, ``HADM_ID``, ``SUBJECT_ID`` it has; its other columns are added
to the fields of every matching note under their own names (lower-cased
MIMIC names stay as written). Notes without a labels row are skipped and
counted.
"""

from __future__ import annotations

import csv
import gzip
import io
import logging
import math
import sys
import zlib
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..records import Case
from .base import DataSource, register_loader

__all__ = ["load_mimic3", "ethnicity_group", "language_group", "insurance_group", "MIMIC_OPTIONS", "NOTE_COLUMNS",
           "ADMISSION_COLUMNS", "PATIENT_COLUMNS", "iter_mimic_csv", "find_mimic_table", "parse_mimic_int",
           "parse_mimic_datetime"]

log = logging.getLogger("clinaudit.loaders.mimic")

NOTE_COLUMNS = ["ROW_ID", "SUBJECT_ID", "HADM_ID", "CATEGORY", "TEXT"]
ADMISSION_COLUMNS = ["SUBJECT_ID", "HADM_ID", "ADMITTIME", "INSURANCE", "LANGUAGE", "ETHNICITY"]
PATIENT_COLUMNS = ["SUBJECT_ID", "GENDER", "DOB"]

MIMIC_OPTIONS: dict[str, Any] = {
    "encoding": "utf-8",
    "admissions": None,  # path (default: ADMISSIONS.csv[.gz] next to the notes)
    "patients": None,  # path (default: PATIENTS.csv[.gz] next to the notes)
    "categories": None,  # list of CATEGORY values to keep (case-insensitive)
    "require_admission": True,
    "include_error_notes": False,
    "skip_empty": False,
    "unmatched": "error",  # error | skip
    "max_age": 90,
    "labels": None,  # CSV of task labels keyed by ROW_ID, HADM_ID or SUBJECT_ID (first present); merged into fields
}

#: P4's exact renamings (its data script) before the substring search
_ETHNICITY_EXACT = {"HISPANIC OR LATINO": "Hispanic", "BLACK/AFRICAN AMERICAN": "Black", "UNABLE TO OBTAIN": None,
                    "PATIENT DECLINED TO ANSWER": None}
#: P4's base groups, searched *anywhere* in the value, in P4's order (the first contained one wins)
_ETHNICITY_BASES = (("WHITE", "White"), ("UNKNOWN/NOT SPECIFIED", None), ("BLACK", "Black"),
                    ("HISPANIC/LATINO", "Hispanic"), ("OTHER", "Other"), ("ASIAN", "Asian"))


def ethnicity_group(value: str | None) -> str | None:
    """MIMIC ``ETHNICITY`` → White, Black, Hispanic, Asian, Other, or None when unknown.

    As P4's data script groups it: a few exact renamings (``HISPANIC OR LATINO`` → Hispanic,
    ``BLACK/AFRICAN AMERICAN`` → Black, unable to obtain / declined → unknown), then the first of
    WHITE, UNKNOWN/NOT SPECIFIED, BLACK, HISPANIC/LATINO, OTHER, ASIAN that occurs **anywhere** in
    the value (``WHITE - RUSSIAN`` → White, ``BLACK/CAPE VERDEAN`` → Black, ``HISPANIC/LATINO -
    PUERTO RICAN`` → Hispanic, ``ASIAN - CHINESE`` → Asian; P4's order makes ``ASIAN - OTHER``
    Other), else Other. Unknown → None (P4's UNKNOWN/NOT SPECIFIED group, dropped from the gaps).
    """
    if value is None or not value.strip():
        return None
    v = value.strip().upper()
    if v in _ETHNICITY_EXACT:
        return _ETHNICITY_EXACT[v]
    for word, group in _ETHNICITY_BASES:
        if word in v:
            return group
    return "Other"


def language_group(value: str | None) -> str | None:
    """MIMIC ``LANGUAGE`` → English (``ENGL``), Other, or None when empty."""
    if value is None or not value.strip():
        return None
    return "English" if value.strip().upper() == "ENGL" else "Other"


def insurance_group(value: str | None) -> str | None:
    """MIMIC ``INSURANCE`` → Medicare, Medicaid, Private, or None for Government, Self Pay and empty.

    P4 (§5.2, Table 4) drops the Self Pay and Government groups "due to their small relative class
    sample size"; the raw value stays available as ``insurance``.
    """
    if value is None or not value.strip():
        return None
    v = value.strip().casefold()
    return {"medicare": "Medicare", "medicaid": "Medicaid", "private": "Private"}.get(v)


# --------------------------------------------------------------------------- reading


def _open_text(path: Path, encoding: str) -> io.TextIOBase:
    try:
        if path.suffix == ".gz":
            return io.TextIOWrapper(gzip.open(path, "rb"), encoding=encoding, newline="")
        return open(path, encoding=encoding, newline="")
    except LookupError:
        raise InputError(f"unknown text encoding {encoding!r}", file=str(path), field="options.encoding") from None


def _iter_csv(path: Path, encoding: str, required: list[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """Rows of a MIMIC CSV as ``(1-based data row, {UPPER-CASE column: value})``; checks the columns."""
    if csv.field_size_limit() < 2**31 - 1:
        csv.field_size_limit(min(2**31 - 1, sys.maxsize))
    with _open_text(path, encoding) as fh:
        reader = csv.reader(fh)
        n = 0
        try:
            header = next(reader, None)
            if header is None:
                raise InputError("the file is empty (no header row)", file=str(path))
            names = [h.strip().upper() for h in header]
            for col in required:
                if col not in names:
                    raise InputError(f"column '{col}' not found (MIMIC-III schema); available columns: "
                                     f"{', '.join(h.strip() for h in header)}", file=str(path), field=col)
            for rec in reader:
                if not rec:
                    continue
                n += 1
                if len(rec) != len(names):
                    raise InputError(f"malformed row: it has {len(rec)} fields but the header has {len(names)}",
                                     file=str(path), row=n)
                yield n, dict(zip(names, rec))
        except csv.Error as e:
            raise InputError(f"malformed CSV: {e}", file=str(path), row=n + 1) from None
        except UnicodeDecodeError as e:
            raise InputError(f"cannot decode the file as {encoding}: {e.reason}; set options.encoding",
                             file=str(path), row=n + 1) from None
        except (EOFError, gzip.BadGzipFile, zlib.error) as e:
            raise InputError(_gzip_problem(e), file=str(path), row=n + 1) from None


def _gzip_problem(exc: BaseException) -> str:
    """What is wrong with a ``.gz`` file, in words."""
    if isinstance(exc, EOFError):
        return "the .gz file is truncated (it ends before the end of its compressed data): download it again"
    return f"not a valid gzip file ({exc}): give the .csv, or the .csv.gz as PhysioNet distributes it"


def _find_table(folder: Path, name: str) -> Path | None:
    for cand in (f"{name}.csv", f"{name}.csv.gz", f"{name.lower()}.csv", f"{name.lower()}.csv.gz"):
        p = folder / cand
        if p.is_file():
            return p
    return None


def _int(value: str, path: Path, row: int, field: str, *, required: bool = True) -> int | None:
    v = value.strip()
    if not v:
        if required:
            raise InputError("empty value", file=str(path), row=row, field=field)
        return None
    try:
        f = float(v)
    except ValueError:
        f = float("nan")
    if not math.isfinite(f) or f != int(f):
        raise InputError(f"expected an integer id, got {value!r}", file=str(path), row=row, field=field)
    return int(f)


def _date(value: str, path: Path, row: int, field: str) -> datetime | None:
    v = value.strip()
    if not v:
        return None
    try:
        return datetime.fromisoformat(v)
    except ValueError:
        raise InputError(f"expected a date like 2101-10-20 or 2101-10-20 19:08:00, got {value!r}", file=str(path),
                         row=row, field=field) from None


def _age(dob: datetime | None, admit: datetime | None, max_age: float) -> float | None:
    if dob is None or admit is None:
        return None
    years = (admit - dob).days / 365.2425
    return float(min(years, max_age))


def _resolve_option_path(value: Any, folder: Path, field: str) -> Path:
    p = Path(str(value)).expanduser()
    if not p.is_absolute():
        p = folder / p
    if not p.is_file():
        raise InputError("file not found", file=str(p), field=f"options.{field}")
    return p


def _read_labels(path: Path, encoding: str) -> tuple[dict[int, dict[str, str]], str]:
    """Task labels keyed by the first of ROW_ID / HADM_ID / SUBJECT_ID the file has."""
    try:
        with _open_text(path, encoding) as fh:
            header = next(csv.reader(fh), None)
    except (EOFError, gzip.BadGzipFile, zlib.error) as e:
        raise InputError(_gzip_problem(e), file=str(path)) from None
    except UnicodeDecodeError as e:
        raise InputError(f"cannot decode the file as {encoding}: {e.reason}; set options.encoding",
                         file=str(path), row=1) from None
    if header is None:
        raise InputError("the file is empty (no header row)", file=str(path))
    names = {h.strip().upper(): h.strip() for h in header}
    key = next((k for k in ("ROW_ID", "HADM_ID", "SUBJECT_ID") if k in names), None)
    if key is None:
        raise InputError("a labels file needs a ROW_ID, HADM_ID or SUBJECT_ID column; available columns: "
                         + ", ".join(header), file=str(path), field="ROW_ID")
    out: dict[int, dict[str, str]] = {}
    for row, rec in _iter_csv(path, encoding, [key]):
        k = _int(rec[key], path, row, names[key])
        if k in out:
            raise InputError(f"duplicate {names[key]} {k}", file=str(path), row=row, field=names[key])
        out[k] = {names[c]: v for c, v in rec.items() if c != key}  # type: ignore[index]
    return out, key


# Public names of the readers, shared with the Hurtful Words cohort builder.
iter_mimic_csv = _iter_csv
find_mimic_table = _find_table
parse_mimic_int = _int
parse_mimic_datetime = _date


@register_loader("mimic3", "MIMIC-III NOTEEVENTS + ADMISSIONS + PATIENTS (CSV or .csv.gz; a folder or the notes "
                           "file): one case per note with gender, ethnicity, insurance, language and age")
def load_mimic3(source: DataSource, path: Path | None) -> list[Case]:
    """One case per note, joined with its admission and patient (see the module docstring)."""
    if path is None:
        raise InputError("format 'mimic3' needs a 'path' (the MIMIC-III folder or NOTEEVENTS.csv)", field="path")
    where = str(path)
    opts = dict(MIMIC_OPTIONS)
    for key, value in source.options.items():
        if key not in MIMIC_OPTIONS:
            raise InputError(f"unknown option for format 'mimic3'; known options: {', '.join(sorted(MIMIC_OPTIONS))}",
                             file=where, field=f"options.{key}")
        opts[key] = value
    for key in ("require_admission", "include_error_notes", "skip_empty"):
        if not isinstance(opts[key], bool):
            raise InputError(f"expected true or false, got {opts[key]!r}", file=where, field=f"options.{key}")
    if opts["unmatched"] not in ("error", "skip"):
        raise InputError(f"expected error or skip, got {opts['unmatched']!r}", file=where, field="options.unmatched")
    try:
        max_age = float(opts["max_age"])
    except (TypeError, ValueError):
        raise InputError(f"expected a number, got {opts['max_age']!r}", file=where, field="options.max_age") from None

    if path.is_dir():
        folder = path
        notes = _find_table(folder, "NOTEEVENTS")
        if notes is None:
            raise InputError("no NOTEEVENTS.csv or NOTEEVENTS.csv.gz in the folder", file=where)
    else:
        folder, notes = path.parent, path
    adm_path = (_resolve_option_path(opts["admissions"], folder, "admissions") if opts["admissions"]
                else _find_table(folder, "ADMISSIONS"))
    pat_path = (_resolve_option_path(opts["patients"], folder, "patients") if opts["patients"]
                else _find_table(folder, "PATIENTS"))
    if adm_path is None:
        raise InputError("no ADMISSIONS.csv[.gz] next to the notes (or set options.admissions)", file=str(folder),
                         field="options.admissions")
    if pat_path is None:
        raise InputError("no PATIENTS.csv[.gz] next to the notes (or set options.patients)", file=str(folder),
                         field="options.patients")
    enc = str(opts["encoding"])

    patients: dict[int, dict[str, Any]] = {}
    for row, rec in _iter_csv(pat_path, enc, PATIENT_COLUMNS):
        sid = _int(rec["SUBJECT_ID"], pat_path, row, "SUBJECT_ID")
        gender = rec["GENDER"].strip().upper() or None
        if gender not in (None, "M", "F"):
            raise InputError(f"expected M or F, got {rec['GENDER']!r}", file=str(pat_path), row=row, field="GENDER")
        patients[sid] = {"gender": gender, "dob": _date(rec["DOB"], pat_path, row, "DOB")}  # type: ignore[index]
    admissions: dict[int, dict[str, Any]] = {}
    for row, rec in _iter_csv(adm_path, enc, ADMISSION_COLUMNS):
        hid = _int(rec["HADM_ID"], adm_path, row, "HADM_ID")
        admissions[hid] = {  # type: ignore[index]
            "subject_id": _int(rec["SUBJECT_ID"], adm_path, row, "SUBJECT_ID"),
            "admittime": _date(rec["ADMITTIME"], adm_path, row, "ADMITTIME"),
            "insurance": rec["INSURANCE"].strip() or None,
            "language": rec["LANGUAGE"].strip() or None,
            "ethnicity": rec["ETHNICITY"].strip() or None,
        }

    labels: dict[int, dict[str, str]] | None = None
    label_key = ""
    if opts["labels"]:
        labels, label_key = _read_labels(_resolve_option_path(opts["labels"], folder, "labels"), enc)

    keep = None if opts["categories"] is None else {str(c).strip().casefold() for c in opts["categories"]}
    cases: list[Case] = []
    seen: dict[str, int] = {}
    skipped = {"category": 0, "no_admission": 0, "error_note": 0, "empty": 0, "unmatched": 0, "no_labels": 0}
    dataset = source.name or "mimic3"
    for row, rec in _iter_csv(notes, enc, NOTE_COLUMNS):
        category = rec["CATEGORY"].strip()
        if keep is not None and category.casefold() not in keep:
            skipped["category"] += 1
            continue
        if not opts["include_error_notes"] and rec.get("ISERROR", "").strip() in ("1", "1.0"):
            skipped["error_note"] += 1
            continue
        hid = _int(rec["HADM_ID"], notes, row, "HADM_ID", required=False)
        if hid is None and opts["require_admission"]:
            skipped["no_admission"] += 1
            continue
        sid = _int(rec["SUBJECT_ID"], notes, row, "SUBJECT_ID")
        text = rec["TEXT"]
        if not text.strip():
            if opts["skip_empty"]:
                skipped["empty"] += 1
                continue
            raise InputError("empty note text (set options.skip_empty: true to drop such notes)", file=str(notes),
                             row=row, field="TEXT")
        adm = admissions.get(hid) if hid is not None else None
        pat = patients.get(sid)  # type: ignore[arg-type]
        missing = ("HADM_ID", f"admission {hid} is not in {adm_path}") if hid is not None and adm is None else (
            ("SUBJECT_ID", f"patient {sid} is not in {pat_path}") if pat is None else None)
        if missing is not None:
            if opts["unmatched"] == "skip":
                skipped["unmatched"] += 1
                continue
            raise InputError(missing[1] + " (set options.unmatched: skip to drop such notes)", file=str(notes),
                             row=row, field=missing[0])
        if adm is not None and adm["subject_id"] != sid:
            raise InputError(f"admission {hid} belongs to subject {adm['subject_id']}, the note says {sid}",
                             file=str(notes), row=row, field="SUBJECT_ID")
        case_id = rec["ROW_ID"].strip()
        label_fields: dict[str, str] = {}
        if labels is not None:
            label_id = {"ROW_ID": _int(rec["ROW_ID"], notes, row, "ROW_ID"), "HADM_ID": hid,
                        "SUBJECT_ID": sid}[label_key]
            if label_id is None or label_id not in labels:
                skipped["no_labels"] += 1
                continue
            label_fields = labels[label_id]
        if not case_id:
            raise InputError("empty ROW_ID", file=str(notes), row=row, field="ROW_ID")
        if case_id in seen:
            raise InputError(f"duplicate ROW_ID {case_id!r}: rows {seen[case_id]} and {row}", file=str(notes), row=row,
                             field="ROW_ID")
        seen[case_id] = row
        gender = pat["gender"]  # type: ignore[index]
        admit = adm["admittime"] if adm else None
        fields: dict[str, Any] = {
            "subject_id": sid,
            "hadm_id": hid,
            "category": category,
            "description": rec.get("DESCRIPTION", "").strip() or None,
            "chartdate": rec.get("CHARTDATE", "").strip() or None,
            "gender": gender,
            "sex": {"M": "male", "F": "female"}.get(gender or ""),
            "ethnicity": adm["ethnicity"] if adm else None,
            "ethnicity_group": ethnicity_group(adm["ethnicity"]) if adm else None,
            "insurance": adm["insurance"] if adm else None,
            "language": adm["language"] if adm else None,
            "language_group": language_group(adm["language"]) if adm else None,
            "admittime": admit.isoformat(sep=" ") if admit else None,
            "age": _age(pat["dob"], admit, max_age),  # type: ignore[index]
            **label_fields,
        }
        cases.append(Case(case_id=case_id, text=text, dataset=dataset, fields=fields, source=str(notes),
                          source_row=row))
    dropped = {k: v for k, v in skipped.items() if v}
    if dropped:
        log.info("%s: kept %d note(s); skipped %s", notes, len(cases), dropped)
    return cases
