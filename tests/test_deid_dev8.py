"""The benchmark's eighth development set (benchmarks/deid_dev8.py, issue 50, eighth session): many more names of the
origins the held-out half still loses, of every kind; none of deid_names.py's (either half), deid_dev2.py's,
deid_dev3_names.py's, deid_dev4.py's, deid_dev6.py's or deid_dev9.py's (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import forms_of, load_script, name_parts, parts_shared


@pytest.fixture(scope="module")
def dev8():
    return load_script("benchmarks/deid_dev8.py", "clinaudit_deid_dev8")


def test_dev8_names_are_new(dev8):
    shared = parts_shared(dev8.DEV8_NAMES, "deid_names.py", "deid_dev2.py", "deid_dev3_names.py", "deid_dev4.py",
                          "deid_dev6.py", "deid_dev9.py")
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev8_shape(dev8):
    names = dev8.DEV8_NAMES
    assert len(names) == 11
    assert all(len(g) >= 25 and len(s) >= 25 for g, s in names.values())
    every = [n for given, sur in names.values() for n in given + sur]
    parts = [p for n in every for p in name_parts(n)]
    assert len(parts) == len(set(parts))  # no part in two names of this set
    forms = dev8.DEV8_FORMS
    assert 24 <= len(forms) <= 40
    assert all(who in ("D", "P") and re.search(r"\{[gsGS]f?\}|\{[GS]F\}", f) for who, f in forms)
    assert sum(bool(re.search(r"\{[gsGS][fF]\}", f)) for _, f in forms) >= 4  # a name again without its diacritics
    # the kinds the set is for
    assert sum(bool(re.search(r"\w['’ʻ]\w", n)) for n in every) >= 20  # an ʻokina or apostrophe inside the name
    assert any("ʻ" in n for n in every) and any("'" in n for n in every)
    assert sum(len(n) <= 4 for n in every) >= 40  # short names
    assert sum(len(n) >= 11 for n in every) >= 10  # very long names
    assert sum("-" in n for n in every) >= 8  # hyphenated (Korean, Haitian)
    korean = names["Korean"][0]
    assert {"joined", "hyphen", "apart"} <= {"hyphen" if "-" in n else "apart" if " " in n else "joined"
                                             for n in korean}
    assert any(re.search(r"[čďěňřšťůž]", n) for n in names["Czech"][1])
    assert any(n.endswith(("ová", "ná")) for n in names["Czech"][1])


def test_dev8_forms_are_new(dev8):
    assert not forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py", "deid_dev_prep2.py", "deid_dev4.py",
                        "deid_dev5.py", "deid_dev6.py") & {f for _, f in dev8.DEV8_FORMS}
