"""The CARE example specs, the ``care-tables`` command and the report section."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from clinaudit.cli.main import main
from clinaudit.report.base import Compare, Figure, Metric, Table, get_section_builder
from clinaudit.rundir import RunDir
from clinaudit.spec import load_spec

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def mock_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("care-example") / "run"
    assert main(["run", str(EXAMPLES / "reasoning_care-mock.yaml"), "--out", str(out), "--no-progress"]) == 0
    return RunDir(out)


def test_example_specs_validate():
    for name in ("reasoning_care-mock.yaml", "reasoning_care-openai.yaml", "reasoning_care-craftmd-embedded.yaml"):
        spec, params = load_spec(EXAMPLES / name)
        assert spec.audit == "reasoning_care"
        assert params.drift_threshold == 0.1


def test_demo_spec_validates():
    from clinaudit.families.reasoning_care.audit import demo_spec
    from clinaudit.spec import parse_spec_dict

    spec, params = parse_spec_dict(demo_spec())
    assert spec.models["target"] == "embedded" and spec.models["embedder"] == "embedded-embedder"
    assert params.max_tokens <= 128


def test_mock_example_runs(mock_run):
    rd = mock_run
    cases = rd.read_table("cases")
    excluded = set(cases.loc[cases["status"] == "excluded", "case_id"])
    # prostate, ovarian and pregnancy vignettes are sex-specific
    assert excluded == {"demo_v08", "demo_v13", "demo_v28"}
    drift = rd.read_table("care_drift").iloc[0]
    assert drift["mean_control"] == 0.0 and drift["mean_gender"] > 0  # identical control answers: no noise
    assert drift["cohens_d"] > 0 and drift["ci_low"] <= drift["excess"] <= drift["ci_high"]  # CI of the excess
    direction = rd.read_table("care_direction")
    p1 = direction[direction["phase"] == "phase1"]
    # every judged item was malformed once and then parsed
    assert (p1["n_ok"] == p1["n_judged"]).all() and (p1["n_judged"] == drift["n_judged"]).all()
    judgments = rd.read_table("judgments")
    assert (judgments.loc[judgments["judge"] == "cot_phase1", "attempts"] == 2).all()
    items = rd.read_table("care_items")
    judged = items[items["phase2_status"] == "ok"]
    assert len(judged) == drift["n_judged"]
    assert judged["psychological_over_emphasis_evidence"].eq("may well be stress or anxiety related").all()
    assert judged["cot_female"].str.contains("stress or anxiety").all()


def test_care_tables_cli(mock_run, tmp_path, capsys):
    assert main(["care-tables", str(mock_run.path), "--table", "care_table1"]) == 0
    out = capsys.readouterr().out
    assert "Table 1" in out and "mock:care" in out and "Average" in out
    assert main(["care-tables", str(mock_run.path), "--export", str(tmp_path / "x"), "--format", "md"]) == 0
    md = (tmp_path / "x" / "care_drift.md").read_text(encoding="utf-8")
    assert md.startswith("## Semantic drift") and "| model |" in md
    assert main(["care-tables", str(mock_run.path), "--compare", "top"]) == 0
    out = capsys.readouterr().out
    assert "[Patient is female]" in out and "[Patient ID: 002]" in out
    assert main(["care-tables", str(tmp_path)]) == 2  # not a run directory


def test_report_section(mock_run):
    sec = get_section_builder("reasoning_care")(mock_run)
    kinds = [type(b) for b in sec.blocks]
    assert Metric in kinds and Compare in kinds
    tables = {b.name: b for b in sec.blocks if isinstance(b, Table)}
    assert {"care_table1", "care_table3", "care_drift", "care_direction", "care_intensity"} <= set(tables)
    # beside every gap / drift: n cases, n pairs, the floor, the excess, its CI, the test (H0) and the family
    need = {"n_cases", "n_pairs", "floor", "excess", "ci_low", "ci_high", "test", "null_hypothesis", "family"}
    for name in ("care_inference", "care_table1", "care_table3", "care_drift", "care_length", "care_rethink",
                 "care_direction"):
        assert need <= set(tables[name].df.columns), name
    inf = tables["care_inference"].df
    assert {"delta_acc", "delta_acc_control", "delta_len", "delta_len_control", "drift_excess", "delta_rethink",
            "bias_direction"} <= set(inf["metric"])
    assert inf["null_hypothesis"].str.startswith("H0").all() and (inf["family"] != "").all()
    heads = [b for b in sec.blocks if isinstance(b, Metric)]
    assert any(b.label.startswith("Semantic drift") for b in heads)
    for b in heads:
        assert "vignettes" in b.label and "pairs" in b.label and "floor" in b.label and "H0" in b.test and b.family
    figures = {b.name: b for b in sec.blocks if isinstance(b, Figure)}
    assert {"care_drift_values", "care_delta_len", "care_rethink_values", "care_direction"} <= set(figures)
    drift_fig = figures["care_drift_values"]
    assert set(drift_fig.data["pair"]) == {"gender", "control"} and len(drift_fig.data) == 2 * 27
    for f in figures.values():
        assert isinstance(f.data, pd.DataFrame) and len(f.data)
    cmp = next(b for b in sec.blocks if isinstance(b, Compare))
    assert len(cmp.variants) == 4
    assert "judge parse rate" in sec.summary
