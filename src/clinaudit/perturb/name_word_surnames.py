"""A surname that is a common English adjective, noun or verb, right after a given name found, where what stands
before the given name and after the word leaves room only for a whole name (issue 50, sixteenth session:
``benchmarks/deid_dev35.py``). :mod:`.name_surname_after` takes a word after a given name found only when the surname
gazetteer lists it and a person's verb or the name's end follows; so "kirsty main rang", "is kirsty proud your
sister-in-law ?", "has bronwyn broad been in touch ?", "i go to church with euan chambers on sundays", "we had ailsa
swallow round for dinner" kept the surname, and UK, Irish and Scottish surnames are very often such words ("Main",
"Broad", "Cross", "Page" are in no gazetteer of surnames; "Chambers", "House", "Strange" are, with no place that
reads them). A word that English writes after a person's given name ("is sarah keen on", "i gave trevor a ring",
"kirsty's main worry") is no surname there; what stands around it decides:

* **a clause's subject before what only a person does**: the given name opens a clause (a turn's or sentence's start,
  after a conjunction, a filler, "i think", "me and") and a person's verb follows the word ("kirsty main rang the
  surgery", "bronwyn broad popped in", "euan strange and her husband live", "darryl house from across the road has a
  key"): English puts no adjective, noun or verb between a subject and its verb (an adverb it does: "sarah then rang",
  "sarah finally rang": never a surname here);
* **a question's subject**: "is / was / has / did" opening a clause, the given name, the word, then what a person's
  name takes ("your", "the one", "been", "ever"): "is kirsty proud your sister-in-law ?", "has ailsa main been in
  touch ?" (not "is leanne keen on the idea ?": "on" follows an adjective);
* **after a preposition or "me and"**, before a place or time ("on sundays", "in a flat", "at christmas", "as well",
  "most weekends") or the name's end: "i go to church with euan chambers on sundays", "can you send a copy to fergal
  ring as well ?", "i stay over with ailsa main at christmas";
* **the object of a verb of asking, having round or putting down**: "i asked darryl house to pick up", "we had ailsa
  swallow round for dinner", "put kirsty crook down as your emergency contact".

* **the surname alone, in lower case** (a gazetteer surname that is such a word, no title or role): an answer to
  "who ?" before the end or "from" ("sorry , who ? oh , chambers , from the pharmacy"; not "oh , never mind"), "me and
  X went / were / have", "X and i went" at a clause's start (not "me and house work don't mix", "swallow and i
  choke"), "ask X , she'll know" (not "ask the chemist ,"), a home after "to / at / round" ("round to chambers's for
  tea", "at butler's for lunch"), "X's boy / husband" at a clause's start, "X from number twelve / across the road /
  next door" at a clause's start, "except X and her lad", "only X knows", "i've known X for years", "last name X ,".
  Not "the one who called was X": an adjective stands there too ("the one who called was strange").

The word: lower case or capitalised (not in capitals), three letters or more, a common English word (or a gazetteer
surname), no function, spoken, relative's, filler or person's verb word, no modal, adverb ("-ly", "home", "again",
"together"), inflected everyday form ("shopping", "pins"), day or month, clinical word but an ICD-10-CM index word of
a condition ("main", "ring"); the given name before it: a name found (any rule), one space between; never where the
detector says no person stands. Only the words right after a name found are read (a few a dialog), and for the bare
places the places of a few literals ("who ?", "me and ", " and i ", "ask ", "'s", " from ", "except ", "only ",
"known ", "name "), each with the words right around it. Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_surname_after import FILLERS, MODAL_VERBS, VERBS_AFTER_A_SURNAME as _PERSON_VERB_WORDS
from .name_clause_opens import CLAUSE_BREAK, OPENERS, opens_clause
from .name_frames import TITLE_WORDS
from .name_pronoun_pairs import AND, ME_AND, verbs
from .name_roles import ROLE_TITLES
from .name_tokens import S_BEFORE, WORD_END, Tok, starts_of
from .text_scan import places
from .name_word import word_facts
from .vocab import (DAY_NAMES, FUNCTION_WORDS, MONTH_NAMES, OPEN_SURNAMES, RELATIVES, SPOKEN_WORDS,
                    inflected_everyday, is_common, surnames)

__all__ = ["bare_word_surnames", "may_be_word_surname", "word_surnames"]

_W = WORD_END
#: adverbs and time words the function words leave out: between a subject and its verb, never a surname
_ADVERBS = frozenset("""once twice first last home back away alone together too also again still ever never always
    usually sometimes often recently lately early late later soon today tonight yesterday tomorrow now then there here
    anyway instead either neither else even just only really very quite already yet ago since meanwhile afterwards
    straight right sure maybe perhaps probably definitely round over off out up down in on upstairs downstairs outside
    inside indoors outdoors abroad nearby overnight everywhere somewhere anywhere nowhere earlier sooner less more most
    least second next better worse best""".split())
#: after the word, the given name opening a clause: a person's verb ("rang", "popped in"), "and her husband", "from
#: across the road"
_SUBJECT_NEXT = re.compile(
    r"[ \t]+(?:rang|phoned|texted|emailed|popped|dropped|drove|brought|picked|took|came|said|says|told|tells|lives|lived|"
    r"works|worked|helped|helps|visited|visits|sorted|booked|gave|sent|called|rings|calls|(?P<weak>has|had|is|was|does|did)|"
    r"looks[ \t]+after|looked[ \t]+after|knows|knew|thinks|thought|reckons|used[ \t]+to|"
    r"and[ \t]+(?:her|his|their)[ \t]+(?:husband|wife|partner|kids|children|son|daughter|boyfriend|girlfriend|mum|dad|"
    r"mother|father|family|lad|boy|girl)|"
    r"from[ \t]+(?:across|next[ \t]+door|down[ \t]+the|up[ \t]+the|over[ \t]+the|number|church|work))" + _W)
#: after the word, the given name after "is / was / has / did" opening a question
_QUESTION_NEXT = re.compile(r"[ \t]+(?:your|his|her|their|our|my|the[ \t]+one|been|ever|still[ \t]+your)" + _W)
_QUESTION_AUX = frozenset("is was has did does".split())
#: after the word, the given name after a preposition or "me and": a place, a time or the name's end
_PLACE_NEXT = re.compile(
    r"[ \t]*(?:[.,!?;]|\n|$)|[ \t]+(?:on|in|at|as[ \t]+well|for|every|most|over|during|this|last|next|when|from)" + _W)
_PREPOSITIONS = frozenset("with to from for by about and".split()) | frozenset(
    "partner friend neighbour neighbor boss carer husband wife".split())
_COPULAS = frozenset("is was".split())
_THAT = frozenset("that it this here there who".split())
_END = re.compile(r"[ \t]*(?:[.,!?;]|\n|$)")
#: before the given name: a verb whose object it is, and what follows the word then
_OBJECT_VERBS = frozenset("asked ask told tell had have put get got".split())
#: after the word, the given name after "me and" ("me and [kirsty] main walk the dog")
_WE_NEXT = re.compile(r"[ \t]+" + verbs("walk", "walked", "go", "are", "get", "got", "used to", "always", "usually",
                                         "often") + _W)
_OBJECT_NEXT = re.compile(r"[ \t]+(?:to[ \t]+[a-z]|round|over[ \t]+for|down[ \t]+as)")
#: before the given name: a verb of seeing or visiting (the word a gazetteer surname), then a place or a time
_SEEING = frozenset("seeing see saw seen visit visiting visited met meet meeting".split())
_SEEN_NEXT = re.compile(r"[ \t]+(?:at|every|on|in|since|last|this|next)" + _W)
#: words that open a clause before its subject ("so [kirsty] main rang"): the shared openers and this rule's own,
#: "when", "also", a verb of saying or thinking ("i think [kirsty] main has")
_OPENERS = OPENERS | frozenset("when also think thought reckon said says apparently".split())


@lru_cache(maxsize=8192)
def may_be_word_surname(key: str) -> bool:
    """``key`` (lower case) may be a surname that is a common English word: the module's docstring."""
    if len(key) < 3 or not key.isalpha() or key in FUNCTION_WORDS and key not in OPEN_SURNAMES or key in SPOKEN_WORDS \
            or key in RELATIVES \
            or key in FILLERS or key in MODAL_VERBS or key in _ADVERBS or key in _PERSON_VERB_WORDS or key.endswith("ly") \
            or key in DAY_NAMES or key in MONTH_NAMES:
        return False
    if not (is_common(key) or key in surnames()) or inflected_everyday(key) and key not in surnames():
        return False
    return word_facts(key).clinical in (None, "condition")


