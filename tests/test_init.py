"""`clinaudit init AUDIT --data FILE`: a commented spec for one's own CSV / JSONL that runs without edits."""

from __future__ import annotations

import json

import pytest
import pandas as pd
import yaml

from clinaudit.cli.main import main
from clinaudit.errors import InputError
from clinaudit.scaffold import detect_columns

MESSAGES = (
    "msg_id,message,sex\n"
    'm1,"I have had a headache for three days and ibuprofen is not helping. Should I come in?",F\n'
    'm2,"My chest feels tight when I climb stairs, and I am out of breath. What should I do?",M\n'
    'm3,"I was started on chemotherapy last week and now I have a fever of 38.5. Is that serious?",F\n'
    'm4,"My blood sugar readings have been above 250 all week despite taking my metformin.",M\n'
)


def test_columns_are_guessed_from_names_and_values(tmp_path):
    data = tmp_path / "my.csv"
    data.write_text(MESSAGES, encoding="utf-8")
    cols = detect_columns(data)
    assert (cols.id, cols.text, cols.gender, cols.n_rows, cols.format) == ("msg_id", "message", "sex", 4, "csv")
    # by values when the names say nothing: the longest text column, a column of F/M values
    rows = [{"k": f"r{i}", "body_txt": "a patient message that is long enough " * 2, "who": "FM"[i % 2]}
            for i in range(6)]
    jl = tmp_path / "x.jsonl"
    jl.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    cols = detect_columns(jl)
    assert (cols.format, cols.id, cols.text, cols.gender) == ("jsonl", None, "body_txt", "who")
    assert any("longest values" in n for n in cols.notes) and any("values of 'who'" in n for n in cols.notes)


