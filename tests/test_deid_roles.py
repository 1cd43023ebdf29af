"""A person named after a role used as a title or after a relative, whose name the lists hold as a word
(perturb/name_roles.py, issue 50, seventh session). Hand-written examples, positive and negative."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("text, gone, kept", [
    ("Patient: Officer Lamb found me sitting at the bus stop.", "Lamb", "Officer"),
    ("Patient: Nurse Stone on the night shift was so kind to me.", "Stone", "Nurse"),
    ("Patient: Pastor Marsh prayed with me before the surgery.", "Marsh", "Pastor"),
    ("Patient: Coach Fox had us running laps in the heat.", "Fox", "Coach"),
    ("Patient: Yesterday Sergeant Bednar drove me in.", "Bednar", ""),
    ("[patient] coach fox had us running laps in the heat when i passed out .", "fox", "coach"),
    ("[patient] nurse stone was so kind to me .", "stone", "nurse"),
    ("[patient] officer lamb found me at the bus stop .", "lamb", "officer"),
    ("[patient] my coworker fox covered my shifts all last week .", "fox", "coworker"),
    ("[patient] my neighbour lamb drove me here today .", "lamb", "neighbour"),
    # a rare word no gazetteer nor English lexicon holds (twenty-seventh session)
    ("[patient] auntie eti raised me .", "eti", "auntie"),
    ("[patient] coach sulu had us running laps .", "sulu", "coach"),
    ("[patient] my coworker fetu covered my shifts .", "fetu", "coworker"),
])
def test_a_name_after_a_role_or_a_relative(text, gone, kept):
    out = _out(text)
    assert f" {gone} " not in out and kept in out, out


@pytest.mark.parametrize("text", [
    "Patient: The Nurse Practitioner will see you, then the Nurse Navigator Program calls.",
    "[patient] the nurse come in and the nurse check you , then nurse set up the iv .",
    "[patient] the nurse will come in , the officer said it was fine , the coach bus left .",
    "[patient] my mom fell down and my dad passed away last year .",
    "[patient] my mom fell .",
    "[patient] my boss really liked the new diet , my roommate usually drives .",
    "[patient] nurse practitioner visits helped a lot .",
    "[patient] nurse triage called me back .",  # a word the lexicon holds (twenty-seventh session)
    "[patient] my aunt smokes and my uncle paged me .",
    "Doctor: Your ECOG is 1 and the Officer Training went fine.",
])
def test_no_name_after_a_role(text):
    dialog = f"[doctor] good morning .\n{text}\n[patient] okay ." if text.startswith("[") else \
        f"Doctor: Good morning.\n{text}\nPatient: Okay."
    assert _out(dialog) == dialog