def _clause_opens(text: str, toks: Sequence[Tok], g: int) -> bool:
    """The given name ``toks[g]`` opens a clause: a boundary, an opener or "me and" before it."""
    if opens_clause(text, toks, g, _OPENERS):
        return True
    return g > 1 and toks[g - 1].key == "and" and toks[g - 2].key in ("me", "you", "him", "her", "us")


def _place(text: str, toks: Sequence[Tok], g: int, end: int) -> bool:
    """What stands around the given name ``toks[g]`` and after its word (ending at ``end``) leaves room only for a
    whole name."""
    subject = _SUBJECT_NEXT.match(text, end)
    if subject and (not subject.group("weak") or toks[g + 1].key in surnames()) and _clause_opens(text, toks, g):
        return True
    if not g:
        return False
    before, gap = toks[g - 1].key, text[toks[g - 1].end:toks[g].start]
    opens = opens_clause(text, toks, g - 1, _OPENERS)
    if before in _QUESTION_AUX and opens and _QUESTION_NEXT.match(text, end):  # "is [kirsty] proud your"
        return True
    if before == "and" and g > 1 and toks[g - 2].key == "me" and _WE_NEXT.match(text, end):  # "me and [kirsty] main walk"
        return True
    if CLAUSE_BREAK.search(text, toks[g - 1].end, toks[g].start):
        return False
    if before in _PREPOSITIONS and _PLACE_NEXT.match(text, end):  # "with [euan] chambers on sundays"
        return True
    if (before in _COPULAS and not opens or before in _THAT and S_BEFORE.match(gap)) and _END.match(text, end):  # "is [kirsty] proud ."
        return True
    if before in _SEEING and toks[g + 1].key in surnames() and _SEEN_NEXT.match(text, end):  # "seeing [kirsty] keen at"
        return True
    return before in _OBJECT_VERBS and _OBJECT_NEXT.match(text, end) is not None


