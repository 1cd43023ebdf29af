"""Doctor-patient dialog formats: MTS-Dialog (``mts``) and ACI-Bench (``aci``).

One case per dialog; the dialogue is parsed into turns (:func:`~clinaudit.loaders.dialog.parse_dialog`).
See ``docs/data-formats.md`` for the columns, fields and options.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..records import Case
from .base import DataSource, register_loader
from .dialog import parse_dialog
from .formats import (
    CaseBuilder,
    clean_value,
    column_roles,
    merge_options,
    need_path,
    normalize_newlines,
    parse_number,
    read_csv_table,
    require_columns,
)

__all__ = ["load_mts", "load_aci", "ACI_NAME_COLUMNS"]

log = logging.getLogger("clinaudit.loaders")


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
    path = need_path(source, path)
    opts = merge_options(source, path, _MTS_OPTIONS)
    cols = column_roles(source, path, {"id": "ID", "text": "dialogue", "section_header": "section_header",
                                   "section_text": "section_text"})
    table = read_csv_table(path, opts["encoding"], source.delimiter)
    require_columns(table, list(cols.values()), cols)
    b = CaseBuilder(path, source.name or "mts", skip_empty=opts["skip_empty"], id_field=cols["id"],
                     text_field=cols["text"])
    for row, rec in table.rows:
        text = normalize_newlines(rec[cols["text"]])
        fields: dict[str, Any] = {
            "section_header": rec[cols["section_header"]].strip(),
            "section_text": normalize_newlines(rec[cols["section_text"]]),
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
    "keep_metadata": False,  # keep names and age from the metadata (patient_gender is always loaded)
}
# metadata columns removed unless keep_metadata (the others are kept)
_ACI_IDENTIFYING = ("doctor_name", "patient_firstname", "patient_familyname", "patient_age")
#: metadata columns whose values are names: always kept in ``fields["identifiers"]`` for de-identification
ACI_NAME_COLUMNS = ("patient_firstname", "patient_familyname", "doctor_name")


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
    require_columns(table, [join])
    out: dict[str, dict[str, Any]] = {}
    first_row: dict[str, int] = {}
    for row, rec in table.rows:
        eid = rec[join].strip()
        if eid in out:
            raise InputError(f"duplicate {join} {eid!r}: rows {first_row[eid]} and {row}",
                             file=str(meta_path), row=row, field=join)
        first_row[eid] = row
        meta: dict[str, Any] = {}
        ids = {col: clean_value(rec[col]) for col in ACI_NAME_COLUMNS if col in rec and clean_value(rec[col])}
        if ids:
            meta["identifiers"] = ids
        for col, raw in rec.items():
            if col in (join, "encounter_id", "dataset"):
                continue
            if col in _ACI_IDENTIFYING and not opts["keep_metadata"]:
                continue
            key = "metadata_id" if col == "id" else col
            if col == "patient_gender":  # the recorded sex / gender: lower case, trailing spaces gone, empty None
                meta[key] = (clean_value(raw) or "").lower() or None
                continue
            meta[key] = parse_number(raw) if col == "patient_age" else clean_value(raw)
        out[eid] = meta
    return out, meta_path


@register_loader("aci", "ACI-Bench CSV (dataset, encounter_id, dialogue with [doctor]/[patient] tags, note); "
                        "joins <stem>_metadata.csv (patient_gender as the recorded gender; names only for "
                        "de-identification)")
def load_aci(source: DataSource, path: Path | None) -> list[Case]:
    """One case per encounter: ``case_id`` = encounter_id, ``text`` = the dialogue.

    Fields: ``note``, ``turns``, ``n_turns``, ``source_dataset`` and, from a sibling
    ``<stem>_metadata.csv`` when present, ``metadata_id``, ``cc``, ``2nd_complaints``
    (values stripped, missing -> None) and ``patient_gender`` (the recorded gender, lower case: ``female`` /
    ``male`` / None), which the exclusions-by-group audit (:mod:`clinaudit.exclusion_skew`) and a gender
    subgroup read — never a prompt: a gender counterfactual comes from the audit's own perturbations. Names and
    age as fields only with ``options.keep_metadata: true``. The names (``patient_firstname``,
    ``patient_familyname``, ``doctor_name``) are always in ``identifiers`` (column -> value), which
    de-identification removes from the dialog and the note-generation audit never writes out.
    """
    path = need_path(source, path)
    opts = merge_options(source, path, _ACI_OPTIONS)
    cols = column_roles(source, path, {"id": "encounter_id", "text": "dialogue", "note": "note",
                                   "source_dataset": "dataset"})
    table = read_csv_table(path, opts["encoding"], source.delimiter)
    if "id" not in source.columns and cols["id"] not in table.header and "id" in table.header:
        cols["id"] = "id"  # ACI-Bench's ASR experiment files (src_experiment_data/*) name the column `id`
    require_columns(table, list(cols.values()), cols)
    meta, meta_path = _aci_metadata(path, opts, cols["id"])
    b = CaseBuilder(path, source.name or "aci", skip_empty=opts["skip_empty"], id_field=cols["id"],
                     text_field=cols["text"])
    unmatched: list[str] = []
    for row, rec in table.rows:
        eid = rec[cols["id"]].strip()
        text = normalize_newlines(rec[cols["text"]])
        fields: dict[str, Any] = {"note": normalize_newlines(rec[cols["note"]]),
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
