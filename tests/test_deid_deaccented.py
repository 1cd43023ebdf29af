"""A name written once with its diacritics and again without them (perturb/name_deaccented.py), and a name in
capitals as a form writes it, surname, comma, given name (perturb/name_letters._form_pairs): issue 50, seventh
session. Hand-written examples, positive and negative."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("text, gone", [
    ("Patient: Jitka Bednář is my case worker; Bednar works nights.", "Bednar"),
    ("Patient: My husband is Jiří Černá. Cerna works nights, so Jiri can't come.", "Cerna"),
    ("[patient] jitka bednář is my case worker ; bednar works nights .", "bednar"),
    ("Doctor: I see Markéta Horák on the consent form; is Marketa the one we call?", "Marketa"),
    ("Patient: My daughter Dóra drives me. DORA is how the card writes it.", "DORA"),
    ("[patient] my neighbour vlasta pospíšil helps me , pospisil has a car .", "pospisil"),
])
def test_a_name_again_without_its_diacritics(text, gone):
    out = _out(text)
    assert gone not in out.split() and gone + "." not in out.split() and gone + "," not in out, out


@pytest.mark.parametrize("text, kept", [
    ("Patient: We had café au lait at the cafe by the park.", "cafe"),  # no name written with diacritics
    ("Doctor: Dr. Nováková will see you; the NOVA trial is closed.", "NOVA"),  # another word
    ("Patient: Jitka Bednářová signed it. I have COPD and my HFrEF is stable.", "HFrEF"),
    ("Patient: My son Renée? No, I meant Rene Descartes the book.", "book"),
])
def test_no_diacritics_no_link(text, kept):
    assert kept in _out(text)


@pytest.mark.parametrize("text", [
    "Patient: On my insurance card it says BEDNAR, JITKA, that's me.",
    "Patient: On my insurance card it says FOX, DAWN, that's me.",
    "Patient: The wristband says HORAK, MARKETA but I go by Marky.",
])
def test_a_name_in_capitals_as_a_form_writes_it(text):
    out = _out(text)
    assert "[NAME], [NAME]" in out, out


@pytest.mark.parametrize("text", [
    "Patient: I said STOP, WAIT, don't do that.",
    "Doctor: The PAIN, FEVER and the COPD, CHF are why you're here.",
    "Doctor: We tried FOLFOX, FOLFIRI and CAPOX, XELOX before.",
    "Patient: NO, NEVER, I never smoked.",
    "Doctor: The MRI, CT and PET all looked fine.",
])
def test_no_name_in_capitals_pairs_of_words(text):
    dialog = f"Doctor: Good morning.\n{text}\nPatient: Okay."
    assert _out(dialog) == dialog
