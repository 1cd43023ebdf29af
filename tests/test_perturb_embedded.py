"""Smoke tests with the embedded local model (slow): LLM rewrites, augmentation and
conversations run end to end and a re-run is served entirely from the cache."""

from __future__ import annotations

import pytest

from clinaudit.cache import ResponseCache
from clinaudit.perturb import augment_context, perturb_cases, run_conversations
from clinaudit.records import Case
from clinaudit.runner import Runner, RunnerConfig

pytestmark = pytest.mark.slow

DIALOG = Case(case_id="d1", text="Doctor: What brings you in?\nPatient: My knee hurts.")
MESSAGE = Case(case_id="m1", text="Age: 40 years\nPatient message:\nHe has a cough. Should he come in?")
VIGNETTE = Case(case_id="v1", text="A 30-year-old with an itchy rash on the arm.")


def _run(cache_path):
    runner = Runner(ResponseCache(cache_path), RunnerConfig(progress=False))
    rewrites = perturb_cases([MESSAGE], "gender_swap", runner=runner, model="embedded",
                             embedder="embedded-embedder", max_tokens=48)
    variants, rejections = augment_context([DIALOG], ["Toxicity"], ["patient"], runner=runner, model="embedded",
                                           max_attempts=1, max_tokens=64)
    convs = run_conversations([VIGNETTE], "multi_turn", runner=runner, doctor_model="embedded", max_turns=1,
                              doctor_max_tokens=24, patient_max_tokens=24)
    return runner, rewrites, variants, rejections, convs


def test_embedded_end_to_end_and_cached_rerun(tmp_path):
    try:
        runner, rewrites, variants, rejections, convs = _run(tmp_path / "c.sqlite")
    except Exception as exc:  # pragma: no cover - environment without the local model
        pytest.skip(f"embedded model unavailable: {exc}")
    assert rewrites[0].case_id == "m1" and "similarity" in rewrites[0].provenance["gates"] or rewrites[0].flags
    assert len(variants) + len(rejections) == 1
    assert convs[0].diagnosis and len(convs[0].calls) == 2
    assert runner.usage["embedded"].calls > 0
    runner2, rewrites2, variants2, rejections2, convs2 = _run(tmp_path / "c.sqlite")
    assert runner2.usage["embedded"].calls == 0
    assert runner2.usage.get("embedded-embedder") is None or runner2.usage["embedded-embedder"].calls == 0
    assert [v.text for v in rewrites2] == [v.text for v in rewrites]
    assert convs2[0].diagnosis == convs[0].diagnosis
    assert len(variants2) == len(variants) and len(rejections2) == len(rejections)
