"""The benchmark's twelfth development set (benchmarks/deid_dev12.py, issue 50, ninth session): UK and Irish names that
are English words, clinical words or Irish-language names, beside the same words used as words; none of
deid_names.py's (either half) or another development set's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import forms_of, load_script, parts_shared, table_parts


@pytest.fixture(scope="module")
def dev12():
    return load_script("benchmarks/deid_dev12.py", "clinaudit_deid_dev12")


def test_dev12_names_are_new(dev12):
    shared = parts_shared(dev12.DEV12_NAMES, "deid_names.py", "deid_dev2.py", "deid_dev3_names.py", "deid_dev4.py",
                          "deid_dev6.py", "deid_dev8.py", "deid_dev9.py")
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev12_shape(dev12):
    assert set(dev12.DEV12_NAMES) == {"UK", "Irish"}
    assert all(len(g) == 12 and len(s) == 12 for g, s in dev12.DEV12_NAMES.values())
    forms = dev12.DEV12_FORMS
    assert len(forms) >= 24 and len(set(forms)) == len(forms)
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    parts = table_parts(dev12.DEV12_NAMES)
    assert not {w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & parts
    uses = dev12.DEV12_WORD_USES
    assert len(uses) >= 40 and len(set(uses)) == len(uses)
    used = {w for _, s in uses for w in re.findall(r"[a-z]+", s.lower())}
    assert len(used & parts) >= 25  # the names' own words, used as words


def test_dev12_forms_are_new(dev12):
    assert not forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py", "deid_dev_prep2.py", "deid_dev4.py",
                        "deid_dev5.py", "deid_dev6.py", "deid_dev8.py",
                        "deid_dev9.py") & {f for _, f in dev12.DEV12_FORMS}
