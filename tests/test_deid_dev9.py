"""The benchmark's ninth development set (benchmarks/deid_dev9.py, issue 50, eighth session): names that are English
words where the dialog says they are names, beside the same words used as words; none of deid_names.py's (either
half), deid_dev2.py's, deid_dev3_names.py's, deid_dev4.py's or deid_dev6.py's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import forms_of, load_script, name_parts, parts_shared, table_parts


@pytest.fixture(scope="module")
def dev9():
    return load_script("benchmarks/deid_dev9.py", "clinaudit_deid_dev9")


def test_dev9_names_are_new(dev9):
    shared = parts_shared(dev9.DEV9_NAMES, "deid_names.py", "deid_dev2.py", "deid_dev3_names.py", "deid_dev4.py",
                          "deid_dev6.py")
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev9_shape(dev9):
    assert len(dev9.DEV9_NAMES) == 8
    assert all(len(g) == 6 and len(s) == 6 for g, s in dev9.DEV9_NAMES.values())
    forms = dev9.DEV9_FORMS
    assert len(forms) >= 24 and len(set(forms)) == len(forms)
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    # the forms hold no word of a name (the benchmark would count it as a name left)
    parts = table_parts(dev9.DEV9_NAMES)
    assert not sorted({w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & parts)
    uses = dev9.DEV9_WORD_USES
    assert len(uses) >= 40 and len(set(uses)) == len(uses)
    assert not any("{" in s for _, s in uses)
    used = {w for _, s in uses for w in re.findall(r"[a-z]+", s.lower())}
    assert len(used & parts) >= 30  # the names' own words, used as words


def test_dev9_name_parts_keep_short_given_names():
    assert name_parts("Per") == {"per"}

def test_dev9_forms_are_new(dev9):
    assert not forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py", "deid_dev_prep2.py", "deid_dev4.py",
                        "deid_dev5.py", "deid_dev6.py") & {f for _, f in dev9.DEV9_FORMS}
