"""A surname that is a clinical eponym, where a person stands (issue 50, seventeenth session,
:mod:`clinaudit.perturb.name_eponym_persons`). Hand-written examples: the places the rule was written from (names in
no set), a transfer check of 15 names and 15 eponyms as eponyms written after the rule and looked at only to be run,
and the negatives (the same words as conditions, signs, tests, clinics and procedures)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_eponym_persons import eponym_surname


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the places the rule was written from, with names in no set
WRITTEN_FROM = [
    ("[patient] romberg sends her love , she couldn't come .", "romberg"),
    ("[patient] my carer is wernicke , she's lovely .", "wernicke"),
    ("[patient] i came with babinski today .", "babinski"),
    ("[patient] korsakoff booked this appointment for me .", "korsakoff"),
    ("[patient] my neighbour raynaud keeps an eye on me .", "raynaud"),
    ("[patient] gordon huntington is my next of kin .", "huntington"),
    ("[patient] gordon huntington is my next of kin .", "gordon"),
    ("[doctor] would you like doppler to stay while i examine you ?", "doppler"),
    ("[patient] ring meckel if i'm not answering .", "meckel"),
    ("[patient] me and burkitt go fishing on saturdays .", "burkitt"),
    ("[patient] Chiari picks up my prescriptions for me.", "Chiari"),
    ("[patient] My friend Agnes Romberg had a fall. Romberg broke her hip.", "Romberg"),
]

#: written after the rule, looked at only to be run (names in none of the sets or the probes)
TRANSFER = [
    ("[patient] heimlich drove me in this morning .", "heimlich"),
    ("[patient] my son-in-law holter is parking the car .", "holter"),
    ("[patient] my lodger is scheuermann , he's very good .", "scheuermann"),
    ("[doctor] is sjogren your next of kin ?", "sjogren"),
    ("[patient] i came in with lachman this morning .", "lachman"),
    ("[patient] charcot from next door has a spare key .", "charcot"),
    ("[patient] marfan rang me last night about it .", "marfan"),
    ("[patient] my carer buerger can't come today .", "buerger"),
    ("[patient] ehlers and i have been friends for years .", "ehlers"),
    ("[patient] Haglund told me to come in.", "Haglund"),
    ("[patient] phyllis kanner is my emergency contact .", "kanner"),
    ("[patient] Norman Leber lives two doors down from me.", "Leber"),
    ("[doctor] let sprengel know when you're ready .", "sprengel"),
    ("[patient] Thanks to Tietze, I got here on time.", "Tietze"),
    ("[patient] my mate dupuytren looks after the dog .", "dupuytren"),
]

#: the same kind of words as eponyms, written after the rule, looked at only to be run
TRANSFER_WORDS = [
    "[patient] the heimlich manoeuvre saved him .",
    "[doctor] we'll put a holter on you for 24 hours .",
    "[doctor] scheuermann's disease explains the curve .",
    "[patient] my sjogren's makes my eyes dry .",
    "[doctor] a positive lachman on the left knee .",
    "[doctor] charcot foot is a risk with diabetes .",
    "[doctor] marfan syndrome was ruled out .",
    "[doctor] buerger's test was normal .",
    "[patient] i have ehlers danlos , the hypermobile type .",
    "[doctor] haglund deformity of the heel .",
    "[doctor] Kanner described autism first.",
    "[doctor] Leber hereditary optic neuropathy is rare.",
    "[doctor] sprengel shoulder is congenital .",
    "[doctor] tietze syndrome is a costochondritis .",
    "[patient] they operated on my dupuytren's last year .",
]

#: the transfer check's one name the rule leaves (14 of 15 taken; main 5f0f95b takes 7 of the 15, by other rules):
#: a question's subject before "your next of kin" is none of the rule's places
TRANSFER_LEFT = [
    "[doctor] is sjogren your next of kin ?",
]
#: the transfer check's words as eponyms: 15 of 15 kept (main 15 of 15)

#: the same words as conditions, signs, tests, clinics and procedures, in the rule's places' neighbourhood
NEGATIVES = [
    "[patient] his parkinson's is worse this winter .",
    "[doctor] the parkinson nurse will ring you .",
    "[patient] i've got parkinsons , since 2019 .",
    "[patient] they did a whipple last year .",
    "[doctor] cushing's was ruled out .",
    "[doctor] a pott's fracture of the left ankle .",
    "[doctor] positive hashimoto antibodies , so that fits .",
    "[patient] my hodgkin was stage two .",
    "[doctor] merkel cell carcinoma on his cheek .",
    "[patient] i came with crohn's flare-ups all week .",
    "[patient] my carer is crohn's nurse specialist .",
    "[doctor] wolff parkinson white on the ecg .",
    "[doctor] a mallory weiss tear from the vomiting .",
    "[doctor] kawasaki disease can affect the heart .",
    "[patient] hodgkin lymphoma came back after five years .",
]


@pytest.mark.parametrize("text,gone", WRITTEN_FROM + [(t, g) for t, g in TRANSFER if t not in TRANSFER_LEFT])
def test_an_eponym_surname_where_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in f" {out} ".replace(".", " ").replace(",", " ") and "[NAME]" in out, out


@pytest.mark.parametrize("text", TRANSFER_LEFT)
def test_the_transfer_checks_name_left(text):
    assert "[NAME]" not in _out(text)  # what the rule does not read yet (reported, not tuned on)


@pytest.mark.parametrize("text", TRANSFER_WORDS + NEGATIVES)
def test_the_eponym_as_an_eponym_stays(text):
    assert "[NAME]" not in _out(text)


def test_only_the_name_goes():
    assert _out("[patient] my carer is wernicke .") == "[patient] my carer is [NAME] ."
    assert _out("[patient] gordon huntington is my next of kin .") == "[patient] [NAME] is my next of kin ."


def test_the_words_read():
    assert all(map(eponym_surname, "parkinson cushing kawasaki merkel whipple hodgkin romberg".split()))
    assert not any(map(eponym_surname, "graves bell stokes still down brown glasgow teacher singer world".split()))


def test_a_frequent_surname_no_list_calls_a_word():
    # "schmidt" (Zipf 3.73) is in ICD-10-CM only as an eponym: above the frequency limit, but English writes it only
    # as a surname, so it is read (twenty-eighth session); "hopkins" too, and a place stays a place
    assert eponym_surname("schmidt") and eponym_surname("hopkins")
    assert _out("[patient] i came with schmidt this morning .") == "[patient] i came with [NAME] this morning ."
    assert _out("[patient] schmidt picks up my prescriptions for me .") == "[patient] [NAME] picks up my prescriptions for me ."
    assert _out("[patient] i go to hopkins for my heart .") == "[patient] i go to hopkins for my heart ."
    assert _out("[patient] it runs in the family , schmidt syndrome .") == "[patient] it runs in the family , schmidt syndrome ."
