"""The benchmark's twenty-second development set (benchmarks/deid_dev22.py, issue 50, thirteenth session): names that
ICD-10-CM holds only in its external-cause or factors chapter, in the places the lower-case rules read, beside the same
words as words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import NAME_TABLES, forms_of, load_script, parts_shared, table_parts


@pytest.fixture(scope="module")
def dev22():
    return load_script("benchmarks/deid_dev22.py", "clinaudit_deid_dev22")


def test_dev22_names_are_new(dev22):
    shared = parts_shared(dev22.DEV22_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    for script, table in (("deid_dev19.py", "DEV19_NAMES"), ("deid_dev20.py", "DEV20_NAMES")):
        other = getattr(load_script(f"benchmarks/{script}", "clinaudit_" + script[:-3]), table)
        assert not table_parts(other) & table_parts(dev22.DEV22_NAMES), script


def test_dev22_shape(dev22):
    assert set(dev22.DEV22_NAMES) == {"UK", "US", "Irish", "Haitian", "Korean", "Punjabi", "Nigerian", "Samoan"}
    assert all(len(g) + len(s) >= 4 and g and s for g, s in dev22.DEV22_NAMES.values())
    forms = dev22.DEV22_FORMS
    assert len(forms) >= 40 and len({f.lower() for _, f in forms}) == len(forms)
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    parts = table_parts(dev22.DEV22_NAMES)
    assert not {w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & parts
    uses = dev22.DEV22_WORD_USES
    assert len(uses) >= 60 and len(set(uses)) == len(uses)
    used = {w for _, s in uses for w in re.findall(r"[a-z]+", s.lower())}
    assert len(used & parts) >= 25  # the names' own words, used as words


def test_dev22_names_are_icd_words_only_outside_the_disease_chapters(dev22):
    from clinaudit.perturb.vocab import clinical_category, first_names, surnames

    for given, sur in dev22.DEV22_NAMES.values():
        for name in (*given, *sur):
            key = name.lower()
            assert clinical_category(key) == "condition" and (key in first_names() or key in surnames()), name


def test_dev22_forms_are_new(dev22):
    others = forms_of("deid_dev.py", "deid_dev2.py", "deid_dev_prep.py", "deid_dev_prep2.py", "deid_dev4.py",
                      "deid_dev5.py", "deid_dev6.py", "deid_dev8.py", "deid_dev9.py", "deid_dev10.py", "deid_dev11.py",
                      "deid_dev12.py")
    for script, attr in (("deid_dev13.py", "DEV13_FORMS"), ("deid_dev14.py", "DEV14_FORMS"),
                         ("deid_dev15.py", "DEV15_FORMS"), ("deid_dev16.py", "DEV16_FORMS"),
                         ("deid_dev17.py", "DEV17_FORMS"), ("deid_dev19.py", "DEV19_FORMS"),
                         ("deid_dev20.py", "DEV20_FORMS")):
        others |= {f for _, f in getattr(load_script(f"benchmarks/{script}", "clinaudit_" + script[:-3]), attr)}
    assert not others & {f for _, f in dev22.DEV22_FORMS}
