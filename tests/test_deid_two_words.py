"""Two words where one name stands (issue 50, fifteenth session): a name set off by commas after "the patient" and its
like (``name_apposed``), in lower case and cased, and two given names written apart where one alone would be taken
(``name_given_pairs``); the words such places hold that are no name stay."""

from __future__ import annotations

import time

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_detect import find_names
from clinaudit.perturb.name_given_pairs import MAX_READ, given_pairs
from clinaudit.perturb.name_tokens import tokens


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("text, name", [
    ("the patient , manu pule , is 45 .", "manu pule"),
    ("the patient , earl , is 45 and diabetic .", "earl"),
    ("this patient , luke earl , came in with chest pain .", "luke earl"),
    ("the patient , sina faleolo , is here for review .", "sina faleolo"),
    ("our client , grace , was seen on monday .", "grace"),
    ("the caller , buck homer , asked about her results .", "buck homer"),
    ("The patient, Manu Pule, is 45.", "Manu Pule"),
])
def test_a_name_apposed_to_the_patient_is_taken(text, name):
    out = _out(text)
    assert all(part not in out.split() for part in name.split()), out


@pytest.mark.parametrize("text", [
    "the patient , type two , is on metformin already .",
    "the patient , however , is fine today .",
    "the patient , will , is fine .",
    "the baby , thank god , is feeding well .",
    "the patient , obviously , was upset .",
    "the lady , in a wheelchair , came in alone .",
    "the patient , my neighbour , is here .",
    "the patient , mrs , is in bed four .",
    "the patient , black , is 45 .",
    "the child , poor thing , has a rash .",
])
def test_words_apposed_to_the_patient_stay(text):
    out = _out(text)  # ages and gendered words are other transforms' business ("the person , in their seventies")
    assert "[NAME]" not in out and out.split(" , ")[1] == text.split(" , ")[1], out


@pytest.mark.parametrize("text, name", [
    ("i came in with billy joe .", "billy joe"),
    ("me , billy joe and my son live there .", "billy joe"),
    ("i got a text from billy joe .", "billy joe"),
    ("ask billy joe about it .", "billy joe"),
    ("tell billy joe i said hi .", "billy joe"),
    ("i talked to mary beth yesterday .", "mary beth"),
    ("i came in with jo anne .", "jo anne"),
])
def test_two_given_names_apart_are_taken(text, name):
    out = _out(text)
    assert all(part not in out.split() for part in name.split()) and "[NAME]" in out, out


@pytest.mark.parametrize("text", [
    "i came in with will power .",
    "may june be good for you ?",
    "i went with rose hill .",
    "i came in with ray ban glasses .",
    "with frank honesty , i don't know .",
    "i saw art deco stuff at the fair .",
    "i take vitamin d with mark .",
    "i got a text from jo .",
    "thanks , ha ha , that was funny .",
])
def test_two_words_of_other_kinds_stay(text):
    assert _out(text) == text


def find_names_spans(text: str) -> list[tuple[int, int]]:
    return [(sp.start, sp.end) for sp in find_names(text, pairs=False)]


def test_given_pairs_read_a_sentence_once_and_at_most_max_read_a_text():
    # fifteenth session: each pair read its sentence again twice, so 40 kB of given-name pairs took 3.3 s and 1 MB
    # would take minutes (issue 50, Build 3: linear time)
    calls: list[str] = []

    def detect(text: str) -> list[tuple[int, int]]:
        calls.append(text)
        return find_names_spans(text)

    same = "i came in with billy joe . " * 300  # one sentence, 300 times: read once
    out = given_pairs(same, tokens(same), [], detect)
    assert len(calls) == 4 and len(out) == 600  # the first sentence, then the others (a space before each)
    calls.clear()
    other = "".join(f"on day {i} i came in with billy joe . " for i in range(300))  # 300 sentences: 64 read
    out = given_pairs(other, tokens(other), [], detect)
    assert len(calls) == 2 * MAX_READ and len(out) == 2 * MAX_READ
    assert [t.text for t in out[:2]] == ["billy", "joe"]


def test_thousands_of_given_name_pairs_in_a_row_stay_fast():
    text = "billy joe mary beth " * 10_000  # 200 kB (3.3 s for 40 kB before)
    start = time.process_time()
    out = deidentify_text(text)[0]
    assert time.process_time() - start < 10
    # sixteenth session: "billy joe" also joins into "billyjoe" (name_parts_apart), so "joe" is taken too and the
    # names in a row are one placeholder (before: "[NAME] joe [NAME] joe ...", over 9,000 placeholders)
    assert "billy" not in out and "joe" not in out and "[NAME]" in out
