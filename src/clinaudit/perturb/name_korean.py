"""A Korean surname beside a Korean given name found, in lower case; a name in McCune-Reischauer's apostrophe (issue
50, tenth session).

Korean surnames are one syllable, and in lower case many of them are English words or letters the word lists know
("gu", "han", "ko", "hong", "jo", "goh", "lim", "nah", "pang"): beside a name found, the detector reads such a word
only when it is name-like (a rare gazetteer name), so "ji-ho gu" and "gu minseo" lost their surname in every
development set (dev6, dev8, dev11, dev14). A word right beside a given name found is its surname when:

* the name found is written as a Korean given name: two or three syllables of the Korean inventory
  (:data:`.name_letters.SYLLABLE`), hyphenated or run together, with a sound English writes seldom (a vowel "eo",
  "eu", "ae", "oe", a "j", a glide after a consonant "hy", "gy", "ky", "my", "by", "py", "hw", "gw", "kw", a syllable
  "yu", "yo", "ye", "ya", "yeo", a coda "ng" before another syllable): "ji-ho", "minseo", "dohyun", "seo-yeon";
  not "linda", "santo", "mango";
* the word is one syllable as Korean surnames are written (:data:`_ONE`), of two to four letters that English
  text writes less than :data:`SURNAME_ZIPF` ("gu" 3.4, "han" 3.9, "hong" 3.5; not "go", "can", "ran", "him", "song",
  "moon"), and not before "up", "out", "off", "back", "down", "over", "along" (a verb's particle: "ji-ho hung up");

:func:`.name_capital_neighbours.capital_neighbours` keeps its own guards: no function, demographic, drug, spoken or
clinical word ("chin", "son", "um"), nor a word in no list at a sentence's start.

A word with McCune-Reischauer's apostrophe after an aspirated consonant ("ch'olsu", "ch'oe": :func:`aspirated_romanisation`)
is a word in no list, a name wherever it stands (:func:`.name_detect.unknown_word`): the lists split it at the
apostrophe and read neither part.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .name_letters import SYLLABLE
from .vocab import FUNCTION_WORDS, clinical_category, english_zipf, is_common

__all__ = ["SURNAME_ZIPF", "VERB_PARTICLES", "aspirated_romanisation", "korean_given_shape", "korean_surname_beside",
           "korean_surname_shape", "particle_after"]

#: how common in English text a one-syllable word beside a Korean given name may be to be its surname
SURNAME_ZIPF = 4.0
#: one syllable as Korean surnames are written in English: the inventory, also with "w", "l", "wh" before the vowel
#: and an "h" after it, as Korean Americans write ("woo", "lim", "goh", "ahn", "uhm", "kahng")
_ONE = re.compile(r"(?:kk|tt|pp|ss|jj|ch|wh|[gkndrlmbsjhtpcyw])?[wy]?(?:ae|eo|eu|oe|ui|ee|oo|a|e|i|o|u)h?(?:ng|n|k|l|m|p)?")
_GIVEN = re.compile(rf"{SYLLABLE}-?{SYLLABLE}(?:-?{SYLLABLE})?")
#: what English writes seldom and romanised Korean often (module docstring)
_KOREAN_SOUND = re.compile(r"eo|eu|ae|oe|j|[hgkmbp]y|[hgk]w|(?:^|[^aeiou])y[aeiou]|ng[^aeiouy]")
#: a verb's particle after a word: "hung up", "ran out" (the word is a verb, not a surname); also read by
#: :mod:`.name_syllables_apart`
VERB_PARTICLES = ("up", "out", "off", "back", "down", "over", "away", "along", "around")


def particle_after(*extra: str) -> re.Pattern[str]:
    """A verb's particle of :data:`VERB_PARTICLES` (and ``extra``) right after a word, a word boundary after it."""
    return re.compile(r"[ \t]+(?:" + "|".join((*VERB_PARTICLES, *extra)) + r")\b")


#: beside a Korean given name found (:func:`korean_surname_beside`), also "in" and "on" ("hung in", "got on"): the
#: list measured with that rule (tenth session); :mod:`.name_syllables_apart` reads the particles without them
_PARTICLE_AFTER = particle_after("in", "on")


@lru_cache(maxsize=20_000)
def korean_given_shape(key: str) -> bool:
    """``key`` (lower case, folded) is written as a Korean given name (module docstring): "ji-ho", "minseo"."""
    return key.isascii() and _GIVEN.fullmatch(key) is not None and _KOREAN_SOUND.search(key) is not None


def korean_surname_beside(key: str, name_key: str, text: str, end: int) -> bool:
    """``key`` (a lower-case word right beside the name ``name_key`` found, ending at ``end`` of ``text``) is its
    Korean surname (module docstring): "gu" beside "ji-ho", "han" beside "minseo"."""
    return 2 <= len(key) <= 4 and korean_given_shape(name_key) and _surname_shape(key) \
        and not _PARTICLE_AFTER.match(text, end)


@lru_cache(maxsize=20_000)
def _surname_shape(key: str) -> bool:
    return _ONE.fullmatch(key) is not None and english_zipf(key) < SURNAME_ZIPF


def korean_surname_shape(key: str) -> bool:
    """``key`` is one syllable as Korean surnames are written, rarer in English than :data:`SURNAME_ZIPF` ("gu",
    "han", "oak"; :mod:`.name_syllables_apart` reads it beside a given name written apart)."""
    return _surname_shape(key)


#: McCune-Reischauer's aspirated consonant, an apostrophe after "ch", "k", "t" or "p" before a vowel ("ch'olsu",
#: "ch'oe", "p'yong"); English writes it only in "t'other" and Wade-Giles' "t'ai"
_ASPIRATED = re.compile(r"(?:ch|[ktp])'[aeiouwy][a-z]*(?:-[a-z]+)?")


def aspirated_romanisation(key: str) -> bool:
    """``key`` (lower case, folded; a word the detector's lists cannot read, for its apostrophe) is a Korean name
    written in McCune-Reischauer (:data:`_ASPIRATED`), five letters or more, whose letters without the apostrophe are
    no common, clinical or function word: "ch'olsu", "ch'oe"; not "t'ai", "t'other"."""
    if len(key) < 5 or _ASPIRATED.fullmatch(key) is None or key == "t'other":
        return False
    bare = key.replace("'", "")
    return not (is_common(bare) or clinical_category(bare) is not None or bare in FUNCTION_WORDS)
