""""name was X" is the naming context "name is X" was (issue 50, twenty-ninth session, ``perturb/name_context.py``):
a maiden name, a late mother's or a nurse's name is told in the past tense ("her maiden name was hope"); before, a
gazetteer name that is also a word stayed there ("hope", "park", "brown"), in lower case and cased. What a name was
("called", "read out", "on the list") and a thing's name ("the drug name was", "the brand name is") stay."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


@pytest.mark.parametrize("text, expected", [
    ("my maiden name was hope .", "my maiden name was [NAME] ."),
    ("my maiden name was brown .", "my maiden name was [NAME] ."),
    ("My maiden name was Brown.", "My maiden name was [NAME]."),
    ("my mother's name was park .", "my mother's name was [NAME] ."),
    ("the nurse's name was hope ?", "the nurse's name was [NAME] ?"),
    ("the nurse's name was semi ?", "the nurse's name was [NAME] ?"),
])
def test_name_was_names(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "my name was called twice .",
    "my name is called out at the desk .",
    "my name was read out .",
    "my name was on the list .",
    "my name was spelled wrong .",
    "the brand name was tylenol .",
    "the drug name was metformin .",
    "the drug name is metformin .",  # main 7957a5f took "metformin" here
    "the medicine name is lisinopril .",  # and "lisinopril"
    "the generic name was atorvastatin .",
])
def test_what_a_name_was_and_a_things_name_stay(text):
    assert deidentify_text(text)[0] == text
