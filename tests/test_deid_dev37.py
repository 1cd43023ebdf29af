"""The benchmark's thirty-seventh development set (benchmarks/deid_dev37.py, issue 50, sixteenth session): a full name
whose surname is an English word and the same person again alone, beside the same words as words; none of another
set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36)


@pytest.fixture(scope="module")
def dev37():
    return dev_set(37)


def test_dev37_names_are_new(dev37):
    shared = parts_shared(dev37.DEV37_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev37.DEV37_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev37_shape(dev37):
    check_dev_set(dev37, 37, origins={"Irish", "Scottish", "UK", "US", "Australian"}, min_parts=4, min_forms=30,
                  min_uses=60, own_words=16)


def test_dev37_forms_are_new(dev37):
    assert not {f.lower() for _, f in dev37.DEV37_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev37_every_form_names_one_person_twice(dev37):
    """What the set is for: every form holds the full name and the same person's surname or given name again alone."""
    for _, form in dev37.DEV37_FORMS:
        assert "{g} {s}" in form and form.count("{g}") + form.count("{s}") >= 3, form
