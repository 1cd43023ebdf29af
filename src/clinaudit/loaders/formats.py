"""Built-in data formats: MTS-Dialog, ACI-Bench, CRAFT-MD, MedPerturb, generic CSV/JSONL, demo data.

Every loader turns one file into a list of :class:`~clinaudit.records.Case` and
registers itself with :func:`~clinaudit.loaders.base.register_loader`. All of
them share one strict reader, so bad input is reported the same way: an
:class:`~clinaudit.errors.InputError` naming the file, the row and the field.

Row numbers (``Case.source_row`` and the ``row`` of an error) are **1-based data
rows**: for CSV the first record after the header is row 1 (a record may span
several physical lines when a quoted field holds newlines; blank lines are not
counted); for JSONL the row is the line number in the file.

See ``docs/data-formats.md`` for every format's columns, fields and options.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import logging
import math
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..records import Case
from .base import DataSource, register_loader
from .dialog import parse_dialog

__all__ = [
    "Table",
    "read_csv_table",
    "read_jsonl_rows",
    "load_mts",
    "load_aci",
    "load_craftmd",
    "load_medperturb",
    "load_csv",
    "load_jsonl",
    "load_demo",
    "DEMO_SOURCES",
]

log = logging.getLogger("clinaudit.loaders")

_MAX_FIELD = 2**31 - 1


# --------------------------------------------------------------------------- reading


@dataclass
class Table:
    """A CSV file read as strings: its header and ``(row number, {column: value})`` records."""

    path: Path
    header: list[str]
    rows: list[tuple[int, dict[str, str]]]


def _codec(encoding: str, path: Path) -> str:
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise InputError(f"unknown text encoding {encoding!r}", file=str(path), field="options.encoding") from None
    return "utf-8-sig" if name == "utf-8" else name  # a UTF-8 byte-order mark is dropped


def _read_text(path: Path, encoding: str, *, csv_rows: bool) -> str:
    """Decode the whole file; a decoding failure names the data row and byte offset."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    except OSError as e:
        raise InputError(f"cannot read file: {e.strerror or e}", file=str(path)) from None
    codec = _codec(encoding, path)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as e:
        offset = e.start
        line = data[:offset].count(b"\n") + 1
        row: int | None
        prefix = data[:offset].decode(codec, errors="replace")
        if csv_rows:
            # the record holding the bad byte is the last record of prefix + sentinel; record 0 is the header
            try:
                n = sum(1 for rec in csv.reader(io.StringIO(prefix + "\x00", newline="")) if rec)
            except csv.Error:
                n = line
            row = n - 1 if n - 1 >= 1 else None
        else:
            row = line
        raise InputError(
            f"cannot decode the file as {encoding} at byte offset {offset} (line {line}): {e.reason} "
            f"(byte 0x{data[offset]:02x}); set options.encoding to the file's encoding, e.g. latin-1 or cp1252",
            file=str(path),
            row=row,
            field="header" if csv_rows and row is None else None,
        ) from None
    return text.lstrip("\ufeff")


def read_csv_table(path: Path, encoding: str = "utf-8") -> Table:
    """Read a CSV strictly: every value a string, every record as wide as the header.

    Empty header names (an index column written by pandas) become ``column_<position>``;
    surrounding whitespace in header names is removed; duplicate names are an error.
    """
    text = _read_text(path, encoding, csv_rows=True)
    if csv.field_size_limit() < _MAX_FIELD:
        csv.field_size_limit(min(_MAX_FIELD, sys.maxsize))
    # strict: a quote that is never closed, or closed in the middle of a field, is an error instead of
    # silently swallowing the following rows into one field
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    header: list[str] | None = None
    rows: list[tuple[int, dict[str, str]]] = []
    n = 0
    line_before = 0
    try:
        for rec in reader:
            line_before = reader.line_num  # physical lines up to the end of this record
            if not rec or (len(rec) == 1 and rec[0] == "" and header is not None):
                continue  # blank line
            if header is None:
                header = [h.strip() or f"column_{i + 1}" for i, h in enumerate(rec)]
                seen: set[str] = set()
                for h in header:
                    if h in seen:
                        raise InputError("duplicate column name in the header", file=str(path), field=h)
                    seen.add(h)
                continue
            n += 1
            if len(rec) != len(header):
                raise InputError(
                    f"malformed row: it has {len(rec)} fields but the header has {len(header)}",
                    file=str(path),
                    row=n,
                )
            rows.append((n, dict(zip(header, rec))))
    except csv.Error as e:
        start = line_before + 1
        if "unexpected end of data" in str(e) or "expected after" in str(e):
            why = ("a quoted field opened at line {start} is never closed (unterminated quote)"
                   if "end of data" in str(e) else
                   "a quoted field opened at or after line {start} is closed in the middle of the field "
                   "(a stray or unterminated quote)").format(start=start)
            msg = f"malformed CSV: {why}; rows after it would be swallowed. Close the quote or double it (\"\")"
        else:
            msg = f"malformed CSV near line {start}: {e}"
        raise InputError(msg, file=str(path), row=n + 1 if header is not None else None,
                         field="header" if header is None else None) from None
    if header is None:
        raise InputError("the file is empty (no header row)", file=str(path))
    return Table(path=path, header=header, rows=rows)


