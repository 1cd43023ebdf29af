"""The run-together check of the name detector (:func:`.name_detect.unknown_word`: "skatepark", "exhusband" are words,
not names), in time linear in the word's length (issue 50: a 1 MB line without spaces is one word, and reading every
split of it by copying both parts made a million copies of up to a million letters: 10 kB took 3.7 s, 1 MB was
killed for memory)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import lru_cache

__all__ = ["longest", "two_words"]


@lru_cache(maxsize=8)
def longest(words: frozenset[str]) -> int:
    """The length of the longest word of ``words`` (a word list; a word one edit away from none of them is longer
    than this plus one)."""
    return max(map(len, words), default=0)


@lru_cache(maxsize=1)
def _long_part() -> int:
    """A length past which the detector's ``_known`` (:func:`.vocab.is_common` or :func:`.vocab.clinical_category`)
    can only say yes by a specialty suffix: no inflection or British spelling of a longer word shortens it to a
    listed one ("ae" -> "e" everywhere halves it at most)."""
    from .vocab import clinical_terms, common_words

    return 2 * max(longest(common_words()), max(map(len, clinical_terms()))) + 8


def _known_long(key: str, end: int) -> bool:
    """``_known`` of a part of ``key`` ending at ``end`` and longer than :func:`_long_part`: no list holds it, so
    only :func:`.vocab.clinical_category`'s specialty suffix ("-ology", "-iatrist", "-ician") can make it known; read
    on the part's last 16 letters behind a "#", which no listed word holds."""
    from .vocab import clinical_category

    return clinical_category("#" + key[max(0, end - 16):end]) is not None


#: pronouns and determiners begin no word run together with a word after them: "thembile" (a Zulu given name) is
#: not "them" and "bile" (issue 50, twenty-second session; no word of the shared real dialogs is read otherwise)
_NO_FIRST_PART = frozenset("them they their theirs this that these those your yours what when which".split())
_NO_FIRST_LEN = max(map(len, _NO_FIRST_PART))  # a longer first part is never copied to be looked up


def two_words(key: str, known: Callable[[str], bool], prefixes: Collection[str]) -> bool:
    """Two known words run together ("skatepark": both known, the first of four letters or more, the second of
    three or more) or a word-forming prefix and a known word of four letters or more ("exhusband"); ``known`` is the
    detector's ``_known``. A part longer than :func:`_long_part` is never copied: :func:`_known_long` reads it."""
    n = len(key)
    long = _long_part()
    prefix_len = max(map(len, prefixes), default=0)
    b_long_known = n - 2 > long and _known_long(key, n)  # known(key[i:]) for every i that leaves it long
    for i in range(2, n - 2):
        if i > long and n - i > long and not b_long_known:  # both parts long, the second not known
            continue
        a_prefix = i <= prefix_len and key[:i] in prefixes
        if not (a_prefix or (i >= 4 and (i > _NO_FIRST_LEN or key[:i] not in _NO_FIRST_PART)
                             and (known(key[:i]) if i <= long else _known_long(key, i)))):
            continue
        b_len = n - i
        if b_len >= 3 and (known(key[i:]) if b_len <= long else b_long_known) and (b_len >= 4 or a_prefix):
            return True
    return False
