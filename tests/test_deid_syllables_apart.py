"""Names of one-syllable words in lower case (:mod:`clinaudit.perturb.name_syllables_apart`, issue 50, fifteenth
session: benchmarks/deid_dev29.py), with hand-written examples (not the set's names): a Korean given name written as
two syllables apart where a person stands, with the one-syllable surname beside it; a one-syllable surname that is an
English word before a one-syllable or Korean given name found. The same words as words stay."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text


def _deid(text: str) -> str:
    return deidentify_text(text)[0]


def _left(out: str, word: str) -> bool:
    return re.search(rf"(?<![\w'-]){re.escape(word)}(?![\w'-])", out) is not None


@pytest.mark.parametrize("text, gone", [
    ("[patient] i talked to ji hoon about the tablets .", ["ji", "hoon"]),
    ("[patient] kim ji hoon came with me today .", ["kim", "ji", "hoon"]),
    ("[doctor] thanks , hee jin , see you next week .", ["hee", "jin"]),
    ("[patient] my wife seul gi drove me here .", ["seul", "gi"]),
    ("[patient] choi min jun is my emergency contact .", ["choi", "min", "jun"]),
    ("[doctor] is this kwon yu na ? come through .", ["kwon", "yu", "na"]),
    ("[patient] ask jae hee about the forms .", ["jae", "hee"]),
])
def test_a_korean_given_name_apart(text, gone):
    out = _deid(text)
    assert not [w for w in gone if _left(out, w)], out


@pytest.mark.parametrize("text, gone", [
    ("[patient] sun jiwoo came with me .", "sun"),
    ("[patient] my husband minseo song drove me .", "song"),
    ("[patient] tang ming is my emergency contact .", "tang"),
    ("[doctor] i have a letter for lam ming here .", "lam"),
])
def test_a_word_surname_beside_a_given_name(text, gone):
    out = _deid(text)
    assert not _left(out, gone) and "[NAME]" in out, out


@pytest.mark.parametrize("text, stays", [
    ("[patient] the sun bin is full again .", "sun bin"),  # a determiner before: a thing
    ("[patient] i came back from hong kong last week .", "hong kong"),  # a rhyme
    ("[patient] ha ha , not likely .", "ha ha"),  # the same word twice
    ("[patient] i get shin pain when i run .", "shin pain"),  # a body part
    ("[patient] my son came with me today .", "son came"),  # a relative's word
    ("[patient] oh i see , so young people get it too ?", "so young"),  # function words
    ("[doctor] keep the ice on for 5 min at a time .", "5 min"),
    ("[patient] i was out in the sun all day .", "the sun all"),
    ("[patient] there was a song on the radio about it .", "a song on"),
    ("[patient] we ate at the han river place .", "han river"),
    ("[patient] ji-ho sun up every day at six .", "sun up"),  # not before a verb's particle
    ("[patient] it was the moon and the stars .", "moon"),
])
def test_words_stay(text, stays):
    assert stays in _deid(text)


def test_cased_text_is_not_read():
    """Only lower-case speech: a capitalised word is the other rules' (an acronym stays an acronym)."""
    out = _deid("[doctor] The SE BIN report came back clear.")
    assert "SE BIN" in out


#: the transfer check (fifteenth session): 15 sentences with names and 15 with the words as words, written after the
#: rule and not looked at while writing it. Names: main 8 of 15, the rule 13 of 15 ("my daughter ji ah": "ah" is a
#: spoken word; "i work with sun li": "li" is found by no rule, so "sun" has no given name beside it). Words: 11 of
#: 15 stay, on main and with the rule alike ("my daughter hung up", "pho and", "tai chi", "ji-ho sun up early": other
#: rules take them); those four are not here.
TRANSFER_NAMES = [
    ("i asked yu jin to bring my glasses .", "yu jin"),
    ("jung hae won is coming in at three .", "jung hae won"),
    ("thanks , seo yun , that was really helpful .", "seo yun"),
    ("bae su ji came with me today .", "bae su ji"),
    ("i spoke to min seo on the phone .", "min seo"),
    ("our youngest ha eun has a cough too .", "ha eun"),
    ("please call hwang jae min if i don't answer .", "hwang jae min"),
    ("is this lee ji yeon ? you can come in .", "lee ji yeon"),
    ("me and dong hyun drove up together .", "dong hyun"),
    ("chen wei is my emergency contact .", "chen wei"),
    ("tang hui came along to help .", "tang hui"),
    ("my husband tae yang is parking the car .", "tae yang"),
    ("bye now , kim yu na .", "kim yu na"),
]
TRANSFER_WORDS = [
    "i asked for the sun cream to bring along .",
    "it was so young looking , the rash .",
    "thanks , ha ha , that was funny .",
    "i came with a bin bag full of clothes .",
    "our youngest son has a cough too .",
    "is this moon boot still needed ?",
    "the song is my favourite .",
    "the sun came out and it helped .",
    "it was a long song , ha .",
    "we went to the dim sum place on sunday .",
    "i had mi so soup and rice .",
]


@pytest.mark.parametrize("text, name", TRANSFER_NAMES)
def test_transfer_names(text, name):
    out = _deid("[patient] " + text)
    assert not [p for p in name.split() if _left(out, p)], out


@pytest.mark.parametrize("text", TRANSFER_WORDS)
def test_transfer_words_stay(text):
    assert _deid("[patient] " + text) == "[patient] " + text
