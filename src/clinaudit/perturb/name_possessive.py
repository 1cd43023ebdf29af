"""A lower-case given name that is an English word, in a possessive before a noun (issue 50, eighth session): "i left
fern's inhaler in the car", "it's autumn's birthday". The word alone says nothing in lower case ("fern", "autumn");
a possessive "'s" before a noun says something belongs to it, which a person does and a fern does not.

Taken: a gazetteer given name English text uses less than Zipf :data:`.vocab.WORD_NAME_ZIPF`, no clinical, function,
demographic, spoken or relative's word (:func:`.name_word.word_name` with ``given=True``), written in lower case
right before "'s" and a lower-case common word that is no function word nor a form in "-ing", "-ed", "-ly" ("autumn's
coming", "heather's been" are "is"/"has"); not after a determiner or a possessive ("the sorrel's leaves"), not before a
body part or a complaint named after a trade ("farmer's lung", "a runner's knee", "writer's cramp"), nor where no
person stands (``no_person_at``: "baker's cyst"; but "fern's inhaler" is hers, not a product's form). Used by :mod:`.name_detect` (source ``rule``).

Also (issue 50, ninth session) before what a person has that also names a product's form (:data:`_THEIRS`: "inhaler",
"cream", "pills"; tenth session: and a person's occasions and home, :data:`_OCCASIONS`, "wedding", "house"), which the eponym check read as a brand's product: a word in no list in either case ("peadar's
cream", "Sadhbh's inhaler": :func:`.name_word.unlisted_word`, three letters or more), and in cased text a
capitalised gazetteer given name whatever its frequency ("I borrowed Nuala's cream", "Penny's inhaler"), no clinical,
function, demographic, spoken or relative's word nor an eponym; never after a determiner or possessive.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from operator import attrgetter

from .name_tokens import Tok
from .name_word import OWNERS, RELATIVES, blocked, unlisted_word, word_facts, word_name
from .text_scan import places
from .vocab import first_names

__all__ = ["possessive_names"]

_NEXT = re.compile(r"['’]s[ \t]+([a-z]+)\b")
#: what a trade's complaint is named after ("farmer's lung", "runner's knee", "smoker's cough")
_BODY = frozenset("""lung lungs ear ears elbow elbows knee knees thumb thumbs foot feet toe toes cough cramp itch
    shoulder shoulders hand hands wrist nodes node hip back neck eye eyes""".split())


#: what a person has that also names a product's form after a brand ("metro cream", "Advair inhaler": no person there,
#: :func:`.name_no_person.no_person_at`); after a given name and "'s" it is the person's ("fern's inhaler")
_THEIRS = frozenset("inhaler inhalers pills pill cream tablets shot patch".split())
#: a person's occasions and home, which a thing has not ("kettlie's wedding", "wislet's place"): a word in no list
#: before "'s" and one of them is a person, as before :data:`_THEIRS` (issue 50, tenth session: dev14's Haitian names
#: that look like a word written wrong, "kettlie" of "kettle")
_OCCASIONS = frozenset("wedding birthday funeral graduation baptism christening quinceanera house apartment".split())


def possessive_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The given names of ``toks`` in a possessive before a noun (the module's docstring)."""
    if not toks:
        return []
    given = first_names()
    out: list[Tok] = []
    # only the places of "'s" are read, not every word
    for p in sorted(set(places(text, "'s ")) | set(places(text, "’s "))):
        before = text[text.rfind(" ", max(0, p - 40), p) + 1:p]
        m = _NEXT.match(text, p)
        theirs = m is not None and (m.group(1) in _THEIRS or m.group(1) in _OCCASIONS)
        if before not in given and not theirs:
            continue  # "it's", "that's", "let's": the word before is no given name (read before the words are)
        i = bisect_left(toks, p, key=attrgetter("end"))
        if m is None or i >= len(toks) or toks[i].end != p or i > 0 and toks[i - 1].key in OWNERS:
            continue
        t = toks[i]
        if theirs and _theirs_name(t, given):
            out.append(t)  # "peadar's cream", "I borrowed Nuala's cream"
            continue
        if t.key not in given or not t.text.islower() or t.key in RELATIVES or not word_name(t.key, given=True):
            continue  # "it's", "that's", "let's": no given name
        nxt = m.group(1)
        w = word_facts(nxt)
        if not w.common or w.function or nxt.endswith(("ing", "ed", "ly")) or nxt in _BODY:
            continue
        if nxt in _THEIRS or not no_person_at(text, t.start, t.end):  # "fern's inhaler": hers, no product's form
            out.append(t)
    return out


def _theirs_name(t: Tok, given: frozenset[str] | set[str]) -> bool:
    """Before "'s" and a person's thing (:data:`_THEIRS`): a word in no list of three letters or more, or in cased
    text a capitalised gazetteer given name that is no clinical, function, demographic, spoken or relative's word nor
    an eponym."""
    if len(t.key) >= 3 and unlisted_word(t.key) and (t.text.islower() or t.text[1:].islower()):
        return True
    w = word_facts(t.key)
    return t.text[:1].isupper() and t.text[1:].islower() and t.key in given and t.key not in RELATIVES \
        and not (blocked(w) or w.clinical is not None or w.eponym)
