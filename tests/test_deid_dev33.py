"""The benchmark's thirty-third development set (benchmarks/deid_dev33.py, issue 50, sixteenth session): Polynesian
surnames of the Cantonese prefix "Ah" and a syllable, and short Polynesian given names the lists hold as words, beside
"ah" and the same words as words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import re

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared

_LATER = (19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 34, 36)


@pytest.fixture(scope="module")
def dev33():
    return dev_set(33)


def _stems(names: dict[str, tuple[list[str], list[str]]]) -> dict[str, tuple[list[str], list[str]]]:
    """The names with the prefix "Ah" left out: it is compared as a particle, as "Le" and "Te" are (dev11 holds "Ah
    Mu"); the stems and the given names are what must be new."""
    return {o: (g, [re.sub(r"^Ah ", "", s) for s in sur]) for o, (g, sur) in names.items()}


def test_dev33_names_are_new(dev33):
    stems = _stems(dev33.DEV33_NAMES)
    shared = parts_shared(stems, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(stems, *_LATER) == dict.fromkeys(_LATER, 0)


def test_dev33_shape(dev33):
    check_dev_set(dev33, 33, origins={"Samoan", "Tongan", "Fijian", "Hawaiian", "Māori"},
                  min_parts=6, min_forms=36, min_uses=60, own_words=10)
    assert sum(len(g) + len(s) for g, s in dev33.DEV33_NAMES.values()) >= 30
    # every surname is "Ah" and one more word; the word uses hold "ah" as a word of speech
    assert all(re.fullmatch(r"Ah [A-Z][a-z]+", s) for _, sur in dev33.DEV33_NAMES.values() for s in sur)
    assert sum(bool(re.search(r"\bah\b", s.lower())) for _, s in dev33.DEV33_WORD_USES) >= 30


def test_dev33_forms_are_new(dev33):
    assert not {f.lower() for _, f in dev33.DEV33_FORMS} & dev_forms(13, 14, 15, 16, 17, 21, *_LATER)


def test_dev33_surname_forms_leave_room_for_ah_as_a_word(dev33):
    """Three forms go into a dialog together and a dialog with an "Ah" surname never gets "ah" as a word (the
    benchmark would count it as the name left): a third of the threes hold a given name only."""
    forms = dev33.DEV33_FORMS
    assert len(forms) % 3 == 0
    threes = [forms[i:i + 3] for i in range(0, len(forms), 3)]
    assert sum(all("{s}" not in f for _, f in t) for t in threes) >= 4
