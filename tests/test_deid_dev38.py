"""The benchmark's thirty-eighth development set (benchmarks/deid_dev38.py, issue 50, sixteenth session): UK, Irish,
US, Australian and Scottish given names and surnames that are common English words, alone where only a person stands,
beside the same words as words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37)


@pytest.fixture(scope="module")
def dev38():
    return dev_set(38)


def test_dev38_names_are_new(dev38):
    shared = parts_shared(dev38.DEV38_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev38.DEV38_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev38_shape(dev38):
    check_dev_set(dev38, 38, origins={"UK", "Irish", "US", "Australian", "Scottish"}, min_parts=4, min_forms=30,
                  min_uses=60, own_words=20)
    assert sum(len(g) + len(s) for g, s in dev38.DEV38_NAMES.values()) >= 25


def test_dev38_forms_are_new(dev38):
    assert not {f.lower() for _, f in dev38.DEV38_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev38_names_are_common_words(dev38):
    """What the set is for: every name part is a word the lists call common."""
    from clinaudit.perturb.vocab import is_common

    for given, sur in dev38.DEV38_NAMES.values():
        for name in [*given, *sur]:
            assert is_common(name.lower()), name
