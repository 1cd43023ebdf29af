"""The rows of a ``clinaudit generate`` input read one at a time: memory flat in the number of rows.

:func:`open_input_rows` reads a CSV or JSONL file twice: once to check it (every row as wide as the header,
the id and text columns present, no empty id or text, no id twice, ...) keeping nothing per row but an
8-byte hash of its id, then again, row by row, as the runner takes the requests. The rows it yields, and
the rows it accepts, are exactly those of the generic ``csv``/``jsonl`` loaders
(:func:`clinaudit.loaders.base.load_cases`): whenever the check finds anything out of the ordinary (a bad
row, a duplicate id, a byte-order mark left over, a line break JSON Lines reading would see differently,
...) the whole file goes through that loader instead, which raises the same :class:`InputError` (file,
row, field) as always, or returns its rows.
"""

from __future__ import annotations

import array
import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import InputError
from .formats import allow_large_csv_fields, strip_id, text_codec

__all__ = ["InputRows", "open_input_rows"]


class _Unusual(Exception):
    """The streaming reader leaves this file to the loader (which then reports it exactly)."""


class InputRows:
    """``(id, text)`` of each input row, in file order, read from the file each time it is iterated
    (``len()`` is the number of rows). Made by :func:`open_input_rows`."""

    def __init__(self, path: Path, fmt: str, id_column: str, text_column: str, encoding: str, count: int,
                 limit: int | None, rows: list[tuple[str, str]] | None = None):
        self.path, self.fmt, self.id_column, self.text_column = path, fmt, id_column, text_column
        self.encoding, self.count, self.limit = encoding, count, limit
        self._rows = rows  # the loader's rows, when the file was left to it

    def __len__(self) -> int:
        return self.count

    @property
    def streamed(self) -> bool:
        """True when the rows are read from the file row by row (False: the loader's list of them)."""
        return self._rows is None

    def __iter__(self) -> Iterator[tuple[str, str]]:
        if self._rows is not None:
            yield from self._rows
            return
        n = 0
        try:
            for _, case_id, text in _records(self.path, self.fmt, self.id_column, self.text_column, self.encoding):
                if n >= self.count:
                    return
                n += 1
                yield case_id, text
        except _Unusual:
            raise InputError("the file changed while it was being read; run again", file=str(self.path)) from None
        if n < self.count:
            raise InputError("the file changed while it was being read; run again", file=str(self.path))


def open_input_rows(path: Path, id_column: str, text_column: str, limit: int | None = None,
                    encoding: str = "utf-8") -> InputRows:
    """The rows of ``path`` (``.jsonl``/``.ndjson``: JSON Lines, else CSV) as :class:`InputRows`; bad input
    raises :class:`InputError` naming file, row and field, as the ``csv``/``jsonl`` loaders do."""
    if not path.is_file():
        raise InputError("file not found", file=str(path))
    fmt = "jsonl" if path.suffix.lower() in {".jsonl", ".ndjson"} else "csv"
    try:
        hashes = array.array("q")
        for _, case_id, _ in _records(path, fmt, id_column, text_column, encoding):
            hashes.append(hash(case_id))
        if not hashes or _repeats(hashes):  # no rows, or (probably) an id twice
            raise _Unusual
    except _Unusual:
        rows = _loader_rows(path, fmt, id_column, text_column, encoding, limit)
        return InputRows(path, fmt, id_column, text_column, encoding, len(rows), limit, rows)
    count = len(hashes) if limit is None else min(limit, len(hashes))
    return InputRows(path, fmt, id_column, text_column, encoding, count, limit)


def _repeats(hashes: array.array) -> bool:
    """True when a value occurs twice (sorted as 8-byte integers: no Python object per row)."""
    import numpy as np

    h = np.sort(np.frombuffer(hashes, dtype=np.int64))
    return bool((h[1:] == h[:-1]).any())


def _loader_rows(path: Path, fmt: str, id_column: str, text_column: str, encoding: str,
                 limit: int | None) -> list[tuple[str, str]]:
    from .base import DataSource, load_cases

    options: dict[str, Any] = {"keep_columns": False}
    if encoding != "utf-8":
        options["encoding"] = encoding
    source = DataSource(format=fmt, path=str(path), columns={"id": id_column, "text": text_column},
                        options=options, limit=limit)
    return [(c.case_id, c.text) for c in load_cases(source)]


def _records(path: Path, fmt: str, id_column: str, text_column: str,
             encoding: str) -> Iterator[tuple[int, str, str]]:
    """``(row, id, text)`` of every data row; :class:`_Unusual` for anything the loaders would not accept
    as it is (or might read differently)."""
    codec = text_codec(encoding, path)
    try:
        with open(path, encoding=codec, newline="") as fh:
            if fmt == "csv":
                yield from _csv_records(fh, id_column, text_column)
            else:
                yield from _jsonl_records(fh, id_column, text_column)
    except (UnicodeDecodeError, csv.Error, OSError):
        raise _Unusual from None


def _csv_records(fh: Any, id_column: str, text_column: str) -> Iterator[tuple[int, str, str]]:
    # as formats.read_csv_table + the generic loader + CaseBuilder (skip_empty off) accept them
    allow_large_csv_fields()
    reader = csv.reader(fh, strict=True)
    header: list[str] | None = None
    id_at = text_at = 0
    n = 0
    for rec in reader:
        if not rec or (len(rec) == 1 and rec[0] == "" and header is not None):
            continue  # blank line
        if header is None:
            if rec[0].startswith("\ufeff"):
                raise _Unusual  # a byte-order mark the codec left: the loader strips it
            header = [h.strip() or f"column_{i + 1}" for i, h in enumerate(rec)]
            if len(set(header)) != len(header) or id_column not in header or text_column not in header:
                raise _Unusual
            id_at, text_at = header.index(id_column), header.index(text_column)
            continue
        n += 1
        if len(rec) != len(header):
            raise _Unusual
        case_id = strip_id(rec[id_at])
        text = rec[text_at]
        if not case_id or not text.strip():
            raise _Unusual
        yield n, case_id, text


def _jsonl_records(fh: Any, id_column: str, text_column: str) -> Iterator[tuple[int, str, str]]:
    # as formats.read_jsonl_rows + the generic loader + CaseBuilder (skip_empty off) accept them
    for i, raw in enumerate(fh, start=1):  # (newline="": lines end at \n, \r\n or a lone \r, untranslated)
        line = raw[:-1] if raw.endswith("\n") else raw
        line = line[:-1] if line.endswith("\r") else line
        if raw.endswith("\r"):
            raise _Unusual  # a lone \r: the file reader ends a line there, read_jsonl_rows (\n only) does not
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            raise _Unusual from None
        if not isinstance(obj, dict) or id_column not in obj or text_column not in obj:
            raise _Unusual
        raw_id, text = obj[id_column], obj[text_column]
        case_id = "" if raw_id is None else strip_id(str(raw_id))
        if not case_id or not isinstance(text, str) or not text.strip():
            raise _Unusual
        yield i, case_id, text
