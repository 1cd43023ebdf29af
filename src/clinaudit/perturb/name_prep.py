"""A person named after a preposition in lower-case speech (issue 50, fifth session: persons after prepositions).

A word in no list is taken for a name by the detector unless it looks like a word (:func:`.word_known.looks_like_a_word`:
one edit from a long word, two words run together: "jirina", "oystein", "razvan", "massawe", "leeuwen" do). After a
preposition that takes a person as its object ("from", "with", "for", "by", "about", "beside", "behind", "next to",
"in front of", ...) and before the clause's end or a word that opens the next part of it ("when", "and", "on",
"this", "today", ...), such a word is a person: "i got a text from jirina this morning", "i was sitting beside
oystein on the bus", "i'm worried about massawe , he has not eaten". Only a word in no list (``kind`` says
``"unlisted"``: no common, clinical or gazetteer word, no drug written wrong) that English text seldom uses
(wordfreq Zipf below :data:`.vocab.RARE_ZIPF`: not "covid" 3.86, "zoom"), in lower case: English puts a noun there
("with gauze .", "for pain ."), which the word lists know.

The same words are read in the other places lower-case speech puts a person (issue 50, sixth session:
``benchmarks/deid_dev_prep2.py``): after "than", "like", "besides", "between", "into", "at" after a verb aimed at
someone or a feeling ("waved at oystein and", "mad at razvan all week": :data:`.not_a_name.PERSON_AT`), also after
a surname's particles ("worried about ó briain ,", "from van leeuwen or"); after an
article before what only a person does or a relative clause only a person heads
(:func:`.not_a_name.person_after_determiner`: "the jirina who came with you", "a razvan from your office called");
before a family's word ("the daguerre family"); beside a relative in a list ("my son and oystein take turns",
"between jirina and my sister"); set off by commas
after a role ("the nurse , jirina , said"); after a person "named" or "called" so ("a friend named oystein").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import compress

from .name_article_persons import LOWER_FRAMES, person_after_article
from .name_tokens import Tok, distinct_texts, fold, starts_of, texts_of
from .not_a_name import PERSON_AT, person_after_determiner
from .text_scan import places
from .vocab import POSSESSIVE_PATTERN, RARE_ZIPF, RELATIVE_PATTERN, english_zipf

__all__ = ["prep_objects", "after_determiner", "rare_lines", "thing_in_dialog"]

#: the clause's end or a word that opens its next part
_CLAUSE_NEXT = (r"(?=[ \t]*(?:[.,!?;:]|\n|$)|[ \t]+(?:when|and|or|on|at|in|if|about|for|to|this|today|yesterday|last|"
                r"too|again|all|since|because|while|after|before|but|so|who|over|every|now|did|does|knows|said|says)\b)")
_PREP_OBJECT = re.compile(
    r"(?<![\w'’\-])(?:from|with|for|by|about|beside|besides|behind|near|without|than|like|between|into|next[ \t]+to|"
    r"close[ \t]+to|in[ \t]+front[ \t]+of)[ \t]+(?:(?:van|von|der|den|de|da|di|del|della|la|le|du|"
    r"dos|das|ter|ó|o|ní|ni|nic|mac|al|el|bin|ben)[ \t]+){0,2}([a-z]+)" + _CLAUSE_NEXT)
#: "at" after a verb aimed at someone or a feeling ("waved at oystein and", "mad at razvan all week")
_AT_OBJECT = re.compile(r"(?<![\w'’\-])([a-z]+)[ \t]+at[ \t]+([a-z]+)" + _CLAUSE_NEXT)
#: after an article, before a word that may open what only a person does or a relative clause only a person heads
#: (:func:`.not_a_name.person_after_determiner` decides)
_ARTICLE_OBJECT = re.compile(r"(?<![\w'’\-])(?:the|a|an)[ \t]+([a-z]+)(?=[ \t]+(?:who|whom|whose|that|i|you|we|he|"
                             r"she|they|from|at|in|of)\b)")
#: after an article, before a family's word: a family's name ("the daguerre family", "the massawe kids")
_FAMILY_NAME = re.compile(r"(?<![\w'’\-])(?:the|a)[ \t]+([a-z]+)(?=[ \t]+(?:family|families|household|kids|children|"
                          r"twins|brothers|sisters|boys|girls|boy|girl|kid)\b)")
#: beside a relative in a list: "my son and oystein", "jirina and my sister", "between jirina and my mom"
_WITH_RELATIVE = re.compile(
    rf"(?<![\w'’\-]){POSSESSIVE_PATTERN}(?:{RELATIVE_PATTERN})[ \t]+(?:and|or)[ \t]+([a-z]+)\b(?![’'\-])|"
    rf"(?<![\w'’\-])([a-z]+)[ \t]+(?:and|or)[ \t]+{POSSESSIVE_PATTERN}(?:{RELATIVE_PATTERN})\b")
_ROLES = ("nurse|pharmacist|doctor|therapist|receptionist|technician|tech|aide|surgeon|dentist|counselor|counsellor|"
          "manager|secretary|assistant|coach|teacher|landlord|landlady|driver|" + RELATIVE_PATTERN)
#: set off by commas after a role: "the nurse , jirina , said"; after a person named so: "a friend named oystein"
_APPOSED = re.compile(rf"(?<![\w'’\-])(?:(?:the|a|an|my|his|her|our|their|your)[ \t]+(?:{_ROLES}|guy|lady|man|woman|girl|"
                      rf"boy|person)|someone|somebody)[ \t]*(?:,[ \t]*|[ \t]+(?:named|called)[ \t]+)([a-z]+)"
                      rf"(?=[ \t]*[,.!?;:]|[ \t]+[a-z])")


def prep_objects(text: str, kind: Callable[[str, Tok], str | None], toks: Sequence[Tok] | None = None,
                 may_be: Callable[[str], bool] | None = None,
                 lines: Sequence[tuple[int, int]] | None = None) -> list[Tok]:
    """The lower-case words in no list that stand after a preposition taking a person and before the clause's end or
    its next part (the module's docstring). ``kind(text, t)``: what the detector knows of ``t`` (``"unlisted"``: a
    word in no list; None where no person stands). With ``toks`` (``tokens(text)``) and ``may_be`` (true of every
    word ``kind`` may call ``"unlisted"``), only the lines that may hold such a word are read (:func:`rare_lines`);
    ``lines``: those lines already found (by :func:`rare_lines` with a ``may_be`` true of every such word)."""
    if lines is None:
        lines = [(0, len(text))] if toks is None or may_be is None else rare_lines(text, toks, may_be)[0]
    out: list[Tok] = []
    for m in _scan(_PREP_OBJECT, text, lines):
        _take(text, m.start(1), m.end(1), kind, out)
    for m in _scan(_AT_OBJECT, text, lines):
        if m.group(1) in PERSON_AT:  # "waved at oystein and"; not "stayed at kennesaw ."
            _take(text, m.start(2), m.end(2), kind, out)
    for m in _scan(_ARTICLE_OBJECT, text, lines):
        if person_after_determiner(text, m.end(1), m.group(1)):  # "the jirina who came"
            _take(text, m.start(1), m.end(1), kind, out)
    for m in _scan(_FAMILY_NAME, text, lines):  # "the daguerre family next door"
        _take(text, m.start(1), m.end(1), kind, out)
    for frame in LOWER_FRAMES:  # "there's a jyrki at my work", "she's a torvik , like her dad", "saw it in jyrki , she had"
        for m in _scan(frame, text, lines):
            _take(text, m.start(1), m.end(1), kind, out)
    for m in _scan(_WITH_RELATIVE, text, lines):
        g = 1 if m.group(1) else 2
        _take(text, m.start(g), m.end(g), kind, out)
    for m in _scan(_APPOSED, text, lines):
        _take(text, m.start(1), m.end(1), kind, out)
    return out


def _scan(pattern: re.Pattern[str], text: str, lines: Sequence[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``'s matches on ``lines``: no match of the module's patterns crosses a line's end (they
    join words by spaces and tabs), and at a line's end they see what they see at the text's end."""
    for lo, hi in lines:
        yield from pattern.finditer(text, lo, hi)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")