def word_surnames(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                  no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words right after a one-word given name of ``found`` (spans) that are its surname (the module's
    docstring)."""
    starts, ends = {s for s, _ in found}, {e for _, e in found}
    at = starts_of(toks)
    out: list[Tok] = []
    for i in sorted({i for s, e in found if (i := bisect_left(at, e)) < len(toks) and i and at[i - 1] == s}):
        t, g = toks[i], toks[i - 1]
        if g.end not in ends or t.start in starts or text[g.end:t.start] != " " or t.text.isupper() \
                or not may_be_word_surname(t.key) or g.key in RELATIVES or g.key in FUNCTION_WORDS:
            continue
        if _place(text, toks, i - 1, t.end) and not no_person_at(text, t.start, t.end):
            out.append(t)
    return out


#: the surname alone, lower case: an answer to "who ?" ("sorry , who ? oh , chambers , from the pharmacy")
_WHO_ANSWER = re.compile(r"[ \t]*(?:\n[ \t]*(?:\[[^\]\n]{1,40}\]|[a-z_ ]{1,30}:))?[ \t]*(?:(?:sorry|oh|um|uh|er|erm|"
                         r"yeah|yes|ah|well|it[ \t]+was|it['’]s|that[ \t]+was|that['’]s)[ \t]*,?[ \t]*)*"
                         r"(?P<w>[a-z]+)(?:[ \t]*(?:[.,!?]|\n|$)|[ \t]+from" + _W + ")")
#: "me and X went", "X and i went": the verb after the pair, the shared pair verbs and this rule's own ("used to",
#: not "used"; "get", "drove", "came", "come", "grew up", "met", "walk", "go", "are", "got")
_PAIR_VERB = re.compile(r"[ \t]+" + verbs("go", "are", "used to", "got", "get", "walk", "walked", "drove", "came", "come",
                                           "grew up", "met") + _W)
_ME_AND = re.compile(ME_AND + r"(?P<w>[a-z]+)")
_AND_I = re.compile(r"(?P<w>[a-z]+)" + AND + r"i$")
#: "ask X , she'll know"
_ASK = re.compile(r"ask[ \t]+(?P<w>[a-z]+)[ \t]*,[ \t]*(?:she|he|they)(?:['’]ll|['’]d|[ \t]+(?:will|would|knows|know|"
                  r"might|should|can))" + _W)
#: "round to X's for tea", "at X's place": a person's home after a place's preposition
_HOME_BEFORE = re.compile(r"(?:^|[ \t])(?:to|at|round|from|over)[ \t]+(?P<w>[a-z]+)$")
_HOME_AFTER = re.compile(r"['’]s(?:[ \t]*(?:[.,!?]|\n|$)|[ \t]+(?:for[ \t]+(?:tea|dinner|lunch|supper|christmas|the|a)|"
                         r"place|house|last|yesterday|tonight|every|on[ \t]+(?:sunday|saturday|friday)s?)" + _W + ")")
#: the surname alone before or after what only a person's name has: "X from number twelve found me" (at a clause's
#: start), "except X and her lad", "only X knows", "i've known X for years", "last name X ,"
_FROM_HOME = re.compile(r"(?P<w>[a-z]+)[ \t]+from[ \t]+(?:number|across[ \t]+the|next[ \t]+door|down[ \t]+the[ \t]+road|"
                        r"up[ \t]+the[ \t]+road|over[ \t]+the[ \t]+road)" + _W)
_EXCEPT = re.compile(r"(?:except|apart[ \t]+from|but)[ \t]+(?P<w>[a-z]+)[ \t]+and[ \t]+(?:her|his)[ \t]+[a-z]")
_ONLY = re.compile(r"only[ \t]+(?P<w>[a-z]+)[ \t]+(?:knows|knew|has[ \t]+got|remembers)" + _W)
_KNOWN = re.compile(r"known[ \t]+(?P<w>[a-z]+)[ \t]+(?:for[ \t]+(?:years|ages|a[ \t]+long[ \t]+time|donkey['’]s|[a-z]+[ \t]+years|"
                    r"\d+)|since[ \t]+(?:school|we|i|she|he|they|the[ \t]+war|primary|\d+))" + _W)
_LABEL = re.compile(r"(?:last[ \t]+name|surname|family[ \t]+name)[ \t]*(?::[ \t]*)?(?:is[ \t]+)?(?P<w>[a-z]+)[ \t]*(?:[.,;]|\n|$)")
#: "X's boy gave me a lift": a person's kin after a possessive at a clause's start
_KIN = frozenset("boy girl lad lass kids kid son daughter husband wife mum dad mother father partner".split())


def _bare_may_be(key: str) -> bool:
    """A bare lower-case word read as a surname: a gazetteer surname that is a common word (no title or role)."""
    return key in surnames() and may_be_word_surname(key) and key not in TITLE_WORDS and key not in ROLE_TITLES


def bare_word_surnames(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """Lower case: a surname that is a common word, alone where only a person stands: an answer to "who ?", "me and X
    went", "X and i went", "ask X , she'll know", "round to X's for tea", "X's boy gave me" at a clause's start."""
    at = starts_of(toks)
    hits: set[int] = set()  # where a word taken starts
    for q in (*places(text, "who ?"), *places(text, "who?")):
        if (q == 0 or not text[q - 1].isalpha()) and (m := _WHO_ANSWER.match(text, q + (5 if text[q + 3] == " " else 4))) \
                and _bare_may_be(m.group("w")):
            hits.add(m.start("w"))
    for p in places(text, "me and "):
        if (m := _ME_AND.match(text, p)) and _bare_may_be(m.group("w")) and _PAIR_VERB.match(text, m.end()) \
                and (p == 0 or not text[p - 1].isalpha()):
            hits.add(m.start("w"))
    for p in places(text, " and i "):
        if (m := _AND_I.search(text, max(0, p - 30), p + 6)) and _bare_may_be(m.group("w")) \
                and _PAIR_VERB.match(text, p + 6) and CLAUSE_BREAK.search(text, max(0, m.start() - 40), m.start()):
            hits.add(m.start("w"))
    for p in places(text, "ask "):
        if (m := _ASK.match(text, p)) and _bare_may_be(m.group("w")) and (p == 0 or not text[p - 1].isalpha()):
            hits.add(m.start("w"))
    for literal, pattern in (("except ", _EXCEPT), ("apart from ", _EXCEPT), ("but ", _EXCEPT), ("only ", _ONLY),
                             ("known ", _KNOWN), ("name ", _LABEL), ("surname ", _LABEL), ("surname:", _LABEL)):
        for p in places(text, literal):
            q = p - 5 if literal == "name " else p
            if q >= 0 and (m := pattern.match(text, q)) and _bare_may_be(m.group("w")) \
                    and (q == 0 or not text[q - 1].isalpha()):
                hits.add(m.start("w"))
    for p in places(text, " from "):
        w = re.search(r"(?:^|(?<=[^a-z]))([a-z]+)$", text[max(0, p - 30):p])
        if w and _bare_may_be(w.group(1)) and _FROM_HOME.match(text, p - len(w.group(1))):
            s = p - len(w.group(1))
            if CLAUSE_BREAK.search(text, max(0, s - 40), s):
                hits.add(s)
    for p in (*places(text, "'s"), *places(text, "’s")):
        if not _HOME_AFTER.match(text, p) and not (p + 3 < len(text) and text[p + 2] == " "):
            continue
        m = _HOME_BEFORE.search(text, max(0, p - 40), p)
        if m and _HOME_AFTER.match(text, p) and _bare_may_be(m.group("w")):
            hits.add(m.start("w"))
            continue
        w = re.search(r"(?:^|(?<=[^a-z]))([a-z]+)$", text[max(0, p - 30):p])
        nxt = re.match(r"['’]s[ \t]+([a-z]+)", text[p:p + 20])
        if w and nxt and nxt.group(1) in _KIN and _bare_may_be(w.group(1)):
            s = p - len(w.group(1))
            if CLAUSE_BREAK.search(text, max(0, s - 40), s):
                hits.add(s)
    out = []
    for s in sorted(hits):
        i = bisect_left(at, s)
        if i < len(toks) and at[i] == s and toks[i].text.islower() and not no_person_at(text, toks[i].start, toks[i].end):
            out.append(toks[i])
    return out
