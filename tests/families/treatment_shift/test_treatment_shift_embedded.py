"""Treatment-shift audit with the embedded local model (offline; slow)."""

from __future__ import annotations

import pytest

from clinaudit.spec import parse_spec_dict
from clinaudit.pipeline import run_spec


@pytest.mark.slow
def test_embedded_quick_demo_completes_and_reports_parse_rates(tmp_path):
    from clinaudit.families.treatment_shift.audit import demo_spec
    from clinaudit.report.base import Metric, get_section_builder

    spec, params = parse_spec_dict(demo_spec(quick=True))
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False)
    s = rd.manifest["summary"]
    assert s["cases"] == 2 and s["target_calls"] == 2 * 2 * 2 and s["target_errors"] == 0
    assert 0.0 <= s["annotator_parse_rate"] <= 1.0  # a 135M model may not follow the format: counted, not guessed
    labels = rd.read_table("labels")
    assert set(labels["judge_status"]) <= {"ok", "unparseable"}
    assert labels.loc[labels["judge_status"] == "unparseable", "label"].isna().all()
    resp = rd.read_table("responses")
    assert (resp.loc[resp["stage"] == "target", "model"] == "embedded").all() and resp["error"].isna().all()
    section = get_section_builder("treatment_shift")(rd)
    assert "annotator parse rate" in section.summary
    assert any(isinstance(b, Metric) and "parse rate" in b.label for b in section.blocks)
    # a second run is served from the cache
    rd2 = run_spec(spec, tmp_path / "run", params=params, progress=False)
    assert rd2.manifest["runs"][-1]["usage_total"]["calls"] == 0
