"""The places only a person takes, read across the kinds of name that are words or eponyms (issue 50, seventeenth
session: :func:`clinaudit.perturb.name_person_places.person_place`): a given name that is a word in the surname's
places, a surname that is a word in the given name's, an eponym in both; each kind's own guards still apply."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _names(text: str) -> list[str]:
    return [r["old"] for r in deidentify_text(text)[1].removed if r["kind"] == "name"]


@pytest.mark.parametrize(("text", "name"), [
    ("say hello to lily for me .", "lily"),  # a given name that is a word, in the surname's "say hello to X"
    ("i was telling parkinson about it .", "parkinson"),  # an eponym in the surname's and the given name's places
    ("parkinson fetched my prescription .", "parkinson"),
    ("say hello to parkinson for me .", "parkinson"),
])
def test_a_kind_read_in_the_other_kinds_places(text: str, name: str) -> None:
    assert _names(text) == [name]


@pytest.mark.parametrize("text", [
    "say hello to march for me .",  # a month: the given name's guard
    "honey from the shop came round .",  # a mass noun: the given name's guard
    "the bank rang me .",  # a voice
    "my carer is stormy , she is nice .",  # an adjective
    "i was telling parkinson's nurse about it .",  # the condition's
])
def test_each_kinds_guards_still_apply(text: str) -> None:
    assert _names(text) == []
