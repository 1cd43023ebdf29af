"""UK and Irish names the word lists call words, found by what the dialog says of them (issue 50, ninth session;
benchmarks/deid_dev12.py): an Irish surname whose "O'" is spaced the way ACI-Bench writes an apostrophe, a possessive
before a person's inhaler or cream in cased text or with a word in no list, a capitalised name set off by commas
after a role or a relative. Hand-written examples, each rule with its positives and its negatives."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text, gender=False)[0]


@pytest.mark.parametrize("text, expected", [
    ("[patient] my neighbour grainne o 'malley drove me in .", "[patient] my neighbour [NAME] drove me in ."),
    ("[doctor] i'll ask o 'halloran at the desk to ring you .", "[doctor] i'll ask [NAME] at the desk to ring you ."),
    ("Patient: The physio, Mr O 'Keeffe, said to rest it.", "Patient: The physio, Mr [NAME], said to rest it."),
])
def test_a_spaced_elided_particle_is_a_surname(text, expected):
    assert _out(text) == expected


@pytest.mark.parametrize("text", [
    "[patient] it was ten o 'clock when the pain started .",
    "[patient] d 'you know what i mean ?",
    "[patient] i still dance to rock n 'roll on fridays .",
    "[patient] the nurse said it 's fine , so i 'm okay .",
])
def test_a_spaced_apostrophe_keeps_words(text):
    assert _out(text) == text


@pytest.mark.parametrize("text, gone", [
    ("Patient: I borrowed Nuala's cream for the rash.", "Nuala"),
    ("Patient: I left Gwen's inhaler in the car, so I used mine.", "Gwen"),
    ("Patient: I've been taking Oisin's pills by mistake.", "Oisin"),
    ("[patient] i borrowed caoilfhionn's cream for the rash .", "caoilfhionn"),
    ("[patient] i used deirbhile's inhaler when mine ran out .", "deirbhile"),
])
def test_a_possessive_before_a_persons_thing(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize("text", [
    "Patient: I used the Aveeno cream on it.",
    "Patient: The patient's pills are in the bag.",
    "Patient: I left Mom's inhaler in the car.",
    "Doctor: Peyer's patch was enlarged on the scan.",
    "Patient: My sister's cream did nothing.",
    "[patient] i used my husband's cream on it .",
    "[patient] it's cream colored , not white .",
])
def test_a_possessive_before_a_thing_keeps_words(text):
    assert _out(text) == text


@pytest.mark.parametrize("text, gone", [
    ("Patient: The physio, Kidney, says I can start jogging again.", ["Kidney"]),
    ("Patient: The therapist, Strong, wants me doing the stretches twice a day.", ["Strong"]),
    ("Patient: My sister, Hazel Short, came with me.", ["Hazel", "Short"]),
    ("Patient: Our foster son, Art, has the same cough.", ["Art"]),
])
def test_a_capitalised_name_set_off_after_a_role_or_a_relative(text, gone):
    out = _out(text)
    assert not [w for w in gone if w in out]


@pytest.mark.parametrize("text", [
    "Patient: Her mother, Diabetes, and her father, Heart disease.",
    "Patient: My mother, Breast cancer at fifty.",
    "Patient: My doctor, Cardiology, sent me over.",
    "Patient: My husband, Tylenol, helps a bit.",
    "Patient: The nurse, Yesterday, said it was fine.",
    "Patient: My son, Thank God, is fine.",
])
def test_a_capitalised_word_set_off_after_a_relative_keeps_words(text):
    assert _out(text) == text


@pytest.mark.parametrize("text, gone", [
    ("[patient] my flatmate hazel found me on the kitchen floor .", "hazel"),
    ("[patient] my mam hazel drove me in this morning .", "hazel"),
    ("Patient: My granny, Nuala Quill, had the very same thing.", "Quill"),
])
def test_a_uk_or_irish_relatives_word(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize("text", [
    "[patient] my granny had the same thing when she was young .",
    "[patient] my mam always said to keep warm .",
    "[patient] my flatmate cooks most nights .",
])
def test_a_uk_or_irish_relatives_word_keeps_words(text):
    assert _out(text) == text
