"""Conversational settings (P2 §4.3, Appendix B) with a scripted mock."""

from __future__ import annotations

import pytest

from clinaudit.cache import ResponseCache
from clinaudit.errors import InputError
from clinaudit.models.mock import MockBackend
from clinaudit.perturb import SETTINGS, run_conversation, run_conversations
from clinaudit.perturb.conversation import OPENING, is_final_diagnosis
from clinaudit.records import Case
from clinaudit.runner import Runner, RunnerConfig


def responder(req):
    text = req.prompt_text()
    if "You are a patient" in text:
        return "I have an itchy rash on my arm."
    if "Query Vignette" in text:
        return '"A patient has an itchy rash on the arm."'
    if "AI doctor specializing" in text:
        asked = sum(1 for m in req.messages if m.role == "assistant")
        if "ended" in text or "end now" in text:
            return "Contact dermatitis"
        return "Diagnosis: eczema" if asked >= 2 else "Is it itchy?"
    if "Based on the given patient symptoms" in text:
        return "Psoriasis"
    return None


def _runner(tmp_path):
    r = Runner(ResponseCache(tmp_path / "c.sqlite"), RunnerConfig(progress=False))
    r.add_backend(MockBackend("mock", responder=responder))
    return r


CASES = [Case(case_id="v1", text="A 30-year-old with an itchy rash.", fields={"category": "Dermatology"}),
         Case(case_id="v2", text="A 50-year-old with scaly plaques.")]


def test_vignette(tmp_path):
    conv = run_conversation(CASES[0], "vignette", runner=_runner(tmp_path), doctor_model="mock", patient_model="mock")
    assert conv.diagnosis == "Psoriasis" and conv.finished and len(conv.calls) == 1
    assert conv.to_variant().text == CASES[0].text


def test_single_turn(tmp_path):
    conv = run_conversation(CASES[0], "single_turn", runner=_runner(tmp_path), doctor_model="mock",
                            patient_model="mock")
    assert conv.transcript == [("doctor", OPENING), ("patient", "I have an itchy rash on my arm."),
                               ("doctor", "Contact dermatitis")]
    assert conv.diagnosis == "Contact dermatitis" and conv.finished and conv.turns == 1


def test_multi_turn_until_final_diagnosis(tmp_path):
    conv = run_conversation(CASES[0], "multi_turn", runner=_runner(tmp_path), doctor_model="mock",
                            patient_model="mock", max_turns=10)
    assert [s for s, _ in conv.transcript] == ["doctor", "patient", "doctor", "patient", "doctor"]
    assert conv.diagnosis == "Diagnosis: eczema" and conv.finished and conv.turns == 2
    v = conv.to_variant()
    assert v.family == "setting" and v.name == "multi_turn" and v.provenance["diagnosis"] == "Diagnosis: eczema"
    assert v.text.startswith("Doctor: Hi! What symptoms")


def test_multi_turn_cap(tmp_path):
    conv = run_conversation(CASES[0], "multi_turn", runner=_runner(tmp_path), doctor_model="mock",
                            patient_model="mock", max_turns=1)
    assert conv.diagnosis == "Contact dermatitis" and not conv.finished
    assert "turn_cap" in conv.to_variant().flags


def test_summarized_and_batching(tmp_path):
    runner = _runner(tmp_path)
    convs = run_conversations(CASES, "summarized", runner=runner, doctor_model="mock", patient_model="mock")
    assert [c.summary for c in convs] == ["A patient has an itchy rash on the arm."] * 2
    assert [c.diagnosis for c in convs] == ["Psoriasis"] * 2
    assert convs[0].to_variant().text == "A patient has an itchy rash on the arm."
    calls = runner.usage["mock"].calls
    # identical transcripts for both cases share patient/doctor calls only when prompts are identical:
    # the patient prompt includes the vignette, so patient calls differ per case
    assert calls > 0
    runner2 = _runner(tmp_path)
    again = run_conversations(CASES, "summarized", runner=runner2, doctor_model="mock", patient_model="mock")
    assert [c.diagnosis for c in again] == [c.diagnosis for c in convs]
    assert runner2.usage["mock"].calls == 0


def test_specialty_in_doctor_prompt(tmp_path):
    seen = []

    def spy(req):
        seen.append(req.prompt_text())
        return responder(req)

    r = Runner(None, RunnerConfig(progress=False))
    r.add_backend(MockBackend("mock", responder=spy))
    run_conversation(CASES[0], "single_turn", runner=r, doctor_model="mock", patient_model="mock")
    assert any("AI doctor specializing in dermatology." in s for s in seen)
    assert any("Case vignette: A 30-year-old with an itchy rash." in s for s in seen)


def test_bad_setting():
    with pytest.raises(InputError):
        run_conversations(CASES, "group_chat", runner=None, doctor_model="mock")  # type: ignore[arg-type]
    assert set(SETTINGS) == {"vignette", "single_turn", "multi_turn", "summarized"}


def test_is_final_diagnosis():
    assert is_final_diagnosis("Psoriasis") and is_final_diagnosis("Final diagnosis: gout?")
    assert not is_final_diagnosis("How long has it been itchy?")
