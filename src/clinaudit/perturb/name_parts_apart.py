"""A given name written as two words apart whose joining is a given name, and a one-syllable Korean surname the guards
keep as a word before a Korean given name or after a title (issue 50, sixteenth session).

Punjabi and Hindi given names are compounds of short parts ("harpreet", "navdeep", "ashwin", "hemant"), often written
apart ("har preet", "nav deep", "ash win"); apart, in lower case, each part is a short word or a fragment the lists
hold as a word ("nav", "deep", "ash", "win", "hem", "ant"), no rule read the two as one name, and "i came in with
hem ant today" kept both. Korean surnames of one syllable are English function, relative's, spoken or clinical words
("oh", "son", "shin", "do", "an", "no", "ha", "ma", "na", "ra"): :mod:`.name_syllables_apart` reads a surname beside a
Korean given name only when the guards let it, so "son ye jin came with me", "oh se ri", "dr an" kept the surname.
In lower case only:

* **two words apart whose joining is a given name** (:func:`joined_pairs`): two lower-case words, one space between,
  each three letters or more ("na die": Spanish "nadie"), no function, relative's, spoken or demographic word, day or
  month, each rarer in English than :data:`PART_ZIPF` ("win some , lose some"), not the same word twice, whose joining
  is a gazetteer given name that English text hardly writes (below :data:`JOINED_ZIPF`: "ashwin" 2.7, "hemant" 2.0,
  "navdeep" 1.5; not "carmen" 3.6, "herman" 3.7, "rosemary" 3.6), not a word English writes often and no given name
  before a given name of the lists (:data:`ALONE_ZIPF`: "saw ana"), never after a determiner ("the hem ant") nor where
  :func:`.name_no_person.no_person_at` says no person stands;
* **a Korean surname the guards keep** (:data:`KOREAN_SURNAMES`, the one-syllable surnames of Korea as English writes
  them, of which this rule reads only those :mod:`.name_syllables_apart` does not: outside its
  :data:`.name_syllables_apart.WORD_SURNAMES`, or a function, relative's, spoken, clinical or demographic word) right
  before a lower-case Korean given name found (:func:`.name_korean.korean_given_shape`: "son [ji-ho]") or two
  syllables of Korean given names apart ("oh se ri": :data:`.name_syllables_apart.GIVEN_SYLLABLES`, taken with it);
  not after a determiner, a possessive or an adjective ("my son ji-ho", "her eldest son min-jun"), not at a clause's
  start when a comma follows the given name ("oh ji-ho , you're back": the one addressed after an interjection), nor
  "do" at a clause's start ("do ji-ho and min-ji need to come ?"); and right after a title ("dr", "mr", "mrs", "ms",
  "mx", "prof"; not "miss": "miss an appointment") before a sentence's end, a comma, a possessive or a person's verb
  ("dr an said", "mr ma rang"; not "dr do you", "mr and mrs").

Words first: the text's distinct words that may start a joined pair (:func:`_heads`: the first three letters or more
of a gazetteer given name, built once by :func:`preload_heads`) or be such a surname are found by set operations,
their places in one pass of the words, then only those places are read. Used by :mod:`.name_detect` (source
``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress

from .name_frames import TITLES
from .name_korean import korean_given_shape
from .name_syllables_apart import GIVEN_SYLLABLES, WORD_SURNAMES
from .name_tokens import Tok, distinct_texts, ends_of, starts_of, texts_of
from .name_word import word_facts
from .vocab import DAY_NAMES, MONTH_NAMES, RELATIVES, SPOKEN_WORDS, english_zipf, first_names

__all__ = ["ALONE_ZIPF", "JOINED_ZIPF", "KOREAN_SURNAMES", "PART_ZIPF", "joined_pairs", "korean_guarded_surnames",
           "part_names", "preload_heads"]

#: how often English text may write the joined word for two words apart to be read as one given name
JOINED_ZIPF = 3.0
#: the one-syllable surnames of Korea as English writes them (Revised Romanization and the older spellings); only
#: those the guards keep as words are this module's (:func:`_guarded`), the others are :mod:`.name_syllables_apart`'s
#: and :mod:`.name_korean`'s
KOREAN_SURNAMES = frozenset("""an ahn oh son sohn shin sin do doh no noh ha ma na nah ra rah yu ko bae seo suh woo yeo
    mo myung ju joo chu du wi ye yi eo bang ki pi""".split())
#: what follows a surname after a title (:data:`.name_frames.TITLES`; "miss" left out: "miss an appointment"): a
#: sentence's end, a comma, a possessive or a person's verb
_AFTER_TITLE = re.compile(r"[ \t]*(?:[.,;:!?)]|$|['’]s[ \t]|(?:came|comes|said|says|told|rang|called|saw|sees|is|was|"
                          r"will|has|had|and|from|at|who|wants|asked|gave|put|thinks|thought)(?![\w'’\-]))")
#: a word before that makes the next a word, not a name's start: determiners, possessives, adjectives of relatives
_NOT_BEFORE = frozenset("""my our your his her their the a an this that these those one only eldest youngest oldest
    older younger elder little baby big step god grand middle first second third new own dear late other""".split())
#: a surname that is an auxiliary at a clause's start asks a question ("do ji-ho and min-ji need to come ?")
_AUXILIARIES = frozenset({"do"})
#: what ends a clause before a word (the text's start read as a line's end)
_CLAUSE_ENDS = frozenset(".,;:!?\n")
#: how often English may write each part of a joined pair ("win some , lose some": "some" 6.5)
PART_ZIPF = 5.5
#: a word English writes this often, no given name itself, before a given name of the lists: the name alone, no
#: joined pair ("i saw ana yesterday": "saw" 5.3, not "sawana"; "ash win", "har preet" stay pairs: "ash" 4.2, "har"
#: 3.2; "mark anthony" too: "mark" is a given name)
ALONE_ZIPF = 5.0
_DETERMINER = re.compile(r"(?<![\w'’\-])(?:the|a|an|some|any|your|his|her|their|its|our|my|no|every|each)[ \t]+$")


@lru_cache(maxsize=50_000)
def _plain_part(key: str, least: int = 3) -> bool:
    """``key`` may be one part of a joined pair: three letters or more ("na die": Spanish "nadie"), lower case, no
    function, relative's, spoken or demographic word, day or month (``least``: two for a Korean syllable)."""
    if len(key) < least or not key.isalpha() or not key.islower() or key in RELATIVES or key in SPOKEN_WORDS \
            or key in DAY_NAMES or key in MONTH_NAMES:
        return False
    w = word_facts(key)
    return not (w.function or w.demographic)


