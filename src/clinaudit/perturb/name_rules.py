"""The name rules' ordered registry: one :class:`NameRule` entry per rule of source ``rule``, run in the order of
:data:`RULES` by :func:`.name_detect.find_names` (issue 50, seventeenth session).

**Adding a rule** is one entry in :data:`RULES`, at its place in the order::

    NameRule("my_rule", lambda text, toks, no_person_at: my_rule_names(text, toks, no_person_at)),

``find`` returns the words it takes (anything with ``start`` and ``end``: :class:`.name_tokens.Tok`); each becomes a
span of source ``rule``. What it reads are its parameters' names, which :func:`.name_detect.find_names` passes by
name from :data:`INPUTS`; a rule whose own parameters are so named is its own ``find`` (``possessive_names``):

* ``text``, ``toks`` — the text and its words (:func:`.name_tokens.tokens`);
* ``no_person_at`` — :func:`.name_no_person.no_person_at`, the detector's "no person stands here";
* ``bare`` — the bare-word places scan (:func:`.name_bare_person.bare_word_places`, once a text, when first read);
* ``lines``, ``rare`` — the lines with a rare word and those words (:func:`.name_prep.rare_lines`, once a text);
* ``found`` — the spans ``(start, end)`` found so far: the metadata names', the detector's, the naming contexts' and
  every rule's before this one (a fresh list each read);
* ``found_firsts`` — ``found`` and the given names the caller found before the detector (``firsts``: the built-in
  first names of :mod:`.deid`);
* ``again`` — ``find_names(text, pairs=False)`` of another text, as spans (for the rules that read sentences again).

Flags: ``pairs_only`` — runs only when ``find_names(pairs=True)`` (the rules that call ``again``, so never inside
``again``); ``not_detected`` — a span the detector found already is not added again; ``person_here`` — a span where
:func:`.name_detect.no_person_at` says no person stands is dropped.

**The order** is that of the hand-wired ``find_names`` it replaced (same spans in the same order: ``deid_digest
--quick`` identical): rules that read only the text first (cased prose, lower-case slots, the bare-word places, the
rare lines, objects, particles, capitals, person verbs, full names, roles), then the rules that read ``found`` — each
after the rules whose spans it builds on (syllables and parts apart, the Cantonese prefix, the neighbour rule, places
beside names, surnames beside given names, the dialog's other mentions). A new rule that reads ``found`` goes after
the rules whose finds it needs; one that reads only the text goes before ``syllable_word_names``.
``tests/test_name_rules.py`` pins the order.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .name_apposed import apposed_persons
from .name_bare_object import bare_object_names
from .name_bare_person import bare_person_names
from .name_bare_places import bare_place_names
from .name_cantonese_prefix import prefixed_names
from .name_capital_neighbours import capital_neighbours
from .name_cased import apostrophe_names, particle_chain_names, quote_start, rare_headword
from .name_cased_mentions import cased_mentions
from .name_clause_subject import clause_subject_names
from .name_coordinated import coordinated_names
from .name_deaccented import deaccented_mentions
from .name_elision import elided_particle_names
from .name_eponym_persons import eponym_person_names
from .name_everyday_places import everyday_place_names
from .name_given_pairs import given_pairs
from .name_given_words import given_word_names
from .name_guarded_kinds import kept_word_names
from .name_guarded_words import guarded_word_names
from .name_initials import middle_initial_names
from .name_listed_with import listed_with_names
from .name_letters import capital_names, okina_names, syllable_names
from .name_mentions import given_and_surname, other_mentions
from .name_no_person import sentence_start
from .name_object import capital_objects, lower_objects
from .name_particle_apart import apart_particle_names
from .name_open_surnames import open_surname_bare, open_surname_capitals
from .name_parts_apart import part_names
from .name_person_only import person_only_names
from .name_person_predicates import person_predicate_names
from .name_person_verbs import person_context_names, person_verb_names
from .name_place_names import place_beside_names, place_word_names
from .name_polynesian_pairs import polynesian_pairs
from .name_possessive import possessive_names
from .name_prep import prep_objects
from .name_rare_slots import rare_slot_names
from .name_roles import relative_names, role_names
from .name_same_person import full_name_mentions, repeated_word_surnames
from .name_slot_kinds import (lower_person_verb_may_be, may_name, name_or_unlisted, object_may_be, person_verb_may_be,
                              rare_slot_kind, slot_kind, slot_unlisted)
from .name_slots import person_slots
from .name_spelled import spelled_names
from .name_spoken_address import spoken_address_names
from .name_strong_places import strong_place_names
from .name_surname_places import surname_place_names
from .name_surname_after import given_before, surname_after
from .name_syllables_apart import syllable_word_names
from .name_tokens import Tok
from .name_word import RELATIVES, word_facts
from .name_word_surnames import bare_word_surnames, word_surnames
from .name_writing import addressed, particle_names
from .vocab import ORIGIN_WORDS

__all__ = ["INPUTS", "NameRule", "RULES", "Span"]

#: what a rule may read, by its parameters' names (the module's docstring)
INPUTS = frozenset({"text", "toks", "no_person_at", "bare", "lines", "rare", "found", "found_firsts", "again"})


class Span(Protocol):
    """What a rule returns a list of: a word (:class:`.name_tokens.Tok`) or anything with its span."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


