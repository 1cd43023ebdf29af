"""A gazetteer name that is a common English word, alone and in lower case, where the predicate around it is one only
a person takes (issue 50, sixteenth session: ``benchmarks/deid_dev38.py``). Every lower-case rule before this one
reads a list of frames ("X says", "ask X to", "me and X went"); a form outside its list lost a bare word-name: "basil
was lovely with me after the operation", "rook wouldn't let me walk home", "heron and the grandkids were round",
"i'll have to check with gosling first", "that was jay on the phone just now", "i got bliss ringing round for a bed".
What decides here is what the word is and what English says of it:

* **the word**: in lower case, in the first-name or surname gazetteer, a common word (or a gazetteer surname) that
  :func:`.name_word_surnames.may_be_word_surname` allows (no function, spoken, relative's, filler, modal, adverb,
  person's verb, day or month word), no clinical word at all, no mass noun, food, drink, season or weather word
  (:data:`.name_everyday_places.MASS`), no word :data:`.name_guarded_words.NOT_PERSONS` keeps, no title or role;
* **the predicate**: the word opening a clause (a turn's or sentence's start, after "and / so / but / oh / well")
  before what only a person is or does: an adjective of manner or feeling said *with me / to me* ("was lovely with
  me", "was ever so patient with me", "has been so good to me"; not "basil is lovely with tomatoes"), a negative
  modal before a person's verb ("can't come", "couldn't get", "wouldn't let", "hasn't been herself"; not "rosemary
  won't grow"), a person's kin joined to it ("and the kids", "and her husband"; not "heather and the gorse"), a
  relative *who* ("X , who lives upstairs"), "sends her love", "is worried sick";
* **a person's object**: "check / speak / talk with X first / about", "waiting on / for X to pick me up", "got X
  ringing / fetching" (a person's errand; not "got basil growing");
* **who was there**: "that was / it was X on the phone / at the door / just now / last week" (not "that was heron on
  the pond", "that was bold of him"), "at X's when / for a cuppa" as a home. Not "the one who found me was X":
  an adjective stands there as often ("the one who called was strange"; "strange", "keen", "gentle" are given names).

Only tokens whose word passes the test above are read (a few a dialog), each with the words right around it (a bounded
match at the token's end, and the one to three words before it): linear in the text. Capitalised and upper-case words
are other rules' (the cased rules find "Basil was lovely"). Used by :mod:`.name_detect` (source ``rule``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_clause_opens import opens_clause
from .name_everyday_places import MASS
from .name_frames import TITLE_WORDS
from .name_guarded_words import NOT_PERSONS
from .name_roles import ROLE_TITLES
from .name_tokens import Tok, key_indices, keys_of
from .name_word import word_facts
from .name_word_surnames import may_be_word_surname
from .vocab import first_names, plural_of_common, surnames

__all__ = ["may_be_predicate_name", "person_predicate_names", "predicate_place"]

_W = r"(?![\w'’\-])"
_S = r"[ \t]+"
_SEASONS = frozenset("spring summer autumn winter fall christmas easter".split())
_DEGREE = r"(?:(?:really|so|ever|very|quite|always|being|a[ \t]+bit|too|just|that|such|been|not|never)" + _S + r"){0,3}"
#: "couldn't come quick / soon / fast enough" is said of a time or a thing longed for ("dawn couldn't come quick
#: enough", "the weekend can't come soon enough"), not of a person who cannot come
_SOON_ENOUGH = r"(?![ \t]+(?:quick|quicker|quickly|soon|sooner|fast|faster)[ \t]+enough" + _W + r")"
#: after the word opening a clause: what only a person is or does
_BE = r"(?:['’]s|" + _S + r"(?:is|was|were|has|had|'s))"
_SUBJECT_NEXT = re.compile(
    r"(?:" + _BE + r"(?:" + _S + r"been)?" + _S + _DEGREE + r"[a-z]+" + _S + r"(?:with|to)" + _S
    + r"(?:me|us|him|her|them|everyone|everybody|my[ \t]+[a-z]+|mum|dad|the[ \t]+(?:kids|patients|staff))" + _W
    + r"|" + _BE + _S + r"(?:worried[ \t]+sick|beside[ \t]+(?:her|him)self|out[ \t]+of[ \t]+(?:her|his)[ \t]+mind)" + _W
    + r"|" + _S + r"(?:can['’]?t|cannot|won['’]?t|wouldn['’]?t|couldn['’]?t|didn['’]?t|doesn['’]?t|shouldn['’]?t|"
    r"never)" + _S + r"(?P<verb>[a-z]+)" + _W + _SOON_ENOUGH
    + r"|" + _S + r"(?:hasn['’]?t|hadn['’]?t|isn['’]?t|wasn['’]?t)" + _S + r"(?:been" + _S + r")?"
    r"(?:herself|himself|themselves|well|in[ \t]+touch|round|the[ \t]+same|able[ \t]+to|coping|answering|sleeping)" + _W
    + r"|" + _S + r"and" + _S + r"(?:the|her|his|my|their|our)" + _S + r"(?:kids|grandkids|children|grandchildren|"
    r"boys|girls|lads|twins|family|husband|wife|partner|kid|baby|son|daughter|mum|dad|mother|father|boyfriend|"
    r"girlfriend|fella|missus)" + _W + r"(?![ \t]*['’])"
    + r"|[ \t]*,[ \t]*who" + _S + r"(?:lives|lived|works|worked|is|was|has|had|comes|came|used|helps|helped|looks|"
    r"does|did|drove|drives|brought|brings)" + _W
    + r"|" + _S + r"(?:sends|sent)" + _S + r"(?:her|his|their)" + _S + r"(?:love|regards|best)" + _W + r")")
#: a person's verbs after a negative modal ("can't come", "wouldn't let me")
_PERSON_BASE = frozenset("""come get let drive walk make remember stop cope manage stand wait stay talk speak answer
    hear believe understand afford bear face visit help ring phone call text pick collect leave find tell say do
    go see sleep eat cook work lift reach bend cope""".split())
#: after "check with" / "waiting on": what follows a person asked or waited on
_ASKED_BEFORE = re.compile(r"(?:check|checked|checking|speak|spoke|speaking|talk|talked|talking|sort[ \t]+it[ \t]+out)"
                           r"[ \t]+(?:with|to)[ \t]+$|(?:wait|waiting|waited)[ \t]+(?:on|for)[ \t]+$")
_ASKED_NEXT = re.compile(r"[ \t]+(?:first|about|if|whether|before)" + _W + r"|[ \t]+to[ \t]+(?:pick|come|call|ring|get|"
                         r"bring|collect|drive|phone|text|sort|arrive|turn|tell|say|answer|reply|take|fetch)" + _W)
_GOT_BEFORE = re.compile(r"(?:^|[ \t])(?:got|get|gets|getting|had|have)[ \t]+$")
_GOT_NEXT = re.compile(r"[ \t]+(?:ringing|phoning|calling|texting|fetching|sorting|helping|cooking|cleaning|driving|"
                       r"picking|checking|chasing|asking|shopping|writing|typing|emailing|hoovering|ironing)" + _W)
_THAT_WAS_BEFORE = re.compile(r"(?:^|[^\w'’])(?:that|it)[ \t]+was[ \t]+$|(?:^|[^\w'’])that['’]s[ \t]+$")
_THAT_WAS_NEXT = re.compile(r"[ \t]+(?:on[ \t]+the[ \t]+(?:phone|line|blower)|at[ \t]+the[ \t]+(?:front[ \t]+|back[ \t]+)?door|"
                            r"just[ \t]+now|earlier|last[ \t]+(?:week|night|time|month)|yesterday|this[ \t]+(?:morning|"
                            r"afternoon)|ringing|calling|texting)" + _W)
_HOME_BEFORE = re.compile(r"(?:^|[ \t])(?:at|to|round|from)[ \t]+$")
_HOME_NEXT = re.compile(r"['’]s[ \t]+(?:when|while|for[ \t]+a[ \t]+(?:cuppa|brew|coffee|cup|drink|bite|sleepover|few)|"
                        r"overnight|for[ \t]+the[ \t]+(?:night|weekend))" + _W)


@lru_cache(maxsize=8192)
def may_be_predicate_name(key: str) -> bool:
    """``key`` (lower case) may be a bare gazetteer name that is a common word: the module's docstring."""
    if key not in first_names() and key not in surnames():
        return False
    if key in MASS or key in NOT_PERSONS or key in TITLE_WORDS or key in ROLE_TITLES or key in _SEASONS \
            or plural_of_common(key) or not may_be_word_surname(key):
        return False
    return word_facts(key).clinical is None


