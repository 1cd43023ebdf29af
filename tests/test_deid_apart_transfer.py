"""The transfer check of the fifteenth session's rules for full names and given names of two words
(``name_apposed``, ``name_given_pairs``): 15 sentences with names and 15 with two-word phrases as words, written after
the rules and not looked at while writing them, in no development set (their names share no part with any set's:
checked by counts, never printing a part). Before the rules (main 83ab8d2) the same 15 names were found and the same
8 phrases kept: the older rules take these rare names already, and take 7 foreign phrases as names (xfail below)."""

from __future__ import annotations

import re

import pytest
from script_modules import NAME_TABLES, dev_parts_shared, parts_shared

from clinaudit.perturb.deid import deidentify_text

NAMES = [
    ("the patient , opeta lutui , is 61 and lives alone .", "opeta lutui"),
    ("i came in with effie kay , she's my neighbour .", "effie kay"),
    ("me , hettie faye and the dog all sleep downstairs .", "hettie faye"),
    ("this patient , teuila maafu , needs a follow-up .", "teuila maafu"),
    ("i got a letter from nola reba last week .", "nola reba"),
    ("can you ring maisie etta when i'm done ?", "maisie etta"),
    ("our client , paora tamati , missed her bus .", "paora tamati"),
    ("i was at the shops with wanda lettie .", "wanda lettie"),
    ("ask bronagh eilis , she drove me .", "bronagh eilis"),
    ("the caller , ruihi wairimu , wanted a callback .", "ruihi wairimu"),
    ("i'm staying at my cousin's with thelma ione .", "thelma ione"),
    ("tell ada lura the results are fine .", "ada lura"),
    ("the patient , doreen , is diabetic .", "doreen"),
    ("i spoke to nancy ruth about my tablets .", "nancy ruth"),
    ("the resident , aileen caitriona , fell last night .", "aileen caitriona"),
]
WORDS_KEPT = [
    "the patient , as usual , is late .",
    "me , mum and dad all had covid .",
    "the patient , poor soul , is tired .",
    "i got a letter from the council last week .",
    "the caller , a nurse , wanted a callback .",
    "this patient , sadly , needs a follow-up .",
    "he's on amoxicillin clavulanate for the chest .",
    "tell the nurse the results are fine .",
    "we said kia kaha to him before the operation .",  # kept since name_pacific_words (seventeenth session)
]
#: foreign phrases older rules take as names (main 83ab8d2 too): a limit, not this session's rules
WORDS_TAKEN = [
    "we had pho bo for lunch on the way .",
    "i love bok choy and pak choi .",
    "i'm doing qi gong now instead of the gym .",
    "we ate tom yum at the thai place .",
    "i listen to bossa nova to relax .",
    "i was at the shops with tai chi friends .",
]


def test_the_transfer_names_are_in_no_set():
    table = {"transfer": ([n for _, n in NAMES], ["zz"])}
    assert sum(parts_shared(table, *NAME_TABLES).values()) == 0  # a count: no held-out part printed
    assert sum(dev_parts_shared(table, 19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31).values()) == 0


@pytest.mark.parametrize("text, name", NAMES)
def test_transfer_names_are_replaced(text, name):
    out = deidentify_text(text)[0]
    assert not any(re.search(rf"\b{p}\b", out) for p in name.split()) and "[NAME]" in out, out


@pytest.mark.parametrize("text", WORDS_KEPT)
def test_transfer_phrases_stay(text):
    assert "[NAME]" not in deidentify_text(text)[0]


@pytest.mark.xfail(reason="older rules take a foreign phrase of two words as a name (docs: Limits)", strict=True)
@pytest.mark.parametrize("text", WORDS_TAKEN)
def test_transfer_foreign_phrases_older_rules_take(text):
    assert "[NAME]" not in deidentify_text(text)[0]