@dataclass(frozen=True)
class NameRule:
    """One rule of the registry: ``name`` (unique), ``find`` (its parameters name what it reads, :data:`INPUTS`) and
    the flags of the module's docstring. ``reads``: ``find``'s parameters, in order."""

    name: str
    find: Callable[..., Sequence[Span]]
    pairs_only: bool = False
    not_detected: bool = False
    person_here: bool = False
    reads: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        reads = tuple(inspect.signature(self.find).parameters)
        unknown = [r for r in reads if r not in INPUTS]
        if unknown:
            raise ValueError(f"name rule {self.name!r} reads {unknown}, not one of {sorted(INPUTS)}")
        object.__setattr__(self, "reads", reads)


def _sentence_or_quote_start(text: str, pos: int) -> bool:
    return sentence_start(text, pos) or quote_start(text, pos)


def _addressed_may_name(t: Tok) -> bool:
    return may_name(t, gazetteer=True) or may_name(t) and rare_headword(t.key)


def _addressed_word_name(t: Tok) -> bool:
    return may_name(t) and t.key not in RELATIVES


#: where one comes from, goes to or lives, right before a word ("a refugee from", "a trip to", "born in")
_PLACE_PREPOSITION = re.compile(r"(?i)(?<![\w'’])(?:(?:refugees?|immigrants?|emigrated|returned|back|arrived|moved|"
                                r"travell?ed|flew|trips?|born|lives|lived|living)[ \t]+(?:from|to|in)|visited|"
                                r"visiting)[ \t]+$")


def _context_cased_ok(text: str, t: Tok) -> str | None:
    if word_facts(t.key).clinical == "facility" or t.key in ORIGIN_WORDS:  # not "sent to Mercy", "my family is
        return None  # Cuban and my mom" (but "with Brown and my son": a colour's word is a surname as often)
    if word_facts(t.key).clinical == "place" and _PLACE_PREPOSITION.search(text, max(0, t.start - 24), t.start):
        return None  # a country one comes from or goes to: "a refugee from Sudan who arrived" (twenty-first session)
    return person_verb_may_be(text, t)


