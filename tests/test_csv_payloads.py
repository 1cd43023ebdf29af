"""Issue 33 acceptance: every command of ``clinaudit --help`` that writes files runs on payload data (formula-like
ids, texts, group names, labels and model answers) and no cell of any CSV it wrote begins with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return unless it is a number; the exact values come back through the API.

The command list is the CLI parser's: a new command fails :func:`test_every_command_is_run_on_payload_data`
until a test here runs it (or :data:`WRITES_NO_FILES` says why it need not). ``generate``, ``perturb``,
``run``, ``report`` and ``association`` are run by
``test_reliability3.test_every_csv_the_commands_write_is_safe_and_the_api_reads_the_exact_values``."""

from __future__ import annotations

import ast
import csv
import gzip
import io
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from test_cli_fuzz import invoke

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DEMO = ROOT / "src" / "clinaudit" / "data" / "demo"

PAYLOADS = ["=cmd|' /C calc'!A0", "=HYPERLINK(\"http://x\",\"y\")", "@SUM(1)", "+1+1", "-2+3", "\t=1", "'=quoted",
            "-x", "\r=cr"]
PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")

#: commands that only list what is installed (they write no file)
WRITES_NO_FILES = {"models": "lists the backends", "audits": "lists the recipes", "judges": "lists the judges",
                   "perturbations": "lists the perturbations",
                   "view": "serves run directories read-only (tests/test_viewer.py checks they are unchanged)"}

TESTS = Path(__file__).resolve().parent


def scanned_commands() -> dict[str, str]:
    """command -> the test (``file::function``) that runs it on payload data and scans every CSV under its output:
    every test under ``tests/`` marked ``@pytest.mark.csv_scan("command", ...)`` (read from the source, so a new
    command's own test file declares its coverage and no list here is edited)."""
    found: dict[str, str] = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for dec in fn.decorator_list:
                if (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "csv_scan"):
                    for arg in dec.args:
                        assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (path, fn.name)
                        found[arg.value] = f"{path.relative_to(TESTS)}::{fn.name}"
    return found


def formula_cells(root: Path) -> list[str]:
    """Every cell of every CSV (``.csv``, ``.csv.gz``) under ``root`` that a spreadsheet would run as a formula."""
    bad = []
    for path in sorted([*root.rglob("*.csv"), *root.rglob("*.csv.gz")]):
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        # newline="": a carriage return inside a cell is read as written (universal newlines would hide it)
        for row in csv.reader(io.StringIO(raw.decode("utf-8"), newline="")):
            bad += [f"{path.relative_to(root)}: {c!r}" for c in row
                    if c and c[0] in "=+-@\t\r" and not PLAIN_NUMBER.fullmatch(c)]
    return bad


def neutralised_cells(root: Path) -> int:
    """How many cells under ``root`` carry the ``'`` that made a payload inert (so the payloads got that far)."""
    n = 0
    for path in [*root.rglob("*.csv"), *root.rglob("*.csv.gz")]:
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        n += sum(c[:2] in ("'=", "'@", "'+", "'-") for row in csv.reader(io.StringIO(raw.decode("utf-8"), newline=""))
                 for c in row)
    return n


def csv_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in [*root.rglob("*.csv"), *root.rglob("*.csv.gz")])


def ok(argv: list[str]) -> str:
    rc, out, err = invoke(argv)
    # 3: the audit ran and a verdict failed; 4: the gate found too little evidence to pass (docs/verdicts.md)
    assert rc in (0, 3) or (rc == 4 and argv[0] == "gate"), f"{argv[0]}: exit {rc}\n{err}"
    return out


def test_every_command_is_run_on_payload_data():
    from test_reliability3 import _subcommands

    commands, scanned = set(_subcommands()), scanned_commands()
    missing = commands - set(WRITES_NO_FILES) - set(scanned)
    assert not missing, ("run these commands on payload data in their test, scan their CSVs (formula_cells) and mark "
                         f"the test @pytest.mark.csv_scan(...): {sorted(missing)}")
    assert not set(WRITES_NO_FILES) & set(scanned)
    assert set(scanned) <= commands, f"csv_scan names no such command: {sorted(set(scanned) - commands)}"
    # the tests this file holds cover (at least) these
    assert {c for c, t in scanned.items() if t.startswith("test_csv_payloads.py::")} >= {
        "init", "compare", "gate", "demo", "note-tables", "judge-agreement", "care-tables", "treatment-shift",
        "prevalence", "classifier-gaps", "probe", "debias", "synth-mimic", "mimic-tasks", "pretrain", "probe-tasks"}


