"""The benchmark's twentieth development set (benchmarks/deid_dev20.py, issue 50, twelfth session): names of 8 origins
that are everyday English words, where grammar leaves room only for a person, beside the same words used as words;
none of another set's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import NAME_TABLES, forms_of, load_script, parts_shared, table_parts


@pytest.fixture(scope="module")
def dev20():
    return load_script("benchmarks/deid_dev20.py", "clinaudit_deid_dev20")


def test_dev20_names_are_new(dev20):
    shared = parts_shared(dev20.DEV20_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev20_shape(dev20):
    assert set(dev20.DEV20_NAMES) == {"UK", "US", "Irish", "Haitian", "Punjabi", "Korean", "Nigerian", "Ghanaian"}
    assert all(len(g) + len(s) >= 4 and g and s for g, s in dev20.DEV20_NAMES.values())
    forms = dev20.DEV20_FORMS
    assert len(forms) >= 40 and len(set(forms)) == len(forms)
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    parts = table_parts(dev20.DEV20_NAMES)
    assert not {w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & parts
    uses = dev20.DEV20_WORD_USES
    assert len(uses) >= 60 and len(set(uses)) == len(uses)
    used = {w for _, s in uses for w in re.findall(r"[a-z]+", s.lower())}
    assert len(used & parts) >= 30  # the names' own words, used as words


def test_dev20_forms_are_new(dev20):
    others = forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py", "deid_dev_prep2.py", "deid_dev4.py",
                      "deid_dev5.py", "deid_dev6.py", "deid_dev8.py", "deid_dev9.py", "deid_dev10.py", "deid_dev11.py",
                      "deid_dev12.py")
    for script, attr in (("deid_dev13.py", "DEV13_FORMS"), ("deid_dev14.py", "DEV14_FORMS"),
                         ("deid_dev15.py", "DEV15_FORMS"), ("deid_dev16.py", "DEV16_FORMS"),
                         ("deid_dev17.py", "DEV17_FORMS")):
        others |= {f for _, f in getattr(load_script(f"benchmarks/{script}", "clinaudit_" + script[:-3]), attr)}
    assert not others & {f for _, f in dev20.DEV20_FORMS}
