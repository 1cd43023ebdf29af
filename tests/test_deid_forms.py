"""Forms of lower-case clinic speech that lost any origin's name (issue 50, tenth session; benchmarks/deid_dev13.py):
a name after "at" or "in" before more persons and the last one's possessive ("at maria and jyrki's"), a person
after "loop in", "bring in", set off as a relative (perturb/name_place_persons.py), a family's child ("the
wendeline boy", perturb/not_a_name.py, perturb/name_prep.py). Hand-written examples (none of the by-origin
benchmark's names or forms)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


@pytest.mark.parametrize("text, expected", [
    ("[patient] we had dinner at wendeline and torvik 's on sunday .",
     "[patient] we had dinner at [NAME] and [NAME] 's on sunday ."),
    ("[patient] i left the cane at kasimira or marisleidy 's .", "[patient] i left the cane at [NAME] or [NAME] 's ."),
    ("[patient] easter was at wiltrudis , yasmeena and dorkas 's .",
     "[patient] easter was at [NAME] , [NAME] and [NAME] 's ."),
    ("[patient] i slept in zebulona and her husband 's spare room .",
     "[patient] i slept in [NAME] and her husband 's spare room ."),
    ("patient: we were over at quirinda and my brother's for the game.",
     "patient: we were over at [NAME] and my brother's for the game."),
    ("Patient: We were at Wendeline and Torvik's for Thanksgiving.",
     "Patient: We were at [NAME] and [NAME]'s for Thanksgiving."),
    ("Patient: I stayed in Zebulona, Yasmeena and Dorkas's flat.", "Patient: I stayed in [NAME], [NAME] and [NAME]'s flat."),
])
def test_a_person_at_a_place_shared_with_another(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] i was at costco and that 's when i fell .",
    "[patient] we stayed at home and it 's been fine .",
    "[patient] i was at work and my sister 's kids were sick .",
    "[patient] i was in bremerton and everything 's closed on sunday .",
    "[patient] we were at walgreens and nobody 's there at night .",
    "[doctor] the swelling is in the ankle and the foot 's fine .",
    "[patient] i was in rehab and my daughter 's been helping .",
    "Patient: I was at Costco and that's when I fell.",
    "Patient: We ate at Olive Garden and everyone's plates came late.",
])
def test_a_place_before_and_a_clause(text):
    assert deidentify_text(text, gender=False)[0] == text


@pytest.mark.parametrize("text, expected", [
    ("[doctor] i'll loop in wendeline on this .", "[doctor] i'll loop in [NAME] on this ."),
    ("[doctor] we'll bring in kasimira for the surgery part .", "[doctor] we'll bring in [NAME] for the surgery part ."),
    ("[doctor] i looped in torvik yesterday .", "[doctor] i looped in [NAME] yesterday ."),
    # twenty-first session: "fill in" and "rope in" a person (dev13's "I need to fill in {s} about the results")
    ("Doctor: I need to fill in Hughes about the results.", "Doctor: I need to fill in [NAME] about the results."),
    ("[patient] we roped in ngozi to help .", "[patient] we roped in [NAME] to help ."),
])
def test_a_person_looped_or_brought_in(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[doctor] we'll bring in ortho for that .",
    "[patient] i brought in my dexcom .",
    "[patient] we brought in zyrtec and tylenol .",
    "[patient] i got it filled in bremerton .",
    "Patient: I got it filled in Bremerton.",
    "[patient] i was born in bremerton .",
    "[doctor] we'll bring in the wixela next time .",
])
def test_what_is_brought_in_or_a_place(text):
    assert deidentify_text(text, gender=False)[0] == text


@pytest.mark.parametrize("text, expected", [
    ("[patient] i live near wendeline , my cousin .", "[patient] i live near [NAME] , my cousin ."),
    ("[patient] i was at kasimira , my aunt 's .", "[patient] i was at [NAME] , my aunt 's ."),
    ("Patient: We were at Torvik, my neighbor's place.", "Patient: We were at [NAME], my neighbor's place."),
    ("[patient] i stayed in zebulona , my sister 's house , all week .",
     "[patient] i stayed in [NAME] , my sister 's house , all week ."),
])
def test_a_person_set_off_as_a_relative(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] i lived in tacoma , my sister lives in seattle .",
    "[patient] i was at walmart , my husband 's car broke down .",
    "[patient] we were in bremerton , my daughter drove .",
    "[patient] i live in kennewick , my son too .",
    "Patient: We stopped at Costco, my wife's favorite store.",
])
def test_a_place_before_a_relative(text):
    assert deidentify_text(text, gender=False)[0] == text


@pytest.mark.parametrize("text, expected", [
    ("[patient] the wendeline boy , the oldest one , had it first .",
     "[patient] the [NAME] boy , the oldest one , had it first ."),
    ("[patient] the kasimira girl next door has it too .", "[patient] the [NAME] girl next door has it too ."),
    ("Patient: The Torvik kid had it first.", "Patient: The [NAME] kid had it first."),
])
def test_a_family_s_child(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] the new kid at school had it .",
    "[patient] the little boy next door had it too .",
    "[patient] the birthday girl got sick first .",
    "[doctor] the baby girl is doing well .",
])
def test_a_child_after_a_word(text):
    assert deidentify_text(text, gender=False)[0] == text
