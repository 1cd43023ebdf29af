"""The treatment-shift label table: its columns, the published-file fixes and the readers.

The audit (:mod:`clinaudit.families.treatment_shift.audit`) produces a label table from
model calls; ``clinaudit treatment-shift --labels FILE`` reads one from a file with
:func:`read_labels`. Both end in :func:`clinaudit.families.treatment_shift.analysis.analyze_labels`,
so the numbers are computed the same way. The clinicians' tables
(:mod:`.clinicians`) share the schema helpers here, so neither module imports the other.

The label table (the ``long`` format, one row per label) has the columns

=================  ==========================================================
``dataset``        free label (default ``data``); metrics are per dataset
``case_id``        the case; all variants of one case share it
``variant``        ``baseline`` (or ``vignette``) or the perturbation/setting name
``model``          the model whose answer was labelled
``seed``           sampling seed of that answer (integer; default 0)
``question``       ``MANAGE``, ``VISIT`` or ``RESOURCE``
``label``          1 / 0 (also yes/no, true/false, [YES]/[NO]); empty = missing
``gender``         optional: the patient's recorded gender (female / male / ...)
``inferred_gender`` optional: the gender a model inferred (P2 Appendix D)
``validation``     optional: the clinicians' label V for the case and question
=================  ==========================================================
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...errors import InputError

__all__ = [
    "LONG_COLUMNS",
    "MEDPERTURB_MODELS",
    "MEDPERTURB_FIXES",
    "GENDER_NAMES",
    "norm_gender",
    "normalize_labels",
    "read_long_labels",
    "read_medperturb_labels",
    "read_labels",
]

#: Required and optional columns of the ``long`` label format.
LONG_COLUMNS: dict[str, bool] = {
    "case_id": True,
    "variant": True,
    "model": True,
    "question": True,
    "label": True,
    "seed": False,
    "dataset": False,
    "gender": False,
    "inferred_gender": False,
    "validation": False,
}

#: Models labelled in the published MedPerturb file.
MEDPERTURB_MODELS: tuple[str, ...] = ("GPT4", "LLAMA3", "LLAMA3-70", "PALMYRA-MED")

_QUESTIONS = ("MANAGE", "VISIT", "RESOURCE")
_TRUE = {"1", "1.0", "yes", "y", "true", "t", "[yes]"}
_FALSE = {"0", "0.0", "no", "n", "false", "f", "[no]"}

#: Known slips in the published MedPerturb file, fixed by default:
#: Index -> (dataset, published context_id, corrected context_id, why).
MEDPERTURB_FIXES: dict[int, tuple[str, str, str, str]] = {
    570: (
        "conversational", "211", "1017",
        "row Index 570 is published with context_id 211 (which then has two multi-turn rows) but its dialogue "
        "is the multi-turn version of context 1017 (fatigue, weight loss and abdominal pain for 6 months), "
        "which otherwise has no multi-turn row",
    ),
}

#: Spellings of a recorded or inferred gender -> its canonical name.
GENDER_NAMES = {"f": "female", "female": "female", "woman": "female", "w": "female",
                "m": "male", "male": "male", "man": "male"}


def norm_gender(value: Any) -> str | None:
    """A gender value in canonical form (female / male / as written), None when empty or unknown."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    v = str(value).strip().lower()
    if not v or v in {"nan", "none", "unknown", "na"}:
        return None
    return GENDER_NAMES.get(v, v)


def normalize_labels(df: pd.DataFrame) -> pd.DataFrame:
    """Give a label table its canonical columns and dtypes (labels as float 0/1/NaN)."""
    d = df.copy()
    for col in ("dataset", "case_id", "variant", "model", "question"):
        if col not in d.columns:
            if col == "dataset":
                d[col] = "data"
            else:
                raise KeyError(f"label table lacks column {col!r}")
        d[col] = d[col].astype(str)
    d["question"] = d["question"].str.upper()
    d["seed"] = pd.to_numeric(d["seed"], errors="coerce").fillna(0).astype(int) if "seed" in d.columns else 0
    for col in ("label", "validation"):
        d[col] = pd.to_numeric(d[col], errors="coerce").astype(float) if col in d.columns else np.nan
    for col in ("gender", "inferred_gender"):
        d[col] = d[col].map(norm_gender).astype(object) if col in d.columns else None
    return d


