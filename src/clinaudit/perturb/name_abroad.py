"""A name English text writes often because it is a name (issue 50, thirteenth session): "smith" (Zipf 4.89),
"martin", "lee", "tim", "joe", "mike". Such a word is a gazetteer name and a headword of the dictionaries ("a smith",
"a martin", "the lee side"), so the lists call it a word; English text writes it at Zipf 4.5 or more, so
:mod:`.name_bare_places` does not read it (a word that common is more often a word: "hope", "grace", "miles"), and in
lower case it was lost wherever only the place says "person" ("i came in with martin .", "who brought you ? lee .").

What tells the two apart is how often the languages where the word is no word write it: a person's name travels
(news, sport, books write "Smith", "Martin", "Lee" in German, French or Polish text about as often as English text
does), an English word does not ("hope", "miles", "story", "success" are written abroad only as loans and titles).
So a gazetteer name English text writes at :data:`.vocab.WORD_NAME_ZIPF` or more is a name by frequency when all but
one of eight other languages' text (wordfreq's German, French, Spanish, Italian, Dutch, Portuguese, Swedish and
Polish lists) write it less than :data:`ABROAD_GAP` less often than English text: its second-lowest Zipf frequency
there ("smith" 4.89 / 4.18, "martin" 4.74 / 4.39, "tim" 4.51 / 3.97; not "hope" 5.44 / 3.65, "story" 5.45 / 4.06,
"grace" 4.56 / 3.71, "orange" 4.62 / 3.63, "tour" 4.99 / 4.23). The second-lowest, not the median: a word that is
a word of some of those languages too ("era", "moment", "talent", "tour", "vice") is rare in the others, a name is
not rare in any. Never the plural of a common word ("windows", "wars": a plural travels as a title). A few words
every language writes pass as well ("radio", "bar", "pro", "solo", "pop", a city's name): the places' own guards (a
noun after the word, the clause's end, a person's place) keep them words.

The lists are read once, with the detector's other lists (:func:`.name_detect.load_word_lists`: about 0.1 s of CPU),
only down to Zipf 3 and only the gazetteer's words of Zipf 4.5 or more kept (799, 91 of them names by frequency); a
look-up is a set's. Used by :mod:`.name_bare_places`.
"""

from __future__ import annotations

from functools import cache

from .vocab import (WORD_NAME_ZIPF, english_frequencies, english_zipf, first_names, plural_of_common, surnames,
                    wordfreq_zipfs)

__all__ = ["named_by_frequency", "names_by_frequency", "abroad_zipf", "ABROAD_GAP"]

#: how much more often (Zipf, log10) English text may write the word than the other languages' second-lowest: less
#: than this, its frequency is a name's (0.5 to 1.0 measured: docs/deidentification.md)
ABROAD_GAP = 0.75
#: the rarest words read in the other languages' lists: a word of Zipf 4.5 or more is a name only where they write it
#: at 3.75 or more, so a rarer one reads as absent (0) and the decision is the same
_FLOOR = 3.0
#: the languages whose text is read (wordfreq's "small" lists: the words down to Zipf about 3)
_LANGS = ("de", "fr", "es", "it", "nl", "pt", "sv", "pl")


@cache
def _abroad() -> dict[str, float]:
    """The gazetteer's words of Zipf :data:`.vocab.WORD_NAME_ZIPF` or more -> the second-lowest of their Zipf
    frequencies in :data:`_LANGS` (0 where a list lacks the word or writes it less than :data:`_FLOOR`)."""
    firsts, lasts = first_names(), surnames()
    wanted = frozenset(w for w, z in english_frequencies().items()
                       if z >= WORD_NAME_ZIPF and w.isalpha() and (w in firsts or w in lasts))
    tables = [wordfreq_zipfs(f"small_{lang}", wanted, _FLOOR) for lang in _LANGS]
    out = {}
    for w in wanted:
        out[w] = sorted(t.get(w, 0.0) for t in tables)[1]
    return out


def abroad_zipf(word: str) -> float:
    """The second-lowest Zipf frequency of ``word`` in the other languages' text (a gazetteer word of Zipf 4.5 or
    more; 0 for any other word)."""
    return _abroad().get(word, 0.0)


@cache
def _named() -> frozenset[str]:
    return frozenset(w for w, z in _abroad().items() if round(english_zipf(w) - z, 2) < ABROAD_GAP
                     and not plural_of_common(w))


def named_by_frequency(word: str) -> bool:
    """``word`` (lower case) is a gazetteer name of Zipf 4.5 or more that English text writes mostly as a name (the
    module's docstring)."""
    return word in _named()


def names_by_frequency() -> frozenset[str]:
    """Every word :func:`named_by_frequency` takes (a text's words meet them in one set operation)."""
    return _named()
