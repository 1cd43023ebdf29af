"""The by-origin benchmark's count of names left (benchmarks/bench_deid_origin.present): a name left in the text
counts, in every way it can stand, and a longer word that only starts with it does not."""

from __future__ import annotations

import pytest
from script_modules import load_script


@pytest.fixture(scope="module")
def present():
    return load_script("benchmarks/bench_deid_origin.py", "clinaudit_bench_deid_origin").present


@pytest.mark.parametrize(("text", "name", "n"), [
    ("we took sipho to the er .", "Sipho Dlamini", 1),
    ("at sipho's house", "Sipho Dlamini", 1),             # a possessive: the name is still there
    ("At Sipho’s house, Sipho said", "Sipho Dlamini", 2),  # curly apostrophe, and case
    ("dlamini's office called", "Sipho Dlamini", 1),
    ("sipho' ok", "Sipho Dlamini", 1),
    ("Hana's and hana", "Hana Novak", 2),
    ("[NAME]'s house", "Sipho Dlamini", 0),
    ("siphos and siphon", "Sipho Dlamini", 0),             # longer words
    ("sipho-like, sipho'n", "Sipho Dlamini", 0),            # a hyphen or an apostrophe inside a longer word
    ("o'dlamini", "Sipho Dlamini", 0),                     # a letter and an apostrophe before
    ("sipho's", "Sipho Dlamini", 1),
    ("siphoʼs sipho'st", "Sipho Dlamini", 0),              # not an apostrophe the look-ahead reads; 'st is a word
])
def test_present_counts_names_left(present, text, name, n):
    assert present(text, name) == n


def test_kept_line_names_every_group_with_its_count():
    kept_line = load_script("benchmarks/bench_deid_origin.py", "clinaudit_bench_deid_origin").kept_line
    from collections import Counter
    c = Counter({"female dialogs": 84, "male dialogs": 77, "male kept": 1, "unknown dialogs": 1})
    assert kept_line(c) == "female 0 of 84, male 1 of 77, unknown 0 of 1"
    assert kept_line(Counter()) == ""


def test_word_uses_replaced_leaves_out_the_sentences_persons():
    count = load_script("benchmarks/bench_deid_origin.py", "clinaudit_bench_deid_origin").word_uses_replaced
    # "i gave oskar rice with his soup ." : [oskar rice] and [soup] replaced; oskar is a person of the sentence
    part = {"dev24|x": [[(0, 31)]]}
    res = {"dev24|x": {"rows": [{"replaced": ["oskar rice", "soup", "Oskar"], "spans": [(7, 17), (25, 29), (7, 12)]}]}}
    n, replaced, words = count(part, res, frozenset({"oskar"}))
    assert (n, replaced, dict(words)) == (1, 2, {"rice": 1, "soup": 1})
    assert count(part, res)[1:] == (3, {"oskar rice": 1, "soup": 1, "oskar": 1})


def test_the_names_left_are_returned_for_their_own_set():
    # --show-left: by_origin returns the lines that list a set's names left (the caller prints them under the set's
    # table); it printed them before the set's title, where they read as the previous set's (fixed in the
    # twenty-third session of issue 50)
    by_origin = load_script("benchmarks/bench_deid_origin.py", "clinaudit_bench_deid_origin").by_origin
    injected = {"dev9|Samoan": [("t", ["Uso", "Tavita"], True)], "dev9|UK": [("t", ["Pip"], False)]}
    res = {"dev9|Samoan": {"rows": [{"text": "[patient] uso came with [NAME] ."}]},
           "dev9|UK": {"rows": [{"text": "Patient: [NAME] came."}]}}
    used = {"dev9|Samoan": [[("{g} came with {g2} .", ["Uso", "Tavita"])]], "dev9|UK": [[("{g} came.", ["Pip"])]]}
    table, lines = by_origin(injected, res, True, used)
    assert table == {"Samoan": {"cased": [0, 0], "lower": [2, 1]}, "UK": {"cased": [1, 0], "lower": [0, 0]}}
    assert lines == ["  names left: Samoan:Uso 1", "  form losing a name of 1 origins (lower): {g} came with {g2} ."]
    assert by_origin(injected, res, False, used) == (table, [])
