"""A person where lower-case speech puts a thing or a place (issue 50, tenth session; benchmarks/deid_dev13.py,
perturb/name_article_persons.py): one of a kind someone knows ("there's a X at my work too"), a family's name one
carries ("she's a X , like her dad"), a person one saw something in ("i saw it in X , she had the same thing"); and
the brands, shops and places that stay in the same frames. Hand-written examples (none of the by-origin benchmark's
names or forms)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


@pytest.mark.parametrize("text, expected", [
    ("[patient] there's a belvaine at my work too .", "[patient] there's a [NAME] at my work too ."),
    ("[patient] there is a quennora at my church who had the same rash .",
     "[patient] there is a [NAME] at my church who had the same rash ."),
    ("patient: there was a zelvinka from my school as well.", "patient: there was a [NAME] from my school as well."),
    ("[patient] she's a marivetta , like her dad .", "[patient] she's a [NAME] , like her dad ."),
    ("[patient] he is a thuridsen on his mother 's side .", "[patient] he is a [NAME] on his mother 's side ."),
    ("[patient] she's a marivetta by marriage .", "[patient] she's a [NAME] by marriage ."),
    ("[patient] i saw it in belvaine , she had the same thing .",
     "[patient] i saw it in [NAME] , she had the same thing ."),
    ("[patient] we noticed it in quennora , he has it on his arm too .",
     "[patient] we noticed it in [NAME] , he has it on his arm too ."),
    ("Patient: I saw it in Zelvinka, she had the same thing.",
     "Patient: I saw it in [NAME], she had the same thing."),
])
def test_a_person_in_a_frame_that_says_so(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] there's a walgreens at the corner .",
    "[patient] there's a wixela at my work .",
    "[patient] there's a starbucks at my work too .",
    "[patient] i left the wixela at work .",
    "[patient] we got the cetaphil from the school .",
    "[patient] she's a nurse , like her dad .",
    "[patient] he's a vegan like his mom .",
    "[patient] i was in bremerton , she said it rained .",
    "[patient] i was in puyallup , she had a shop there .",
    "[patient] i saw it in tacoma , she said it was cheaper .",
    "[patient] i saw it in the mirror , she had a look too .",
])
def test_a_brand_or_a_place_in_the_same_frames(text):
    assert deidentify_text(text, gender=False)[0] == text
