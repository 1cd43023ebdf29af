"""Conversational settings (P2 §4.3, Appendix B; CRAFT-MD).

``vignette`` (direct question), ``single_turn`` (doctor asks one question,
patient agent answers from the vignette, doctor diagnoses), ``multi_turn`` (ask
until a final diagnosis or the turn cap), ``summarized`` (patient answers turned
into a third-person vignette, then diagnosed). Doctor and patient agents run on
any backend through the runner; :func:`run_conversations` advances all
conversations together, one ``runner.generate`` per turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..records import Case, Variant

if TYPE_CHECKING:  # pragma: no cover
    from ..runner import Runner

__all__ = ["SETTINGS", "Conversation", "run_conversation", "run_conversations"]

SETTINGS: tuple[str, ...] = ("vignette", "single_turn", "multi_turn", "summarized")


@dataclass
class Conversation:
    """One simulated consultation."""

    case_id: str
    setting: str
    transcript: list[tuple[str, str]] = field(default_factory=list)  # (speaker "doctor"|"patient", text)
    diagnosis: str = ""  # final diagnosis text of the doctor agent
    summary: str | None = None  # query vignette (summarized setting)
    calls: list[str] = field(default_factory=list)  # request keys, in order
    finished: bool = False  # the doctor gave a final diagnosis (vs turn cap)
    turns: int = 0
    errors: list[str] = field(default_factory=list)

    def transcript_text(self) -> str:
        return "\n".join(f"{'Doctor' if s == 'doctor' else 'Patient'}: {t}" for s, t in self.transcript)

    def to_variant(self, seed: int = 0) -> Variant:
        raise NotImplementedError


def run_conversation(case: Case, setting: str, *, runner: "Runner", doctor_model: str, patient_model: str,
                     max_turns: int = 10, seed: int = 0, **params: Any) -> Conversation:
    """Run one case in one setting."""
    return run_conversations([case], setting, runner=runner, doctor_model=doctor_model, patient_model=patient_model,
                             max_turns=max_turns, seed=seed, **params)[0]


def run_conversations(cases: Sequence[Case], setting: str, *, runner: "Runner", doctor_model: str,
                      patient_model: str, max_turns: int = 10, seed: int = 0, **params: Any) -> list[Conversation]:
    """Run many cases turn by turn (one ``runner.generate`` per turn)."""
    raise NotImplementedError
