"""benchmarks/deid_form_reach.py: in how many development forms a given name is left (issue 50, twenty-third
session). The held-out half is never among its forms."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
_spec = importlib.util.spec_from_file_location("deid_form_reach", ROOT / "benchmarks" / "deid_form_reach.py")
assert _spec and _spec.loader
fr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fr)


def test_the_forms_are_development_forms_only():
    from deid_heldout import HELD_OUT_FORMS

    forms = {form for _set, form in fr.forms_with_given_name()}
    assert len(forms) > 1000 and all("{g}" in f for f in forms)
    assert not forms & {form for _who, form in HELD_OUT_FORMS}


def test_a_name_in_no_list_is_left_nowhere_and_the_count_is_of_whole_words():
    forms = fr.forms_with_given_name(30)
    assert len(forms) == 30
    assert fr.left_in("faleolo", forms) == []
    # "peg" put in and left is counted once a form, with the sentence it was left in, written in lower case
    left = fr.left_in("peg", forms)
    assert left and all(re.search(r"(?<![\w'-])peg(?![\w])", s) and s == s.lower() for _set, s in left)


def test_what_the_lists_call_a_word():
    assert fr.kind("faleolo") == "in no list"
    assert fr.kind("mark") == "gazetteer given name and English word"
    # a given name no modern English lexicon reads is rare as a word since the twenty-fifth session (name_word)
    assert fr.kind("toby") == "gazetteer given name"
    assert fr.kind("peg") == "English word, in no name list"


def test_the_command_prints_a_table(capsys):
    assert fr.main(["faleolo", "--limit", "5"]) == 0
    out = capsys.readouterr().out
    assert "5 development forms" in out and "| faleolo | in no list | 0 of 5 |" in out
