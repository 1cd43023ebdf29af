"""The benchmark's twenty-fourth development set (benchmarks/deid_dev24.py, issue 50, thirteenth session): surnames
that are words right after a given name, beside the same words used as words after a given name; none of another
set's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import NAME_TABLES, forms_of, load_script, parts_shared, table_parts


@pytest.fixture(scope="module")
def dev24():
    return load_script("benchmarks/deid_dev24.py", "clinaudit_deid_dev24")


def test_dev24_names_are_new(dev24):
    shared = parts_shared(dev24.DEV24_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev24_shape(dev24):
    assert set(dev24.DEV24_NAMES) == {"Vietnamese", "Chinese", "UK", "US", "Irish", "Punjabi", "Samoan", "Nigerian"}
    assert all(len(g) + len(s) >= 3 and g and s for g, s in dev24.DEV24_NAMES.values())
    forms = dev24.DEV24_FORMS
    assert len(forms) >= 30 and len(set(forms)) == len(forms)
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    parts = table_parts(dev24.DEV24_NAMES)
    assert not {w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & parts
    uses = dev24.DEV24_WORD_USES
    assert len(uses) >= 40 and len(set(uses)) == len(uses)
    used = {w for _, s in uses for w in re.findall(r"[a-z]+", s.lower())}
    assert len(used & parts) >= 12  # the names' own words, used as words


def test_dev24_forms_are_new(dev24):
    others = forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py", "deid_dev_prep2.py", "deid_dev4.py",
                      "deid_dev5.py", "deid_dev6.py", "deid_dev8.py", "deid_dev9.py", "deid_dev10.py", "deid_dev11.py",
                      "deid_dev12.py")
    for script, attr in (("deid_dev13.py", "DEV13_FORMS"), ("deid_dev14.py", "DEV14_FORMS"),
                         ("deid_dev15.py", "DEV15_FORMS"), ("deid_dev16.py", "DEV16_FORMS"),
                         ("deid_dev17.py", "DEV17_FORMS"), ("deid_dev19.py", "DEV19_FORMS"),
                         ("deid_dev20.py", "DEV20_FORMS")):
        others |= {f for _, f in getattr(load_script(f"benchmarks/{script}", "clinaudit_" + script[:-3]), attr)}
    assert not others & {f for _, f in dev24.DEV24_FORMS}


def test_dev24_names_not_in_dev19_dev20_dev22(dev24):
    for script, attr in (("deid_dev19.py", "DEV19_NAMES"), ("deid_dev20.py", "DEV20_NAMES"),
                         ("deid_dev22.py", "DEV22_NAMES")):
        other = table_parts(getattr(load_script(f"benchmarks/{script}", "clinaudit_" + script[:-3]), attr))
        assert not other & table_parts(dev24.DEV24_NAMES), script
