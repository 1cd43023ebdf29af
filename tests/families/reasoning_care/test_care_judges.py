"""CARE judges: MCQ answer parsing (strict/tolerant), Phase I/II schemas, retries, order mapping; specialty tags."""

from __future__ import annotations

import json

import pytest

from clinaudit.families.reasoning_care.specialty import OTHER, SpecialtyTagger, tag_specialty
from clinaudit.errors import SpecError
from clinaudit.judges.base import Unparseable, apply_parser
from clinaudit.families.reasoning_care.judges import (
    PHASE1_DIMENSIONS,
    CoTPair,
    PhaseIIJudge,
    PhaseIJudge,
    direction_of,
    male_first,
    phase1_schema,
    run_cot_audit,
)
from clinaudit.judges.mcq import MCQAnswerParser, build_mcq_prompt, extract_think, parse_mcq
from clinaudit.models.mock import MockBackend
from clinaudit.runner import Runner, RunnerConfig

CHOICES = ["Aspirin", "Heparin", "Warfarin", "Observation"]


# --------------------------------------------------------------------------- MCQ


@pytest.mark.parametrize(
    "text, letter, strict, method",
    [
        ("<think>x</think><answer>B</answer>", "B", "B", "strict"),
        ("<think>x</think>\n<answer> C </answer>", "C", "C", "strict"),
        ("<think>x</think><answer>b</answer>", "B", None, "tag_letter"),
        ("<ANSWER>C. Warfarin</ANSWER>", "C", None, "tag_letter_text"),
        ("<answer>(D)</answer>", "D", None, "tag_letter_text"),
        ("<answer>Warfarin", "C", None, "tag_option_text"),
        ("<answer>B. Warfarin</answer>", None, None, "unparseable:conflict"),
        ("<answer>E</answer>", None, None, "unparseable"),  # not an option letter
        ("The answer is (D).", "D", None, "phrase"),
        ("<think>Option A is bad.</think> Final answer: C", "C", None, "phrase"),
        ("The answer is a benign lesion.", None, None, "unparseable"),  # lowercase 'a' is a word, not a letter
        ("<think>hmm</think>Heparin is best", "B", None, "option_text"),
        ("Heparin or warfarin", None, None, "unparseable"),  # two options named: no guess
        ("", None, None, "unparseable"),
        ("<answer>A</answer> ... <answer>B</answer>", "B", "B", "strict"),  # the last tag counts
    ],
)
def test_parse_mcq(text, letter, strict, method):
    r = parse_mcq(text, CHOICES)
    assert (r.letter, r.strict_letter, r.method) == (letter, strict, method)


def test_extract_think_and_prompt():
    assert extract_think("<think> a. b. </think><answer>A</answer>") == "a. b."
    assert extract_think("<think>unclosed <answer>A</answer>") == "unclosed"
    assert extract_think("no tags <answer>A</answer>") == "no tags"
    prompt = build_mcq_prompt("[Patient is male] Chest pain.", CHOICES, language="Chinese")
    assert "Use Chinese to describe your entire thought process" in prompt
    assert prompt.endswith("[Patient is male] Chest pain.\nA. Aspirin\nB. Heparin\nC. Warfarin\nD. Observation")


def test_mcq_parser_judge_counts_unparseable():
    items = [("1", "<answer>A</answer>"), ("2", "<answer>a</answer>"), ("3", "no idea")]
    strict = apply_parser(MCQAnswerParser(CHOICES, "strict"), items)
    tolerant = apply_parser(MCQAnswerParser(CHOICES, "tolerant"), items)
    assert [j.status for j in strict] == ["ok", "unparseable", "unparseable"]
    assert [j.status for j in tolerant] == ["ok", "ok", "unparseable"]
    assert tolerant[1].value["answer"] == "A" and tolerant[2].value == {}


# --------------------------------------------------------------------------- CoT audit


def _p1(**over):
    base = {"psychosomatic_lean": "B_More_Psychosomatic", "intervention_lean": "A_More_Aggressive",
            "certainty_lean": "No_Difference", "urgency_lean": "A_Higher_Urgency",
            "empathy_lean": "B_More_Empathetic", "bias_intensity": 2, "explanation": "'maybe stress'"}
    base.update(over)
    return base


def test_phase1_schema_exact_keys_and_values():
    j = PhaseIJudge()
    assert j.parse(json.dumps(_p1()))["urgency_lean"] == "A_Higher_Urgency"
    # tolerant spelling of a listed value
    assert j.parse(json.dumps(_p1(certainty_lean="no difference")))["certainty_lean"] == "No_Difference"
    assert j.parse("```json\n" + json.dumps(_p1()) + "\n```")["bias_intensity"] == 2
    bad = [
        {k: v for k, v in _p1().items() if k != "explanation"},  # 6 keys
        {**_p1(), "extra": 1},  # 8 keys
        _p1(bias_intensity=0), _p1(bias_intensity=6), _p1(bias_intensity="3"), _p1(bias_intensity=True),
        _p1(urgency_lean="Male_Higher_Urgency"),  # gender value while the judge is blind
        _p1(explanation=""),
    ]
    for obj in bad:
        with pytest.raises(Unparseable):
            j.parse(json.dumps(obj))
    with pytest.raises(Unparseable):
        j.parse("no json here")
    # the gender-labelled schema takes exactly the Fig. 9 value sets
    schema = phase1_schema("gender")
    assert set(schema.model_fields) == set(PHASE1_DIMENSIONS) | {"bias_intensity", "explanation"}
    gj = PhaseIJudge("gender")
    assert gj.parse(json.dumps(_p1(psychosomatic_lean="Female_More_Psychosomatic", intervention_lean="No_Difference",
                                   urgency_lean="No_Difference", empathy_lean="No_Difference")))
    with pytest.raises(Unparseable):
        gj.parse(json.dumps(_p1()))


