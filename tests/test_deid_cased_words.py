"""Names that are English words in cased text, decided by how the writing sets them (issue 50, eighth session): a
gazetteer name the lists hold as a word of address or feeling, capitalised after a title ("Mrs. Love", "Mr. Happy").
Hand-written examples, each rule with its positives and its negatives (the same words as words, and grammar after a
title)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("text, gone", [
    ("Patient: Mrs. Love next door drove me here.", "Love"),
    ("Patient: Mr. Happy from the pharmacy called about the refill.", "Happy"),
    ("Doctor: Dr. Honey will see you after lunch.", "Honey"),
    ("Patient: I asked Ms Darling to fax it over.", "Darling"),
])
def test_a_word_of_address_after_a_title(text, gone):
    out = _out(text)
    assert gone not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text, kept", [
    ("Patient: I love my grandkids, and I'm happy here.", "love"),
    ("Patient: Honey, can you pass me the water?", "Honey"),
    ("Patient: mrs. love is what i call her, it's a joke .", "love"),  # lower case: not read here
    ("Doctor: Then we will see you in a month.", "Then"),
    ("Doctor: If the cyst is gone, Dr. Then said we can stop.", "Then"),  # grammar after a title
])
def test_no_word_of_address_after_a_title(text, kept):
    out = _out(text)
    assert f"{kept}" in out, out


@pytest.mark.parametrize("text, gone", [
    ("Patient: Happy Sandhu drives me to all my appointments.", "Happy"),
    ("Patient: I came in with Honey Kaur from the temple.", "Honey"),
    ("Patient: My neighbour Darling Moyo found me in the kitchen.", "Darling"),
])
def test_a_word_of_address_before_a_surname(text, gone):
    out = _out(text)
    assert gone not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text, kept", [
    ("Patient: Happy Birthday to my grandson, he turned six.", "Happy"),
    ("Patient: In June Kelly said the rash was back.", "June"),
    ("Patient: Thank God Kelly was home when I fell.", "God"),
    ("Patient: We watched The Happy Kelly Show all week.", "Happy"),
    ("Patient: I am happy Kelly came with me.", "happy"),
])
def test_no_word_of_address_before_a_surname(text, kept):
    out = _out(text)
    assert kept in out, out
