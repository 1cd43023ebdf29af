"""A given name that is an English word no name list holds ("peg", "tele", "uso", "muffin", "toffee"), in lower-case
speech, where the sentence leaves room only for a person (issue 50, twenty-fourth session:
:func:`clinaudit.perturb.name_given_words.plain_word_name`, read by the given-name places, the strong places, a
clause's subject, the person's predicates and the neighbour rule). Before, the place rules read a word only once a
list called it a name: such a name was left in most sentence forms (``benchmarks/deid_form_reach.py``: "peg" in 1,540
of 1,618 development forms). Hand-written sentences, not the by-origin benchmark's forms; each positive case was
checked to leave the name on the code before (770887f). The negatives: the same words as words, words of the kinds
the rule never reads (a verb form, an adjective, an interjection), cased text, and the neighbour rule's guards."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_given_words import plain_word_name
from clinaudit.perturb.word_pos import modifier_or_verb_form, verb_form


def _left(sentence: str, word: str) -> int:
    """How often ``word`` is left, as a whole word, after de-identification of a short dialog around ``sentence``."""
    text = f"[doctor] okay , tell me more .\n[patient] {sentence}\n[doctor] i see ."
    return len(re.findall(rf"(?<![\w'-]){word}(?![\w])", deidentify_text(text)[0]))


@pytest.mark.parametrize("sentence, name", [
    # the given-name places (name_given_words: the one told, a person's errand, a carer's name)
    ("i was telling tele about the rash .", "tele"),
    ("muffin fetched my prescription yesterday .", "muffin"),
    ("my carer is toffee , she comes at nine .", "toffee"),
    # the strong places (name_strong_places: a relative's word, a greeting)
    ("hi uso , good to see you again .", "uso"),
    ("this is my nephew noodle , he drove me here .", "noodle"),
    # a clause's subject before a verb only a person does (name_clause_subject, name_slots)
    ("but peg said it was fine .", "peg"),
    ("and pudding told me to come in .", "pudding"),
    # a person's predicate (name_person_predicates)
    ("tele was lovely with me .", "tele"),
    # right before a surname found (name_capital_neighbours)
    ("i stay with peg okafor on weekends .", "peg"),
    ("i spoke with pumpkin nwosu from the lab .", "pumpkin"),
])
def test_a_word_no_list_holds_where_only_a_person_stands(sentence, name):
    assert _left(sentence, name) == 0


@pytest.mark.parametrize("sentence, word", [
    # the same words used as words
    ("the peg holds the tent down .", "peg"),
    ("i had a muffin and a cup of tea .", "muffin"),
    ("i used the tele to call my daughter .", "tele"),
    # lemminflect reads these only as a verb form or an adjective: never a name after a relative's word
    ("my mum wept .", "wept"),
    ("my dad slept , then he woke up .", "slept"),
    ("my son is unwell , he has a cold .", "unwell"),
    # any verb form other than the base, though the lexicon reads a noun too ("a drove of cattle")
    ("we got home late , my daughter drove .", "drove"),
    # "it was X who": an institution stands there as readily
    ("it was dispatch who rang me .", "dispatch"),
    # an interjection after thanks
    ("thanks , gotcha .", "gotcha"),
    ("thanks gotcha .", "gotcha"),
    # the neighbour rule: not after "in" (a place), nor after a word that is never a person (a body part)
    ("i still work in downtown baltimore .", "downtown"),
    ("she has a new right eye twitch karen is here with her dad .", "twitch"),
])
def test_the_word_as_a_word_stays(sentence, word):
    assert _left(sentence, word) == 1


def test_cased_text_reads_no_lower_case_word():
    """A cased text writes a name with its capital: a lower-case word there is a word."""
    text = "[patient] I was telling tele about the rash.\n[doctor] Okay. But peg said it was fine?"
    out = deidentify_text(text)[0]
    assert re.search(r"\btele\b", out) and re.search(r"\bpeg\b", out)


@pytest.mark.parametrize("word, expected", [
    ("peg", True), ("tele", True), ("uso", True), ("muffin", True), ("toffee", True),
    ("toby", False),  # a gazetteer given name: the older rules' word
    ("wept", False), ("unwell", False), ("exactly", False),  # a verb form, an adjective, an adverb
    ("silky", False),  # an adjective (its "-ily" adverb)
    ("gotcha", False),  # an interjection
    ("knee", False), ("fever", False),  # clinical words
    ("money", False),  # a gazetteer word, and too frequent (Zipf 5.6)
    ("worried", False),  # an inflected form
    ("muffins", False),  # a plural
])
def test_plain_word_name(word, expected):
    assert plain_word_name(word) is expected


@pytest.mark.parametrize("word, expected", [
    ("wept", True), ("died", True), ("alive", True), ("exactly", True), ("unwell", True),
    ("peg", False), ("pip", False), ("toast", False),  # a noun or a base-form verb
    ("uso", False),  # a word the lexicon does not hold says nothing
])
def test_modifier_or_verb_form(word, expected):
    assert modifier_or_verb_form(word) is expected


def test_an_adjective_counts_only_where_asked():
    assert modifier_or_verb_form("diligent") and not modifier_or_verb_form("diligent", adjective=False)
    assert modifier_or_verb_form("exactly", adjective=False) and modifier_or_verb_form("wept", adjective=False)
    assert plain_word_name("diligent", adjective=True) and not plain_word_name("diligent")


@pytest.mark.parametrize("word, expected", [
    ("drove", True), ("wept", True), ("left", True),
    ("saw", False),  # "to saw" is a base form too
    ("peg", False), ("toast", False), ("uso", False),
])
def test_verb_form(word, expected):
    assert verb_form(word) is expected
