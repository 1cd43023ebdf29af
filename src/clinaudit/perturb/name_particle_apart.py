"""An Irish or Scottish surname whose particle is written apart from its stem (issue 50, fourteenth session): "o
brien", "ó briain", "ní bhraonáin", "mac coinnich", "mc gillivray", "fitz simons".

Transcripts drop the apostrophe of "O'Brien" and Gaelic writes the particle as a word of its own ("Ó Dálaigh", "Mac
Suibhne", "Nic Fhearghail"). The stem alone may be a common word in the lists ("brien") or in no list ("briain",
"dálaigh"), and "o", "mac", "mc", "de" are words ("type o", "mac and cheese"), so neither word alone names a person;
together they do where:

* the particle and the stem joined are a gazetteer surname ("o brien" -> "obrien", "mc cue" -> "mccue", "o hare"
  -> "ohare"); or
* after a particle only Gaelic writes before a name ("ó", "ní", "nic", "ua", "mac", "mc") the stem is in no list
  ("ua buachalla", "mac coinnich") or a gazetteer name (after "mac"/"mc" one that is no common word: not "mac
  book", "mac cheese"); or
* after "mag" (Mag Uidhir, Mag Fhloinn: "mac" before a vowel or a lenited "fh" in Ulster and Connacht names; issue
  50, sixteenth session) a stem in no list only ("a car mag", "mag wheels", "mag lite" stay);
* after "fitz" a gazetteer name that is no common word; after "o" or "ni" a stem in no list with a Gaelic spelling
  (a lenited consonant, "-aigh", an accent: "o dubhghaill", "ni bhraonáin").

The stem is never a function, demographic or relative's word, nor a clinical word but a condition's after "mac" or
"mc" ("mc fall"; not "o line"). The whole span is the name (particle and stem). Never after a determiner, "big",
"type", "group", "blood", "grade", "zero", "number", "letter" ("my mac mini", "a big mac", "type o neg", "zero o
two"), nor where ``no_person_at`` says no person stands; a stem in capitals is an acronym ("O NEG"), and a particle
is read only as its own word ("O2", "MAC" are no particle). Used by :mod:`.name_detect` (source ``rule``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_tokens import NAME_END, Tok, distinct_texts, fold
from .name_word import word_facts
from .text_scan import matches_from, places
from .vocab import RELATIVES, SPOKEN_WORDS, surnames

__all__ = ["PARTICLES_APART", "apart_particle_names"]

#: the particles read, lower case (the fada kept): those only Gaelic writes before a name and the English-looking ones
GAELIC_ONLY = frozenset({"ó", "ní", "nic", "ua", "mac", "mc", "mag"})
PARTICLES_APART = GAELIC_ONLY | {"o", "fitz"}
_APART = re.compile(r"(?<![\w'’\-])(ó|o|ní|ni|nic|ua|mac|mc|mag|fitz|Ó|O|Ní|Ni|Nic|Ua|Mac|Mc|Mag|Fitz) "
                    r"([^\W\d_]{3,})" + NAME_END)  # "o brien's mum": before a possessive too
#: the particles as :data:`_APART` reads them, as written
_WRITTEN = frozenset(p for q in ("ó", "o", "ní", "ni", "nic", "ua", "mac", "mc", "mag", "fitz") for p in (q, q.capitalize()))
#: the word before the particle that makes it a thing or a letter: "my mac", "a big mac", "type o", "group o"
_NOT_BEFORE = frozenset("""a an the my your his her our their this that big type group blood grade zero o oh nought
    number letter""".split())
_BEFORE = re.compile(r"(\w+)\W*$")
#: Gaelic spellings English does not write: a lenited consonant ("bh", "dh", "fh", "gh", "mh") before a vowel
_GAELIC = re.compile(r"(?:bh|dh|fh|gh|mh|ch)[aeiouáéíóú]|[aeiou]igh$|ai[dlnr]$|[áéíóú]")


def apart_particle_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The spans of a particle, one space and a stem that name a person (the module's docstring): "o brien",
    "Ó Dálaigh", "mac coinnich"; not "o negative", "mac and cheese", "my mac mini", "blood type o"; never where
    ``no_person_at`` says no person stands ("o hare airport"). ``toks``: the text's words. Only the particles among
    its distinct words are looked for, each after a space or at a line's start (36 literals found in a 1 MB dialog
    cost 40 ms; "o" alone, 2 ms)."""
    out: list[Tok] = []
    written = _WRITTEN & distinct_texts(toks)
    if not written:
        return out
    starts = sorted({p + 1 for w in written for sep in " \n" for p in places(text, sep + w + " ")}
                    | {0 for w in written if text.startswith(w + " ")})
    for m in matches_from(_APART, text, starts):
        particle, stem = m.group(1), m.group(2)
        if stem.isupper() and len(stem) > 1 or not (stem.islower() or stem[0].isupper() and stem[1:].islower()):
            continue  # "O NEG", "Mac OS"
        if particle[0].isupper() != stem[0].isupper():
            continue  # "O brien"? "o Brien": one writing, both in lower case or both capitalised
        before = _BEFORE.search(text, max(0, m.start() - 12), m.start())
        if before and before.group(1).lower() in _NOT_BEFORE:
            continue  # "my mac mini", "a big mac", "type o", "zero o two"
        if surname_apart(particle.lower(), stem.lower()) and not no_person_at(text, m.start(), m.end()):
            out.append(Tok(m.start(), m.end(), m.group(0), fold(m.group(0)).lower()))
    return out


@lru_cache(maxsize=20_000)
def surname_apart(particle: str, stem: str) -> bool:
    """``particle`` and ``stem`` (lower case, as written) name a surname (the module's docstring)."""
    key, joined = fold(stem).lower(), fold(particle).lower()
    if not key.isalpha() or key in RELATIVES or key in SPOKEN_WORDS:
        return False
    w = word_facts(key)
    if w.function or w.demographic or w.clinical not in (None, "condition"):
        return False
    if w.clinical is not None and joined not in ("mac", "mc"):  # "o line"; but "mc fall"
        return False
    if joined + key in surnames():  # "o brien" (obrien), "mc cue" (mccue), "fitz simons" (fitzsimons)
        return True
    unlisted = not (w.common or w.gazetteer)
    if particle in GAELIC_ONLY:  # "ó dálaigh", "ua buachalla", "mac coinnich", "ní bhriain"; "mac" is an English
        if particle == "mag":  # "mag uidhir", "mag fhloinn": only a stem in no list ("a car mag", "mag wheels")
            return unlisted
        return unlisted or w.gazetteer and not (particle in ("mac", "mc") and w.common)  # word: not "mac book"
    if particle == "fitz":  # a gazetteer name no common word (not "the fitz hotel")
        return w.gazetteer and not w.common
    return unlisted and _GAELIC.search(stem) is not None  # "o dubhghaill", "ni bhraonain"