# --------------------------------------------------------------------------- reading


def _parse_label(value: Any, path: str | None, row: int | None, fld: str) -> float:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return math.nan
    v = str(value).strip().lower()
    if v == "" or v in {"nan", "na", "none", "null"}:
        return math.nan
    if v in _TRUE:
        return 1.0
    if v in _FALSE:
        return 0.0
    raise InputError(f"expected a 0/1 (or yes/no) label, got {value!r}", file=path, row=row, field=fld)


def read_long_labels(path: str | Path, *, encoding: str = "utf-8") -> pd.DataFrame:
    """Read a ``long`` label CSV (see the module docs); bad rows raise InputError(file, row, field)."""
    from ...loaders.formats import read_csv_table

    p = Path(path)
    if not p.exists():
        raise InputError("file not found", file=str(p))
    table = read_csv_table(p, encoding)
    missing = [c for c, req in LONG_COLUMNS.items() if req and c not in table.header]
    if missing:
        raise InputError(
            f"missing required column(s) {', '.join(missing)}; the long format needs "
            f"{', '.join(c for c, r in LONG_COLUMNS.items() if r)} (optional: "
            f"{', '.join(c for c, r in LONG_COLUMNS.items() if not r)}); found: {', '.join(table.header)}",
            file=str(p), field=missing[0],
        )
    rows: list[dict[str, Any]] = []
    seen: dict[tuple, int] = {}
    for row, rec in table.rows:
        out: dict[str, Any] = {"source_row": row}
        for col in ("case_id", "variant", "model"):
            val = rec[col].strip()
            if not val:
                raise InputError("empty value", file=str(p), row=row, field=col)
            out[col] = val
        out["dataset"] = (rec.get("dataset") or "").strip() or "data"
        q = rec["question"].strip().upper()
        if q not in _QUESTIONS:
            raise InputError(f"unknown question {rec['question']!r}; expected one of {', '.join(_QUESTIONS)}",
                             file=str(p), row=row, field="question")
        out["question"] = q
        seed_raw = (rec.get("seed") or "").strip()
        try:
            out["seed"] = int(float(seed_raw)) if seed_raw else 0
        except ValueError:
            raise InputError(f"expected an integer seed, got {seed_raw!r}", file=str(p), row=row, field="seed") from None
        out["label"] = _parse_label(rec["label"], str(p), row, "label")
        out["validation"] = _parse_label(rec.get("validation"), str(p), row, "validation")
        out["gender"] = norm_gender(rec.get("gender"))
        out["inferred_gender"] = norm_gender(rec.get("inferred_gender"))
        key = (out["dataset"], out["case_id"], out["variant"], out["model"], out["seed"], q)
        if key in seen:
            raise InputError(
                f"duplicate label for dataset={key[0]}, case_id={key[1]}, variant={key[2]}, model={key[3]}, "
                f"seed={key[4]}, question={q} (first given in row {seen[key]})",
                file=str(p), row=row, field="label",
            )
        seen[key] = row
        rows.append(out)
    if not rows:
        raise InputError("no label rows", file=str(p))
    return normalize_labels(pd.DataFrame(rows))


