"""A person named after a role, a job or a relative, without a title of address (issue 50, seventh session): names
the lists hold as words ("Fox", "Street", "Long", "Lamb") or as a condition or drug word ("Bednar", "Pap") are
found where the words before them say a person stands.

* :func:`role_names` — a role used as a title: "Coach", "Officer", "Nurse", "Pastor", "Sergeant", "Judge", ... (
  :data:`ROLE_TITLES`). In cased text, written with a capital right before a capitalised word (one space): that word
  is a name when it is a gazetteer name (even one the lists call a word, a condition or a drug: "Coach Fox", "Nurse
  Lamb", "Sergeant Bednar") or a word no list calls common, not "Nurse Navigator", "Officer Training" (nor, so,
  "Officer Street"), and the role stays a word (not taken beside the name); in lower case, with no determiner or
  possessive before the role ("the nurse", "my coach" are roles), a gazetteer name English text uses less than Zipf
  :data:`ROLE_ZIPF` ("nurse come in", "nurse check you", "nurse set up" stay: verbs, all frequent), a rare word no
  gazetteer nor English lexicon holds ("coach sulu", "auntie eti") or "young" before no person's noun
  (:func:`.name_neighbour_words.open_surname`; twenty-seventh session), before a verb of :data:`_AFTER`, "who",
  "from", "at" or the clause's end ("coach fox had us running laps", "officer lamb found me").
* :func:`relative_names` — in lower case, after a possessive and a relative, friend or co-worker
  (:data:`.name_word.RELATIVES`, also "landlord"), such a name before a verb of :data:`_AFTER` or a past tense in
  "-ed" ("my coworker fox covered my shifts", "my neighbour lamb drove me"; not "my mom fell down": "fell" before no
  verb; "my son mark said" is taken as before).

Never a function, demographic, drug (unless a gazetteer name), specialty or facility word, an eponym, a relative's
or a spoken word, a clinical acronym, nor where no person stands (``no_person_at``). Used by :mod:`.name_detect`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import compress

from .name_neighbour_words import lower_foreign_word, open_surname
from .name_tokens import Tok, keys_of
from .name_word import RELATIVES, blocked, word_facts
from .vocab import POSSESSIVES, SPOKEN_WORDS, WORD_NAME_ZIPF, english_zipf, surnames

__all__ = ["ROLE_TITLES", "ROLE_ZIPF", "role_names", "relative_names", "set_off"]

#: roles used as a title before a name
ROLE_TITLES = frozenset("""coach officer nurse pastor reverend deacon rabbi imam sergeant sarge captain judge
    detective chaplain trooper deputy sheriff""".split())
#: how common in English text a lower-case word after a role may be ("fox" 4.66, "stone" 4.8; not "come", "check")
ROLE_ZIPF = 5.0
_POSSESSIVE = POSSESSIVES | frozenset("the a an that this".split())
#: what follows a person named after a role in lower case: a verb a person does, "who", where the person works
_AFTER = frozenset("""had has was is said says told tells found finds called calls came comes helped helps gave
    gives took takes checked checks drove drives thinks thought knows knew wants wanted asked asks brought brings
    made makes prayed prays ran runs works worked lives lived used would will could can did does who from at
    always never still also just""".split())
#: a relative's word used as a title in lower case, before a name and a person's verb ("aunt fern raised me")
_KIN_TITLES = frozenset("aunt auntie uncle grandma grandpa granny nana cousin".split())
_TITLES = ROLE_TITLES | _KIN_TITLES
_NEXT = re.compile(r"[ \t]*([a-z]+|[.,!?;:]|\n|$)")
_ROLE_OR_RELATIVE = ROLE_TITLES | RELATIVES | {"landlord", "landlady"}


def _word_may_be(key: str, cased: bool) -> bool:
    w = word_facts(key)
    if blocked(w) and not (w.clinical == "drug" and w.gazetteer and not (w.function or w.demographic or w.eponym)):
        return False
    if w.clinical not in (None, "condition", "drug") or key in RELATIVES or key in ROLE_TITLES or len(key) < 2:
        return False
    if cased:  # a gazetteer name or a word no list calls common: not "Nurse Navigator", "Officer Training"
        return key.isalpha() and (w.gazetteer or not w.common)
    # in lower case a gazetteer name, or a rare word no gazetteer nor English lexicon holds ("auntie eti raised me",
    # "coach sulu had us": :func:`.name_neighbour_words.lower_foreign_word`; not "nurse triage called"; issue 50,
    # twenty-seventh session)
    return (w.gazetteer or lower_foreign_word(key, w)) and key.isalpha() and key not in SPOKEN_WORDS \
        and english_zipf(key) < ROLE_ZIPF and not key.endswith(("ed", "ly", "ing"))


def _next_ok(text: str, t: Tok, past: bool) -> bool:
    """A verb of :data:`_AFTER` follows, or (``past``: after a relative) a past tense in "-ed", or (after a role) the
    clause's end."""
    m = _NEXT.match(text, t.end)
    if m is None:
        return False
    nxt = m.group(1)
    return nxt in _AFTER or (past and len(nxt) > 4 and nxt.endswith("ed") if past else not nxt.isalpha())