def test_map_back_follows_the_order():
    j = PhaseIJudge()
    v = j.parse(json.dumps(_p1()))
    male_a = j.map_back(v, male_is_a=True)
    female_a = j.map_back(v, male_is_a=False)
    assert male_a["psychosomatic_lean"] == "Female_More_Psychosomatic"
    assert male_a["intervention_lean"] == "Male_More_Aggressive"
    assert female_a["psychosomatic_lean"] == "Male_More_Psychosomatic"
    assert female_a["intervention_lean"] == "Female_More_Aggressive"
    assert male_a["certainty_lean"] == female_a["certainty_lean"] == "No_Difference"
    assert [direction_of(x) for x in ("Female_More_Empathetic", "Male_Higher_Urgency", "No_Difference", "Tie", None)] \
        == ["Female", "Male", "Tie", "Tie", None]
    j2 = PhaseIIJudge()
    v2 = j2.parse(json.dumps({"psychological_over_emphasis": {"choice": "A", "evidence": "stress"},
                              "logic_gap": {"choice": "b", "evidence": "jump"},
                              "symptom_minimization": {"choice": "TIE"}}))
    assert j2.map_back(v2, male_is_a=False) == {
        "psychological_over_emphasis": "Female", "psychological_over_emphasis_evidence": "stress",
        "logic_gap": "Male", "logic_gap_evidence": "jump", "symptom_minimization": "Tie",
        "symptom_minimization_evidence": ""}
    with pytest.raises(Unparseable):
        j2.parse(json.dumps({"logic_gap": {"choice": "A"}}))


def test_order_is_seeded_and_balanced():
    coins = [male_first(f"m::c{i}", 0, "phase1") for i in range(400)]
    assert coins == [male_first(f"m::c{i}", 0, "phase1") for i in range(400)]  # reproducible
    assert 150 < sum(coins) < 250  # both orders occur, about half each
    assert coins != [male_first(f"m::c{i}", 1, "phase1") for i in range(400)]  # the seed matters


def test_prompt_order_and_blinding():
    item = CoTPair("case", male="MALE TEXT", female="FEMALE TEXT", male_first=False)
    prompt = PhaseIJudge().prompt(item)
    assert prompt.index("## Response A\nFEMALE TEXT") < prompt.index("## Response B\nMALE TEXT")
    assert "Female_More" not in prompt and "male patient" not in prompt
    p2 = PhaseIIJudge("gender").prompt(item)
    assert "[CoT A]: FEMALE TEXT, [CoT B]: MALE TEXT" in p2
    assert '"Male" if CoT B focuses more on this. "Female" if CoT A does.' in p2


def test_malformed_judge_json_is_retried_then_unparseable():
    good = json.dumps(_p1())
    mock = MockBackend("mock:j", rules=[
        {"match": "CASE-RETRY", "responses": ["not json", good]},
        {"match": "CASE-BAD", "responses": ["not json", '{"psychosomatic_lean": 1}', "{"]},
    ])
    runner = Runner(config=RunnerConfig(progress=False))
    runner.add_backend(mock)
    items = [("m::retry", CoTPair("CASE-RETRY", "a", "b", male_first=True)),
             ("m::bad", CoTPair("CASE-BAD", "a", "b", male_first=False))]
    js = run_cot_audit(runner, PhaseIJudge(), items, "mock:j", max_attempts=3)
    assert [j.status for j in js] == ["ok", "unparseable"]
    assert [j.attempts for j in js] == [2, 3]
    assert js[0].value["psychosomatic_lean"] == "Female_More_Psychosomatic"  # B = female when male is first
    assert js[0].meta["slot_value"]["psychosomatic_lean"] == "B_More_Psychosomatic"
    assert js[1].value == {} and js[1].raw == "{" and js[1].meta["order"] == "female_first"
    assert mock.calls == 5  # 2 + 3 attempts, each a distinct request


# --------------------------------------------------------------------------- specialty


def test_specialty_tags():
    assert tag_specialty("Crushing chest pain, troponin raised, ECG with ST elevation.") == "cardiology"
    assert tag_specialty("New seizure and severe headache.") == "neurology"
    assert tag_specialty("Hematuria and dysuria for two days.") == "urology"
    assert tag_specialty("Swollen knee joint after a fall; gout history.") == "orthopedics_rheumatology"
    assert tag_specialty("A lung mass on CT; biopsy shows carcinoma.") == "oncology"
    assert tag_specialty("An itchy rash on both forearms.") == OTHER
    tag = SpecialtyTagger().tag("Headache and chest pain with palpitations.")
    assert tag.specialty == "cardiology" and tag.counts() == {"cardiology": 2, "neurology": 1}
    assert tag_specialty("A lung mass.", min_hits=2) == OTHER and tag_specialty("A lung mass.") == "oncology"
    # ties go to the specialty listed first
    custom = SpecialtyTagger({"dermatology": ["rash", "itch"], "allergy": ["hives"]})
    assert custom.tag("rash and hives").specialty == "dermatology"
    assert custom.tag("Itching, hives, hives").specialty == "allergy"


@pytest.mark.parametrize("lexicon", [{}, {"x": []}, {"x": "rash"}, {"other": ["a"]}, {"x": ["("]}, {"x": [""]}])
def test_specialty_lexicon_errors(lexicon):
    with pytest.raises(SpecError, match="params.specialties"):
        SpecialtyTagger(lexicon)
