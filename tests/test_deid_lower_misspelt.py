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


@pytest.mark.parametrize("word", ["razvan", "oystein", "steinar"])
def test_a_name_web_text_writes_more_than_its_one_edit_word_is_no_misspelling(word):
    """Twenty-second session: "razvan" (Zipf 1.44) is no misspelling of "rahvan" (0), "oystein" (1.05) none of
    "cystein" (0); "steinar" was found after the rule, in names written to measure it."""
    assert not looks_like_a_word(word)


@pytest.mark.parametrize("word", ["leeuwen", "thembile"])
def test_no_word_cut_short_nor_run_together(word):
    """Twenty-second session: "leeuwen" (Zipf 2.01) is no start of "leeuwenhoek" said short (a word English writes
    is cut only from one written about as often); "thembile" is no "them" and "bile" (no pronoun begins a word run
    together)."""
    assert not looks_like_a_word(word)


@pytest.mark.parametrize("word", ["daguerre", "hepatospleno", "exhal", "skatepark", "exhusband"])
def test_words_cut_short_or_run_together_stay_words(word):
    assert looks_like_a_word(word)


@pytest.mark.parametrize("word", ["smoothie", "offload"])
def test_a_word_about_as_common_as_its_one_edit_word_stays_a_word(word):
    """In no list but English: "smoothie" (3.25) beside "smoothies" (3.05), "offload" (2.76) beside "offroad" (2.5):
    within :data:`.word_known.MISSPELT_MARGIN`."""
    assert looks_like_a_word(word)


@pytest.mark.parametrize("word", ["perscription", "diabetis", "definately", "asprin", "medcine", "nausous",
                                  "wieght", "recieve", "becuase", "tylenal", "abdomal", "stomache"])
def test_a_misspelling_stays_a_word(word):
    assert looks_like_a_word(word) or len(word) < 6


@pytest.mark.parametrize("text, expected", [
    ("[patient] my niece haejin drove me here today .", "[patient] my niece [NAME] drove me here today ."),
    ("[patient] sonise is my daughter , she helps with the pills .",
     "[patient] [NAME] is my daughter , she helps with the pills ."),
    ("[patient] i drove steinar to his appointment , he was nervous .",
     "[patient] i drove [NAME] to his appointment , he was nervous ."),
    ("[patient] i drove oystein to dialysis this morning .", "[patient] i drove [NAME] to dialysis this morning ."),
    ("doctor: meet razvan , our new medical student .", "doctor: meet [NAME] , our new medical student ."),
    ("doctor: meet thembile , our new medical student .", "doctor: meet [NAME] , our new medical student ."),
    ("[patient] my neighbour joost van leeuwen drove me here .", "[patient] my neighbour [NAME] drove me here ."),
])
def test_the_name_is_removed(text, expected):
    assert _out(text) == expected


@pytest.mark.parametrize("text", [
    "[patient] the perscription ran out and my diabetis is worse , i definately need alot more .",
    "[patient] i take asprin and my medcine every day , and i feel nausous .",
    "[patient] the abdomal pain is worse and my dexcom keeps beeping .",
    "[patient] i had a smoothie after the walk , then we had to offload the shopping .",
])
def test_misspellings_are_kept(text):
    assert _out(text) == text