def read_medperturb_labels(
    path: str | Path, *, models: Sequence[str] | None = None, fix_published: bool = True
) -> tuple[pd.DataFrame, list[str]]:
    """MedPerturb ``data.csv`` as published → a long label table and notes.

    Pairs are (dataset, context_id); ``variant`` is the arm (dataset_id 1 =
    ``baseline``, 2 ``gender_swap``, 3 ``gender_removal``, 4 ``uncertain``,
    5 ``colorful`` for oncqa/askadoc; 1 ``vignette``, 2 ``multi_turn``,
    3 ``summarized`` for the conversational set). Labels: the ``<MODEL>_<QUESTION>``
    columns (one sample per model: ``seed`` 0). ``validation`` = majority of the
    clinician labels of the row (the analysis uses the baseline row's);
    ``gender`` = ``original_patient_gender``. ``fix_published`` applies
    :data:`MEDPERTURB_FIXES` (each fix is reported in the notes).
    """
    from ...loaders.base import DataSource, load_cases

    p = Path(path)
    overrides = {str(i): fix[2] for i, fix in MEDPERTURB_FIXES.items()} if fix_published else {}
    cases = load_cases(DataSource(format="medperturb", path=str(p), options={"context_id_overrides": overrides}))
    expected: dict[Any, tuple[str, str]] = {i: (fix[0], fix[1]) for i, fix in MEDPERTURB_FIXES.items()}
    applied = [c for c in cases if c.fields.get("context_id_published") is not None]
    if any(expected.get(c.fields.get("index")) != (c.fields["dataset"], str(c.fields["context_id_published"]))
           for c in applied):
        # not the published file these fixes were written for: read it as it is
        cases = load_cases(DataSource(format="medperturb", path=str(p)))
        applied = []
    notes: list[str] = []
    for c in applied:
        fix = MEDPERTURB_FIXES[c.fields["index"]]
        notes.append(f"fixed published MedPerturb row Index {c.fields['index']}: context_id {fix[1]} -> {fix[2]} "
                     f"({fix[3]})")
    wanted = list(models) if models else list(MEDPERTURB_MODELS)
    rows: list[dict[str, Any]] = []
    seen: dict[tuple[str, str, str], int] = {}
    available: set[str] = set()
    for case in cases:
        f = case.fields
        ds, ctx, arm = str(f["dataset"]), str(f["context_id"]), f.get("arm")
        if arm is None:
            raise InputError(f"unknown dataset_id {f['dataset_id']} for dataset {ds!r}", file=str(p),
                             row=case.source_row, field="dataset_id")
        key = (ds, ctx, arm)
        if key in seen:
            notes.append(f"duplicate MedPerturb row for dataset={ds}, context_id={ctx}, arm={arm}: data row "
                         f"{case.source_row} ignored (first: row {seen[key]})")
            continue
        seen[key] = case.source_row or 0
        labels = f.get("model_labels") or {}
        available.update(labels)
        majority = f.get("clinician_majority") or {}
        for m in wanted:
            for q in _QUESTIONS:
                v = (labels.get(m) or {}).get(q)
                maj = majority.get(q)
                rows.append({
                    "dataset": ds, "case_id": ctx, "variant": arm, "model": m, "seed": 0, "question": q,
                    "label": math.nan if v is None else float(v),
                    "validation": math.nan if maj is None else float(maj),
                    "gender": norm_gender(f.get("original_patient_gender")),
                    "inferred_gender": None, "source_row": case.source_row,
                })
    unknown = [m for m in wanted if m not in available]
    if unknown:
        raise InputError(f"model(s) {', '.join(unknown)} have no label columns; available: "
                         f"{', '.join(sorted(available))}", file=str(p), field=f"{unknown[0]}_MANAGE")
    n_nan_v = sum(1 for r in rows if math.isnan(r["validation"]))
    notes.append(
        "validation label V = majority of the three clinician labels on the baseline (vignette) row; "
        f"rows with a missing clinician label or a tie have no V (here {n_nan_v} of {len(rows)} label rows)"
    )
    notes.append("MedPerturb publishes one sample per model (no re-sampled baseline): no noise floor is "
                 "available, values are raw rates and the noise_floor column is empty")
    return normalize_labels(pd.DataFrame(rows)), notes


def read_labels(path: str | Path, fmt: str, **kw: Any) -> tuple[pd.DataFrame, list[str]]:
    """Read labels in ``fmt`` (``medperturb`` or ``long``) → (label table, notes)."""
    if fmt == "medperturb":
        return read_medperturb_labels(path, **kw)
    if fmt == "long":
        return read_long_labels(path, **kw), []
    raise InputError(f"unknown label format {fmt!r}; expected medperturb or long", field="format")
