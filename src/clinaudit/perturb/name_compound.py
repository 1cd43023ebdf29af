"""A hyphenated given name whose parts are words (issue 50, fourteenth session): "marie-claire", "rose-marie",
"jean-marc", "daisy-may", "mi-young".

:func:`.name_word.word_facts` reads a hyphenated word by its parts: a gazetteer name when every part is a name, a
common word when every part is a common word (``is_common``: the whitelist or GCIDE holds it), a function word when a
part is one. So "jean-claude" and "seo-yeon" (a part no dictionary holds) were names wherever they stood, while
"marie-claire" ("marie" and "claire" are GCIDE headwords), "rose-marie", "jean-marc", "lily-rose" were common words,
taken only in a naming frame ("my name is ..."), and "daisy-may", "tia-june", "mi-young" (a month, a modal, "young")
were function words, never names: lost in most lower-case places (development set dev25: lower case 78.4 %).

A hyphenated word of two or three parts is a given name (:func:`compound_given_name`) when:

* every part is a given name of the first-name list, or a word that forms given names after one ("may": "daisy-may",
  "lily-may"; the first-name list leaves it out as a month and a modal), two letters or more, no two parts the same
  ("yo-yo", "tom-tom"); or it is written as a Korean given name with "young" (영): "mi-young", "so-young", "young-ho"
  (the other part a first name or a syllable of three letters or fewer);
* English writes no such word: the whole compound, written with the hyphen, run together or apart, is no common word
  ("ping-pong", "jack-knife", "x-ray", "so-so");
* no part is an eponym, a clinical, spoken, relative's or demographic word, nor a grammar word of
  :data:`.name_word.GRAMMAR_NAMES` ("jerry-can", "know-it-all", "bobby-pin": "can", "it", "pin" are no first names),
  and one part at most is a function word ("may", "june", "young").

An eponym compound before "disease", "syndrome", "sign", ... stays a condition (:mod:`.name_detect`'s own guard).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .vocab import (DEMOGRAPHIC_WORDS, EPONYMS, FUNCTION_WORDS, RELATIVES, SPOKEN_WORDS, clinical_category,
                    common_words, first_names, is_common)

__all__ = ["NAME_FORMING", "compound_given_name"]

#: words that form given names after a given name, that the first-name list leaves out ("daisy-may", "lily-may")
NAME_FORMING = frozenset({"may"})
#: "young" (영) as Korean given names write it, with a consonant before it: "mi-young", "myoung-hee", "young-ho"
_KOREAN_YOUNG = re.compile(r"(?:[bhkmj]y?)?oung|young|yeong")
#: grammar words that are first names in the list but never a part of a compound given name
_NEVER_PART = frozenset("can it all in the of to on up out off and or for by at no go un".split())


@lru_cache(maxsize=20_000)
def compound_given_name(key: str) -> bool:
    """``key`` (lower case, folded, one word) is a given name of two or three hyphenated parts that are words
    (module docstring)."""
    parts = key.split("-")
    if not 2 <= len(parts) <= 3 or len(set(parts)) < len(parts) or not all(p.isalpha() and len(p) >= 2 for p in parts):
        return False
    if is_common(key) or key.replace("-", "") in common_words() or key.replace("-", " ") in common_words():
        return False
    if any(p in EPONYMS or p in SPOKEN_WORDS or p in RELATIVES or p in DEMOGRAPHIC_WORDS or p in _NEVER_PART
           or not (p in NAME_FORMING or _KOREAN_YOUNG.fullmatch(p)) and clinical_category(p) is not None for p in parts):
        return False
    names = first_names()
    if len(parts) == 2 and any(_KOREAN_YOUNG.fullmatch(p) for p in parts):  # "mi-young", "so-young", "young-ho"
        return all(_KOREAN_YOUNG.fullmatch(p) or p in names or len(p) <= 3 for p in parts)
    return sum(p in FUNCTION_WORDS for p in parts) <= 1 \
        and all(p in names or p in NAME_FORMING and i > 0 for i, p in enumerate(parts))
