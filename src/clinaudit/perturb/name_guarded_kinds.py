"""A name the guards keep as a day, a month, a modal, a race word or an everyday function word, where only a person
stands (issue 50, fifteenth session).

:mod:`.name_guarded_words` reads a name the guards call a word in :func:`.name_person_only.person_only_at`'s places,
but never a demographic, day, month, modal or function word: in lower case a person called June, Saturday, Will,
White, Glad or Buddy was lost in every place but after a title. Here, in lower case only, such a word is a name in
those places (and :func:`.name_guarded_words.only_person`'s: "X came with me", "i talked to X yesterday", "give this
to X"), each kind only in the places that exclude its uses as a word:

* **a day, a month, "christmas", "easter"** (:data:`TIMES`): the places exclude "friday came fast", "it was december
  when", "on saturday"; never after "call", "ring", "phone" ("i'll ring monday first thing");
* **a modal that is a name** ("will", "may": :data:`MODALS`): a modal is followed by a verb's base form, never by
  "says", "told", "rang" ("will told me", "may rang"); never after "tell" or "ask" ("can i ask , may i ..."), "call";
* **a race word that is a surname** ("black", "white", "brown": :data:`RACES`): the places need a verb, "who", "and
  her husband" or a clause right after the word, so a word that describes people or things ("a black man came with
  me", "white people", "the white count came back", "black stools") is never read; before "says", "told", "rang"
  only when a person, a clause or a greeting follows ("brown says nothing to me" stays);
* **an everyday word of approval, feeling or address that people carry as a name** (:data:`EVERYDAY`: "glad",
  "happy", "welcome", "buddy", "champ", "pal"; a function word to the lists; not "honey", a food), not the one
  addressed ("thanks , buddy .", "hello pal"), nor a role ("boss", "friend": :data:`.name_guarded_words.NOT_PERSONS`), nor an adverb
  that stands before a verb ("still", "ever", "much": left out).

The everyday words and the modals are read in :func:`.name_bare_places.bare_place_at`'s places too ("i got a lift in
with glad .", "happy and i went", "i think will has the forms"), never after "for" ("i'm here for good") nor after
", and" ("thank you , and welcome .": the one such word the real dialogs gave a first version); the days, months and
race words never there ("waiting for friday", "worried about white").

Never a relative's word, a drug, a clinical word, a word in capitals, a speaker label, nor where the detector says
no person stands. Words first: the words are read in :func:`.name_bare_person.bare_word_places`' one scan (with
:mod:`.name_guarded_words`' words: :func:`may_be_kept`), and at each place the words right around it first. Used by
:mod:`.name_detect` (source ``rule``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .name_bare_person import BareWords
from .name_bare_places import bare_place_at
from .name_guarded_words import NOT_PERSONS, SAYS_WHAT, may_be_guarded, only_person, words_placed
from .name_person_only import CALL_WORDS, GREETINGS, SAYS, TELL_WORDS
from .name_place_names import may_be_place
from .name_tokens import Tok
from .vocab import DAY_NAMES, FEAST_NAMES, MONTH_NAMES

__all__ = ["EVERYDAY", "MODALS", "RACES", "TIMES", "kept_word_names", "may_be_kept"]

#: days, months and the feasts English writes as days ("it was easter who ..." never: a person)
TIMES = DAY_NAMES | (MONTH_NAMES - {"may"}) | FEAST_NAMES
#: modals that are given names
MODALS = frozenset({"will", "may"})
#: race words that are surnames
RACES = frozenset({"black", "white", "brown"})
#: words of approval, feeling or address the lists call function words and people carry as names
EVERYDAY = frozenset("""good nice glad happy ready pretty welcome dear darling sweetie babe buddy bud pal champ kid
    chief sport guy young""".split()) - NOT_PERSONS  # not "honey", a food ("and honey said it helps the cough")
#: every word of this module
_ALL = TIMES | MODALS | RACES | EVERYDAY


def may_be_kept(word: str) -> bool:
    """``word`` may be a name of this module (:data:`TIMES`, :data:`MODALS`, :data:`RACES`, :data:`EVERYDAY`) or of
    :mod:`.name_guarded_words` (:func:`.name_guarded_words.may_be_guarded`) or of :mod:`.name_place_names`
    (:func:`.name_place_names.may_be_place`): the word test of the one scan."""
    return word in _ALL or may_be_guarded(word) or may_be_place(word)


def kept_word_names(text: str, toks: Sequence[Tok], bare: BareWords,
                    nobody: Callable[[str, int, int], bool]) -> list[Tok]:
    """The lower-case days, months, modals, race words and everyday words that stand where only a person stands (the
    module's docstring). ``toks``: the text's words; ``bare``: :func:`.name_bare_person.bare_word_places` read with
    ``guarded=may_be_kept``; ``nobody(text, start, end)``: the detector says no person stands there."""
    return words_placed(text, toks, bare, bare.guarded & _ALL, _kept_place, nobody)


def _kept_place(text: str, texts: list[str], starts: list[int], ends: list[int], i: int) -> bool:
    """Word ``i`` stands where only a person stands, in a place its kind allows (the module's docstring)."""
    word, prev = texts[i], texts[i - 1] if i else ""
    nxt = texts[i + 1] if i + 1 < len(texts) else ""
    if prev in CALL_WORDS and (word in TIMES or word in MODALS) or prev in TELL_WORDS and word in MODALS:
        return False
    if word in RACES and nxt in SAYS and SAYS_WHAT.match(text, ends[i + 1]) is None:
        return False
    gap = text[ends[i - 1]:starts[i]] if i else ""
    said_to = prev in GREETINGS or "," in gap or text.startswith((",", " ,"), ends[i])
    if only_person(text, texts, starts, ends, i) and not (word in EVERYDAY and said_to):
        return True  # not a word of address said to ("thanks , buddy .", "hi pal ,", "champ , can you")
    if prev == "for" or prev == "and" and i >= 2 and "," in text[ends[i - 2]:starts[i - 1]]:
        return False  # "here for good", "thank you , and welcome ."
    return (word in EVERYDAY or word in MODALS) and bare_place_at(text, texts, starts, ends, i)
