"""The benchmark's fifteenth development set (benchmarks/deid_dev15.py, issue 50, tenth session): UK, Irish, US and
Australian names that are English words in the frames where English puts a person, beside the same words used as
words in the same frames; none of another set's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import forms_of, load_script, parts_shared, table_parts


@pytest.fixture(scope="module")
def dev15():
    return load_script("benchmarks/deid_dev15.py", "clinaudit_deid_dev15")


def test_dev15_names_are_new(dev15):
    shared = parts_shared(dev15.DEV15_NAMES, "deid_names.py", "deid_dev2.py", "deid_dev3_names.py", "deid_dev4.py",
                          "deid_dev6.py", "deid_dev8.py", "deid_dev9.py", "deid_dev11.py", "deid_dev12.py")
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev15_shape(dev15):
    assert set(dev15.DEV15_NAMES) == {"UK", "Irish", "US", "Australian"}
    assert all(len(g) == 6 and len(s) == 6 for g, s in dev15.DEV15_NAMES.values())
    forms = dev15.DEV15_FORMS
    assert len(forms) >= 16 and len(set(forms)) == len(forms)
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    parts = table_parts(dev15.DEV15_NAMES)
    assert not {w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & parts
    uses = dev15.DEV15_WORD_USES
    assert len(uses) >= 2 * len(forms) and len(set(uses)) == len(uses)  # as many words as words as names put in
    used = {w for _, s in uses for w in re.findall(r"[a-z]+", s.lower())}
    assert len(used & parts) >= 25  # the names' own words, used as words


def test_dev15_forms_are_new(dev15):
    assert not forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py", "deid_dev_prep2.py", "deid_dev4.py",
                        "deid_dev5.py", "deid_dev6.py", "deid_dev8.py", "deid_dev9.py",
                        "deid_dev12.py") & {f for _, f in dev15.DEV15_FORMS}