@lru_cache(maxsize=1)
def _heads() -> frozenset[str]:
    """Every first three letters or more (leaving three or more) of a gazetteer given name: a word that may start a
    joined pair (a set operation with a text's words, then only their places are read)."""
    return frozenset(g[:k] for g in first_names() if g.isalpha() for k in range(3, len(g) - 2))


def preload_heads() -> None:
    """Build :func:`_heads` now (:func:`.name_detect.load_word_lists`), not in the first text that needs it."""
    _heads()


@lru_cache(maxsize=50_000)
def _joined_name(joined: str) -> bool:
    return joined in first_names() and english_zipf(joined) < JOINED_ZIPF


@lru_cache(maxsize=256)
def _guarded(key: str) -> bool:
    """A surname of :data:`KOREAN_SURNAMES` that :mod:`.name_syllables_apart` does not read beside a given name: no
    word of its :data:`.name_syllables_apart.WORD_SURNAMES`, or one the guards keep (a function, relative's, spoken,
    clinical or demographic word)."""
    if key not in KOREAN_SURNAMES:
        return False
    if key in RELATIVES or key in SPOKEN_WORDS or key not in WORD_SURNAMES:
        return True
    w = word_facts(key)
    return w.function or w.clinical is not None or w.demographic


def korean_guarded_surnames(distinct: set[str]) -> set[str]:
    """The words of ``distinct`` that are Korean surnames the guards keep as words."""
    return {w for w in distinct & KOREAN_SURNAMES if _guarded(w)}


