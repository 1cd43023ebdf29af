"""MedPerturb ``data.csv`` (format ``medperturb``): clinical contexts with clinician and model labels.

See ``docs/data-formats.md`` for the columns, fields and options.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..records import Case
from .base import DataSource, register_loader
from .formats import (
    CaseBuilder,
    clean_value,
    merge_options,
    need_path,
    parse_binary_label,
    parse_number,
    read_csv_table,
    require_columns,
)

__all__ = ["load_medperturb"]

log = logging.getLogger("clinaudit.loaders")


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
    path = need_path(source, path)
    opts = merge_options(source, path, _MEDPERTURB_OPTIONS)
    table = read_csv_table(path, opts["encoding"], source.delimiter)
    base_cols = ["dataset", "dataset_id", "context_id", "original_patient_gender", "clinical_context"]
    require_columns(table, base_cols)
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
        clin = {q: [parse_binary_label(rec[c], path, row, c) for c in clin_cols[q]] for q in _QUESTIONS}
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
            "original_patient_gender": clean_value(rec["original_patient_gender"]),
            "index": parse_number(index),
            "clinician_labels": clin,
            "clinician_majority": majority,
            "clinician_ids": [parse_number(rec.get(f"Clinician_{i}")) for i in range(1, n_clin + 1)],
            "clinician_durations_s": [parse_number(rec.get(f"Duration_{i}")) for i in range(1, n_clin + 1)],
            "model_labels": {mdl: {q: parse_binary_label(rec[c], path, row, c) for q, c in qs.items()}
                             for mdl, qs in model_cols.items()},
        }
        if ctx != rec["context_id"].strip():
            fields["context_id_published"] = rec["context_id"].strip()
        prepared.append((row, f"{ds}:{ctx}:{ds_id}", rec["clinical_context"], fields))

    counts: dict[str, int] = {}
    for _, key, _, _ in prepared:
        counts[key] = counts.get(key, 0) + 1
    b = CaseBuilder(path, source.name or "medperturb", skip_empty=opts["skip_empty"], id_field="context_id",
                     text_field="clinical_context")
    for row, key, text, fields in prepared:
        if counts[key] > 1:
            log.warning("%s: case id %s occurs %d times; row %d becomes %s#%s", path, key, counts[key], row, key,
                        fields["index"] if fields["index"] is not None else row)
            fields["duplicate_key"] = True
            key = f"{key}#{fields['index'] if fields['index'] is not None else row}"
        b.add(row, key, text, fields)
    return b.done()
