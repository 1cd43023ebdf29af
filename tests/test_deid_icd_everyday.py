"""Gazetteer names that ICD-10-CM writes only in its external-cause (V00-Y99) or factors (Z00-Z99) chapter are no
clinical words for the name rules (``perturb/name_clinical.py``, issue 50, thirteenth session): the rules that read a
word name by its frequency and place decide them ("it was park who drove me ."), while the words stay words where
they are words ("we went to the park .") and the words of a disease or injury chapter stay clinical ("frank blood in
the urine"). Hand-written examples (none of a development set's names), then the transfer check written after the
rule."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_clinical import everyday_icd_name
from clinaudit.perturb.name_word import word_facts
from clinaudit.perturb.vocab import clinical_category, everyday_condition


def _out(text: str) -> str:
    return deidentify_text(text)[0]


def _kept(text: str, word: str) -> bool:
    return re.search(r"(?<![\w'-])" + re.escape(word) + r"(?![\w'-])", _out(text), re.I) is not None


def test_the_external_cause_and_factor_words_are_everyday_words_for_the_name_rules():
    for key in ("park", "hill", "hall", "bill", "cliff", "harvest", "dodge", "sander"):
        assert everyday_condition(key) and clinical_category(key) == "condition"  # the vocabulary is unchanged
        assert everyday_icd_name(key, gazetteer=True) and word_facts(key).clinical is None and word_facts(key).everyday
        assert not everyday_icd_name(key, gazetteer=False)  # a word no list calls a name stays a condition word


@pytest.mark.parametrize("key", ["frank", "young", "stone", "white", "walker", "wood", "brown", "innocent",
                                 "parkinson", "fracture"])
def test_a_word_of_a_disease_or_injury_chapter_stays_clinical(key):
    assert not everyday_condition(key) and not everyday_icd_name(key, gazetteer=True)
    assert word_facts(key).clinical == "condition" and not word_facts(key).everyday


@pytest.mark.parametrize("text", [  # the name is the word after "park"/"hill"/... in each: it must go
    "[patient] it was park who drove me .",
    "[patient] park says hi .",
    "[patient] it was hill who drove me .",
    "[patient] i live with harvest and the kids .",
    "[patient] i came in with dodge .",
    "[patient] it was sander who drove me .",
    "[patient] i got a text from cannon .",
    "[patient] i was with dodge all day .",
    "[patient] park told me to come in .",
    "[patient] hall says the dog is fine .",
])
def test_an_everyday_icd_word_is_a_name_where_only_a_person_stands(text):
    name = next(w for w in ("park", "hill", "harvest", "dodge", "sander", "cannon", "hall") if f" {w} " in text)
    assert not _kept(text, name) and "[NAME]" in _out(text)


@pytest.mark.parametrize(("text", "word"), [
    ("[patient] we went to the park on sunday .", "park"),
    ("[patient] she fell from the hill at the back .", "hill"),
    ("[patient] the bill came yesterday .", "bill"),
    ("[patient] i will go tomorrow .", "will"),
    ("[doctor] is there frank blood in the urine ?", "frank"),
    ("[doctor] there may be a stone in your kidney .", "stone"),
    ("[doctor] he is young for a stroke .", "young"),
    ("[patient] the hall was slippery .", "hall"),
    ("[patient] i slipped on the dock .", "dock"),
    ("[patient] the lamb was undercooked .", "lamb"),
    ("[patient] my son drove me .", "son"),
    ("[patient] We parked by the cliff and walked.", "cliff"),
    # the detector's own word test and the two-common-words pair read them as before (the real dialogs' kinds)
    ("[patient] I tried the South Beach Diet last year.", "beach"),
    ("[doctor] She had a Lap Band fitted in 2019.", "lap"),
    ("[patient] He goes to Overeaters Anonymous on Tuesdays.", "anonymous"),
    ("[doctor] Okay. Hang tight, the nurse is coming.", "hang"),
    ("[patient] i hurt my knee playing lacrosse with my kids .", "lacrosse"),
    ("[patient] i like pie , you know apples cherry chocolate , anything .", "cherry"),
    ("[patient] harvest is picking up this year .", "harvest"),  # "X is picking up": a person picking someone up
    ("[patient] cliff is picking up again .", "cliff"),
])
def test_the_same_words_as_words_stay(text, word):
    assert _kept(text, word), _out(text)


#: the transfer check, written after the rule and not looked at while writing it: 15 names of the kind in no set
#: (main removes 6, the rule 11: "wing picked me up", "staying with cable", "who drove me ? camp did", "ask tipping ,"
#: stay missed), 15 of the same words as words (kept 15 of 15 before and after)
TRANSFER_NAMES = [("[patient] wing picked me up from work .", "wing"), ("[patient] it was craft who found me on the floor .", "craft"),
 ("[patient] i came here with dye this morning .", "dye"), ("[patient] my friend cutter says it looks infected .", "cutter"),
 ("[doctor] thanks , shell , that's everything .", "shell"), ("[patient] i was staying with cable over the weekend .", "cable"),
 ("[patient] who drove me ? camp did .", "camp"), ("[patient] me , fender and the baby live upstairs .", "fender"),
 ("[doctor] mrs bowling will be with you shortly .", "bowling"), ("[patient] slaughter is picking me up later .", "slaughter"),
 ("[patient] ask tipping , she knows my history .", "tipping"), ("[patient] I came in with Alpine today.", "alpine"),
 ("[patient] brass told me to rest it .", "brass"), ("[patient] hand over from bench : bed nine is asleep .", "bench"),
 ("[patient] I'll ask Cutter to call you.", "cutter")]
TRANSFER_WORDS = [(line.split(" | ")[0], line.split(" | ")[1]) for line in """
[patient] my wing mirror got clipped . | wing
[patient] i do a lot of craft at home . | craft
[patient] the hair dye made my scalp itch . | dye
[patient] i cut myself with a box cutter . | cutter
[patient] i stepped on a shell at the beach . | shell
[patient] i tripped over the cable . | cable
[patient] we went to camp last summer . | camp
[patient] the fender of the car hit my knee . | fender
[patient] i hurt my wrist bowling . | bowling
[patient] he works at the slaughter house . | slaughter
[patient] tipping the bins out hurt my back . | tipping
[patient] We went alpine skiing in January. | alpine
[patient] the brass handle was hot . | brass
[patient] i sat on the bench for an hour . | bench
[patient] the rope burned my hands . | rope
""".strip().split("\n")]


def test_transfer_check_names():
    removed = [t for t, w in TRANSFER_NAMES if not _kept(t, w)]
    assert len(removed) >= 11, removed


@pytest.mark.parametrize(("text", "word"), TRANSFER_WORDS)
def test_transfer_check_words_stay(text, word):
    assert _kept(text, word), _out(text)
