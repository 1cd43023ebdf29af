"""The benchmark's fourth development set (benchmarks/deid_dev4.py, issue 50, sixth session): names set apart by
how they are written (the ʻokina, háček, macrons, feminine surname forms), none of deid_names.py's (either half),
deid_dev2.py's or deid_dev3_names.py's (compared without printing them), 12 given names and 12 surnames an origin."""

from __future__ import annotations

import re

import pytest
from script_modules import forms_of, load_script, parts_shared


@pytest.fixture(scope="module")
def dev4():
    return load_script("benchmarks/deid_dev4.py", "clinaudit_deid_dev4")


def test_dev4_names_are_new(dev4):
    shared = parts_shared(dev4.DEV4_NAMES, "deid_names.py", "deid_dev2.py", "deid_dev3_names.py")
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev4_shape(dev4):
    assert len(dev4.DEV4_NAMES) == 15
    assert all(len(g) == 12 and len(s) == 12 for g, s in dev4.DEV4_NAMES.values())
    forms = dev4.DEV4_FORMS
    assert len(forms) >= 20
    assert all(who in ("D", "P") and re.search(r"\{[gsGS]\}", f) for who, f in forms)
    assert sum("{G}" in f or "{S}" in f for _, f in forms) >= 2  # a name in capitals, as a form writes it
    okina = [n for given, sur in dev4.DEV4_NAMES.values() for n in given + sur if re.search(r"\wʻ\w|\w['’]\w", n)]
    assert len(okina) >= 8  # the ʻokina (or an apostrophe for it) inside a word


def test_dev4_forms_are_new(dev4):
    assert not forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py") & {f for _, f in dev4.DEV4_FORMS}
