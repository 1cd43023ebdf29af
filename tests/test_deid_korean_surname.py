"""A Korean surname beside a Korean given name found, in lower case (:mod:`clinaudit.perturb.name_korean`, issue 50,
tenth session: benchmarks/deid_dev14.py and the Korean rows of dev6, dev8, dev11), with hand-written examples (not the
sets' names): a one-syllable word English seldom writes, right beside a given name written as a Korean one, is its
surname; English words of the same shape stay."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_korean import korean_given_shape, korean_surname_beside


def _deid(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("word", ["ji-ho", "minseo", "dohyun", "seo-yeon", "jaewon", "hyunwoo", "sangmin"])
def test_korean_given_shape(word):
    assert korean_given_shape(word)


@pytest.mark.parametrize("word", ["linda", "mango", "santo", "tommy", "maria", "bingo", "condo", "hanna", "jimmy"])
def test_no_korean_given_shape(word):
    assert not korean_given_shape(word)


@pytest.mark.parametrize("text, gone", [
    ("[patient] my friend ji-ho gu drove me here .", "gu"),
    ("[patient] my cousin seo-yeon goh does my shopping .", "goh"),
    ("[patient] and jaewon pyo from church came by .", "pyo"),
])
def test_surname_beside_a_korean_given_name(text, gone):
    out = _deid(text)
    assert f" {gone} " not in out and "[NAME]" in out


@pytest.mark.parametrize("text, stays", [
    ("[patient] ji-ho ran out of insulin last week .", "ran out"),  # frequent in English (Zipf 4 or more)
    ("[patient] minseo can help with the meals .", "can help"),
    ("[patient] ask minseo chin up for the picture .", "chin up"),  # a clinical word, and a verb's particle after it
    ("[patient] dohyun go to the pharmacy please .", "go to"),
    ("[patient] jiwoo um said it hurts .", "um said"),  # a spoken word
    ("[patient] the mango gu was good .", "mango gu"),  # no name beside it
    ("[patient] my friend linda gu drove me here .", "gu drove"),  # a given name not written as a Korean one
])
def test_english_words_stay(text, stays):
    assert stays in _deid(text)


def test_the_word_after_is_a_particle():
    assert not korean_surname_beside("hum", "ji-ho", "hum along to the radio", 3)
    assert not korean_surname_beside("dim", "ji-ho", "dim down the lights", 3)
    assert korean_surname_beside("gu", "ji-ho", "gu drove me", 2)


@pytest.mark.parametrize("text, gone", [
    ("[patient] my friend ch'angsu drove me here .", "ch'angsu"),
    ("[patient] it's kim , ch'unhui kim , on the card .", "ch'unhui"),
    ("[patient] k'wangil from work covers my shifts .", "k'wangil"),
])
def test_mccune_reischauer_apostrophe(text, gone):
    assert gone not in _deid(text)


@pytest.mark.parametrize("text, stays", [
    ("[patient] i do t'ai chi on tuesdays .", "t'ai"),  # too short
    ("[patient] one or t'other , doesn't matter .", "t'other"),
    ("[patient] i can't remember .", "can't"),
])
def test_apostrophe_words_stay(text, stays):
    assert stays in _deid(text)