def read_jsonl_rows(path: Path, encoding: str = "utf-8") -> list[tuple[int, dict[str, Any]]]:
    """Read JSON Lines: one JSON object per line; blank lines are skipped (row = line number)."""
    text = _read_text(path, encoding, csv_rows=False)
    out: list[tuple[int, dict[str, Any]]] = []
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"malformed JSON: {e.msg} at column {e.colno}", file=str(path), row=i) from None
        if not isinstance(obj, dict):
            raise InputError(f"expected a JSON object, got {type(obj).__name__}", file=str(path), row=i)
        out.append((i, obj))
    return out


# --------------------------------------------------------------------------- helpers


def _options(source: DataSource, path: Path | None, allowed: Mapping[str, Any]) -> dict[str, Any]:
    """Merge ``source.options`` over defaults; unknown keys and mistyped booleans are errors."""
    where = str(path) if path is not None else None
    opts = dict(allowed)
    for key, value in source.options.items():
        if key not in allowed:
            raise InputError(
                f"unknown option for format '{source.format}'; known options: {', '.join(sorted(allowed)) or '(none)'}",
                file=where,
                field=f"options.{key}",
            )
        if isinstance(allowed[key], bool) and not isinstance(value, bool):
            raise InputError(f"expected true or false, got {value!r}", file=where, field=f"options.{key}")
        opts[key] = value
    return opts


def _columns(source: DataSource, path: Path | None, defaults: Mapping[str, str]) -> dict[str, str]:
    """Default column names of a dataset format, overridable through ``source.columns``."""
    cols = dict(defaults)
    for key, value in source.columns.items():
        if key not in defaults:
            raise InputError(
                f"format '{source.format}' has no column role '{key}'; roles: {', '.join(defaults)}",
                file=str(path) if path is not None else None,
                field=f"columns.{key}",
            )
        cols[key] = value
    return cols


def _need_path(source: DataSource, path: Path | None) -> Path:
    if path is None:
        raise InputError(f"format '{source.format}' needs a 'path'", field="path")
    return path


def _require(table: Table, columns: list[str], roles: Mapping[str, str] | None = None) -> None:
    have = set(table.header)
    for col in columns:
        if col not in have:
            role = next((r for r, c in (roles or {}).items() if c == col and r != col), None)
            mapped = f" (mapped to '{role}')" if role else ""
            raise InputError(
                f"column '{col}'{mapped} not found; available columns: {', '.join(table.header)}",
                file=str(table.path),
                field=col,
            )


def _clean(value: str | None) -> str | None:
    """Strip surrounding whitespace; empty -> None."""
    if value is None:
        return None
    v = value.strip()
    return v or None


def _number(value: str | None) -> int | float | str | None:
    """'59' -> 59, '33.0' -> 33, '2.5' -> 2.5, '22-month' -> '22-month', '' -> None."""
    v = _clean(value)
    if v is None:
        return None
    try:
        f = float(v)
    except ValueError:
        return v
    if math.isfinite(f) and f == int(f):
        return int(f)
    return f


def _int_label(value: str, path: Path, row: int, field: str) -> int | None:
    v = value.strip()
    if v == "":
        return None
    try:
        f = float(v)
    except ValueError:
        f = math.nan
    if f not in (0.0, 1.0):
        raise InputError(f"expected a 0/1 label, got {value!r}", file=str(path), row=row, field=field)
    return int(f)


