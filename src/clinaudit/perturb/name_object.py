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
lower-case slot (:mod:`.name_slots`) takes a gazetteer name there; :func:`lower_objects` adds a rare word in no
list in lower-case speech ("please ask serghei to bring").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .name_prep import after_determiner
from .name_tokens import Tok, fold, word_before
from .text_scan import anchored_finditer

__all__ = ["capital_objects", "lower_objects"]

#: a verb or "to", one space, a capitalised word, then the clause's end or a preposition
_OBJECT = re.compile(r"(?<![\w'’\-])(?:to|call|ask|tell|told|asked)[ \t]+([^\W\d_]+)"
                     r"(?=[ \t]*(?:[.,!?;:]|\n|$)|[ \t]+(?:on|at|in|if|about|and|for|to|yesterday|today|again|when|"
                     r"that|this|last|next)\b)")
#: before "to", a verb of going or a way: a place follows, not a person ("drove to Tacoma", "a trip to Rome")
_GOING = frozenset("""go goes going went gone drive drives driving drove driven walk walks walking walked fly flies
    flying flew flown move moves moving moved come comes coming came travel travels traveling travelled traveled
    trip trips back way head heads heading headed get gets getting got return returned returning ride rode
    commute commuted transferred due close next up down over""".split())
#: what every match of :data:`_OBJECT` and :data:`_LOWER_OBJECT` starts with ("asked" with "ask")
_OBJECT_START = ("to", "call", "ask", "tell", "told")


def capital_objects(text: str, may_be_person: Callable[[str, Tok], bool]) -> list[Tok]:
    """The capitalised words of ``text`` in the object slot of the module's docstring that ``may_be_person(text,
    t)`` allows."""
    out: list[Tok] = []
    for m in anchored_finditer(_OBJECT, text, _OBJECT_START):
        word = m.group(1)
        if not (word[0].isupper() and word[1:].islower()):  # "Brown", "Černá"; not "CVS", "to me"
            continue
        if m.group(0)[:2] == "to":
            if word_before(text, m.start()).lower() in _GOING:
                continue
        t = Tok(m.start(1), m.start(1) + len(word), word, fold(word).lower())
        if len(t.key) >= 2 and may_be_person(text, t):
            out.append(t)
    return out


#: in lower-case speech: "call", "ask", "tell", "told", "asked" or "to", one space, a lower-case word, then the
#: clause's end or a preposition ("please ask serghei to bring", "i talked to presnel on the phone")
_LOWER_OBJECT = re.compile(r"(?<![\w'’\-])(?:to|call|ask|tell|told|asked)[ \t]+([a-z]+)(?=[ \t]*(?:[.,!?;:]|\n|$)|"
                           r"[ \t]+(?:on|at|in|if|about|and|for|to|yesterday|today|again|when|that|this|last|next)\b)")


def lower_objects(text: str, kind: Callable[[str, Tok], str | None]) -> list[Tok]:
    """In lower-case speech, a word in no list (``kind`` says ``"unlisted"``: no common, clinical or gazetteer word,
    no drug written wrong) that English text seldom uses (Zipf below :data:`.vocab.RARE_ZIPF`) as the object of
    "call", "ask", "tell", "told", "asked" or "to" (not after a verb of going, nor "we call", "they call"), before
    the clause's end or a preposition, unless the dialog writes it after a determiner elsewhere ("the wixela"): a
    person ("please ask serghei to bring", "you can call presnel if"). The lower-case slot of
    :mod:`.name_slots` takes a gazetteer name there; a word in no list that looks like a word
    (:func:`.word_known.looks_like_a_word`: "serghei", "presnel", "colea") was left."""
    from .vocab import RARE_ZIPF, english_zipf

    out: list[Tok] = []
    for m in anchored_finditer(_LOWER_OBJECT, text, _OBJECT_START):
        word = m.group(1)
        if len(word) < 3 or english_zipf(word) >= RARE_ZIPF:
            continue
        before = word_before(text, m.start()).lower()
        if m.group(0)[:2] == "to" and before in _GOING or m.group(0)[:4] == "call" and before in _NAMING:
            continue  # "drove to fresno"; "which we call hyperaldosterone ."
        if after_determiner(text, word):  # "switched to wixela" where the dialog says "the wixela": a thing
            continue
        t = Tok(m.start(1), m.end(1), word, word)
        if kind(text, t) == "unlisted":
            out.append(t)
    return out


#: before "call", who names a thing ("which we call ...", "what they call ...")
_NAMING = frozenset("we they people doctors".split())
