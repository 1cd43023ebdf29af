"""The benchmark's twenty-eighth development set (benchmarks/deid_dev28.py, issue 50, fourteenth session): names the
word lists hold only as words English hardly writes, where a person stands, beside such words as words; none of
another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared


@pytest.fixture(scope="module")
def dev28():
    return dev_set(28)


def test_dev28_names_are_new(dev28):
    shared = parts_shared(dev28.DEV28_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev28.DEV28_NAMES, 19, 20, 22, 23, 24) == {19: 0, 20: 0, 22: 0, 23: 0, 24: 0}


def test_dev28_shape(dev28):
    check_dev_set(dev28, 28, origins={"Nigerian", "Ugandan", "Samoan", "Polynesian", "Welsh", "Haitian"},
                  min_parts=2, min_forms=30, min_uses=60, own_words=9)


def test_dev28_forms_are_new(dev28):
    assert not {f.lower() for _, f in dev28.DEV28_FORMS} & dev_forms(13, 14, 15, 16, 17, 19, 20, 22, 23, 24)


def test_dev28_given_names_are_rare_list_words(dev28):
    """What the set is for: every given name is a common word of the lists, in no gazetteer, rarer than Zipf 3."""
    from clinaudit.perturb.vocab import english_zipf, first_names, is_common, surnames

    for given, _ in dev28.DEV28_NAMES.values():
        for name in given:
            key = name.lower()
            assert is_common(key) and key not in first_names() and key not in surnames(), name
            assert english_zipf(key) < 3.0, name
