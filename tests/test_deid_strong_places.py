"""A listed given name that the lists also hold as a word or a clinical abbreviation, where only a person stands
(issue 50, sixteenth session, :mod:`clinaudit.perturb.name_strong_places`). Hand-written examples: the places the
rule was written from (names in no set), a transfer check of 15 names and 15 words as words written after the rule
and looked at only to be run, and the negatives (the same words as results, tests, departments and words)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_strong_places import strong_word


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the places the rule was written from, with names in no set
WRITTEN_FROM = [
    ("[patient] this is my nephew ned , he drove me here .", "ned"),
    ("[patient] my eldest , dawn , does my shopping .", "dawn"),
    ("[patient] my support worker eve fills in the forms .", "eve"),
    ("[doctor] hello again jo , how was the weekend ?", "jo"),
    ("[doctor] good afternoon nat , i'm one of the doctors .", "nat"),
    ("[doctor] sorry to keep you waiting dan , we're behind today .", "dan"),
    ("[patient] pam is my next of kin , you can ring her any time .", "pam"),
    ("[patient] ted is down as my emergency contact .", "ted"),
    ("[doctor] next of kin is mae , the patient's wife .", "mae"),
    ("[patient] rod signed the consent form for me .", "rod"),
    ("[patient] ben sat with me all night on the ward .", "ben"),
    ("[patient] say thank you to ash for me .", "ash"),
    ("[doctor] did sam come with you today ?", "sam"),
]

#: written after the rule, looked at only to be run (names in none of the sets or the probes)
TRANSFER = [
    ("[patient] my granddaughter kit translates for me .", "kit"),
    ("[patient] our lodger , sue , found me on the floor .", "sue"),
    ("[doctor] hiya bob , come through .", "bob"),
    ("[doctor] thanks ivy , that's really helpful .", "ivy"),
    ("[patient] ray is my lasting power of attorney .", "ray"),
    ("[doctor] emergency contact is joy , her daughter .", "joy"),
    ("[patient] dot phoned 999 when i collapsed .", "dot"),
    ("[patient] pat cooked for me while i was poorly .", "pat"),
    ("[patient] mo drove me in this morning .", "mo"),
    ("[patient] my stepson , rob , does the garden .", "rob"),
    ("[patient] sol and i have been married thirty years .", "sol"),
    ("[doctor] nice to meet you faith , i'm the registrar .", "faith"),
    ("[patient] my brother-in-law bill is waiting outside .", "bill"),
]

#: the same kind of words as words, written after the rule, looked at only to be run
TRANSFER_WORDS = [
    "[patient] my son's kit is still in the car .",
    "[doctor] hi , the pat test was fine .",
    "[doctor] thanks , the dot on the scan is nothing .",
    "[patient] art is my way of relaxing .",
    "[patient] hope is my only comfort now .",
    "[doctor] the mo was on call last night .",
    "[doctor] did the bill come to you ?",
    "[patient] my husband's joy is his garden .",
    "[patient] morning , faith keeps me going .",
    "[patient] sol gel is what they put on .",
    "[patient] ray of sunshine , that's my nurse .",
    "[doctor] the pat slide was normal .",
]

#: the transfer check's two names the rule leaves (13 of 15 taken; 15 of 15 with the rule as first run, which also read
#: every word Webster's lists capitalised and no word too common): "art" is no given name of the list, "al" is a word
#: English writes too often (Zipf 5.16) to be read as one (main finds 10 of the 15)
TRANSFER_LEFT = [
    "[patient] so art is my next of kin now .",
    "[doctor] could you ask al to bring the inhaler in ?",
]

#: the transfer check's three words as words replaced (12 of 15 kept): main replaces the same three, by other rules
#: (this rule reads none of them: no relative's word, greeting or clause's start before a person's verb there)
TRANSFER_WORDS_LEFT = [
    "[doctor] ask al anon for the leaflet .",
    "[patient] my mum rose early today .",
    "[patient] my daughter bob her hair last week .",
]

#: the same words as results, tests, departments and words, in the rule's places' neighbourhood
NEGATIVES = [
    "[doctor] the ed was heaving on saturday .",
    "[patient] my nephew's ed appointment was moved .",
    "[doctor] hi , the tia was brief .",
    "[doctor] morning , ed is full again .",
    "[doctor] thanks , the ala result is back .",
    "[doctor] the ana came back negative .",
    "[doctor] his ed visit was in 2019 .",
    "[patient] my son's art teacher rang .",
    "[patient] my daughter is late , sorry .",
    "[patient] hope is all i have left .",
    "[doctor] did the rash come back ?",
    "[patient] my husband , bless him , drove me .",
]


@pytest.mark.parametrize("text,gone", WRITTEN_FROM + TRANSFER)
def test_a_listed_word_name_where_only_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text", TRANSFER_WORDS + NEGATIVES)
def test_the_word_as_a_word_stays(text):
    assert "[NAME]" not in _out(text)


def test_only_the_name_goes():
    assert _out("[patient] pam is my next of kin .") == "[patient] [NAME] is my next of kin ."
    assert _out("[doctor] good afternoon nat , take a seat .") == "[doctor] good afternoon [NAME] , take a seat ."


def test_the_words_read():
    # "dee" is rare as a word since the twenty-fifth session (no lexicon reading: name_word), read by other rules
    assert all(map(strong_word, "mel sal mar gala ala alba ed len".split())) and not strong_word("dee")
    assert not any(map(strong_word, "the son carer love honey morning will may tele little way".split()))


def test_a_window_cut_is_no_sentence_start():
    """A place read at the window's first character is no sentence's start: the word after a long run without a
    stop is read only where the words right before it say so."""
    text = "[patient] " + "word " * 30 + "mel signed the form ."
    assert "[NAME]" not in _out(text)
