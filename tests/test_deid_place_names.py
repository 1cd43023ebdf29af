"""A given name or surname that is the name of a country, a US state or a region, where a place cannot stand, in lower
case (issue 50, sixteenth session, :mod:`clinaudit.perturb.name_place_names`), and a Gaelic surname of "mag" and a
stem (:mod:`clinaudit.perturb.name_particle_apart`). Hand-written examples: the places the rule was written from
(names in no set), a transfer check of 15 names and 15 words as words written after the rule and looked at only to
be run, and the negatives (the same words as places, teams, governments and before a noun)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_place_names import may_be_place


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the places the rule was written from, with names in no set
WRITTEN_FROM = [
    ("[patient] cuba came with me today .", "cuba"),
    ("[patient] i talked to syria yesterday about it .", "syria"),
    ("[patient] so jamaica rang the surgery for me .", "jamaica"),
    ("[patient] it was tennessee who found me on the floor .", "tennessee"),
    ("[patient] tell vermont i said thanks .", "vermont"),
    ("[patient] me and brazil went to the shop .", "brazil"),
    ("[patient] malta and i have been married forty years .", "malta"),
    ("[patient] my sister is called libya .", "libya"),
    ("[patient] austria was worried sick about me .", "austria"),
    ("[patient] sweden cried when she heard .", "sweden"),
    ("[patient] i came in with trinidad .", "trinidad"),
    ("[doctor] thanks for waiting , cyprus .", "cyprus"),
    ("[patient] our neighbour noreen denmark keeps an eye on me .", "denmark"),
    ("[patient] is this salvador walsh's number ?", "salvador"),
]

#: written after the rule, looked at only to be run (names in none of the sets or the probes)
TRANSFER = [
    ("[patient] alabama picked me up after .", "alabama"),
    ("[patient] it was iowa who called the ambulance .", "iowa"),
    ("[doctor] could you ask utah to bring the tablets in ?", "utah"),
    ("[patient] tonga says hi , by the way .", "tonga"),
    ("[patient] i live with my partner , alaska .", "alaska"),
    ("[patient] so oklahoma drove me here .", "oklahoma"),
    ("[patient] sudan and her husband brought me in .", "sudan"),
    ("[patient] hi , it's belize here , calling about mum .", "belize"),
    ("[patient] let rwanda know i'm okay .", "rwanda"),
    ("[patient] i couldn't manage without zimbabwe , honestly .", "zimbabwe"),
    ("[patient] declan mag raighne came with me today .", "raighne"),
    ("[patient] nebraska forgot my glasses again .", "nebraska"),
    ("[doctor] the referral came from oregon mcbride .", "oregon"),
]

#: the transfer check's two names the rule left (13 of 15 taken): "me and X" is read after a clause's break or a
#: conjunction, not after a bracketed speaker label; "my granddaughter's called X" writes the relative's "'s" joined,
#: and the rule reads "my granddaughter is called" or "'s" apart
TRANSFER_LEFT = [
    "[patient] me and bolivia walk the dog every night .",
    "[patient] my granddaughter's called uganda .",
]

#: the same places with the words as places, written after the rule, looked at only to be run
TRANSFER_WORDS = [
    "[patient] we flew back from alabama on monday .",
    "[patient] iowa was freezing when we visited .",
    "[patient] utah has beautiful national parks .",
    "[patient] tonga beat samoa in the rugby .",
    "[patient] my brother lives in bolivia now .",
    "[patient] alaska cruises are too cold for me .",
    "[patient] oklahoma is where i grew up .",
    "[patient] sudan was in the news again .",
    "[patient] belize is lovely this time of year .",
    "[patient] a trip to rwanda to see the gorillas .",
    "[patient] uganda said no to the aid deal .",
    "[patient] zimbabwe lost the cricket again .",
    "[patient] i read it in a mag at the dentist .",
    "[patient] nebraska gets so much snow .",
    "[doctor] have you been to oregon recently ?",
]

#: the words as places in the rule's places: where one lives, goes, comes from; a team; a government; before a noun
NEGATIVES = [
    "[patient] we moved from georgia when i was six .",
    "[patient] she lives in jordan with her husband now .",
    "[patient] egypt was amazing but the food upset me .",
    "[patient] england lost again on saturday .",
    "[patient] ireland beat france in the rugby .",
    "[patient] washington approved the funding .",
    "[patient] washington says the budget is fine .",
    "[patient] a georgia peach , that's my favourite .",
    "[patient] india pale ale is my drink .",
    "[patient] holland park is where i walk .",
    "[patient] we went to york england for the weekend .",
    "[patient] we came back from egypt yesterday .",
    "[patient] i went to new york with my son .",
    "[patient] mag wheels , that's what he spent it on .",
    "[patient] i bought a car mag for the train .",
]


@pytest.mark.parametrize("text,gone", WRITTEN_FROM + TRANSFER)
def test_a_place_name_where_a_place_cannot_stand(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and f" {gone}'s " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text", TRANSFER_WORDS + NEGATIVES + TRANSFER_LEFT)
def test_the_word_as_a_place_stays(text):
    assert "[NAME]" not in _out(text)


def test_only_the_name_goes():
    assert _out("[patient] cuba came with me today .") == "[patient] [NAME] came with me today ."
    assert _out("[patient] is this salvador walsh's number ?") == "[patient] is this [NAME]'s number ?"
    assert _out("[patient] mag uidhir came with me today .") == "[patient] [NAME] came with me today ."


def test_the_words_read():
    assert all(map(may_be_place, "georgia india jordan wales england chad".split()))
    assert not any(map(may_be_place, "kerry shannon london english american Georgia".split()))


def test_a_town_and_its_state_after_a_preposition():
    """A town another rule takes before a state's name after "to" is a place: the state stays (the real dialogs'
    "columbus georgia")."""
    assert "georgia" in _out("patient: we went down to columbus georgia last spring .")
