"""A name that is a word, bare in the places of a sentence where English puts a person and no bare noun, in lower case
(issue 50, twelfth session, :mod:`clinaudit.perturb.name_bare_places`): after a preposition whose object is a person,
the answer to a who-question, "let X know", "have X call", "get X to", a list with "me", a progressive's or a
complement clause's subject, a hand-over line. Hand-written examples: dev19's forms the rule was written from (with
the probe's names, in no set), a transfer check of 15 sentences with names and 15 with the same words as words in the
same places, written after the rule and looked at only to be run (names: 14 of 15 right, main 1; words: 13 of 15
kept, main 14: "worried about dawn , it's the nights" is taken, "me and gill nets" older rules take), and the
negatives dev19's word uses were written as."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: dev19's kinds of place the rule was written from, with the probe's names (in no set)
WRITTEN_FROM = [
    ("[patient] i came in with holly this morning .", "holly"),
    ("[patient] she lives with ivy and my son .", "ivy"),
    ("[patient] i had a call from rory last night .", "rory"),
    ("[patient] i'm here for dawn , she couldn't get off work .", "dawn"),
    ("[patient] i can't manage without gill now .", "gill"),
    ("[patient] everyone came to the party except lynch .", "lynch"),
    ("[patient] who took me ? holly did , in her car .", "holly"),
    ("[patient] who else was there ? just ivy .", "ivy"),
    ("[doctor] i'll let rory know the results when they're in .", "rory"),
    ("[doctor] i'll have dawn call you this afternoon .", "dawn"),
    ("[patient] i'll get raj to drop the forms in .", "raj"),
    ("[patient] me , holly and my son all had it .", "holly"),
    ("[patient] ivy's driving me home after .", "ivy"),
    ("[patient] rory was the one who found me .", "rory"),
    ("[patient] i think dawn has my discharge letter .", "dawn"),
    ("[doctor] over to brady , she has bays one to three .", "brady"),
]

#: the transfer check: written after the rule, in no set
TRANSFER = [
    ("[patient] i got a voicemail from rory this morning .", "rory"),
    ("[patient] i've been so worried about ivy since the fall .", "ivy"),
    ("[patient] i couldn't cope without dawn , she does everything .", "dawn"),
    ("[patient] who drove you in ? sunny , my son-in-law .", "sunny"),
    ("[doctor] i'll let raj know you're here .", "raj"),
    ("[doctor] can we have gill ring you tomorrow ?", "gill"),
    ("[patient] i'll get brady to pick me up .", "brady"),
    ("[patient] it's me , lynch and the two dogs .", "lynch"),
    ("[patient] holly and i share the driving .", "holly"),
    ("[patient] ivy is taking me to my sister's after .", "ivy"),
    ("[patient] i reckon dawn took the letter .", "dawn"),
    ("[nurse] handover from rory : bay two is settled .", "rory"),
    ("[patient] everybody had the flu except sunny .", "sunny"),
    ("[patient] she's younger than raj .", "raj"),
]


@pytest.mark.parametrize("text, gone", WRITTEN_FROM + TRANSFER)
def test_a_bare_name_where_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and f" {gone}'" not in out and "[NAME]" in out, out


def test_the_rest_of_the_sentence_stays():
    assert _out("[nurse] handover from rory : bay two is settled .") == "[nurse] handover from [NAME] : bay two is settled ."
    assert _out("[doctor] i'll let raj know you're here .") == "[doctor] i'll let [NAME] know you're here ."


@pytest.mark.xfail(strict=True, reason="the transfer check's miss: 'shops' takes no person after 'with' here")
def test_transfer_miss():
    assert "holly" not in _out("[patient] i went to the shops with holly on saturday .")


@pytest.mark.parametrize("text", [
    # the transfer check's words, in the same places
    "[patient] i came home with holly for the door , christmas .",
    "[patient] i got a rash from ivy in the garden .",
    "[patient] i can't cope without sunny weather .",
    "[patient] what's growing up the wall ? ivy , all of it .",
    "[patient] let holly berries dry before you use them .",
    "[patient] we have ivy climbing the fence .",
    "[patient] i can't get holly to grow here .",
    "[patient] holly and ivy , that's what we put up .",
    "[patient] ivy is growing over the window .",
    "[patient] i reckon dawn is the worst time for the pain .",
    "[nurse] handover from holly ward : bed two is settled .",
    "[patient] everything in the garden died except the holly .",
    "[patient] it's brighter than dawn out there .",
    # dev19's kinds of word use, with words the detector does not take anywhere
    "[patient] i've been washing with willow , it calms the skin .",
    "[patient] i can't sleep without willow .",
    "[patient] nothing works except tiger balm .",
    "[doctor] who gave you that ? tiger balm , you mean ?",
    "[patient] me , tiger balm and a hot bath , that's my evenings .",
    "[patient] me , pepper and salt , that's all i season with .",  # dev18's, taken by the first version
    "[patient] willow is coming down in the wind , the old tree .",
    "[patient] i guess willow has the same pollen as birch .",
    "[doctor] over to trinity for the night , the long stay patients .",
    "[patient] it's a bit misty out , mind the roads .",
])
def test_words_that_stay(text):
    assert _out(text) == text


@pytest.mark.xfail(strict=True, reason="the transfer check's word taken: a word at a clause's end after 'worried about'")
def test_transfer_word_taken():
    text = "[patient] i'm not worried about dawn , it's the nights ."
    assert _out(text) == text
