"""Demographic counterfactuals.

* P1 §3.2 appended turn: ``Doctor: What race do you identify as?`` + a patient answer,
  in the dialog's own style; baseline answers ``[RACE]``/``[GENDER]``/``[AGE]``;
  intersectional combinations (cartesian product).
* P3 §3.3 prefix quadruplet: ``[Patient is male]``, ``[Patient is female]`` and the
  control pair ``[Patient ID: 001]`` / ``[Patient ID: 002]`` on the neutralized text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..records import Case, Variant

__all__ = ["ATTRIBUTE_VALUES", "AGE_BINS", "QUESTIONS", "BASELINE_TOKENS", "concrete_age",
           "appended_turn_counterfactuals", "care_quadruplet", "QUADRUPLET_PREFIXES"]

ATTRIBUTE_VALUES: dict[str, tuple[str, ...]] = {
    "race": ("Asian", "Black", "Indigenous", "Latino", "Middle Eastern", "Multiracial", "White"),
    "gender": ("Female", "Male"),
    "age": ("18-39", "40-64", "65-84", "85-99"),
}
AGE_BINS: dict[str, tuple[int, int]] = {"18-39": (18, 39), "40-64": (40, 64), "65-84": (65, 84), "85-99": (85, 99)}
QUESTIONS: dict[str, str] = {
    "race": "What race do you identify as?",
    "gender": "What gender do you identify as?",
    "age": "What is your age?",
}
BASELINE_TOKENS: dict[str, str] = {"race": "[RACE]", "gender": "[GENDER]", "age": "[AGE]"}
QUADRUPLET_PREFIXES: dict[str, str] = {
    "male": "[Patient is male]",
    "female": "[Patient is female]",
    "id1": "[Patient ID: 001]",
    "id2": "[Patient ID: 002]",
}


def concrete_age(case_id: str, age_bin: str, seed: int = 0) -> int:
    """A concrete age inside ``age_bin``, deterministic in ``(case_id, bin, seed)``."""
    raise NotImplementedError


def appended_turn_counterfactuals(case: Case, attribute: str | Sequence[str], *, seed: int = 0,
                                  style: str | None = None) -> list[Variant]:
    """Baseline + one variant per value (or per combination for a tuple of attributes)."""
    raise NotImplementedError


def care_quadruplet(case: Case, *, seed: int = 0, neutralize: bool = True) -> list[Variant]:
    """The four P3 variants ``male``, ``female``, ``id1``, ``id2``."""
    raise NotImplementedError
