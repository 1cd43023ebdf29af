"""A name spelled out letter by letter (issue 50, twenty-ninth session): "my last name is [young] , y-o-u-n-g .",
"It is [Leota], L-E-O-T-A.", "that's spelled s i o n e ." A patient or a clerk spells a name so it is written right;
the detector took the name and left its letters, so the name reached the audited model all the same.

Taken: three or more single letters, each pair apart by the same separator (a hyphen with or without spaces, a dot,
a space, a comma and a space), no letter or digit right before or after the run, whose letters joined (lower case,
diacritics folded) are

* a name found in the text (any part of a span found by the rules before this one: the given name or the surname
  spelled after it was said), or
* within :data:`_REACH` characters after a word of spelling ("spell", "spelled", "spelling", "spelt"; the question
  may end a turn before: "can you spell it ?\n[patient] t-a-u-i-l-i-i-l-i"), a word of three letters or more that is
  a gazetteer name or no common word, and no clinical word ("spelled c-r-p", "spell it a-s-a-p" stay).

The letters are read from one scan of the text for runs of single letters (none in most texts: empty at once); the
run is replaced whole. Used by :mod:`.name_detect` (source ``rule``), registered last in :mod:`.name_rules`: it reads
every name found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .name_tokens import Tok, fold
from .vocab import clinical_category, first_names, is_common, surnames

__all__ = ["spelled_names"]

#: three or more single letters apart by the same separator, nothing word-like around the run
_RUN = re.compile(r"(?<![\w'’\-.])[^\W\d_](?P<sep>[ \t]?-[ \t]?|\.[ \t]?|,[ \t]|[ \t])[^\W\d_]"
                  r"(?:(?P=sep)[^\W\d_])+\.?(?![\w'’\-])")
#: a word of spelling before the run
_SPELLING = re.compile(r"(?i)(?<![\w'’])(?:spell|spells|spelled|spelling|spelt)(?![\w'’])")
#: how far back a word of spelling is read (characters)
_REACH = 60


def _letters(run: str) -> str:
    return fold("".join(ch for ch in run if ch.isalpha())).lower()


def _after_spelling(text: str, start: int) -> bool:
    return _SPELLING.search(text, max(0, start - _REACH), start) is not None


def _spelled_word(word: str) -> bool:
    return len(word) >= 3 and (word in first_names() or word in surnames() or not is_common(word)) \
        and clinical_category(word) is None


def spelled_names(text: str, found: Sequence[tuple[int, int]]) -> list[Tok]:
    """The runs of spelled letters that are a name (the module's docstring); ``found``: the spans found so far."""
    runs = list(_RUN.finditer(text))
    if not runs:
        return []
    names = {fold(part).lower() for s, e in found for part in re.split(r"[\s\-]+", text[s:e]) if len(part) >= 3}
    out: list[Tok] = []
    for m in runs:
        end = m.end() - 1 if m.group().endswith(".") else m.end()
        word = _letters(m.group())
        if word in names or _after_spelling(text, m.start()) and _spelled_word(word):
            out.append(Tok(m.start(), end, text[m.start():end], word))
    return out
