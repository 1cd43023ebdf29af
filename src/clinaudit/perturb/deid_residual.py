"""Which of the items the residual check lists count as identifiers, and what reports may show of them
(de-identification, :mod:`.deid`: a possible name is shown by its length and position only)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["RESIDUAL_KINDS", "DEFAULT_RESIDUAL_KINDS", "residual_identifiers", "public_text", "describe_residuals"]

#: Kinds of :attr:`DeidReport.remaining` items.
RESIDUAL_KINDS: tuple[str, ...] = ("possible_name", "first_person_age", "age_question", "gendered_term")
#: Kinds that make a dialog count as still identifying (an age *question* alone is not an identifier).
DEFAULT_RESIDUAL_KINDS: tuple[str, ...] = ("possible_name", "first_person_age", "gendered_term")


def residual_identifiers(remaining: Iterable[dict[str, Any]], kinds: Iterable[str] = DEFAULT_RESIDUAL_KINDS,
                         allow: Iterable[str] = (), *, vocabulary: bool = True) -> list[dict[str, Any]]:
    """The ``remaining`` items that count as identifiers: of one of ``kinds``, whose text is not in ``allow``
    (words a reviewer cleared; compared case-insensitively) and, with ``vocabulary=True``, not explained by
    the clinical vocabulary or the common-word list (a possible name's ``known`` field: drugs, conditions,
    specialties, facilities' words, places, common words)."""
    kinds = set(kinds)
    bad = set(kinds) - set(RESIDUAL_KINDS)
    if bad:
        raise ValueError(f"unknown residual kind(s) {sorted(bad)}; known: {', '.join(RESIDUAL_KINDS)}")
    cleared = {a.strip().lower() for a in allow}
    return [r for r in remaining if r["kind"] in kinds and str(r["text"]).strip().lower() not in cleared
            and not (vocabulary and r.get("known"))]


def public_text(item: dict[str, Any]) -> str:
    """What reports may show of a residual item: its text, except for a possible name (which may be a
    person's name): ``[N letters]``."""
    if item["kind"] == "possible_name":
        return f"[{len(str(item['text']))} letters]"
    return str(item["text"])


def describe_residuals(items: Sequence[dict[str, Any]], limit: int = 8) -> str:
    """``possible_name [7 letters] at 123; first_person_age "I'm thirty one"`` (distinct items, in text order;
    a possible name by its length and position only, never its letters)."""
    seen: list[str] = []
    for r in items:
        s = (f"{r['kind']} {public_text(r)} at {r['start']}" if r["kind"] == "possible_name"
             else f"{r['kind']} {str(r['text'])!r}")
        if s not in seen:
            seen.append(s)
    more = f"; +{len(seen) - limit} more" if len(seen) > limit else ""
    return "; ".join(seen[:limit]) + more
