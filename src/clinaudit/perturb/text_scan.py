"""Whole-text regex scans the regex engine searches fast (issue 50, seventh session: the 1 MB dialog back under 2 s).

A pattern that begins with a look-behind (``(?<![\\w'’\\-])``: a word's start) or with an alternation of character
classes (``[Dd]id|[Dd]oes``) defeats the engine's search for the pattern's first character or literal: it tries
the whole pattern at each of the text's million positions (20-70 ms a scan of a 1 MB dialog). Two ways out, each
giving the very matches of ``pattern.finditer(text)``:

* :data:`CAPITAL_START`: a capital letter at a word's start, the look-behind written after the letter, so the
  engine searches for the capital letters first (``_WHO``'s scan 3.5 times faster);
* :func:`anchored_finditer`: when every match starts with one of a few literal words, ``str.find`` finds those
  and the pattern is tried only there;
* :func:`letter_first`: alternatives at a word's start, each written with its first letter before the look-behind
  (the pattern then begins with the letters the engine searches for; issue 50, ninth session);
* :func:`by_first_letter`: a long alternation inside a look-ahead, grouped by the alternatives' first letters, so
  that the engine reads one letter to skip a group, not each alternative (issue 50, eleventh session).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import cast

__all__ = ["CAPITAL_START", "anchored_finditer", "by_first_letter", "letter_first", "matches_from", "places", "remembered"]

#: A capital letter that starts a word (no letter, digit, "_", apostrophe or hyphen before it): the same as
#: ``(?<![\w'’\-])[A-Z]``, but the pattern then begins with a character class the engine searches for.
CAPITAL_START = r"[A-Z](?<![\w'’\-][A-Z])"


def letter_first(alternatives: Iterable[str], not_before: str) -> str:
    """``(?<![not_before])(?:a|b|...)`` for ``alternatives`` (patterns that each begin with a letter written as
    itself), written as ``(?:a(?<![not_before]a)...|b(?<![not_before]b)...)``: the same matches (the look-behind
    after the letter reads the letter and the character before it), but the pattern begins with letters, which the
    engine searches for, not with a look-behind it tries at every position (``\\bhow old`` is
    ``letter_first(["how old"], r"\\w")``)."""
    return "(?:" + "|".join(f"{a[0]}(?<![{not_before}]{a[0]}){a[1:]}" for a in alternatives) + ")"


def by_first_letter(alternatives: Iterable[str]) -> str:
    """``(?:a)|(?:b)|...`` for ``alternatives`` (patterns), written so that it matches where one of them does, but
    grouped by first letter: those that begin with a lower-case letter written as itself (not quantified, no "|" at
    their top level) as ``r(?:(?:etired)|(?:etiree))``, the others as they are, after them. The order of the
    alternatives changes, so only where any of them matches is kept: for a look-ahead, ``(?=...)``, not for the text a
    match takes (issue 50, eleventh session: the age, life-stage and origin patterns' word starts on a 1 MB dialog,
    100 alternatives tried at each of 190,000 word starts, 1.6 times faster)."""
    groups: dict[str, list[str]] = {}
    others = []
    for a in alternatives:
        if a[:1].isalpha() and a[:1].islower() and a[1:2] not in ("?", "*", "+", "{") and not _top_level_bar(a):
            groups.setdefault(a[0], []).append(a[1:])
        else:
            others.append(a)
    return "|".join([f"{c}(?:{'|'.join(f'(?:{r})' for r in rests)})" for c, rests in sorted(groups.items())]
                    + [f"(?:{a})" for a in others])


def _top_level_bar(pattern: str) -> bool:
    """``pattern`` has a "|" outside any group and character class ("a|bc": its first letter is no letter of all)."""
    depth, i, in_class = 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if pattern[i + 1:i + 2] == "^":
                i += 1
            if pattern[i + 1:i + 2] == "]":  # "[]a]", "[^]a]": a "]" first is a member
                i += 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            return True
        i += 1
    return False


def matches_from(pattern: re.Pattern[str], text: str, starts: Iterable[int]) -> Iterator[re.Match[str]]:
    """The matches of ``pattern.finditer(text)`` when every one of them starts at one of ``starts`` (ascending
    positions; more are harmless): the pattern is tried at each, skipping those inside the last match, as
    ``finditer`` does. ``pattern`` never matches the empty string."""
    end = 0
    match = pattern.match
    for s in starts:
        if s < end:
            continue
        m = match(text, s)
        if m is not None:
            end = m.end()
            yield m


def anchored_finditer(pattern: re.Pattern[str], text: str, literals: Iterable[str]) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern whose every match starts with one of ``literals`` (written as they
    stand in the text, each case a literal of its own: ``("Did", "did")``): the literals are found by
    ``str.find``, the pattern tried only there (:func:`matches_from`)."""
    found: set[int] = set()
    for lit in literals:
        found.update(places(text, lit))
    return matches_from(pattern, text, sorted(found))


def places(text: str, literal: str) -> Sequence[int]:
    """Every position where ``literal`` stands in ``text`` (overlapping places too), ascending, found by ``str.find``;
    kept for the last texts read (:func:`remembered`: a 1 MB dialog's line ends were found three times, "to", "tell",
    "ask", ... twice; issue 50, eleventh session)."""
    answers = remembered(text)
    key = ("places", literal)
    found = cast("tuple[int, ...] | None", answers.get(key))
    if found is None:
        out = []
        find = text.find
        i = find(literal)
        while i >= 0:
            out.append(i)
            i = find(literal, i + 1)
        found = answers[key] = tuple(out)
    return found


#: the last texts asked about (the very string objects) and what was found in each (:func:`remembered`)
_RECENT: list[tuple[str, dict[object, object]]] = []


def remembered(text: str) -> dict[object, object]:
    """Answers about ``text`` (this very string object: an identity test, not a comparison of a million characters)
    that several rules ask for, kept while it is one of the last three texts asked about (issue 50, eleventh
    session); a text's answers never change (a ``str`` is immutable), each must be immutable too."""
    for t, answers in _RECENT:
        if t is text:
            return answers
    answers = {}
    _RECENT.insert(0, (text, answers))
    del _RECENT[3:]
    return answers
