"""A name the drug list holds ("Hana", "Cerna": gazetteer names English seldom writes) is a name where a naming
context or a person's place says so, never found bare (perturb/name_word.Word.person_drug, issue 50, seventh
session). Hand-written examples, positive and negative."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_word import blocked, word_facts


@pytest.mark.parametrize("text, gone", [
    ("Patient: My neighbor Hana Cerna drove me here.", "Cerna"),
    ("Patient: My neighbor Hana Cerna drove me here.", "Hana"),
    ("[patient] hana drove me here .", "hana"),
    ("[patient] my neighbor hana cerna drove me .", "cerna"),
])
def test_a_drug_word_that_is_a_name_where_a_person_stands(text, gone):
    assert gone not in deidentify_text(text)[0]


@pytest.mark.parametrize("text", [
    "Patient: I take Allegra and Lyrica, and Tarka for my pressure. I took Camila before.",
    "[patient] i take allegra and lyrica , and tarka for my pressure , and camila .",
    "Patient: The Allegra helps, and my metro gel too.",
    "[patient] i had some marijuana and ecstasy back then .",
])
def test_drugs_stay(text):
    assert deidentify_text(text)[0] == text


def test_person_drug():
    assert word_facts("hana").person_drug and word_facts("cerna").person_drug and not blocked(word_facts("hana"))
    assert not any(word_facts(k).person_drug for k in ("metro", "marijuana", "ecstasy", "tylenol", "spica", "pee"))
    assert blocked(word_facts("tylenol")) and blocked(word_facts("metro"))