def _normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


class _CaseBuilder:
    """Collects cases, enforcing non-empty text and unique ids (errors name both rows)."""

    def __init__(self, path: Path, dataset: str, *, skip_empty: bool, id_field: str | None, text_field: str):
        self.path, self.dataset = path, dataset
        self.skip_empty, self.id_field, self.text_field = skip_empty, id_field, text_field
        self.cases: list[Case] = []
        self.skipped: list[int] = []
        self._rows: dict[str, int] = {}

    def add(self, row: int, case_id: str, text: Any, fields: dict[str, Any]) -> None:
        if text is None or (isinstance(text, str) and not text.strip()):
            if self.skip_empty:
                self.skipped.append(row)
                return
            raise InputError(
                "empty text (set options.skip_empty: true to drop such rows)",
                file=str(self.path),
                row=row,
                field=self.text_field,
            )
        if not isinstance(text, str):
            raise InputError(f"text must be a string, got {type(text).__name__}", file=str(self.path), row=row,
                             field=self.text_field)
        if not case_id:
            raise InputError("empty id", file=str(self.path), row=row, field=self.id_field)
        if case_id in self._rows:
            raise InputError(
                f"duplicate id {case_id!r}: rows {self._rows[case_id]} and {row}",
                file=str(self.path),
                row=row,
                field=self.id_field,
            )
        self._rows[case_id] = row
        self.cases.append(
            Case(case_id=case_id, text=text, dataset=self.dataset, fields=fields, source=str(self.path), source_row=row)
        )

    def done(self) -> list[Case]:
        if self.skipped:
            shown = ", ".join(map(str, self.skipped[:20])) + (" ..." if len(self.skipped) > 20 else "")
            log.warning("%s: skipped %d row(s) with empty '%s' (rows %s)", self.path, len(self.skipped),
                        self.text_field, shown)
        return self.cases


def _dialog_fields(dialogue: str) -> dict[str, Any]:
    turns = parse_dialog(dialogue)
    return {"turns": [t.to_dict() for t in turns], "n_turns": len(turns)}


def _min_turns(cases: list[Case], min_turns: int | None, path: Path) -> list[Case]:
    if not min_turns:
        return cases
    kept = [c for c in cases if c.fields["n_turns"] >= min_turns]
    if len(kept) < len(cases):
        log.info("%s: dropped %d dialog(s) with fewer than %d turns", path, len(cases) - len(kept), min_turns)
    return kept


# --------------------------------------------------------------------------- MTS-Dialog


_MTS_OPTIONS: dict[str, Any] = {"encoding": "utf-8", "skip_empty": False, "min_turns": None}


@register_loader("mts", "MTS-Dialog CSV (ID, section_header, section_text, dialogue with 'Doctor:'/'Patient:' lines)")
def load_mts(source: DataSource, path: Path | None) -> list[Case]:
    """One case per dialog: ``text`` = the dialogue (newlines normalised to ``\\n``).

    Fields: ``section_header``, ``section_text``, ``turns`` (list of ``{speaker, utterance}``), ``n_turns``.
    """
    path = _need_path(source, path)
    opts = _options(source, path, _MTS_OPTIONS)
    cols = _columns(source, path, {"id": "ID", "text": "dialogue", "section_header": "section_header",
                                   "section_text": "section_text"})
    table = read_csv_table(path, opts["encoding"])
    _require(table, list(cols.values()), cols)
    b = _CaseBuilder(path, source.name or "mts", skip_empty=opts["skip_empty"], id_field=cols["id"],
                     text_field=cols["text"])
    for row, rec in table.rows:
        text = _normalize_newlines(rec[cols["text"]])
        fields: dict[str, Any] = {
            "section_header": rec[cols["section_header"]].strip(),
            "section_text": _normalize_newlines(rec[cols["section_text"]]),
        }
        fields.update(_dialog_fields(text))
        b.add(row, rec[cols["id"]].strip(), text, fields)
    return _min_turns(b.done(), opts["min_turns"], path)


# --------------------------------------------------------------------------- ACI-Bench


