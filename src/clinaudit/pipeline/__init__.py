"""The shared pipeline every audit runs on (see docs/architecture.md).

- :mod:`.stages`: the stages and the one documented layout of each stage table;
- :mod:`.calls`: :class:`CallLog`, the framework's record of every model call
  (the ``responses`` table) and the dry-run call count;
- :mod:`.audit`: :class:`Audit`, the declaration an audit family writes, and the
  driver that runs its stages (:func:`run_stages`) or estimates them
  (:func:`estimate_stages`).
"""

from __future__ import annotations

from .audit import Audit, Calls, JudgeChoice, StageOutput, estimate_stages, register, run_stages
from .calls import NOT_CACHED, CallLog, is_placeholder, response_row
from .stages import LAYOUTS, RESPONSE_COLUMNS, STAGES, conform, normalize_responses

__all__ = [
    "Audit",
    "Calls",
    "JudgeChoice",
    "StageOutput",
    "register",
    "run_stages",
    "estimate_stages",
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
