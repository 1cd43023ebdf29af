"""A name that is a word, bare as the object of a verb whose object is a person, in lower case (issue 50, eleventh
session, :mod:`clinaudit.perturb.name_bare_object`): contacted, invited, helped, trusted, missed or met, and given
something. Hand-written examples: the dev17 forms the rule was written from, a transfer check of 15 sentences of the
same kind written after the rule and looked at only to be run (15 right with the first version, 14 with the landed
one, which reads no "help": "she helped ivy with the stairs" is missed; main: 2), and the negatives (the verb not said
by someone, a determiner, a thing given a try, what is bought or got, institutions, a verb after "help", a term
named)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the dev17 forms the rule was written from, with probe names in no set
WRITTEN_FROM = [
    ("[patient] i called penny as soon as the rash spread .", "penny"),
    ("[patient] i don't want to bother penny with this , she has enough going on .", "penny"),
    ("[doctor] i'll page baxter and see if he can come down .", "baxter"),
    ("[patient] can you text hunter the time of the next appointment ?", "hunter"),
    ("[patient] i gave penny my spare key in case something happens .", "penny"),
    ("[doctor] please send baxter a copy of the scan results .", "baxter"),
    ("[patient] i'll show penny how to use the inhaler tonight .", "penny"),
    ("[patient] i trust hunter with all my medical stuff .", "hunter"),
    ("[doctor] we can invite penny to the family meeting on friday .", "penny"),
    ("[patient] i'll ring baxter back later .", "baxter"),
]

#: the transfer check: written after the rule, in no set
TRANSFER = [
    ("[patient] i phoned sandy when the pain came back .", "sandy"),
    ("[patient] we texted basil about the new dose .", "basil"),
    ("[doctor] you could email wade the letter if that's easier .", "wade"),
    ("[patient] i'll remind dawn to bring the tablets .", "dawn"),
    ("[patient] can you call clay , he's waiting outside ?", "clay"),
    ("[patient] i've invited holly to come along next time .", "holly"),
    ("[patient] we missed sandy , she'd already left .", "sandy"),
    ("[patient] i handed basil the prescription at the door .", "basil"),
    ("[patient] could you pass wade the phone please ?", "wade"),
    ("[patient] i'll bring dawn some leaflets .", "dawn"),
    ("[patient] we bought ivy a blood pressure cuff .", "ivy"),
    ("[patient] i warned clay about the side effects .", "clay"),
    ("[patient] to thank holly for driving me , i bought flowers .", "holly"),
    ("[patient] i met sandy at the pharmacy this morning .", "sandy"),
]


@pytest.mark.parametrize("text, gone", WRITTEN_FROM + TRANSFER)
def test_a_bare_name_as_a_persons_object(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and "[NAME]" in out, out


def test_the_rest_of_the_sentence_stays():
    assert _out("[patient] i handed basil the prescription at the door .") == (
        "[patient] i handed [NAME] the prescription at the door .")


@pytest.mark.parametrize("text", [
    "[patient] it's called holly , the plant with the berries .",
    "[patient] i called the hunter about the dog .",
    "[patient] you should give ginger a try for the nausea .",
    "[patient] we bought basil at the market .",
    "[patient] i gave honey a go for the cough .",
    "[patient] i got ivy from the garden centre .",
    "[patient] can you pass the salt ?",
    "[patient] i'll text work and tell them .",
    "[patient] we called insurance yesterday .",
    "[patient] my hands are like clay , they're so stiff .",
    "[doctor] the glands make too much , which we call hyperaldosterone .",
    "[doctor] a lotion to just help moisturize .",
])
def test_words_that_stay(text):
    assert _out(text) == text
