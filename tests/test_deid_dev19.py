"""The benchmark's nineteenth development set (benchmarks/deid_dev19.py, issue 50, twelfth session): names that are
words in the places of a sentence no rule read (after a preposition, answering a who-question, "let X know", a list
with "me", a progressive's subject, a complement clause's subject, a hand-over line), beside the same words as words in
the same places; none of another set's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import FORM_LISTS, NAME_TABLES, forms_of, load_script, parts_shared, table_parts


@pytest.fixture(scope="module")
def dev19():
    return load_script("benchmarks/deid_dev19.py", "clinaudit_deid_dev19")


def test_dev19_names_are_new(dev19):
    shared = parts_shared(dev19.DEV19_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed


def test_dev19_shape(dev19):
    assert set(dev19.DEV19_NAMES) == {"UK", "Irish", "US", "Australian", "Punjabi", "Haitian", "Korean", "Samoan"}
    assert all(len(g) + len(s) >= 5 for g, s in dev19.DEV19_NAMES.values())
    forms = dev19.DEV19_FORMS
    assert len(forms) >= 50 and len({f.lower() for _, f in forms}) == len(forms)  # no repeated form
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    parts = table_parts(dev19.DEV19_NAMES)
    assert not {w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & parts
    uses = dev19.DEV19_WORD_USES
    assert len(uses) >= 60 and len({s.lower() for _, s in uses}) == len(uses)
    used = {w for _, s in uses for w in re.findall(r"[a-z]+", s.lower())}
    assert len(used & parts) >= 20  # the names' own words, used as words
    assert dev19.DEV19_REPEAT >= 1


def test_dev19_forms_are_new(dev19):
    others = {f.lower() for f in forms_of(*FORM_LISTS)}
    for n in (13, 15, 16, 17):
        others |= {f.lower() for _, f in getattr(load_script(f"benchmarks/deid_dev{n}.py", f"clinaudit_deid_dev{n}"),
                                                  f"DEV{n}_FORMS")}
    assert not {f.lower() for _, f in dev19.DEV19_FORMS} & others


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
