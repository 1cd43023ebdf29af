"""The benchmark's split of real-dialog replacements into names and non-names (benchmarks/deid_false_kinds.py, issue
50): hand-written examples of each kind."""

from __future__ import annotations

import pytest
from script_modules import load_script

FIRST = frozenset({"pamela", "dallas", "vincent", "helen"})
SUR = frozenset({"sanchez", "reyes", "dallas", "mcdonald"})


@pytest.fixture(scope="module")
def kinds():
    return load_script("benchmarks/deid_false_kinds.py", "clinaudit_deid_false_kinds")


def _kind(kinds, text: str, word: str, in_a_list: bool = True) -> tuple[str, str]:
    s = text.index(word)
    return kinds.classify(text, s, s + len(word), FIRST, SUR, in_a_list)


@pytest.mark.parametrize("text, word, expected", [
    ("[doctor] good morning ms. reyes !", "reyes", ("name", "title")),
    ("Doctor: I am Doctor Reyes.", "Reyes", ("name", "title")),
    ("[patient] pamela said it might be broken", "pamela", ("name", "naming")),
    ("[patient] hi helen how are you", "helen", ("name", "naming")),
    ("[patient] there's this girl named pamela she plays rough", "pamela", ("name", "naming")),
    ("[doctor] i think vincent sanchez would be a great fit", "vincent sanchez", ("name", "multi-word")),
    ("Patient: I asked about it and Pamela agreed.", "Pamela", ("name", "known name")),
    ("[patient] uh , we live in dallas .", "dallas", ("non-name", "place")),
    ("Patient: I grew up in Dallas, mostly.", "Dallas", ("non-name", "place")),
    ("[doctor] is that your favorite at mcdonald's", "mcdonald", ("non-name", "place")),
    ("[patient] we got mcdonald's again", "mcdonald", ("non-name", "gazetteer")),
])
def test_classify(kinds, text, word, expected):
    assert _kind(kinds, text, word) == expected


def test_a_word_in_no_list_is_a_non_name_unless_a_context_names_it(kinds):
    assert _kind(kinds, "[doctor] the wixela that you are not taking", "wixela", in_a_list=False) == ("non-name", "no list")
    assert _kind(kinds, "[doctor] dr. wixela will see you", "wixela", in_a_list=False) == ("name", "title")
    # a word of the lists, no name, no context: a common word
    assert _kind(kinds, "[doctor] the hallmark of it", "hallmark") == ("non-name", "common")
