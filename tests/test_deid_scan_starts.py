"""Scans read from the words or the lines' starts, not from every position of the text (issue 50, tenth session:
the 1 MB dialog faster, the same outputs): each finds the very matches of the whole-text scan it replaces, checked on
random strings of the characters that matter and on dialog."""

from __future__ import annotations

import random

from clinaudit.perturb import deid, name_cased, name_letters, name_tokens
from clinaudit.perturb.name_tokens import tokens
from clinaudit.perturb.text_scan import matches_from

_DIALOG = ("[doctor] hi mrs. van der berg , how are you ?\nDoctor: Ask for Ó Briain or De Luca, and [de la Cruz.\n"
           "Patient: Sander van der Meulen, DVOŘÁKOVÁ and JOHN's MRI, O'NEIL-SMITH, É\u0301LAN at Ní Dhomhnaill.\n"
           "Guest_family: hi .\n  Zanele: I feel fine. [patient_guest] ok\nDoctor_2: Mr. VAN DIJK\u0301 de la Vries")


def _strings(n: int = 2000) -> list[str]:
    rnd = random.Random(50)
    pieces = ["van", "Van", "de", "De", "la", "Ó", "Ní", "der", "Della", "Mc", "Mac", "Meulen", "DE", "O", "Luca",
              "MRI", "ÅSA", "JOHN", "'s", "’S", "a", "x", "[", "]", "'", "’", "-", ":", "_", "\u0301", "é", "1",
              "doctor", "Zanele", "Guest_family", "\n", "\n", " ", " ", " ", "\t"]
    # six pieces at most: a long word before "]" costs the tokeniser's pattern time exponential in its length
    return [_DIALOG] + ["".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 6))) for _ in range(n)]


def test_surname_particle_chains_found_as_before() -> None:
    for s in _strings():
        got = [m.span() for m in matches_from(name_cased._CHAIN, s, name_cased._chain_starts(s, tokens(s)))]
        assert got == [m.span() for m in name_cased._CHAIN.finditer(s)], s


def test_speaker_labels_found_as_before() -> None:
    for s in _strings():
        assert [m.span() for m in deid._label_matches(s)] == [m.span() for m in deid._LABEL.finditer(s)], s


def test_words_in_capitals_found_as_before() -> None:
    for s in _strings():
        want = [(m.start(), m.end(), m.group(0)) for m in name_letters._CAPS.finditer(s) if m.group(0).isupper()]
        assert name_letters._all_capital_words(s, tokens(s)) == want, s


def test_words_of_a_text_without_marks_split_as_before() -> None:
    plain = [s for s in _strings() if "\u0301" not in s]
    for s in plain:
        assert name_tokens._PLAIN_SPLIT.split(s) == name_tokens._USPLIT.split(s), s
    # linear in a word's length before "]" (the form with marks is exponential: 23 letters took a second)
    assert name_tokens.tokens("x" * 5000 + "]") == []
