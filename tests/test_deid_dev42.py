"""The benchmark's forty-second development set (benchmarks/deid_dev42.py, issue 50, seventeenth session): UK, Irish,
Punjabi, Scottish and German surnames that are English words, bare and after a given name, in everyday places a
person stands, beside the same words as words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39)


@pytest.fixture(scope="module")
def dev42():
    return dev_set(42)


def test_dev42_names_are_new(dev42):
    shared = parts_shared(dev42.DEV42_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev42.DEV42_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev42_shape(dev42):
    check_dev_set(dev42, 42, origins={"UK", "Irish", "Punjabi", "Scottish", "German"}, min_parts=5, min_forms=30,
                  min_uses=60, own_words=15)
    assert sum(len(g) + len(s) for g, s in dev42.DEV42_NAMES.values()) >= 40


def test_dev42_forms_are_new(dev42):
    assert not {f.lower() for _, f in dev42.DEV42_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev42_surnames_are_words(dev42):
    """What the set is for: every surname is a word the lists hold as a common word."""
    from clinaudit.perturb.vocab import is_common

    for _, sur in dev42.DEV42_NAMES.values():
        for name in sur:
            assert is_common(name.lower()), name
