"""``hurtfulwords_pipeline`` (examples/hurtfulwords-synthetic.yaml): synthetic MIMIC → 57 tasks → baseline and
debiased encoders → Tables 3–5; and the ``pretrain`` / ``probe-tasks`` commands.

The chain test runs the example spec itself, with fewer patients and steps so that it fits the
slow-test budget (the full example is timed in docs/audits/hurtfulwords.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

pytest.importorskip("torch")
pytest.importorskip("transformers")

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "hurtfulwords-synthetic.yaml"


def test_paper_grid_shapes() -> None:
    from clinaudit.families.hurtful_words.finetune import paper_grid

    g = paper_grid(768)
    assert g[:3] == [[384], [192], [128]]
    assert [384, 192] in g and [128, 21, 3] in g and g[-1] == []
    assert len(g) == 10  # 3 layer counts x 3 ratios + the single linear layer


def test_params_need_one_source_and_a_known_attribute() -> None:
    from pydantic import ValidationError

    from clinaudit.families.hurtful_words.params import HurtfulWordsPipelineParams

    with pytest.raises(ValidationError, match="exactly one of mimic"):
        HurtfulWordsPipelineParams()
    with pytest.raises(ValidationError, match="must be one of group_columns"):
        HurtfulWordsPipelineParams(synthetic={}, debias={"attribute": "race"})
    p = HurtfulWordsPipelineParams(synthetic={}, debias={"attribute": "gender", "lambda": 2.0})
    assert p.debias.lambda_ == 2.0 and p.pretrain.adversary is None


@pytest.fixture(scope="module")
def chain_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from clinaudit.cli.main import main

    tmp = tmp_path_factory.mktemp("chain")
    spec = yaml.safe_load(EXAMPLE.read_text())
    spec["params"]["synthetic"]["patients"] = 70
    spec["params"]["pretrain"]["max_steps"] = 40
    spec["params"]["pretrain"]["save_steps"] = 20
    spec["params"]["n_resamples"] = 100
    spec["params"]["association"]["n_bootstrap"] = 50
    path = tmp / "spec.yaml"
    path.write_text(yaml.safe_dump(spec))
    out = tmp / "run"
    assert main(["run", str(path), "--out", str(out), "--report", "--no-progress"]) == 0
    return out


@pytest.mark.slow
def test_chain_writes_tables_3_to_5_for_both_encoders(chain_run: Path) -> None:
    t = chain_run / "tables"
    t3, t4, t5 = (pd.read_csv(t / f"{n}.csv") for n in ("table3", "table4", "table5"))
    assert set(t3["model"]) == set(t4["model"]) == set(t5["model"]) == {"baseline", "debiased"}
    assert set(t3["category"]) == {"CARDIO", "PAINMED", "PSYCH"}  # the demo templates' categories
    assert {"recall_gap", "parity_gap", "specificity_gap"} <= set(t5.columns)
    assert set(t5["attribute"]) == {"gender", "language_group", "ethnicity_group", "insurance_group"}
    # Table 5 recounts the gap table: significant recall gaps per model x attribute x group
    gaps = pd.read_csv(t / "gaps.csv")
    for (model, attr, grp), sub in gaps[gaps["base_metric"] == "recall"].groupby(["model", "attribute", "group"]):
        row = t5[(t5["model"] == model) & (t5["attribute"] == attr) & (t5["group"].astype(str) == str(grp))]
        assert int(row["recall_gap_n_significant"].iloc[0]) == int(sub["significant"].astype(bool).sum())
    preds = pd.read_csv(t / "predictions.csv")
    tasks = pd.read_csv(t / "task_index.csv")
    assert len(tasks) == 57
    assert preds["task"].nunique() <= 57 and {"case_id", "task", "split", "label", "score", "gender"} <= set(preds)
    # no patient in two splits, and the predictions carry the cohort builder's split
    cases = pd.read_csv(t / "cases.csv")
    assert set(cases["split"]) == {"train", "valid", "test"}
    curves = pd.read_csv(t / "pretrain_curves.csv")
    assert set(curves["encoder"]) == {"baseline", "debiased"}
    assert curves[curves["encoder"] == "baseline"]["adversary_loss"].isna().all()
    assert curves[curves["encoder"] == "debiased"]["adversary_loss"].notna().all()
    html = (chain_run / "report.html").read_text()
    for title in ("P4 Table 3", "P4 Table 4", "P4 Table 5", "Pretraining loss curves"):
        assert title in html
    summary = json.loads((chain_run / "manifest.json").read_text())["summary"]
    assert summary["tasks"] == 57 and set(summary["encoders"]) == {"baseline", "debiased"}
    for enc in summary["encoders"].values():
        assert (Path(enc) / "config.json").is_file()


@pytest.mark.slow
def test_probe_tasks_cli_writes_classifier_gaps_input(chain_run: Path, tmp_path: Path) -> None:
    """mimic-tasks tables + a chain encoder -> probe-tasks -> classifier-gaps reads the predictions."""
    from clinaudit.cli.main import main
    from clinaudit.families.hurtful_words.mimic_tasks import TaskOptions, build_mimic_tasks

    opts = TaskOptions(window=120, stride=100, max_windows=3, max_sequences=6)
    build_mimic_tasks(chain_run / "data" / "mimic", options=opts).write(tmp_path / "tasks")
    enc = json.loads((chain_run / "manifest.json").read_text())["summary"]["encoders"]["baseline"]
    pred = tmp_path / "pred.csv"
    assert main(["probe-tasks", "--tasks", str(tmp_path / "tasks"), "--encoder", enc, "--out", str(pred),
                 "--cohorts", "inhosp_mort"]) == 0
    df = pd.read_csv(pred)
    assert {"case_id", "task", "split", "label", "score", "gender", "insurance_group"} <= set(df.columns)
    assert set(df["task"]) == {"Inhosp Mort"} and df["case_id"].str.startswith("inhosp_mort:").all()
    assert main(["classifier-gaps", "--predictions", str(pred), "--score-column", "score", "--split-column", "split",
                 "--group-column", "gender", "--n-resamples", "50", "--out", str(tmp_path / "gaps"),
                 "--no-progress"]) == 0
    assert (tmp_path / "gaps" / "tables" / "gaps.csv").is_file()
