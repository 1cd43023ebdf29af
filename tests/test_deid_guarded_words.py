"""A name the guards call a word (a gazetteer name ICD-10-CM writes in a chapter of conditions, or a word no gazetteer
holds), bare where only a person stands, in lower case (issue 50, fourteenth session,
:mod:`clinaudit.perturb.name_guarded_words`). Hand-written examples: the places the rule was written from (with the
lead's probe names, in no set), a transfer check of 15 names and 15 words as words written after the rule and looked
at only to be run, and the negatives (the same places with the words as words, body parts, roles, departments)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_guarded_words import may_be_guarded


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the places the rule was written from, with the probe's names (clinical: stone, wood, green, walker; no gazetteer:
#: page, fair, rich, deep)
WRITTEN_FROM = [
    ("[patient] stone came with me today .", "stone"),
    ("[patient] i talked to wood yesterday .", "wood"),
    ("[doctor] can you give this to green ?", "green"),
    ("[patient] it was walker who drove me .", "walker"),
    ("[doctor] tell page i said hi .", "page"),
    ("[patient] ask fair about it .", "fair"),
    ("[patient] rich says hi .", "rich"),
    ("[patient] we'll call deep later .", "deep"),
    ("[patient] wood is picking me up .", "wood"),
    ("[patient] stone and her husband came in with me .", "stone"),
    ("[patient] so page rang me about the letter .", "page"),
]

#: written after the rule, looked at only to be run (names of both kinds in none of the sets or the probe)
TRANSFER = [
    ("[patient] bridges came with me today .", "bridges"),
    ("[patient] i spoke to cobalt on the phone .", "cobalt"),
    ("[doctor] could you hand this to tin please ?", "tin"),
    ("[patient] it was flame who found me .", "flame"),
    ("[doctor] ask ridge if she can come in .", "ridge"),
    ("[patient] we'll ring canal tomorrow .", "canal"),
    ("[patient] marble says hello .", "marble"),
    ("[patient] then cedar texted me from work .", "cedar"),
    ("[patient] tell orange i'll be late .", "orange"),
    ("[patient] pepper and his wife are away .", "pepper"),
    ("[patient] it's honest who does my shopping .", "honest"),
    ("[patient] i talked to brave yesterday .", "brave"),
    ("[doctor] let mercury know you're here .", "mercury"),
    ("[patient] spice is picking me up at five .", "spice"),
]

#: the transfer check's one name missed: a symptom's word (NOT_PERSONS), never read by this rule (14 of 15 found);
#: since the sixteenth session :mod:`.name_word_surnames` takes it ("only X knows": a gazetteer surname alone)
TRANSFER_MISSED = "[patient] only swallow knows where it is ."

#: the same places with the words as words (written after the rule, looked at only to be run)
TRANSFER_WORDS = [
    "[patient] the stone came out on its own .",
    "[patient] a kidney stone says nothing on the scan , apparently .",
    "[patient] glass came through the windscreen .",
    "[patient] i talked to garden centre staff yesterday .",
    "[doctor] give this to glass recycling .",
    "[patient] it was pink that i wanted .",
    "[doctor] ask simple questions .",
    "[patient] summer came early this year .",
    "[patient] i can't tell blue from green .",
    "[patient] the salmon came with rice .",
    "[patient] sugar says a lot on the label .",
    "[patient] it was bright out .",
    "[patient] i'll call back later .",
    "[patient] so work rang me about it .",
    "[patient] i talked to pathology yesterday .",
]

#: the words the rule never reads: body parts, symptoms, roles, departments, particles
NEGATIVES = [
    "[patient] then reception rang me .",
    "[patient] and pharmacy said it was fine .",
    "[patient] ask around if you can .",
    "[patient] we'll call round later .",
    "[patient] i spoke to security about it .",
    "[patient] so ultrasound said it was fine .",
    "[patient] it was triage who sent me .",
    "[patient] i talked to dispatch yesterday .",
    "[patient] the pain came with me today .",
    "[patient] i talked to people yesterday .",
    "[doctor] ask yourself if it's worth it .",
    "[patient] i can't tell whether i'm getting better .",
    "[patient] we'll call instead later .",
]


@pytest.mark.parametrize("text,gone", WRITTEN_FROM + TRANSFER)
def test_a_guarded_word_name_where_only_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text", TRANSFER_WORDS + NEGATIVES)
def test_the_word_as_a_word_stays(text):
    assert _out(text) == text


def test_a_symptom_word_name_is_missed():
    from clinaudit.perturb.name_guarded_words import may_be_guarded

    assert not may_be_guarded("swallow")  # this rule never reads it; another rule's place does
    assert _out(TRANSFER_MISSED) == "[patient] only [NAME] knows where it is ."


def test_only_the_name_goes():
    assert _out("[patient] it was walker who drove me .") == "[patient] it was [NAME] who drove me ."
    assert _out("[doctor] tell page i said hi .") == "[doctor] tell [NAME] i said hi ."


def test_capitals_and_blocked_kinds_stay():
    assert _out("[patient] NHS says it's fine .") == "[patient] NHS says it's fine ."
    assert not any(map(may_be_guarded, "hand lump cheek doctor label back brown pretty monday".split()))
    assert all(map(may_be_guarded, "stone glass page salmon".split()))
