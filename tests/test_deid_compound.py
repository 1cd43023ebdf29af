"""A hyphenated given name whose parts are words (issue 50, fourteenth session; ``perturb/name_compound.py``):
positives in lower and cased text, hyphenated words, eponym compounds and reduplications that stay, and a transfer
check written after the rule."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_compound import compound_given_name


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize(("text", "want"), [
    ("marie-claire came with me today .", "[NAME] came with me today ."),
    ("i talked to rose-marie yesterday .", "i talked to [NAME] yesterday ."),
    ("ask jean-marc about it .", "ask [NAME] about it ."),
    ("it was mary-kate who drove me .", "it was [NAME] who drove me ."),
    ("i came in with lily-rose .", "i came in with [NAME] ."),
    ("daisy-may is picking me up .", "[NAME] is picking me up ."),
    ("i got a text from tia-june .", "i got a text from [NAME] ."),
    ("we'll call mi-young later .", "we'll call [NAME] later ."),
    ("so-young says hi .", "[NAME] says hi ."),
    ("i think young-ho has the forms .", "i think [NAME] has the forms ."),
    ("Marie-Claire came with me today.", "[NAME] came with me today."),
])
def test_a_compound_given_name_of_words_is_found(text, want):
    assert _out(text) == want


@pytest.mark.parametrize("text", [
    "the follow-up is in two weeks .",
    "i talked to the x-ray people yesterday .",
    "it was so-so , not great .",
    "i was yo-yo dieting for years .",
    "the tom-tom was loud .",
    "i had a jerry-can of petrol in the boot .",
    "my son is a bit of a know-it-all .",
    "is it charcot-marie-tooth disease ?",
    "positive hawkins-kennedy and neer's test .",
    "the young-un is asleep .",
    "the spray-tan made my skin itch .",
    "the june-bug bites were awful .",
    "i said bye-bye to them .",
])
def test_hyphenated_words_and_eponyms_stay(text):
    assert _out(text) == text


@pytest.mark.parametrize(("key", "want"), [
    ("marie-claire", True), ("daisy-may", True), ("mi-young", True), ("jean-robert", True),
    ("may-daisy", False),  # "may" forms a name only after one
    ("ping-pong", False), ("yo-yo", False), ("jerry-can", False), ("bobby-pin", False), ("x-ray", False),
    ("young-un", False), ("so-so", False),
])
def test_compound_given_name(key, want):
    assert compound_given_name(key) is want


#: transfer check (written after the rule, in no set, not looked at while writing it): names ...
TRANSFER_NAMES = [
    ("my niece paula-jean is coming later .", "[NAME]"),
    ("can you ring rosa-lee for me ?", "[NAME]"),
    ("i stay with june-ann at weekends .", "[NAME]"),
    ("it was grace-ellen who found me .", "[NAME]"),
    ("hi lou-anne , come in .", "[NAME]"),
    ("marc-andre drove me here .", "[NAME]"),
    ("ask jean-luc to wait outside .", "[NAME]"),
    ("ella-may and i share a flat .", "[NAME]"),
    ("i heard it from rose-ann first .", "[NAME]"),
    ("hye-young brought my glasses .", "[NAME]"),
    ("my friend kyoung-mi is a nurse .", "[NAME]"),
    ("tell anna-belle i said thanks .", "[NAME]"),
    ("i left my keys with sarah-jane .", "[NAME]"),
    ("my sister billie-jo lives in leeds .", "[NAME]"),
    ("paul-henri will pick me up .", "[NAME]"),
]
#: ... and hyphenated words in the same places
TRANSFER_WORDS = [
    "my step-son is coming later .",
    "can you ring the walk-in for me ?",
    "i stay with my mother-in-law at weekends .",
    "it was a drive-by that scared me .",
    "hi , check-in is at ten .",
    "the pick-up drove me here .",
    "ask the on-call to wait outside .",
    "the roll-on and i go way back .",
    "i heard it from a know-how website first .",
    "my co-worker brought my glasses .",
    "my ex-wife is a nurse .",
    "tell the hard-of-hearing man i said thanks .",
    "i left my keys with the baby-sitter .",
    "my in-laws live in leeds .",
    "the follow-through will pick me up .",
]


def test_transfer_check():
    """The transfer check: 15 of 15 names found (main 4030b4a: 10), 15 of 15 hyphenated words kept (main: 15)."""
    names = sum(want in _out(text) for text, want in TRANSFER_NAMES)
    words = sum("[NAME]" not in _out(text) for text in TRANSFER_WORDS)  # "man" -> "patient" is the neutralizer's
    assert (names, words) == (15, 15)


@pytest.mark.parametrize("text", [
    # the eponyms of names joined by hyphens that ICD-10-CM writes, without "syndrome" or "disease" after them (dev25's
    # words as words: each was taken 18 times before the fourteenth session's eponym_compound)
    "i was diagnosed with wolff-parkinson-white last year .",
    "i had stevens-johnson from the antibiotic .",
    "my son has osgood-schlatter in the knee .",
    "creutzfeldt-jakob is very rare .",
    "it looked like parkinson-white on the trace .",
    "The rash was Stevens-Johnson, they said.",
])
def test_eponym_compounds_stay(text):
    assert _out(text) == text


def test_eponym_compound():
    from clinaudit.perturb.vocab import clinical_category, eponym_compound

    assert eponym_compound("stevens-johnson") and eponym_compound("parkinson-white") and eponym_compound("tay-sachs")
    assert not eponym_compound("marie-claire") and not eponym_compound("stevens") and not eponym_compound("jean-marc")
    assert clinical_category("Wolff-Parkinson-White") == "condition"
