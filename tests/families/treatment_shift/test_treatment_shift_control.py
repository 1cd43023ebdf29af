"""Perturbations against a control perturbation (issue 19 item 3): hand-computed values."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from clinaudit.families.treatment_shift.accuracy import accuracy_tables
from clinaudit.families.treatment_shift.analysis import analyze_labels

ROOT = Path(__file__).resolve().parents[3]


def _labels(arms: dict[str, list[int]]) -> pd.DataFrame:
    rows = []
    for variant, labels in arms.items():
        for i, lab in enumerate(labels):
            rows.append({"dataset": "d", "case_id": f"c{i}", "variant": variant, "model": "m", "seed": 0,
                         "question": "MANAGE", "label": lab})
    return pd.DataFrame(rows)


def test_shift_beyond_the_control_hand_computed():
    # baseline never MANAGE; the cue flips cases 0-2, the control flips case 0 only
    lab = _labels({"baseline": [0, 0, 0, 0], "cue": [1, 1, 1, 0], "cognitive_control": [1, 0, 0, 0]})
    a = analyze_labels(lab, baseline="baseline", floor_zero=True, n_resamples=200, control="cognitive_control")
    ctl = a.extra["control"]
    row = ctl[(ctl["metric"] == "TSR") & (ctl["perturbation"] == "cue")].iloc[0]
    assert row["raw"] == pytest.approx(0.75) and row["control_rate"] == pytest.approx(0.25)
    assert row["value"] == pytest.approx(0.5)  # 0.75 - 0.25
    assert row["n_cases"] == 4 and row["reference"] == "cognitive_control"
    # per-case differences (0, 1, 1, 0): one-sided exact sign-flip p = P(sum >= 2) = 4/16 over the 2^4 flips
    assert row["p"] == pytest.approx(0.25)
    assert row["p_adj"] == pytest.approx(0.25)  # one perturbation compared with the control: family of one
    assert set(ctl["perturbation"]) == {"cue"}  # the control is not compared with itself
    # the same rows reach results.csv (and so the Findings)
    res = a.results[a.results["comparison"] == "vs control perturbation"]
    assert len(res) == len(ctl)


def test_no_control_no_table():
    lab = _labels({"baseline": [0, 0], "cue": [1, 0]})
    assert "control" not in analyze_labels(lab, baseline="baseline", floor_zero=True, n_resamples=50).extra


def test_accuracy_change_vs_control_hand_computed():
    rows = []
    for pert, correct in {"baseline": [1, 1, 1], "cue": [0, 0, 1], "cognitive_control": [1, 1, 1]}.items():
        for i, c in enumerate(correct):
            rows.append({"dataset": "d", "model": "m", "setting": "vignette", "perturbation": pert,
                         "case_id": f"c{i}", "seed": 0, "correct": c})
    _, ch = accuracy_tables(pd.DataFrame(rows), n_resamples=200, control="cognitive_control")
    vc = ch[ch["comparison"] == "vs control perturbation"]
    assert list(vc["perturbation"]) == ["cue"]
    assert vc["value"].iloc[0] == pytest.approx(-2 / 3)  # (0-1, 0-1, 1-1) / 3
    assert vc["reference"].iloc[0] == "vignette/cognitive_control"


def test_cognitive_mock_example_runs(tmp_path, monkeypatch):
    from clinaudit.report import render_report
    from clinaudit.pipeline import run_spec

    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "run"
    run_spec(ROOT / "examples" / "cognitive_bias-mock.yaml", out, progress=False)
    ctl = pd.read_csv(out / "tables" / "control.csv")
    tsr = ctl[(ctl["metric"] == "TSR") & (ctl["question"] == "MANAGE")].set_index("perturbation")
    # the scripted target is swayed by every phrasing of these two cues and by nothing else
    assert tsr.loc["cognitive_self_diagnosis", "value"] == 1.0
    assert tsr.loc["cognitive_false_consensus", "value"] == 1.0
    assert tsr.loc["cognitive_recency", "value"] == 0.0
    # 8 cases, all differences +1: exact one-sided p = 1/256, Bonferroni over the 7 cues
    assert tsr.loc["cognitive_self_diagnosis", "p"] == pytest.approx(1 / 256)
    assert tsr.loc["cognitive_self_diagnosis", "p_adj"] == pytest.approx(7 / 256)
    html = render_report([out], tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Perturbations vs the control perturbation (cognitive_control)" in html
