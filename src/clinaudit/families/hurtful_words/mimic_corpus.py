"""The pretraining corpus of P4 §3.3: every inpatient note, split into sentences packed into ≥ 20-token sequences.

    from clinaudit.families.hurtful_words.mimic_corpus import pretraining_sequences
    corpus = pretraining_sequences("/data/mimic-iii-1.4", splits=res.splits)   # res from build_mimic_tasks

One row per sequence: ``note_id`` (NOTEEVENTS ROW_ID), ``subject_id``,
``hadm_id``, ``category``, ``seq_index`` (0-based within the note),
``n_tokens``, ``text``, the patient's ``split`` (when ``splits`` is given;
patients not in it get ``train``) and the protected attributes ``gender``,
``language_group``, ``ethnicity_group``, ``insurance_group`` of the note's
admission (the adversary's targets during debiased pretraining). Outpatient
notes (no ``HADM_ID``; P4 drops them: no insurance to link) and ``ISERROR = 1``
notes are left out and counted in ``attrs["excluded"]`` of the returned frame.
PHI spans (``[**...**]``) are kept as written: replacing them by special
tokens belongs to the pretraining step.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pandas as pd

from ...loaders.mimic import ethnicity_group, insurance_group, language_group
from .mimic_cohorts import MimicTables, read_mimic_tables
from .mimic_tasks import iter_notes
from .mimic_text import Tokenizer, note_sequences, regex_tokenizer

__all__ = ["pretraining_sequences", "CORPUS_COLUMNS"]

CORPUS_COLUMNS = ["note_id", "subject_id", "hadm_id", "category", "seq_index", "n_tokens", "text", "split", "gender",
                  "language_group", "ethnicity_group", "insurance_group"]


def _s(v: object) -> str | None:
    return v if isinstance(v, str) else None


def pretraining_sequences(source: str | Path | MimicTables, *, splits: pd.DataFrame | None = None,
                          tokenizer: Tokenizer | None = None, min_tokens: int = 20,
                          categories: list[str] | None = None, encoding: str = "utf-8") -> pd.DataFrame:
    """Sentence-packed sequences of every kept note (see the module docstring)."""
    tables = source if isinstance(source, MimicTables) else read_mimic_tables(source, encoding)
    tok = tokenizer or regex_tokenizer
    adm = tables.admissions.merge(tables.patients[["subject_id", "gender"]], on="subject_id", how="left")
    attrs = {int(r.hadm_id): (_s(r.gender), language_group(_s(r.language)), ethnicity_group(_s(r.ethnicity)),
                              insurance_group(_s(r.insurance))) for r in adm.itertuples(index=False)}
    split_of = {} if splits is None else dict(zip(splits["subject_id"], splits["split"]))
    cats = None if categories is None else tuple(c.strip().casefold() for c in categories)
    counts: Counter = Counter()
    rows = []
    for note in iter_notes(tables, categories=cats, counts=counts):
        a = attrs.get(note["hadm_id"], (None, None, None, None))
        for i, (text, n) in enumerate(note_sequences(note["text"], tok, min_tokens)):
            rows.append((note["row_id"], note["subject_id"], note["hadm_id"], note["category"], i, n, text,
                         split_of.get(note["subject_id"], "train"), *a))
    df = pd.DataFrame(rows, columns=CORPUS_COLUMNS)
    df.attrs["excluded"] = {k: v for k, v in counts.items() if k not in ("read", "kept")}
    return df
