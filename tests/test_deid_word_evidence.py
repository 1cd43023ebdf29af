"""Names that are English words, found by what the dialog says of them (issue 50, eighth session): a role or a job
after "the" or a possessive, a relative's word as a title, a name set off by commas after a relative, a middle
initial, a possessive before a noun, a given name and surname before a person's verb. Hand-written examples, each
rule with its positives and its negatives (the same words as words)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("text, gone", [
    ("[patient] the nurse moss took my blood this morning .", ["moss"]),
    ("[patient] the night nurse crane checked on me twice .", ["crane"]),
    ("[patient] my therapist wren wants me doing the stretches .", ["wren"]),
    ("[patient] coach pike benched me after i got dizzy .", ["pike"]),
    ("[patient] aunt fern raised me , so i don't know my dad's side .", ["fern"]),
    ("[patient] our foster son , sorrel , has the same cough .", ["sorrel"]),
    ("[patient] i live with my partner , clover heath .", ["clover", "heath"]),
    ("[patient] my sister olive sparrow came with me last time .", ["olive", "sparrow"]),
    ("[patient] my daughter peg made me come in today .", ["peg"]),
])
def test_a_name_after_a_role_or_a_relative(text, gone):
    out = _out(text)
    for w in gone:
        assert f" {w} " not in out, out


@pytest.mark.parametrize("text, kept", [
    ("[patient] the nurse practitioner took my blood this morning .", "practitioner"),
    ("[patient] the nurse also checked my sugar .", "also"),
    ("[patient] aunt also had it , and my uncle .", "also"),
    ("[patient] my son , honestly , has the same cough .", "honestly"),
    ("Patient: Her maternal grandma suffers from high blood pressure.", "suffers"),
    ("[patient] my wife often wanted me to come in .", "often"),
    ("[patient] the coach bus crashed on the way .", "bus"),
])
def test_no_name_after_a_role_or_a_relative(text, kept):
    out = _out(text)
    assert "[NAME]" not in out and f" {kept} " in out, out


@pytest.mark.parametrize("text, gone", [
    ("[patient] my old doctor was fern r . moss , but she retired .", ["fern", "moss"]),
    ("Patient: My old doctor was Clover T. Heath, but she retired.", ["Clover", "Heath"]),
])
def test_a_middle_initial(text, gone):
    out = _out(text)
    for w in gone:
        assert w not in out, out


@pytest.mark.parametrize("text", [
    "[doctor] keep taking the vitamin d . so how are you feeling ?",
    "[patient] plan b . moss grows on the north side anyway .",
    "[patient] i had hepatitis c . heath care was fine .",
])
def test_no_middle_initial(text):
    assert _out(text) == text


@pytest.mark.parametrize("text", [
    "[patient] i left fern's inhaler in the car , so i used mine .",
    "[patient] it was clover's birthday party when i fell .",
])
def test_a_possessive_before_a_noun(text):
    assert "[NAME]'s" in _out(text)


@pytest.mark.parametrize("text", [
    "[patient] autumn's coming and my joints hate it .",
    "[patient] heather's been growing all over the hill .",
    "[doctor] that could be farmer's lung from the hay .",
    "[doctor] the swelling could be a baker's cyst .",
    "[patient] the sorrel's leaves gave me a rash .",
])
def test_no_possessive_name(text):
    assert _out(text) == text


@pytest.mark.parametrize("text, gone", [
    ("[patient] fern moss drives me to all my appointments .", ["fern", "moss"]),
    ("[patient] olive sparrow from church brought me soup .", ["olive", "sparrow"]),
    ("[patient] clover heath , my neighbor , found me in the kitchen .", ["clover", "heath"]),
])
def test_a_given_name_and_surname_before_a_person_verb(text, gone):
    out = _out(text)
    for w in gone:
        assert f"{w} " not in out, out


@pytest.mark.parametrize("text", [
    "[patient] the jade plant drives me nuts .",
    "[patient] the grace period said nothing about it .",
    "[patient] i hope long term this works .",
])
def test_no_pair_without_a_person_verb(text):
    assert _out(text) == text


@pytest.mark.parametrize("text, gone", [
    ("[patient] fern texted me that the pharmacy closes early .", "fern"),
    ("[patient] clover phoned me last night to see how i was .", "clover"),
    ("[patient] olive emailed the forms to my work .", "olive"),
])
def test_the_subject_of_a_message(text, gone):
    out = _out(text)
    assert f"{gone} " not in out, out


@pytest.mark.parametrize("text", [
    "[patient] the pharmacy texted me that it was ready .",
    "[patient] my insurance emailed me a card .",
])
def test_no_subject_of_a_message(text):
    assert "[NAME]" not in _out(text)
