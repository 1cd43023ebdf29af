"""The benchmark's forty-first development set (benchmarks/deid_dev41.py, issue 50, seventeenth session): given names
that are English words (flowers, gems, colours, virtues, weather and pet words) where a person stands in an everyday
sentence, beside the same words as words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 42, 43)


@pytest.fixture(scope="module")
def dev41():
    return dev_set(41)


def test_dev41_names_are_new(dev41):
    shared = parts_shared(dev41.DEV41_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev41.DEV41_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev41_shape(dev41):
    check_dev_set(dev41, 41, origins={"UK", "US", "Irish", "Australian", "Filipino", "Nigerian"},
                  min_parts=5, min_forms=30, min_uses=60, own_words=15)
    assert sum(len(g) + len(s) for g, s in dev41.DEV41_NAMES.values()) >= 34


def test_dev41_forms_are_new(dev41):
    assert not {f.lower() for _, f in dev41.DEV41_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev41_given_names_are_words(dev41):
    """What the set is for: every given name is in the first-name gazetteer and is a common English word the lists
    hold, no clinical word."""
    from clinaudit.perturb.vocab import clinical_category, first_names, is_common

    for given, _ in dev41.DEV41_NAMES.values():
        for name in given:
            key = name.lower()
            assert key in first_names() and is_common(key) and clinical_category(key) is None, name
