"""Lower-case given names the lists hold as words, beside a personal pronoun or asked after
(perturb/name_coordinated.py, issue 50, seventh session). Hand-written examples, positive and negative."""

from __future__ import annotations

import time

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_coordinated import coordinated_names


def _dialog(line: str) -> str:
    return f"[doctor] good morning .\n{line}\n[patient] okay ."


@pytest.mark.parametrize("line, gone", [
    ("[patient] me and dean walk around the lake every evening .", "dean"),
    ("[doctor] so it's just you and jade at home now ?", "jade"),
    ("[patient] esi and i have been married almost thirty years .", "esi"),
    ("[patient] it was hard on him and tanner both .", "tanner"),
    ("[doctor] is jade your daughter or your granddaughter ?", "jade"),
    ("[doctor] did tanner come with you today ?", "tanner"),
    ("[doctor] has sonel been able to help at home ?", "sonel"),
    ("[doctor] and how old is ketly now ?", "ketly"),
])
def test_a_person_beside_a_pronoun_or_asked_after(line, gone):
    out = deidentify_text(_dialog(line))[0]
    assert f" {gone} " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("line", [
    "[patient] the bill and i , my calendar and i , seasons and i , me and the kids .",
    "[doctor] is pain your main problem ? did rest help ? is sugar your weakness ?",
    "[doctor] how old is that ? how old is the house ?",
    "[doctor] did hope come with you ? is it still there ? does it help ?",
    "[patient] between you and everyone else , it was the heat and me .",
    "[patient] you know i was icy and i i was being very careful .",  # the real dialogs: no clause opens at "icy"
    "[patient] it has defiantly been better lately .",  # no question
])
def test_no_person_beside_a_pronoun(line):
    assert deidentify_text(_dialog(line))[0] == _dialog(line)


@pytest.mark.parametrize("end", [" . ", " ", " , "])
def test_questions_without_a_question_mark_take_linear_time(end):
    # each "is X your ..." looked for its sentence's end up to the text's end: 1 MB of such questions with no
    # question mark took 1 s (4 x per doubling), and with no end character at all it would take minutes
    text = ("so is dean your son" + end) * (1_000_000 // (19 + len(end)))
    c0 = time.process_time()
    assert coordinated_names(text, lambda t, tok: "unlisted") == []
    assert time.process_time() - c0 < 0.5
