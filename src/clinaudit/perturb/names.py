"""Built-in first-name lists shared by de-identification and the neutralizer's residual check, and de-identification's
rule that reads them (:func:`first_name_spans`)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Collection, Sequence
from itertools import accumulate, compress

from .name_tokens import MARK, Tok, keys_of, starts_of, texts_of
from .text_scan import places

__all__ = ["FIRST_NAMES", "AMBIGUOUS_NAMES", "first_name_spans"]

#: Built-in first names (lower case). Names that are also common words need a capital letter.
FIRST_NAMES: frozenset[str] = frozenset(
    """aaron adam alan albert alex alice amanda amy andrea andrew angela ann anna anne anthony ashley barbara betty
    beverly brandon brenda brian bruce bryan carl carol caroline catherine charles cheryl christina christine
    christopher cynthia daniel david deborah debra denise dennis diana diane donald donna dorothy douglas edward
    elizabeth emily emma eric ethan evelyn frances frank gary george gloria gregory hannah harold heather helen
    henry jack jacob james janet janice jason jean jeffrey jennifer jeremy jerry jessica joan john jonathan joseph
    joshua joyce judith judy julia julie justin karen katherine kathleen kathryn keith kelly kenneth kevin kimberly
    larry laura lauren lawrence linda lisa louis madison margaret maria marie marilyn martha mary matthew megan
    melissa michael michelle nancy nathan nicholas nicole noah olivia pamela patricia paul peter philip rachel
    raymond rebecca richard robert roger ronald ruth ryan samantha samuel sandra sara sarah scott sean sharon
    shirley sophia stephanie stephen steven susan teresa thomas timothy tyler victoria vincent virginia walter
    wayne william zachary""".split()
)
#: Names that are also common words ("will", "may"): the name finder treats them with extra care.
AMBIGUOUS_NAMES = frozenset("""will mark bill grace hope faith rose may june april joy dawn bob pat sue frank jack
    jean""".split())


def first_name_spans(text: str, cap_stop: Collection[str],
                     toks: Sequence[Tok] | None = None) -> list[tuple[int, int, str, str, str]]:
    """The built-in first names of ``text`` (:data:`FIRST_NAMES` in any case, :data:`AMBIGUOUS_NAMES` capitalised and
    not at a sentence's start), with a capitalised surname after them on the same line unless it is one of
    ``cap_stop``: ``(start, end, "[NAME]", "name", "rule")`` (:func:`clinaudit.perturb.deid.deidentify_text`).
    ``toks``: the text's :func:`.name_tokens.tokens`, when read already: only the lines that may hold such a name are
    read then (:func:`_lines`; issue 50, ninth session: 5 % of a 1 MB dialog's lines)."""
    if toks is None:
        return _first_name_spans(text, 0, cap_stop, text)
    spans = []
    for a, b in _lines(text, toks):
        spans += _first_name_spans(text[a:b], a, cap_stop, text)
    return spans


def _first_name_spans(line: str, at: int, cap_stop: Collection[str], text: str) -> list[tuple[int, int, str, str, str]]:
    """:func:`first_name_spans` of ``line``, which starts at ``at`` in ``text``: the whole text, or lines of it (the
    pattern never crosses a line's end: it reads a line as it does inside the whole text)."""
    # the words the pattern reads and the text between them: [gap, word, surname, gap, word, surname, ..., gap];
    # only the words of the built-in lists are looked at (issue 50, Build 3: not a Python step per word)
    parts = _FIRST_NAME.split(line)
    firsts = parts[1::3]
    wanted = {w for w in set(firsts) if w.lower() in _BUILT_IN_NAMES}  # as written; each distinct word read once
    if not wanted:
        return []
    ends = list(accumulate(map(len, parts), initial=at))[1:]  # ends[i]: where parts[i] ends
    spans = []
    for j in compress(range(len(firsts)), map(wanted.__contains__, firsts)):
        first, surname, start = firsts[j], parts[3 * j + 2], ends[3 * j]
        low = first.lower()
        if low in AMBIGUOUS_NAMES and (not first[0].isupper() or start == 0 or _after_stop(text, start)):
            continue  # every other word of ``wanted`` is one of FIRST_NAMES
        end = start + len(first) + (len(surname) if surname and surname.strip() not in cap_stop else 0)
        spans.append((start, end, "[NAME]", "name", "rule"))
    return spans


def _lines(text: str, toks: Sequence[Tok]) -> list[tuple[int, int]]:
    """The lines (start, end after the newline) of ``text`` where :data:`_FIRST_NAME` may find a name that
    :func:`_first_name_spans` takes, ascending: those with a word of ``toks`` that is one (a name of
    :data:`AMBIGUOUS_NAMES` capitalised), or whose first part before a hyphen or an apostrophe is one of either list
    (the pattern reads "Anne" of "Anne-Marie"); those with a combining mark (no word of ``toks`` starts right after
    one, but the pattern's may) and those with a word of its letters right before a "]" that no "[" opens (no token)."""
    keys, texts, starts = keys_of(toks), texts_of(toks), starts_of(toks)
    distinct = set(keys)
    names = distinct & _BUILT_IN_NAMES
    at = [starts[i] for i in compress(range(len(keys)), map(names.__contains__, keys))
          if keys[i] in _PLAIN_NAMES or texts[i][:1].isupper()]
    joined = {k for k in distinct if ("-" in k or "'" in k) and _JOINED.split(k, 1)[0] in _BUILT_IN_NAMES}
    if joined:
        at += compress(starts, map(joined.__contains__, keys))
    if not text.isascii():
        at += [m.start() for m in _MARKS.finditer(text)]
    for p in places(text, "]"):  # "mary]": no token (a placeholder's "[NAME]" and a label's "[doctor]" are no name)
        q = p
        while q and text[q - 1] in _WORD_LETTERS:
            q -= 1
        if q < p and (q == 0 or text[q - 1] != "["):
            at.append(q)
    if not at:
        return []
    ends = places(text, "\n")
    return [(ends[i - 1] + 1 if i else 0, ends[i] + 1 if i < len(ends) else len(text))
            for i in sorted({bisect_left(ends, p) for p in at})]


def _after_stop(text: str, pos: int) -> bool:
    """``text[:pos]`` ends with ".", "!", "?" or ":" and spaces (read back from ``pos``, not by a search of a copy of
    everything before it: issue 50, linear time)."""
    i = pos
    while i > 0 and text[i - 1].isspace():
        i -= 1
    return i > 0 and text[i - 1] in ".!?:"


# a built-in first name, and a capitalised surname after it on the same line (whole words only: "Nguyễn" is no
# "Nguy" + "ễn"); the surname's group is "" when there is none (re.split keeps three parts a match)
_FIRST_NAME = re.compile(r"(?<![\w\[\-'’])([A-Za-z][a-z'-]+)(?![\w\u0300-\u036f])"
                         r"((?:[ \t]+[A-Z][a-z'-]+(?![\w\u0300-\u036f]))?)")
_BUILT_IN_NAMES = FIRST_NAMES | AMBIGUOUS_NAMES
#: the built-in first names found in any case
_PLAIN_NAMES = FIRST_NAMES - AMBIGUOUS_NAMES
_JOINED = re.compile(r"[-']")
_MARKS = re.compile(f"[{MARK}]")
#: the letters of a word of :data:`_FIRST_NAME`
_WORD_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'-")
