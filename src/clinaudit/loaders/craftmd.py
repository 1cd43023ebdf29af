"""CRAFT-MD / MedQA multiple-choice vignettes (format ``craftmd``; also the MIM perturbed files).

See ``docs/data-formats.md`` for the columns, fields and options.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..records import Case
from .base import DataSource, register_loader
from .formats import CaseBuilder, Table, column_roles, merge_options, need_path, read_csv_table, require_columns

__all__ = ["load_craftmd"]

log = logging.getLogger("clinaudit.loaders")


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
    path = need_path(source, path)
    opts = merge_options(source, path, _CRAFTMD_OPTIONS)
    if opts["unmatched_answer"] not in ("error", "skip", "keep"):
        raise InputError(f"expected error, skip or keep, got {opts['unmatched_answer']!r}", file=str(path),
                         field="options.unmatched_answer")
    if not isinstance(opts["answer_aliases"], Mapping):
        raise InputError("expected a mapping {written answer: choice}", file=str(path),
                         field="options.answer_aliases")
    cols = column_roles(source, path, {"id": "case_id", "text": "case_vignette", "answer": "answer",
                                   "category": "category", "source_dataset": "dataset"})
    table = read_csv_table(path, opts["encoding"], source.delimiter)
    required = [cols[k] for k in ("text", "answer")]
    require_columns(table, required, cols)
    choice_cols = _choice_columns(table.header)
    if len(choice_cols) < 2:
        raise InputError(f"expected columns choice_1, choice_2, ...; available columns: {', '.join(table.header)}",
                         file=str(path), field="choice_1")
    aliases = {_norm_choice(k): v for k, v in (_BUILTIN_ANSWER_ALIASES if opts["builtin_aliases"] else {}).items()}
    aliases.update({_norm_choice(str(k)): str(v) for k, v in opts["answer_aliases"].items()})

    ids = _craftmd_ids(table, cols["id"])
    b = CaseBuilder(path, source.name or "craftmd", skip_empty=opts["skip_empty"],
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
