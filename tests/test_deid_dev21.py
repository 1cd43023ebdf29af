"""The benchmark's twenty-first development set (benchmarks/deid_dev21.py, issue 50, thirteenth session): names of 9
origins that the guards call words, in the frames that name a person, beside words in the same frames; none of
another set's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import FORM_LISTS, NAME_TABLES, forms_of, load_script, parts_shared, table_parts


@pytest.fixture(scope="module")
def dev21():
    return load_script("benchmarks/deid_dev21.py", "clinaudit_deid_dev21")


def test_dev21_names_are_new(dev21):
    shared = parts_shared(dev21.DEV21_NAMES, *(s for s in NAME_TABLES if s != "deid_dev21.py"))
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    for script, table in (("deid_dev19.py", "DEV19_NAMES"), ("deid_dev20.py", "DEV20_NAMES"), ("deid_dev22.py", "DEV22_NAMES"),
                          ("deid_dev24.py", "DEV24_NAMES")):
        other = getattr(load_script(f"benchmarks/{script}", "clinaudit_" + script[:-3]), table)
        assert not table_parts(other) & table_parts(dev21.DEV21_NAMES)


def test_dev21_shape(dev21):
    assert set(dev21.DEV21_NAMES) == {"Korean", "Vietnamese", "Chinese", "UK", "US", "Irish", "Punjabi", "Haitian",
                                      "Samoan"}
    assert all(len(g) + len(s) >= 5 and g and s for g, s in dev21.DEV21_NAMES.values())
    forms = dev21.DEV21_FORMS
    assert len(forms) >= 40 and len(set(forms)) == len(forms)
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    parts = table_parts(dev21.DEV21_NAMES)
    assert not {w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & parts
    uses = dev21.DEV21_WORD_USES
    assert len(uses) >= 60 and len(set(uses)) == len(uses)
    used = {w for _, s in uses for w in re.findall(r"[a-z]+", s.lower())}
    assert len(used & parts) >= 30  # the names' own words, used as words


def test_dev21_forms_are_new(dev21):
    others = forms_of(*FORM_LISTS)
    for script, attr in (("deid_dev13.py", "DEV13_FORMS"), ("deid_dev14.py", "DEV14_FORMS"),
                         ("deid_dev15.py", "DEV15_FORMS"), ("deid_dev16.py", "DEV16_FORMS"),
                         ("deid_dev17.py", "DEV17_FORMS"), ("deid_dev19.py", "DEV19_FORMS"),
                         ("deid_dev20.py", "DEV20_FORMS"), ("deid_dev22.py", "DEV22_FORMS"),
                         ("deid_dev24.py", "DEV24_FORMS")):
        others |= {f for _, f in getattr(load_script(f"benchmarks/{script}", "clinaudit_" + script[:-3]), attr)}
    assert not others & {f for _, f in dev21.DEV21_FORMS}
