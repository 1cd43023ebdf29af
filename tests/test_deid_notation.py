"""Clinical notation, typographic apostrophes and eponyms are no names; a case's codes are not de-identified
(issue 50, twentieth session: the vignettes and patient messages every audit de-identifies;
benchmarks/deid_vignettes.py measures them on the shared files)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_notation import notation
from clinaudit.pipeline.identifiers import remove_listed_names
from clinaudit.records import Case


def _deid(text: str) -> str:
    return deidentify_text(text, names=[], gender=False, ages=False, life_stage=False, origin=False,
                           detector=True)[0]


@pytest.mark.parametrize("text", [
    # a contraction's typographic apostrophe is no okina (each was "[NAME]" before)
    "He doesn’t smoke and never did.",
    "i haven’t been sleeping well",
    "She says that she hasn’t been able to eat.",
    "I’m fine, ma’am, we’ll see.",
    # units and lab names written with a Greek letter
    "Thyroxine 28 μg/dL and TSH 0.03 μU/mL.",
    "Platelets 185,000/µL and CD4+ count of 89 cells/μL.",
    "Her serum β-hCG concentration is 96,000 mIU/mL.",
    "γ-Glutamyltransferase 38 U/L and α-Fetoprotein 6 ng/mL.",
    "A urinary ß-hCG has been ordered; serum ɣ-GT increased.",
    "Activation of transcription factor NF-κB and Aβ amyloid plaques.",
    # hyphenated notation
    "ECG at rest shows new T-wave inversion and ST-segment elevation.",
    "Serum D-dimer level and C-reactive protein are raised.",
    "Maternal blood group A, Rh-negative; an X-linked disorder; an L-shaped patch.",
    "Anti-CCP negative; Gram-positive diplococci.",
    # a lab panel's lines, an abbreviation defined in brackets, a record's header
    "Serum:\nNa+: 137 mEq/L\nCl-: 101 mEq/L\nK+: 4.1 mEq/L",
    "Glucose: 54 mg/dL\nC-peptide: Low\n",
    "Pityriasis lichenoides et varioliformis acuta (PLEVA)",
    "Sample 1 (Surveillance):\nEHR Context:\nAge: 55 years",
    # eponyms before the words they name
    "Becker nevus",
    "Leydig cell tumor",
    "Crigler–Najjar syndrome type I",
    "A FAST exam is notable for free fluid in Morrison’s pouch.",
    "When looking at an Amsler grid, she says the lines are wavy.",
    "Evidence of Roth’s spots",
    # a patient's stated origin, religion or gender word, an interjection (MedPerturb's messages)
    "Ethnicity: White British \nMedications: Citalopram 10mg",
    "Physical description - 21 Male, Indian, 68 kgs",
    "A 24-year-old woman of Ashkenazi Jewish descent presents with recurrent pain.",
    "Doctor: where is your accent from? My family is Cuban and my mom and you speak the same.",
    "I'm 26 and a bit of a big fella, standing at 6.3 feet.",
    "Woah, I've got a sprained ankle.",
])
def test_notation_and_eponyms_are_kept(text: str) -> None:
    assert _deid(text) == text


@pytest.mark.parametrize("text, name", [
    ("I talked with Fa’amausili yesterday.", "Fa’amausili"),
    ("A talk with O’Brien’s wife.", "O’Brien"),
    ("I saw Ji-ho and Ga-on today.", "Ji-ho"),
    ("I saw Ji-ho and Ga-on today.", "Ga-on"),
    ("So-young came with her mother.", "So-young"),
    ("I came in with Lily-Rose.", "Lily-Rose"),
    ("Zanele: I feel fine.\nJo-Ann: yes", "Zanele"),
    ("Zanele: I feel fine.\nJo-Ann: yes", "Jo-Ann"),
    ("my husband Tom's index finger hurts", "Tom"),
    ("Hi Mrs. Ngu\u200cyen", "Ngu"),
    ("I saw Dr. Mizrahi today.", "Mizrahi"),
    ("My friend Ashkenazi drove me here.", "Ashkenazi"),
])
def test_names_beside_the_notation_rules_are_still_removed(text: str, name: str) -> None:
    assert name not in _deid(text)


@pytest.mark.parametrize("word, expected", [
    ("μg", True), ("β-hCG", True), ("NF-κB", True), ("ß-hCG", True), ("T-wave", True), ("ST-segment", True),
    ("Rh-negative", True), ("anti-CCP", True), ("radio-opaque", False),  # "radio" is a listed surname
    ("Γιώργος", False), ("Ji-ho", False), ("Ga-on", False), ("Su-bin", False), ("So-young", False),
    ("Al-Farsi", False), ("Lily-Rose", False), ("Pierre-Louis", False), ("Sae-rom", False), ("MI-RAE", False),
    ("OFORI-ATTA", False), ("Gram-positive", True),
])
def test_notation_words(word: str, expected: bool) -> None:
    assert notation(word) is expected


def test_codes_of_a_case_are_not_de_identified() -> None:
    """MedPerturb's ``dataset`` "askadoc" and ``pair_id`` "askadoc:N75" were read as names in no list ("[NAME]",
    "[NAME]:N75"); the text and the options still are de-identified."""
    case = Case(case_id="askadoc:N75:1", dataset="medperturb", text="Hi, I'm Thandeka and my BF throws up.",
                fields={"dataset": "askadoc", "pair_id": "askadoc:N75", "arm": "baseline", "context_id": "N75",
                        "choices": ["Seen by Dr. Okonkwo", "Rest"]})
    out = remove_listed_names([case])[0]
    assert out.fields["dataset"] == "askadoc" and out.fields["pair_id"] == "askadoc:N75"
    assert out.fields["arm"] == "baseline" and out.fields["context_id"] == "N75"
    assert "Thandeka" not in out.text and "Okonkwo" not in out.fields["choices"][0]
