"""A rare word where real speech puts a person, in lower case (perturb/name_rare_slots.py; issue 50, eighth session:
benchmarks/deid_dev7.py, forms taken from real speech); and a dictated subject before "'s a 61-year-old"
(perturb/name_context.py). The examples are written here (names of no development set)."""

from __future__ import annotations

import pytest

from clinaudit.perturb import deid


def _out(sentence: str) -> str:
    text = ("[doctor] hi , how are you doing today ?\n[patient] " + sentence + " my knee has been bothering me .\n"
            "[doctor] okay . when did it start ?\n[patient] about two weeks ago , after i went hiking .")
    return deid.deidentify_text(text)[0].split("\n")[1]


@pytest.mark.parametrize("sentence, name", [
    # a clause's subject before an auxiliary, a verb of living or dying, an adverb, a contraction
    ("ingibjorg is usually here with me .", "ingibjorg"),
    ("radomila was in a car crash last year .", "radomila"),
    ("wojtek has a history of depression .", "wojtek"),
    ("szczepan's gon na drive me home .", "szczepan"),
    ("so , torvald actually passed away in march .", "torvald"),
    ("and brunhild did say to watch the salt .", "brunhild"),
    ("i was sixty when sune was born .", "sune"),  # an opener inside the sentence
    ("yeah i think bodil has passed a couple of them .", "bodil"),
    ("it looks like wojtek was admitted last night .", "wojtek"),
    ("o radomila is in town this week .", "radomila"),  # a surname's particle before it
    # the one addressed: after a turn's interjection and a comma, or before a question to them
    ("okay then , szczepan . let's see .", "szczepan"),
    ("okay , jytte . do you smoke ?", "jytte"),
    ("great , vibeke ! i will put the order in .", "vibeke"),
    ("dorte , were you having some dizziness ?", "dorte"),
    ("pirkko , should we go over the plan ?", "pirkko"),
    # the subject asked about
    ("is raili retired with you ?", "raili"),
    ("and why is annikki here today ?", "annikki"),
    # a rare dictionary headword ("norn", Zipf 2.1) where no thing stands
    ("norn is usually here with me .", "norn"),
    ("okay , norn . any fever ?", "norn"),
])
def test_a_rare_word_where_a_person_stands(sentence, name):
    assert name not in _out(sentence).split(), _out(sentence)


@pytest.mark.parametrize("sentence, word", [
    ("and flareups can be unpredictable .", "flareups"),  # a common word before a modal: a thing does that too
    ("so toret is that it's a nervous system disorder .", "toret"),  # a definition's "is that"
    ("okay , gotcha .", "gotcha"),  # an everyday spoken word (Zipf 3.4)
    # a headword before a modal ("norn will pick me up ." was here: a person's errand, which name_given_words reads
    # for a word no name list holds since the twenty-fourth session)
    ("norn will help .", "norn"),
    ("i switched to wixela . and wixela is fine . put the wixela aside .", "wixela"),  # the dialog's thing
    ("okay , good . is tylenol helping ?", "tylenol"),  # a drug
    ("the pain is better , so the knee is fine .", "knee"),
    ("okay , sure . do you smoke ?", "sure"),
    ("it looks like flareups can come back .", "flareups"),
])
def test_not_where_a_thing_stands(sentence, word):
    assert word in _out(sentence).split(), _out(sentence)


@pytest.mark.parametrize("sentence, name", [
    ("so crawley's a 59 year old man here for a check .", "crawley"),
    ("radomila's a 36-year-old female with knee pain .", "radomila"),
])
def test_a_dictated_subject_before_a_contracted_is(sentence, name):
    assert name not in _out(sentence).split(), _out(sentence)


def test_a_relative_before_a_contracted_is_stays():
    assert "[NAME]" not in _out("my wife's a 60 year old teacher .")


@pytest.mark.parametrize("sentence, name", [
    ("hey norn how are you today ?", "norn"),  # a rare dictionary headword after a greeting (name_context)
    ("good morning norn how are you doing this morning", "norn"),
])
def test_a_rare_headword_after_a_greeting(sentence, name):
    assert name not in _out(sentence).split(), _out(sentence)


@pytest.mark.parametrize("sentence, word", [
    ("thanks gotcha .", "gotcha"),  # an everyday spoken word (Zipf 3.4)
    ("hey guys how are you", "guys"),
    ("hi there how are you", "there"),
])
def test_not_an_everyday_word_after_a_greeting(sentence, word):
    assert word in _out(sentence).split(), _out(sentence)
