"""The benchmark's fortieth development set (benchmarks/deid_dev40.py, issue 50, seventeenth session): surnames that
are clinical eponyms where a person stands, beside the same words as eponyms; none of another set's names (compared
without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39)


@pytest.fixture(scope="module")
def dev40():
    return dev_set(40)


def test_dev40_names_are_new(dev40):
    shared = parts_shared(dev40.DEV40_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev40.DEV40_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev40_shape(dev40):
    check_dev_set(dev40, 40, origins={"UK", "US", "German", "Japanese", "Italian", "US Jewish"},
                  min_parts=6, min_forms=30, min_uses=60, own_words=15)
    assert sum(len(g) + len(s) for g, s in dev40.DEV40_NAMES.values()) >= 36


def test_dev40_forms_are_new(dev40):
    assert not {f.lower() for _, f in dev40.DEV40_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev40_surnames_are_eponyms(dev40):
    """What the set is for: every surname is a clinical eponym the lists hold as a condition word, capitalised only
    (never written in lower case in ICD-10-CM), and every given name is not one."""
    from clinaudit.perturb.vocab import clinical_category, condition_noun

    for given, sur in dev40.DEV40_NAMES.values():
        for name in sur:
            key = name.lower()
            assert clinical_category(key) == "condition" and not condition_noun(key), name
        for name in given:
            assert clinical_category(name.lower()) is None, name
