"""The benchmark's thirty-second development set (benchmarks/deid_dev32.py, issue 50, fifteenth session): names that
are everyday English words the gazetteers hold, in everyday places no rule frames, beside the same words and mass
nouns as words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)


@pytest.fixture(scope="module")
def dev32():
    return dev_set(32)


def test_dev32_names_are_new(dev32):
    shared = parts_shared(dev32.DEV32_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev32.DEV32_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev32_shape(dev32):
    check_dev_set(dev32, 32, origins={"UK", "US", "Irish", "Australian", "Canadian", "South African", "Nigerian"},
                  min_parts=4, min_forms=40, min_uses=80, own_words=30)
    assert sum(len(g) + len(s) for g, s in dev32.DEV32_NAMES.values()) >= 30


def test_dev32_forms_are_new(dev32):
    assert not {f.lower() for _, f in dev32.DEV32_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev32_names_are_gazetteer_names_the_lists_call_words(dev32):
    """What the set is for: every part is a gazetteer name that the word lists also hold as a common word, and no
    clinical word."""
    from clinaudit.perturb.vocab import clinical_category, first_names, is_common, surnames

    for given, sur in dev32.DEV32_NAMES.values():
        for name in [*given, *sur]:
            key = name.lower()
            assert is_common(key) and (key in first_names() or key in surnames()), name
            assert clinical_category(key) is None, name
