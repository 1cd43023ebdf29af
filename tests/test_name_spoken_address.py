"""A given name addressed in speech with no punctuation around it (:mod:`clinaudit.perturb.name_spoken_address`,
issue 50, nineteenth session): taken after a greeting, an address opener or a question to the listener and before a
clause to the listener; the same places holding words as words stay."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_spoken_address import spoken_address_names
from clinaudit.perturb.name_tokens import tokens


def _taken(line: str) -> list[str]:
    text = "[doctor] " + line
    return [t.key for t in spoken_address_names(text, tokens(text))]


@pytest.mark.parametrize(("line", "name"), [
    ("hi ivy how are you doing", "ivy"),
    ("hey there rusty what brings you in", "rusty"),
    ("good morning dawn i'm the registrar", "dawn"),
    ("welcome back sunny how was the trip", "sunny"),
    ("nice to see you ruby i know it's been a while", "ruby"),
    ("okay so bill tell me about the cough", "bill"),
    ("alright penny let's have a look", "penny"),
    ("how have you been feeling norm any better", "norm"),
    ("does this hurt woody when i press", "woody"),
])
def test_an_addressed_name_is_taken(line, name):
    assert _taken(line) == [name]


@pytest.mark.parametrize("line", [
    "hi honey how are you",              # a term of address
    "hey buddy how's it going",
    "hi there how are you",              # a function word
    "hi again how are you doing",        # an adverb
    "okay lately i've been tired",
    "so today we'll check your bloods",
    "okay great so tell me",             # a pleasantry
    "how have you been sleeping lately any better",
    "hi ivy , how are you",              # punctuation: the other rules' place
    "the ivy grew over the fence",       # no greeting, no opener
    "hi ivy",                            # no clause after
    "i saw ray how he walked",           # no greeting nor opener
])
def test_a_word_in_the_same_places_stays(line):
    assert _taken(line) == []


def test_in_cased_text_only_a_capitalised_word():
    text = "[doctor] Okay so mark your calendar for the scan.\n[doctor] Hi Ruby how are you?"
    assert [t.text for t in spoken_address_names(text, tokens(text))] == ["Ruby"]


def test_the_pipeline_replaces_it():
    out, _ = deidentify_text("[doctor] hey good morning ruby how are you\n[patient] fine thanks")
    assert "ruby" not in out


def test_a_clinical_word_stays_even_when_a_given_name():
    assert _taken("okay so crystal how are you") == []  # the lists call "crystal" a condition word


@pytest.mark.parametrize("line", ["okay so when you what beach did you go to", "so which lake do you fish on",
                                  "how long have you had your rash any worse"])
def test_the_questions_own_noun_stays(line):
    assert _taken(line) == []


#: the transfer check (written after the rule was final, run once, not tuned on): fresh forms of spoken address, a
#: word-like given name in each, and the same slots holding words as words
TRANSFER_NAMES = [
    ("hey hunter how's the knee treating you", "hunter"),
    ("hi chase what can we do for you today", "chase"),
    ("good afternoon wade have a seat wherever you like", "wade"),
    ("hello there miles i'm going to be your nurse today", "miles"),
    ("oh hey lance long time how have things been", "lance"),
    ("morning dale how was the drive in", "dale"),
    ("okay cliff we're going to start with your blood pressure", "cliff"),
    ("so heath what's going on with the cough", "heath"),
    ("alright sterling tell me where it hurts the most", "sterling"),
    ("well earl i've got your scan results here", "earl"),
    ("now duke did you bring your medication list", "duke"),
    ("how's the diet going august are you sticking to it", "august"),
    ("do you get short of breath autumn when you walk up hills", "autumn"),
    ("great to see you blaze how's the family", "blaze"),
    ("sorry grant i didn't catch that last part", "grant"),
]
TRANSFER_WORDS = [
    "hey champ how's the knee treating you",
    "hi there what can we do for you today",
    "good afternoon everyone have a seat wherever you like",
    "hello there again i'm going to be your nurse today",
    "oh hey long time how have things been",
    "morning sunshine how was the drive in",
    "okay first we're going to start with your blood pressure",
    "so basically what's going on with the cough",
    "alright then tell me where it hurts the most",
    "well actually i've got your scan results here",
    "now remember did you bring your medication list",
    "how's the diet going lately are you sticking to it",
    "do you get short of breath sometimes when you walk up hills",
    "great to see you again how's the family",
    "sorry love i didn't catch that last part",
]


def test_transfer_check():
    """Run once after the rule was final (nineteenth session): 14 of 15 names removed ("august" stays: a month, a
    function word), no word of the 15 sentences replaced; main 873ef41: 0 of 15 names, 0 words."""
    import re

    removed = [n for s, n in TRANSFER_NAMES if not re.search(rf"\b{n}\b", deidentify_text("[doctor] " + s)[0])]
    replaced = [s for s in TRANSFER_WORDS if "[NAME]" in deidentify_text("[doctor] " + s)[0]]
    assert len(removed) == 14 and "august" not in removed
    assert replaced == []
