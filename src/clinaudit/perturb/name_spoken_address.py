"""A given name addressed in speech with no punctuation around it (issue 50, nineteenth session): "hi billy how are
you", "hey there mark nice to see you", "so mark tell me about your elbow", "how have your sugars been running mark
have they been ...".

Real lower-case transcripts (ACI-Bench) write no comma between a greeting, the name it addresses and the clause that
follows; :mod:`.name_context`'s ``vocative`` takes a gazetteer name that is also a word only where its clause ends
after it ("hi billy , how are you"). Here the word is read by what it is and where it stands, never by a list of
names:

* **what**: a given name of the gazetteer that the word lists also call a word (the others are found without this
  rule), no function, demographic, relative's or clinical word, eponym, term of address ("honey", "doc", "buddy":
  :data:`.name_bare_person.ADDRESS_WORDS`, :data:`.name_person_only.NOT_ADDRESSED`), spoken filler
  (:data:`.vocab.SPOKEN_WORDS`) or adverb ("today", "overall", "lately");
* **where**, with only spaces around it: right after a greeting ("hi", "hey there", "good morning", "hi again",
  "welcome back", "nice to see you", "thank you"), or after an address opener that opens its clause ("so", "okay",
  "alright", "now", "well", "right", "listen", "sorry"; two in a row anywhere: "alright so"), or after a question to
  the listener ("how have you been sleeping X", "does that hurt X"); and right before a clause addressed to the listener:
  a pronoun of the speaker or the listener ("i", "i'm", "we'll", "let's", "you", "your"), a question word, an
  auxiliary before a pronoun ("have they", "should we"), a pleasantry ("good to see you", "nice", "long time",
  "thanks"), an instruction ("tell me", "come on in", "take a seat"). After a question only a new question or
  "any", "or", "when" follows; "hope", "wish", "bet", "mind", "bless", "trust" before "you" open a formula ("hope
  you feel better").

In cased text only a capitalised word is taken (a lower-case word there is a word: "so mark your calendar")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import compress

from .name_bare_person import ADDRESS_WORDS
from .name_frames import is_cased
from .name_person_only import NOT_ADDRESSED
from .name_tokens import Tok, keys_of
from .name_word import DETERMINERS, RELATIVES, SEP_SPACE, word_facts
from .vocab import POSSESSIVES, SPOKEN_WORDS, is_common

__all__ = ["spoken_address_names"]

#: what greets the listener right before the name ("hi X", "good morning X"); two-word greetings end in a word here
#: too ("hey there X", "hi again X", "welcome back X", "see you X", "thank you X": :data:`_GREETING_PAIRS`)
_GREETINGS = frozenset("hi hello hey hiya howdy morning afternoon evening welcome thanks congrats congratulations".split())
_GREETING_PAIRS = {"there": frozenset("hi hey hello".split()), "again": frozenset("hi hey hello".split()),
                   "back": frozenset(("welcome",)), "you": frozenset("see meet thank".split())}
#: what opens a clause addressed to the listener before the name ("so X tell me", "okay X i'm going to")
_OPENERS = frozenset("so okay ok alright right now well listen sorry".split())
#: what may stand before a greeting or an opener at the clause's start ("oh hi", "alright so hey", "okay great so")
_LEADS = _OPENERS | _GREETINGS | frozenset("oh and great good yes yeah".split())
#: the first word of a clause addressed to the listener, right after the name
_CLAUSE = frozenset("""i i'm i've i'll i'd we we're we'll we've let's you you're you've your how how's how're what
    what's when where why tell come take have let please good nice great glad thanks thank sorry long any did""".split())
#: an auxiliary that opens a question only before a pronoun ("X have they been", "X should we try")
_AUX = frozenset("do does did are is have has can could would will should shall".split())
_PRONOUNS = frozenset("i you we they it that he she".split())
#: after a question to the listener: a new question or its continuation ("... sleeping X any better", "X or")
_AFTER_QUESTION = frozenset("any or when how what".split())
#: what opens a question to the listener (the clause's first word)
_WH = frozenset("how what when where why".split())
_QUESTION = _WH | frozenset("does do did are have has is can could would will".split())
#: what stands before a noun of the question itself, never before a name addressed after it
_NOUN_BEFORE = DETERMINERS | POSSESSIVES | _WH | frozenset("which whose of in on at to for with from about by".split())
#: greetings that are also times of day ("this morning X", "in the evening X")
_TIMES = frozenset("morning afternoon evening".split())
#: verbs that open a formula said to the listener before "you" ("hope you feel better", "bless you", "mind you")
_YOU_FORMULAS = frozenset("hope wish bet mind bless trust".split())
#: adverbs and fillers of speech that stand where a name does ("hi again", "so anyway", "well today")
_ADVERBS = frozenset("""today tonight tomorrow yesterday anyway anyhow overall again then though now next first also
    still already just really basically generally honestly anyways""".split())
_NOT_NAMES = ADDRESS_WORDS | NOT_ADDRESSED | SPOKEN_WORDS | RELATIVES | _ADVERBS
_TRIGGERS = _GREETINGS | frozenset(_GREETING_PAIRS) | _OPENERS
_STOP = re.compile(r"[.!?:\]\n]")


