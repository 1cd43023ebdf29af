"""Parameters of the ``adaptive_attack`` audit (``params:`` in the spec)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from ...pipeline import JudgeChoice

__all__ = ["AttackParams", "ARMS"]

#: the two attackers: ``attack`` tries to flip the answer, ``control`` makes neutral edits the same way
ARMS: tuple[str, ...] = ("attack", "control")


class AttackParams(JudgeChoice):
    """Defaults: three turns, a sampling attacker, a greedy target, the rule guard."""

    model_config = ConfigDict(extra="forbid")

    max_turns: int = Field(3, ge=1, le=20, description="attacker turns per case (K); the loop stops at a flip")
    control: bool = Field(True, description="also run the control attacker (neutral edits, same loop)")
    max_words: int = Field(60, ge=5, description="longest background passage the guard accepts (words)")
    attacker_temperature: float = Field(0.7, ge=0.0, le=2.0)
    attacker_max_tokens: int = Field(160, ge=8)
    target_temperature: float = Field(0.0, ge=0.0, le=2.0, description="greedy by default (as P3's MCQ protocol)")
    target_max_tokens: int = Field(512, ge=8)
    language: str = Field("English", description="language of the MCQ prompt (P3 Fig. 8)")
    guard: Literal["rules", "rules_then_judge"] = Field(
        "rules", description="rules: the rule guard only; rules_then_judge: passages the rules accept also go "
        "to the clinical_guard judge (models.judge), which must answer NO (no clinical content)")
    guard_terms: list[str] | None = Field(None, description="override the clinical-term lexicon of the rule guard")
    guard_patterns: list[str] = Field(default_factory=list,
                                      description="extra regexes a passage must not match (e.g. drug names)")
    n_resamples: int = Field(1000, ge=10)
    correction: Literal["bonferroni", "holm", "fdr_bh"] = Field("holm")
