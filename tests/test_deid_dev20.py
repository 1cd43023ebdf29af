"""The benchmark's twentieth development set (benchmarks/deid_dev20.py, issue 50, twelfth session): names of 8 origins
that are everyday English words, where grammar leaves room only for a person, beside the same words used as words;
none of another set's names (compared without printing them)."""

from __future__ import annotations


import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_set, parts_shared


@pytest.fixture(scope="module")
def dev20():
    return dev_set(20)


def test_dev20_names_are_new(dev20):
    shared = parts_shared(dev20.DEV20_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev20_shape(dev20):
    check_dev_set(dev20, 20, origins={"UK", "US", "Irish", "Haitian", "Punjabi", "Korean", "Nigerian", "Ghanaian"},
                  min_parts=4, min_forms=40, min_uses=60, own_words=30)


def test_dev20_forms_are_new(dev20):
    assert not {f.lower() for _, f in dev20.DEV20_FORMS} & dev_forms(13, 14, 15, 16, 17)