def _candidate(key: str) -> bool:
    """A gazetteer given name that the lists also call a word, of none of the kinds a name is not."""
    if len(key) < 2 or key in _NOT_NAMES or not key.isalpha() or _adverb(key):
        return False
    w = word_facts(key)
    return w.first and w.common and not (w.function or w.demographic or w.eponym) and w.clinical is None


def _adverb(key: str) -> bool:
    """An adverb of a common word and "-ly" ("lately", "lovely"; not "billy", "carly": "bil", "car" are too short to
    be the word's stem)."""
    return key.endswith("ly") and len(key) >= 6 and is_common(key[:-2])


def _space(text: str, a: Tok, b: Tok) -> bool:
    return bool(SEP_SPACE.fullmatch(text, a.end, b.start))


def _opens(text: str, toks: Sequence[Tok], keys: Sequence[str], k: int) -> bool:
    """``toks[k]`` opens its clause: a line, a turn or a sentence starts before it, or only lead words do."""
    while True:
        gap = text[toks[k - 1].end if k else 0:toks[k].start]
        if k == 0 or _STOP.search(gap) or gap.strip()[-1:] == ",":
            return True
        if gap.strip() or keys[k - 1] not in _LEADS:
            return False
        k -= 1


def _clause_after(text: str, toks: Sequence[Tok], keys: Sequence[str], i: int, question: bool) -> bool:
    """A clause to the listener starts right after ``toks[i]`` (only a space between)."""
    j = i + 1
    if j >= len(toks) or not _space(text, toks[i], toks[j]):
        return False
    nxt = keys[j]
    if keys[i] in _YOU_FORMULAS and nxt.startswith("you"):
        return False
    if question:
        return nxt in _AFTER_QUESTION or nxt in _AUX and j + 1 < len(toks) and keys[j + 1] in _PRONOUNS
    return nxt in _CLAUSE or nxt in _AUX and j + 1 < len(toks) and keys[j + 1] in _PRONOUNS


def _greeted(text: str, toks: Sequence[Tok], keys: Sequence[str], i: int) -> bool:
    """A greeting, or an address opener that opens its clause, stands right before ``toks[i]``. Run-on speech puts
    no stop before a greeting ("... elbow pain so hey there X nice to see you"): a greeting is one wherever it
    stands, but "morning", "afternoon", "evening" after "good" or opening their clause ("this morning" is a time); a
    single opener opens its clause, two in a row ("alright so X your exam is") are one anywhere."""
    k = i - 1
    key = keys[k]
    if key in _GREETING_PAIRS:
        return k > 0 and keys[k - 1] in _GREETING_PAIRS[key] and _space(text, toks[k - 1], toks[k])
    if key in _GREETINGS:
        return key not in _TIMES or k > 0 and keys[k - 1] == "good" or _opens(text, toks, keys, k)
    return k > 0 and keys[k - 1] in _LEADS and _space(text, toks[k - 1], toks[k]) or _opens(text, toks, keys, k)


def _questioned(text: str, toks: Sequence[Tok], keys: Sequence[str], i: int) -> bool:
    """A question to the listener stands right before ``toks[i]`` ("how have you been sleeping X", "does that hurt
    X", "... so how have your sugars been running X"; not "what beach did you go to": a determiner, a possessive, a
    question word or a preposition right before is the question's own noun's): within 10 words back, no stop between, a word that opens a
    question and opens its clause (or follows a lead word: "so how"), with "you" or "your" after it where it is a
    question word."""
    if keys[i - 1] in _NOUN_BEFORE:  # "what beach did you go to", "which lake do you fish": the question's noun
        return False
    for k in range(i - 2, max(-1, i - 11), -1):
        if _STOP.search(text, toks[k].end, toks[k + 1].start) or "," in text[toks[k].end:toks[k + 1].start]:
            return False
        if keys[k] in _QUESTION and (k > 0 and keys[k - 1] in _LEADS and _space(text, toks[k - 1], toks[k])
                                     or _opens(text, toks, keys, k)):
            return keys[k] not in _WH or any(keys[m] in ("you", "your") for m in range(k, i))
    return False


def spoken_address_names(text: str, toks: Sequence[Tok]) -> list[Tok]:
    """The given names addressed with no punctuation around them (the module's docstring)."""
    keys = keys_of(toks)
    cands = {k for k in set(keys) if _candidate(k)}
    if not cands:
        return []
    cased = is_cased(text)
    out: list[Tok] = []
    for i in compress(range(len(toks)), map(cands.__contains__, keys)):
        t = toks[i]
        if i == 0 or cased and not t.capital or not _space(text, toks[i - 1], t):
            continue
        if keys[i - 1] in _TRIGGERS and _greeted(text, toks, keys, i) and _clause_after(text, toks, keys, i, False):
            out.append(t)
        elif _clause_after(text, toks, keys, i, True) and _questioned(text, toks, keys, i):
            out.append(t)
    return out
