"""The benchmark's thirty-ninth development set (benchmarks/deid_dev39.py, issue 50, sixteenth session): short given
names the lists hold as words or clinical abbreviations where only a person stands, beside the same words as words
and abbreviations; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38)


@pytest.fixture(scope="module")
def dev39():
    return dev_set(39)


def test_dev39_names_are_new(dev39):
    shared = parts_shared(dev39.DEV39_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev39.DEV39_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev39_shape(dev39):
    check_dev_set(dev39, 39, origins={"Samoan", "Tongan", "Māori", "Spanish", "Filipino", "UK"},
                  min_parts=3, min_forms=30, min_uses=60, own_words=15)
    assert sum(len(g) + len(s) for g, s in dev39.DEV39_NAMES.values()) >= 28


def test_dev39_forms_are_new(dev39):
    assert not {f.lower() for _, f in dev39.DEV39_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev39_given_names_are_short_words(dev39):
    """What the set is for: every given name is a short word (five letters at most) the word lists hold as a common
    word or a clinical abbreviation."""
    from clinaudit.perturb.vocab import clinical_category, is_common

    for given, _ in dev39.DEV39_NAMES.values():
        for name in given:
            key = name.lower()
            assert len(key) <= 5 and (is_common(key) or clinical_category(key) is not None), name
