"""The stages of every audit and the one documented layout of each stage's table.

Every audit runs the same seven stages; each writes one table of the run store
(``RUN/tables/<stage>.csv``), keyed by ``case_id``::

    cases -> variants -> calls (responses) -> judgments -> paired -> results -> report

A stage table has the **key columns** below, first and in this order, for every
audit; an audit may add its own columns after them (documented in its family's
docs). ``responses`` is owned by the framework (:class:`~clinaudit.pipeline.calls.CallLog`)
and has exactly :data:`RESPONSE_COLUMNS`, whatever the audit.

==============  ===========================================================================
stage           key columns
==============  ===========================================================================
``cases``       ``case_id``, ``dataset``, ``text``
``variants``    ``variant_id``, ``case_id``, ``family``, ``name``, ``text``
``responses``   :data:`RESPONSE_COLUMNS` (one row per model call, every retry included)
``judgments``   ``item_id``, ``judge``, ``status`` (ok / unparseable / error), ``value``,
                ``raw``, ``attempts``, ``request_key``
``paired``      ``case_id`` (the unit of resampling) and the audit's pairing keys
``results``     :data:`clinaudit.stats.results.RESULT_COLUMNS` (n, test, null, family, CI)
``exclusions``  :data:`clinaudit.exclusions.EXCLUSION_COLUMNS` (stage, case, reason)
==============  ===========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..errors import ClinauditError

__all__ = [
    "STAGES",
    "StageLayout",
    "LAYOUTS",
    "RESPONSE_COLUMNS",
    "conform",
    "normalize_responses",
]

#: the stages in the order the pipeline runs them (``report`` reads the run store afterwards)
STAGES = ("cases", "variants", "calls", "judgments", "paired", "results", "report")

#: one row per model call (every judge retry is its own row), the same columns for every audit
RESPONSE_COLUMNS = [
    "request_key", "stage", "model", "case_id", "variant_id", "item_id", "attempt", "kind", "messages", "prompt",
    "temperature", "max_tokens", "seed", "top_p", "extra", "text", "error", "cached", "attempts", "prompt_tokens",
    "completion_tokens", "finish_reason", "latency_s", "meta",
]


@dataclass(frozen=True)
class StageLayout:
    """The documented layout of one stage table: its name in the run store and its key columns."""

    stage: str
    table: str
    keys: tuple[str, ...]
    description: str


LAYOUTS: dict[str, StageLayout] = {
    "cases": StageLayout("cases", "cases", ("case_id", "dataset", "text"), "one row per input case, as loaded"),
    "variants": StageLayout("variants", "variants", ("variant_id", "case_id", "family", "name", "text"),
                            "one row per perturbed / counterfactual text of a case"),
    "calls": StageLayout("calls", "responses", tuple(RESPONSE_COLUMNS),
                         "one row per model call of the run, written by the framework as the calls complete"),
    "judgments": StageLayout("judgments", "judgments",
                             ("item_id", "judge", "status", "value", "raw", "attempts", "request_key"),
                             "one row per judged item; unparseable outputs have status 'unparseable', never NO"),
    "paired": StageLayout("paired", "paired", ("case_id",), "one row per pairing unit; case_id is resampled"),
    "results": StageLayout("results", "results", ("audit", "metric", "value", "n"),  # + RESULT_COLUMNS
                           "one row per estimate with its n, test, null hypothesis, family and CI"),
}


class StageLayoutError(ClinauditError):
    """An audit produced a stage table without the stage's key columns (a bug in the audit)."""


def conform(stage: str, df: pd.DataFrame, audit: str = "") -> pd.DataFrame:
    """``df`` with the stage's key columns first (checked), the audit's own columns after them.

    An empty frame without columns gets the key columns. A non-empty frame missing a key
    column raises :class:`StageLayoutError` naming the audit, stage and columns.
    """
    layout = LAYOUTS[stage]
    if stage == "results":  # the result schema of the statistics layer, in its order
        from ..stats.results import results_frame

        return results_frame(df)
    keys = list(layout.keys)
    if df.shape[1] == 0:
        return pd.DataFrame(columns=keys)
    missing = [c for c in keys if c not in df.columns]
    if missing:
        raise StageLayoutError(
            f"audit '{audit}' wrote its {stage} table ({layout.table}.csv) without the key column(s) "
            f"{', '.join(missing)} (see clinaudit.pipeline.stages)")
    return df[keys + [c for c in df.columns if c not in keys]]


_OLD_RESPONSE_NAMES = {"response": "text", "variant": "variant_id"}


def normalize_responses(df: pd.DataFrame) -> pd.DataFrame:
    """A ``responses`` table of any clinaudit version in the one layout of :data:`RESPONSE_COLUMNS`.

    Run directories written before 0.2 used ``response``/``variant`` (treatment shift) or
    lacked some columns; they are renamed and the missing columns added empty (extra
    columns are kept after the layout's). The ``text`` of a call without an ``error`` is never missing: an
    empty cell there is the empty answer ``""``.
    """
    if df.shape[1] == 0:
        return pd.DataFrame(columns=RESPONSE_COLUMNS)
    out = df.rename(columns={k: v for k, v in _OLD_RESPONSE_NAMES.items() if k in df.columns and v not in df.columns})
    for col in RESPONSE_COLUMNS:
        if col not in out.columns:
            out[col] = pd.NA
    # a call that did not fail answered text: an empty cell of its text is the empty answer "" (a CSV cell cannot
    # tell "" from missing; a failed call's text stays missing)
    empty = out["text"].isna() & out["error"].isna()
    if empty.any():
        out = out.copy()
        out["text"] = out["text"].astype(object).where(~empty, "")
    return out[RESPONSE_COLUMNS + [c for c in out.columns if c not in RESPONSE_COLUMNS]]
