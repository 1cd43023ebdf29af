"""A gazetteer name that is a common English word, alone and in lower case, where the predicate around it is one only
a person takes (issue 50, sixteenth session: ``benchmarks/deid_dev38.py``). Every lower-case rule before this one
reads a list of frames ("X says", "ask X to", "me and X went"); a form outside its list lost a bare word-name: "basil
was lovely with me after the operation", "rook wouldn't let me walk home", "heron and the grandkids were round",
"i'll have to check with gosling first", "that was jay on the phone just now", "i got bliss ringing round for a bed".
What decides here is what the word is and what English says of it:

* **the word**: in lower case, in the first-name or surname gazetteer, a common word (or a gazetteer surname) that
  :func:`.name_word_surnames.may_be_word_surname` allows (no function, spoken, relative's, filler, modal, adverb,
  person's verb, day or month word), no clinical word at all, no mass noun, food, drink, season or weather word
  (:data:`.name_everyday_places.MASS`), no word :data:`.name_guarded_words.NOT_PERSONS` keeps, no title or role; in
  lower-case text also an English word no name list holds (:func:`.name_given_words.plain_word_name`: "tele was
  lovely with me"; twenty-fourth session);
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

from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_everyday_places import MASS
from .name_frames import TITLE_WORDS, lower_case_text
from .name_given_words import plain_word_name
from .name_guarded_words import NOT_PERSONS
from .name_person_places import lower_words_in_places, predicate_place
from .name_roles import ROLE_TITLES
from .name_tokens import Tok
from .name_word import word_facts
from .name_word_surnames import may_be_word_surname
from .vocab import first_names, plural_of_common, surnames

__all__ = ["may_be_predicate_name", "person_predicate_names"]

_SEASONS = frozenset("spring summer autumn winter fall christmas easter".split())


@lru_cache(maxsize=8192)
def may_be_predicate_name(key: str) -> bool:
    """``key`` (lower case) may be a bare gazetteer name that is a common word: the module's docstring."""
    if key not in first_names() and key not in surnames():
        return False
    if key in MASS or key in NOT_PERSONS or key in TITLE_WORDS or key in ROLE_TITLES or key in _SEASONS \
            or plural_of_common(key) or not may_be_word_surname(key):
        return False
    return word_facts(key).clinical is None


def person_predicate_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """Lower case: a bare gazetteer name that is a common word where the predicate around it is a person's (the
    module's docstring)."""
    word = _predicate_or_plain if lower_case_text(text) else may_be_predicate_name
    return lower_words_in_places(text, toks, word, predicate_place, no_person_at)


def _predicate_or_plain(key: str) -> bool:
    """In lower-case text, also an English word no name list holds that may be a given name
    (:func:`.name_given_words.plain_word_name`: "tele was lovely with me"; twenty-fourth session)."""
    return may_be_predicate_name(key) or plain_word_name(key, adjective=True)