#: a lower-case word right before a "]" (a group of :data:`_WITH_RELATIVE` that is no token: "my son and jirina]")
_BEFORE_BRACKET = re.compile(r"[ \t]([a-z]+)$")


def rare_lines(text: str, toks: Sequence[Tok], may_be: Callable[[str], bool]) -> tuple[list[tuple[int, int]],
                                                                                   frozenset[str]]:
    """The lines (start, end) of ``text`` where :func:`_take` may take a word (issue 50, seventh session: 3 % of a 1 MB
    dialog's lines): those with a word of ``toks`` in lower case, three letters or more, rare in English text, that
    ``may_be`` allows; those with a character outside ASCII (where a word the patterns take may be no token's text:
    a combining mark after it); those with such a word right before a "]" (no token: "and jirina]"). Also the words
    of ``toks`` so found (:mod:`.name_rare_slots` reads them; eighth session)."""
    def word(w: str) -> bool:
        return len(w) >= 3 and w.isascii() and w.isalpha() and w.islower() and english_zipf(w) < RARE_ZIPF and may_be(w)

    texts = texts_of(toks)
    words = set(filter(word, distinct_texts(toks)))
    at = list(compress(starts_of(toks), map(words.__contains__, texts)))
    if not text.isascii():
        at += [m.start() for m in _NON_ASCII.finditer(text)]
    for p in places(text, "]"):
        b = _before_bracket(text, p)
        if b is not None and word(b) or b is None and text[max(0, p - 64):p].isalpha():
            at.append(p)  # (a word of 64 letters or more before it: its line is read)
    if not at:
        return [], frozenset(words)
    ends = places(text, "\n")
    lines: list[tuple[int, int]] = []
    for i in sorted({bisect_left(ends, p) for p in at}):  # the line a place is on: the first line end at or after it
        lines.append((ends[i - 1] + 1 if i else 0, ends[i] if i < len(ends) else len(text)))
    return lines, frozenset(words)


