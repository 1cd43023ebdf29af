"""Cognitive-bias cues (issue 19 item 3): deterministic per case and seed, one added sentence, the matched control."""

from __future__ import annotations

import statistics

import pytest

from clinaudit.errors import InputError
from clinaudit.perturb import list_transforms, perturb_cases
from clinaudit.perturb.cognitive import (
    COGNITIVE_BIASES, COGNITIVE_CONTROL, cognitive_transform_names, control_sentence, cue_sentence, distractor)
from clinaudit.records import Case

VIGNETTE = Case(case_id="v1", text="A 30-year-old presents with fever and a rash.",
                fields={"choices": ["Measles", "Lupus", "Gout", "Sepsis"], "answer": "Measles"})
MESSAGE = Case(case_id="m1", text="I have had a dry cough for three days.")
NAMES = cognitive_transform_names()


def test_eight_transforms_registered_and_listed():
    assert len(NAMES) == 8 and NAMES[-1] == COGNITIVE_CONTROL
    assert set(NAMES) <= set(list_transforms())
    assert all("cognitive_bias" in list_transforms()[n].summary for n in NAMES)


@pytest.mark.parametrize("case", [VIGNETTE, MESSAGE], ids=["vignette", "message"])
def test_one_sentence_appended_deterministically(case):
    a = perturb_cases([case], NAMES, seed=3)
    b = perturb_cases([case], NAMES, seed=3)
    assert [v.text for v in a] == [v.text for v in b]
    for v in a:
        # the original text is kept whole; exactly the recorded sentence is added after it
        assert v.text == f"{case.text} {v.provenance['sentence']}"
        assert v.case_id == case.case_id and v.family == "perturbation" and v.seed == 3
    # different seeds may pick other phrasings, but every seed gives a valid variant
    assert len({v.text for s in range(6) for v in perturb_cases([case], ["cognitive_recency"], seed=s)}) >= 2


def test_vignette_cues_name_one_wrong_option_shared_by_all_seven():
    for seed in range(5):
        wrong = distractor(VIGNETTE, seed)
        assert wrong in ("Lupus", "Gout", "Sepsis")
        for bias in COGNITIVE_BIASES:
            assert wrong in cue_sentence(VIGNETTE, bias, seed)
    assert distractor(MESSAGE) is None


def test_message_cues_are_first_person_without_options():
    for bias in COGNITIVE_BIASES:
        s = cue_sentence(MESSAGE, bias, 0)
        assert "patient" not in s.lower() and "{" not in s, s  # the patient's own voice, no option named


def test_control_matches_median_cue_length_and_is_neutral():
    for case in (VIGNETTE, MESSAGE):
        for seed in range(4):
            target = statistics.median(len(cue_sentence(case, b, seed).split()) for b in COGNITIVE_BIASES)
            ctl = control_sentence(case, seed)
            assert abs(len(ctl.split()) - target) <= 2
            assert "Lupus" not in ctl and "serious" not in ctl


def test_position_start_and_bad_options():
    v = perturb_cases([MESSAGE], ["cognitive_frequency"], seed=0, position="start")[0]
    assert v.text.endswith(MESSAGE.text) and v.text.startswith(v.provenance["sentence"])
    with pytest.raises(InputError, match="position"):
        perturb_cases([MESSAGE], ["cognitive_frequency"], position="middle")
    with pytest.raises(InputError, match="no choices"):
        perturb_cases([MESSAGE], ["cognitive_frequency"], voice="vignette")
