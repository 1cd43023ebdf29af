"""A name found once in a cased dialog, written again in the same capitals inside a sentence (issue 50, twenty-sixth
session: :mod:`clinaudit.perturb.name_cased_mentions`). Before, a word the lists call common ("Ana", philter-ucsf's
whitelist word for the ANA test; "Dodo", "Kiwi", "Sugar") found once in a naming context stayed where the dialog
wrote it again ("My name is [NAME]. ... Was anybody next to Ana when it happened?"). Now it is read again there,
but not at a sentence's start, after a determiner, beside another capitalised word, nor where it is a clinical word
("Vernal", "Lumbar": a cased vignette that took such a word took a word). Hand-written dialogs;
each positive checked to leave the word on the code before."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text


def _left(name: str, sentence: str) -> int:
    text = f"[doctor] Hello, what is your name?\n[patient] My name is {name} Sulu.\n[doctor] {sentence}"
    out = deidentify_text(text)[0]
    assert "[patient] My name is [NAME]." in out  # the naming context finds the name once
    return len(re.findall(rf"(?<![\w'-]){name}(?![\w])", out.split("\n")[2]))


@pytest.mark.parametrize("name, sentence", [
    ("Ana", "Was anybody next to Ana when it happened?"),
    ("Ana", "I left a message with Ana at the front desk."),
    ("Dodo", "Was anybody next to Dodo when it happened?"),
    ("Kiwi", "I left a message with Kiwi at the front desk."),
    ("Dembe", "Was anybody next to Dembe when it happened?"),
    ("Sugar", "I left a message with Sugar at the front desk."),
])
def test_the_name_found_once_is_found_again(name, sentence):
    assert _left(name, sentence) == 0


@pytest.mark.parametrize("name, sentence", [
    ("Ana", "The Ana test was positive."),  # after a determiner
    ("Ana", "Your ANA was positive."),  # not written so: an acronym
    ("Ana", "Check the Ana Titer today."),  # beside a capitalised word
    ("Ana", "Ana Titer is pending."),  # a sentence's start, beside a capitalised word
])
def test_not_where_the_capital_says_no_person(name, sentence):
    assert _left(name, sentence) == len(re.findall(rf"(?<![\w'-]){name}(?![\w])", sentence))


def test_a_clinical_word_taken_once_is_not_read_again():
    # "MS. Lumbar" is read as a title and a surname (a false replacement the code had before, noticed, not mended
    # here); the clinical word is not read again elsewhere ("E) Lumbar puncture")
    text = "EMG is not used to diagnose MS. Lumbar puncture is a procedure. Options: D) EMG E) Lumbar puncture"
    out = deidentify_text(text)[0]
    assert out.endswith("E) Lumbar puncture")
