"""The benchmark's sixth development set (benchmarks/deid_dev6.py, issue 50, seventh session): names that are short
or English words, and names written with and without their diacritics; none of deid_names.py's (either half),
deid_dev2.py's, deid_dev3_names.py's or deid_dev4.py's (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import forms_of, load_script, parts_shared


@pytest.fixture(scope="module")
def dev6():
    return load_script("benchmarks/deid_dev6.py", "clinaudit_deid_dev6")


def test_dev6_names_are_new(dev6):
    shared = parts_shared(dev6.DEV6_NAMES, "deid_names.py", "deid_dev2.py", "deid_dev3_names.py", "deid_dev4.py")
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev6_shape(dev6):
    assert len(dev6.DEV6_NAMES) == 11
    assert all(len(g) == 12 and len(s) == 12 for g, s in dev6.DEV6_NAMES.values())
    forms = dev6.DEV6_FORMS
    assert len(forms) >= 20
    assert all(who in ("D", "P") and re.search(r"\{[gsGS]f?\}|\{[GS]F\}", f) for who, f in forms)
    assert sum(bool(re.search(r"\{[gsGS][fF]\}", f)) for _, f in forms) >= 3  # a name again without its diacritics
    short = [n for given, sur in dev6.DEV6_NAMES.values() for n in given + sur if len(n) <= 4]
    assert len(short) >= 40  # short names, of every origin the lists hold as words or abbreviations


def test_dev6_forms_are_new(dev6):
    assert not forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py", "deid_dev_prep2.py", "deid_dev4.py",
                        "deid_dev5.py") & {f for _, f in dev6.DEV6_FORMS}
