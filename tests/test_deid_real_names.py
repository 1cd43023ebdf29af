"""The real-names measure of the by-origin benchmark (benchmarks/deid_real_names.py, issue 50, nineteenth session):
the metadata names a dialog says and how many of their mentions the de-identified dialog still holds, by kind,
counted by hand on tiny dialogs."""

from __future__ import annotations

from collections import Counter

import pytest
from script_modules import load_script


@pytest.fixture(scope="module")
def rn():
    return load_script("benchmarks/deid_real_names.py", "clinaudit_deid_real_names")


def test_real_names_left_by_hand(rn):
    texts = ["[doctor] hi billy how are you\n[patient] good . billy's fine , mr walker too",
             "[doctor] hey mark , so mark your exam is fine\n[patient] ok",
             "[doctor] hello there\n[patient] hi"]
    names = [["Billy ", "Walker", ""], ["Mark", "Van Dam", "Dr. Who"], ["Jean", "Smith", ""]]
    outputs = ["[doctor] hi billy how are you\n[patient] good . [NAME]'s fine , mr [NAME] too",
               "[doctor] hey [NAME] , so mark your exam is fine\n[patient] ok",
               "[doctor] hello there\n[patient] hi"]
    got = rn.real_names_left(texts, names, outputs)
    # first names: billy 2 (one left), mark 2 (one left); jean not said. Family: walker 1 (removed); van, dam, smith
    # not said
    assert (got["first"]["mentions"], got["first"]["left"]) == (4, 2)
    assert got["first"]["words"] == Counter({"billy": 1, "mark": 1})
    assert (got["family"]["mentions"], got["family"]["left"]) == (1, 0)
    line = rn.real_names_line("after", got)
    assert "first 2 of 4 mentions = 50.0 per 100 (billy 1, mark 1)" in line
    assert "family 0 of 1 mentions = 0.0 per 100" in line and line.startswith("after: ")


def test_a_longer_word_is_no_mention_and_left_is_capped(rn):
    got = rn.real_names_left(["marks and markers , mark"], [["Mark", ""]], ["mark mark mark"])
    assert (got["first"]["mentions"], got["first"]["left"]) == (1, 1)  # "marks", "markers" are other words


def test_merge_adds_files(rn):
    a = rn.real_names_left(["hi rose"], [["Rose", "Lee"]], ["hi rose"])
    b = rn.real_names_left(["lee said rose"], [["Rose", "Lee"]], ["[NAME] said [NAME]"])
    m = rn.merge([a, b])
    assert (m["first"]["mentions"], m["first"]["left"], m["family"]["mentions"], m["family"]["left"]) == (2, 1, 1, 0)
