"""The benchmark's twenty-second development set (benchmarks/deid_dev22.py, issue 50, thirteenth session): names that
ICD-10-CM holds only in its external-cause or factors chapter, in the places the lower-case rules read, beside the same
words as words; none of another set's names (compared without printing them)."""

from __future__ import annotations


import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared


@pytest.fixture(scope="module")
def dev22():
    return dev_set(22)


def test_dev22_names_are_new(dev22):
    shared = parts_shared(dev22.DEV22_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev22.DEV22_NAMES, 19, 20) == {19: 0, 20: 0}


def test_dev22_shape(dev22):
    check_dev_set(dev22, 22, origins={"UK", "US", "Irish", "Haitian", "Korean", "Punjabi", "Nigerian", "Samoan"},
                  min_parts=4, min_forms=40, min_uses=60, own_words=25)


def test_dev22_names_are_icd_words_only_outside_the_disease_chapters(dev22):
    from clinaudit.perturb.vocab import clinical_category, first_names, surnames

    for given, sur in dev22.DEV22_NAMES.values():
        for name in (*given, *sur):
            key = name.lower()
            assert clinical_category(key) == "condition" and (key in first_names() or key in surnames()), name


def test_dev22_forms_are_new(dev22):
    assert not {f.lower() for _, f in dev22.DEV22_FORMS} & dev_forms(13, 14, 15, 16, 17, 19, 20)
