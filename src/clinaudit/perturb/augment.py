"""Stereotype-context augmentation (P1 §3.1, Appendix Table 9).

For each context and source (doctor / patient) an LLM is asked: "Propose the
addition of three or more sentences in <doctor's|patient's> dialogs in the
conversation below to reflect that <instruction>" followed by the dialog. The
returned dialog must pass the *additions-only* gate (our reading): every original
turn survives verbatim (whitespace-normalised) and in order, and the speakers of
the original turns are kept; new sentences may be new turns or be appended to
existing turns. Failing outputs are retried with a new ``extra.attempt`` (a new,
separately cached request) up to ``max_attempts``, then rejected and reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..records import Case, Variant
from .prompts import CONTEXTS, StereotypeContext

if TYPE_CHECKING:  # pragma: no cover
    from ..runner import Runner

__all__ = ["Rejection", "additions_only_gate", "build_augment_prompt", "augment_context", "CONTEXTS",
           "StereotypeContext"]


@dataclass
class Rejection:
    """An augmentation that never passed the gate."""

    case_id: str
    context: str
    source: str
    reason: str  # "dropped turn" | "reordered" | "unparseable" | "model error"
    attempts: int
    detail: str = ""
    last_output: str | None = None


def additions_only_gate(original: str, augmented: str) -> tuple[bool, str, str]:
    """``(ok, reason, detail)``: do all original turns survive, in order?"""
    raise NotImplementedError


def build_augment_prompt(dialog: str, context: StereotypeContext | str, source: str) -> str:
    """P1's augmentation prompt for one dialog, context and source."""
    raise NotImplementedError


def augment_context(cases: Sequence[Case], contexts: Sequence[str] | None = None,
                    sources: Sequence[str] = ("doctor", "patient"), *, runner: "Runner", model: str,
                    max_attempts: int = 3, seed: int = 0, temperature: float = 0.0,
                    max_tokens: int = 2048) -> tuple[list[Variant], list[Rejection]]:
    """Augment every case × context × source; ``(variants, rejections)``."""
    raise NotImplementedError
