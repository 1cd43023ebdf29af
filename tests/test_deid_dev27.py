"""The benchmark's twenty-seventh development set (benchmarks/deid_dev27.py, issue 50, fourteenth session): names that
are words the guards block (clinical in a chapter of conditions, or in no gazetteer), where only a person stands,
beside the same words as words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared


@pytest.fixture(scope="module")
def dev27():
    return dev_set(27)


def test_dev27_names_are_new(dev27):
    shared = parts_shared(dev27.DEV27_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev27_names_not_in_later_sets(dev27):
    assert dev_parts_shared(dev27.DEV27_NAMES, 19, 20, 22, 23, 24, 28) == dict.fromkeys((19, 20, 22, 23, 24, 28), 0)


def test_dev27_shape(dev27):
    check_dev_set(dev27, 27, origins={"UK", "US", "Jamaican", "Punjabi", "Nigerian", "Ghanaian", "Samoan"},
                  min_parts=4, min_forms=40, min_uses=60, own_words=25)


def test_dev27_forms_are_new(dev27):
    assert not {f.lower() for _, f in dev27.DEV27_FORMS} & dev_forms(13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 24, 28)
