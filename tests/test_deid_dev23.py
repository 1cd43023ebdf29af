"""The benchmark's twenty-third development set (benchmarks/deid_dev23.py, issue 50, thirteenth session): names of
Zipf 4.5 or more that the lists call words, in the places of a sentence where a person stands bare (after a
preposition, answering a who-question, "let X know", a list with "me", a progressive's subject, a complement
clause's subject, a hand-over line), beside the same words as words in the same places; none of another set's names
(compared without printing them)."""

from __future__ import annotations


import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared


@pytest.fixture(scope="module")
def dev23():
    return dev_set(23)


def test_dev23_names_are_new(dev23):
    shared = parts_shared(dev23.DEV23_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev23.DEV23_NAMES, 19, 20, 21, 22, 24) == {19: 0, 20: 0, 21: 0, 22: 0, 24: 0}


def test_dev23_shape(dev23):
    check_dev_set(dev23, 23, origins={"UK", "US", "Irish", "Korean", "Chinese", "Punjabi", "Haitian", "Samoan",
                                      "Nigerian", "German"}, min_parts=2, min_forms=40, min_uses=60, own_words=10)
    assert dev23.DEV23_REPEAT >= 1


def test_dev23_forms_are_new(dev23):
    assert not {f.lower() for _, f in dev23.DEV23_FORMS} & dev_forms(13, 15, 16, 17, 19, 20)


def test_dev23_kinds(dev23):
    """Every kind of place it was written for, in the forms, and the same places in the words' sentences."""
    forms = " ".join(f.lower() for _, f in dev23.DEV23_FORMS)
    kinds = ["with {g} this", "from {g} this", "for {g},", "about {g}.", "without {g}.", "besides {g} who",
             "? {g} did", "? just {g}?", "let {g} know", "have {g} ring", "get {g} to", "me, {g} and my",
             "{g} and i share", "{g} is collecting", "{g} was with me", "think {g} has", "handover from {g}:",
             "over to {g},"]
    assert all(k in forms for k in kinds), [k for k in kinds if k not in forms]
    uses = " ".join(s.lower() for _, s in dev23.DEV23_WORD_USES)
    assert all(k in uses for k in ("with orange squash", "? union,", "union is picking up", "hand over to crew at",
                                   "sure union took", "me, orange juice and"))
