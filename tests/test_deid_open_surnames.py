"""A capitalised "Young" inside cased prose is a surname (issue 50, twenty-eighth session:
:mod:`clinaudit.perturb.name_open_surnames`); a heading's title case, a person's noun after it, a determiner before
it, an eponym or a facility keep the word."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_open_surnames import open_surname_capitals
from clinaudit.perturb.name_tokens import tokens


@pytest.mark.parametrize("text, expected", [
    ("I'm worried about Young, who has not eaten in days.", "I'm worried about [NAME], who has not eaten in days."),
    ("Did you get the referral from Young or from the clinic?",
     "Did you get the referral from [NAME] or from the clinic?"),
    ("Pastor Young prayed with me.", "Pastor [NAME] prayed with me."),
    ("First name Sione, last name Young.", "First name [NAME], last name [NAME]."),
    ("Sione Young is the one who drives me; Young works nights.",
     "[NAME] is the one who drives me; [NAME] works nights."),
])
def test_a_capitalised_young_inside_a_sentence_is_a_surname(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "Young people get this too.",
    "I think Young people get this too.",
    "It is Young's syndrome.",
    "I go to the Young Adult clinic.",
    "We run a Young Onset Dementia group.",
    "I went to Young Medical Center.",
    "I saw a Young adult there.",
    "I felt so young and healthy.",
])
def test_a_heading_a_person_noun_an_eponym_or_a_facility_keep_the_word(text):
    assert deidentify_text(text)[0] == text


def test_the_rule_reads_only_one_capital_inside_a_sentence():
    text = "Young came. I met Young today. I met YOUNG today. I met young today. The Young family came."
    assert [(t.start, t.text) for t in open_surname_capitals(text, tokens(text))] == [(18, "Young")]
