"""A name spelled out letter by letter (issue 50, twenty-ninth session, :mod:`clinaudit.perturb.name_spelled`): the
letters of a name found, or after a word of spelling a word no list of common or clinical words holds, are replaced
whole; spelled words, acronyms and letters that are no name stay. On main 7957a5f every one of these kept the letters
(the name itself was taken)."""

from __future__ import annotations

import time

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_spelled import spelled_names


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("text, expected", [
    ("my name is leota , l-e-o-t-a .", "my name is [NAME] , [NAME] ."),
    ("my last name is young , y-o-u-n-g .", "my last name is [NAME] , [NAME] ."),
    ("It is Leota, L-E-O-T-A.", "It is [NAME], [NAME]."),
    ("is it sione ? s - i - o - n - e ?", "is it [NAME] ? [NAME] ?"),
    ("My name is Smith, S.M.I.T.H.", "My name is [NAME], [NAME]."),
    ("that is spelled s i o n e .", "that is spelled [NAME] ."),  # after a word of spelling, a word no list holds
    ("spelled s-m-i-t-h", "spelled [NAME]"),  # a gazetteer name
    ("can you spell that for me ?\n[patient] t-a-u-i-l-i-i-l-i .", "can you spell that for me ?\n[patient] [NAME] ."),
])
def test_spelled_names_go(text, expected):
    assert _out(text) == expected


@pytest.mark.parametrize("text", [
    "the test is called a c-r-p .",
    "how do you spell that ? c-r-p ?",  # a clinical word
    "spell it a-s-a-p",
    "it was a p-o-s-i-t-i-v-e result",  # no spelling word, no name found
    "we checked the a-b-c and it was fine",
    "i moved here from the u-s-a .",
    "i can spell c-a-t .",
])
def test_letters_that_are_no_name_stay(text):
    assert _out(text) == text


def test_spans_hand_computed():
    text = "it is leota , l-e-o-t-a ."
    assert [(t.start, t.end, t.key) for t in spelled_names(text, [(6, 11)])] == [(14, 23, "leota")]
    assert spelled_names("no letters here", [(0, 2)]) == []
    text = "it is leota , L.E.O.T.A. ok"  # the run's last dot is the separator's, not the name's
    assert [(t.start, t.end, t.text) for t in spelled_names(text, [(6, 11)])] == [(14, 23, "L.E.O.T.A")]


def test_linear():
    unit = "my name is leota , l-e-o-t-a , and it was a p-o-s-i-t-i-v-e result . "
    t0 = time.process_time()
    _out(unit * 200)
    small = time.process_time() - t0
    t0 = time.process_time()
    _out(unit * 800)
    big = time.process_time() - t0
    assert big < 4 * small * 2.5  # linear with room for noise


@pytest.mark.parametrize("text", ["a-" * 50_000 + "ab", "a " * 100_000 + "b5", "a - " * 40_000 + "ab", "x y z " * 30_000])
def test_long_runs_of_letters_are_linear(text):
    t0 = time.process_time()
    _out(text)
    assert time.process_time() - t0 < 3  # 0.1-0.25 s each on the development machine
