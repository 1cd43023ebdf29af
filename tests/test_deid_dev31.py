"""The benchmark's thirty-first development set (benchmarks/deid_dev31.py, issue 50, fifteenth session): names the
guards keep as words (function words, days, months, adjectives of virtue), where only a person stands, beside the
same words and the race, day, month and modal words as words; none of another set's names (compared without
printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28)


@pytest.fixture(scope="module")
def dev31():
    return dev_set(31)


def test_dev31_names_are_new(dev31):
    shared = parts_shared(dev31.DEV31_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev31.DEV31_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev31_shape(dev31):
    check_dev_set(dev31, 31, origins={"UK", "US", "Punjabi", "Haitian", "Nigerian", "Jamaican", "Ghanaian"},
                  min_parts=4, min_forms=40, min_uses=80, own_words=25)
    assert sum(len(g) + len(s) for g, s in dev31.DEV31_NAMES.values()) >= 30


def test_dev31_forms_are_new(dev31):
    assert not {f.lower() for _, f in dev31.DEV31_FORMS} & dev_forms(13, 14, 15, 16, 17, 19, 20, 21, *_LATER)


def test_dev31_word_uses_put_the_guarded_kinds_as_words(dev31):
    """What the set is for beside the names: the race, day, month and modal words the guards keep, as words."""
    used = {w for _, s in dev31.DEV31_WORD_USES for w in s.lower().replace(",", " ").replace(".", " ").split()}
    assert {"black", "white", "brown", "asian", "friday", "may", "will", "good"} <= used
