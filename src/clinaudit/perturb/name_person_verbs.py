"""A name the word lists call a word, where only a person stands: next to a verb no thing does (issue 50, sixth
session; the third development set's "Per thinks I snore", "Sunday drove me here", "How is Per doing these days?",
"Did Joke tell you ...?"). Used by the name detector (:mod:`.name_detect`), which passes in what a word may be.

* **the subject of a verb of saying, thinking or driving** at a sentence's start, where the person works or comes
  from maybe between: "Per thinks I snore", "Sunday drove me here", "Brown at the front desk said" (cased text, a
  capitalised word; a common word that no gazetteer holds only before a verb of thinking or driving: "Insurance
  said" is an office; the lower-case subject slot is :mod:`.name_slots`'s);
* **a question about what a person said, knows or did**: "Did X tell you", "Does X know", "Will X call", "Can X
  drive you home" and "How is X doing", "How's X doing" (cased: a capitalised word, a common word no gazetteer
  holds only before "know", "think", "drive", "doing": "Will Insurance call you" is an office; lower case: a
  gazetteer name that may be one, :func:`.name_neighbour_words.lower_word_name`, or a word in no list).

Not taken: what the caller rules out (a function word but a day's name, a relative's or spoken word, a specialty,
an eponym, a drug or demographic word that is no gazetteer name: "Did Mom say", "How is Cardiology doing", "Did
Tylenol help" is no such verb); a word where no person stands.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .name_tokens import Tok, fold
from .text_scan import CAPITAL_START, anchored_finditer
from .vocab import DAY_NAMES, POSSESSIVE_PATTERN

__all__ = ["person_verb_names", "person_context_names"]

_SAY = (r"(?:said|says|told|tells|thinks|thought|drove|drives|wants|wanted|knows|knew|mentioned|mentions|suggested|"
        r"suggests|asked|asks|reckons|reckoned|rang)")
#: a capitalised subject of a verb only a person does ("Per thinks", "Echo at the front desk said")
_SUBJECT = re.compile(rf"({CAPITAL_START}[a-z]+)(?:[ \t]+(?:at|from)[ \t]+(?:the|my|his|her|our|their|your)"
                      rf"[ \t]+[a-z]+(?:[ \t]+[a-z]+)?)?[ \t]+({_SAY})\b")
#: what an organisation does not do: a common word before it is a person ("Per thinks", "Sunday drove"; an office
#: says, tells, wants and asks: "Insurance said it was not covered")
_THINK = frozenset("thinks thought drove drives knows knew reckons reckoned".split())
#: "Did X tell you", "Will X call", "How is X doing", "How's X doing"
_QUESTION = re.compile(r"(?<![\w'’\-])(?:(?:[Dd]id|[Dd]oes|[Hh]as|[Ww]ill|[Ww]ould|[Cc]an|[Cc]ould|[Ss]hould)[ \t]+"
                       r"([A-Za-z]+)[ \t]+(tell|say|mention|know|think|call|ask|drive|bring|pick)\b|"
                       r"[Hh]ow(?:[ \t]+is|[ \t]+was|['’]s)[ \t]+([A-Za-z]+)[ \t]+(doing|holding|feeling)\b)")
#: in a question, what an office does not do ("Does Per know", "How is Per doing"; not "Will Insurance call you")
_QUESTION_THINK = frozenset("know think drive doing holding feeling".split())


def _both_cases(words: str) -> tuple[str, ...]:
    """Each word in lower case and capitalised: the literals a scan's every match starts with
    (:func:`.text_scan.anchored_finditer`)."""
    return tuple(w for word in words.split() for w in (word, word.capitalize()))


#: what every match of :data:`_QUESTION` starts with
_QUESTION_START = _both_cases("did does has will would can could should how")

SentenceStart = Callable[[str, int], bool]


def person_verb_names(text: str, sentence_start: SentenceStart, cased_ok: Callable[[str, Tok], str | None],
                      lower_ok: Callable[[str, Tok], bool]) -> list[Tok]:
    """The words of ``text`` in the module's slots: a capitalised word (``"Per"``, not ``"PER"``) that
    ``cased_ok(text, t)`` allows (``"name"``; ``"word"``: a common word no gazetteer holds, the subject only of a
    verb of thinking or driving, :data:`_THINK`), or in a question a lower-case word that ``lower_ok(text, t)``
    allows."""
    out: list[Tok] = []
    for m in _SUBJECT.finditer(text):
        word = m.group(1)
        if sentence_start(text, m.start(1)):
            t = Tok(m.start(1), m.end(1), word, fold(word).lower())
            k = cased_ok(text, t)
            if k == "name" or k == "word" and m.group(2) in _THINK:
                out.append(t)
    for m in anchored_finditer(_QUESTION, text, _QUESTION_START):
        g = 1 if m.group(1) is not None else 3
        word = m.group(g)
        t = Tok(m.start(g), m.end(g), word, fold(word).lower())
        if len(word) < 2:
            continue
        if word[0].isupper() and word[1:].islower():
            k = cased_ok(text, t)
            if k == "name" or k == "word" and m.group(g + 1) in _QUESTION_THINK:
                out.append(t)
        elif word.islower() and lower_ok(text, t):
            out.append(t)
    return out


#: a verb of telling, or of sending or giving and what is sent (one to three words), "to", then the word before the
#: clause's end or a preposition: the one told or given to is a person ("I talked to Costa on the phone", "fax the
#: results to Brown .", "according to Brown ,"; not "I was sent to Mercy")
_TOLD_TO = re.compile(r"(?<![\w'’\-])(?:(?:[Ss]ent|[Ss]end|[Ff]axed|[Ff]ax|[Gg]ave|[Gg]ive)(?:[ \t]+[a-z]+){1,3}?|"
                      r"[Tt]alk|[Tt]alked|[Tt]alking|[Ss]poke|[Ss]peak|[Ss]peaking|[Ss]poken|[Mm]entioned|[Ee]xplained|"
                      r"[Ww]rote|[Aa]ccording|[Ll]istened|[Ll]isten|[Rr]eached[ \t]+out|[Mm]arried)"
                      r"[ \t]+to[ \t]+([A-Za-z]+)"
                      r"(?=[ \t]*(?:[.,!?;:]|\n|$)|[ \t]+(?:on|at|in|if|about|and|for|yesterday|today|again|when|last|"
                      r"this|next)\b)")
#: in cased text, a capitalised word right before "who", or before "and my son", "or her husband": a person ("It
#: was Per who noticed", "I came in with Beat and my son"; in lower case "a peloton who", "my calendar and i")
_WHO = re.compile(rf"({CAPITAL_START}[a-z]+)[ \t]+who\b")
_WITH_A_PERSON = re.compile(rf"({CAPITAL_START}[a-z]+)[ \t]+(?:and|or)[ \t]+{POSSESSIVE_PATTERN}"
                            r"([a-z\-]+)\b")
#: the one seen for a treatment: a clinician ("I've been seeing Schmidt for physical therapy", "saw moore for my knee")
_SEEING_FOR = re.compile(r"(?<![\w'’\-])(?:[Ss]eeing|[Ss]ee|[Ss]aw|[Ss]een)[ \t]+([A-Za-z]+)[ \t]+for\b")
#: what every match of :data:`_TOLD_TO` and :data:`_SEEING_FOR` starts with
_TOLD_TO_START = _both_cases("sen fax gav giv talk spo spea mentioned explained wrote according listen reached married")
_SEEING_START = _both_cases("see saw")


def person_context_names(text: str, cased_ok: Callable[[str, Tok], str | None], lower_ok: Callable[[str, Tok], bool],
                         relatives: frozenset[str]) -> list[Tok]:
    """The words of ``text`` that stand where a person is told, given to, or named with "who" or with a relative
    (:data:`_TOLD_TO`, :data:`_WHO`, :data:`_WITH_A_PERSON`): a capitalised word ``cased_ok`` allows, no day's name
    ("talked to Costa on the phone", "It was Per who", "with Beat and my son"; not "moved it to Sunday"), or after a
    verb of telling a lower-case word ``lower_ok`` allows ("i talked to omar on the phone")."""
    out: list[Tok] = []
    found = [(m, 1) for m in anchored_finditer(_TOLD_TO, text, _TOLD_TO_START)] + [(m, 1) for m in _WHO.finditer(text)]
    found += [(m, 1) for m in anchored_finditer(_SEEING_FOR, text, _SEEING_START)]
    found += [(m, 1) for m in _WITH_A_PERSON.finditer(text) if m.group(2) in relatives]
    for m, g in found:
        word = m.group(g)
        if len(word) < 2:
            continue
        t = Tok(m.start(g), m.end(g), word, fold(word).lower())
        if t.key in DAY_NAMES:
            continue
        if word[0].isupper() and word[1:].islower():
            if m.start(g) > 0 and cased_ok(text, t) is not None:
                out.append(t)
        elif word.islower() and lower_ok(text, t):
            out.append(t)
    return out
