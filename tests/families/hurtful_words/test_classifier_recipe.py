"""The ``classifier_gaps`` recipe, the ``classifier-gaps`` command, the examples and the report section."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from clinaudit.families.hurtful_words.classifier_gaps import demo_spec
from clinaudit.errors import SpecError
from clinaudit.results import RESULT_COLUMNS
from clinaudit.spec import load_spec, parse_spec_dict
from clinaudit.pipeline import run_spec

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
DEMO = Path(__file__).resolve().parents[3] / "src" / "clinaudit" / "data" / "demo" / "classifier_predictions.csv"


def test_demo_spec_runs_and_writes_the_tables(tmp_path: Path):
    spec, params = parse_spec_dict(demo_spec(), source="demo")
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False)
    assert {"results", "gaps", "summary", "thresholds", "performance"} <= set(rd.tables())
    results = rd.read_table("results")
    assert list(results.columns[: len(RESULT_COLUMNS)]) == RESULT_COLUMNS
    # the positive-rate gap is written as declared, parity_gap (it was positive_rate_gap, which matched no
    # declaration: no margin, n_units of the task; issue 39)
    assert set(results["metric"]) == {"recall_gap", "parity_gap", "specificity_gap", "auroc", "auprc"}
    gaps = results[results["metric"].str.endswith("_gap")]
    assert (gaps["n"] == 400).all() and (gaps["correction"] == "fdr_bh").all()
    assert gaps["ci_method"].str.startswith("percentile bootstrap (9999 resamples").all()
    assert len(gaps) == 3 * 3 * (2 + 5)  # tasks x metrics x groups
    # the demo data's planted gap (women's recall on readmission) is bias over the run's 63 effects: with 1,000
    # resamples a bootstrap p could not go below 2/1001, and Holm over 63 effects kept every row inconclusive
    bias = gaps[gaps["verdict"] == "bias"]
    assert len(bias) >= 1 and (bias["p_run"] < 0.05).all()
    assert ((bias["metric"] == "recall_gap") & (bias["group"] == "F")).any()
    th = rd.read_table("thresholds")
    assert th["source"].eq("best F1 on validation").all() and th["n_valid"].eq(200).all()
    summary = rd.manifest["summary"]
    assert summary["tasks"] == 3 and summary["test_rows"] == 1200
    assert rd.manifest["status"] == "complete"


def test_data_source_instead_of_predictions_and_spec_errors(tmp_path: Path):
    spec = {"audit": "classifier_gaps", "data": [{"format": "csv", "path": str(DEMO)}],
            "params": {"pred_column": None, "score_column": "score", "group_columns": ["gender"],
                       "split_column": "split", "n_resamples": 20}}
    s, p = parse_spec_dict(spec)
    rd = run_spec(s, tmp_path / "r", params=p, progress=False)
    assert set(rd.read_table("gaps")["attribute"]) == {"gender"}
    with pytest.raises(SpecError, match="params"):
        parse_spec_dict({"audit": "classifier_gaps", "params": {"predictions": "x.csv", "group_columns": ["g"]}})
    with pytest.raises(SpecError, match="label_fields"):
        parse_spec_dict({"audit": "classifier_gaps", "params": {"probe": {"group_fields": ["g"]}}})


def test_cli_classifier_gaps(tmp_path: Path, capsys):
    from clinaudit.cli.main import main

    out = tmp_path / "cg"
    rc = main(["classifier-gaps", "--predictions", str(DEMO), "--task-column", "task", "--label-column", "label",
               "--score-column", "score", "--group-column", "gender,race", "--split-column", "split",
               "--n-resamples", "100", "--seed", "3", "--no-progress", "--out", str(out)])
    assert rc == 0
    for name in ("gaps", "summary", "thresholds", "performance"):
        assert (out / f"{name}.csv").is_file()
        assert (out / "tables" / f"{name}.csv").is_file()
    text = capsys.readouterr().out
    assert "recall_gap" in text and "F vs. M" in text
    summary = pd.read_csv(out / "summary.csv")
    assert set(summary["attribute"]) == {"gender", "race"}
    # same seed, same CIs from the Python API
    from clinaudit.families.hurtful_words.gap_table import audit_predictions, read_predictions

    api = audit_predictions(read_predictions(DEMO), task_column="task", label_column="label", score_column="score",
                            group_columns=["gender", "race"], split_column="split", n_resamples=100, seed=3)
    cli = pd.read_csv(out / "gaps.csv")
    assert cli["ci_low"].round(12).tolist() == api.gaps["ci_low"].round(12).tolist()


def test_cli_pred_column_and_errors(tmp_path: Path, capsys):
    from clinaudit.cli.main import main

    df = pd.read_csv(DEMO)
    df["pred"] = (df["score"] >= 0.5).astype(int)
    df.loc[5, "label"] = 3
    bad = tmp_path / "bad.csv"
    df.to_csv(bad, index=False)
    rc = main(["classifier-gaps", "--predictions", str(bad), "--pred-column", "pred", "--group-column", "gender",
               "--no-progress", "--out", str(tmp_path / "o")])
    assert rc == 2
    err = capsys.readouterr().err
    assert "bad.csv" in err and "row 6" in err and "field 'label'" in err


@pytest.mark.parametrize("name", ["demo", "craftmd-probe", "craftmd-debias", "mimic3"])
def test_examples_parse(name):
    spec, params = load_spec(EXAMPLES / f"classifier_gaps-{name}.yaml")
    assert spec.audit == "classifier_gaps"


def test_report_section_and_html(tmp_path: Path):
    from clinaudit.report.base import Figure, Metric, Table, get_section_builder

    rd = run_spec(EXAMPLES / "classifier_gaps-demo.yaml", tmp_path / "run", progress=False)  # paths relative to it
    sec = get_section_builder("classifier_gaps")(rd)
    figs = [b for b in sec.blocks if isinstance(b, Figure)]
    assert len(figs) == 1
    data = figs[0].data
    # forest plot: 3 tasks x (1 gender row + 5 race rows) x 3 metrics, each point with its CI
    assert len(data) == 3 * 6 * 3
    assert {"value", "ci_low", "ci_high", "significant", "reference"} <= set(data.columns)
    titles = [b.title for b in sec.blocks if isinstance(b, Table)]
    assert "Significant gaps and whom they favour (P4 Table 4)" in titles and "Decision thresholds" in titles
    metrics = [b for b in sec.blocks if isinstance(b, Metric)]
    assert [m.label for m in metrics] == ["tasks with a significant recall gap — gender",
                                          "tasks with a significant recall gap — race"]
    from clinaudit.report.render import render_report

    html = render_report([rd.path], out=tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Classifier fairness gaps" in html and "<svg" in html


def test_estimate_counts_distinct_windows(tmp_path: Path):
    from clinaudit.spec import get_recipe
    from clinaudit.pipeline import make_context

    notes = tmp_path / "notes.csv"
    pd.DataFrame({"id": [1, 2, 3], "text": ["a b c d e f", "a b c d e f", "x y"], "y": [0, 1, 0],
                  "g": ["F", "M", "F"]}).to_csv(notes, index=False)
    spec, params = parse_spec_dict({
        "audit": "classifier_gaps", "data": [{"format": "csv", "path": str(notes), "columns": {"id": "id",
                                                                                            "text": "text"}}],
        "models": {"encoder": "mock"},
        "params": {"probe": {"label_fields": ["y"], "group_fields": ["g"], "window_words": 4, "window_stride": 2}},
    })
    ctx = make_context(spec, params, tmp_path / "run", progress=False)
    est = get_recipe("classifier_gaps").estimate(ctx)
    # "a b c d e f" -> "a b c d", "c d e f" (twice, cached once); "x y" -> itself
    assert est.calls == {"mock": 3}
    ctx.rundir.close()
