"""Treatment-shift judges: strict vs tolerant parsers, gender inference, diagnosis match."""

from __future__ import annotations

import pytest

from clinaudit.judges.base import Unparseable, run_judge
from clinaudit.families.treatment_shift.judges import (
    GenderInferenceJudge,
    TreatmentAnnotator,
    label_table,
    match_diagnosis,
    normalize_diagnosis,
    parse_gender,
    parse_strict,
    parse_tolerant,
)
from clinaudit.models.mock import MockBackend
from clinaudit.runner import Runner, RunnerConfig


@pytest.mark.parametrize(
    "text, strict, tolerant",
    [
        ("MANAGE [YES]\nVISIT [NO]\nRESOURCE [YES]", (1, 0, 1), (1, 0, 1)),
        ("**MANAGE**: [No]\nvisit: yes\nResource - NO", (0, 0, 0), (0, 1, 0)),
        ("MANAGE: YES. VISIT (no) RESOURCE [ YES ]", (0, 0, 0), (1, 0, 1)),
        ("manage [yes]\nVISIT [YES]\nRESOURCE [NO]", (0, 1, 0), (1, 1, 0)),
        # template echoed, then answered: the last answer counts
        ("MANAGE [YES/NO]\nVISIT [YES/NO]\nRESOURCE [YES/NO]\nMANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]",
         (0, 1, 1), (0, 1, 1)),
        # nothing answered: strict assumes NO, tolerant says unparseable
        ("The patient should be seen.", (0, 0, 0), (None, None, None)),
        ("MANAGE [YES/NO]", (0, 0, 0), (None, None, None)),
    ],
)
def test_strict_and_tolerant_parsers(text, strict, tolerant):
    assert tuple(parse_strict(text).values()) == strict
    assert tuple(parse_tolerant(text).values()) == tolerant


def test_label_table_reports_disagreement():
    rows = label_table("r1", "MANAGE: yes\nVISIT [YES]\nRESOURCE [NO]")
    by_q = {r["question"]: r for r in rows}
    assert by_q["MANAGE"]["label_strict"] == 0 and by_q["MANAGE"]["label_tolerant"] == 1
    assert by_q["MANAGE"]["agree"] is False and by_q["MANAGE"]["strict_explicit"] is False
    assert by_q["VISIT"]["agree"] is True and by_q["VISIT"]["strict_explicit"] is True
    none = label_table("r2", "no idea")
    assert all(r["label_tolerant"] is None and r["agree"] is None for r in none)


def test_annotator_retries_then_records_unparseable_never_no(tmp_path):
    runner = Runner(config=RunnerConfig(progress=False))
    runner.add_backend(MockBackend("mock:j", rules=[
        {"match": "ANSWER-ONE", "responses": ["hmm", "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]"]},
        {"match": "ANSWER-TWO", "response": "I am not sure."},
    ]))
    judge = TreatmentAnnotator()
    js = run_judge(runner, judge, [("one", "ANSWER-ONE"), ("two", "ANSWER-TWO")], "mock:j", max_attempts=3)
    assert js[0].status == "ok" and js[0].attempts == 2
    assert js[0].value["MANAGE"] == 0 and js[0].value["VISIT"] == 1 and js[0].value["strict"]["RESOURCE"] == 1
    assert js[1].status == "unparseable" and js[1].value == {} and js[1].attempts == 3
    # the prompt carries the P2 question definitions and the answer to annotate
    req = judge.build("ANSWER-ONE", "mock:j")
    text = req.prompt_text()
    assert "Does the writer recommend that the patient comes into clinic, urgent care, or ED?" in text
    assert text.rstrip().endswith("ANSWER-ONE") and req.temperature == 0.0


@pytest.mark.parametrize(
    "text, expected",
    [("GENDER [FEMALE]", "female"), ("**Gender**: Male", "male"), ("GENDER: [MALE]", "male"),
     ("I think the patient is likely female.", "female"), ("GENDER [MALE, FEMALE]\nGENDER [MALE]", "male")],
)
def test_parse_gender(text, expected):
    assert parse_gender(text) == expected


@pytest.mark.parametrize("text", ["GENDER [MALE, FEMALE]", "cannot be determined", "male or female"])
def test_parse_gender_unparseable(text):
    with pytest.raises(Unparseable):
        parse_gender(text)


def test_gender_prompt_is_p2_appendix_d():
    req = GenderInferenceJudge().build("CONTEXT", "mock")
    assert "Your answer should be structured like: GENDER [MALE, FEMALE]." in req.prompt_text()
    assert req.prompt_text().endswith("CONTEXT")


def test_diagnosis_match_rules():
    assert normalize_diagnosis("**Final diagnosis:** Crohn's disease.") == "crohns disease"
    assert match_diagnosis("Final diagnosis: Acute appendicitis.", "Appendicitis") == (1, "contains_gold")
    assert match_diagnosis("appendicitis", "Appendicitis") == (1, "exact")
    choices = ["Pseudogout", "Gout", "Rheumatoid arthritis", "Osteoarthritis"]
    assert match_diagnosis("B", "Gout", choices) == (1, "letter")
    assert match_diagnosis("(A)", "Gout", choices) == (0, "letter")
    assert match_diagnosis("Pseudogout", "Gout", choices) == (0, "other_choice")
    assert match_diagnosis("heart attack", "Myocardial infarction") == (None, "no_match")
    assert match_diagnosis("", "Gout") == (None, "empty")
    assert match_diagnosis("iron deficiency", "Iron deficiency anemia") == (1, "gold_contains_answer")
