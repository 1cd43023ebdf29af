"""Pacific words said as words (clinaudit.perturb.name_pacific_words, issue 50, seventeenth session): hand-computed
cases of the vocabulary and its places; names beside or after a person's word are still taken; no name of dev43 (a
count, never the parts) is a word of the vocabulary."""

from __future__ import annotations

import pytest
from script_modules import dev_set, table_parts

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_pacific_words import NAME_LIKE, PACIFIC_WORDS, pacific_word_spans, restore_beside
from clinaudit.perturb.name_tokens import tokens


def _names(line: str) -> list[str]:
    _, rep = deidentify_text(f"doctor: how have you been?\npatient: not too bad. {line}")
    return [r["old"].lower() for r in rep.removed if r["kind"] == "name"]


@pytest.mark.parametrize("line", [
    "Do you drink kava at all?", "Kia ora, come in.", "Whanau is everything to me.", "my whanau are all up north.",
    "The marae is where we had the tangi.", "Kumara hangi is my favourite.", "We had taro poi and fish.",
    "tena koe, nice to meet you.", "Talofa lava, doctor.", "Aloha, that's what they say over there.",
    "Paua fritters gave me a rash.", "Kai moana is seafood, I eat a lot.", "Koro is what we call my grandad.",
    "Faafetai, doctor.", "Faafetai lava for everything.", "faafetai tele lava .", "Fakafetai, see you next week.",
])
def test_pacific_words_kept(line):
    assert _names(line) == []


@pytest.mark.parametrize("line, name", [
    ("Aunty Tapu raised me.", "tapu"),  # a person's word before it
    ("Moana dropped me at the door.", "moana"),  # a name-like word in a person's place
    ("Taro Suzuki came with me.", "taro"),  # not a thing's place
    ("Sina Fale came with me.", "fale"),  # beside a name found
    # "faafetai", thank you, is a Samoan given name too (twenty-ninth session; kept everywhere before)
    ("Faafetai came with me today.", "faafetai"),
    ("my son faafetai is here .", "faafetai"),
    ("this is faafetai , my son .", "faafetai"),
])
def test_names_still_taken(line, name):
    assert name in " ".join(_names(line)).split()


def test_spans_hand_computed():
    text = "kava makes my lips go numb"
    assert pacific_word_spans(text, tokens(text)) == {(0, 4)}
    text = "kia ora , some taro please"  # a phrase (0-3, 4-7) and a name-like word after "some" (15-19)
    assert pacific_word_spans(text, tokens(text)) == {(0, 3), (4, 7), (15, 19)}
    text = "the taro family"  # a person's group after it: a name
    assert pacific_word_spans(text, tokens(text)) == set()
    text = "no word of the vocabulary here"
    assert pacific_word_spans(text, tokens(text)) == set()
    assert restore_beside("sina fale came", [(5, 9)], [(0, 4)]) == [(5, 9)]
    assert restore_beside("kia ora , sina", [(4, 7)], [(10, 14)]) == []


def test_dev43_names_not_in_vocabulary():
    parts = {p.lower() for p in table_parts(dev_set(43).DEV43_NAMES)}
    assert len(parts & (PACIFIC_WORDS | NAME_LIKE)) == 0  # a count: the set's names are not the vocabulary
