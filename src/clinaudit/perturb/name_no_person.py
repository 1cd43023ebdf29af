"""Where no person stands: the words around a word say it is no person's name (de-identification, :mod:`.name_detect`).

Every rule of the detector asks :func:`no_person_at` before it takes a word: an eponym's disease, sign or product
after it (:func:`clinical_word_after`: "Addison's disease", "Cetaphil cleansing lotion"), a facility's word
("the Mercy clinic"), a written acronym, a word cut off in speech, an eponym's other part, a place's, a town's or a
drug's product name (:func:`not_a_person`). :func:`sentence_start` says whether a position starts a sentence (the
rules read a capital there as no sign of a name). Moved out of :mod:`.name_detect` unchanged (issue 50, fifteenth
session: that module was at the 600-line limit).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .name_article_persons import seen_in
from .name_place_persons import relative_apposed
from .name_tokens import MARK as _MARK
from .name_tokens import WORD, fold
from .name_tokens import Tok as _Tok
from .name_word import WINDOW, after
from .name_word import word_facts as _word
from .name_writing import town_context
from .not_a_name import person_verb_after, place_after_preposition
from .vocab import (EPONYMS, FACILITY_WORDS, PLACE_BEFORE, PLACE_GENERIC, PLACE_WORDS, RESTORED_FIRST_NAMES,
                    written_acronym)
from .word_known import is_prefix_of_known

__all__ = ["clinical_word_after", "facility_after", "no_person_at", "not_a_person", "sentence_start"]

_EPONYM_AFTER = re.compile(
    r"(?i)^(?:\u2013[^\W\d_][\w\-]*)*(?:['’]s)?(?:\s+(?:and|&)\s+[^\W\d_][\w\-]*['’]s)?(?-i:[ \t]+[A-Z][a-z]+)?\s+(?:disease|syndrome|palsy|phenomenon|sign|test|maneuver|manoeuvre|fracture|ulcer|tumou?r|"
    r"lymphoma|sarcoma|dystrophy|ataxia|chorea|thyroiditis|esophagus|oesophagus|cyst|node|criteria|score|scale|"
    r"procedure|operation|reflex|law|equation|formula|classification|neuroma|neuralgia|contracture|deformity|"
    r"catheter|monitor|position|stage|grade|tendon|tendinitis|tendonitis|gland|cream|gel|stocking|lotion|"
    r"cleanser|cleansing|ointment|tablet|capsule|spray|drop|inhaler|patch|shot|injection|pill|wash|assessment|"
    r"thickness|halo|splint|pouch|spots|lesions|triad|diagram|nomogram|grid|nev(?:us|i)|naev(?:us|i)|"
    r"macroglobulinemia|agar|blot|stain|staining)s?\b"
    r"|^(?:\u2013[^\W\d_][\w\-]*)*\s+(?:cells?|virus|angina|index|surgery|muscular\s+dystrophy)\b")


#: an origin's word before "descent", "ancestry", ... ("of Ashkenazi Jewish descent", "of Mizrahi heritage")
_ORIGIN_AFTER = re.compile(r"^(?:\s+[A-Z][a-z]+)?\s+(?:descent|ancestry|heritage|extraction)\b")


def facility_after(after: str) -> bool:
    """Before a facility's word, or a capital and one ("the Mercy clinic", "Purdy Correctional Institute"): no person."""
    m = re.match(r"\s+([A-Za-z]+)(?:[ \t]+([A-Z][a-z]+))?", after)
    return bool(m and (m.group(1).lower() in FACILITY_WORDS or m.group(1)[0].isupper() and (m.group(2) or "").lower() in FACILITY_WORDS))


def sentence_start(text: str, pos: int) -> bool:
    """``pos`` starts a sentence: only spaces, quotes or an opening bracket after a sentence's end mark, a colon, a line
    break, a speaker label's "]" ("[doctor]") or the text's start."""
    window = text[max(0, pos - WINDOW):pos]
    before = window.rstrip(" \t\"'“(")
    if not before:
        return pos <= WINDOW  # only spaces and quotes before it: the text's start, or a long run of spaces
    return before[-1] in ".!?:\n" or before.endswith("]")


