"""The benchmark's seventeenth development set (benchmarks/deid_dev17.py, issue 50, eleventh session): plain forms of
clinic conversation written blind, a name in every place a conversation puts one but right after an article or a
determiner, with the second development set's names."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from script_modules import load_script, table_parts


def _forms():
    return load_script("benchmarks/deid_dev17.py", "clinaudit_deid_dev17").DEV17_FORMS


def test_dev17_forms_shape():
    forms = _forms()
    assert len(forms) >= 200 and len(set(forms)) == len(forms)
    assert len({f.lower() for _, f in forms}) == len(forms)  # no repeated form
    slots = re.compile(r"\{(\w+)\}")
    assert all(who in ("D", "P") and slots.search(f) for who, f in forms)
    assert all(set(slots.findall(f)) <= {"g", "s", "g2", "g3"} for _, f in forms)
    assert load_script("benchmarks/deid_dev17.py", "clinaudit_deid_dev17").DEV17_REPEAT >= 1


def test_dev17_forms_are_new():
    """No form of another set (every row of deid_sets.SETS but dev7's, built at run time)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    sets = load_script("benchmarks/deid_sets.py", "clinaudit_deid_sets")
    others = {f.lower() for flag, row in sets.SETS.items()  # dev18 puts other names in these very forms
              if row.forms and row.forms is not sets.SETS["dev17"].forms for _, f in row.forms}
    assert not {f.lower() for _, f in _forms()} & others


def test_dev17_forms_hold_no_name_word():
    """No word of a form is a part of the names put in (dev2's)."""
    dev2 = load_script("benchmarks/deid_dev2.py", "clinaudit_deid_dev2")
    words = {w for _, f in _forms() for w in re.findall(r"[a-z]+", f.lower())}
    assert not words & {p.lower() for p in table_parts(dev2.DEV2_NAMES)}


def test_dev17_no_article_or_determiner_before_a_name():
    """Those forms are another set's; "is that {g}" (a pronoun on the phone) is the one "that" before a name."""
    det = re.compile(r"(?i)\b(the|a|an|this|these|those|my|your|his|her|our|their|another|every|some|no|any|each) "
                     r"\{")
    assert not [f for _, f in _forms() if det.search(f)]


def test_dev17_kinds():
    """The kinds it was written for: subject, object, after many prepositions, a list, a question, an answer,
    reported speech, a greeting, a sign-off, a phone call, a hand-over, fillers, a self-correction, a turn's start
    and end, after a conjunction or an adverb."""
    forms = [f for _, f in _forms()]
    kinds = [r"^\{g\} [a-z]+s? ", r"(called|told|gave|send|text) \{[gs]\}",
             r"(without|behind|except|besides|between|through|unlike|including|via|near|per|regarding) \{[gs]\}",
             r"\{g\}, \{g2\} and \{g3\}", r"^Just \{g\}\.$", r"\{s\} goes,", r"^Hiya \{g\}", r"Kind regards, \{g\} \{s\}$",
             r"is that \{g\}\?", r"^Bed four is", r"^Er, \{g\}", r"I mean \{s\}", r"^\{g\}\.$", r"\{g\}$",
             r"^(But|Because|Unless|Until) \{g\}", r"^(Even|Only|Poor) \{g\}"]
    assert all(any(re.search(k, f) for f in forms) for k in kinds), [
        k for k in kinds if not any(re.search(k, f) for f in forms)]
