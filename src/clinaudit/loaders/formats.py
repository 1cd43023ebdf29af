"""The shared reader of the built-in data formats, their case-building helpers and the generic formats.

Every loader turns one file into a list of :class:`~clinaudit.records.Case` and
registers itself with :func:`~clinaudit.loaders.base.register_loader`. All of
them share the one strict reader of this module (:func:`read_csv_table`,
:func:`read_jsonl_rows`) and the helpers below (options, column roles,
:class:`CaseBuilder`), so bad input is reported the same way: an
:class:`~clinaudit.errors.InputError` naming the file, the row and the field.

Row numbers (``Case.source_row`` and the ``row`` of an error) are **1-based data
rows**: for CSV the first record after the header is row 1 (a record may span
several physical lines when a quoted field holds newlines; blank lines are not
counted); for JSONL the row is the line number in the file.

The formats, one module each family: ``csv`` and ``jsonl`` (here),
``mts`` and ``aci`` (:mod:`.dialog_formats`), ``craftmd`` (:mod:`.craftmd`),
``medperturb`` (:mod:`.medperturb`), ``demo:<name>`` (:mod:`.demo`) and
``mimic3`` (:mod:`.mimic`). See ``docs/data-formats.md`` for every format's
columns, fields and options.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import logging
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..records import Case
from .base import DataSource, register_loader

__all__ = [
    "Table",
    "text_codec",
    "allow_large_csv_fields",
    "read_csv_table",
    "guess_delimiter",
    "delimiter_name",
    "read_jsonl_rows",
    "read_yaml_file",
    "read_utf8_text",
    "merge_options",
    "column_roles",
    "need_path",
    "require_columns",
    "clean_value",
    "parse_number",
    "parse_binary_label",
    "normalize_newlines",
    "CaseBuilder",
    "load_csv",
    "load_jsonl",
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
    #: the field separator used: the one given, else the one guessed (:func:`guess_delimiter`)
    delimiter: str = ","
    guessed: bool = False


#: the separators :func:`guess_delimiter` considers besides the comma (Excel in many locales writes ``;``)
OTHER_DELIMITERS = ";\t|"


def guess_delimiter(text: str) -> tuple[str, bool]:
    """(separator, guessed): the comma when it splits the header into two or more columns; else the one of
    ``;``, tab and ``|`` that :class:`csv.Sniffer` finds in the first lines, when it splits the header too; else the
    comma (a one-column file). ``guessed`` is True when the result is not the comma."""
    first = next(csv.reader(io.StringIO(text[:65536], newline="")), [])
    if len(first) >= 2:
        return ",", False
    sample = "\n".join(text[:65536].splitlines()[:50])
    try:
        sep = csv.Sniffer().sniff(sample, delimiters=OTHER_DELIMITERS).delimiter
    except csv.Error:
        head = text.split("\n", 1)[0]
        counts = {d: head.count(d) for d in OTHER_DELIMITERS}
        sep = max(counts, key=lambda d: counts[d])
        if not counts[sep]:
            return ",", False
    header = next(csv.reader(io.StringIO(text[:65536], newline=""), delimiter=sep), [])
    return (sep, True) if len(header) >= 2 else (",", False)


def delimiter_name(sep: str) -> str:
    """``';'`` -> ``semicolon ';'``, for messages."""
    return {",": "comma ','", ";": "semicolon ';'", "\t": "tab '\\t'", "|": "pipe '|'"}.get(sep, repr(sep))


def _codec(encoding: str, path: Path) -> str:
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise InputError(f"unknown text encoding {encoding!r}", file=str(path), field="options.encoding") from None
    return "utf-8-sig" if name == "utf-8" else name  # a UTF-8 byte-order mark is dropped


def text_codec(encoding: str, path: Path) -> str:
    """The codec the readers decode ``encoding`` with (UTF-8: ``utf-8-sig``, a byte-order mark dropped);
    an unknown encoding is an InputError."""
    return _codec(encoding, path)


def allow_large_csv_fields() -> None:
    """Let the ``csv`` module read fields of any size (its default limit is 128 KiB)."""
    if csv.field_size_limit() < _MAX_FIELD:
        csv.field_size_limit(min(_MAX_FIELD, sys.maxsize))


def _read_text(path: Path, encoding: str, *, csv_rows: bool) -> str:
    """Decode the whole file; a decoding failure names the data row and byte offset."""
    data = _read_bytes(path)
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


def read_yaml_file(path: str | Path) -> Any:
    """The YAML document of ``path`` (specs, gate policies, templates, target words, mock rules).

    Every way the file can be unreadable is one :class:`InputError` naming it: not found, not a
    file, not readable, not UTF-8 (with the line), not valid YAML (the parser's words, on one line,
    and the line it stopped at). A UTF-8 byte-order mark is dropped.
    """
    import yaml

    p = Path(path)
    text = read_utf8_text(p)
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        words = " ".join(str(e).split()).replace(' in "<unicode string>",', " at")
        raise InputError(f"not valid YAML: {words}", file=str(p)) from None


def read_utf8_text(path: str | Path) -> str:
    """A small text file a user gives (YAML, templates) as text: UTF-8, a byte-order mark dropped. Not found, not a
    file, not readable and not UTF-8 (with the byte offset and the line) are each an :class:`InputError` naming it."""
    p = Path(path)
    if p.exists() and not p.is_file():
        raise InputError("not a file", file=str(p))
    data = _read_bytes(p)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text ({e.reason} at byte offset {e.start}, line {line}); save the file as "
                         "UTF-8", file=str(p)) from None


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    except OSError as e:
        raise InputError(f"cannot read file: {e.strerror or e}", file=str(path)) from None


def read_csv_table(path: Path, encoding: str = "utf-8", delimiter: str | None = None) -> Table:
    """Read a CSV strictly: every value a string, every record as wide as the header.

    ``delimiter``: the field separator; ``None`` guesses it (:func:`guess_delimiter`: the comma, else ``;``, tab
    or ``|`` when the header splits on it, as Excel writes CSV in many locales); a guess other than the comma is
    logged (a warning naming the file and the separator). Empty header names (an index column written by pandas)
    become ``column_<position>``; surrounding whitespace in header names is removed; duplicate names are an error.
    """
    text = _read_text(path, encoding, csv_rows=True)
    allow_large_csv_fields()
    guessed = False
    if delimiter is None:
        delimiter, guessed = guess_delimiter(text)
        if guessed:
            log.warning("%s: fields separated by %s (guessed from the header; set delimiter: in the data source "
                        "to choose)", path, delimiter_name(delimiter))
    elif len(delimiter) != 1:
        raise InputError(f"delimiter must be one character, got {delimiter!r}", file=str(path), field="delimiter")
    # strict: a quote that is never closed, or closed in the middle of a field, is an error instead of
    # silently swallowing the following rows into one field
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter)
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
                    f"malformed row: it has {len(rec)} fields but the header has {len(header)} (fields separated by "
                    f"{delimiter_name(delimiter)}; set delimiter: in the data source if that is wrong)",
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
    return Table(path=path, header=header, rows=rows, delimiter=delimiter, guessed=guessed)


def read_jsonl_rows(path: Path, encoding: str = "utf-8") -> list[tuple[int, dict[str, Any]]]:
    """Read JSON Lines: one JSON object per line; blank lines are skipped (row = line number). Lines end at
    ``\n`` (or ``\r\n``) only, as JSON Lines says: a raw U+2028/U+2029 (or other break ``str.splitlines`` knows)
    inside a JSON string is part of the text, not a line end."""
    text = _read_text(path, encoding, csv_rows=False)
    out: list[tuple[int, dict[str, Any]]] = []
    for i, line in enumerate(text.split("\n"), start=1):
        line = line[:-1] if line.endswith("\r") else line
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


def merge_options(source: DataSource, path: Path | None, allowed: Mapping[str, Any]) -> dict[str, Any]:
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


def column_roles(source: DataSource, path: Path | None, defaults: Mapping[str, str]) -> dict[str, str]:
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


def need_path(source: DataSource, path: Path | None) -> Path:
    if path is None:
        raise InputError(f"format '{source.format}' needs a 'path'", field="path")
    return path


def require_columns(table: Table, columns: list[str], roles: Mapping[str, str] | None = None) -> None:
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


def clean_value(value: str | None) -> str | None:
    """Strip surrounding whitespace; empty -> None."""
    if value is None:
        return None
    v = value.strip()
    return v or None


def parse_number(value: str | None) -> int | float | str | None:
    """'59' -> 59, '33.0' -> 33, '2.5' -> 2.5, '22-month' -> '22-month', '' -> None."""
    v = clean_value(value)
    if v is None:
        return None
    try:
        f = float(v)
    except ValueError:
        return v
    if math.isfinite(f) and f == int(f):
        return int(f)
    return f


def parse_binary_label(value: str, path: Path, row: int, field: str) -> int | None:
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


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


class CaseBuilder:
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


# --------------------------------------------------------------------------- generic CSV / JSONL


_GENERIC_OPTIONS: dict[str, Any] = {"encoding": "utf-8", "skip_empty": False, "keep_columns": True}


def _generic(source: DataSource, path: Path, header: list[str] | None,
             rows: list[tuple[int, dict[str, Any]]]) -> list[Case]:
    opts = merge_options(source, path, _GENERIC_OPTIONS)
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
    b = CaseBuilder(path, source.name or path.stem, skip_empty=opts["skip_empty"], id_field=id_col or "row",
                     text_field=mapping["text"])
    for row, rec in rows:
        if header is None:
            check(list(rec), row)
        raw_id = rec[id_col] if id_col else row
        case_id = "" if raw_id is None else strip_id(str(raw_id))
        fields = {role: rec[col] for role, col in extra.items()}
        for col in source.identifiers:  # moved to fields["identifiers"] by load_cases
            if col in rec:
                fields[col] = rec[col]
        if opts["keep_columns"]:
            for col, value in rec.items():
                if col not in used and col not in fields:
                    fields[col] = value
        b.add(row, case_id, rec[mapping["text"]], fields)
    return b.done()


#: what is stripped from the ends of an id: spaces (Unicode's too), not tabs or line breaks — an id that starts with
#: a tab is kept as given (the outputs are joined on it; exports neutralise it reversibly)
_ID_SPACES = "".join(c for c in map(chr, range(0x3001)) if c.isspace() and c not in "\t\n\r\v\f\x1c\x1d\x1e\x1f\x85")


def strip_id(raw: str) -> str:
    """An id as read: ``raw`` without the spaces around it (tabs and line breaks at its ends are kept)."""
    return raw.strip(_ID_SPACES)


@register_loader("csv", "any CSV with a column mapping: columns: {id: <col>, text: <col>, <field>: <col>}")
def load_csv(source: DataSource, path: Path | None) -> list[Case]:
    """Generic CSV. ``columns.text`` is required; ``columns.id`` defaults to the 1-based row number.

    Other mapped roles become fields under the role's name; unmapped columns are
    kept in ``fields`` under their own names unless ``options.keep_columns: false``.
    """
    path = need_path(source, path)
    opts = merge_options(source, path, _GENERIC_OPTIONS)
    table = read_csv_table(path, opts["encoding"], source.delimiter)
    return _generic(source, path, table.header, list(table.rows))


@register_loader("jsonl", "JSON Lines (one object per line) with a column mapping like csv")
def load_jsonl(source: DataSource, path: Path | None) -> list[Case]:
    """Generic JSON Lines: like ``csv``, with keys for columns and JSON values kept as they are."""
    path = need_path(source, path)
    opts = merge_options(source, path, _GENERIC_OPTIONS)
    return _generic(source, path, None, read_jsonl_rows(path, opts["encoding"]))
