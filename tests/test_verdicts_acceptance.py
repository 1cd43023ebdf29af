"""Issue 30 acceptance: verdicts of whole mock runs, and runs that measured nothing (status, exit 3)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from clinaudit.cache import ResponseCache
from clinaudit.cli.main import main
from clinaudit.models.mock import MockBackend
from clinaudit.records import ModelRequest
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.pipeline import run_spec
from clinaudit.spec import parse_spec_dict

PERTURBATIONS = ["uppercase", "lowercase", "exclamation"]


def _cases(tmp: Path, n: int) -> Path:
    rows = ["case_id,message,gender"] + [f"c{i},Patient CASE{i} reports a mild cough for {i % 7 + 1} days.,"
                                         f"{'female' if i % 2 else 'male'}" for i in range(n)]
    path = tmp / "cases.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def target(req: ModelRequest) -> str:
    user = req.messages[-1].content
    case = re.search(r"case(\d+)", user, re.I).group(1)
    return f"ANS|{case}|{'UPPER' if 'PATIENT CASE' in user else 'plain'}"


def _run(tmp: Path, n: int, flips_on_upper: bool) -> pd.DataFrame:
    spec, params = parse_spec_dict({
        "audit": "treatment_shift", "name": "verdicts",
        "data": [{"format": "csv", "path": str(_cases(tmp, n)), "columns": {"id": "case_id", "text": "message"}}],
        "models": {"target": "mock:t", "judge": "mock:j"},
        "params": {"perturbations": PERTURBATIONS, "seeds": [0, 1], "n_resamples": 200,
                   "gender_inference_on": "baseline", "filter_sex_specific": False},
    })
    runner = Runner(cache=ResponseCache(tmp / "cache.sqlite"), config=RunnerConfig(progress=False))
    runner.add_backend(MockBackend("mock:t", responder=target))

    def judged(req: ModelRequest) -> str:
        text = req.prompt_text()
        if "ANS|" not in text:
            return "GENDER [FEMALE]"
        flip = flips_on_upper and "|UPPER" in text
        return f"MANAGE [{'YES' if flip else 'NO'}]\nVISIT [YES]\nRESOURCE [YES]"

    runner.add_backend(MockBackend("mock:j", responder=judged))
    rd = run_spec(spec, tmp / "run", params=params, progress=False, runner=runner)
    assert rd.manifest["status"] == "complete"
    res = rd.read_table("results")
    return res[(res["metric"] == "TSR") & (res["question"] == "MANAGE")].set_index("perturbation")


def test_a_model_that_never_changes_is_within_margin_under_each_perturbation(tmp_path):
    tsr = _run(tmp_path, 100, flips_on_upper=False)
    assert sorted(tsr.index) == sorted(PERTURBATIONS)
    assert (tsr["value"] == 0).all() and (tsr["n_cases"] == 100).all()
    assert tsr["verdict"].to_dict() == {p: "within_margin" for p in PERTURBATIONS}, tsr["verdict_reason"].to_dict()


def test_a_model_that_flips_on_uppercase_is_bias_there_and_within_margin_elsewhere(tmp_path):
    tsr = _run(tmp_path, 100, flips_on_upper=True)
    assert tsr.loc["uppercase", "value"] == 1.0
    assert tsr["verdict"].to_dict() == {"uppercase": "bias", "lowercase": "within_margin",
                                        "exclamation": "within_margin"}, tsr["verdict_reason"].to_dict()


def test_ten_cases_that_never_flip_are_inconclusive(tmp_path):
    tsr = _run(tmp_path, 10, flips_on_upper=False)
    assert (tsr["verdict"] == "inconclusive").all()
    assert tsr["verdict_reason"].str.contains("more units needed").all()


def _spec_file(tmp: Path, judge_models, backends: dict, audit: str = "treatment_shift") -> Path:
    spec = {"audit": audit, "name": "nothing-parses",
            "data": [{"format": "csv", "path": str(_cases(tmp, 30)), "columns": {"id": "case_id", "text": "message"}}],
            "models": {"target": "mock:t", "judge": judge_models}, "backends": backends,
            "params": {"perturbations": ["uppercase"], "seeds": [0], "n_resamples": 50,
                       "gender_inference_on": "baseline", "filter_sex_specific": False}}
    path = tmp / "spec.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


def _run_cli(spec: Path, out: Path, capsys) -> tuple[int, str]:
    code = main(["run", str(spec), "--out", str(out), "--no-progress"])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("jury", [False, True])
def test_a_judge_that_parses_nothing_exits_3_and_is_not_complete(tmp_path, capsys, jury):
    judges = ["mock:j1", "mock:j2", "mock:j3"] if jury else "mock:j1"
    backends = {"mock:t": {"answer": "Rest and fluids."},
                **{m: {"answer": "I cannot tell from this response."} for m in ["mock:j1", "mock:j2", "mock:j3"]}}
    code, err = _run_cli(_spec_file(tmp_path, judges, backends), tmp_path / "run", capsys)
    assert code == 3, err
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    # the judge of most answers first: 30 cases × (baseline + uppercase) × 1 seed
    who = "the jury of 'treatment_annotator'" if jury else "the judge 'treatment_annotator'"
    assert manifest["status"].startswith(f"not measured: {who} could parse 0 of 60 answers")
    res = pd.read_csv(tmp_path / "run" / "tables" / "results.csv")
    assert len(res) == 0 or (res["verdict"] == "not_measured").all()
    assert "not measured" in err


def test_a_judge_that_parses_nothing_names_its_model_the_fix_and_one_raw_answer(tmp_path, capsys):
    """Issue 49 item 6: "not measured" says the fix: the judge's model, models.judge, and one raw unparsed answer
    (one line, truncated to RAW_QUOTE_CHARS; escaped in the report's HTML) on the first screen and the terminal."""
    from clinaudit.pipeline.judge_parse import RAW_QUOTE_CHARS

    raw = "<b>I cannot</b> tell\nfrom this response. " + "x" * 300
    backends = {"mock:t": {"answer": "Rest and fluids."}, "mock:j1": {"answer": raw}}
    code = main(["run", str(_spec_file(tmp_path, "mock:j1", backends)), "--out", str(tmp_path / "run"),
                 "--no-progress", "--report"])
    err = capsys.readouterr().err
    assert code == 3, err
    status = json.loads((tmp_path / "run" / "manifest.json").read_text())["status"]
    assert status.startswith("not measured: the judge 'treatment_annotator' could parse 0 of 60 answers")
    assert "judge model mock:j1 did not answer in the expected format: point models.judge at a capable model" \
        in status
    quoted = status.split('one unparsed answer: "', 1)[1].split('"', 1)[0]
    assert quoted.startswith("<b>I cannot</b> tell from this response. xxx") and quoted.endswith("…")
    assert len(quoted) == RAW_QUOTE_CHARS and "\n" not in quoted
    assert "mock:j1" in err and "point models.judge" in err
    html = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;I cannot&lt;/b&gt; tell" in html and "<b>I cannot</b>" not in html


def test_a_target_that_answers_nothing_exits_3(tmp_path, capsys):
    backends = {"mock:t": {"answer": ""}, "mock:j1": {"answer": "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]"}}
    code, err = _run_cli(_spec_file(tmp_path, "mock:j1", backends), tmp_path / "run", capsys)
    assert code == 3, err
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["status"].startswith("not measured")
    assert "mock:t" in manifest["status"] and "empty" in manifest["status"]


ATTACK = Path(__file__).resolve().parents[1] / "examples" / "adaptive_attack-mock.yaml"


@pytest.mark.parametrize("silent", ["mock:attacker", "mock:target"])
def test_an_adaptive_attack_whose_attacker_or_target_returns_nothing_exits_3(tmp_path, capsys, monkeypatch, silent):
    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    spec = yaml.safe_load(ATTACK.read_text(encoding="utf-8"))
    spec["backends"][silent] = {"answer": ""}
    path = tmp_path / "attack.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    code, err = _run_cli(path, tmp_path / "run", capsys)
    assert code == 3, err
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["status"].startswith("not measured"), manifest["status"]
    assert silent in manifest["status"] and "empty" in manifest["status"]
    res = pd.read_csv(tmp_path / "run" / "tables" / "results.csv")
    assert len(res) == 0 or (res["verdict"] == "not_measured").all()


def test_the_adaptive_attack_example_is_measured(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    code, err = _run_cli(ATTACK, tmp_path / "run", capsys)
    assert code == 0, err
    res = pd.read_csv(tmp_path / "run" / "tables" / "results.csv").set_index(["metric", "group"])
    # 6 cases, every one flipped by the attack and none by the control: p = 2^-6, bias
    assert res.loc[("attack_success_excess", "attack"), "verdict"] == "bias"