def role_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words right after a role used as a title (the module's docstring): "Officer [Street]", "coach [fox] had"."""
    out: list[Tok] = []
    for i in compress(range(len(toks) - 1), map(_TITLES.__contains__, keys_of(toks))):
        role, t = toks[i], toks[i + 1]
        if role.key not in ROLE_TITLES and not role.text.islower():
            continue  # "Aunt Fern": a title of the naming contexts'; "aunt fern raised me" here
        if not re.fullmatch(r"[ \t]", text[role.end:t.start]) or t.text.isupper() and len(t.text) > 1:
            continue
        if role.capital and t.capital and not role.text.isupper():
            ok = _word_may_be(t.key, cased=True)
        elif role.text.islower() and t.text.islower():  # "coach young had us" (a function word among surnames)
            ok = (i == 0 or toks[i - 1].key not in _POSSESSIVE) and (
                _word_may_be(t.key, cased=False) or role.key in ROLE_TITLES and open_surname(text, t)) \
                and (_next_ok(text, t, past=False) or _next_ok(text, t, past=True))  # "coach moss benched me"
        else:
            ok = False
        if ok and not no_person_at(text, t.start, t.end):
            out.append(t)
    return out


def relative_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """In lower case, the word after a possessive and a relative before a person's verb (the module's docstring):
    "my coworker [fox] covered my shifts", with a surname ("my sister [fern] [moss] came"); after "the" and a role or a job ("the nurse [moss] took my blood"), a word
    between ("my best friend [wren] said", "the night nurse [moss] took"); after a comma, such a name set off by a
    comma or ending the sentence ("my partner , [fern] [moss] .", "our foster son , [fern] , has")."""
    out: list[Tok] = []
    for i in compress(range(1, len(toks) - 1), map(_ROLE_OR_RELATIVE.__contains__, keys_of(toks)[1:])):
        rel, t = toks[i], toks[i + 1]
        own = _owner(text, toks, i)
        if own is None or not rel.text.islower() or own.key == "the" and rel.key not in _JOBS:
            continue
        gap = text[rel.end:t.start]
        if not own.text.islower():  # cased: "The physio, Bone, says" (:func:`set_off`)
            if re.fullmatch(r"[ \t]*,[ \t]*", gap):
                out += set_off(text, toks, i + 1, no_person_at, job=rel.key in _JOBS)
        elif re.fullmatch(r"[ \t]", gap):
            if not (t.text.islower() and (_word_may_be(t.key, cased=False) or open_surname(text, t)  # "my coworker young"
                                          or own.key in POSSESSIVES and _rare_word(t.key))) \
                    or no_person_at(text, t.start, t.end):
                continue
            if _verb_after(text, t, own.key):
                out.append(t)
            elif i + 2 < len(toks) and _surname_after(text, toks, i + 1) and _verb_after(text, toks[i + 2], own.key) \
                    and not no_person_at(text, toks[i + 2].start, toks[i + 2].end):
                out += [t, toks[i + 2]]  # "my sister [fern] [moss] came"
        elif re.fullmatch(r"[ \t]*,[ \t]*", gap):
            out += set_off(text, toks, i + 1, no_person_at)
    return out


#: roles and jobs a person is named after with "the" before them ("the nurse moss took", "the therapist , moss ,")
_JOBS = ROLE_TITLES | frozenset("therapist counselor counsellor caseworker physio trainer aide teacher".split())
_ROLE_OR_RELATIVE = _ROLE_OR_RELATIVE | _JOBS


def _owner(text: str, toks: Sequence[Tok], i: int) -> Tok | None:
    """The possessive (or "the") right before the relative or role ``toks[i]``, or one word before it when a
    lower-case word stands between ("my best friend", "our foster son", "the night nurse"); spaces only."""
    for j in (i - 1, i - 2):
        if j < 0 or not re.fullmatch(r"[ \t]", text[toks[j].end:toks[j + 1].start]):
            return None
        own = toks[j]
        if own.key in POSSESSIVES or own.key == "the":
            return own if own.text.islower() or own.text.istitle() else None
        if j != i - 1 or not own.text.isalpha() or not own.text.islower() or own.key in RELATIVES | _JOBS:
            return None
    return None


def _verb_after(text: str, t: Tok, owner: str) -> bool:
    """After a possessive and a relative, a verb of :data:`_AFTER` or a past tense in "-ed"; after "the" and a job, a
    verb of :data:`_AFTER` only ("the nurse moss took", not "the coach bus crashed")."""
    if owner != "the":
        return _next_ok(text, t, past=True)
    m = _NEXT.match(text, t.end)
    return m is not None and m.group(1) in _AFTER


def _rare_word(key: str) -> bool:
    """A word no gazetteer holds that English text uses less than Zipf :data:`.vocab.WORD_NAME_ZIPF` ("peg", "gerd"),
    no function, demographic, drug, specialty or spoken word, no clinical word but a condition's, no "-ed", "-ly",
    "-ing" or "-s" form ("grandma suffers from"): after "my" and a relative, before a person's verb, a name ("my daughter [peg] made me")."""
    w = word_facts(key)
    return key.isalpha() and len(key) >= 3 and not blocked(w) and w.clinical in (None, "condition") \
        and key not in SPOKEN_WORDS and key not in RELATIVES and english_zipf(key) < WORD_NAME_ZIPF \
        and not key.endswith(("ed", "ly", "ing", "s"))


def _surname_after(text: str, toks: Sequence[Tok], k: int) -> bool:
    """The word after ``toks[k]`` (one space between) is a lower-case gazetteer surname :func:`_word_may_be` allows."""
    t = toks[k + 1]
    return re.fullmatch(r"[ \t]", text[toks[k].end:t.start]) is not None and t.text.islower() \
        and t.key in surnames() and _word_may_be(t.key, cased=False)


def set_off(text: str, toks: Sequence[Tok], k: int, no_person_at: Callable[[str, int, int], bool],
             job: bool = False) -> list[Tok]:
    """After a relative and a comma: one or two lower-case names (the second a surname) set off by a comma or ending
    the sentence ("[fern] ,", "[fern] [moss] ."), each a gazetteer name :func:`_word_may_be` allows. In cased text
    (issue 50, ninth session; "The physio, [Bone], says", "My granny, [Pearl] [Rock], had"): one or two capitalised
    words, each no function, demographic, drug, specialty, relative's, role's or spoken word nor an eponym, no
    clinical word but, after a job (``job``), a condition's ("Kidney"); the word set off names the person."""
    if k >= len(toks):
        return []
    names = [toks[k]]
    if k + 1 < len(toks) and re.fullmatch(r"[ \t]", text[toks[k].end:toks[k + 1].start]):
        names.append(toks[k + 1])
    end = re.compile(r"[ \t]*(?:[,.!?;]|\n|$)")
    while names and not end.match(text, names[-1].end):
        names.pop()
    if names and all(t.text.istitle() and t.text.isalpha() for t in names):
        return [] if not all(_capital_may_be(t.key, job) for t in names) \
            or any(no_person_at(text, t.start, t.end) for t in names) else names
    if not names or not all(t.text.islower() and _word_may_be(t.key, cased=False) for t in names):
        return []
    if len(names) == 2 and names[1].key not in surnames():
        return []
    return [] if any(no_person_at(text, t.start, t.end) for t in names) else names


def _capital_may_be(key: str, job: bool) -> bool:
    """A capitalised word set off by commas after a role or relative may name the person (:func:`set_off`)."""
    w = word_facts(key)
    if blocked(w) and not w.person_drug or key in RELATIVES or key in _JOBS or key in SPOKEN_WORDS or len(key) < 2:
        return False
    return w.clinical is None or w.gazetteer and w.clinical in ("condition", "drug") or job and w.clinical == "condition"
