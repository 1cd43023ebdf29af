"""LLM rewrites (P2 Table 6) with the mock backend: requests, cleaning, gates, caching."""

from __future__ import annotations

import pytest

from clinaudit.cache import ResponseCache
from clinaudit.perturb import GateConfig, clean_rewrite, perturb_cases, rewrite_cases
from clinaudit.perturb.llm_rewrite import build_rewrite_request, ehr_gate
from clinaudit.records import Case
from clinaudit.runner import Runner, RunnerConfig

EHR = ("EHR Context:\nAge: 55 years\nGender: Male\nCurrent medication list: aspirin, lisinopril\n\n"
       "Patient message:\nHe has had a cough for a week. Should he come in?")
SWAPPED = EHR.replace("Gender: Male", "Gender: Female").replace("He has", "She has").replace("should he", "should she")

RULES = [
    {"match": "swap the gender", "response": "Here is the rewritten text:\n\n" + SWAPPED.replace("Should he", "Should she")},
    {"match": "remove the gender", "response": EHR.replace("Age: 55 years", "Age: 56 years")},
    {"match": "colorful", "response": "Wow!"},
    {"match": "uncertain", "response": "Well, I think the patient maybe has some cough."},
]


def _runner(tmp_path, rules=RULES):
    return Runner(ResponseCache(tmp_path / "cache.sqlite"), RunnerConfig(progress=False),
                  backend_options={"mock": {"rules": rules}})


def test_request_uses_table6_prompt():
    req = build_rewrite_request(Case(case_id="a", text="I feel sick."), "gender_swap", model="mock", seed=3)
    assert req.messages[-1].content == ("Please swap the gender in the following text, making no other changes."
                                        "\n\nI feel sick.")
    assert req.seed == 3 and req.temperature == 0.0 and req.meta["case_id"] == "a"


def test_clean_rewrite_echoes():
    assert clean_rewrite('Sure! Here is the rewritten message:\n\n"I feel sick."\n\nNote: I changed nothing.',
                         "I feel sick.") == "I feel sick."
    assert clean_rewrite("```\nabc\n```") == "abc"
    assert clean_rewrite("Please swap the gender in the following text, making no other changes.\n\nShe is ok.",
                         instruction="Please swap the gender in the following text, making no other changes.") == "She is ok."
    assert clean_rewrite('"quoted"', '"quoted"') == '"quoted"'
    assert clean_rewrite("Rewritten text: I am fine.") == "I am fine."


def test_ehr_gate():
    assert ehr_gate(EHR, SWAPPED) == ["Gender: Male"]
    assert ehr_gate(EHR, SWAPPED, exempt_keys=("gender",)) == []


def test_end_to_end_with_mock_and_gates(tmp_path):
    runner = _runner(tmp_path)
    case = Case(case_id="c1", text=EHR)
    vs = perturb_cases([case], "gender_swap,gender_removal,colorful,uncertain", runner=runner, model="mock",
                       embedder="mock")
    by = {v.name: v for v in vs}
    assert by["gender_swap"].text == SWAPPED.replace("Should he", "Should she")
    assert by["gender_swap"].flags == []
    assert by["gender_swap"].provenance["gates"]["ehr_lines_changed"] == []
    assert 0.6 <= by["gender_swap"].provenance["gates"]["similarity"] <= 1.0
    # the mock's "removal" changed an EHR line and left "Gender: Male", "He has", "Should he" (issue 49: checked on the text)
    assert by["gender_removal"].flags == ["ehr_lines_changed", "gender_markers_left"]
    assert by["gender_removal"].provenance["gates"]["markers_rewrite"] == [0, 3]  # Male, He, he
    assert by["gender_removal"].provenance["gates"]["ehr_lines_changed"] == ["Age: 55 years"]
    assert set(by["colorful"].flags) == {"length_ratio_out_of_bounds", "ehr_lines_changed", "low_similarity"}
    assert by["colorful"].text == "Wow!"
    assert all(v.case_id == "c1" and v.family == "perturbation" and v.provenance["model"] == "mock" for v in vs)
    assert runner.usage["mock"].calls == 4 + 5  # 4 rewrites + 5 distinct texts embedded


def test_rerun_fully_cached(tmp_path):
    cases = [Case(case_id=f"c{i}", text=f"He has had a cough for {i} days.") for i in range(3)]
    first = rewrite_cases(cases, ["gender_swap", "uncertain"], runner=_runner(tmp_path), model="mock", embedder="mock")
    runner2 = _runner(tmp_path)
    second = rewrite_cases(cases, ["gender_swap", "uncertain"], runner=runner2, model="mock", embedder="mock")
    assert [v.text for v in first] == [v.text for v in second]
    assert runner2.usage["mock"].calls == 0 and runner2.usage["mock"].cache_hits > 0
    assert all(v.provenance["cached"] for v in second)


def test_configurable_bounds_and_no_embedder(tmp_path):
    case = Case(case_id="c", text="I have a cough and a fever since yesterday.")
    vs = rewrite_cases([case], ["colorful"], runner=_runner(tmp_path), model="mock", embedder=None,
                       gates=GateConfig(min_length_ratio=0.0))
    assert vs[0].flags == [] and "similarity" not in vs[0].provenance["gates"]


def test_model_error_and_empty_output_are_flagged(tmp_path):
    runner = _runner(tmp_path, rules=[{"match": "swap", "response": "   "}])
    v = perturb_cases([Case(case_id="e", text="He is ill.")], "gender_swap", runner=runner, model="mock",
                      embedder="mock")[0]
    assert v.flags == ["empty_output"] and v.text == "He is ill."


def test_single_case_apply(tmp_path):
    from clinaudit.perturb import get_transform

    v = get_transform("uncertain")(Case(case_id="z", text="I have a cough."), runner=_runner(tmp_path),
                                   model="mock", embedder="mock")
    assert v[0].text == "Well, I think the patient maybe has some cough."


def test_llm_transform_needs_model():
    from clinaudit.errors import InputError

    with pytest.raises(InputError, match="runner and a model"):
        perturb_cases([Case(case_id="a", text="x")], ["colorful"])
