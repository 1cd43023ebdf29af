"""The benchmark's thirty-fifth development set (benchmarks/deid_dev35.py, issue 50, sixteenth session): UK, Irish,
Scottish and Australian surnames that are common English adjectives, nouns or verbs, after their given name and alone,
beside the same words as words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 36)


@pytest.fixture(scope="module")
def dev35():
    return dev_set(35)


def test_dev35_names_are_new(dev35):
    shared = parts_shared(dev35.DEV35_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev35.DEV35_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev35_shape(dev35):
    check_dev_set(dev35, 35, origins={"UK", "Irish", "Scottish", "Australian"}, min_parts=4, min_forms=30,
                  min_uses=60, own_words=15)
    assert sum(len(s) for _, s in dev35.DEV35_NAMES.values()) >= 18


def test_dev35_forms_are_new(dev35):
    assert not {f.lower() for _, f in dev35.DEV35_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev35_surnames_are_common_words(dev35):
    """What the set is for: every surname is a word the lists call common, and no clinical word but of a chapter of
    conditions (ICD-10-CM writes "main", "ring", "broad" in its index)."""
    from clinaudit.perturb.vocab import is_common

    for _, sur in dev35.DEV35_NAMES.values():
        for name in sur:
            assert is_common(name.lower()), name
