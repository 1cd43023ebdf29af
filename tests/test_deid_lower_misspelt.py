"""A made-up or rare given name in lower case is no misspelling of a rare word (issue 50, ninth session): a word of
eight letters or fewer that English text never writes is a misspelling only of a word people write (a clinical term,
a spoken form, a whitelist word of Zipf 2.5 or more), unless it begins like a clinical term. Hand-written examples:
the names positive, real misspellings of transcripts negative."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.word_known import looks_like_a_word


def _out(text: str) -> str:
    return deidentify_text(text, gender=False)[0]


@pytest.mark.parametrize("word", ["haejin", "sonise", "nerline", "medjine"])
def test_a_name_one_letter_from_a_rare_word_is_no_misspelling(word):
    assert not looks_like_a_word(word)


@pytest.mark.parametrize("word", ["perscription", "diabetis", "definately", "asprin", "medcine", "nausous",
                                  "wieght", "recieve", "becuase", "tylenal", "abdomal", "dexcom", "stomache"])
def test_a_misspelling_stays_a_word(word):
    assert looks_like_a_word(word) or len(word) < 6


@pytest.mark.parametrize("text, expected", [
    ("[patient] my niece haejin drove me here today .", "[patient] my niece [NAME] drove me here today ."),
    ("[patient] sonise is my daughter , she helps with the pills .",
     "[patient] [NAME] is my daughter , she helps with the pills ."),
])
def test_the_name_is_removed(text, expected):
    assert _out(text) == expected


@pytest.mark.parametrize("text", [
    "[patient] the perscription ran out and my diabetis is worse , i definately need alot more .",
    "[patient] i take asprin and my medcine every day , and i feel nausous .",
    "[patient] the abdomal pain is worse and my dexcom keeps beeping .",
])
def test_misspellings_are_kept(text):
    assert _out(text) == text
