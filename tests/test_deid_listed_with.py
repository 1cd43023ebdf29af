"""A sentence's first word listed with a name found (perturb/name_listed_with.py) and an eponym's head word said as a
verb (name_no_person.clinical_word_after; issue 50, twenty-first session). Hand-written examples, positive and
negative; the transfer sentences were written after both rules were done and run once (counts in the test)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_detect import find_names, load_word_lists
from clinaudit.perturb.name_no_person import clinical_word_after


def _kept(line: str) -> str:
    if line.startswith("["):  # a lower-case transcript
        return deidentify_text(f"[doctor] good morning .\n{line}\n[doctor] okay .")[0]
    return deidentify_text(f"Doctor: Good morning.\n{line}\nDoctor: Okay.")[0]


@pytest.mark.parametrize("line, gone", [
    ("Patient: Benjamin, Siosaia, my aunt, they all had it.", "Benjamin"),
    ("Patient: Hyacinth, Siosaia, and me all had the same rash.", "Hyacinth"),
    ("Patient: Tang, Siosaia and I went to the same school.", "Tang"),
    ("Patient: Jasper & Siosaia and my sister all caught it.", "Jasper"),
    ("[patient] jasper , siosaia , and me all had the same rash .", "jasper"),
])
def test_a_word_listed_with_a_name_found(line, gone):
    out = _kept(line)
    assert gone not in out and "siosaia" not in out.lower(), out


@pytest.mark.parametrize("line, kept", [
    ("Patient: Perfect, Siosaia, and I will see you then.", "Perfect"),  # an address, not a list
    ("Doctor: Okay, Siosaia, my plan is this.", "Okay"),
    ("Patient: Nana, Siosaia and me went to church.", "Nana"),  # kin said as a name
    ("Patient: Tang, Siosaia, my advice is to wait.", "Tang"),  # "my" and no relative: no list
    ("Patient: Honestly, Siosaia and I went anyway.", "Honestly"),
    ("Patient: Yesterday, Siosaia and I went out.", "Yesterday"),
    ("Patient: Mom, Siosaia and me went.", "Mom"),
])
def test_no_list_no_name(line, kept):
    assert kept in _kept(line)


@pytest.mark.parametrize("after, verb", [
    (" signs it, I can go back to work.", True),
    (" tests my sugars every week.", True),
    (" drops me off on Tuesdays.", True),
    (" sign the form?", True),
    (" sign is negative.", False),
    ("'s sign was positive.", False),
    (" test positive on the left.", False),
    ("'s signs it seems", False),  # a possessive: the eponym's
    (" sign at the wrist.", False),
])
def test_an_eponym_head_said_as_a_verb_is_no_eponym(after, verb):
    assert clinical_word_after(after) is not verb


def test_a_surname_before_a_head_word_said_as_a_verb():
    load_word_lists()
    for line, name in [("Patient: Once Baxter signs it, I can go back to work.", "Baxter"),
                       ("Patient: I think Hughes signs it.", "Hughes")]:
        assert name in [line[s.start:s.end] for s in find_names(line)], line
    for line in ["Doctor: Babinski sign is negative, Phalen's test positive.",
                 "Doctor: positive Tinel sign at the wrist and Spurling test on the left."]:
        assert not find_names(line), line


# Transfer: fresh sentences written after the rules, run once (twenty-first session). Main 86fd1f4 removes 4 of the 6
# names ("Kowalczyk" and "Garland", before a head word said as a verb, stay) and keeps the 5 words; with the rules 6 and 5.
_TRANSFER_NAMES = [
    ("Patient: Beatrice, Siaosi, my cousin and me, we all went down with it.", "Beatrice"),
    ("Patient: Duncan, Mereana and me shared a room on the ward.", "Duncan"),
    ("Patient: Howard, Tevita, and my brother were all there.", "Howard"),
    ("Patient: Maybe Kowalczyk tests it for me next time.", "Kowalczyk"),
    ("Patient: Once Garland signs the letter I'm free.", "Garland"),
    ("Patient: Phoebe & Ngaire and I went swimming that day.", "Phoebe"),
]
_TRANSFER_WORDS = [
    ("Patient: Great, Siaosi, and I will see you next week.", "Great"),
    ("Doctor: Right, Mereana, my concern is the swelling.", "Right"),
    ("Doctor: Homans sign is negative and Romberg test normal.", "Homans"),
    ("Patient: Today, Tevita and I are both fine.", "Today"),
    ("Doctor: Murphy's sign and McBurney's point were both tender.", "Murphy"),
]


def test_transfer_sentences_written_after_the_rules():
    names = sum(gone not in _kept(line) for line, gone in _TRANSFER_NAMES)
    words = sum(kept in _kept(line) for line, kept in _TRANSFER_WORDS)
    assert (names, words) == (6, 5), (names, words)
