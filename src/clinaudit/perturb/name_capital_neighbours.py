"""The neighbour rule: in cased text a capitalised word right next to a name found is part of it ("[Katrin] Gross",
"Sander [Visser]"), in lower-case speech a word the lists allow beside a lower-case name ("harry [cartwright]"), and
right before one an English word no name list holds (:func:`_plain_before`: "i stay with peg [okafor]"; twenty-fourth
session). One
entry of the name rules' registry (:mod:`.name_rules`, ``capital_neighbours``); it reads the spans every rule before
it found. Moved here from :mod:`.name_detect` unchanged (seventeenth session)."""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from .name_clause_subject import PERSON_VERBS
from .name_frames import lower_case_text
from .name_frequency import lower_case_neighbour_ok
from .name_given_words import plain_word_name
from .name_guarded_words import NOT_PERSONS
from .name_korean import korean_surname_beside
from .name_letters import polynesian_unlisted
from .name_neighbour_words import cased_word_name, lower_foreign_word, lower_rare_word, lower_word_name
from .name_no_person import sentence_start
from .name_roles import ROLE_TITLES
from .name_tokens import Tok, neighbours
from .name_word import RELATIVES, SEP_SPACE, blocked, sep, word_facts
from .name_writing import PARTICLES
from .vocab import SPOKEN_WORDS, is_common, lower_case_neighbour

__all__ = ["capital_neighbours"]

#: after a verb, not after a surname: an object pronoun or "by" ("swears by it", "texts me")
_OBJECT_AFTER = frozenset("by it me him her them us".split())


def _verb_before_object(toks: Sequence[Tok], i: int) -> bool:
    """``toks[i]`` is the "-s" form of a common word before an object pronoun or "by": a verb after its subject
    ("[mircea] swears by it"; issue 50, twenty-second session: "swears" is also a surname of the gazetteer), not a
    surname ("[ann] rivers said")."""
    key = toks[i].key
    return key.endswith("s") and i + 1 < len(toks) and toks[i + 1].key in _OBJECT_AFTER and is_common(key[:-1])


def _plain_before(text: str, toks: Sequence[Tok], i: int) -> bool:
    """In lower-case text, the lower-case ``toks[i]`` right before a name found is its given name though it is an
    English word no name list holds (:func:`.name_given_words.plain_word_name`: "my neighbour peg [qwertz]";
    twenty-fourth session), but not after "in" (a place: "in downtown [baltimore]") nor after a word that is never a
    person (:data:`.name_guarded_words.NOT_PERSONS`, a body part before a symptom: "a new right eye twitch [karen]")."""
    t = toks[i]
    return t.text.islower() and plain_word_name(t.key) and lower_case_text(text) \
        and not (i and (toks[i - 1].key == "in" or toks[i - 1].key in NOT_PERSONS))


def capital_neighbours(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]]) -> list[Tok]:
    """In cased text, a capitalised word right next to a name found (only spaces between) is part of it ("[Katrin]
    Gross", "Sander [Visser]"; in lower case a word :func:`.vocab.lower_case_neighbour` allows, "harry [cartwright]"; "Dr. Anna Lee" for any name found), unless it is never a name (a function, demographic
    or drug word, an eponym, a spoken form: "Oh [Harry]") or a clinical word that is no name; before a name at a
    sentence's start only a gazetteer name. ``found``: the spans (start, end) found so far."""
    starts, ends = {s for s, _ in found}, {e for _, e in found}
    out: list[Tok] = []
    for _ in range(2):  # up to two more words a side
        # only the words next to a name found are read (issue 50, Build 3: not every word twice), in text order; a
        # word taken makes the next one a neighbour in this round, the one before it in the next
        todo = neighbours(toks, starts, ends)
        heapq.heapify(todo)
        last = -1
        while todo:
            i = heapq.heappop(todo)
            if i <= last:
                continue
            last = i
            t = toks[i]
            if t.start in starts or t.key in RELATIVES or t.key in ROLE_TITLES:  # "My neighbour [Åsa]", "Coach [Fox]"
                continue
            nxt = i + 1 < len(toks) and toks[i + 1].start in starts and SEP_SPACE.fullmatch(sep(text, t, toks[i + 1]))
            prev = i > 0 and toks[i - 1].end in ends and SEP_SPACE.fullmatch(sep(text, toks[i - 1], t))
            if prev and not nxt and t.text.islower() and (t.key in PERSON_VERBS or _verb_before_object(toks, i)):
                continue  # "[holly] rang the ward", "[dawn] reckons", "[mircea] swears by it": the verb, not a surname
            w = word_facts(t.key)
            # in lower case: "[tyler] moore", "[sander] de vries" (a particle, which ICD-10-CM also writes), not "patella"
            particle = t.key in PARTICLES and not t.capital and lower_case_neighbour_ok(text, toks, i, True)
            lower = particle or lower_case_neighbour(t.key) or w.clinical is None and lower_case_neighbour_ok(
                text, toks, i, w.common or w.gazetteer or w.function) or not t.capital and (
                lower_word_name(t.key) or t.text.islower() and lower_rare_word(t.key, w)
                or nxt and not prev and _plain_before(text, toks, i) or any(
                    korean_surname_beside(t.key, toks[j].key, text, t.end) for j, by in ((i - 1, prev), (i + 1, nxt))
                    if by))  # "[ji-ho] gu", "han [minseo]"
            # a lower-case word only beside a lower-case name (lower-case speech), not beside a capitalised one
            if not (t.capital or lower and not (nxt and toks[i + 1].capital or prev and toks[i - 1].capital)):
                continue
            if not (nxt or prev) or len(t.key) < 2 or not particle and (blocked(w) or (
                    w.clinical is not None and not w.gazetteer) or t.key in SPOKEN_WORDS) \
                    and not cased_word_name(text, toks, i, bool(prev), bool(nxt), w):  # "Oh [Harry]"; "with Per [Hansen]"
                continue
            if not prev and sentence_start(text, t.start) and not (w.gazetteer or not w.common and len(t.key) >= 3
                                                                    or t.capital and polynesian_unlisted(t.key, w)
                                                                    or t.text.islower()
                                                                    and lower_foreign_word(t.key, w)):
                continue  # a sentence's first word before a name: a gazetteer name, a word in no list ("Jiřina
                # [Dvořáková]"), a word English writes seldom and no lexicon reads ("[ese] [tuilagi] drove me")
            out.append(t)
            starts.add(t.start)
            ends.add(t.end)
            if i + 1 < len(toks):
                heapq.heappush(todo, i + 1)
    return out
