"""A name in square brackets (issue 50, ninth session): "[maria] hi, i'm calling for my mother", "your contact is
listed as [Jyrki] on this sheet", "[Maria Lopez]".

The detector's words (:data:`.name_tokens.WORD` and the other token patterns) never start right after "[" nor end
right before "]", so that a placeholder ("[NAME]") is not read again; a name written in brackets, as a transcript
writes a speaker's name for a label or a note writes a contact, was never read at all, whatever the name
(``benchmarks/deid_dev10.py``: every origin lost it). Here each "[" is looked at (one scan whose pattern begins with
the literal "[", each distinct bracket's words judged once): one to three words and "]", each no placeholder in capitals, no word a transcript puts in
brackets (:data:`ANNOTATIONS`: "[inaudible]", "[laughter]", "[pause]"), no clinical, function or demographic word nor
an eponym, and each a name by what it is: a gazetteer given name that is no common word or is rarer in English text
than :data:`.vocab.WORD_NAME_ZIPF`, a gazetteer name :func:`.name_word.word_name` takes, or letters in no list and
rare (:func:`.name_word.unlisted_word`: "[jyrki]"); the brackets are replaced with the name. A speaker's role ("[doctor]", "[patient_guest]") is no name
and the labels are never changed anyway (:func:`.deid._label_spans`). Used by :func:`.deid.deidentify_text`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .name_tokens import WORD, fold
from .name_word import unlisted_word, word_facts, word_name
from .vocab import WORD_NAME_ZIPF, english_zipf

__all__ = ["ANNOTATIONS", "bracket_name_spans"]

_BRACKETED = re.compile(rf"\[[ \t]*({WORD}(?:[ \t]+{WORD}){{0,2}})[ \t]*\]")
_WORD = re.compile(WORD)
#: What transcripts and exports put in square brackets that is no person: sounds, gaps, redactions, model tokens
ANNOTATIONS = frozenset("""inaudible unintelligible indiscernible incomprehensible unclear crosstalk cross talk
    laughter laughs laughing laugh chuckles chuckling sighs sigh coughs coughing cough sneezes pause pauses paused
    silence music noise background overlapping overlap applause crying cries static beep beeping ringing phone
    redacted removed deleted sic unk name names pad sep mask cls blank phonetic sp ph spelling spelled interruption
    interrupts interrupted foreign language unknown speaker speakers break end start begin off on""".split())


def _bracket_name(word: str) -> bool:
    """One word in brackets is a name by what it is (the module's docstring)."""
    if word.isupper() or not word.replace("-", "").replace("'", "").isalpha():
        return False  # "[NAME]", "[UNK]": a placeholder
    key = fold(word).lower()
    if key in ANNOTATIONS:
        return False
    w = word_facts(key)
    if w.clinical is not None or w.function or w.demographic or w.eponym:
        return False
    return (w.first and (not w.common or english_zipf(key) < WORD_NAME_ZIPF)) or word_name(key) \
        or unlisted_word(key, rare=True)


def bracket_name_spans(text: str) -> list[tuple[int, int]]:
    """Each name in square brackets in ``text``, the brackets with it ("[maria]" becomes "[NAME]", not "[[NAME]]")."""
    return [m.span() for m in _BRACKETED.finditer(text) if _bracketed_name(m.group(1))]


@lru_cache(maxsize=4096)  # what a dialog puts in brackets: a few labels ("doctor", "patient") again and again
def _bracketed_name(inside: str) -> bool:
    return all(_bracket_name(x) for x in _WORD.findall(inside))
