"""Gender neutralization (P3 §3.2): pronouns, gendered nouns and titles → neutral forms.

Every substitution is recorded as ``{"start", "end", "old", "new"}`` (positions on
the *original* text) in ``provenance["substitutions"]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..records import Case, Variant

__all__ = ["Substitution", "NeutralizeResult", "GENDERED_LEXICON", "neutralize_text", "find_gendered_terms",
           "neutralize_case"]


@dataclass(frozen=True)
class Substitution:
    start: int
    end: int
    old: str
    new: str


@dataclass
class NeutralizeResult:
    text: str
    substitutions: list[Substitution] = field(default_factory=list)


#: Gendered words the neutralizer replaces (lower case).
GENDERED_LEXICON: frozenset[str] = frozenset()


def neutralize_text(text: str) -> NeutralizeResult:
    """Neutralize gendered pronouns, nouns and titles in ``text``."""
    raise NotImplementedError


def find_gendered_terms(text: str) -> list[tuple[int, str]]:
    """Remaining gendered words of :data:`GENDERED_LEXICON` in ``text`` (position, word)."""
    raise NotImplementedError


def neutralize_case(case: Case, rng: Any = None, **params: Any) -> list[Variant]:
    """Registered transform ``neutralize_gender``."""
    raise NotImplementedError