def test_the_coverage_scan_reads_the_marks(tmp_path, monkeypatch):
    import test_csv_payloads as mod

    (tmp_path / "test_new.py").write_text("import pytest\n\n@pytest.mark.csv_scan('new-cmd', 'other')\n"
                                          "def test_it():\n    pass\n")
    monkeypatch.setattr(mod, "TESTS", tmp_path)
    assert mod.scanned_commands() == {"new-cmd": "test_new.py::test_it", "other": "test_new.py::test_it"}


def test_the_scan_finds_what_a_spreadsheet_would_run(tmp_path):
    (tmp_path / "a.csv").write_bytes(b'x,y\n-1.5,"\r=1"\n+3,ok\n')
    with gzip.open(tmp_path / "b.csv.gz", "wt") as fh:
        fh.write("x\n@SUM(1)\n")
    assert formula_cells(tmp_path) == ["a.csv: '\\r=1'", "b.csv.gz: '@SUM(1)'"]


def _payload_spec(tmp_path: Path) -> Path:
    """A treatment-shift spec on a CSV whose ids, texts and genders are payloads; mock answers are payloads."""
    data = tmp_path / "messages.csv"
    pd.DataFrame({"id": PAYLOADS, "message": [f"{p} my chest hurts" for p in PAYLOADS],
                  "gender": ["=F", "@M", "-F"] * 3}).to_csv(data, index=False, quoting=csv.QUOTE_ALL)
    spec = {"audit": "treatment_shift", "name": "=payload", "seed": 0,
            "data": [{"format": "csv", "path": str(data), "columns": {"id": "id", "text": "message",
                                                                       "gender": "gender"}}],
            "models": {"target": ["mock:a", "mock:b"], "judge": "mock:judge"},
            "backends": {"mock:a": {"answer": PAYLOADS[1] + " come to the clinic"},
                         "mock:b": {"rules": [{"match": ".", "seed": 42, "response": "@SUM(1) manage this at home"},
                                              {"match": ".", "response": "-cmd come in"}]},
                         "mock:judge": {"rules": [
                             {"match": "manage this at home", "response": "MANAGE [YES]\nVISIT [NO]\nRESOURCE [NO]"},
                             {"match": ".", "response": "=1+1 MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]"}]}},
            # the payload genders declared (issue 49: an unmapped gender value is an input error, exit 2)
            "params": {"perturbations": ["exclamation", "whitespace"], "seeds": [0, 42], "n_resamples": 100,
                       "value_maps": {"gender": {"=F": "female", "@M": "male", "-F": "female"}}}}
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec))
    return path


