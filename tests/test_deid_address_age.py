"""Issue 31: gendered forms of address are removed as titles are, first-person ages become [AGE], and numbers
that are not ages stay (perturb.deid_rules through perturb.deid.deidentify_text)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text, find_residual_identifiers, residual_identifiers
from clinaudit.perturb.deid_rules import address_spans, first_person_age_spans


def _deid(text: str) -> str:
    return deidentify_text(text, detector=False)[0]


@pytest.mark.parametrize(("before", "after"), [
    ("Doctor: Good afternoon, sir. Did you have a birthday?", "Doctor: Good afternoon. Did you have a birthday?"),
    ("Patient: Yes sir, it hurts.", "Patient: Yes, it hurts."),
    ("Patient: Yes, sir.", "Patient: Yes."),
    ("Patient: No sir.", "Patient: No."),
    ("Doctor: Good afternoon, sir, and who is this with you?", "Doctor: Good afternoon, and who is this with you?"),
    ("Doctor: How old are you madam?", "Doctor: How old are you?"),
    ("Doctor: Welcome to the clinic, sir!", "Doctor: Welcome to the clinic!"),
    # at an utterance's start: the next word is capitalised
    ("Doctor: Ma'am, are you feeling okay?", "Doctor: Are you feeling okay?"),
    ("Doctor: Sir? Can you hear me?", "Doctor: Can you hear me?"),
    ("Guest_family: Is it bad?\nDoctor: Ma’am, let us have a look.", "Guest_family: Is it bad?\nDoctor: Let us have a look."),
    # ACI's lower-case, tokenised speech
    ("[doctor] yes , sir , and we will send the results", "[doctor] yes, and we will send the results"),
    ("[patient] yes ma'am i finally did it", "[patient] yes i finally did it"),
    ("[doctor] how are you doing ma'am ?\n[patient] fine", "[doctor] how are you doing?\n[patient] fine"),
    ("[doctor] okay\n[patient] ma'am\n[doctor] any weakness", "[doctor] okay\n[patient]\n[doctor] any weakness"),
    ("[doctor] good to see you mister [NAME] .", "[doctor] good to see you [NAME] ."),
    ("[doctor] so mister i would like to examine you", "[doctor] so i would like to examine you"),
    # "miss" and "young man" only as a vocative
    ("Doctor: Hello, miss. How are you?", "Doctor: Hello. How are you?"),
    ("Doctor: Hi miss. Where do you work, miss?", "Doctor: Hi. Where do you work?"),
    ("Doctor: Thank you miss.", "Doctor: Thank you."),
    ("Doctor: Hello, miss how can I help?", "Doctor: Hello, how can I help?"),
    ("Doctor: Good morning, Miss XYZ.", "Doctor: Good morning, XYZ."),
    ("Doctor: Good morning, young man. Is this your mother?", "Doctor: Good morning. Is this your mother?"),
    ("Patient: I miss work. Did you miss a dose? I don't miss it.",
     "Patient: I miss work. Did you miss a dose? I don't miss it."),
    ("Patient: They dismiss it, a near miss. Thank youmiss.", "Patient: They dismiss it, a near miss. Thank youmiss."),
    ("Patient: I ate sirloin at the Madameville diner.", "Patient: I ate sirloin at the Madameville diner."),
])
def test_forms_of_address_removed_readably(before, after):
    assert _deid(before) == after


def test_title_before_a_listed_name():
    out, rep = deidentify_text("[doctor] good to see you mister smith", names=["Smith"], detector=False)
    assert out == "[doctor] good to see you [NAME]"
    assert [(r["kind"], r["source"]) for r in rep.removed] == [("address", "rule"), ("name", "metadata")]


def test_address_recorded_by_category_and_source_and_not_a_residual():
    text = "Doctor: Hello, sir. How old are you?\nPatient: I'm fifty five, sir.\nDoctor: Thank you, ma'am."
    out, rep = deidentify_text(text)
    assert out == "Doctor: Hello. How old are you?\nPatient: I'm [AGE].\nDoctor: Thank you."
    assert [(r["kind"], r["source"], r["old"], r["new"]) for r in rep.removed] == [
        ("address", "rule", ", sir", ""), ("age", "rule", "fifty five", "[AGE]"), ("address", "rule", ", sir", ""),
        ("address", "rule", ", ma'am", "")]
    for r in rep.removed:
        assert text[r["start"]:r["end"]] == r["old"]
    assert residual_identifiers(rep.remaining) == []
    # the residual check of the same text before de-identification finds all three
    assert [r["kind"] for r in residual_identifiers(find_residual_identifiers(text))] == [
        "gendered_term", "first_person_age", "gendered_term", "gendered_term"]


@pytest.mark.parametrize(("before", "after"), [
    ("Patient: I'm 45.", "Patient: I'm [AGE]."),
    ("Patient: I am forty five years old.", "Patient: I am [AGE]."),
    ("Patient: I am fifty-five.", "Patient: I am [AGE]."),
    ("Patient: I just turned 60.", "Patient: I just turned [AGE]."),
    ("Patient: I turned seventy four last month.", "Patient: I turned [AGE] last month."),
    ("Patient: I'm only thirty eight.", "Patient: I'm only [AGE]."),
    ("Patient: I'll be ninety later this month.", "Patient: I'll be [AGE] later this month."),
    ("Patient: I'm going to be 70 in May.", "Patient: I'm going to be [AGE] in May."),
    ("[patient] i'm 44 now and i smoke", "[patient] i'm [AGE] now and i smoke"),
    ("Patient: I am 85 years of age.", "Patient: I am [AGE]."),
    ("Patient: I am seventy five years young.", "Patient: I am [AGE]."),
    ("Doctor: Did you have a good thirty-sixth birthday?", "Doctor: Did you have a good [AGE] birthday?"),
])
def test_first_person_ages_become_age(before, after):
    out, rep = deidentify_text(before, detector=False)
    assert out == after
    assert [(r["kind"], r["new"]) for r in rep.removed] == [("age", "[AGE]")]
    assert residual_identifiers(rep.remaining) == []


@pytest.mark.parametrize("text", [
    "Patient: I take 40 mg twice a day.",
    "Patient: I'm 5 foot 6.",
    "Patient: I'm five ten and I'm 150 pounds.",
    "Patient: I am two eighty four pounds right now.",
    "Patient: My pressure? I'm 120 over 80, I'm 120/80.",
    "Patient: I'm 10:30 at the latest.",
    "Patient: I'm eight years out from surgery, I'm five years smoke free.",
    "Patient: I'm 30 weeks along and I'm 98.6 today.",
    "Patient: I'm one of those people. I'm two doors down.",
    "Patient: I'm 100 percent sure, I'm 20 minutes away.",
    "Patient: I'm 14 days post op.",
])
def test_numbers_that_are_not_ages_stay(text):
    assert first_person_age_spans(text) == []
    out, rep = deidentify_text(text, detector=False)
    assert out == text
    assert [r for r in rep.remaining if r["kind"] == "first_person_age"] == []


def test_rules_follow_the_switches():
    text = "Doctor: Hello, sir.\nPatient: I'm forty two."
    # names only (deidentify_names' setting): both stay, and both are reported
    out, rep = deidentify_text(text, gender=False, ages=False, detector=False)
    assert out == text
    assert [r["kind"] for r in residual_identifiers(rep.remaining)] == ["gendered_term", "first_person_age"]
    assert address_spans(text) == [(13, 18, False)]  # ", sir"
