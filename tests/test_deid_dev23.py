"""The benchmark's twenty-third development set (benchmarks/deid_dev23.py, issue 50, thirteenth session): names of
Zipf 4.5 or more that the lists call words, in the places of a sentence where a person stands bare (after a
preposition, answering a who-question, "let X know", a list with "me", a progressive's subject, a complement
clause's subject, a hand-over line), beside the same words as words in the same places; none of another set's names
(compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import FORM_LISTS, NAME_TABLES, forms_of, load_script, parts_shared, table_parts


@pytest.fixture(scope="module")
def dev23():
    return load_script("benchmarks/deid_dev23.py", "clinaudit_deid_dev23")


def test_dev23_names_are_new(dev23):
    shared = parts_shared(dev23.DEV23_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    parts = table_parts(dev23.DEV23_NAMES)
    for n in (19, 20, 21, 22, 24):
        other = load_script(f"benchmarks/deid_dev{n}.py", f"clinaudit_deid_dev{n}")
        assert not table_parts(getattr(other, f"DEV{n}_NAMES")) & parts


def test_dev23_shape(dev23):
    assert set(dev23.DEV23_NAMES) == {"UK", "US", "Irish", "Korean", "Chinese", "Punjabi", "Haitian", "Samoan",
                                      "Nigerian", "German"}
    assert all(g and s and len(g) + len(s) >= 2 for g, s in dev23.DEV23_NAMES.values())
    forms = dev23.DEV23_FORMS
    assert len(forms) >= 40 and len({f.lower() for _, f in forms}) == len(forms)  # no repeated form
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    parts = table_parts(dev23.DEV23_NAMES)
    assert not {w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & parts
    uses = dev23.DEV23_WORD_USES
    assert len(uses) >= 60 and len({s.lower() for _, s in uses}) == len(uses)
    used = {w for _, s in uses for w in re.findall(r"[a-z]+", s.lower())}
    assert len(used & parts) >= 10  # the names' own words, used as words
    assert dev23.DEV23_REPEAT >= 1


def test_dev23_forms_are_new(dev23):
    others = {f.lower() for f in forms_of(*FORM_LISTS)}
    for n in (13, 15, 16, 17, 19, 20):
        others |= {f.lower() for _, f in getattr(load_script(f"benchmarks/deid_dev{n}.py", f"clinaudit_deid_dev{n}"),
                                                  f"DEV{n}_FORMS")}
    assert not {f.lower() for _, f in dev23.DEV23_FORMS} & others


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
