"""The benchmark's thirteenth development set (benchmarks/deid_dev13.py, issue 50, tenth session): plain forms of
clinic speech that may lose any origin's name, with the second development set's names."""

from __future__ import annotations

import re

from script_modules import FORM_LISTS, forms_of, load_script, table_parts


def test_dev13_forms_shape():
    dev13 = load_script("benchmarks/deid_dev13.py", "clinaudit_deid_dev13")
    forms = dev13.DEV13_FORMS
    assert len(forms) >= 150 and len(set(forms)) == len(forms)
    assert len({f.lower() for _, f in forms}) == len(forms)  # no repeated form
    slots = re.compile(r"\{(\w+)\}")
    assert all(who in ("D", "P") and slots.search(f) for who, f in forms)
    assert all(set(slots.findall(f)) <= {"g", "s", "g2", "g3"} for _, f in forms)
    assert dev13.DEV13_REPEAT >= 1


def test_dev13_forms_are_new():
    dev13 = load_script("benchmarks/deid_dev13.py", "clinaudit_deid_dev13")
    others = {f.lower() for f in forms_of(*FORM_LISTS)}
    assert not {f.lower() for _, f in dev13.DEV13_FORMS} & others


def test_dev13_forms_hold_no_name_word():
    """No word of a form is a part of the names put in (dev2's), but the "d" of an elided "'d"."""
    dev13 = load_script("benchmarks/deid_dev13.py", "clinaudit_deid_dev13")
    dev2 = load_script("benchmarks/deid_dev2.py", "clinaudit_deid_dev2")
    words = {w for _, f in dev13.DEV13_FORMS for w in re.findall(r"[a-z]+", f.lower())}
    assert not words & {p.lower() for p in table_parts(dev2.DEV2_NAMES)} - {"d"}


def test_dev13_kinds():
    """The kinds it was written for: a name alone or as an answer, a surname as the subject, after a conjunction or
    preposition, after a number, "here"/"speaking", corrected, reported speech, before a place noun, with a relation,
    a to-do, in brackets or after a dash, before "and I", fillers, initials, three parts, surname first, ACI's
    contractions written apart."""
    forms = [f for _, f in load_script("benchmarks/deid_dev13.py", "clinaudit_deid_dev13").DEV13_FORMS]
    kinds = [r"^\{s\}\. ", r"\{g\}$", r"^\{s\} [a-z]+s ", r"(and|or|with|from|by|for|to|than|like) \{[gs]\}",
             r"(two|\d) with \{s\}", r"\{g\} here", r"this is \{g\} speaking", r"\{g\}, no, sorry, \{g2\}",
             r"\{g\} was like", r"\{s\} pharmacy", r"\{g\} my neighbour", r"Remind \{g\}", r"\(.*\{[gs]\}.*\)",
             r"- \{s\} -", r"\{g\} and I ", r"^Um \{g\}", r"Uh, \{s\}", r"\{g\} [A-Z]\. \{s\}", r"\{g\} \{g2\} \{s\}",
             r"\{s\} \{g\},", r"\{g\} has n't"]
    assert all(any(re.search(k, f, re.I) for f in forms) for k in kinds), [
        k for k in kinds if not any(re.search(k, f, re.I) for f in forms)]