_ACI_OPTIONS: dict[str, Any] = {
    "encoding": "utf-8",
    "skip_empty": False,
    "min_turns": None,
    "metadata": True,  # true: join <stem>_metadata.csv when it exists; false: never; a path: that file
    "keep_metadata": False,  # keep names and age from the metadata (patient_gender is always removed)
}
# metadata columns: always removed / removed unless keep_metadata / kept
_ACI_ALWAYS_DROPPED = {"patient_gender"}
_ACI_IDENTIFYING = ("doctor_name", "patient_firstname", "patient_familyname", "patient_age")


def _aci_metadata(path: Path, opts: dict[str, Any], id_col: str = "encounter_id"
                  ) -> tuple[dict[str, dict[str, Any]], Path | None]:
    """Metadata rows by encounter id. The join column is the data file's id column when the metadata has it
    (``id`` in ACI-Bench's ASR experiment files), else ``encounter_id``, else ``id``."""
    spec = opts["metadata"]
    if spec is False or spec is None:
        return {}, None
    if spec is True:
        meta_path = path.with_name(f"{path.stem}_metadata{path.suffix}")
        if not meta_path.exists():
            return {}, None
    else:
        meta_path = Path(str(spec)).expanduser()
        if not meta_path.is_absolute():
            meta_path = path.parent / meta_path
        if not meta_path.exists():
            raise InputError("metadata file not found", file=str(meta_path), field="options.metadata")
    table = read_csv_table(meta_path, opts["encoding"])
    join = next((c for c in (id_col, "encounter_id", "id") if c in table.header), "encounter_id")
    _require(table, [join])
    out: dict[str, dict[str, Any]] = {}
    first_row: dict[str, int] = {}
    for row, rec in table.rows:
        eid = rec[join].strip()
        if eid in out:
            raise InputError(f"duplicate {join} {eid!r}: rows {first_row[eid]} and {row}",
                             file=str(meta_path), row=row, field=join)
        first_row[eid] = row
        meta: dict[str, Any] = {}
        for col, raw in rec.items():
            if col in (join, "encounter_id", "dataset") or col in _ACI_ALWAYS_DROPPED:
                continue
            if col in _ACI_IDENTIFYING and not opts["keep_metadata"]:
                continue
            key = "metadata_id" if col == "id" else col
            meta[key] = _number(raw) if col == "patient_age" else _clean(raw)
        out[eid] = meta
    return out, meta_path


@register_loader("aci", "ACI-Bench CSV (dataset, encounter_id, dialogue with [doctor]/[patient] tags, note); "
                        "joins <stem>_metadata.csv without patient_gender")
def load_aci(source: DataSource, path: Path | None) -> list[Case]:
    """One case per encounter: ``case_id`` = encounter_id, ``text`` = the dialogue.

    Fields: ``note``, ``turns``, ``n_turns``, ``source_dataset`` and, from a sibling
    ``<stem>_metadata.csv`` when present, ``metadata_id``, ``cc``, ``2nd_complaints``
    (values stripped, missing -> None). ``patient_gender`` is never loaded; names and
    age only with ``options.keep_metadata: true``.
    """
    path = _need_path(source, path)
    opts = _options(source, path, _ACI_OPTIONS)
    cols = _columns(source, path, {"id": "encounter_id", "text": "dialogue", "note": "note",
                                   "source_dataset": "dataset"})
    table = read_csv_table(path, opts["encoding"])
    if "id" not in source.columns and cols["id"] not in table.header and "id" in table.header:
        cols["id"] = "id"  # ACI-Bench's ASR experiment files (src_experiment_data/*) name the column `id`
    _require(table, list(cols.values()), cols)
    meta, meta_path = _aci_metadata(path, opts, cols["id"])
    b = _CaseBuilder(path, source.name or "aci", skip_empty=opts["skip_empty"], id_field=cols["id"],
                     text_field=cols["text"])
    unmatched: list[str] = []
    for row, rec in table.rows:
        eid = rec[cols["id"]].strip()
        text = _normalize_newlines(rec[cols["text"]])
        fields: dict[str, Any] = {"note": _normalize_newlines(rec[cols["note"]]),
                                  "source_dataset": rec[cols["source_dataset"]].strip()}
        fields.update(_dialog_fields(text))
        if meta_path is not None:
            if eid not in meta:
                unmatched.append(eid)
            fields.update(meta.get(eid, {}))
            fields["metadata_file"] = meta_path.name
        b.add(row, eid, text, fields)
    if unmatched:
        log.warning("%s: %d encounter(s) have no row in %s (e.g. %s); their metadata fields are missing", path,
                    len(unmatched), meta_path, ", ".join(unmatched[:5]))
    return _min_turns(b.done(), opts["min_turns"], path)