def _before_bracket(text: str, p: int) -> str | None:
    """The group of ``_BEFORE_BRACKET.search(text, max(0, p - 64), p)``, read back from ``p`` (issue 50, ninth
    session: not a search of the 64 characters before each "]" of a dialog): the lower-case letters right before
    ``p`` (or before a newline right before ``p``: the pattern's "$") when a space or a tab stands before them inside
    those 64 characters."""
    end = p - 1 if p and text[p - 1] == "\n" else p
    q = end
    while q and "a" <= text[q - 1] <= "z":
        q -= 1
    return text[q:end] if q < end and q - 1 >= max(0, p - 64) and text[q - 1] in " \t" else None


def _take(text: str, start: int, end: int, kind: Callable[[str, Tok], str | None], out: list[Tok]) -> None:
    """Add ``text[start:end]`` to ``out`` when it is a word in no list English text seldom uses ("with covid ." no)
    that the dialog writes after a determiner nowhere but where a person follows (:func:`_thing`: "inhalers like
    wixela or alvesco" where the dialog says "the wixela that you're not taking")."""
    word = text[start:end]
    if len(word) < 3 or english_zipf(word) >= RARE_ZIPF or _thing(text, word):
        return
    t = Tok(start, end, word, fold(word))
    if kind(text, t) == "unlisted":
        out.append(t)


#: a word after a determiner ("the wixela", "your nebulizer"): ``_THING.finditer(text)``'s matches whose group is a
#: word are what :func:`after_determiner` finds (the test compares them). "this" and "that" too, unlike
#: name_mentions' determiners before a thing (each rule measured with its own: see name_mentions' _BEFORE_THING)
_THING = re.compile(r"(?<![\w'’\-])(?:the|a|an|your|my|his|her|their|our|this|that)[ \t]+([a-z]+)")
_THING_WORDS = frozenset("the a an your my his her their our this that".split())
_WORD_CHAR = re.compile(r"[\w'’\-]")


@lru_cache(maxsize=4096)
def after_determiner(text: str, word: str) -> tuple[tuple[int, int], ...]:
    """Where ``text`` writes ``word`` after a determiner, as :data:`_THING`'s matches do: each match's start and the
    word's end (issue 50, seventh session: only the places of the words asked about are read, by ``str.find``, not
    the 14,000 determiners of a 1 MB dialog; :func:`.name_object.lower_objects` asks too). Where determiners follow
    each other ("the that wixela") the scan's first match takes the second determiner as its word: every other
    one starts a match, counted from the first."""
    n = len(word)
    out = []
    for q in places(text, word):
        if q + n < len(text) and "a" <= text[q + n] <= "z" or q and "a" <= text[q - 1] <= "z":
            continue  # the word is part of a longer one
        dets = []  # the determiners right before the word, nearest first
        d = _determiner_before(text, q)
        while d >= 0:
            dets.append(d)
            d = _determiner_before(text, d)
        if dets and len(dets) % 2 == 1:  # the nearest one starts a match (its word is ``word``)
            out.append((dets[0], q + n))
    return tuple(out)


def _determiner_before(text: str, pos: int) -> int:
    """Where the determiner of :data:`_THING` right before ``pos`` starts (spaces or tabs between, a word's start),
    or -1."""
    j = pos
    while j and text[j - 1] in " \t":
        j -= 1
    if j == pos:
        return -1
    i = j
    while i and "a" <= text[i - 1] <= "z":
        i -= 1
    if text[i:j] not in _THING_WORDS or i and _WORD_CHAR.match(text, i - 1):
        return -1
    return i


def thing_in_dialog(text: str, word: str) -> bool:
    """:func:`_thing` (for :mod:`.name_rare_slots`' words: eighth session)."""
    return _thing(text, word)


def _thing(text: str, word: str) -> bool:
    """``text`` writes ``word`` after a determiner, but not before what only a person does or a relative clause only
    a person heads ("the jirina who came") nor before a family's word: a thing in this dialog. Only the places of
    the word asked about are read (issue 50, seventh session: the 14,000 determiners of a 1 MB dialog were read
    for the few words asked about)."""
    return any(not person_after_determiner(text, end, word) and not _FAMILY_NAME.match(text, start)
               and not person_after_article(text, end - len(word), end)  # "there's a jyrki at my work"
               for start, end in after_determiner(text, word))
