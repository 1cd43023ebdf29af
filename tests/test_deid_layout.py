"""What stands right beside a name and how text is laid out (issue 50, ninth session; benchmarks/deid_dev10.py): a
name in square brackets (perturb/name_brackets.py), a place after "at" not read before ACI's possessive written apart
("at jyrki 's house", perturb/not_a_name.py), a word in capitals in a lower-case line (perturb/name_letters.py).
Hand-written examples (none of the by-origin benchmark's names or forms)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_brackets import bracket_name_spans


@pytest.mark.parametrize("text, expected", [
    ("[doctor] hello .\n[tatjana] hi , i'm his wife .", "[doctor] hello .\n[NAME] hi , i'm his wife ."),
    ("Doctor: Hello.\n[Radovan] Hi, I'm her son.", "Doctor: Hello.\n[NAME] Hi, I'm her son."),
    ("Doctor: The form lists [Ingeborg Halvorsen] as the contact.", "Doctor: The form lists [NAME] as the contact."),
    ("[patient] my contact is [ximena] on the card .", "[patient] my contact is [NAME] on the card ."),
    ("[patient] ask [ dagny ] about it .", "[patient] ask [NAME] about it ."),
])
def test_a_name_in_square_brackets(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[doctor] okay .\n[patient] yeah [inaudible] and then [laughter] [pause] .",
    "[patient_guest] she is fine .\n[doctor] good .",
    "Doctor: It was [NAME] who called, and [NAME]'s wife. [UNK] [MASK]",
    "Patient: I said [sic] that it hurt [crosstalk] and [coughs].",
    "Doctor: The score was [high] and the [MRI] [copd] [aspirin] [the] [will].",
    "Doctor: ok [silence] [music] [overlapping] [unclear]",
])
def test_what_else_stands_in_square_brackets(text):
    assert deidentify_text(text, gender=False)[0] == text
    assert bracket_name_spans(text) == [] or "[NAME]" in text  # a placeholder is never read


@pytest.mark.parametrize("text, expected", [
    ("[patient] i slept at radka 's place .", "[patient] i slept at [NAME] 's place ."),
    ("Patient: We had dinner at Svetlana 's house.", "Patient: We had dinner at [NAME] 's house."),
    ("[patient] we met at anneliese ' s flat .", None),  # no possessive: not read here (a known gap)
])
def test_a_possessive_written_apart_after_at(text, expected):
    if expected is not None:
        assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] i was at walgreens 's pharmacy .",
    "[patient] i was at home 's all right .",
    "[patient] i work at target 's warehouse .",
])
def test_a_place_after_at_before_a_possessive_written_apart(text):
    assert deidentify_text(text, gender=False)[0] == text


@pytest.mark.parametrize("text, expected", [
    ("[doctor] the letter from WOJTASZEK came yesterday .", "[doctor] the letter from [NAME] came yesterday ."),
    ("[patient] it was HRAFNKELL on the phone .", "[patient] it was [NAME] on the phone ."),
])
def test_a_word_in_capitals_in_a_lower_case_line(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[doctor] we will start FOLFOX and then XELOX .",
    "[doctor] your MRI and CBC were fine , and the HEENT exam too .",
    "[patient] it was REALLY bad , VERY painful .",
    "Doctor: We start FOLFIRINOX and then CAPOX.",  # a cased line: as before
])
def test_capitals_that_stay(text):
    assert deidentify_text(text, gender=False)[0] == text