@pytest.mark.csv_scan("init", "compare", "gate", "demo")
def test_a_run_its_comparison_gate_and_demo(tmp_path, monkeypatch):
    import clinaudit.demo
    from clinaudit.api import compare_runs, open_run

    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    spec = _payload_spec(tmp_path)
    out = tmp_path / "out"
    ok(["init", "treatment_shift", "--data", str(tmp_path / "messages.csv"), "--out", str(out / "init" / "ts.yaml")])
    assert (out / "init" / "ts.yaml").is_file()
    ok(["run", str(spec), "--out", str(out / "a"), "--no-progress"])
    doc = yaml.safe_load(spec.read_text())
    doc["backends"]["mock:a"]["answer"] = "+cmd stay at home"
    (tmp_path / "spec_b.yaml").write_text(yaml.safe_dump(doc))
    ok(["run", str(tmp_path / "spec_b.yaml"), "--out", str(out / "b"), "--no-progress"])
    ok(["compare", str(out / "a"), str(out / "b"), "--out", str(out / "compare"), "--n-resamples", "100",
        "--no-progress"])
    ok(["gate", str(out / "b"), "--baseline", str(out / "a"), "--out", str(out / "gate"), "--n-resamples", "100",
        "--no-progress"])
    # demo: its one in-process audit on this payload spec instead of the embedded model's demo data
    monkeypatch.setattr(clinaudit.demo, "demo_spec_for", lambda audit, quick=False: yaml.safe_load(spec.read_text()))
    ok(["demo", "--audits", "treatment_shift", "--quick", "--jobs", "1", "--out", str(out / "demo"), "--no-progress"])
    written = csv_files(out)
    assert not [w for w in written if w.startswith("init/")]  # init writes a spec, no table
    for folder in ("a/tables/", "b/tables/", "compare/", "gate/", "demo/"):
        assert any(w.startswith(folder) for w in written), folder
    assert formula_cells(out) == [] and neutralised_cells(out) > 0
    # the exact values through the API
    run = open_run(out / "a")
    assert set(run.responses["text"]) >= {PAYLOADS[1] + " come to the clinic", "@SUM(1) manage this at home"}
    assert set(run.table("cases")["case_id"]) == {p.strip(" ") for p in PAYLOADS}  # ids: spaces stripped, tabs kept
    cmp = compare_runs(out / "a", out / "b", model_a="mock:a", model_b="mock:a", n_resamples=100)
    assert {p.strip(" ") for p in PAYLOADS} <= set(cmp.per_case["case_id"])  # the ids as they were, not neutralised


@pytest.mark.csv_scan("note-tables", "judge-agreement", "care-tables")
def test_note_and_care_tables(tmp_path, monkeypatch):
    from clinaudit.api import open_run

    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    notes = yaml.safe_load((EXAMPLES / "note_generation-mock.yaml").read_text())
    for rule in notes["backends"]["mock:notes"]["rules"]:  # the notes and the judge's explanation are payloads
        if rule["match"].endswith("Summary:$"):
            rule["response"] = PAYLOADS[1] + " " + rule["response"]
        if "SET OF CLINICAL NOTES" in rule["match"]:
            rule["response"] = rule["response"].replace("ANALYSIS: ", "ANALYSIS: " + PAYLOADS[0] + " ")
    notes["data"] = [{**notes["data"][0], "limit": 3}]
    notes["params"].update(values={"race": ["=Asian", "@Black", "-White"]}, n_bootstrap=100,
                           human_labels=str(DEMO / "human_labels.csv"))
    (tmp_path / "notes.yaml").write_text(yaml.safe_dump(notes))
    ok(["run", str(tmp_path / "notes.yaml"), "--out", str(out / "notes"), "--no-progress"])
    ok(["note-tables", str(out / "notes"), "--format", "csv", "--out", str(out / "note_tables"), "--no-progress"])
    ok(["judge-agreement", "--judgments", str(out / "notes"), "--human", str(DEMO / "human_labels.csv"), "--out",
        str(out / "agreement")])
    care = yaml.safe_load((EXAMPLES / "reasoning_care-mock.yaml").read_text())
    for rule in care["backends"]["mock:care"]["rules"]:  # the reasoning starts with a payload
        rule["response"] = rule["response"].replace("<think>", "<think>" + PAYLOADS[2] + " ")
    care["data"][0]["limit"] = 6
    care["params"]["n_bootstrap"] = 100
    (tmp_path / "care.yaml").write_text(yaml.safe_dump(care))
    ok(["run", str(tmp_path / "care.yaml"), "--out", str(out / "care"), "--no-progress"])
    ok(["care-tables", str(out / "care"), "--export", str(out / "care_tables"), "--format", "csv", "--no-progress"])
    written = csv_files(out)
    for folder in ("notes/tables/", "note_tables/", "agreement/", "care/tables/", "care_tables/"):
        assert any(w.startswith(folder) for w in written), folder
    assert formula_cells(out) == [] and neutralised_cells(out) > 0
    assert open_run(out / "notes").responses["text"].str.startswith(PAYLOADS[1]).any()
    assert set(open_run(out / "notes").table("notes")["group"]) >= {"=Asian", "@Black", "-White"}
    assert open_run(out / "care").responses["text"].str.startswith("<think>" + PAYLOADS[2]).any()


