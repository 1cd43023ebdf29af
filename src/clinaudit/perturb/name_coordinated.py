"""Where lower-case speech puts a person beside a pronoun or asks after one (issue 50, seventh session): given names
the lists hold as words ("dean", "jade", "chase", "tanner", "sang", "esi", "jude") or as nothing but look like
words ("ketly", "sonel"), in positions English fills with a person:

* **coordinated with a personal pronoun**: "me and X", "you and X", "him and X", "X and i", "X and me" ("me and
  dean walk every evening", "so it's just you and jade at home", "esi and i have been married thirty years"), the
  word before "and i" opening a clause (not "the bill and i", "my calendar and i", "i was icy and i");
* **asked after**: a question (a question mark ends the sentence) opened by "is X your ...", "did X come ...", "has
  X been ...", or "how old is X" ("is jade your daughter ?", "did tanner come with you ?", "and how old is esi now
  ?"; not "she has defiantly been more independent .").

The word: a gazetteer given name English text uses less than Zipf 4.5, no clinical word
(:func:`.name_neighbour_words.lower_word_name`: not "hope", "faith", "summer"), or a word in no list
(``kind(text, t) == "unlisted"``); never where the detector says no person stands (``kind`` None). Used by
:mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .name_clause_opens import GAP_BREAK
from .name_neighbour_words import lower_word_name
from .name_pronoun_pairs import AND, AND_I_OR_ME
from .name_tokens import WORD_END, Tok
from .text_scan import places

__all__ = ["coordinated_names"]

_PRONOUNS_BEFORE = frozenset("me you him us them".split())
_WORD_AFTER = re.compile(AND + r"([a-z]+)" + WORD_END)
#: an auxiliary asking after a person (the literal the scan looks for), the word, what is asked
_AUXILIARIES = ("is ", "was ", "did ", "does ", "has ")
_ASKED = re.compile(r"(?:is|was|did|does|has)[ \t]+([a-z]+)[ \t]+(?:your|still|ever|come|coming|going|doing|been|"
                    r"here|there|okay|ok|home|able|know|think|feel|live|living|drive|driving|stay|staying|visit|"
                    r"bring|call|help|take|tell|say|usually|also|always|with[ \t]+you)(?![\w'’\-])")
_HOW_OLD = re.compile(r"old[ \t]+is[ \t]+([a-z]+)[ \t]*(?:now[ \t]*)?(?:[?.,]|$)")
#: this rule's own openers, measured with it ("when", "okay", "alright"; not :data:`.name_clause_opens.OPENERS`)
_CLAUSE_OPENERS = frozenset("and so but then because when okay ok alright well now yeah yes no oh".split())
_WORD_BEFORE = re.compile(r"([a-z]+)$")
_SENTENCE_END = re.compile(r"[.!?\n]")
_LONGEST = 1000  # a question longer than this (to its question mark) is not read as one
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'’-")


def _word_before(text: str, pos: int) -> tuple[int, int] | None:
    """The lower-case word that ends at ``pos`` (a whole word)."""
    m = _WORD_BEFORE.search(text, max(0, pos - 30), pos)
    if m is None or m.start(1) > 0 and (text[m.start(1) - 1] in _LETTERS or text[m.start(1) - 1].isalpha()):
        return None
    return m.start(1), m.end(1)


def _opens_clause(text: str, start: int) -> bool:
    """The word at ``start`` opens a clause: a turn's or sentence's start, after a comma or a conjunction ("esi and
    i", "so dean and i"; not "i was icy and i", "the bill and i")."""
    before = text[max(0, start - 30):start].rstrip(" \t")
    if not before or GAP_BREAK.search(before):
        return True
    b = _word_before(text, len(before) + max(0, start - 30))
    return b is not None and text[b[0]:b[1]] in _CLAUSE_OPENERS


def _question(text: str, pos: int) -> bool:
    """The auxiliary at ``pos`` opens a question: it opens a clause ("so is jade your daughter"; not "she has
    defiantly been") and a question mark ends its sentence."""
    # the sentence's end within _LONGEST characters: a search to the text's end for each question, or one per end
    # character, made a megabyte of questions without a question mark quadratic (1 s for 1 MB, 4 x per doubling)
    end = _SENTENCE_END.search(text, pos, pos + _LONGEST)
    return end is not None and end.group() == "?" and _opens_clause(text, pos)


def _may_be(text: str, start: int, end: int, kind: Callable[[str, Tok], str | None]) -> bool:
    word = text[start:end]
    k = kind(text, Tok(start, end, word, word))
    return k == "unlisted" or k == "gazetteer" and lower_word_name(word)


def coordinated_names(text: str, kind: Callable[[str, Tok], str | None]) -> list[Tok]:
    """The lower-case words beside a personal pronoun or asked after (the module's docstring). ``kind``: what the
    detector knows of a word (:func:`.name_slots.person_slots`'s). Found from literal anchors (" and ", "is ", "old
    "), not by a look at every word."""
    found: list[tuple[int, int]] = []
    for p in places(text, " and "):
        w = _word_before(text, p)
        if w is None:
            continue
        m = _WORD_AFTER.match(text, p)
        if text[w[0]:w[1]] in _PRONOUNS_BEFORE and m is not None:  # "me and dean"
            found.append((m.start(1), m.end(1)))
        elif AND_I_OR_ME.match(text, p) and _opens_clause(text, w[0]):  # "esi and i", not "the bill and i"
            found.append(w)
    for aux in _AUXILIARIES:
        for p in places(text, aux):
            if p > 0 and (text[p - 1] in _LETTERS or text[p - 1].isalpha()):
                continue
            m = _ASKED.match(text, p)
            if m is not None and _question(text, p):
                found.append((m.start(1), m.end(1)))
    for p in places(text, "old "):
        m = _HOW_OLD.match(text, p)
        if m is not None and text[max(0, p - 4):p] == "how ":
            found.append((m.start(1), m.end(1)))
    out: list[Tok] = []
    for s, e in sorted(set(found)):
        if _may_be(text, s, e, kind):
            out.append(Tok(s, e, text[s:e], text[s:e]))
    return out
