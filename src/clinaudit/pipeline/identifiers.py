"""The names a data source lists, removed from every case before any audit sees it.

A data source's ``identifiers:`` columns (a CSV's patient or clinician name columns; the ACI-Bench
metadata names) and ``fields.names`` list the names of the people a case is about
(docs/data-formats.md). An audit that de-identifies its own inputs (note generation: names found by
the detector too, counted by source in ``tables/deidentification.csv``) declares
``deidentifies_cases = True`` and gets its cases as loaded. Every other audit gets them through
:func:`remove_listed_names`: in a case that lists names, each listed name is replaced with ``[NAME]`` — in
every form :func:`clinaudit.perturb.deid.deidentify_text` replaces a listed name (case-insensitive, whole
words, possessives, parts of a multi-part name) — and so is every other name its detector and naming rules
find there ("Dr. Alvarez", "my husband Tom"; names only: ages, gendered words and origins stay), in the
case's text and in every text of its fields (MCQ options, EHR context, ...; not the codes of
:data:`CODE_FIELDS`, a data set's or an arm's label); the listed values themselves
are masked (``fields.identifiers`` keeps its column names, each value ``[NAME]``). So a listed name
reaches no prompt, cache entry, table, log or report of the run. A case that lists no name is de-identified
the same way (issue 50: a patient message names people whether or not the data says so), unless the spec's
``deid.names`` is false (a model the hospital runs itself): then only listed names are replaced and a case
that lists none is left as given (docs/deidentification.md).
"""

from __future__ import annotations

from typing import Any

from ..records import Case

__all__ = ["remove_listed_names", "MASK", "CODE_FIELDS"]

MASK = "[NAME]"
#: Fields the loaders write as codes, never as text about a person: a data set's or arm's label, ids, categories
#: (MedPerturb's ``dataset`` "askadoc" and ``pair_id`` "askadoc:N75" were read as names in no list and became
#: "[NAME]" and "[NAME]:N75"; issue 50, twentieth session). They are kept as loaded.
CODE_FIELDS = frozenset({"dataset", "dataset_id", "context_id", "context_id_published", "pair_id", "arm", "index",
                         "original_patient_gender", "category", "source_dataset", "case_type", "answer_letter"})


def _masked(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: MASK for k in value}
    if isinstance(value, list):
        return [MASK for _ in value]
    return MASK if value not in (None, "") else value


def remove_listed_names(cases: list[Case], *, detect: bool = True) -> list[Case]:
    """``cases`` with the names each one lists, and with ``detect`` every name the detector finds, replaced in its
    text and fields (see the module doc)."""
    from ..perturb.deid import IDENTIFIER_FIELDS, deidentify_text, known_names

    out: list[Case] = []
    for case in cases:
        names = known_names(case)
        if not names and not detect:
            out.append(case)
            continue

        def clean(v: Any, names: list[str] = names) -> Any:
            if isinstance(v, str):
                if not v.strip():
                    return v
                return deidentify_text(v, names=names, gender=False, ages=False, life_stage=False, origin=False,
                                       detector=detect)[0]
            if isinstance(v, list):
                return [clean(x) for x in v]
            if isinstance(v, dict):
                return {k: clean(x) for k, x in v.items()}
            return v

        fields = {k: (_masked(v) if k in IDENTIFIER_FIELDS else v if k in CODE_FIELDS else clean(v))
                  for k, v in case.fields.items()}
        out.append(case.model_copy(update={"text": clean(case.text), "fields": fields}))
    return out
