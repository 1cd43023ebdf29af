"""The benchmark's thirty-fourth development set (benchmarks/deid_dev34.py, issue 50, sixteenth session): Punjabi,
Hindi, Korean and Vietnamese names of short parts English writes as words or fragments, beside the same words as
words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 36)


@pytest.fixture(scope="module")
def dev34():
    return dev_set(34)


def test_dev34_names_are_new(dev34):
    shared = parts_shared(dev34.DEV34_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev34.DEV34_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev34_shape(dev34):
    check_dev_set(dev34, 34, origins={"Punjabi", "Hindi", "Korean", "Vietnamese"}, min_parts=7, min_forms=30,
                  min_uses=60, own_words=22)
    assert sum(len(g) + len(s) for g, s in dev34.DEV34_NAMES.values()) >= 40


def test_dev34_forms_are_new(dev34):
    assert not {f.lower() for _, f in dev34.DEV34_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev34_has_given_names_written_apart(dev34):
    """What the set is for: given names written as two words apart, beside bare short parts."""
    apart = [g for given, _ in dev34.DEV34_NAMES.values() for g in given if " " in g]
    assert len(apart) >= 5
