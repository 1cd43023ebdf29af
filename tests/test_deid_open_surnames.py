"""A capitalised "Young" inside cased prose, and a lower-case "young" bare after a preposition or a verb of meeting,
are a surname (issue 50, twenty-eighth session: :mod:`clinaudit.perturb.name_open_surnames`); a heading's title case,
a person's noun after it, a determiner before it, an eponym or a facility, and the adjective keep the word."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_open_surnames import open_surname_capitals
from clinaudit.perturb.name_tokens import tokens


#: a surname: capitalised inside cased prose; bare in lower case after a preposition or a verb of meeting or telling
TAKEN = [
    ("I'm worried about Young, who has not eaten in days.", "I'm worried about [NAME], who has not eaten in days."),
    ("Did you get the referral from Young or from the clinic?",
     "Did you get the referral from [NAME] or from the clinic?"),
    ("Pastor Young prayed with me.", "Pastor [NAME] prayed with me."),
    ("First name Sione, last name Young.", "First name [NAME], last name [NAME]."),
    ("Sione Young is the one who drives me; Young works nights.",
     "[NAME] is the one who drives me; [NAME] works nights."),
    ("i've been seeing young for physical therapy .", "i've been seeing [NAME] for physical therapy ."),
    ("according to young , the cast can come off soon .", "according to [NAME] , the cast can come off soon ."),
    ("we will fax the results to young .", "we will fax the results to [NAME] ."),
    ("did you get the referral from young or from the clinic ?",
     "did you get the referral from [NAME] or from the clinic ?"),
    ("i'm under young at the hospital for my heart .", "i'm under [NAME] at the hospital for my heart ."),
    # read out after "name is" / "name was" where it ends its clause (twenty-ninth session; main 7957a5f kept all three)
    ("the last name is young ?", "the last name is [NAME] ?"),
    ("her maiden name was young .", "their maiden name was [NAME] ."),
    ("the surname on the form , the name is young , right ?", "the surname on the form , the name is [NAME] , right ?"),
]
#: a word: a heading, a person's noun after it, a determiner before it, an eponym, a facility; the adjective
KEPT = [
    "Young people get this too.",
    "I think Young people get this too.",
    "It is Young's syndrome.",
    "I go to the Young Adult clinic.",
    "We run a Young Onset Dementia group.",
    "I went to Young Medical Center.",
    "I saw a Young adult there.",
    "I felt so young and healthy.",
    "it's common in young and old .",
    "talk to young people about it .",
    "you look young .",
    "i was so young .",
    "we married young , at nineteen .",
    "i was with young kids all day .",
    "from young to old , everyone gets it .",
    "is it young or old people who get it ?",
    "for young or old .",
    "i started young .",
    "the name is young and catchy .",
]


@pytest.mark.parametrize("text, expected", TAKEN + [(t, t) for t in KEPT])
def test_young_as_a_surname_and_as_a_word(text, expected):
    assert deidentify_text(text)[0] == expected


def test_the_rule_reads_only_one_capital_inside_a_sentence():
    text = "Young came. I met Young today. I met YOUNG today. I met young today. The Young family came."
    assert [(t.start, t.text) for t in open_surname_capitals(text, tokens(text))] == [(18, "Young")]
