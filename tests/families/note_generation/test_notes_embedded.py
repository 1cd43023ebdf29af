"""note_generation with the offline embedded model on public data (slow).

Issue 6's acceptance shape, shrunk for the slow-test budget (< ~4 min on 2 CPU cores): MTS-Dialog
+ ACI-Bench dialogs × 2 contexts × race counterfactuals complete offline, produce the tables,
and a re-run makes no model calls. SmolLM2 on CPU reads ~50-100 prompt tokens/s, so this test
uses the two shortest MTS validation dialogs with >= 10 turns and the shortest ACI validation
encounter (the full 5 + 3 dialogs took ~13 min even on a lightly loaded machine), race
restricted to baseline + Black, the doctor's turns, the zero-shot SOAP prompt for ACI and short
outputs. The full acceptance run (5 MTS + 3 ACI, all 7 race values) is
examples/note_generation-embedded.yaml; its timing is in docs/audits/note_generation.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"

pytestmark = pytest.mark.slow


@pytest.mark.skipif(not (DATA / "mts-dialog").is_dir() or not (DATA / "aci-bench").is_dir(),
                    reason=f"public data not found under {DATA}")
def test_embedded_end_to_end_and_rerun(tmp_path):
    from clinaudit.rundir import RunDir
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    spec_dict = {
        "audit": "note_generation",
        "name": "notes-embedded-slow-test",
        "seed": 0,
        "data": [
            {"format": "mts", "path": str(DATA / "mts-dialog" / "MTS-Dialog-ValidationSet.csv"), "name": "MTS-Dialog",
             "ids": ["1", "17"]},
            {"format": "aci", "path": str(DATA / "aci-bench" / "valid.csv"), "name": "ACI-Bench",
             "ids": ["D2N085"]},
        ],
        "models": {"target": "embedded", "judge": "embedded"},
        "params": {
            "contexts": ["Poverty", "Religious Beliefs"],
            "sources": ["doctor"],
            "attributes": ["race"],
            "values": {"race": ["Black"]},
            "augmentation": "insert",
            "augment_max_tokens": 32,
            "augment_max_attempts": 1,
            "aci_shots": 0,
            "max_tokens": 24,
            "judge_max_tokens": 4,
            "judge_max_attempts": 1,
            "n_bootstrap": 100,
        },
    }
    spec, params = parse_spec_dict(spec_dict)
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False)
    summary = rd.manifest["summary"]
    assert summary["dialogs_audited"] == 3
    assert summary["augmentations_accepted"] + summary["augmentations_rejected"] == 6
    first_calls = rd.manifest["runs"][-1]["usage_total"]["calls"]
    assert first_calls > 0
    run = RunDir(tmp_path / "run")
    for name in ("cases", "variants", "responses", "notes", "judgments", "paired", "results", "rejections"):
        assert run.has_table(name), name
    if summary["augmentations_accepted"]:
        assert run.has_table("paper_incidence_race")
        assert (run.path / "exports" / "paper_incidence_race.md").exists()
        assert (run.path / "exports" / "paper_incidence_race.tex").exists()
        notes = run.read_table("notes")
        assert notes["error"].isna().all()
    # a re-run makes no model calls
    rd2 = run_spec(spec, tmp_path / "run", params=params, progress=False)
    usage = rd2.manifest["runs"][-1]["usage_total"]
    assert usage["calls"] == 0 and usage["cache_hits"] >= first_calls
