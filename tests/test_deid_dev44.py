"""The benchmark's forty-fourth development set (benchmarks/deid_dev44.py, issue 50, nineteenth session): given names
that are English words or headwords, addressed in spoken greetings and questions without punctuation around the
name, beside the same slots holding words as words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43)


@pytest.fixture(scope="module")
def dev44():
    return dev_set(44)


def test_dev44_names_are_new(dev44):
    shared = parts_shared(dev44.DEV44_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev44.DEV44_NAMES, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev44_shape(dev44):
    check_dev_set(dev44, 44, origins={"English", "US", "Irish", "Scottish", "Welsh", "Punjabi", "Yoruba", "Arabic",
                                      "Spanish", "Hindi", "Japanese", "Cook Islands", "Tibetan"},
                  min_parts=2, min_forms=30, min_uses=60, own_words=12)
    assert sum(len(g) for g, _ in dev44.DEV44_NAMES.values()) >= 30


def test_dev44_forms_are_new(dev44):
    assert not {f.lower() for _, f in dev44.DEV44_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev44_forms_have_no_punctuation_around_the_name(dev44):
    """What the set is for: the given name stands between words, no comma or stop beside it."""
    for _, form in dev44.DEV44_FORMS:
        assert re.search(r"[a-z] \{g\} [a-z]", form.lower()), form


def test_dev44_given_names_are_words_the_gazetteer_holds(dev44):
    """Every given name is a common word or headword of the word lists and a name of the gazetteer."""
    from clinaudit.perturb.name_word import word_facts
    from clinaudit.perturb.vocab import is_common

    for given, _ in dev44.DEV44_NAMES.values():
        for name in given:
            assert is_common(name.lower()) and word_facts(name.lower()).gazetteer, name
