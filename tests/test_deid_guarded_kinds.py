"""A name the guards keep as a day, a month, a modal, a race word or an everyday function word, bare where only a
person stands, in lower case (issue 50, fifteenth session, :mod:`clinaudit.perturb.name_guarded_kinds`). Hand-written
examples: the places the rule was written from (with the lead's probe names, in no set), a transfer check of 15
names and 15 words as words written after the rule and looked at only to be run, and the negatives (the race words
where they describe people or things, days and months as times, modals as modals, words of address said to)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_guarded_kinds import EVERYDAY, MODALS, RACES, TIMES, may_be_kept


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the places the rule was written from, with the probe's names (race: black, white, brown; days and months: friday,
#: june, april; modals: will, may; everyday words: good, pal, young, happy)
WRITTEN_FROM = [
    ("[patient] it was black who drove me .", "black"),
    ("[doctor] tell good i said hi .", "good"),
    ("[patient] friday says hi .", "friday"),
    ("[patient] pal says hi .", "pal"),
    ("[patient] june and her husband came in with me .", "june"),
    ("[patient] will told me you'd ring .", "will"),
    ("[patient] so may rang me about it .", "may"),
    ("[patient] i got a lift in with happy .", "happy"),
    ("[patient] young is picking me up .", "young"),
    ("[patient] white came with me today .", "white"),
    ("[patient] i talked to brown yesterday .", "brown"),
    ("[doctor] did april tell you about the scan ?", "april"),
    ("[patient] tell june i said hello .", "june"),  # a word before the fifteenth session (test_deid_bare_person)
]

#: written after the rule, looked at only to be run (main: 0 of 15 names; words 15 of 15 kept before and after)
TRANSFER = [
    ("[patient] july rang me last night about the dog .", "july"),
    ("[patient] it was september who found my glasses .", "september"),
    ("[patient] february and her son came round yesterday .", "february"),
    ("[patient] so will texted me this morning .", "will"),
    ("[patient] i talked to white this morning about the bills .", "white"),
    ("[patient] brown is picking me up at six .", "brown"),
    ("[doctor] did june mention the new tablets ?", "june"),
    ("[patient] pal and i went to the chemist .", "pal"),
    ("[patient] i'm staying with chief at the moment .", "chief"),
    ("[patient] sport told me you'd phone .", "sport"),
    ("[patient] nice knows where my inhaler is .", "nice"),
    ("[patient] let babe know i'm here .", "babe"),
        ("[patient] may and her husband drove me in .", "may"),
]

#: the transfer check's one name missed: "tell X" before a noun phrase, no clause (14 of 15 found)
TRANSFER_MISSED = "[doctor] tell november the results are back ."

#: the transfer check's name "honey" (taken by the rule as run once) is left out since: a food, "and honey said it helps"
HONEY = "[patient] i think honey has my keys ."

#: the transfer check's words as words: 15 of 15 kept
TRANSFER_WORDS = [
    "[patient] july was hot and i couldn't sleep .",
    "[patient] it was september when i first felt it .",
    "[patient] the brown patch came back after a week .",
    "[patient] white bread makes me bloated .",
    "[doctor] will it hurt ?",
    "[patient] may be nothing , but i worried .",
    "[patient] i spoke to black cab drivers about it .",
    "[patient] good and bad days , mostly bad .",
    "[patient] nice and warm in here .",
    "[patient] thanks , pal .",
    "[patient] i've been off since november .",
    "[patient] chief complaint is the cough , i suppose .",
    "[patient] sport is good for my knees .",
    "[patient] i'm feeling happy about it .",
    "[patient] black pudding gives me heartburn .",
]

#: the same kinds of words as words, in the same places and nearby
#: race words describing people: the demographic neutraliser rewrites them ("a black man" -> "a person"), no [NAME]
DESCRIBED = [
    "[patient] a black man came with me to the hospital .",
    "[patient] white people burn easily , i know .",
    "[doctor] black women get fibroids more often .",
]

NEGATIVES = [
    "[doctor] the white count came back normal .",
    "[doctor] white came back on the scan .",
    "[patient] black stools for two days now .",
    "[patient] i talked to black patients in the group .",
    "[patient] brown says nothing to me , the colour of it .",
    "[patient] may i ask a question ?",
    "[doctor] will you call me with the results ?",
    "[patient] i'd like to ask may i bring my son next time .",
    "[patient] friday came fast this week .",
    "[patient] i'll ring monday first thing .",
    "[patient] i'm off work from friday .",
    "[patient] i'm waiting for friday .",
    "[patient] i'm here for good now .",
    "[patient] it was december when it started .",
    "[patient] tell happy from sad , i can't any more .",
    "[patient] good came of it in the end .",
    "[doctor] thanks , buddy .",
    "[doctor] hi pal , how are you ?",
    "[doctor] champ , can you sit up for me ?",
    "[patient] boss says i can have the week off .",
    "[patient] i was glad to be home .",
    "[doctor] ready when you are .",
    "[doctor] good , thank you , and welcome .",
    "[patient] i'm worried about friday .",
]


@pytest.mark.parametrize("text,gone", WRITTEN_FROM + TRANSFER)
def test_a_kept_word_name_where_only_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text", NEGATIVES + [TRANSFER_MISSED, HONEY])
def test_the_word_as_a_word_stays(text):
    assert _out(text) == text


@pytest.mark.parametrize("text", TRANSFER_WORDS)
def test_the_transfer_words_stay(text):
    assert "[NAME]" not in _out(text)


@pytest.mark.parametrize("text", DESCRIBED)
def test_a_race_word_describing_people_is_no_name(text):
    assert "[NAME]" not in _out(text)


def test_only_the_name_goes():
    assert _out("[patient] it was black who drove me .") == "[patient] it was [NAME] who drove me ."
    assert _out("[doctor] tell good i said hi .") == "[doctor] tell [NAME] i said hi ."


def test_capitals_stay_to_the_cased_rules():
    assert _out("[doctor] WHITE came back on the scan .") == "[doctor] WHITE came back on the scan ."
    assert may_be_kept("june") and may_be_kept("stone") and not may_be_kept("June") and not may_be_kept("still")
    assert {"will", "may"} == MODALS and {"black", "white", "brown"} == RACES and "friday" in TIMES
    assert "boss" not in EVERYDAY and "friend" not in EVERYDAY  # roles, never read