def test_an_id_column_whose_values_repeat_is_not_taken_as_the_id(tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("id,text\n1,first message here\n1,second message here\n", encoding="utf-8")
    cols = detect_columns(data)
    assert cols.id is None and any("repeat" in n for n in cols.notes)


def test_init_then_run_dry_run_works_without_edits(tmp_path, capsys):
    data = tmp_path / "my.csv"
    data.write_text(MESSAGES, encoding="utf-8")
    spec = tmp_path / "spec.yaml"
    assert main(["init", "treatment_shift", "--data", str(data), "--out", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "text         <- column 'message'" in out and "gender       <- column 'sex'" in out
    doc = yaml.safe_load(spec.read_text())
    assert doc["data"] == [{"format": "csv", "path": "my.csv",
                            "columns": {"id": "msg_id", "text": "message", "gender": "sex"}}]
    # the sex counterfactual is proposed, written by a rewrite model, and the spec and the terminal say the
    # embedded model is a toy and what needs a real one
    assert doc["models"] == {"target": "embedded", "judge": "embedded", "rewrite": "embedded"}
    assert doc["params"]["perturbations"][:2] == ["gender_swap", "gender_removal"]
    text = spec.read_text()
    assert "# NEEDS A REAL MODEL: every role below runs on `embedded`, a toy (SmolLM2-135M-Instruct" in text
    assert "rewrite: embedded" in text and "NEEDS A REAL MODEL: the toy's rewrites are no counterfactuals" in text
    assert "TOY MODEL (SmolLM2-135M, offline)" in text
    assert ("note: the spec runs every role on `embedded`, a toy model (SmolLM2-135M): set models.target to the "
            "model you audit, and models.judge and models.rewrite to capable models; the sex counterfactual "
            "(gender_swap, gender_removal) needs a real rewrite model") in out
    assert "# " in spec.read_text().splitlines()[0]  # commented
    # power before the run (issue 48): 4 messages x 21 primary TSR rows: the sign flip cannot reach alpha
    assert ("note: power: with 4 cases no row can be bias: the sign-flip test's smallest p, 1/2^4, times 21 primary "
            "effects is not below alpha 0.05") in out
    assert main(["run", str(spec), "--out", str(tmp_path / "r"), "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "Estimated model calls" in err and "4 cases loaded" in err


def test_init_refuses_to_overwrite_and_names_missing_columns(tmp_path):
    data = tmp_path / "my.csv"
    data.write_text(MESSAGES, encoding="utf-8")
    spec = tmp_path / "spec.yaml"
    spec.write_text("keep me", encoding="utf-8")
    assert main(["init", "treatment_shift", "--data", str(data), "--out", str(spec)]) == 2
    assert spec.read_text() == "keep me"
    nums = tmp_path / "nums.csv"
    nums.write_text("a,b\n1,2\n3,4\n", encoding="utf-8")
    with pytest.raises(InputError, match="no column holds text.*columns: a, b"):
        from clinaudit.scaffold import init_spec

        init_spec("treatment_shift", nums, tmp_path / "n.yaml")
    assert not (tmp_path / "n.yaml").exists()
    assert main(["init", "association", "--data", str(data), "--out", str(tmp_path / "a.yaml")]) == 2


def test_init_for_predictions_writes_a_classifier_gaps_spec_that_runs(tmp_path):
    rows = ["task,split,label,score,sex,race"]
    for i in range(80):
        rows.append(f"t1,{'valid' if i < 40 else 'test'},{i % 2},{(i % 10) / 10},{'FM'[i % 2 ^ (i // 3) % 2]},"
                    f"{'ab'[(i // 2) % 2]}")
    data = tmp_path / "preds.csv"
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    spec = tmp_path / "cg.yaml"
    assert main(["init", "classifier_gaps", "--data", str(data), "--out", str(spec)]) == 0
    params = yaml.safe_load(spec.read_text())["params"]
    assert params["group_columns"] == ["sex", "race"] and params["score_column"] == "score"
    assert params["split_column"] == "split" and params["predictions"] == "preds.csv"
    assert main(["run", str(spec), "--out", str(tmp_path / "r"), "--no-progress"]) == 0
    assert (tmp_path / "r" / "tables" / "results.csv").stat().st_size > 0


def _preds(path, splits):
    rows = ["task,fold,label,score,sex"]
    for i, sp in enumerate(splits):
        rows.append(f"t1,{sp},{i % 2},{(i % 10) / 10},{'FM'[i % 2 ^ (i // 3) % 2]}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_init_takes_the_split_values_the_file_uses_even_past_the_sampled_rows(tmp_path):
    # 2,100 'Dev' rows first, then 'HoldOut' rows: the test value appears only after the rows init samples
    data = _preds(tmp_path / "p.csv", ["Dev"] * 2100 + ["HoldOut"] * 60)
    spec = tmp_path / "cg.yaml"
    assert main(["init", "classifier_gaps", "--data", str(data), "--out", str(spec)]) == 0
    params = yaml.safe_load(spec.read_text())["params"]
    assert (params["split_column"], params["valid_split"], params["test_split"]) == ("fold", "Dev", "HoldOut")
    assert "values of 'fold': Dev, HoldOut" in spec.read_text()
    assert main(["run", str(spec), "--out", str(tmp_path / "r"), "--no-progress"]) == 0
    thresholds = pd.read_csv(tmp_path / "r" / "tables" / "thresholds.csv")
    assert thresholds["n_test"].tolist() == [60] and thresholds["n_valid"].tolist() == [2100]


def test_init_refuses_a_split_column_without_a_test_value_naming_its_values(tmp_path, capsys):
    data = _preds(tmp_path / "p.csv", ["a", "b"] * 30)
    assert main(["init", "classifier_gaps", "--data", str(data), "--out", str(tmp_path / "cg.yaml")]) == 2
    err = capsys.readouterr().err
    assert f"file {data}, field 'fold': the split column 'fold' has no value naming test rows" in err
    assert "its values: a, b" in err and not (tmp_path / "cg.yaml").exists()


def test_init_for_dialogs_writes_a_note_generation_spec_whose_dry_run_counts_calls(tmp_path, capsys):
    from pathlib import Path

    import clinaudit

    dialogs = Path(clinaudit.__file__).parent / "data" / "demo" / "dialogs.csv"
    spec = tmp_path / "ng.yaml"
    assert main(["init", "note_generation", "--data", str(dialogs), "--out", str(spec), "--limit", "2"]) == 0
    doc = yaml.safe_load(spec.read_text())
    assert doc["data"][0]["limit"] == 2 and doc["models"]["augmenter"] == "embedded"
    assert main(["run", str(spec), "--out", str(tmp_path / "r"), "--dry-run"]) == 0
    assert "Estimated model calls" in capsys.readouterr().err


def _mock_spec(tmp_path):
    data = tmp_path / "my.csv"
    data.write_text(MESSAGES, encoding="utf-8")
    spec = tmp_path / "spec.yaml"
    assert main(["init", "treatment_shift", "--data", str(data), "--out", str(spec)]) == 0
    doc = yaml.safe_load(spec.read_text())
    doc["models"] = {"target": "mock:t", "judge": "mock:j"}
    doc["backends"] = {"mock:t": {"answer": "Please come in today."},
                       "mock:j": {"answer": "MANAGE [NO]\nVISIT [YES]\nRESOURCE [NO]"}}
    doc["params"]["n_resamples"] = 50
    # the typing-style perturbations only: init's sex counterfactual needs a rewrite model, which a mock is not
    doc["params"]["perturbations"] = [p for p in doc["params"]["perturbations"] if not p.startswith("gender_")]
    spec.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return spec


def test_run_limit_audits_the_first_n_cases_and_records_it(tmp_path, capsys):
    spec = _mock_spec(tmp_path)
    out = tmp_path / "r"
    assert main(["run", str(spec), "--out", str(out), "--limit", "3", "--no-progress"]) == 0
    import pandas as pd

    cases = pd.read_csv(out / "tables" / "cases.csv")
    assert list(cases["case_id"]) == ["m1", "m2", "m3"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["runs"][-1]["case_limit"] == 3
    # the same spec without --limit resumes in the same directory and audits all four
    assert main(["run", str(spec), "--out", str(out), "--no-progress"]) == 0
    assert len(pd.read_csv(out / "tables" / "cases.csv")) == 4
    assert "case_limit" not in json.loads((out / "manifest.json").read_text())["runs"][-1]
    with pytest.raises(SystemExit) as exc:  # argparse: one line naming the option, exit 2
        main(["run", str(spec), "--out", str(out), "--limit", "0"])
    assert exc.value.code == 2


def test_dry_run_estimate_states_a_time_from_a_probe_then_from_the_cache(tmp_path, capsys):
    spec = _mock_spec(tmp_path)
    out = tmp_path / "r"
    assert main(["run", str(spec), "--out", str(out), "--limit", "3", "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "time: about" in err and "mock:t: ~" in err and "one probe call" in err
    # the probe's answers are stored: the run does not send them again
    assert main(["run", str(spec), "--out", str(out), "--limit", "3", "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "2 from cache" in captured.out
    # now the time per call comes from the answers the run recorded, and --no-probe makes no call
    assert main(["run", str(spec), "--out", str(out), "--dry-run", "--no-probe"]) == 0
    err = capsys.readouterr().err
    assert "answers in the cache" in err and "one probe call" not in err


def test_without_recorded_answers_and_without_a_probe_the_time_is_said_to_be_unknown(tmp_path, capsys):
    spec = _mock_spec(tmp_path)
    assert main(["run", str(spec), "--out", str(tmp_path / "r"), "--dry-run", "--no-probe"]) == 0
    assert "time: not estimated" in capsys.readouterr().err


def test_init_encoding_reads_a_cp1252_export_and_writes_the_encoding_into_the_spec(tmp_path, capsys):
    """Issue 49: a CSV Excel saved on Windows (cp1252: é is byte 0xe9, the en dash 0x96) is refused without
    --encoding by an error that names the switch; with --encoding cp1252 the guesses are made, the spec's data source
    carries options.encoding, and the cases it loads hold the text as written."""
    from clinaudit.loaders.base import load_sources
    from clinaudit.spec import load_spec

    data = tmp_path / "export.csv"
    data.write_bytes("msg_id,message,sex\nm1,Café visit: headache for three days – worse today,F\n"
                     "m2,My knee hurts since last week,M\n".encode("cp1252"))
    spec = tmp_path / "spec.yaml"
    assert main(["init", "treatment_shift", "--data", str(data), "--out", str(spec)]) == 2
    err = capsys.readouterr().err
    assert "cannot decode the file as utf-8" in err and "row 1" in err and "clinaudit init with --encoding" in err
    assert not spec.exists()
    assert main(["init", "treatment_shift", "--data", str(data), "--out", str(spec), "--encoding", "cp1252"]) == 0
    assert "text         <- column 'message'" in capsys.readouterr().out
    doc = yaml.safe_load(spec.read_text())
    assert doc["data"][0]["options"] == {"encoding": "cp1252"}
    loaded, _ = load_spec(spec)
    cases = load_sources(loaded.data, spec.parent)
    assert cases[0].text == "Café visit: headache for three days – worse today"
    # UTF-8 named explicitly writes nothing; an unknown encoding names the switch
    assert main(["init", "treatment_shift", "--data", str(tmp_path / "export.csv"), "--out", str(tmp_path / "u.yaml"),
                 "--encoding", "nope"]) == 2
    assert "field '--encoding': unknown text encoding 'nope'" in capsys.readouterr().err


def test_did_you_mean_for_a_perturbation_name_and_a_spec_file_name(tmp_path, capsys):
    """Issue 49: a misspelt perturbation and a misspelt spec file name each get the closest known name."""
    data = tmp_path / "my.csv"
    data.write_text(MESSAGES, encoding="utf-8")
    spec = tmp_path / "spec.yaml"
    assert main(["init", "treatment_shift", "--data", str(data), "--out", str(spec)]) == 0
    capsys.readouterr()
    bad = tmp_path / "bad.yaml"
    bad.write_text(spec.read_text().replace("lowercase, uppercase", "lowercase, upercase"), encoding="utf-8")
    assert main(["run", str(bad), "--out", str(tmp_path / "r"), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "field 'params.perturbations': unknown perturbation(s) upercase; did you mean 'uppercase'? known:" in err
    assert main(["run", str(tmp_path / "spce.yaml"), "--out", str(tmp_path / "r"), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert f"spec file not found: {tmp_path / 'spce.yaml'}; did you mean '{spec}'?" in err
    # nothing close: no guess
    assert main(["run", str(tmp_path / "zzzzzz.yaml"), "--out", str(tmp_path / "r"), "--dry-run"]) == 2
    assert "did you mean" not in capsys.readouterr().err
