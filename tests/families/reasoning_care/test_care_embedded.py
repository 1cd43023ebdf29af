"""CARE with the offline embedded models (slow: loads SmolLM2-135M and all-MiniLM-L6-v2).

The end-to-end test here is the CI-sized version of the acceptance run (30 CRAFT-MD vignettes,
``examples/reasoning_care-craftmd-embedded.yaml``): 2 vignettes, 16 new tokens per answer.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from clinaudit.families.reasoning_care.metrics import semantic_drift
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.spec import parse_spec_dict
from clinaudit.pipeline import run_spec

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"
CRAFTMD = DATA / "craft-md" / "usmle_and_derm_dataset.csv"

pytestmark = pytest.mark.slow


def test_embedded_embedder_drift_sanity_and_batching(tmp_path):
    pytest.importorskip("sentence_transformers")
    from clinaudit.cache import ResponseCache

    runner = Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=RunnerConfig(progress=False),
                    backend_options={"embedded-embedder": {"batch_size": 4}})
    backend = runner.backend("embedded-embedder")
    batches: list[int] = []
    original = backend.embed

    def spy(texts):
        batches.append(len(texts))
        return original(texts)

    backend.embed = spy  # type: ignore[method-assign]
    texts = [
        "The patient has crushing chest pain radiating to the left arm; an ECG shows ST elevation.",
        "The patient has crushing chest pain radiating to the left arm; an ECG shows ST elevation.",
        "Quarterly revenue rose on strong sales of garden furniture in the northern stores.",
    ] + [f"Filler sentence number {i} about the weather." for i in range(7)]
    vecs = runner.embed("embedded-embedder", texts)
    # identical texts are embedded once (cache key per text) and give drift 0
    assert batches == [4, 4, 1]  # 9 distinct texts in batches of 4
    same = semantic_drift(vecs[0], vecs[1])[0]
    unrelated = semantic_drift(vecs[0], vecs[2])[0]
    assert same == pytest.approx(0.0, abs=1e-6)
    assert unrelated > 0.5
    # a second request for the same texts is served from the cache without a backend call
    again = runner.embed("embedded-embedder", texts[:3])
    assert np.allclose(again, vecs[:3]) and batches == [4, 4, 1]


@pytest.mark.skipif(not CRAFTMD.exists(), reason=f"CRAFT-MD data not found at {CRAFTMD}")
def test_care_end_to_end_embedded(tmp_path):
    pytest.importorskip("transformers")
    spec, params = parse_spec_dict({
        "audit": "reasoning_care",
        "seed": 0,
        "data": [{"format": "craftmd", "path": str(CRAFTMD)}],
        "models": {"target": "embedded", "embedder": "embedded-embedder", "judge": "embedded"},
        "params": {"drop_other": True, "max_cases": 2, "max_tokens": 16, "judge_max_tokens": 16,
                   "judge_max_attempts": 1, "max_judged_items": 1, "phase2": False, "n_bootstrap": 200,
                   "drift_threshold": 0.0},
    })
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False)
    responses = rd.read_table("responses")
    answers = responses[responses["stage"] == "answer"]
    assert len(answers) == 8 and answers["error"].isna().all()
    assert (answers["model"] == "embedded").all() and answers["messages"].str.contains("<answer>").all()
    drift = rd.read_table("care_drift").iloc[0]
    # the control drift is reported next to the gender drift, with Cohen's d and its CI columns
    for col in ("mean_gender", "mean_control", "cohens_d", "ci_low", "ci_high", "test", "p"):
        assert col in drift.index
    assert drift["n"] == 2 and 0.0 <= drift["mean_gender"] <= 2.0 and 0.0 <= drift["mean_control"] <= 2.0
    length = rd.read_table("care_length").iloc[0]
    assert length["unit"].startswith("tokens")  # the embedded backend has a tokenizer
    # judged items (threshold 0 sends any drifting item) are parsed or counted as unparseable
    judgments = rd.read_table("judgments")
    p1 = judgments[judgments["judge"] == "cot_phase1"]
    assert len(p1) <= 1 and set(p1["status"]) <= {"ok", "unparseable", "error"}
