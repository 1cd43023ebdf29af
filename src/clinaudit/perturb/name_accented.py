"""A name written with an accent English never writes on that word, whose letters without it spell a word (issue 50,
fourteenth session): Irish "síle", "bríd", "bláth", the accents kept.

The detector reads a word by its key, its diacritics folded ("síle" -> "sile"), so a name whose folded letters are a
word of the lists (an archaic headword, a whitelist word: "sile", "brid", "blath") was read as that word and left
in most places, cased ("Síle came with me today") and lower case alike; :func:`.name_cased.non_english_letter` does
not take it, since "í" and "á" are accents English loanwords keep ("café", "naïve"). The word as written decides:
:func:`accented_unknown` is true of a word of three letters or more written with an accent whose written form English
text never uses (wordfreq Zipf 0: "síle", "bríd"; not "café" 3.75, "résumé" 2.83, "naïve" 3.07) while its folded
form is a common word, no relative's, spoken, clinical, function, demographic word or eponym: such a word is read as
a word in no list (:mod:`.name_detect`'s detector, where a word with a letter English lacks is read), so a person's
place, or a place no rule says holds no person, takes it. The same letters without the accent ("sile", "brid") are
judged as before."""

from __future__ import annotations

from functools import lru_cache

from .name_cased import non_english_letter
from .name_tokens import fold
from .name_word import word_facts
from .vocab import RELATIVES, SPOKEN_WORDS, english_zipf

__all__ = ["accented_unknown", "foreign_spelling"]


@lru_cache(maxsize=20_000)
def accented_unknown(word: str) -> bool:
    """``word`` (as written) has an accent English never writes on it, its folded form a common word (the module's
    docstring): "síle", "Bríd"; not "café", "sile"."""
    if word.isascii() or len(word) < 3 or not word.isalpha():
        return False
    lower = word.lower()
    key = fold(lower).lower()
    if key == lower or key in RELATIVES or key in SPOKEN_WORDS or english_zipf(lower) > 0:
        return False
    w = word_facts(key)
    return w.common and not (w.gazetteer or w.clinical is not None or w.function or w.demographic or w.eponym)


def foreign_spelling(word: str) -> bool:
    """``word`` is written as no English word is: a letter English lacks (:func:`.name_cased.non_english_letter`:
    "Åsa") or an accent English never writes on it (:func:`accented_unknown`: "Síle")."""
    return non_english_letter(word) or accented_unknown(word)
