"""The benchmark's forty-third development set (benchmarks/deid_dev43.py, issue 50, seventeenth session): Polynesian
and Fijian names of two Polynesian-shaped parts that the lists hold as rare words or read as words, in everyday places,
beside the same words and pairs of Polynesian words as words; none of another set's names (compared without printing
them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 42)


@pytest.fixture(scope="module")
def dev43():
    return dev_set(43)


def test_dev43_names_are_new(dev43):
    shared = parts_shared(dev43.DEV43_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev43.DEV43_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev43_shape(dev43):
    check_dev_set(dev43, 43, origins={"Samoan", "Tongan", "Māori", "Cook Islands", "Hawaiian", "Fijian"},
                  min_parts=6, min_forms=30, min_uses=60, own_words=8)
    assert sum(len(g) + len(s) for g, s in dev43.DEV43_NAMES.values()) >= 40


def test_dev43_forms_are_new(dev43):
    assert not {f.lower() for _, f in dev43.DEV43_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev43_parts_are_polynesian_shaped(dev43):
    """What the set is for: every part is written as the Polynesian languages write a word (open syllables, no b, c,
    d, j, q, x, y, z) and is rarer in English text than Zipf 3.0."""
    import re

    from clinaudit.perturb.vocab import english_zipf

    for given, sur in dev43.DEV43_NAMES.values():
        for name in [*given, *sur]:
            key = name.lower()
            assert re.fullmatch(r"(?:(?:ng|wh|[fghklmnprstvw])?[aeiou]{1,3})+", key) and english_zipf(key) < 3.0, name
