"""The benchmark's twenty-first development set (benchmarks/deid_dev21.py, issue 50, thirteenth session): names of 9
origins that the guards call words, in the frames that name a person, beside words in the same frames; none of
another set's names (compared without printing them)."""

from __future__ import annotations


import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared


@pytest.fixture(scope="module")
def dev21():
    return dev_set(21)


def test_dev21_names_are_new(dev21):
    shared = parts_shared(dev21.DEV21_NAMES, *(s for s in NAME_TABLES if s != "deid_dev21.py"))
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev21.DEV21_NAMES, 19, 20, 22, 24) == {19: 0, 20: 0, 22: 0, 24: 0}


def test_dev21_shape(dev21):
    check_dev_set(dev21, 21, origins={"Korean", "Vietnamese", "Chinese", "UK", "US", "Irish", "Punjabi", "Haitian",
                                      "Samoan"}, min_parts=5, min_forms=40, min_uses=60, own_words=30)


def test_dev21_forms_are_new(dev21):
    assert not {f.lower() for _, f in dev21.DEV21_FORMS} & dev_forms(13, 14, 15, 16, 17, 19, 20, 22, 24)