def _write(path: Path, frame: pd.DataFrame) -> Path:
    frame.to_csv(path, index=False, quoting=csv.QUOTE_ALL)
    return path


@pytest.mark.csv_scan("treatment-shift", "prevalence", "classifier-gaps", "probe", "debias",
                     "association")
def test_commands_on_label_prediction_and_note_files(tmp_path):
    from clinaudit.api import open_run
    from clinaudit.rundir import read_store_table

    out = tmp_path / "out"
    labels = _write(tmp_path / "labels.csv", pd.DataFrame(
        [{"case_id": PAYLOADS[c], "variant": v, "model": "@model", "seed": 0, "question": q, "label": (c + i) % 2}
         for c in range(4) for i, v in enumerate(["baseline", "=typo"]) for q in ["MANAGE", "VISIT", "RESOURCE"]]))
    ok(["treatment-shift", "--labels", str(labels), "--format", "long", "--out", str(out / "ts"), "--resamples", "20",
        "--no-progress"])
    notes = _write(tmp_path / "notes.csv", pd.DataFrame({"note_id": PAYLOADS, "text": ["=1 given oxycodone"] * 9,
                                                          "gender": ["=F", "@M", "-F"] * 3}))
    ok(["prevalence", "--notes", str(notes), "--text-column", "text", "--group-column", "gender", "--attributes",
        str(DEMO / "association_attributes.csv"), "--out", str(out / "prevalence"), "--no-progress"])
    preds = _write(tmp_path / "pred.csv", pd.DataFrame(
        {"task": ["=t"] * 16, "label": [i % 2 for i in range(16)], "pred": [(i // 2) % 2 for i in range(16)],
         "gender": ["=F" if i % 3 else "-M" for i in range(16)]}))
    ok(["classifier-gaps", "--predictions", str(preds), "--pred-column", "pred", "--group-column", "gender",
        "--n-resamples", "20", "--out", str(out / "gaps"), "--no-progress"])
    cases = _write(tmp_path / "cases.csv", pd.DataFrame(
        {"id": [PAYLOADS[i % 9] + str(i) for i in range(24)], "text": [f"=note {'fever' if i % 2 else 'rash'} {i}"
                                                                          for i in range(24)],
         "label": [i % 2 for i in range(24)], "gender": ["=F" if i % 3 else "@M" for i in range(24)]}))
    probe = ["--input", str(cases), "--format", "csv", "--text-column", "text", "--id-column", "id", "--label-column",
             "label", "--group-column", "gender", "--encoder", "mock", "--hidden-sizes", "2", "--alphas", "0.01",
             "--n-resamples", "20", "--no-progress"]
    ok(["probe", *probe, "--out", str(out / "probe")])
    ok(["debias", *probe, "--out", str(out / "debias"), "--attribute", "gender", "--epochs", "2"])
    # association with a model (the scores-file path is in test_reliability3): templates, attributes, groups
    (tmp_path / "templates.txt").write_text("=[GEND] was given [PAINMED] for pain\n@[GEND] asked for [PAINMED]\n")
    _write(tmp_path / "attributes.csv", pd.DataFrame({"attribute": ["=oxycodone", "@ibuprofen"],
                                                      "category": ["PAINMED"] * 2, "subgroup": ["high", "low"]}))
    (tmp_path / "targets.yaml").write_text(yaml.safe_dump({"groups": {"=male": ["he"], "@female": ["she"]}}))
    ok(["association", "--templates", str(tmp_path / "templates.txt"), "--attributes", str(tmp_path / "attributes.csv"),
        "--targets", str(tmp_path / "targets.yaml"), "--model", "mock", "--out", str(out / "association"),
        "--no-progress"])
    written = csv_files(out)
    for folder in ("ts/", "prevalence/", "gaps/", "probe/", "debias/", "association/"):
        assert any(w.startswith(folder) for w in written), folder
    assert formula_cells(out) == [] and neutralised_cells(out) > 0
    assert set(open_run(out / "gaps").table("gaps")["group"]) == {"=F", "-M"}
    assert set(open_run(out / "probe").table("predictions")["case_id"]) == {(PAYLOADS[i % 9] + str(i)).strip(" ")
                                                                         for i in range(24)}  # ids: spaces stripped
    assert set(read_store_table(out / "prevalence" / "prevalence.csv")["group"]) == {"=F", "@M", "-F"}
    assert set(read_store_table(out / "association" / "scores.csv")["group"]) == {"=male", "@female"}


@pytest.mark.csv_scan("synth-mimic", "mimic-tasks", "pretrain", "probe-tasks")
def test_the_mimic_chain(tmp_path):
    """synth-mimic -> (payloads in the notes and the admissions) -> mimic-tasks -> pretrain -> probe-tasks."""
    import shutil

    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from clinaudit.families.hurtful_words.pretrain import build_tiny_mlm
    from clinaudit.rundir import read_store_table

    out = tmp_path / "out"
    ok(["synth-mimic", "--out", str(out / "synth"), "--patients", "30", "--gzip", "--no-progress"])
    mimic = shutil.copytree(out / "synth", tmp_path / "mimic")
    adm = pd.read_csv(mimic / "ADMISSIONS.csv.gz", dtype=str, keep_default_na=False)
    adm["DIAGNOSIS"] = [PAYLOADS[i % 9] for i in range(len(adm))]
    adm.to_csv(mimic / "ADMISSIONS.csv.gz", index=False, quoting=csv.QUOTE_ALL)
    notes = pd.read_csv(mimic / "NOTEEVENTS.csv.gz", dtype=str, keep_default_na=False)
    notes["TEXT"] = [PAYLOADS[i % 9] + " " + t for i, t in enumerate(notes["TEXT"])]
    notes["DESCRIPTION"] = "@" + notes["DESCRIPTION"]
    notes.to_csv(mimic / "NOTEEVENTS.csv.gz", index=False, quoting=csv.QUOTE_ALL)
    ok(["mimic-tasks", "--mimic", str(mimic), "--out", str(out / "tasks"), "--pretraining-corpus", "--window", "60",
        "--stride", "50", "--max-windows", "2", "--max-sequences", "4", "--no-progress"])
    base = build_tiny_mlm(["the patient is well", "pain in the chest"], tmp_path / "base", layers=4, vocab_size=200)
    ok(["pretrain", "--notes", str(out / "tasks" / "pretrain_sequences.csv"), "--model", str(base), "--out",
        str(out / "pretrain"), "--max-steps", "2", "--batch-size", "4", "--max-length", "32", "--no-progress"])
    ok(["probe-tasks", "--tasks", str(out / "tasks"), "--encoder", str(out / "pretrain" / "model"), "--out",
        str(out / "probe" / "predictions.csv"), "--cohorts", "inhosp_mort", "--no-progress"])
    written = csv_files(out)
    for name in ("synth/NOTEEVENTS.csv.gz", "tasks/pretrain_sequences.csv", "pretrain/loss.csv",
                 "probe/predictions.csv"):
        assert name in written, name
    assert formula_cells(out) == [] and neutralised_cells(out) > 0
    seqs = read_store_table(out / "tasks" / "pretrain_sequences.csv")
    assert seqs["text"].str.startswith("@SUM(1)").any()


@pytest.mark.parametrize("dtype", [object, "str"])  # scanned cell by cell / by pyarrow (pandas' text dtype)
def test_the_run_store_gives_back_exactly_what_it_was_given(tmp_path, dtype):
    """store_csv -> read_store_table: the exact values (a lone carriage return included), the file safe to open."""
    from clinaudit.export import read_store_frame, store_csv, store_frame
    from clinaudit.rundir import RunDir, read_store_table

    text = [*PAYLOADS, "a\rb", "c\r\nd", "e\nf", "''x", "-0.5", "plain", None, "'"]
    n = len(text)
    df = pd.DataFrame({"text": pd.Series(text, dtype=dtype), "n": range(n), "mixed": [1, "=x", None, 2.5, "@y", *["k"] * (n - 5)],
                       "cat": pd.Categorical(["=a", "b"] * (n // 2) + ["=a"] * (n % 2)),
                       "=col": ["v"] * n})
    store_csv(df, tmp_path / "t.csv")
    assert formula_cells(tmp_path) == []
    back = read_store_table(tmp_path / "t.csv", dtype=str)
    assert list(back.columns) == list(df.columns)
    assert back["text"].tolist()[:-2] == text[:-2] and back["text"].isna().iloc[-2] and back["text"].iloc[-1] == "'"
    assert back["mixed"].fillna("").tolist()[:5] == ["1", "=x", "", "2.5", "@y"]
    assert back["cat"].tolist() == df["cat"].astype(str).tolist()
    assert len(pd.read_csv(tmp_path / "t.csv")) == n  # no row split by the carriage return
    # appended blocks (how the responses table streams) and RunDir.write_table: the same
    store_csv(df.iloc[:3], tmp_path / "s.csv")
    store_csv(df.iloc[3:], tmp_path / "s.csv", mode="a", header=False)
    assert read_store_table(tmp_path / "s.csv", dtype=str)["text"].tolist()[:-2] == text[:-2]
    rd = RunDir(tmp_path / "run")
    rd.write_table("t", df)
    assert rd.read_table("t")["text"].tolist()[:-2] == text[:-2]
    # a frame with nothing to change is handed back as it is; numbers are never touched
    plain = pd.DataFrame({"a": ["x", "y"], "b": [-1, 2]})
    assert store_frame(plain) is plain and read_store_frame(plain) is plain
    assert store_frame(pd.DataFrame({"a": ["-1", "=1"]}))["a"].tolist() == ["-1", "'=1"]


def test_generate_keeps_a_carriage_return_of_an_answer_exactly(tmp_path, monkeypatch):
    from clinaudit.api import open_run
    from clinaudit.rundir import read_store_table

    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    rules = tmp_path / "mock.yaml"
    rules.write_text(yaml.safe_dump([{"match": ".", "response": "\r=1\rsecond"}]))
    data = _write(tmp_path / "q.csv", pd.DataFrame({"id": ["a", "b"], "q": ["x", "y"]}))
    out = tmp_path / "gen"
    rc, _, err = invoke(["generate", "--input", str(data), "--id-column", "id", "--text-column", "q", "--model",
                         "mock:m", "--mock-rules", str(rules), "--out", str(out), "--no-progress"])
    assert rc == 0, err
    assert formula_cells(out) == []
    assert open_run(out).table("responses")["text"].tolist() == ["\r=1\rsecond"] * 2
    assert read_store_table(out / "tables" / "responses.csv")["response"].tolist() == ["\r=1\rsecond"] * 2


def test_the_terminal_summaries_show_the_exact_values_not_the_safety_prefix(tmp_path, capsys):
    """classifier-gaps / probe / association print their summary from the written CSV: read as the run store
    (the exact group names), not as text carrying the spreadsheet-safety prefix ('-M vs. =F)."""
    from clinaudit.export import store_csv
    from clinaudit.families.hurtful_words import cli_association, cli_classifier

    gaps = tmp_path / "summary.csv"
    store_csv(pd.DataFrame({"attribute": ["=gender"], "comparison": ["-M vs. =F"], "criterion": ["CI excludes 0"],
                            "n_tasks": [3], "recall_gap": ["2 (67%)"], "parity_gap": ["1 (33%)"],
                            "specificity_gap": ["0 (0%)"]}), gaps)
    assert "'-M vs. '=F" not in gaps.read_text() and "'-M vs. =F" in gaps.read_text()  # the file is safe
    cli_classifier._print_summary(gaps)
    printed = capsys.readouterr().out
    assert "-M vs. =F" in printed and "'-M" not in printed and "=gender" in printed and "'=gender" not in printed
    assoc = tmp_path / "assoc_summary.csv"
    store_csv(pd.DataFrame({"model": ["@model"], "category": ["=PAINMED"], "mean_=male": [0.5], "p": [0.2],
                            "p_adj": [0.4], "n_sentences": [8], "direction": ["+ = male higher"]}), assoc)
    cli_association._print_summary(assoc)
    cli_association._print_direction(assoc)
    printed = capsys.readouterr().out
    assert "@model" in printed and "=PAINMED" in printed and "'" not in printed.split("wrote")[0]
    assert "direction: + = male higher" in printed