# --------------------------------------------------------------------------- CRAFT-MD / MedQA MCQ


_CRAFTMD_OPTIONS: dict[str, Any] = {
    "encoding": "utf-8",
    "skip_empty": False,
    "answer_aliases": {},  # {answer as written: choice text} for answers worded differently from the choice
    "builtin_aliases": True,  # apply the alias below, needed by the published CRAFT-MD file
    "unmatched_answer": "error",  # error | skip | keep (answer_letter None)
}
# The published CRAFT-MD data gives one answer under a former, misspelt name of its choice
# (Henoch-Schönlein purpura is the former name of IgA vasculitis).
_BUILTIN_ANSWER_ALIASES = {"henoch-scholein vasculitis": "IgA vasculitis"}


def _norm_choice(s: str) -> str:
    return " ".join(s.split()).casefold()


def _choice_columns(header: list[str]) -> list[str]:
    found = sorted(((int(m.group(1)), h) for h in header if (m := re.fullmatch(r"choice_(\d+)", h))))
    return [h for _, h in found]


@register_loader("craftmd", "CRAFT-MD / MedQA multiple-choice CSV (case_vignette, choice_1..4, answer, category, "
                            "dataset, case_id[, case_type]); also the MIM perturbed files")
def load_craftmd(source: DataSource, path: Path | None) -> list[Case]:
    """One case per vignette: ``text`` = case_vignette (unchanged, byte for byte).

    Fields: ``choices`` (list), ``answer`` (the matching choice's text), ``answer_letter``
    (A, B, ... by position), ``category``, ``source_dataset``, ``case_type`` when the
    column exists, ``answer_raw`` when the written answer differed from the choice
    (whitespace, case, alias). ``case_id`` comes from the ``case_id`` column; if that
    column is missing or has empty or duplicate values, the pandas index column (an
    unnamed first column) is used, else the 1-based row number.
    """
    path = _need_path(source, path)
    opts = _options(source, path, _CRAFTMD_OPTIONS)
    if opts["unmatched_answer"] not in ("error", "skip", "keep"):
        raise InputError(f"expected error, skip or keep, got {opts['unmatched_answer']!r}", file=str(path),
                         field="options.unmatched_answer")
    if not isinstance(opts["answer_aliases"], Mapping):
        raise InputError("expected a mapping {written answer: choice}", file=str(path),
                         field="options.answer_aliases")
    cols = _columns(source, path, {"id": "case_id", "text": "case_vignette", "answer": "answer",
                                   "category": "category", "source_dataset": "dataset"})
    table = read_csv_table(path, opts["encoding"])
    required = [cols[k] for k in ("text", "answer")]
    _require(table, required, cols)
    choice_cols = _choice_columns(table.header)
    if len(choice_cols) < 2:
        raise InputError(f"expected columns choice_1, choice_2, ...; available columns: {', '.join(table.header)}",
                         file=str(path), field="choice_1")
    aliases = {_norm_choice(k): v for k, v in (_BUILTIN_ANSWER_ALIASES if opts["builtin_aliases"] else {}).items()}
    aliases.update({_norm_choice(str(k)): str(v) for k, v in opts["answer_aliases"].items()})

    ids = _craftmd_ids(table, cols["id"])
    b = _CaseBuilder(path, source.name or "craftmd", skip_empty=opts["skip_empty"],
                     id_field=cols["id"] if cols["id"] in table.header else None, text_field=cols["text"])
    unmatched = 0
    for (row, rec), case_id in zip(table.rows, ids):
        choices = [rec[c].strip() for c in choice_cols if rec[c].strip()]
        raw_answer = rec[cols["answer"]]
        idx = _match_answer(raw_answer, choices, aliases)
        if idx is None:
            msg = f"answer {raw_answer.strip()!r} is not among the choices {choices}"
            if opts["unmatched_answer"] == "error":
                raise InputError(msg + " (map it with options.answer_aliases, or set options.unmatched_answer: "
                                 "skip | keep)", file=str(path), row=row, field=cols["answer"])
            unmatched += 1
            if opts["unmatched_answer"] == "skip":
                continue
        fields: dict[str, Any] = {
            "choices": choices,
            "answer": choices[idx] if idx is not None else raw_answer.strip(),
            "answer_letter": _letter(idx) if idx is not None else None,
            "category": rec[cols["category"]].strip() if cols["category"] in rec else None,
            "source_dataset": rec[cols["source_dataset"]].strip() if cols["source_dataset"] in rec else None,
        }
        if "case_type" in rec:
            fields["case_type"] = rec["case_type"].strip()
        if idx is not None and raw_answer != choices[idx]:
            fields["answer_raw"] = raw_answer
        b.add(row, case_id, rec[cols["text"]], fields)
    if unmatched:
        log.warning("%s: %d answer(s) not among the choices (%s)", path, unmatched, opts["unmatched_answer"])
    return b.done()


