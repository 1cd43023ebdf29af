"""A name with a middle initial (issue 50, eighth session): "my old doctor was fern r . moss", "signed by chance t .
frost", "Fern R. Moss". In lower-case speech a given name and a surname that are English words are words ("fern",
"moss"); a single letter and a dot between a gazetteer given name and a gazetteer surname say that the three are one
person's name, as a form or a letter writes it.

Taken: the given name, the initial and the surname, when the given name is a gazetteer name (given name or surname:
"bride r . furlong") and the surname a gazetteer surname, all three in lower case or all capitalised ("Fern R. Moss"), neither a function, demographic, spoken or relative's word nor a clinical word
other than a condition's ("hay", "snow" are both), and a person may stand there (``no_person_at``). The initial is no
"a" nor "i" (words), the dot right after it ("vitamin d . so" has no given name before it; "plan b . moss" no given
name). Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from bisect import bisect_left
from operator import attrgetter

from .name_frames import TITLES
from .name_tokens import Tok
from .name_word import RELATIVES, blocked, word_facts
from .vocab import SPOKEN_WORDS, first_names, surnames

__all__ = ["middle_initial_names"]

#: the letters a middle initial may be: not "a" nor "i", which are words
_INITIALS = frozenset("bcdefghjklmnopqrstuvwxyz")
_SPACE = re.compile(r"[ \t]")
_DOT = re.compile(r"[ \t]?\.[ \t]")
#: between a title and an initial: a space, or a dot and a space ("dr j .", "dr . j .", "Dr. J.")
_TITLE_GAP = re.compile(r"[ \t]?\.?[ \t]")
_LETTER_DOT = re.compile(r" [b-hj-zB-HJ-Z] ?\. ")


def _part_may_be(key: str, names: frozenset[str] | set[str]) -> bool:
    if key not in names or not key.isalpha() or len(key) < 2 or key in SPOKEN_WORDS or key in RELATIVES:
        return False
    w = word_facts(key)
    return not blocked(w) and w.clinical in (None, "condition")


def _title_surname(key: str, names: frozenset[str] | set[str]) -> bool:
    """A gazetteer surname after a title and an initial: a colour or an age word too ("dr . j . brown", "mrs . a .
    young"), never a function, spoken or relative's word, an eponym, a drug or a specialty."""
    if key not in names or not key.isalpha() or len(key) < 2 or key in SPOKEN_WORDS or key in RELATIVES:
        return False
    w = word_facts(key)
    return not (w.function or w.eponym) and w.clinical not in ("drug", "specialty")


def middle_initial_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The given name, the initial and the surname of each lower-case "given x . surname" of ``toks`` (the module's
    docstring)."""
    out: list[Tok] = []
    given, sur = first_names(), surnames()
    # only the places of a letter and a dot are read (a literal space first: the engine searches it fast), not every word
    for m in _LETTER_DOT.finditer(text):
        k = bisect_left(toks, m.start() + 1, key=attrgetter("start"))
        if not 0 < k < len(toks) - 1 or toks[k].start != m.start() + 1 or toks[k].key not in _INITIALS:
            continue
        a, x, b = toks[k - 1], toks[k], toks[k + 1]
        if a.key in TITLES and _TITLE_GAP.fullmatch(text, a.end, x.start) and _DOT.fullmatch(text, x.end, b.start):
            # "it was dr . j . brown .", "Mrs. K. Wood": a title, an initial and a surname
            if _title_surname(b.key, sur) and (x.text.islower() and b.text.islower() or x.text.isupper() and b.capital) \
                    and not no_person_at(text, b.start, b.end):
                out += [x, b]
            continue
        if not (_SPACE.fullmatch(text, a.end, x.start) and _DOT.fullmatch(text, x.end, b.start)):
            continue
        lower = a.text.islower() and x.text.islower() and b.text.islower()
        if not (lower or a.capital and x.text.isupper() and b.capital) \
                or not (_part_may_be(a.key, given) or _part_may_be(a.key, sur)) or not _part_may_be(b.key, sur):
            continue
        if not (no_person_at(text, a.start, a.end) or no_person_at(text, b.start, b.end)):
            out += [a, x, b]
    return out
