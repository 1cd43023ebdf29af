"""A surname that is an English word, bare and in lower case, in the everyday places only a person takes (issue 50,
seventeenth session: ``benchmarks/deid_dev42.py``). :mod:`.name_word_surnames` reads such a word after a given name
and alone in a few frames ("me and X went", "ask X , she'll know"), :mod:`.name_person_predicates` a clause's subject
before a predicate only a person takes ("X was lovely with me", "X can't come"); a UK, Irish or Punjabi surname that is
a word ("pound", "swords", "dar", "mill") was still lost in the plainer places of a person's day: "X booked me in",
"my carer is X .", "i came with X this morning", "i was telling X about", "we're going to X's after this", "my friend
, X , drove me in", "morning X ,", "X from the chemist dropped it round". What decides here is what the word is and
what English puts in the place:

* **the word**: in lower case, a surname the gazetteer holds that is a common English word
  :func:`.name_person_predicates.may_be_predicate_name` allows (no function, spoken, relative's, filler, modal,
  adverb, person's verb, day or month word, no clinical word at all, no mass noun, food, drink, season or weather
  word, no title or role, no plural: "i told lies about it"), no word English lets speak as a voice ("law", "lord", "bank": "the bank rang");
* **a clause's bare subject before what a person does to a person** (a turn's or sentence's start, or after "and /
  so / but / oh / well"): a verb of a person's errands or care with a person after it ("booked me in", "is picking
  me up", "sorted out my prescription", "keeps an eye on me", "wanted me to ask", "has been doing my shopping"),
  "will be here at / by / soon", "and her sister / his brother": English puts a determiner before a count noun there,
  and a mass noun books, picks up, fetches and looks after no one ("rice makes me sick": no such verb);
* **the complement of a person's role or relation**: "my carer / neighbour / gp / friend is X" before the sentence's
  end or a comma (not "my friend's golden": a possessive), never an adjective (English writes its superlative and its "-ly" adverb or comparative: "my carer
  is lush", "my friend is rich");
* **the object of a preposition or verb that takes a person**: "i came / was staying with X" before a time or the
  end ("i came with a rash": a determiner; not "went with", a choice: "we went with cash"; not "living with", a
  condition: "living with mark on my arm"), "telling / asking X about", "tell X the results", "let X
  know", "say hello to X", "thanks to X i", a home ("going / round / stopping / back to / at X's after this /
  tonight / later");
* **an apposition** after a person's role or relation ("my friend , X , drove me in"), **a greeting** ("morning X ,",
  "hello again X .", :data:`.name_person_only.NOT_ADDRESSED` words and adjectives never), "X from the chemist / the
  surgery / church" before a person's verb at a clause's start, "it was X that / who noticed", "does X live with
  you ?".

Only tokens whose word passes the test above are read (a few a dialog), each with the words right around it (a bounded
match at the token's end and a bounded search of the 48 characters before it): linear in the text. Capitalised words
are the cased rules'. The places are :func:`.name_person_places.surname_place`; the word is read in the given-name
rule's places too (:func:`.name_person_places.person_place`; never an adjective there). Used by :mod:`.name_detect`
(source ``rule``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_person_places import VOICES, adjective_like, lower_words_in_places, person_place
from .name_person_predicates import may_be_predicate_name
from .name_tokens import Tok
from .vocab import common_words, surnames

__all__ = ["adjective_like", "may_be_place_surname", "surname_place_names"]



@lru_cache(maxsize=8192)
def may_be_place_surname(key: str) -> bool:
    """``key`` (lower case) may be a bare surname that is a common word: the module's docstring."""
    words = common_words()
    if len(key) >= 4 and key.endswith("s") and (key[:-1] in words or key.endswith("es") and key[:-2] in words):
        return False  # a plural or a verb's "-s" ("lies", "wells": "i told lies about it")
    return key in surnames() and key not in VOICES and may_be_predicate_name(key)


def surname_place_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """Lower case: a bare gazetteer surname that is a common word where only a person stands (the module's
    docstring)."""
    return lower_words_in_places(text, toks, may_be_place_surname,
                                 lambda s, ts, i: person_place(s, ts, i, "surname"), no_person_at)