def _letter(i: int) -> str:
    return chr(ord("A") + i)


def _match_answer(answer: str, choices: list[str], aliases: Mapping[str, str]) -> int | None:
    if answer in choices:
        return choices.index(answer)
    norm = [_norm_choice(c) for c in choices]
    key = _norm_choice(answer)
    for candidate in (key, _norm_choice(aliases.get(key, ""))):
        if candidate and candidate in norm:
            return norm.index(candidate)
    return None


def _craftmd_ids(table: Table, id_col: str) -> list[str]:
    def usable(values: list[str]) -> bool:
        return all(values) and len(set(values)) == len(values)

    if id_col in table.header:
        values = [rec[id_col].strip() for _, rec in table.rows]
        if usable(values):
            return values
        reason = "has empty or duplicate values"
    else:
        reason = "is missing"
    index_col = table.header[0] if table.header and table.header[0] == "column_1" else None
    if index_col is not None:
        values = [rec[index_col].strip() for _, rec in table.rows]
        if usable(values):
            log.warning("%s: column '%s' %s; using the index column as case id", table.path, id_col, reason)
            return values
    log.warning("%s: column '%s' %s; using the 1-based row number as case id", table.path, id_col, reason)
    return [str(row) for row, _ in table.rows]


# --------------------------------------------------------------------------- MedPerturb


_MEDPERTURB_OPTIONS: dict[str, Any] = {
    "encoding": "utf-8",
    "skip_empty": False,
    "datasets": None,  # keep only these dataset values, e.g. [oncqa, askadoc]
    "dataset_ids": None,  # keep only these arms, e.g. [1, 2]
    "context_id_overrides": {},  # {Index value: corrected context_id}
}
_QUESTIONS = ("MANAGE", "VISIT", "RESOURCE")
# dataset_id -> arm name, per dataset (MedPerturb README)
_MEDPERTURB_ARMS = {
    "oncqa": {1: "baseline", 2: "gender_swap", 3: "gender_removal", 4: "uncertain", 5: "colorful"},
    "askadoc": {1: "baseline", 2: "gender_swap", 3: "gender_removal", 4: "uncertain", 5: "colorful"},
    "conversational": {1: "vignette", 2: "multi_turn", 3: "summarized"},
}


@register_loader("medperturb", "MedPerturb data.csv: clinical contexts with clinician and model MANAGE/VISIT/RESOURCE "
                               "labels; case_id = dataset:context_id:dataset_id")