def _surnames_beside(text: str, toks: Sequence[Tok], found_firsts: Sequence[tuple[int, int]],
                     no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """Three rules that read the same names found (none sees another's): "[fenella] hill is my sister", "[james]
    hill", "[kirsty] main rang", "is [ailsa] proud your"."""
    return surname_after(text, toks, found_firsts, no_person_at) + given_before(text, toks, found_firsts, no_person_at) \
        + word_surnames(text, toks, found_firsts, no_person_at)


#: the rules, in the order :func:`.name_detect.find_names` runs them (the module's docstring)
RULES: tuple[NameRule, ...] = (
    # cased prose: surname particles, words addressed, particle chains, "D'Amico"
    NameRule("particle_names", lambda text, toks: particle_names(text, toks, sentence_start, may_name)),
    NameRule("addressed", lambda text, toks: addressed(text, toks, _sentence_or_quote_start, _addressed_may_name,
                                                       _addressed_word_name)),
    NameRule("particle_chain_names", lambda text, toks: particle_chain_names(text, toks, sentence_start, may_name,
                                                                             name_or_unlisted)),
    NameRule("apostrophe_names", lambda text, toks: apostrophe_names(text, toks, may_name)),
    # lower-case speech: where a person stands
    NameRule("person_slots", lambda text: person_slots(text, sentence_start, slot_kind)),
    NameRule("coordinated_names", lambda text: coordinated_names(text, slot_kind)),  # "me and dean"
    # the bare-word places ("tell penny i", "but penny said", "i came in with willow .", "ocean says", ...)
    NameRule("bare_person_names", lambda text, toks, bare: bare_person_names(text, toks, slot_kind, slot_unlisted,
                                                                             bare)),
    NameRule("clause_subject_names", lambda text, toks, bare: clause_subject_names(text, toks, slot_kind,
                                                                                   slot_unlisted, bare)),
    NameRule("bare_object_names", lambda text, toks, bare: bare_object_names(text, toks, slot_kind, slot_unlisted,
                                                                             bare)),
    NameRule("bare_place_names", lambda text, toks, bare: bare_place_names(text, toks, slot_kind, slot_unlisted,
                                                                           bare)),
    NameRule("person_only_names", lambda text, toks, bare: person_only_names(text, toks, slot_kind, slot_unlisted,
                                                                             bare)),
    NameRule("guarded_word_names", lambda text, toks, bare, no_person_at: guarded_word_names(text, toks, bare,
                                                                                             no_person_at)),  # "glass says"
    NameRule("kept_word_names", lambda text, toks, bare, no_person_at: kept_word_names(text, toks, bare,
                                                                                       no_person_at)),  # "june says"
    NameRule("place_word_names", lambda text, toks, bare, no_person_at: place_word_names(text, toks, bare,
                                                                                         no_person_at)),
    NameRule("everyday_place_names", lambda text, toks, bare: everyday_place_names(text, toks, slot_kind, bare)),
    NameRule("strong_place_names", lambda text, toks, no_person_at: strong_place_names(text, toks, no_person_at)),
    NameRule("syllable_names", syllable_names, person_here=True),  # "ji-ho", "Bo-ra"
    # the lines with a rare word: "from jirina", "jirina is usually here", "okay , razvan ."
    NameRule("prep_objects", lambda text, toks, lines: prep_objects(text, slot_kind, toks, slot_unlisted, lines)),
    NameRule("rare_slot_names", lambda text, toks, lines, rare: rare_slot_names(text, toks, lines, rare,
                                                                                sentence_start, rare_slot_kind)),
    NameRule("capital_objects", lambda text: capital_objects(text, object_may_be)),  # "ask Frank to"
    NameRule("lower_objects", lambda text: lower_objects(text, slot_kind)),  # "ask serghei to"
    NameRule("elided_particle_names", elided_particle_names),  # "d'amico"
    NameRule("apart_particle_names", apart_particle_names),  # "o brien"
    NameRule("capital_names", capital_names, person_here=True),  # "NOVÁKOVÁ"
    NameRule("okina_names", okina_names, person_here=True),  # "Faʻamoe"
    NameRule("person_verb_names", lambda text: person_verb_names(text, sentence_start, person_verb_may_be,
                                                                 lower_person_verb_may_be),
             not_detected=True),  # "Per thinks", "how is ali doing"
    NameRule("given_and_surname", given_and_surname),  # "by tanner fletcher", "fern moss drives me"
    NameRule("middle_initial_names", middle_initial_names),  # "fern r . moss"
    NameRule("possessive_names", possessive_names),  # "fern's inhaler"
    NameRule("person_context_names", lambda text: person_context_names(text, _context_cased_ok,
                                                                       lower_person_verb_may_be, RELATIVES),
             not_detected=True),  # "talked to Costa", "Per who"
    NameRule("open_surname_capitals", open_surname_capitals, person_here=True),  # "worried about Young, he"
    NameRule("open_surname_bare", open_surname_bare, person_here=True),  # "according to young , the cast"
    NameRule("role_names", role_names),  # "Officer [Street]", "coach [fox] had"
    NameRule("relative_names", relative_names),  # "my coworker [fox] covered"
    NameRule("apposed_persons", apposed_persons),  # "the patient , [manu] [pule] , is"
    NameRule("polynesian_pairs", polynesian_pairs),  # "[henare] [tapine] dropped me", "with [koro] [hona]"
    NameRule("spoken_address_names", spoken_address_names),  # "hi [billy] how are you", "so [mark] tell me"
    # the rules that read the names found so far
    NameRule("syllable_word_names", syllable_word_names),  # "i talked to [se bin]", "[tee] ming"
    NameRule("part_names", part_names),  # "hem ant", "son [ji-ho]", "dr an"
    NameRule("prefixed_names", lambda text, toks, found, again, no_person_at: prefixed_names(
        text, toks, found, again, no_person_at), pairs_only=True),  # "i talked to [ah] [hoy]"
    NameRule("capital_neighbours", capital_neighbours),  # "[Katrin] Gross", "Sander [Visser]", "harry [cartwright]"
    NameRule("place_beside_names", lambda text, toks, found, no_person_at: place_beside_names(
        text, toks, found, no_person_at)),  # "georgia walsh", "chad holland"
    NameRule("surnames_beside", _surnames_beside),
    NameRule("eponym_person_names", lambda text, toks, found_firsts, no_person_at: eponym_person_names(
        text, toks, found_firsts, no_person_at)),  # "[trevor] parkinson", "my carer is cushing"
    NameRule("repeated_word_surnames", lambda text, toks, found_firsts, no_person_at: repeated_word_surnames(
        text, toks, found_firsts, no_person_at)),  # "[narelle] swan , ... swan thinks"
    NameRule("full_name_mentions", lambda text, toks, found_firsts, no_person_at: full_name_mentions(
        text, toks, found_firsts, no_person_at)),  # "it's ward , [sarah ward] ."
    NameRule("bare_word_surnames", bare_word_surnames),  # "me and chambers went"
    NameRule("person_predicate_names", person_predicate_names),  # "basil was lovely with me"
    NameRule("surname_place_names", surname_place_names),  # "my carer is pound .", "i came with mill today"
    NameRule("given_word_names", given_word_names),  # "lily fetched my prescription", "my carer is posy , she"
    NameRule("given_pairs", lambda text, toks, found, again: given_pairs(text, toks, found, again),
             pairs_only=True),  # "i came in with [billy] [joe] ."
    NameRule("deaccented_mentions", deaccented_mentions),  # "[Jitka Bednář] ... Bednar works nights"
    NameRule("listed_with_names", listed_with_names),  # "Benjamin, [Siosaia], my aunt, they all had it"
    NameRule("other_mentions", other_mentions),  # "my grandson [tanner] ... tanner waited"
    NameRule("cased_mentions", cased_mentions),  # "My name is [Ana Sulu]. ... next to Ana when"
    NameRule("spelled_names", spelled_names),  # "last name [young] , y-o-u-n-g"
)
