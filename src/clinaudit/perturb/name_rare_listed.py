"""A word the lists hold that English text hardly writes, judged like a word in no list where a person stands (issue
50, fourteenth session).

philter-ucsf's whitelist of "English and medical words" holds thousands of words English text does not write: foreign
words, species' and places' names, abbreviations ("eti", "fetu", "kowa", "limi", "apoi"); GCIDE's headwords hold
archaic spellings ("wisly", "sile", "brid"). Given names of many origins are spelled so: Samoan "eti", "fetu", a
Haitian "wisly", Irish "síle" and "bríd" folded. The detector's lower-case person places (:mod:`.name_slots`,
:mod:`.name_bare_person`, :mod:`.name_prep`, :mod:`.name_object`, :mod:`.name_rare_slots`) took a word in no list
there but not such a word, and :mod:`.name_neighbour_words` took it only right beside a name found; so in lower case
"ask eti about it", "i talked to fetu yesterday", "wisly came with me today" kept the name.

:func:`rare_listed`: such a word counts as a word in no list in those places: letters only, three to five, a vowel
among them (not an abbreviation: "hrt", "cdt"), a common
word (whitelist or headword) that is in no gazetteer (a gazetteer name has its own rules), rarer in English text than
:data:`RARE_LISTED_ZIPF`, no clinical acronym ("osa"), clinical, function, demographic, relative's or spoken word, eponym, month or day, no
plural or inflection of a common word. It is never a name anywhere else (a word in no list is taken wherever it
stands; this one only where a person stands).
"""

from __future__ import annotations

from functools import lru_cache

from .name_word import word_facts
from .vocab import (DAY_NAMES, MONTH_NAMES, RELATIVES, SPOKEN_WORDS, clinical_acronym, english_zipf, inflected_everyday,
                    plural_of_common)

__all__ = ["RARE_LISTED_LETTERS", "RARE_LISTED_ZIPF", "rare_listed"]

#: rarer in English text than this (wordfreq Zipf): "eti" 2.21, "fetu" 0, "wisly" 0, "sile" 1.91; not "jot" 2.86,
#: "nav" 3.26, "har" 3.2 (words people write) -- the rare-slot rules' :data:`.name_rare_slots.HEADWORD_ZIPF`
RARE_LISTED_ZIPF = 2.5
#: five letters at most: the whitelist's rare words of more letters are its medical vocabulary, which the clinical
#: lists lack ("palpation", "auscultation", "augmentin", "percocet", "intubate": a first version without the limit
#: took 19 such words in the real dialogs after "on" and "with")
RARE_LISTED_LETTERS = 5


@lru_cache(maxsize=100_000)
def rare_listed(key: str) -> bool:
    """``key`` (lower case, folded) is a common word English text hardly writes, in no gazetteer (the module's
    docstring)."""
    if not 3 <= len(key) <= RARE_LISTED_LETTERS or not key.isalpha() or not any(v in key for v in "aeiouy") or key in RELATIVES or key in SPOKEN_WORDS or key in DAY_NAMES \
            or key in MONTH_NAMES or clinical_acronym(key):  # "with osa" (obstructive sleep apnoea)
        return False
    w = word_facts(key)
    if not w.common or w.gazetteer or w.clinical is not None or w.function or w.demographic or w.eponym:
        return False
    return english_zipf(key) < RARE_LISTED_ZIPF and not plural_of_common(key) and not inflected_everyday(key)
