"""A given name that the word lists call a word only because a dictionary holds a headword of its spelling is a name
in lower case wherever it stands (issue 50, twelfth session: :mod:`clinaudit.perturb.name_headword`); words English
uses, also given names, stay."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_headword import headword_only_name, own_inflections_zipf
from clinaudit.perturb.name_word import word_facts

#: the lead's probe forms that lost such names on main f61e529, with names the rule reads (none of a set)
POSITIVES = [
    ("i came in with eric .", "eric"),
    ("who brought you ? laura .", "laura"),
    ("i'll let colin know .", "colin"),
    ("me , terry and my son live there .", "terry"),
    ("i got a text from florence .", "florence"),
    ("i was with gregory all day .", "gregory"),
    ("timothy is picking me up .", "timothy"),
    ("hand over from elaine : bed four is stable .", "elaine"),
    ("i think lionel has the forms .", "lionel"),
    ("it was larry who drove me .", "larry"),
    ("seth says hi .", "seth"),
    ("ask peggy about it .", "peggy"),
]

#: words English uses, also gazetteer given names, in the same places: they stay
NEGATIVES = [
    "i think basil helps , i put it on everything .",
    "hazel eyes run in my family .",
    "we sang happy birthday and i got breathless .",
    "i've sung in the choir for years .",
    "i hung the washing out and felt dizzy .",
    "we wiped our feet on the mats .",
    "i paid in sterling at the airport .",
    "autumn is when my asthma flares .",
    "i was with holly and ivy decorations all day .",
    "the pain is like a wolf gnawing .",
    "i lent my car to a friend .",
]


@pytest.mark.parametrize(("text", "name"), POSITIVES)
def test_a_headword_only_name_is_replaced_in_lower_case(text, name):
    out = deidentify_text(text)[0]
    assert name not in out.split(), out


@pytest.mark.parametrize("text", NEGATIVES)
def test_words_english_uses_stay(text):
    assert deidentify_text(text)[0] == text


@pytest.mark.xfail(strict=True, reason="a limit: an interjection the lists hold only as a name and a headword, used "
                                       "inflected never (docs/deidentification.md, Limits)")
def test_amen_stays():
    assert deidentify_text("amen to that , doctor .")[0] == "amen to that , doctor ."


def test_what_the_word_is():
    assert all(headword_only_name(k) for k in ("eric", "laura", "florence", "timothy"))
    # a word English uses: inflected ("basil"/"basils" within 2.5), a strong verb's past, a plural, an adjective, a
    # relative's or function word, below 3.5 (rare_as_a_word's) or above 4.5 (a word name: "mark")
    assert not any(headword_only_name(k) for k in ("basil", "hazel", "sung", "sang", "hung", "mats", "genuine",
                                                    "holly", "heather", "mark", "rose", "will"))
    assert own_inflections_zipf("destin") < 3.0  # "destined" is "destine"'s, "lines" no plural of "lin"
    assert word_facts("eric").rare and not word_facts("eric").common
    assert not word_facts("basil").rare


@pytest.mark.parametrize("text", ["I searched ERIC for the paper.", "The TROY trial showed it.",
                                  "Per ELAINE protocol we wait.", "We use the LAURA score."])
def test_in_capitals_an_acronym_stays(text):
    assert deidentify_text(text)[0] == text


@pytest.mark.parametrize(("text", "out"), [("I came in with Eric.", "I came in with [NAME]."),
                                           ("Dr. ERIC was there.", "Dr. [NAME] was there."),
                                           ("MY NAME IS ERIC.", "MY NAME IS [NAME].")])
def test_cased_text_and_naming_contexts_as_before(text, out):
    assert deidentify_text(text)[0] == out


#: the transfer check (written after the rule, in no set): 15 names of the kind, 15 words of the kind, 5 forms each
TRANSFER_NAMES = "homer lester lionel rex troy walter warren moses alma viola brent chad wong roger matthew".split()
TRANSFER_WORDS = "almond cedar maple willow badger otter beaver hawk raven falcon frost hail velvet silk granite".split()
NAME_FORMS = ["i came in with {n} .", "i got a text from {n} .", "{n} is picking me up .", "i think {n} has the forms .",
              "i was with {n} all day ."]
WORD_FORMS = ["i came in with {n} dust on my coat .", "i got a rash from {n} oil .",
              "{n} is everywhere this time of year .", "i think {n} has gone up in price .",
              "i was with {n} samples all day at work ."]


def test_transfer_words_stay():
    for word in TRANSFER_WORDS:
        for form in WORD_FORMS:
            assert deidentify_text(form.format(n=word))[0] == form.format(n=word)


def test_transfer_names():
    """25 of the 75 removed (main f61e529: 15, "walter", "roger", "matthew" by older rules); "lionel" and "troy" by
    this rule in every form; the other ten are outside it (inflections within 2.5 of the name: "homer", "alma",
    "lester", "rex", "brent", "warren"; no capitalised entry in Webster's: "viola", "chad", "wong"; read as the
    plural of "mos": "moses")."""
    removed = {n: sum(n not in deidentify_text(f.format(n=n))[0].split() for f in NAME_FORMS) for n in TRANSFER_NAMES}
    assert removed["lionel"] == removed["troy"] == 5
    assert sum(removed.values()) >= 25