_NEIGHBOURS = re.compile(rf"(?:^|[^\w{_MARK}'’\-])((?:{WORD}))[ \t\-]+$")
_NEXT_WORD = re.compile(rf"^[ \t\-]+((?:{WORD}))")


@lru_cache(maxsize=8192)  # a word is asked about by several rules (issue 50, ninth session: 2,930 asks, 2,053 words)
def not_a_person(text: str, t: _Tok) -> bool:
    """A word cut off in speech ("noth- nothing"), an eponym's other part ("Charcot Marie tooth": next to a word of
    :data:`.vocab.EPONYMS`), a place's or an organisation's name ("Temple Street", "North Carolina"), a word after a
    drug ("Medrol Dosepak"), a town (:func:`.name_writing.town_context`: "Cheyenne, Wyoming"), a restored given name
    after an article or a possessive (:data:`.vocab.RESTORED_FIRST_NAMES`: "the Ana titer", "her Ana was positive":
    the lab test): not a person."""
    nxt = text[t.end:t.end + 2]
    if nxt[:1] == "-" and nxt[1:2] in (" ", "\t", "") and len(t.key) >= 2 and is_prefix_of_known(t.key, cut=True):
        return True
    m_next = _NEXT_WORD.match(after(text, t.end))
    nxt_key = fold(m_next.group(1)).lower() if m_next else ""
    m_prev = _NEIGHBOURS.search(text[max(0, t.start - 40):t.start])
    prev_key = fold(m_prev.group(1)).lower() if m_prev else ""
    if nxt_key.removesuffix("'s") in EPONYMS or prev_key.removesuffix("'s") in EPONYMS \
            or t.key in RESTORED_FIRST_NAMES and prev_key in _TEST_BEFORE:
        return True
    wp = _word(prev_key)  # a drug's product name: "Medrol Dosepak" (the drug list holds names too: "hana")
    if nxt_key in PLACE_GENERIC and not text[t.end:t.end + 1] == "-" or wp.clinical == "drug" and not wp.gazetteer \
            and (t.capital or not person_verb_after(text, t.end)):  # not "your metformin | zungu says i should"
        return True
    return t.key in PLACE_BEFORE and nxt_key in PLACE_WORDS or (town_context(text, t.start, t.end)
                                                               or place_after_preposition(text, t)) \
        and not (relative_apposed(text, t.end)  # "i live near jyrki , my cousin ."
                 or seen_in(text, t.start, t.end))  # "i saw it in jyrki , she had the same thing"


#: before a restored given name, an article or a possessive: its clinical acronym's word ("the Ana titer")
_TEST_BEFORE = frozenset("the a an your her his their this that any no".split())
#: an eponym's head word that is also a verb, said as one: an object or a particle after it ("Once Hughes signs it",
#: "Baxter tests my sugars", "Jen drops me off"; not "Babinski sign is", "Phalen's test positive", "Murphy sign and")
_HEAD_AS_VERB = re.compile(
    r"(?i)^\s+(?:sign|test|drop|patch|wash|monitor|position|stage|grade|score|scale|splint|spray|stain|blot)(?:s|es)?"
    r"\s+(?:me|him|her|it|them|us|you|my|your|his|our|their|the|a|an|this|that|these|those|off|up)\b")


def clinical_word_after(after: str) -> bool:
    """The text after a word names what the word is: an eponym's disease, sign or test ("Addison's disease"), a
    product's form ("Cetaphil cleansing lotion", "metro cream"), an origin ("of Ashkenazi Jewish descent"); not a
    head word said as a verb (:data:`_HEAD_AS_VERB`, issue 50, twenty-first session)."""
    return bool(_EPONYM_AFTER.match(after) and not _HEAD_AS_VERB.match(after) or _ORIGIN_AFTER.match(after))


@lru_cache(maxsize=8192)  # asked by several rules about the same word (issue 50, ninth session)
def no_person_at(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is no person here (:func:`clinical_word_after`, :func:`not_a_person`: "Cheyenne, Wyoming")."""
    rest, word = after(text, end), text[start:end]
    return written_acronym(word) or clinical_word_after(rest) or facility_after(rest) or not_a_person(text, _Tok(start, end, word, fold(word).lower()))
