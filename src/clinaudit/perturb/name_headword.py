"""A given name that the word lists call a word only because a dictionary holds a headword of its spelling (issue
50, twelfth session): "eric" (GCIDE: a fine paid for a murder), "terry" (a cloth), "timothy" (a grass), "raj" (rule),
"florence", "lionel", "laura". English text writes such a name often because it is a name (wordfreq Zipf 3.5-4.5:
"eric" 4.49, "terry" 4.24), so :func:`.vocab.rare_as_a_word` (below 3.5) leaves it a common word, and in lower case
only the context rules take it. What the word is tells it apart from a word English uses (:func:`headword_only_name`):

* a given name of the gazetteer that Webster's Second International also lists capitalised (its vocabulary of given
  names: "Eric", "Terry"), of three letters or more, no whitelist, spoken, function, demographic, relative's or
  clinical word nor an eponym, rarer in English text than :data:`.vocab.WORD_NAME_ZIPF` ("mark", "rose" stay words);
* never inflected: its own regular inflections (:func:`own_inflections_zipf`) more than :data:`HEADWORD_GAP` rarer
  than itself, about three hundredfold ("eric" 4.49 / "erics" 1.39, "florence" 3.96 / none; "basil" 3.65 / "basils"
  1.19 is a word English uses, and so, by this measure, are "ted" 4.26 / "teds" 1.99 and "perry");
* no plural or inflection of a common word ("mats"), no noun derived from a word ("trinity"), no "-y" adjective of
  one, no adjective whose "-ly" adverb English text writes ("genuinely"), no strong verb's past ("sung", "sang",
  "hung", "lent": "singing", "lending").

Written in capitals such a word is read as a word (an acronym: "the TROY trial"), but in a naming context
(:func:`.name_detect.find_names`).
"""

from __future__ import annotations

from functools import lru_cache

from .name_frequency import webster_capitalised
from .vocab import (DEMOGRAPHIC_WORDS, EPONYMS, FUNCTION_WORDS, RARE_ZIPF, RELATIVES, SPOKEN_WORDS, WORD_NAME_ZIPF,
                    clinical_category, common_words, english_zipf, first_names, inflected_everyday, plural_of_common,
                    whitelist_words, y_adjective)

__all__ = ["headword_only_name", "own_inflections_zipf", "HEADWORD_GAP"]

#: how much rarer in English text (Zipf, log10) a name's own inflections are than itself: more than this, about
#: three hundredfold (1.75, 2.0, 2.25, 2.5 and more than 2.5 measured: docs/deidentification.md)
HEADWORD_GAP = 2.5
#: an adverb in "-ly" of a word, this common in English text, makes the word an adjective ("genuinely" 3.9)
_ADVERB_ZIPF = 2.0
#: a strong verb's "-ing" form this common makes a word one vowel from it its past ("singing" -> "sung", "sang")
_STRONG_ING_ZIPF = 3.5
#: the endings of a noun English derives from another word: "trinity", "kindness", "heroism", "kingdom"
_ABSTRACT = ("ity", "ness", "ment", "ism", "ship", "hood", "dom")
_STRONG_VOWELS = (("u", "i"), ("a", "i"), ("u", "a"), ("o", "i"), ("o", "ea"))


def own_inflections_zipf(key: str) -> float:
    """The Zipf frequency of ``key``'s most common inflection as its own: plural "-s" ("-es" only after s, x, z, ch,
    sh or o: "lines" is no plural of "lin"), "-ed", "-ing" (not where ``key`` + "e" is a word: "destined" is
    "destine"'s), a doubled final consonant, "-ies"/"-ied" of "-y", "-ves" of "-f" ("wolves")."""
    forms = [key + "s", key + key[-1] + "ed", key + key[-1] + "ing"]
    if key + "e" not in common_words():
        forms += [key + "ed", key + "ing"]
    if key.endswith(("s", "x", "z", "ch", "sh", "o")):
        forms.append(key + "es")
    if key.endswith("e"):
        forms += [key + "d", key[:-1] + "ing"]
    if key.endswith("y"):
        forms += [key[:-1] + "ies", key[:-1] + "ied"]
    if key.endswith("f"):
        forms.append(key[:-1] + "ves")
    return max(map(english_zipf, forms))


def _plural_of_used(key: str) -> bool:
    """``key`` is the plural of a word English text uses (Zipf 3 or more), however short: "mats", "hans" ("han")."""
    return any(key.endswith(end) and key[:-len(end)] in common_words() and english_zipf(key[:-len(end)]) >= 3.0
               for end in ("s", "es"))


def _adverb(key: str) -> bool:
    """English text writes an adverb in "-ly" of ``key``: an adjective ("genuinely", "merrily", "simply")."""
    forms = [key + "ly"] + ([key[:-1] + "ily"] if key.endswith("y") else []) + (
        [key[:-1] + "y"] if key.endswith("le") else []) + ([key + "ally"] if key.endswith("ic") else [])
    return max(map(english_zipf, forms)) >= _ADVERB_ZIPF


def _strong_past(key: str) -> bool:
    """``key`` is a strong verb's past, one vowel from the verb ("sung", "sang" of "sing"; "hung" of "hang"; "tore"
    of "tear") or its "-t" for "-d" ("lent" of "lend"), a verb whose "-ing" form English text writes often."""
    words = common_words()
    verbs = [key[:i] + b + key[i + 1:] for i, c in enumerate(key) for a, b in _STRONG_VOWELS if c == a]
    if key.endswith("t"):
        verbs.append(key[:-1] + "d")
    return any(v in words and max(english_zipf(v + "ing"), english_zipf(v[:-1] + "ing") if v.endswith("e") else 0.0)
               >= _STRONG_ING_ZIPF for v in verbs)


@lru_cache(maxsize=50_000)
def headword_only_name(key: str) -> bool:
    """A given name (lower case) that only a dictionary's headword calls a word, a name in lower case wherever it
    stands (``Word.rare``; the module's docstring says when)."""
    if len(key) < 3 or not key.isalpha() or key not in first_names() or key in whitelist_words() \
            or key in SPOKEN_WORDS or key in FUNCTION_WORDS or key in DEMOGRAPHIC_WORDS or key in RELATIVES \
            or key in EPONYMS or clinical_category(key) is not None:
        return False
    zipf = english_zipf(key)
    if not RARE_ZIPF <= zipf < WORD_NAME_ZIPF or not webster_capitalised(key):
        return False
    if plural_of_common(key) or inflected_everyday(key) or y_adjective(key) or _plural_of_used(key) \
            or key.endswith(_ABSTRACT):
        return False
    return round(zipf - own_inflections_zipf(key), 2) > HEADWORD_GAP and not _adverb(key) and not _strong_past(key)
