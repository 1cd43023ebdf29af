"""Cased names that generalise (issue 50, the second development set ``benchmarks/deid_dev2.py``): how surnames of
several parts and names with an apostrophe are written, whatever the word lists say of their words. Used by the
name detector (:mod:`.name_detect`), which passes its sentence-start test and its "may this word be a name" test in.

* **a chain of surname particles** before a capitalised word: two or three lower-case particles ("Sander van der
  Meulen", "van den Berg says"; one particle is :func:`.name_writing.particle_names`'s) or a capitalised particle
  and any lower-case ones ("Seán Ó Briain", "Ó Briain says", "Marco De Luca", "De Luca says", "Ní Dhomhnaill"),
  after a capitalised word or at a sentence's start: the particles and the word are a name. After a capitalised
  particle the word must be a name of the gazetteer or in no list of common words ("Van Dijk"; not "Le Mans is",
  "O Lord");
* **a capital after an apostrophe**: "D'Amico", "N'Diaye", "O'Shea" — no English word is written so (a
  contraction has a lower-case letter there: "Don't", "O'clock").
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence

from .name_tokens import Tok

__all__ = ["LOWER_PARTICLES", "CAPITAL_PARTICLES", "particle_chain_names", "apostrophe_names"]

#: Surname particles written in lower case ("van der Meulen", "de la Cruz", "dos Santos")
LOWER_PARTICLES = ("van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "dos", "das", "ter", "ten",
                   "la", "le", "los", "al", "bin", "ibn", "bint")
#: Surname particles written with a capital ("Ó Briain", "Ní Dhomhnaill", "Mac Carthaigh", "De Luca", "Van Dijk")
CAPITAL_PARTICLES = ("Ó", "O", "Ní", "Ni", "Nic", "Mac", "Mc", "Uí", "Ua", "De", "Di", "Da", "Du", "Del", "Della",
                     "Van", "Von", "Ter", "Ten", "Dos", "Das", "Bin", "Ibn")
_L = "|".join(LOWER_PARTICLES)
_C = "|".join(CAPITAL_PARTICLES)
#: a capitalised particle and lower-case ones, or two or three lower-case ones, then one space and a capital
_CHAIN = re.compile(rf"(?<![\w'’\-])(?:(?P<cap>{_C})(?: (?:{_L})){{0,2}}|(?:{_L})(?: (?:{_L})){{1,2}}) (?=[^\W\d_])")
_APOSTROPHE = re.compile(r"(?<![\w'’\-])[A-Z][a-z]?['’][A-Z][a-z]{2,}(?![\w'’\-])")

SentenceStart = Callable[[str, int], bool]


def particle_chain_names(text: str, toks: Sequence[Tok], sentence_start: SentenceStart,
                         may_be_name: Callable[[Tok], bool], name_like: Callable[[Tok], bool]) -> list[Tok]:
    """The particles and the capitalised word of a chain of surname particles (module docstring), after a
    capitalised word (one space) or at a sentence's start. ``may_be_name``: the word is no function, drug or
    non-name clinical word; ``name_like``: the word is a gazetteer name or in no list (asked after a capitalised
    particle)."""
    starts: list[int] = []
    out: list[Tok] = []
    for m in _CHAIN.finditer(text):
        starts = starts or [t.start for t in toks]  # read once, and only when a chain is there
        j = bisect.bisect_left(starts, m.end())  # the word after the chain
        i = bisect.bisect_left(starts, m.start())  # the chain's first particle
        if j >= len(toks) or starts[j] != m.end() or i >= len(toks) or starts[i] != m.start():
            continue
        t = toks[j]
        if not t.capital or len(t.key) < 2 or not may_be_name(t):
            continue
        prev = toks[i - 1] if i > 0 else None
        after_capital = prev is not None and prev.capital and text[prev.end:m.start()] == " "
        if not (after_capital or sentence_start(text, m.start())):
            continue
        if m.group("cap") and not name_like(t):
            continue
        out += list(toks[i:j + 1])
    return out


def apostrophe_names(text: str, toks: Sequence[Tok], may_be_name: Callable[[Tok], bool]) -> list[Tok]:
    """Words written with a capital after an apostrophe ("D'Amico says", "I saw N'Diaye"): a name."""
    starts: list[int] = []
    out = []
    for m in _APOSTROPHE.finditer(text):
        starts = starts or [t.start for t in toks]
        j = bisect.bisect_left(starts, m.start())
        if j < len(toks) and starts[j] == m.start() and may_be_name(toks[j]):
            out.append(toks[j])
    return out
