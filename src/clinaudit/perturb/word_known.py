"""Is a word that no list holds still a word? (de-identification's name detector, :mod:`.name_detect`, issue 50)

A word in no list (common, clinical, gazetteer) is taken for a name unless it looks like a word of the lists: a
misspelling of one, a word cut short, two known words run together, a contraction or a spoken form.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from .word_parts import longest, two_words

__all__ = ["looks_like_a_word", "is_prefix_of_known", "known", "known_sorted", "known_exact"]


#: Word-forming prefixes: "exhusband", "nongender", "prepackage" are words, not names.
_PREFIXES = ("non", "pre", "ex", "step", "re", "un", "over", "under", "sub", "post", "multi", "anti", "hyper",
             "hypo", "self", "semi", "mini", "super")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Spoken forms and everyday short words the dictionaries lack (never names).
_SPOKEN = frozenset("""covid righty mkay yessir oof hafta feelin nothin somethin gotcha ahh ahhh ahhhh hmmm mmm mmhmm
    uhh umm okie yay whoa yikes ouch hon""".split())


@lru_cache(maxsize=1)
def known_sorted() -> tuple[str, ...]:
    from .vocab import clinical_terms, common_words

    return tuple(sorted(common_words() | set(clinical_terms())))


def known(word: str) -> bool:
    """``word`` is a common word (inflections, British spellings) or in the clinical vocabulary."""
    from .vocab import clinical_category, is_common

    return is_common(word) or clinical_category(word) is not None


def is_prefix_of_known(word: str, cut: bool = False) -> bool:
    """A word cut short ("hepatospleno", "radicul", "exhal"): the start of a longer known word; with ``cut``, of any
    longer word (a word cut off in speech: "quali- qualify", "noth- nothing")."""
    import bisect

    words = known_sorted()
    i = bisect.bisect_left(words, word)
    if cut and i < len(words) and words[i] == word:
        i += 1
    return i < len(words) and words[i].startswith(word) and len(words[i]) >= len(word) + (1 if cut else 2)


def _cut_of_a_written_word(word: str) -> bool:
    """A word English text writes (Zipf above 0) is cut short only from a longer known word English writes about as
    often or more (:data:`MISSPELT_MARGIN`): "leeuwen" (2.01) is no start of "leeuwenhoek" said short (twenty-second
    session); "daguerre" (1.79) beside "daguerreotype" and every word web text never writes ("hepatospleno") are."""
    from .vocab import english_zipf

    seen = english_zipf(word)
    if not seen:
        return True
    words = known_sorted()
    i = bisect_left(words, word)
    while i < len(words) and words[i].startswith(word):  # the longer known words it begins
        if len(words[i]) >= len(word) + 2 and _written_as_often(words[i], seen):
            return True
        i += 1
    return False


def _written_as_often(w: str, seen: float) -> bool:
    """``w`` is written about as often as a word of Zipf ``seen`` or more (:data:`MISSPELT_MARGIN`), or ``seen`` is 0
    (English text never writes that word): what a misspelt or cut word's source must be (:func:`_one_edit`,
    :func:`_cut_of_a_written_word`)."""
    from .vocab import english_zipf

    return not seen or english_zipf(w) > seen - MISSPELT_MARGIN


@lru_cache(maxsize=1)
def known_exact() -> frozenset[str]:
    from .vocab import SPOKEN_WORDS, clinical_terms, whitelist_words

    return whitelist_words() | SPOKEN_WORDS | frozenset(clinical_terms())


#: A word ending in "a", "i", "o" or "u" is a misspelling only of a word people write: a whitelist word rarer in
#: English text than this (wordfreq's Zipf) is no word a speaker misspells, so such a word one letter from it is a
#: name ("asanda": "asanoa" 0, "vendula": "venula" 0 and "pendula" 1.65, "jesula": "esula" 0; still words:
#: "sideline" 3.32, "folate" a clinical term). Names end so in many languages (Nguni, Bantu, Polynesian, Slavic
#: feminine forms); the real dialogs' misspellings of the whitelist's rare clinical words and abbreviations end in a
#: consonant ("comodonal", "abdomal", "ostiomeatal": a first version without the ending took them; issue 50,
#: eighth session)
MISSPELT_ZIPF = 2.0
#: A word of eight letters or fewer that English text never writes (wordfreq has no Zipf for it: the misspellings
#: people make often, "definately", "perscription", are in it) is a misspelling only of a word people write: a
#: clinical term, a spoken form or a whitelist word at least this common (wordfreq Zipf), unless its first five
#: letters begin a clinical term ("abdomal": "abdominal"). Made-up and rare given names in lower case were read as
#: misspellings of rare whitelist words: "nerline" ("nervine" 1.19), "haebin" ("haemin" 0), "medjine" ("medline"
#: 2.31), "islene" ("silene" 1.81) (issue 50, ninth session: Haitian, Korean names)
SHORT_MISSPELT, SHORT_MISSPELT_ZIPF = 8, 2.5
#: A word English text writes (a wordfreq Zipf above 0) is a misspelling only of a word English writes about as often
#: or more: at most this much rarer (Zipf; a factor of about 3). People misspell words they write often, and web text
#: writes a given name more than a dictionary word nobody uses: "razvan" (1.44) is no misspelling of "rahvan" (0),
#: "oystein" (1.05) none of "cystein" (0); "smoothie" (3.25) is still a word beside "smoothies" (3.05), "offload"
#: (2.76) beside "offroad" (2.5) (issue 50, twenty-second session: Romanian and Norwegian given names in lower case)
MISSPELT_MARGIN = 0.5


@lru_cache(maxsize=1)
def _clinical_sorted() -> tuple[str, ...]:
    from .vocab import clinical_terms

    return tuple(sorted(set(clinical_terms())))


def _unseen_short(word: str) -> bool:
    """A word of :data:`SHORT_MISSPELT` letters or fewer that English text never writes, whose first five letters
    begin no clinical term: its misspelt word must be one people write (:data:`SHORT_MISSPELT_ZIPF`)."""
    from .vocab import english_zipf

    if len(word) > SHORT_MISSPELT or english_zipf(word) > 0:
        return False
    terms, stem = _clinical_sorted(), word[:5]
    i = bisect_left(terms, stem)
    return not (i < len(terms) and terms[i].startswith(stem))


@lru_cache(maxsize=1)
def _clinical_or_spoken() -> frozenset[str]:
    from .vocab import SPOKEN_WORDS, clinical_terms

    return SPOKEN_WORDS | frozenset(clinical_terms())


def _written(w: str, zipf: float = MISSPELT_ZIPF) -> bool:
    """A word of :func:`known_exact` a speaker may misspell: a clinical term, a spoken form, or a whitelist word
    English text uses (:data:`MISSPELT_ZIPF`)."""
    from .vocab import english_zipf

    return w in _clinical_or_spoken() or english_zipf(w) >= zipf


def _one_edit(word: str) -> bool:
    """A misspelling: one letter deleted, added, changed or two swapped from a word of the lists as they are
    written, no inflection ("asprin", "resulxts"); for a word ending in a vowel, of a word people write
    (:data:`MISSPELT_ZIPF`)."""
    known = known_exact()
    if len(word) > longest(known) + 1:  # no word of the list is one edit away (issue 50: a line without spaces)
        return False

    from .vocab import english_zipf

    vowel_end = word[-1:] in ("a", "i", "o", "u")
    short = _unseen_short(word)
    seen = english_zipf(word)

    def _known(w: str) -> bool:
        return w in known and (_written(w) if vowel_end else not short or _written(w, SHORT_MISSPELT_ZIPF)) \
            and _written_as_often(w, seen)

    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    for a, b in splits:
        if b and _known(a + b[1:]):
            return True
        if len(b) > 1 and _known(a + b[1] + b[0] + b[2:]):
            return True
        for c in _LETTERS:
            if (b and c != b[0] and _known(a + c + b[1:])) or _known(a + c + b):
                return True
    return False


@lru_cache(maxsize=50_000)
def looks_like_a_word(key: str) -> bool:
    """A word no list holds that is still an English or clinical word: a misspelling of one (one edit, words of
    seven letters or more), one cut short (five letters or more), two known words run together ("skatepark",
    "exhusband"), a contraction or a spoken form ("shouldn't", "alrighty")."""
    parts = [p for p in re.split(r"[-']", key) if p]
    if len(parts) > 1:
        return all(known(p) or len(p) < 3 for p in parts) or "'" in key
    if key.endswith("y") and known(key[:-1].rstrip("t")) or key.endswith("ty") and known(key[:-2]):
        return True  # "alrighty", "bruisy"
    if key in _SPOKEN or key.endswith("ly") and known(key[:-2]):
        return True
    if len(key) >= 6 and _one_edit(key):
        return True
    if len(key) >= 5 and is_prefix_of_known(key) and _cut_of_a_written_word(key):
        return True
    return two_words(key, known, _PREFIXES)  # "skatepark", "exhusband"
