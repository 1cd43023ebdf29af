"""Made-up given names that look like a word written wrong ("kettlie" of "kettle", "wislet"), where the dialog says a
person stands (issue 50, tenth session: benchmarks/deid_dev14.py's Haitian names), with hand-written examples (not the
set's names): a name read out after "first name", "last name" (:mod:`clinaudit.perturb.name_context`), and before "'s"
and a person's occasion or home (:mod:`clinaudit.perturb.name_possessive`); the same forms with words stay."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _deid(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("text, gone", [
    ("[patient] the last name is jolibeau , first name kettlie .", "kettlie"),
    ("[patient] first name wislet , last name dorcely .", "wislet"),
    ("[patient] maiden name fedlise , she changed it .", "fedlise"),
    ("Patient: First name Rosemita, that's on the card.", "Rosemita"),
    # a name English or a clinical list holds as a word, where it ends the read-out (twenty-seventh session)
    ("[patient] last name tuilagi , first name ana .", "ana"),
    ("[patient] first name eti , last name sulu .", "eti"),
    ("[patient] first name bal , it's on my card .", "bal"),
])
def test_a_name_read_out(text, gone):
    assert gone not in _deid(text)


@pytest.mark.parametrize("text, stays", [
    ("[patient] we're on a first name basis with the nurse .", "first name basis"),
    ("[doctor] can you spell your last name for me ?", "last name for me"),
    ("[doctor] what is your maiden name ?", "maiden name ?"),
    ("[patient] my last name hasn't changed .", "last name hasn't changed"),
    ("[patient] the first name field was empty on the form .", "first name field"),
    ("[patient] first name please , then the date of birth .", "first name please"),
    ("[patient] it goes last name first , then the rest .", "last name first"),
    ("[patient] the last name only .", "last name only"),
])
def test_name_as_a_word_stays(text, stays):
    assert stays in _deid(text)


@pytest.mark.parametrize("text, gone", [
    ("[patient] we went to kettlie's wedding and i ate way too much .", "kettlie"),
    ("[patient] i stayed at wislet's house last weekend .", "wislet"),
    ("[patient] it was at medlise's funeral that i first felt it .", "medlise"),
])
def test_a_persons_occasion_or_home(text, gone):
    assert gone not in _deid(text)


@pytest.mark.parametrize("text, stays", [
    ("[patient] the dog's house is outside .", "dog's house"),
    ("[patient] my husband's birthday was friday .", "birthday was friday"),
    ("[patient] i stayed at the doctor's house .", "doctor's house"),
    ("[patient] it was at the church's funeral home .", "church's funeral"),
    ("[patient] the ibuprofen's wedding ring effect .", "ibuprofen's"),  # a drug: no person
])
def test_things_possessive_stays(text, stays):
    assert stays in _deid(text)