def load_medperturb(source: DataSource, path: Path | None) -> list[Case]:
    """One case per row: ``case_id`` = ``f"{dataset}:{context_id}:{dataset_id}"``, ``text`` = clinical_context.

    Fields: ``dataset``, ``dataset_id``, ``context_id``, ``pair_id`` (dataset:context_id,
    shared by a context's arms), ``arm`` (baseline, gender_swap, ... / vignette,
    multi_turn, summarized), ``original_patient_gender``, ``index``,
    ``clinician_labels`` ``{MANAGE: [c1, c2, c3], ...}``, ``clinician_majority``,
    ``clinician_ids``, ``clinician_durations_s`` and ``model_labels``
    ``{GPT4: {MANAGE, VISIT, RESOURCE}, ...}``. Rows that share a case id (the
    published file has one: conversational:211:2 twice) get ``#<Index>`` appended to
    each such id and ``duplicate_key: true``; fix them with
    ``options.context_id_overrides``.
    """
    path = _need_path(source, path)
    opts = _options(source, path, _MEDPERTURB_OPTIONS)
    table = read_csv_table(path, opts["encoding"])
    base_cols = ["dataset", "dataset_id", "context_id", "original_patient_gender", "clinical_context"]
    _require(table, base_cols)
    clin_cols = {
        q: sorted((c for c in table.header if re.fullmatch(rf"{q}_\d+", c)), key=lambda c: int(c.rsplit("_", 1)[1]))
        for q in _QUESTIONS
    }
    model_cols: dict[str, dict[str, str]] = {}
    for c in table.header:
        m = re.fullmatch(r"(.+)_(MANAGE|VISIT|RESOURCE)", c)
        if m:
            model_cols.setdefault(m.group(1), {})[m.group(2)] = c
    n_clin = len(clin_cols["MANAGE"])
    overrides = {str(k).strip(): str(v).strip() for k, v in (opts["context_id_overrides"] or {}).items()}
    keep_ds = None if opts["datasets"] is None else {str(d) for d in opts["datasets"]}
    keep_ids = None if opts["dataset_ids"] is None else {int(d) for d in opts["dataset_ids"]}

    prepared: list[tuple[int, str, str, dict[str, Any]]] = []
    for row, rec in table.rows:
        ds = rec["dataset"].strip()
        try:
            ds_id = int(float(rec["dataset_id"]))
        except ValueError:
            raise InputError(f"expected an integer, got {rec['dataset_id']!r}", file=str(path), row=row,
                             field="dataset_id") from None
        if (keep_ds is not None and ds not in keep_ds) or (keep_ids is not None and ds_id not in keep_ids):
            continue
        index = rec.get("Index", "").strip()
        ctx = overrides.get(index, rec["context_id"].strip())
        clin = {q: [_int_label(rec[c], path, row, c) for c in clin_cols[q]] for q in _QUESTIONS}
        majority = {}
        for q, labels in clin.items():
            known = [v for v in labels if v is not None]
            majority[q] = None if not known or 2 * sum(known) == len(known) else int(2 * sum(known) > len(known))
        fields: dict[str, Any] = {
            "dataset": ds,
            "dataset_id": ds_id,
            "context_id": ctx,
            "pair_id": f"{ds}:{ctx}",
            "arm": _MEDPERTURB_ARMS.get(ds, {}).get(ds_id),
            "original_patient_gender": _clean(rec["original_patient_gender"]),
            "index": _number(index),
            "clinician_labels": clin,
            "clinician_majority": majority,
            "clinician_ids": [_number(rec.get(f"Clinician_{i}")) for i in range(1, n_clin + 1)],
            "clinician_durations_s": [_number(rec.get(f"Duration_{i}")) for i in range(1, n_clin + 1)],
            "model_labels": {mdl: {q: _int_label(rec[c], path, row, c) for q, c in qs.items()}
                             for mdl, qs in model_cols.items()},
        }
        if ctx != rec["context_id"].strip():
            fields["context_id_published"] = rec["context_id"].strip()
        prepared.append((row, f"{ds}:{ctx}:{ds_id}", rec["clinical_context"], fields))

    counts: dict[str, int] = {}
    for _, key, _, _ in prepared:
        counts[key] = counts.get(key, 0) + 1
    b = _CaseBuilder(path, source.name or "medperturb", skip_empty=opts["skip_empty"], id_field="context_id",
                     text_field="clinical_context")
    for row, key, text, fields in prepared:
        if counts[key] > 1:
            log.warning("%s: case id %s occurs %d times; row %d becomes %s#%s", path, key, counts[key], row, key,
                        fields["index"] if fields["index"] is not None else row)
            fields["duplicate_key"] = True
            key = f"{key}#{fields['index'] if fields['index'] is not None else row}"
        b.add(row, key, text, fields)
    return b.done()


# --------------------------------------------------------------------------- generic CSV / JSONL


_GENERIC_OPTIONS: dict[str, Any] = {"encoding": "utf-8", "skip_empty": False, "keep_columns": True}