def _spaces(text: str, end: int, start: int) -> bool:
    return end < start and text[end:start].strip(" \t") == ""


def part_names(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
               no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """:func:`joined_pairs` and :func:`korean_guarded_surnames`' names (module docstring); ``found``: the names found
    so far (start, end)."""
    distinct = distinct_texts(toks)
    heads = {w for w in distinct & _heads() if _plain_part(w)}
    guarded = korean_guarded_surnames(distinct)
    if not heads and not guarded:
        return []
    texts = texts_of(toks)
    words = heads | guarded
    places = list(compress(range(len(texts)), map(words.__contains__, texts)))
    return joined_pairs(text, toks, no_person_at, [i for i in places if texts[i] in heads]) \
        + _surnames(text, toks, found, no_person_at, [i for i in places if texts[i] in guarded])


def joined_pairs(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool],
                 places: list[int]) -> list[Tok]:
    """Two lower-case words apart whose joining is a given name English hardly writes (module docstring);
    ``places``: where the words that may start one stand."""
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    n = len(texts)
    out: list[Tok] = []
    for i in places:
        j = i + 1
        if j >= n:
            continue
        a, b = texts[i], texts[j]
        if a == b or not _joined_name(a + b) or not _plain_part(b) or not _spaces(text, ends[i], starts[j]) \
                or english_zipf(a) >= PART_ZIPF or english_zipf(b) >= PART_ZIPF \
                or english_zipf(a) >= ALONE_ZIPF and b in first_names() and a not in first_names():
            continue
        s, e = starts[i], ends[j]
        if _DETERMINER.search(text, max(0, s - 8), s) or no_person_at(text, s, e):
            continue
        out += [Tok(s, ends[i], a, a), Tok(starts[j], e, b, b)]
    return out


def _surnames(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
              no_person_at: Callable[[str, int, int], bool], places: list[int]) -> list[Tok]:
    """A Korean surname the guards keep, before a Korean given name or after a title (module docstring)."""
    if not places:
        return []
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    n = len(texts)
    spans = set(found)
    out: list[Tok] = []
    for i in places:
        word = texts[i]
        gap = text[ends[i - 1]:starts[i]].strip(" \t") if i else "\n"
        prev = texts[i - 1] if gap == "" or gap == "." and texts[i - 1] in TITLES else ""
        if prev in TITLES and _AFTER_TITLE.match(text, ends[i]):
            if not no_person_at(text, starts[i], ends[i]):
                out.append(Tok(starts[i], ends[i], word, word))
            continue
        if i + 1 >= n or not _spaces(text, ends[i], starts[i + 1]) or prev in _NOT_BEFORE \
                or gap.startswith(("'s", "’s")):
            continue
        run = _given_after(text, texts, starts, ends, i + 1, spans)
        if not run or gap[-1:] in _CLAUSE_ENDS and (word in _AUXILIARIES or text.startswith(
                (",", " ,"), ends[run[-1]])):
            continue  # "oh ji-ho , you're back", "no se ri ,": the one addressed; "do ji-ho and min-ji need ..."
        if not no_person_at(text, starts[i], ends[run[-1]]):
            out += [Tok(starts[k], ends[k], texts[k], texts[k]) for k in (i, *run)]
    return out


def _given_after(text: str, texts: list[str], starts: list[int], ends: list[int], j: int,
                 spans: set[tuple[int, int]]) -> list[int]:
    """The words of a lower-case Korean given name starting at word ``j``: a name found there written as a Korean
    given name ("ji-ho", "minseo"), or two syllables of Korean given names apart ("se ri"), neither found nor a
    function word, not the same twice; [] when none."""
    a = texts[j]
    if not a.islower():
        return []
    if (starts[j], ends[j]) in spans and korean_given_shape(a):
        return [j]
    k = j + 1
    if k < len(texts) and a in GIVEN_SYLLABLES and texts[k] in GIVEN_SYLLABLES and a != texts[k] \
            and _spaces(text, ends[j], starts[k]) and _plain_part(a, 2) and _plain_part(texts[k], 2):
        return [j, k]
    return []
