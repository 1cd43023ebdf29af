"""A given name that is an English word (a flower, a gem, a colour, a virtue, a weather or nature word, a pet word:
"lily", "jewel", "lilac", "purity", "stormy", "pebbles"), alone and in lower case, where an everyday sentence leaves
room only for a person (issue 50, seventeenth session: ``benchmarks/deid_dev41.py``). The older lower-case rules read
such a word only in their frames or when it is rare in English; "lily fetched my prescription", "my carer is posy ,
she comes at nine", "i was telling haven about the dizzy spells", "we're going to jewel's after this" lost it.

What decides is what the word is and the place English gives it:

* **the word**: lower case, in the first-name gazetteer, a common English word (:func:`.vocab.is_common`), three
  letters or more, no plural of a common word ("miles", "pebbles"); no clinical word at all, no function, spoken, filler, modal, adverb, relative's, day, title, role or
  person's-verb word, no eponym, no demographic word, no word :data:`.name_guarded_words.NOT_PERSONS` keeps ("iris",
  "heart"); months only where no date can stand (a person's verb after it, "telling X about"; "may" is a modal);
* **or, in lower-case text, an English word no name list holds** (:func:`plain_word_name`, twenty-fourth session:
  pet names and short names of many origins, "peg", "tele", "uso", "muffin", which the place rules read only once a
  list called them names; ``benchmarks/deid_form_reach.py``): rarer in English than Zipf 4.5, no adjective, no
  plural or inflected form, no interjection, none of the kinds above, and nothing lemminflect's lexicon reads only as
  an adjective, an adverb or a verb form ("my mum wept .", "my son is unwell , he ..."). The strong places
  (:mod:`.name_strong_places`), a clause's subject (:mod:`.name_clause_subject`, :mod:`.name_slots`), the person's
  predicates (:mod:`.name_person_predicates`) and the neighbour rule (:mod:`.name_capital_neighbours`: right before
  a surname found) read the same word;
* **a person's errand** (:data:`PERSON_ACTS`): the word opening a clause (:func:`.name_clause_opens.opens_clause`),
  a surname maybe after it, then an adverb or an auxiliary maybe, then what only a person does in a day: phoned,
  texted, booked, fetched, "drove me / all the way" (not "winter drove the prices up"), noticed, spotted, signed, sorted, reckons, wanted me to, "is picking me up"
  (a person after it: not "harvest is picking up"; not "says": "law says you have to"), "had to take the day off", "usually does my shopping" (not "heaven knows", "sunshine helped", "candy rotted",
  "stormy weather sets"). A mass noun, a food, a season or a weather word (:data:`.name_everyday_places.MASS`:
  "sunshine", "candy", "honey") is read only before the verbs no thing does (not "came over", "collected", "brought
  me"); "sent" only as "sent me a text / photo / card";
* **the one told or asked** (:data:`TOLD`): after "tell / ask / remind / show / let / ring / text / email" before
  "about", "that", "to" and a verb, "know", a pronoun, or the clause's end after a verb that is no noun ("i was
  telling X about", "let X know"; not "telling stormy tales", "let sunshine in", "thank heaven for", "auto text X .");
* **a person's name as a complement**: "my carer / support worker / granddaughter ('s name) is X" before a comma and
  a pronoun or the sentence's end, "was it / it was X who" (not "the one who called was X": an adjective stands there
  as often, "strange"): never an adjective there ("my daughter is stormy , she's a teenager"; :func:`.vocab.y_adjective`, "-ing", "-ful", "-ous" ...), nor a mass
  noun or colour a thing takes ("my dress is lilac" has no person before "is");
* **come with, a home**: "i came in with X" before the clause's end or a time ("not i came in with candy floss"),
  "going to / at / round X's" before "after", "later", "for tea", "till", "all afternoon", "when" (a home);
* **a person wanted or asked a question of**: "would you like / want / get X to come", "has / did X noticed / say"
  after a clause's break or "and / so / but" (not yet right after a speaker's label "[doctor]");
* **the person first of two objects**: "i showed / gave X the letter" (no mass noun).

Only the tokens whose word passes are read (a few a dialog), each with a bounded match at its end and 60 characters
before it: linear in the text. Capitalised words are the cased rules'. Never where the detector says no person stands.
The places are :func:`.name_person_places.given_place`; the word is read in the surname
rule's places too (:func:`.name_person_places.person_place`: "say hello to X for me"; no mass noun, month, adjective or
voice there). Used by :mod:`.name_detect` (source ``rule``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_frames import TITLE_WORDS, lower_case_text
from .name_guarded_words import NOT_PERSONS
from .name_mentions import named_word
from .name_person_places import IT_WAS_BEFORE, PERSON_ACTS, TOLD, lower_words_in_places, person_place
from .name_roles import ROLE_TITLES
from .name_surname_after import FILLERS, MODAL_VERBS
from .name_tokens import Tok
from .name_word import word_facts, word_name
from .vocab import (DAY_NAMES, FUNCTION_WORDS, RELATIVES, SPOKEN_WORDS, first_names, inflected_everyday, is_common,
                    plural_of_common)
from .word_pos import modifier_or_verb_form, verb_form

__all__ = ["PERSON_ACTS", "TOLD", "given_word_names", "may_be_given_word", "plain_word_name"]

#: adverbs and time words that are never a name here (between a subject and its verb)
_ADVERBS = frozenset("""once twice first last home back away alone together too also again still ever never always
    usually sometimes often recently lately early late later soon today tonight yesterday tomorrow now then there here
    anyway instead either neither else even just only really very quite already yet ago since maybe perhaps probably
    straight right sure round over off out up down""".split())


@lru_cache(maxsize=8192)
def may_be_given_word(key: str) -> bool:
    """``key`` (lower case) may be a given name that is an English word: the module's docstring."""
    if len(key) < 3 or not key.isalpha() or key not in first_names() or not is_common(key) or plural_of_common(key):
        return False
    if _never_given(key):
        return False
    w = word_facts(key)
    return w.clinical is None and not w.function and not w.demographic and not w.eponym


