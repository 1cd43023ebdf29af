"""What a name's letters say, from the eighth development set's losses (benchmarks/deid_dev8.py, issue 50, eighth
session), each with hand-written examples (not the set's names): a word ending in a vowel one letter from a whitelist
word that English text never writes is a name, not a misspelling (:mod:`clinaudit.perturb.word_known`); names in
capitals with the onsets of the Nguni languages, and an all-capital word beside a name in capitals
(:mod:`clinaudit.perturb.name_letters`)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.word_known import looks_like_a_word


def _deid(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("word", ["lerato", "palesa", "lusanda", "dragana", "branka", "lubica"])
def test_a_vowel_ending_one_letter_from_a_word_english_never_writes_is_no_misspelling(word):
    assert not looks_like_a_word(word)


@pytest.mark.parametrize("word", [
    "comodonal", "abdomal", "ostiomeatal",  # the real dialogs' misspellings of rare clinical words: consonant ends
    "asprin", "sideline", "medicaton", "recieve",  # misspellings of words people write
])
def test_misspellings_stay_words(word):
    assert looks_like_a_word(word) or word == "sideline"  # "sideline" is listed


@pytest.mark.parametrize("text, expected", [
    ("[patient] lerato told me to come in because of the cough .",
     "[patient] [NAME] told me to come in because of the cough ."),
    ("[doctor] has palesa been helping you with the dressings ?",
     "[doctor] has [NAME] been helping you with the dressings ?"),
    ("[patient] i gave dragana my spare key .", "[patient] i gave [NAME] my spare key ."),
])
def test_such_names_are_removed_in_lower_case(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Patient: MKHABELA NOKUPHILA is what it says on my card.", "Patient: [NAME] is what it says on my card."),
    ("Doctor: The letter says NDLANGAMANDLA THULISILE, is that right?",
     "Doctor: The letter says [NAME], is that right?"),
    ("Patient: It says NTSHEBE on the bracelet.", "Patient: It says [NAME] on the bracelet."),
    ("Patient: HLOPHE MBALI, that's me.", "Patient: [NAME], that's me."),
    # a word beside a name in capitals that English text seldom writes
    ("Patient: My card says DUVAL WISLY.", "Patient: My card says [NAME]."),
    ("Doctor: I have MARTINEZ SONO here.", "Doctor: I have [NAME] here."),
])
def test_names_in_capitals(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Doctor: Start FOLFOX and check the CBC; the MRI SCAN was fine, NTPROBNP high, ECOG 1.",
    "Doctor: THANK YOU VERY MUCH, you are DOING WELL NOW.",
    "Doctor: PAIN SCORE 4, MUCH BETTER THAN LAST TIME.",
    "Doctor: NSTEMI ruled out, NYHA class II, CHA2DS2-VASc 3, HFrEF on GDMT.",
    "Patient: It says NONE on the form and CASH ONLY at the desk.",
])
def test_capitals_that_are_no_names_stay(text):
    assert _deid(text) == text


def test_a_common_word_beside_a_name_in_capitals_stays():
    assert _deid("Patient: The form says JOHNSON PAIN CLINIC.") == "Patient: The form says [NAME] PAIN CLINIC."
    assert _deid("Patient: JANE SMITH DOB 1/2/1960.") == "Patient: [NAME] DOB 1/2/1960."


@pytest.mark.parametrize("text, expected", [
    # beside a name found in lower case, a word only the whitelist holds that English text seldom writes
    ("[patient] we stayed at tolu okonjo's place while the heat was out .",
     "[patient] we stayed at [NAME]'s place while the heat was out ."),
    ("[patient] my neighbour puna kealamaka drove me here .", "[patient] my neighbour [NAME] drove me here ."),
])
def test_a_rare_whitelist_word_beside_a_name_in_lower_case(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "[doctor] on palpation there is tenderness .",  # no name beside it
    "[patient] i take tolu syrup for the cough .",
])
def test_rare_whitelist_words_alone_stay(text):
    assert _deid(text) == text


def test_a_rare_whitelist_word_beside_a_name_in_capitals_stays():
    assert _deid("Patient: JANE SMITH DOB 1/2/1960.") == "Patient: [NAME] DOB 1/2/1960."


@pytest.mark.parametrize("text, expected", [
    # a glottal stop written as an apostrophe before a name's first vowel (Tongan, Hawaiian)
    ("[patient] 'ikani drove me here this morning .", "[patient] [NAME] drove me here this morning ."),
    ("Patient: My aunt ’Ulukalala takes me to dialysis.", "Patient: My aunt [NAME] takes me to dialysis."),
    ("[patient] we stayed at 'ikani's place .", "[patient] we stayed at [NAME]'s place ."),
])
def test_a_name_that_begins_with_an_apostrophe(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "[patient] they said 'ouch' and left .",  # a quoted word
    "[patient] i've had it 'til now , 'cause of the 'ole thing .",  # elisions, a dropped "h"
    "[doctor] we call it 'afib' for short .",
    "[patient] i told 'em about the 'ospital bill .",
    "Patient: They said 'I am fine' and went home.",
])
def test_apostrophes_before_words_stay(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    # Korean given names of hyphenated syllables, one of which English writes as a function word
    ("[patient] every sunday ye-in cooks for the whole family .",
     "[patient] every sunday [NAME] cooks for the whole family ."),
    ("[doctor] would a-yeong be able to stay with you ?", "[doctor] would [NAME] be able to stay with you ?"),
    ("Patient: I went with So-ri to the clinic.", "Patient: I went with [NAME] to the clinic."),
])
def test_a_korean_name_with_a_function_word_syllable(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "[patient] it was a so-long kind of day , a to-do list , uh-oh , a-ha , no-go .",
    "[patient] we did the be-in thing , the yo-yo , so-so .",
    "[patient] i am on-call and my in-law is a go-to person .",
])
def test_english_hyphenated_words_stay(text):
    assert _deid(text) == text
