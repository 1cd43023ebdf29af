"""The words of a dialog as the name detector (:mod:`.name_detect`) reads them: name-shaped words of any script, a
possessive "'s" or a clitic ("'ll", "'d", "'ve", "'re") left out, each with its key (lower case, diacritics folded). Moved out of :mod:`.name_detect`
(issue 50, Build 3: built without a Python call per word; a 1 MB dialog has 190,000 words)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from bisect import bisect_left
from collections.abc import Collection, Iterator, Sequence
from itertools import accumulate, compress, repeat, starmap
from operator import add, attrgetter
from typing import NamedTuple

from .vocab import FUNCTION_WORDS

__all__ = ["MARK", "LETTER", "WORD", "WORD_END", "NAME_END", "S_AFTER", "S_BEFORE", "word_before", "Tok", "Toks",
           "tokens", "starts_of", "ends_of", "texts_of", "keys_of", "distinct_texts", "capitalised_tokens",
           "indices_within", "fold", "neighbours", "key_indices"]

#: Combining marks; a letter (any script) with its combining marks ("ọ̀" is "ọ" and a combining grave accent).
MARK = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_LETTER = rf"[^\W\d_][{MARK}]*"
LETTER = _LETTER
#: A name-shaped word: Unicode letters, joined by apostrophes or hyphens ("Nguyễn", "O'Brien", "Al-Masri"); a whole
#: word only (never the start of "Nguyễn" nor "Guest" of "Guest_family"), never the NAME of a "[NAME]".
WORD = rf"(?:{_LETTER})+(?:['’\-](?:{_LETTER})+)*"
#: a whole word ends here: no letter, digit, underscore, apostrophe or hyphen follows (the rules' patterns end a word
#: with it; issue 50, eighteenth session: seven modules wrote it again)
WORD_END = r"(?![\w'’\-])"
#: a pattern's end after a word: no letter, apostrophe or hyphen of the word follows, or only a possessive "'s" or a
#: clitic does ("O'Brien's mum", "o'brien'll": no part of the name; fifteenth session)
NAME_END = r"(?:(?=['’](?:s|ll|d|ve|re)" + WORD_END + r")|" + WORD_END + r")"
#: an "'s" right after a word, maybe after a space or tab ("kim's", "kim 's"; eighteenth session: two rules wrote it)
S_AFTER = re.compile(r"[ \t]?['’]s\b")
#: an "'s" then spaces or tabs, matched in the gap before a word ("who's [fenella]", "that's [kirsty]"; two rules)
S_BEFORE = re.compile(r"['’]s[ \t]+$")
#: :data:`WORD` for the scans of whole texts: the same words, each a run of letters then of marks, not a group a
#: letter (issue 50, ninth session: the split of a 1 MB dialog a fifth faster). Each part is letters, then marks and
#: letters in turn, written so that a string of letters splits into runs one way only: "(letters+ marks*)+" split a
#: long word before "]" in exponentially many ways when the look-ahead failed (tenth session: 22 letters 0.5 s)
_RUN = rf"[^\W\d_]+(?:[{MARK}]+[^\W\d_]+)*[{MARK}]*"
_WORD_RUNS = rf"{_RUN}(?:['’\-]{_RUN})*"
_UTOKEN = re.compile(rf"(?<![\w\[{MARK}'’\-])(?:{_WORD_RUNS})(?![\w\]{MARK}])")


@lru_cache(maxsize=200_000)
def fold(word: str) -> str:
    """``word`` without diacritics ("García" -> "Garcia", "Łukasz" -> "Lukasz", "Yılmaz" -> "Yilmaz")."""
    if word.isascii():
        return word
    word = word.translate(_FOLD)
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


_FOLD = str.maketrans({"ł": "l", "Ł": "L", "ı": "i", "ß": "ss", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "’": "'"})


class Tok(NamedTuple):
    """A word: where it starts and ends, as written, its key."""

    start: int
    end: int  # without a possessive "'s"
    text: str  # as written, without the possessive
    key: str  # lower case, diacritics folded

    @property
    def capital(self) -> bool:
        return self.text[:1].isupper() and not self.text.isupper()


def _tok(w: str, start: int) -> Tok:
    """The word ``w`` written at ``start``, a possessive "'s" or a clitic ("'ll", "'d", "'ve", "'re") left out."""
    w = _without_clitic(w)
    return Tok(start, start + len(w), w, fold(w).lower())


def _without_clitic(w: str) -> str:
    """``w`` without a possessive "'s" (a word of four letters or more) or a clitic "'ll", "'d", "'ve", "'re" after a
    stem of three letters or more that is no function word ("tyler'll pick me up", "siobhan'd know"; not "they'll",
    "who'd", "must've": fifteenth session, such a name was one word in no list and no name)."""
    if len(w) > 3 and w[-2:] in _POSSESSIVE:
        return w[:-2]
    for c in _CLITICS:
        if w.endswith(c):
            stem = w[:-len(c)]
            return stem if len(stem) >= 3 and stem.lower() not in FUNCTION_WORDS else w
    return w


class Toks(list[Tok]):
    """The words of a text (:func:`tokens`) and their columns, as :func:`tokens` built them: each word's start, end,
    text and key in text order (read-only; the rules read a column without a step per word: issue 50, ninth session,
    the columns were built again by each rule, 15 times for a 1 MB dialog). A slice is a plain list."""

    __slots__ = ("starts", "ends", "texts", "keys", "distinct")
    starts: list[int]
    ends: list[int]
    texts: list[str]
    keys: list[str]
    distinct: set[str]  # the distinct words as written (issue 50, tenth session: built once, not by each rule)


def starts_of(toks: Sequence[Tok]) -> list[int]:
    """Where each word of ``toks`` starts (read-only: :class:`Toks`' column when ``toks`` is one)."""
    return toks.starts if isinstance(toks, Toks) else list(map(attrgetter("start"), toks))


def distinct_texts(toks: Sequence[Tok]) -> set[str]:
    """The distinct words of ``toks`` as written (read-only: :class:`Toks`' own set when ``toks`` is one)."""
    return toks.distinct if isinstance(toks, Toks) else set(texts_of(toks))


def ends_of(toks: Sequence[Tok]) -> list[int]:
    """Where each word of ``toks`` ends (read-only)."""
    return toks.ends if isinstance(toks, Toks) else list(map(attrgetter("end"), toks))


def texts_of(toks: Sequence[Tok]) -> list[str]:
    """Each word of ``toks`` as written (read-only)."""
    return toks.texts if isinstance(toks, Toks) else list(map(attrgetter("text"), toks))


def keys_of(toks: Sequence[Tok]) -> list[str]:
    """Each word's key (read-only)."""
    return toks.keys if isinstance(toks, Toks) else list(map(attrgetter("key"), toks))


def tokens(text: str) -> Toks:
    """The name-shaped words of ``text`` (:data:`WORD`), a possessive "'s" left out. Built without a Python step per
    word (issue 50, Build 3: a 1 MB dialog has 190,000 words): the words and the text between them by one
    ``re.split``, their positions by summing lengths, each distinct word's key looked up once."""
    parts = (_USPLIT if _MARK_CHAR.search(text) else _PLAIN_SPLIT).split(text)
    words = parts[1::2]
    starts = list(accumulate(map(len, parts[:-1]), initial=0))[1::2]  # where each word starts
    # a possessive "'s" or a clitic left out, decided once a distinct word
    distinct = set(words)
    possessive = {w: c for w in distinct if "'" in w or "’" in w if (c := _without_clitic(w)) != w}
    if possessive:
        words = list(map(possessive.get, words, words))
        distinct = set(map(possessive.get, distinct, distinct))  # (eleventh session: not a second set of every word)
    keys = _KEYS
    if len(keys) > 200_000:
        keys.clear()
    for w in distinct.difference(keys):
        keys[w] = fold(w).lower()
    ends, word_keys = list(map(add, starts, map(len, words))), list(map(keys.__getitem__, words))
    out = Toks(map(_new_tok, repeat(Tok), zip(starts, ends, words, word_keys)))
    out.starts, out.ends, out.texts, out.keys, out.distinct = starts, ends, words, word_keys, distinct
    return out


_USPLIT = re.compile(f"({_UTOKEN.pattern})")
#: :data:`_USPLIT` for a text without a combining mark: the same words, a run of letters not read as runs of runs
#: (issue 50, tenth session: a long word before "]", which the form with marks tries in exponentially many ways, read
#: in linear time)
_PLAIN_SPLIT = re.compile(r"((?<![\w\['’\-])[^\W\d_]+(?:['’\-][^\W\d_]+)*(?![\w\]]))")
_MARK_CHAR = re.compile(f"[{MARK}]")
_POSSESSIVE = ("'s", "’s")
#: clitics after a name in speech ("tyler'll", "siobhan'd", "sina've", "the o'briens're"), both apostrophes
_CLITICS = tuple(a + c for c in ("ll", "d", "ve", "re") for a in "'’")
_new_tok = tuple.__new__


#: word as written -> its key (lower case, diacritics folded); the words of a process's dialogs
_KEYS: dict[str, str] = {}


#: A name-shaped word that starts with a capital letter (any script).
_CAP_TOKEN = re.compile(rf"(?<![\w\[{MARK}'’\-])(?=[^\W\d_])(?=[^a-z])(?:{_WORD_RUNS})(?![\w\]{MARK}])")


#: ... those right after a space that follows no sentence's end, quote, bracket, capital or digit (a superset of the
#: words after a lower-case letter, a comma or a semicolon and a space: :func:`.deid._capitalised_inside`): group 1,
#: the space matched first and the look-behind written after it, so that ``re`` searches for the spaces (issue 50,
#: eighth session: the scan of a 1 MB dialog 1.8 times faster than with the pattern begun by the look-behind)
_CAP_AFTER_SPACE = re.compile(rf" (?<=[^\s.!?:\]A-Z0-9\"“(] )({_CAP_TOKEN.pattern})")


def capitalised_tokens(text: str, after_space: bool = False) -> list[Tok]:
    """The words of :func:`tokens` that start with a capital letter (found without tokenising the rest);
    ``after_space``: only those after a space that follows no sentence's end, quote, bracket, capital or digit
    (issue 50, Build 3: 2,300 of the 18,600 capitalised words of a 1 MB dialog, read without a step for the others)."""
    found = ((m.group(1), m.start(1)) for m in _CAP_AFTER_SPACE.finditer(text)) if after_space else (
        (m.group(0), m.start()) for m in _CAP_TOKEN.finditer(text))
    return [t for t in starmap(_tok, found) if t.text[:1].isupper()]


def neighbours(toks: Sequence[Tok], starts: Collection[int], ends: Collection[int]) -> list[int]:
    """The indices of the words right before a word that starts at one of ``starts`` and right after a word that ends
    at one of ``ends`` (found by bisection, not by a look at every word; ``toks`` in text order)."""
    tok_starts, tok_ends = starts_of(toks), ends_of(toks)
    out = []
    for p in starts:
        i = bisect_left(tok_starts, p)
        if 0 < i < len(toks) and tok_starts[i] == p:
            out.append(i - 1)
    for p in ends:
        i = bisect_left(tok_ends, p)
        if i + 1 < len(toks) and tok_ends[i] == p:
            out.append(i + 1)
    return out


def indices_within(toks: Sequence[Tok], spans: Sequence[tuple[int, int]]) -> set[int]:
    """The indices of the words of ``toks`` that lie inside one of ``spans`` (start, end): the words of names found."""
    starts = starts_of(toks)
    out: set[int] = set()
    for s, e in spans:
        i = bisect_left(starts, s)
        while i < len(toks) and toks[i].end <= e:
            out.add(i)
            i += 1
    return out


def key_indices(toks: Sequence[Tok], keys: Collection[str]) -> Iterator[int]:
    """The indices of the words of ``toks`` whose key is one of ``keys``, in text order (read without a step in Python
    for the others)."""
    return compress(range(len(toks)), map(keys.__contains__, keys_of(toks)))


_WORD_BEFORE = re.compile(r"([A-Za-z]+)[ \t]+$")


def word_before(text: str, pos: int) -> str:
    """The ASCII letters right before ``pos`` with only spaces or tabs between, read in the 30 characters before it
    ("" where there are none): the word before a place (eighteenth session: three rules wrote it)."""
    b = _WORD_BEFORE.search(text, max(0, pos - 30), pos)
    return b.group(1) if b is not None else ""
