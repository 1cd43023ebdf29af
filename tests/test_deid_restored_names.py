"""Given names philter-ucsf's list dropped as false positives of clinical notes, restored (issue 50, twenty-eighth
session): "Ana" is the US Census 1990's 181st female first name and among the most frequent given names of Spain,
Mexico, Portugal, Brazil, Romania, Croatia and Samoa; its list had dropped it for the lab test, which clinical text
writes "ANA". Before, "I saw Ana yesterday." and "Ana told me to come in." kept the name. And a given name no list
held (twenty-ninth session): "Semi", which English writes as a word; and Samoan given names only philter-ucsf's
whitelist of clinical-note words held (thirtieth session): "Fetu", "Eti", "Iulia"."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.vocab import RESTORED_FIRST_NAMES, first_names, whitelist_words


#: a given name where a person stands, in any case
TAKEN = [
    ("I saw Ana yesterday.", "I saw [NAME] yesterday."),
    ("Was anybody next to Ana when it happened?", "Was anybody next to [NAME] when it happened?"),
    ("Ana told me to come in.", "[NAME] told me to come in."),
    ("Ana fetched my glasses from the car.", "[NAME] fetched my glasses from the car."),
    ("did ana tell you about the new dose ?", "did [NAME] tell you about the new dose ?"),
    ("my daughter ana came .", "my daughter [NAME] came ."),
    ("ana told me to come in .", "[NAME] told me to come in ."),
]
#: the lab test
KEPT = [
    "Further lab work included an ANA which was negative.",
    "ANA: negative",
    "we will check an ana and a sed rate .",
    "ana , esr and crp were normal .",
    "the ana was negative .",
    "we sent ana , dsdna and complement levels .",
    "i want to get an ana , a sed rate and a crp .",
    "your ana came back positive .",
    "ana positive , speckled pattern .",
]


#: "Semi" (:data:`.vocab.ADDED_FIRST_NAMES`, twenty-ninth session): a Tongan and Fijian given name that no list held
#: and English writes as a word ("a semi", "semi fowler", "semi-retired"); before, every one of these kept the name
SEMI_TAKEN = [
    ("my neighbour semi leota came by yesterday with soup .", "my neighbour [NAME] came by yesterday with soup ."),
    ("is semi leota your primary doctor ?", "is [NAME] your primary doctor ?"),
    ("your wife semi mentioned the dizziness on the phone .", "your spouse [NAME] mentioned the dizziness on the phone ."),
    ("how is semi doing these days ?", "how is [NAME] doing these days ?"),
    ("My neighbour Semi Leota came by.", "My neighbour [NAME] came by."),
]
SEMI_KEPT = [
    "i drive a semi for work .",
    "i was hit by a semi on the highway .",
    "keep the head of the bed in semi fowler position .",
    "i'm semi-retired , yes .",
    "the pain is semi constant .",
    "it was a semi private room .",
    "a semi truck hit me .",
]

#: "Fetu", "Eti", "Iulia" (thirtieth session): Samoan given names ("fetu" star, "iulia" Julia) in no name list, which
#: philter-ucsf's whitelist holds as words of clinical notes though English text writes them seldom or never (Zipf 0,
#: 2.21, 1.76): rare names now, as the gazetteer's rare names are. Before, each of these kept the name
SAMOAN_TAKEN = [
    ("fetu's mother had the same thing last spring .", "[NAME]'s mother had the same thing last spring ."),
    ("i said , \"fetu , you need to rest .\"", "i said , \"[NAME] , you need to rest .\""),
    ("i stayed with iulia in boston over the holidays .", "i stayed with [NAME] in boston over the holidays ."),
    ("i was sitting beside eti on the bus .", "i was sitting beside [NAME] on the bus ."),
    ("Iulia says I snore so loud that nobody can sleep.", "[NAME] says I snore so loud that nobody can sleep."),
    ("We were at Fetu's house when it started.", "We were at [NAME]'s house when it started."),
]


@pytest.mark.parametrize("text, expected", TAKEN + [(t, t) for t in KEPT] + SEMI_TAKEN + [(t, t) for t in SEMI_KEPT]
                         + SAMOAN_TAKEN)
def test_given_names_taken_and_the_words_stay(text, expected):
    assert deidentify_text(text)[0] == expected


def test_restored_names_are_given_names_the_whitelist_still_holds():
    assert RESTORED_FIRST_NAMES <= first_names()
    assert RESTORED_FIRST_NAMES <= whitelist_words()  # a word in lower case where no person is named


@pytest.mark.parametrize("text", ["Check the Ana Titer today.", "Check the Ana titer today.",
                                  "Doctor: Your Ana was positive."])
def test_after_an_article_or_a_possessive_it_is_the_lab_test(text):
    assert deidentify_text(text)[0] == text


def test_added_names_are_given_names_no_list_held():
    import json

    from clinaudit.perturb.vocab import ADDED_FIRST_NAMES, package_dir

    listed = json.loads((package_dir("philter_ucsf", "philter-ucsf") / "filters/blacklists/firstnames_minus_fps.json")
                        .read_text(encoding="utf-8"))
    assert ADDED_FIRST_NAMES <= first_names()
    assert not ADDED_FIRST_NAMES & {str(w).lower() for w in listed}


@pytest.mark.parametrize("key, rare", [("fetu", True), ("eti", True), ("iulia", True), ("semi", False)])
def test_an_added_name_english_seldom_writes_is_a_rare_name(key, rare):
    from clinaudit.perturb.name_word import word_facts

    w = word_facts(key)
    assert w.first and w.rare is rare and w.common is not rare  # "semi" (Zipf 4.51) stays a word as well