def predicate_place(text: str, toks: Sequence[Tok], i: int) -> bool:
    """The word ``toks[i]`` stands where the predicate around it is a person's (the module's docstring; also read by
    :mod:`.name_eponym_persons`)."""
    t = toks[i]
    before = text[max(0, t.start - 40):t.start]
    if opens_clause(text, toks, i, spaced=True) and (m := _SUBJECT_NEXT.match(text, t.end)) \
            and (m.group("verb") is None or m.group("verb") in _PERSON_BASE):
        return True
    if _ASKED_BEFORE.search(before) and _ASKED_NEXT.match(text, t.end):
        return True
    if _GOT_BEFORE.search(before) and _GOT_NEXT.match(text, t.end):
        return True
    if _THAT_WAS_BEFORE.search(before) and _THAT_WAS_NEXT.match(text, t.end):
        return True
    return bool(_HOME_BEFORE.search(before) and _HOME_NEXT.match(text, t.end))


def person_predicate_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """Lower case: a bare gazetteer name that is a common word where the predicate around it is a person's (the
    module's docstring)."""
    wanted = {k for k in set(keys_of(toks)) if may_be_predicate_name(k)}
    out: list[Tok] = []
    for i in key_indices(toks, wanted):  # only the places of those words (no step in Python for the others)
        t = toks[i]
        if not t.text.islower():
            continue
        if predicate_place(text, toks, i) and not no_person_at(text, t.start, t.end):
            out.append(t)
    return out
