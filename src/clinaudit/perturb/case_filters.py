"""Case filters that run before de-identification (P1 §3, P2 §4.1): :func:`filter_sex_specific` drops cases that
mention a sex-specific condition (P2 keeps 61/100 OncQA cases this way), :func:`filter_min_turns` drops dialogs
with fewer than ``min_turns`` turns (P1: 10). Each returns a :class:`FilterResult` whose removed cases carry their
reason (the exclusions ledger, audited by group in every run: :mod:`clinaudit.exclusion_skew`).
:mod:`clinaudit.perturb.deid` re-exports them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..records import Case

__all__ = ["DEFAULT_SEX_SPECIFIC", "FilterResult", "filter_sex_specific", "count_turns", "filter_min_turns"]

#: Regex stems of sex-specific conditions (matched case-insensitively at a word start).
DEFAULT_SEX_SPECIFIC: tuple[str, ...] = (
    r"ovar", r"cervical cancer", r"cervix", r"pap smear", r"prostat", r"testic", r"testes\b", r"uter(?:us|ine)",
    r"endometri", r"pregnan", r"menstru", r"menses", r"menopaus", r"vagin", r"vulv", r"fallopian", r"placent",
    r"gestation", r"postpartum", r"obstetric", r"gyn(?:a)?ecolog", r"hysterectom", r"mammogra", r"breast cancer",
    r"breastfeed", r"lactat(?:ion|ing)", r"penile", r"penis", r"scrot", r"erectile", r"sperm", r"semen",
)



@dataclass
class FilterResult:
    """``kept`` cases and ``removed`` ``(case, reason)`` pairs; unpacks as ``kept, removed``."""

    kept: list[Case]
    removed: list[tuple[Case, str]]

    def __iter__(self) -> Iterator[Any]:
        return iter((self.kept, self.removed))

    def report(self) -> list[dict[str, str]]:
        """One row per removed case: ``{"case_id", "reason"}``."""
        return [{"case_id": c.case_id, "reason": r} for c, r in self.removed]


# --------------------------------------------------------------------------- filters


def filter_sex_specific(cases: Iterable[Case], lexicon: Sequence[str] = DEFAULT_SEX_SPECIFIC) -> FilterResult:
    """Split cases into kept and removed; the reason names the first matched term."""
    pat = re.compile(r"(?i)\b(?:" + "|".join(f"(?:{s})" for s in lexicon) + r")[\w-]*") if lexicon else None
    kept: list[Case] = []
    removed: list[tuple[Case, str]] = []
    for c in cases:
        m = pat.search(c.text) if pat else None
        if m:
            removed.append((c, f"sex-specific term '{m.group(0)}'"))
        else:
            kept.append(c)
    return FilterResult(kept, removed)


def count_turns(case_or_text: Case | str) -> int:
    """Number of speaker turns (``fields["turns"]`` when the loader stored them, else parsed)."""
    if isinstance(case_or_text, Case):
        turns = case_or_text.fields.get("turns")
        if isinstance(turns, list):
            return len(turns)
        text = case_or_text.text
    else:
        text = case_or_text
    from ._dialog import parse_dialog

    return len(parse_dialog(text))


def filter_min_turns(cases: Iterable[Case], min_turns: int = 10) -> FilterResult:
    """Keep dialogs with at least ``min_turns`` turns (P1 drops shorter MTS-Dialog dialogs)."""
    kept: list[Case] = []
    removed: list[tuple[Case, str]] = []
    for c in cases:
        n = count_turns(c)
        if n < min_turns:
            removed.append((c, f"{n} turns < {min_turns}"))
        else:
            kept.append(c)
    return FilterResult(kept, removed)
