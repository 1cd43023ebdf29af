"""The benchmark's fourteenth development set (benchmarks/deid_dev14.py, issue 50, tenth session): more lower-case
names of Samoan, Haitian, Korean, Punjabi, of the kinds the other sets keep most; none of deid_names.py's (either
half) or another development set's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import forms_of, load_script, name_parts, parts_shared, table_parts


@pytest.fixture(scope="module")
def dev14():
    return load_script("benchmarks/deid_dev14.py", "clinaudit_deid_dev14")


def test_dev14_names_are_new(dev14):
    shared = parts_shared(dev14.DEV14_NAMES, "deid_names.py", "deid_dev2.py", "deid_dev3_names.py", "deid_dev4.py",
                          "deid_dev6.py", "deid_dev8.py", "deid_dev9.py", "deid_dev11.py", "deid_dev12.py", "deid_dev15.py")
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev14_shape(dev14):
    names = dev14.DEV14_NAMES
    assert set(names) == {"Samoan", "Haitian", "Korean", "Punjabi"}
    assert all(20 <= len(g) <= 40 and 20 <= len(s) <= 40 for g, s in names.values())
    every = [n for given, sur in names.values() for n in given + sur]
    parts = [p for n in every for p in name_parts(n)]
    assert len(parts) == len(set(parts))  # no part in two names of this set
    forms = dev14.DEV14_FORMS
    assert 20 <= len(forms) <= 30 and len(set(forms)) == len(forms)
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    assert not {w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & table_parts(names)
    # the kinds the set is for
    korean = names["Korean"][0] + names["Korean"][1]
    assert sum(len(n) <= 3 for n in korean) >= 10 and any("ŏ" in n for n in korean)
    assert sum(bool(re.search(r"(?:preet|jeet|jit|jot|deep|inder)$", n)) for n in names["Punjabi"][0]) >= 10


def test_dev14_forms_are_new(dev14):
    assert not forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py", "deid_dev_prep2.py", "deid_dev4.py",
                        "deid_dev5.py", "deid_dev6.py", "deid_dev8.py", "deid_dev9.py", "deid_dev11.py",
                        "deid_dev12.py") & {f for _, f in dev14.DEV14_FORMS}