def _generic(source: DataSource, path: Path, header: list[str] | None,
             rows: list[tuple[int, dict[str, Any]]]) -> list[Case]:
    opts = _options(source, path, _GENERIC_OPTIONS)
    mapping = dict(source.columns)
    if "text" not in mapping:
        raise InputError("the column mapping needs a 'text' entry, e.g. columns: {id: my_id, text: my_text}",
                         file=str(path), field="columns.text")
    id_col = mapping.get("id")
    extra = {k: v for k, v in mapping.items() if k not in ("id", "text")}
    used = set(mapping.values())

    def check(available: list[str], row: int | None) -> None:
        for role, col in mapping.items():
            if col not in available:
                raise InputError(
                    f"column '{col}' (mapped to '{role}') not found; available columns: {', '.join(available)}",
                    file=str(path), row=row, field=col,
                )

    if header is not None:
        check(header, None)
    b = _CaseBuilder(path, source.name or path.stem, skip_empty=opts["skip_empty"], id_field=id_col or "row",
                     text_field=mapping["text"])
    for row, rec in rows:
        if header is None:
            check(list(rec), row)
        raw_id = rec[id_col] if id_col else row
        case_id = "" if raw_id is None else str(raw_id).strip()
        fields = {role: rec[col] for role, col in extra.items()}
        if opts["keep_columns"]:
            for col, value in rec.items():
                if col not in used and col not in fields:
                    fields[col] = value
        b.add(row, case_id, rec[mapping["text"]], fields)
    return b.done()


@register_loader("csv", "any CSV with a column mapping: columns: {id: <col>, text: <col>, <field>: <col>}")
def load_csv(source: DataSource, path: Path | None) -> list[Case]:
    """Generic CSV. ``columns.text`` is required; ``columns.id`` defaults to the 1-based row number.

    Other mapped roles become fields under the role's name; unmapped columns are
    kept in ``fields`` under their own names unless ``options.keep_columns: false``.
    """
    path = _need_path(source, path)
    opts = _options(source, path, _GENERIC_OPTIONS)
    table = read_csv_table(path, opts["encoding"])
    return _generic(source, path, table.header, list(table.rows))


@register_loader("jsonl", "JSON Lines (one object per line) with a column mapping like csv")
def load_jsonl(source: DataSource, path: Path | None) -> list[Case]:
    """Generic JSON Lines: like ``csv``, with keys for columns and JSON values kept as they are."""
    path = _need_path(source, path)
    opts = _options(source, path, _GENERIC_OPTIONS)
    return _generic(source, path, None, read_jsonl_rows(path, opts["encoding"]))


# --------------------------------------------------------------------------- demo data

# demo name -> (file, format, column mapping)
DEMO_SOURCES: dict[str, tuple[str, str, dict[str, str]]] = {
    "patient_messages": ("patient_messages.csv", "csv", {"id": "case_id", "text": "message"}),
    "vignettes": ("vignettes.csv", "craftmd", {}),
    "dialogs": ("dialogs.csv", "mts", {}),
    "dialogs_aci": ("dialogs_aci.csv", "aci", {}),
}
_DEMO_LOADERS: dict[str, Callable[[DataSource, Path | None], list[Case]]] = {
    "csv": load_csv, "craftmd": load_craftmd, "mts": load_mts, "aci": load_aci,
}


@register_loader("demo", "the project's own demo cases: demo:patient_messages | demo:vignettes | demo:dialogs | "
                         "demo:dialogs_aci")
def load_demo(source: DataSource, path: Path | None) -> list[Case]:
    """Demo data shipped with clinaudit (``format: demo:<name>``; no path needed).

    Each demo file is read by its own format's loader; ``options`` pass through.
    """
    from ..data import demo_path

    _, _, name = source.format.partition(":")
    if name not in DEMO_SOURCES:
        raise InputError(f"unknown demo data {name!r}; available: "
                         + ", ".join(f"demo:{n}" for n in DEMO_SOURCES), field="format")
    file, fmt, columns = DEMO_SOURCES[name]
    inner = source.model_copy(update={
        "format": fmt,
        "path": None,
        "columns": {**columns, **source.columns},
        "name": source.name or f"demo:{name}",
    })
    return _DEMO_LOADERS[fmt](inner, demo_path(file))

from . import mimic  # noqa: E402,F401  (registers the mimic3 format)
