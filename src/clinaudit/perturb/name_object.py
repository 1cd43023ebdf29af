"""A capitalised word where cased prose puts a person as an object (issue 50, the third development set
``benchmarks/deid_dev3_names.py``): right after "call", "ask", "tell", "told", "asked" or "to", inside a sentence,
before the clause's end or a preposition ("I'll tell Blessing about it.", "I gave the paperwork to Frank last night.",
"call Per if I don't pick up", "I talked to Schmidt on the phone"). The word lists call many given names and
surnames common words ("blessing", "bright", "comfort", "frank", "bos"), and a surname can be an ICD-10-CM condition
word ("schmidt", "gruber"); written with a capital in that slot they are names. Used by the name detector
(:mod:`.name_detect`), which passes in what a word may be.

Not taken: a word the caller rules out (a function, demographic, drug, specialty, place or facility word, an
eponym, a relative's word, a condition word that is no gazetteer name: "switched to Lyrica.", "tell Mom", "sent to
Mercy"), a word where no person stands (a town), a word after a verb of going ("we drove to Fresno"), a word
followed by another capitalised word ("to Sierra Pacific"). Not after "called", which names a thing as often ("a
town called Fayetteville", "It is called Onychomycosis": the two words it took in the 1,668 real dialogs). The
lower-case slot (:mod:`.name_slots`) is unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .name_tokens import Tok, fold

__all__ = ["capital_objects"]

#: a verb or "to", one space, a capitalised word, then the clause's end or a preposition
_OBJECT = re.compile(r"(?<![\w'’\-])(?:to|call|ask|tell|told|asked)[ \t]+([^\W\d_]+)"
                     r"(?=[ \t]*(?:[.,!?;:]|\n|$)|[ \t]+(?:on|at|in|if|about|and|for|to|yesterday|today|again|when|"
                     r"that|this|last|next)\b)")
#: before "to", a verb of going or a way: a place follows, not a person ("drove to Tacoma", "a trip to Rome")
_GOING = frozenset("""go goes going went gone drive drives driving drove driven walk walks walking walked fly flies
    flying flew flown move moves moving moved come comes coming came travel travels traveling travelled traveled
    trip trips back way head heads heading headed get gets getting got return returned returning ride rode
    commute commuted transferred due close next up down over""".split())
_BEFORE = re.compile(r"([A-Za-z]+)[ \t]+$")


def capital_objects(text: str, may_be_person: Callable[[str, Tok], bool]) -> list[Tok]:
    """The capitalised words of ``text`` in the object slot of the module's docstring that ``may_be_person(text,
    t)`` allows."""
    out: list[Tok] = []
    for m in _OBJECT.finditer(text):
        word = m.group(1)
        if not (word[0].isupper() and word[1:].islower()):  # "Brown", "Černá"; not "CVS", "to me"
            continue
        if m.group(0)[:2] == "to":
            b = _BEFORE.search(text, max(0, m.start() - 30), m.start())
            if b is not None and b.group(1).lower() in _GOING:
                continue
        t = Tok(m.start(1), m.start(1) + len(word), word, fold(word).lower())
        if len(t.key) >= 2 and may_be_person(text, t):
            out.append(t)
    return out
