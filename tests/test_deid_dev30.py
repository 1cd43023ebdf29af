"""The benchmark's thirtieth development set (benchmarks/deid_dev30.py, issue 50, fifteenth session): full names of
two unlisted or rare words and given names written apart, where a person stands, beside two-word phrases that are no
names; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_OLDER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 31)


@pytest.fixture(scope="module")
def dev30():
    return dev_set(30)


def test_dev30_names_are_new(dev30):
    shared = parts_shared(dev30.DEV30_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev30.DEV30_NAMES, *_OLDER) == dict.fromkeys(_OLDER, 0)


def test_dev30_shape(dev30):
    check_dev_set(dev30, 30, origins={"Samoan", "Tongan", "Fijian", "Maori", "Hawaiian", "Irish", "US"},
                  min_parts=5, min_forms=40, min_uses=60, own_words=3)


def test_dev30_forms_are_new(dev30):
    assert not {f.lower() for _, f in dev30.DEV30_FORMS} & dev_forms(13, 14, 15, 16, 17, *_OLDER)


def test_dev30_names_are_two_words_unlisted_or_words(dev30):
    """What the set is for: every Irish and US origin has given names of two words apart; the parts are either in no
    list of names at all or names the lists also hold as English words ("lava", "bud")."""
    from clinaudit.perturb.vocab import first_names, is_common, surnames

    for origin in ("Irish", "US"):
        assert sum(" " in g for g in dev30.DEV30_NAMES[origin][0]) >= 2
    parts = [p.lower() for given, sur in dev30.DEV30_NAMES.values() for n in [*given, *sur] for p in n.split()]
    unlisted = [p for p in parts if p not in first_names() and p not in surnames() and not is_common(p)]
    words = [p for p in parts if is_common(p)]
    assert len(unlisted) >= 20 and len(words) >= 12