def _never_given(key: str) -> bool:
    """A word of the kinds that are never a given name here: function, spoken, filler, modal, adverb, relative's,
    day, title, role or non-person word (:data:`.name_guarded_words.NOT_PERSONS`)."""
    return key in FUNCTION_WORDS or key in SPOKEN_WORDS or key in FILLERS or key in MODAL_VERBS or key in _ADVERBS \
        or key in RELATIVES or key in DAY_NAMES or key in TITLE_WORDS or key in ROLE_TITLES or key in NOT_PERSONS


#: interjections the spoken-word list (:data:`.vocab.SPOKEN_WORDS`: "oops", "huh") leaves out, which a greeting or
#: thanks may precede ("thanks , gotcha .")
_INTERJECTIONS = frozenset("""gotcha agh argh aha omg yay aww yum yuck phew wow haha hah lol eek meh duh shh whew bah
    hooray yippee""".split())


@lru_cache(maxsize=65536)
def plain_word_name(key: str, adjective: bool = False) -> bool:
    """``key`` (lower case) may be a given name though it is an English word that no name list holds ("peg", "tele",
    "uso"): what :func:`.name_mentions.named_word` asks (rarer in English text than Zipf 4.5, no clinical, function,
    demographic, relative's or spoken word, no eponym, no adjective), no gazetteer word (those are
    :func:`may_be_given_word`'s and the other rules'), no plural or inflected form of a common word, no interjection,
    none of :func:`may_be_given_word`'s kinds, and nothing lemminflect's lexicon reads only as an adjective, an adverb or a
    verb form ("unwell", "wept": :func:`.word_pos.modifier_or_verb_form`), nor as any verb form other than a base
    ("drove": :func:`.word_pos.verb_form`, "my daughter drove ."). ``adjective=True``: an adjective too
    ("diligent", "silky", "elegant": virtue and pet names of many origins), for the places where English puts no bare
    adjective (a subject, a person addressed or named after a relative's word), not where one stands as readily (a
    complement, "my son is unwell , he ..."; before a name, "favorable [shimada] histology"). Read only in lower-case
    text, in the places this module and a few others give a person (the module's docstring)."""
    if not (named_word(key) or adjective and word_name(key, listed=False)):
        return False
    return not word_facts(key).gazetteer and not plural_of_common(key) and key not in _INTERJECTIONS \
        and not inflected_everyday(key) and not _never_given(key) \
        and not modifier_or_verb_form(key, adjective=not adjective) and not verb_form(key)


def given_word_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """Lower case: a given name that is an English word where the sentence leaves room only for a person (the
    module's docstring); in lower-case text also a word no name list holds (:func:`plain_word_name`)."""
    if not lower_case_text(text):
        return lower_words_in_places(text, toks, may_be_given_word,
                                     lambda s, ts, i: person_place(s, ts, i, "given"), no_person_at)
    return lower_words_in_places(text, toks, _given_or_plain, _given_or_plain_place, no_person_at)


def _given_or_plain_place(text: str, toks: Sequence[Tok], i: int) -> bool:
    """:func:`.name_person_places.person_place` of a given name; for a word of :func:`plain_word_name` alone, not
    after "it was" (:data:`.name_person_places.IT_WAS_BEFORE`): "it was X who ..." names a person or an institution
    as readily ("it was triage who sent me"), a place this module reads for a gazetteer name only."""
    t = toks[i]
    if not may_be_given_word(t.key) and IT_WAS_BEFORE.search(text, max(0, t.start - 12), t.start):
        return False
    return person_place(text, toks, i, "given")


def _given_or_plain(key: str) -> bool:
    """The word test of :func:`given_word_names` in lower-case text."""
    return may_be_given_word(key) or plain_word_name(key)
