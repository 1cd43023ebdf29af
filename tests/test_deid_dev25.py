"""The benchmark's twenty-fifth development set (benchmarks/deid_dev25.py, issue 50, fourteenth session): given names
of two parts, hyphenated or apart, a part a word the lists hold, beside hyphenated words and eponyms used as words;
none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared


@pytest.fixture(scope="module")
def dev25():
    return dev_set(25)


def test_dev25_names_are_new(dev25):
    shared = parts_shared(dev25.DEV25_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev25.DEV25_NAMES, 19, 20, 22, 23, 24, 26, 27, 28) == dict.fromkeys((19, 20, 22, 23, 24, 26, 27, 28), 0)


def test_dev25_shape(dev25):
    check_dev_set(dev25, 25, origins={"Haitian", "French", "Korean", "Vietnamese", "Chinese", "UK", "US", "Irish",
                                      "Samoan"}, min_parts=5, min_forms=40, min_uses=60, own_words=12)
    # every given name has two parts, hyphenated or apart
    assert all(len(g.replace("-", " ").split()) == 2 for given, _ in dev25.DEV25_NAMES.values() for g in given)


def test_dev25_forms_are_new(dev25):
    assert not {f.lower() for _, f in dev25.DEV25_FORMS} & dev_forms(13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 24, 26, 27, 28)
