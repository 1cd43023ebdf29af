"""The benchmark's nineteenth development set (benchmarks/deid_dev19.py, issue 50, twelfth session): names that are
words in the places of a sentence no rule read (after a preposition, answering a who-question, "let X know", a list
with "me", a progressive's subject, a complement clause's subject, a hand-over line), beside the same words as words in
the same places; none of another set's names (compared without printing them)."""

from __future__ import annotations


import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_set, parts_shared


@pytest.fixture(scope="module")
def dev19():
    return dev_set(19)


def test_dev19_names_are_new(dev19):
    shared = parts_shared(dev19.DEV19_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev19_shape(dev19):
    check_dev_set(dev19, 19, origins={"UK", "Irish", "US", "Australian", "Punjabi", "Haitian", "Korean", "Samoan"},
                  min_parts=5, min_forms=50, min_uses=60, own_words=20)
    assert dev19.DEV19_REPEAT >= 1


def test_dev19_forms_are_new(dev19):
    assert not {f.lower() for _, f in dev19.DEV19_FORMS} & dev_forms(13, 15, 16, 17)


def test_dev19_kinds(dev19):
    """Every kind of place it was written for, in the forms, and the same places in the words' sentences."""
    forms = " ".join(f.lower() for _, f in dev19.DEV19_FORMS)
    kinds = ["with {g} this", "from {g} last", "for {g},", "about {g}.", "without {g} now", "except {g}.",
             "including {g},", "besides {g} who", "than {g} by", "? {g} did", "? just {g}.", "let {g} know",
             "have {g} call", "get {g} to", "me, {g} and my", "{g} and i both", "{g} is picking", "{g} was with me",
             "think {g} has", "handover from {g}:", "over to {g},"]
    assert all(k in forms for k in kinds), [k for k in kinds if k not in forms]
    uses = " ".join(s.lower() for _, s in dev19.DEV19_WORD_USES)
    assert all(k in uses for k in ("up with goo in", "? lavender,", "get lavender to grow", "me, tiger balm and",
                                   "goo is coming out", "think lavender helps", "handover from trinity ward:"))
