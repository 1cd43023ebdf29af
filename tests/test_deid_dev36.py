"""The benchmark's thirty-sixth development set (benchmarks/deid_dev36.py, issue 50, sixteenth session): names that
are the names of countries, US states and regions, and Gaelic surnames of several parts, beside the same words as
places; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32)


@pytest.fixture(scope="module")
def dev36():
    return dev_set(36)


def test_dev36_names_are_new(dev36):
    shared = parts_shared(dev36.DEV36_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev36.DEV36_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev36_shape(dev36):
    check_dev_set(dev36, 36, origins={"Irish", "Scottish", "UK", "US"}, min_parts=4, min_forms=30, min_uses=60,
                  own_words=18)


def test_dev36_forms_are_new(dev36):
    assert not {f.lower() for _, f in dev36.DEV36_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev36_names_are_places_or_gaelic_parts(dev36):
    """What the set is for: every part of one word is a gazetteer name the clinical lists file as a place (a country,
    a US state, a region); every name of several parts is a Gaelic particle and a stem."""
    from clinaudit.perturb.name_word import word_facts

    for given, sur in dev36.DEV36_NAMES.values():
        for name in [*given, *sur]:
            parts = name.lower().split()
            if len(parts) == 1:
                w = word_facts(parts[0])
                assert w.gazetteer and w.clinical == "place", name
            else:
                assert parts[0] in {"mac", "mag", "nic"}, name
