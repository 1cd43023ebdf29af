"""A gazetteer name that is an everyday word, bare in everyday places no frame reads, in lower case (issue 50,
fifteenth session, :mod:`clinaudit.perturb.name_everyday_places`). Hand-written examples: the places the rule was
written from (names in no set), a transfer check of 15 names and 15 words as words written after the rule and looked
at only to be run, and the negatives (the same places with the words as words, mass nouns, meals, seasons, a
catheter)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_everyday_places import may_be_everyday


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the places the rule was written from, with names in no set (occupations that are gazetteer surnames)
WRITTEN_FROM = [
    ("[patient] chandler was worried sick about me .", "chandler"),
    ("[patient] fuller just left to park the car .", "fuller"),
    ("[patient] yeah barber drove , i couldn't .", "barber"),
    ("[patient] last week steward stayed over twice .", "steward"),
    ("[doctor] do you know drake from the day centre ?", "drake"),
    ("[patient] we saw heron at the chemist .", "heron"),
    ("[patient] i couldn't manage without brewer , honestly .", "brewer"),
    ("[patient] everyone except carver had the bug .", "carver"),
    ("[patient] the carer , miner , comes at eight .", "miner"),
    ("[patient] chandler's mum used to be a nurse .", "chandler"),
    ("[doctor] next of kin : fuller , daughter .", "fuller"),
    ("[patient] barber here , calling about my results .", "barber"),
    ("[patient] it's drake , her husband , who picks them up .", "drake"),
]

#: written after the rule, looked at only to be run (names in none of the sets or the probes)
TRANSFER = [
    ("[patient] salter was really upset when she heard .", "salter"),
    ("[patient] so spicer just left for work .", "spicer"),
    ("[patient] honestly chapman took me in last time .", "chapman"),
    ("[doctor] do you know stringer from the pharmacy ?", "stringer"),
    ("[patient] i saw roper at the bus stop yesterday .", "roper"),
    ("[patient] i can't cope without plumber now .", "plumber"),
    ("[patient] everybody except skinner has had the jab .", "skinner"),
    ("[patient] our neighbour , painter , keeps an eye on me .", "painter"),
    ("[patient] keeper's husband drives me to dialysis .", "keeper"),
    ("[doctor] next of kin : hatter , son .", "hatter"),
    ("[patient] mariner here , just ringing about the results .", "mariner"),
    ("[patient] yesterday sailor booked me in with the nurse .", "sailor"),
    ("[patient] last night squire stayed with me .", "squire"),
    ("[patient] both cobbler and my sister have the same rash .", "cobbler"),
    ("[patient] i remember saddler saying it would pass .", "saddler"),
]

#: the same places with words as words (written after the rule, looked at only to be run)
TRANSFER_WORDS = [
    "[patient] cake was the only thing i could eat .",
    "[patient] traffic was terrible on the way in .",
    "[patient] autumn is when my chest gets worse .",
    "[patient] do you know sage helps with sweating ?",
    "[patient] we saw a plumber at the house .",
    "[patient] everything except bread was fine .",
    "[patient] my trade , plumber , wrecked my back .",
    "[patient] butcher's hook , that's what my nan called it .",
    "[doctor] occupation : plumber .",
    "[patient] winter here is cruel .",
    "[patient] yesterday fog kept me in .",
    "[patient] last week snow stopped play .",
    "[patient] both ginger and honey help my throat .",
    "[patient] i remember carpenter ants in the old house .",
]

#: the transfer check's one word as a word replaced: by an older rule (:mod:`.name_bare_places`' "without X ."), on
#: main before this rule too; this rule never reads "lavender" (:data:`MASS`). 14 of 15 stay
TRANSFER_WORD_TAKEN = "[patient] i can't sleep without lavender ."

#: the words as words in the rule's places: mass nouns, meals, seasons, a catheter, a determiner, a compound
NEGATIVES = [
    "[patient] brandy was all we had in the house .",
    "[patient] dinner was late because of the traffic .",
    "[patient] rain came through the roof .",
    "[patient] foley was removed yesterday .",
    "[doctor] the foley came out this morning .",
    "[patient] the shepherd found me on the hill .",
    "[patient] we saw a potter at work .",
    "[patient] without power the stairlift is useless .",
    "[patient] i can't sleep without brandy in my tea .",
    "[patient] my dad was a farmer , a sheep farmer .",
    "[doctor] farmer's lung is what they tested me for .",
    "[patient] the dessert , brandy snaps , was lovely .",
    "[doctor] contact : the surgery , same number .",
    "[doctor] signed , sealed and delivered , the forms are in .",
    "[patient] merry christmas to you too .",
    "[patient] lamb was on the menu .",
    "[patient] without ginger it's bland .",
]


@pytest.mark.parametrize("text,gone", WRITTEN_FROM + TRANSFER)
def test_an_everyday_word_name_where_it_stands_bare(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and f" {gone}'s " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text", TRANSFER_WORDS + NEGATIVES)
def test_the_word_as_a_word_stays(text):
    assert _out(text) == text


def test_the_transfer_word_an_older_rule_takes():
    assert _out(TRANSFER_WORD_TAKEN) == "[patient] i can't sleep without [NAME] ."
    assert not may_be_everyday("lavender")


def test_only_the_name_goes():
    assert _out("[patient] chandler was worried sick about me .") == "[patient] [NAME] was worried sick about me ."
    assert _out("[patient] the carer , miner , comes at eight .") == "[patient] the carer , [NAME] , comes at eight ."


def test_mass_nouns_roles_and_abstract_nouns_are_never_read():
    assert not any(map(may_be_everyday, "brandy lamb ginger summer dinner kindness nurse doctor glory".split()))
    assert all(map(may_be_everyday, "thatcher chandler fuller robin".split()))
