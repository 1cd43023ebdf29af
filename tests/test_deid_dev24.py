"""The benchmark's twenty-fourth development set (benchmarks/deid_dev24.py, issue 50, thirteenth session): surnames
that are words right after a given name, beside the same words used as words after a given name; none of another
set's names (compared without printing them)."""

from __future__ import annotations


import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared


@pytest.fixture(scope="module")
def dev24():
    return dev_set(24)


def test_dev24_names_are_new(dev24):
    shared = parts_shared(dev24.DEV24_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev24_shape(dev24):
    check_dev_set(dev24, 24, origins={"Vietnamese", "Chinese", "UK", "US", "Irish", "Punjabi", "Samoan", "Nigerian"},
                  min_parts=3, min_forms=30, min_uses=40, own_words=12)


def test_dev24_forms_are_new(dev24):
    assert not {f.lower() for _, f in dev24.DEV24_FORMS} & dev_forms(13, 14, 15, 16, 17, 19, 20)


def test_dev24_names_not_in_dev19_dev20_dev22(dev24):
    assert dev_parts_shared(dev24.DEV24_NAMES, 19, 20, 22) == {19: 0, 20: 0, 22: 0}
