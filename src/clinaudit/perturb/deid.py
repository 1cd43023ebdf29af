"""Case filtering and de-identification (P1 §3, P2 §4.1).

* :func:`filter_sex_specific` drops cases mentioning sex-specific conditions;
* :func:`filter_min_turns` drops dialogs with fewer than ``min_turns`` turns (P1: 10);
* :func:`deidentify_text` replaces names with ``[NAME]`` and removes explicit ages,
  life-stage cues and race/ethnicity/national-origin descriptors, reporting what it
  removed and what still looks identifying.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..records import Case, Variant

__all__ = ["DEFAULT_SEX_SPECIFIC", "FilterResult", "DeidReport", "filter_sex_specific", "filter_min_turns",
           "deidentify_text", "deidentify_case"]

#: Keywords marking sex-specific conditions (lower case; matched as word prefixes).
DEFAULT_SEX_SPECIFIC: tuple[str, ...] = ()


@dataclass
class FilterResult:
    """``kept`` cases and ``removed`` ``(case, reason)`` pairs."""

    kept: list[Case]
    removed: list[tuple[Case, str]]

    def __iter__(self):  # allows ``kept, removed = filter_...(...)``
        return iter((self.kept, self.removed))


@dataclass
class DeidReport:
    removed: list[dict[str, Any]] = field(default_factory=list)  # {"start","end","old","new","kind"}
    remaining: list[dict[str, Any]] = field(default_factory=list)  # {"start","end","text","kind"} still identifying


def filter_sex_specific(cases: Iterable[Case], lexicon: Sequence[str] = DEFAULT_SEX_SPECIFIC) -> FilterResult:
    """Split cases into kept and removed (with the matched keyword as reason)."""
    raise NotImplementedError


def filter_min_turns(cases: Iterable[Case], min_turns: int = 10) -> FilterResult:
    """Keep dialogs with at least ``min_turns`` turns (P1 drops shorter MTS dialogs)."""
    raise NotImplementedError


def deidentify_text(text: str, *, names: Sequence[str] = ()) -> tuple[str, DeidReport]:
    """De-identify ``text``; ``names`` are extra known names to replace."""
    raise NotImplementedError


def deidentify_case(case: Case, rng: Any = None, **params: Any) -> list[Variant]:
    """Registered transform ``deidentify``."""
    raise NotImplementedError
