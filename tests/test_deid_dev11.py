"""The benchmark's eleventh development set (benchmarks/deid_dev11.py, issue 50, ninth session): more names of the
origins the held-out half loses most, of every kind; none of deid_names.py's (either half), deid_dev2.py's,
deid_dev3_names.py's, deid_dev4.py's, deid_dev6.py's, deid_dev8.py's, deid_dev9.py's or deid_dev12.py's (compared
without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import forms_of, load_script, name_parts, parts_shared


@pytest.fixture(scope="module")
def dev11():
    return load_script("benchmarks/deid_dev11.py", "clinaudit_deid_dev11")


def test_dev11_names_are_new(dev11):
    shared = parts_shared(dev11.DEV11_NAMES, "deid_names.py", "deid_dev2.py", "deid_dev3_names.py", "deid_dev4.py",
                          "deid_dev6.py", "deid_dev8.py", "deid_dev9.py", "deid_dev12.py")
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev11_shape(dev11):
    names = dev11.DEV11_NAMES
    assert set(names) == {"Samoan", "Tongan", "Haitian", "Korean", "Punjabi"}
    assert all(len(g) >= 30 and len(s) >= 30 for g, s in names.values())
    every = [n for given, sur in names.values() for n in given + sur]
    parts = [p for n in every for p in name_parts(n)]
    assert len(parts) == len(set(parts))  # no part in two names of this set
    forms = dev11.DEV11_FORMS
    assert 20 <= len(forms) <= 40
    assert all(who in ("D", "P") and re.search(r"\{[gsGS]f?\}", f) for who, f in forms)
    assert any(re.search(r"\{[GS]\}", f) for _, f in forms) and any("{gf}" in f for _, f in forms)
    # the kinds the set is for
    samoan = names["Samoan"][0] + names["Samoan"][1]
    assert sum(len(n) >= 10 for n in samoan) >= 5  # chiefly titles, compound surnames
    assert any("ʻ" in n for n in samoan) and any("'" in n for n in samoan)
    assert sum(bool(re.search(r"\w[-\s]\w", n)) for n in names["Haitian"][0] + names["Haitian"][1]) >= 5
    assert {"joined", "hyphen", "apart"} <= {"hyphen" if "-" in n else "apart" if " " in n else "joined"
                                             for n in names["Korean"][0]}
    assert sum(len(n) <= 3 for n in names["Korean"][1]) >= 15


def test_dev11_forms_are_new(dev11):
    assert not forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py", "deid_dev_prep2.py", "deid_dev4.py",
                        "deid_dev5.py", "deid_dev6.py", "deid_dev8.py",
                        "deid_dev9.py") & {f for _, f in dev11.DEV11_FORMS}
