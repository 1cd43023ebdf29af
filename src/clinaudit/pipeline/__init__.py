"""The shared pipeline every audit runs on (see docs/architecture.md).

- :mod:`.stages`: the stages and the one documented layout of each stage table;
- :mod:`.calls`: :class:`CallLog`, the framework's record of every model call
  (the ``responses`` table) and the dry-run call count;
- :mod:`.audit`: :class:`Audit`, the declaration an audit family writes, and the
  functions that run its stages (:func:`run_stages`) or estimate them
  (:func:`estimate_stages`);
- :mod:`.context`: :class:`AuditContext`, what every stage of a run reaches, and
  :func:`make_context`;
- :mod:`.pairing`: :func:`pair_with_baseline`, the baseline / noise-floor pairing of
  counterfactual audits;
- :mod:`.driver`: :func:`run_spec`, a spec into a run directory (lock, manifest,
  status), and :func:`call_status`.

The spec's schema is :mod:`clinaudit.spec`.
"""

from __future__ import annotations

from .audit import (
    Audit,
    CallPlan,
    Calls,
    JudgeChoice,
    StageOutput,
    StageTables,
    estimate_stages,
    register,
    register_audit,
    run_stages,
)
from .calls import NOT_CACHED, CallLog, is_placeholder, response_row
from .context import AuditContext, make_context
from .driver import call_status, run_spec
from .pairing import NOISE_FLOOR, pair_with_baseline
from .stages import LAYOUTS, RESPONSE_COLUMNS, STAGES, conform, normalize_responses

__all__ = [
    "Audit",
    "Calls",
    "CallPlan",
    "JudgeChoice",
    "StageOutput",
    "StageTables",
    "register",
    "register_audit",
    "run_stages",
    "estimate_stages",
    "AuditContext",
    "make_context",
    "run_spec",
    "call_status",
    "pair_with_baseline",
    "NOISE_FLOOR",
    "CallLog",
    "NOT_CACHED",
    "is_placeholder",
    "response_row",
    "STAGES",
    "LAYOUTS",
    "RESPONSE_COLUMNS",
    "conform",
    "normalize_responses",
]
