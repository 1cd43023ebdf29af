"""The benchmark's twenty-ninth development set (benchmarks/deid_dev29.py, issue 50, fifteenth session): Korean names
of one-syllable parts (a bare surname, the full name surname first or its given name apart) and Chinese and
Vietnamese one-syllable names, beside the same words as words; none of another set's names (compared without
printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

OTHER_SETS = (19, 20, 22, 23, 24, 25, 26, 27, 28, 31)


@pytest.fixture(scope="module")
def dev29():
    return dev_set(29)


def test_dev29_names_are_new(dev29):
    shared = parts_shared(dev29.DEV29_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev29.DEV29_NAMES, *OTHER_SETS) == dict.fromkeys(OTHER_SETS, 0)


def test_dev29_shape(dev29):
    check_dev_set(dev29, 29, origins={"Korean", "Chinese", "Vietnamese"}, min_parts=6, min_forms=40, min_uses=60,
                  own_words=10)


def test_dev29_forms_are_new(dev29):
    assert not {f.lower() for _, f in dev29.DEV29_FORMS} & dev_forms(13, 14, 15, 16, 17, 19, 20, *OTHER_SETS[2:])


def test_dev29_korean_names_are_of_one_syllable_parts(dev29):
    """What the set is for: every Korean surname is one syllable; given names written apart, hyphenated, together;
    30 names or more in all."""
    given, sur = dev29.DEV29_NAMES["Korean"]
    assert all(len(s) <= 4 and " " not in s and "-" not in s for s in sur)
    assert any(" " in g for g in given) and any("-" in g for g in given) and any(g.isalpha() for g in given)
    assert sum(len(g) + len(s) for g, s in dev29.DEV29_NAMES.values()) >= 30
