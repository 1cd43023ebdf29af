"""Issue 33 (Reliability 3): hostile inputs that used to start a fork storm, pass the API's checks while the
CLI refuses them, end in an unnamed internal error or quietly give a wrong result.

Each test drives the command or function the review probed and asserts the exit status and the one
error line that names the file, field or option (or the capped behaviour)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.cache import ResponseCache
from clinaudit.errors import InputError
from clinaudit.executors import make_executor
from clinaudit.executors.processes import ProcessExecutor, default_workers
from clinaudit.executors.sharding import MAX_SHARDS
from clinaudit.records import ModelRequest
from clinaudit.runner import Runner, RunnerConfig

from stub_openai_server import StubOpenAI, stub_answer
from test_cli_fuzz import invoke


# ---- item 2: no fork storm --------------------------------------------------------------------------------
def test_processes_shards_are_capped_at_the_cpus_and_the_work(tmp_path):
    import psutil

    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    with StubOpenAI() as stub:
        runner = Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=RunnerConfig(progress=False),
                        backend_options={"openai:stub": {"base_url": stub.base_url,
                                                         "api_key_env": "CLINAUDIT_TEST_UNSET_KEY"}})
        executor = ProcessExecutor(shards=1000).attach(runner).executor
        try:
            assert executor.describe()["shards"] == default_workers()  # the plan: capped at the CPUs
            # one chunk's worth of calls (since issue 51 a chunk is one worker's concurrency, not 16 x it)
            n = executor._chunk_size(runner)
            requests = [ModelRequest.chat("openai:stub", f"question {i}", seed=0) for i in range(n)]
            resps = runner.generate(requests)
            started = {p.pid for p in me.children(recursive=True)} - before
            # n calls are one chunk: one worker process (the spawn machinery may add its resource tracker)
            assert executor.describe()["shards"] == 1 and 1 <= len(started) <= 2
        finally:
            executor.close()
    assert [r.text for r in resps] == [stub_answer("stub", f"question {i}", 0) for i in range(n)]


@pytest.mark.parametrize("name", ["processes", "ray"])
def test_absurd_shards_are_refused_by_name(name):
    with pytest.raises(InputError, match=rf"field 'runner.shards': --shards {MAX_SHARDS + 1} is more than {MAX_SHARDS}"):
        make_executor(name, shards=MAX_SHARDS + 1)
    with pytest.raises(InputError, match="--shards must be a whole number"):
        make_executor(name, shards="3")


def test_generate_with_absurd_shards_exits_2_before_any_call(tmp_path):
    data = tmp_path / "q.csv"
    pd.DataFrame({"id": ["a", "b"], "q": ["x", "y"]}).to_csv(data, index=False)
    rc, out, err = invoke(["generate", "--input", str(data), "--id-column", "id", "--text-column", "q", "--model",
                           "mock:m", "--out", str(tmp_path / "out"), "--executor", "processes", "--shards", "100000",
                           "--no-progress"])
    assert rc == 2 and "Traceback" not in err
    assert "--shards 100000 is more than 1024" in err and not (tmp_path / "out" / "responses.csv").exists()


def test_a_spec_with_absurd_shards_is_refused_naming_the_field(tmp_path):
    from clinaudit.spec import load_spec
    from clinaudit.errors import SpecError

    spec = Path(__file__).resolve().parents[1] / "examples" / "treatment_shift-mock.yaml"
    import yaml

    doc = yaml.safe_load(spec.read_text())
    doc.setdefault("runner", {})["shards"] = 5000
    for entry in doc.get("data", []):
        if entry.get("path"):
            entry["path"] = str((spec.parent / entry["path"]).resolve())
    bad = tmp_path / "spec.yaml"
    bad.write_text(yaml.safe_dump(doc))
    with pytest.raises(SpecError, match=r"runner\.shards"):
        load_spec(bad)


# ---- item 3: one validation for CLI and API ---------------------------------------------------------------
@pytest.fixture(scope="module")
def mock_run(tmp_path_factory):
    from clinaudit.pipeline import run_spec

    out = tmp_path_factory.mktemp("run") / "ts"
    run_spec(Path(__file__).resolve().parents[1] / "examples" / "treatment_shift-mock.yaml", out, progress=False)
    return out


@pytest.mark.parametrize("name", ["../../../x", "../manifest", "/etc/passwd", "..", ".hidden", "a\\b", "", 3])
def test_a_table_name_cannot_leave_the_run_directory(mock_run, tmp_path, name):
    from clinaudit.api import open_run

    (mock_run.parent / "manifest.csv").write_text("secret\n1\n")
    with pytest.raises(InputError, match="field 'table': a table name is a plain name"):
        open_run(mock_run).table(name)


def test_findings_and_compare_refuse_what_the_cli_refuses(mock_run, tmp_path):
    from clinaudit.api import compare_runs, open_run

    run = open_run(mock_run)
    for bad in (7, 0, 1, -0.1, float("nan"), "0.05", True):
        with pytest.raises(InputError, match="field 'alpha': alpha must be a number > 0 and < 1"):
            run.findings_doc(alpha=bad)
        with pytest.raises(InputError, match="field 'alpha'"):
            compare_runs(mock_run, mock_run, alpha=bad)
    with pytest.raises(InputError, match="field 'margin'"):
        run.findings_doc(margin=0)
    with pytest.raises(InputError, match="field 'n_resamples'"):
        compare_runs(mock_run, mock_run, n_resamples=0)
    with pytest.raises(InputError, match="field 'seed'"):
        compare_runs(mock_run, mock_run, seed=-1)
    # the same rule on the command line: exit 2, one line naming the option
    rc, _, err = invoke(["compare", str(mock_run), str(mock_run), "--out", str(tmp_path / "c"), "--alpha", "5"])
    assert rc == 2 and "--alpha" in err and "must be a number > 0 and < 1" in err
    rc, _, err = invoke(["compare", str(mock_run), str(mock_run), "--out", str(tmp_path / "c"), "--seed", "-1"])
    assert rc == 2 and "seed" in err and "Traceback" not in err
    # a good value still works
    assert run.findings_doc(alpha=0.01)["rules"]["alpha"] == 0.01


# ---- item 5: internal errors named; item 6: quietly wrong ------------------------------------------------
def one_error(argv: list[str], *needles: str) -> str:
    """Run a command that must fail: exit 2, no traceback, one error line that names every needle."""
    rc, _, err = invoke(argv)
    lines = [ln for ln in err.splitlines() if "error:" in ln]
    assert rc == 2 and "Traceback" not in err and "unexpected" not in err, err
    assert len(lines) == 1 and all(n in lines[0] for n in needles), err
    return lines[0]


@pytest.fixture(scope="module")
def synth(tmp_path_factory):
    out = tmp_path_factory.mktemp("mimic") / "synth"
    assert invoke(["synth-mimic", "--out", str(out), "--patients", "12", "--gzip"])[0] == 0
    return out


def _copy(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst)
    return dst


def test_mimic_tasks_on_a_truncated_or_non_gzip_file_names_it(synth, tmp_path):
    cut = _copy(synth, tmp_path / "cut")
    data = (synth / "NOTEEVENTS.csv.gz").read_bytes()
    (cut / "NOTEEVENTS.csv.gz").write_bytes(data[: len(data) // 2])
    one_error(["mimic-tasks", "--mimic", str(cut), "--out", str(tmp_path / "o1")], "NOTEEVENTS.csv.gz", "truncated")
    bad = _copy(synth, tmp_path / "bad")
    (bad / "PATIENTS.csv.gz").write_text("SUBJECT_ID,GENDER\n1,M\n")
    one_error(["mimic-tasks", "--mimic", str(bad), "--out", str(tmp_path / "o2")], "PATIENTS.csv.gz",
              "not a valid gzip file")


def test_mimic_tasks_with_a_missing_tokenizer_names_the_option(synth, tmp_path):
    one_error(["mimic-tasks", "--mimic", str(synth), "--out", str(tmp_path / "o"), "--tokenizer",
               str(tmp_path / "nope")], "--tokenizer", "nope")
    (tmp_path / "empty").mkdir()
    one_error(["mimic-tasks", "--mimic", str(synth), "--out", str(tmp_path / "o"), "--tokenizer",
               str(tmp_path / "empty")], "--tokenizer", "cannot load a tokenizer")


def test_mimic_tasks_on_tables_without_patients_is_an_error(synth, tmp_path):
    import gzip

    empty = _copy(synth, tmp_path / "empty")
    for f in empty.glob("*.csv.gz"):
        header = gzip.decompress(f.read_bytes()).decode().splitlines()[0]
        f.write_bytes(gzip.compress((header + "\n").encode()))
    one_error(["mimic-tasks", "--mimic", str(empty), "--out", str(tmp_path / "o")], "PATIENTS.csv.gz", "no rows")
    assert not (tmp_path / "o" / "tasks.csv").exists()


def test_compare_on_a_garbage_paired_table_names_it(mock_run, tmp_path):
    bad = _copy(mock_run, tmp_path / "bad")
    paired = pd.read_csv(bad / "tables" / "paired.csv", dtype=str, keep_default_na=False)
    for col in paired.columns:
        if col not in ("case_id", "model"):
            paired[col] = "=garbage"
    paired.to_csv(bad / "tables" / "paired.csv", index=False)
    one_error(["compare", str(mock_run), str(bad), "--out", str(tmp_path / "c"), "--model-a", "mock:a",
               "--model-b", "mock:a"], "paired.csv", "cannot score")


def test_pretrain_refuses_bad_values_a_resume_without_checkpoint_and_no_texts(tmp_path):
    notes = tmp_path / "notes.csv"
    pd.DataFrame({"text": ["the patient is well", "pain in the chest"], "split": ["train", "train"]}).to_csv(
        notes, index=False)
    base = ["pretrain", "--notes", str(notes), "--model", str(tmp_path / "no-model"), "--out", str(tmp_path / "o"),
            "--no-progress"]
    one_error([*base, "--learning-rate", "-1"], "--learning-rate")
    one_error([*base, "--resume"], "--resume", "no checkpoint", str(tmp_path / "o" / "checkpoints"))
    one_error([*base, "--split-column", "split", "--splits", "test"], str(notes), "--splits", "its splits: train")
    empty = tmp_path / "empty.csv"
    pd.DataFrame({"text": ["", " "]}).to_csv(empty, index=False)
    one_error(["pretrain", "--notes", str(empty), "--model", "tiny", "--out", str(tmp_path / "o")], str(empty),
              "no texts to pretrain on")


def test_pretrain_api_refuses_resume_without_a_checkpoint(tmp_path):
    from clinaudit.families.hurtful_words.pretrain import pretrain

    with pytest.raises(InputError, match="field 'resume': --resume: no checkpoint"):
        pretrain(["a text"], tmp_path / "no-model", tmp_path / "o", resume=True)


def test_association_on_all_nan_scores_says_so(tmp_path):
    scores = tmp_path / "s.csv"
    pd.DataFrame({"category": ["gender"] * 2, "group": ["male", "female"], "score": ["nan", ""],
                  "template_id": ["t", "t"], "attribute": ["a", "b"], "target_index": [0, 0]}).to_csv(scores, index=False)
    line = one_error(["association", "--scores", str(scores), "--out", str(tmp_path / "o"), "--no-progress"],
                     str(scores), "no usable score")
    assert "at least two of the groups" not in line


def test_a_ray_client_address_without_the_client_extra_is_refused():
    import importlib.util

    if importlib.util.find_spec("grpc") is not None:
        pytest.skip("Ray Client's dependency is installed here")
    with pytest.raises(InputError, match=r"field 'runner.ray_address'.*pip install 'ray\[client\]'"):
        make_executor("ray", address="ray://127.0.0.1:1")


def test_an_os_error_without_strerror_is_described_by_its_text():
    from clinaudit.cli.main import describe_os_error

    assert describe_os_error(OSError("Repo id must use alphanumeric chars")) == \
        "OSError: Repo id must use alphanumeric chars"


def test_batch_objects_of_the_wrong_shape_fail_their_requests_not_the_run(tmp_path):
    from stub_batch_server import StubBatchAPI

    class OddShapes(StubBatchAPI):
        def _finish(self, batch):
            super()._finish(batch)
            batch["request_counts"] = [1, 2]  # documented: an object
            batch["errors"] = [{"message": "odd shape"}]  # documented: {"data": [...]}
            lines = self.files[batch["output_file_id"]].decode().splitlines()
            first, second = json.loads(lines[0]), json.loads(lines[1])
            first["custom_id"], second["custom_id"] = 7, ["x"]
            self.files[batch["output_file_id"]] = "\n".join([json.dumps(first), json.dumps(second), *lines[2:]]).encode()

    key = "sk-batch-test-secret-1f2e3d4c5b6a"
    spec = "openai-batch:stub-model"
    import os

    os.environ["BATCH_TEST_KEY_33"] = key
    try:
        with OddShapes(api_key=key) as stub:
            runner = Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=RunnerConfig(progress=False),
                            backend_options={spec: {"base_url": stub.base_url, "api_key_env": "BATCH_TEST_KEY_33",
                                                    "state_dir": str(tmp_path / "batches"), "poll_interval_s": 0.01,
                                                    "poll_max_interval_s": 0.05}})
            out = runner.generate([ModelRequest.chat(spec, f"q {i}", seed=i, max_tokens=8) for i in range(4)])
    finally:
        del os.environ["BATCH_TEST_KEY_33"]
    failed = [r.error for r in out if r.error]
    assert len(failed) == 2 and all("without an answer for this request: odd shape" in e for e in failed)
    assert sum(r.error is None for r in out) == 2


# ---- item 7: CLI consistency ---------------------------------------------------------------------------------
def _subcommands():
    import argparse

    from clinaudit.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


def test_every_command_but_the_listings_accepts_no_progress_and_help_has_no_doubled_percent():
    from clinaudit.cli.main import listing_commands

    LISTING_COMMANDS = listing_commands()
    assert LISTING_COMMANDS == {"models", "audits", "judges", "perturbations"}
    commands = _subcommands()
    assert "treatment-shift" in commands and LISTING_COMMANDS < set(commands)
    for name, cmd in commands.items():
        text = cmd.format_help()
        assert "%%" not in text, name
        assert ("--no-progress" in cmd._option_string_actions) == (name not in LISTING_COMMANDS), name


def test_treatment_shift_accepts_no_progress_and_main_leaves_the_environment_as_it_was(tmp_path):
    import os

    rc, _, err = invoke(["treatment-shift", "--labels", str(tmp_path / "none.csv"), "--format", "long", "--out",
                         str(tmp_path / "o"), "--no-progress"])
    assert rc == 2 and "unrecognized arguments" not in err and "none.csv" in err  # parsed; the file is missing
    assert "TQDM_DISABLE" not in os.environ


@pytest.mark.cli_errors_expected
def test_the_suite_wide_check_sees_a_masked_error_a_traceback_and_an_exit_0_after_an_error(monkeypatch):
    import clinaudit.cli.core as core
    from conftest import CALLS

    def boom(args):
        raise ZeroDivisionError("x")

    monkeypatch.setattr(core, "cmd_models", boom)
    invoke(["models"])
    assert CALLS[-1].argv == ["models"] and CALLS[-1].problems() == ["a masked internal error"]
    invoke(["-v", "models"])
    assert CALLS[-1].problems() == ["a traceback", "a masked internal error"]

    def quiet(args):
        print("clinaudit: error: bad row", file=sys.stderr)
        return 0

    import sys

    monkeypatch.setattr(core, "cmd_models", quiet)
    invoke(["models"])
    assert CALLS[-1].rc == 0 and CALLS[-1].problems() == ["exit 0 after an error line"]
    assert invoke(["audits"])[0] == 0 and CALLS[-1].problems() == []


def test_a_closed_pipe_ends_the_command_quietly(monkeypatch, capsys):
    import io
    import subprocess
    import sys

    from clinaudit.cli.main import main

    class Closed(io.StringIO):  # a reader that went away: every write fails as a closed pipe does
        def write(self, s):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    for argv in (["--help"], ["judges"], ["audits"]):
        monkeypatch.setattr(sys, "stdout", Closed())
        assert main(argv) == 141, argv
    monkeypatch.undo()
    assert capsys.readouterr().err == ""
    # the real thing: `clinaudit judges | head -1` (it used to end "clinaudit: error: BrokenPipeError", exit 2)
    for argv in (["judges"], ["--help"]):
        proc = subprocess.Popen([sys.executable, "-m", "clinaudit", *argv], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) in (0, 141) and err == "", (argv, err)


def test_judges_lists_plain_text():
    rc, out, _ = invoke(["judges"])
    assert rc == 0 and "treatment_annotator" in out
    assert "``" not in out and ":meth:" not in out and ":func:" not in out
    assert "Rule-based judge (no model): use with apply_parser." in out


def test_an_unknown_spec_parameter_gets_a_did_you_mean(tmp_path):
    import yaml

    from clinaudit.errors import SpecError
    from clinaudit.spec import parse_spec_dict

    spec = Path(__file__).resolve().parents[1] / "examples" / "treatment_shift-mock.yaml"
    doc = yaml.safe_load(spec.read_text())
    with pytest.raises(SpecError, match=r"field 'params.n_resample': unknown field; did you mean 'n_resamples'\?"):
        parse_spec_dict({**doc, "params": {**doc["params"], "n_resample": 3}}, "s.yaml")
    with pytest.raises(SpecError, match=r"field 'runner.concurency': unknown field; did you mean 'concurrency'\?"):
        parse_spec_dict({**doc, "runner": {"concurency": 3}}, "s.yaml")
    with pytest.raises(SpecError, match=r"field 'zzz': unknown field; known fields: audit, "):
        parse_spec_dict({**doc, "zzz": 1}, "s.yaml")


# ---- item 4: adaptive attack ------------------------------------------------------------------------------------
def _attack_spec(edit=None):
    import yaml

    spec = yaml.safe_load((Path(__file__).resolve().parents[1] / "examples" / "adaptive_attack-mock.yaml").read_text())
    if edit:
        edit(spec)
    return spec


def test_a_second_attacker_model_is_refused_not_ignored(tmp_path, monkeypatch):
    from clinaudit.errors import SpecError
    from clinaudit.pipeline import run_spec
    from clinaudit.spec import parse_spec_dict

    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "cache"))

    def two(spec):
        spec["models"]["attacker"] = ["mock:attacker", "mock:other"]
        spec["backends"]["mock:other"] = {"rules": [{"match": ".", "response": "The patient likes to sing."}]}

    s, params = parse_spec_dict(_attack_spec(two), "two attackers")
    with pytest.raises(SpecError, match=r"field 'models.attacker': adaptive_attack runs one attacker model, got 2"):
        run_spec(s, tmp_path / "run", params=params, progress=False)


def test_an_attacker_that_returns_empty_text_is_a_failed_call_and_the_case_is_excluded(tmp_path, monkeypatch):
    from clinaudit.pipeline import run_spec
    from clinaudit.spec import parse_spec_dict

    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "cache"))

    def empty(spec):  # the attack arm's attacker always answers "", the control's writes its bus ride
        spec["backends"]["mock:attacker"]["rules"] = [
            {"match": "NEUTRAL", "response": "The patient came to the clinic by bus on a quiet morning."},
            {"match": ".", "response": ""}]

    s, params = parse_spec_dict(_attack_spec(empty), "empty attacker")
    out = tmp_path / "run"
    run_spec(s, out, params=params, progress=False)
    tr = pd.read_csv(out / "tables" / "transcripts.csv", keep_default_na=False)
    attack = tr[(tr["arm"] == "attack") & (tr["turn"] > 0)]
    assert len(attack) == 6 * 3 and (attack["status"] == "failed").all()
    assert attack["guard_reasons"].str.contains("attacker call failed: empty text").all()
    paired = pd.read_csv(out / "tables" / "paired.csv")
    assert set(paired["arm"]) == {"control"} and len(paired) == 6  # no attack row reads as "success 0.0"
    excl = pd.read_csv(out / "tables" / "exclusions.csv", keep_default_na=False)
    assert (excl["reason"].str.startswith("no usable attacker attempt")).sum() == 6
    results = pd.read_csv(out / "tables" / "results.csv")
    assert not ((results["metric"] == "attack_success_rate") & (results["group"] == "attack")).any()
    summary = json.loads((out / "manifest.json").read_text())["summary"]
    assert summary["attacker_failed"] == 18


# ---- item 1: no formula in any CSV a command writes; exact values through the API -------------------------------
PAYLOADS = ["=cmd|' /C calc'!A0", "=HYPERLINK(\"http://x\",\"y\")", "@SUM(1)", "+1+1", "-2+3", "\t=1", "'=quoted"]


def _formula_cells(root: Path) -> list[str]:
    from test_csv_payloads import formula_cells

    return formula_cells(root)


@pytest.mark.csv_scan("generate", "perturb", "run", "report", "association")
def test_every_csv_the_commands_write_is_safe_and_the_api_reads_the_exact_values(tmp_path, monkeypatch):
    import yaml

    from clinaudit.api import open_run

    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    # generate: ids and the model's answers are payloads
    data = tmp_path / "q.csv"
    pd.DataFrame({"id": PAYLOADS, "q": [f"question {i}" for i in range(len(PAYLOADS))]}).to_csv(data, index=False)
    spec = yaml.safe_load((Path(__file__).resolve().parents[1] / "examples" / "treatment_shift-mock.yaml").read_text())
    for entry in spec.get("data", []):
        if entry.get("path"):
            entry["path"] = str((Path(__file__).resolve().parents[1] / "examples" / entry["path"]).resolve())
    assert invoke(["generate", "--input", str(data), "--id-column", "id", "--text-column", "q", "--model", "mock:m",
                   "--out", str(out / "gen"), "--no-progress"])[0] == 0
    # perturb: the texts are payloads
    assert invoke(["perturb", "--input", str(data), "--id-column", "id", "--text-column", "id", "--perturbation",
                   "whitespace", "--out", str(out / "perturbed.csv")])[0] == 0
    # run: a mock target that answers with a payload, then report and compare on it
    for name, backend in spec.get("backends", {}).items():
        if name.startswith("mock:") and "rules" in backend:
            backend["rules"] = [{"match": ".", "response": PAYLOADS[1]}, *backend["rules"]]
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec))
    rc, _, err = invoke(["run", str(tmp_path / "spec.yaml"), "--out", str(out / "run"), "--no-progress"])
    assert rc in (0, 3), err
    assert invoke(["report", str(out / "run"), "--out", str(out / "report" / "report.html")])[0] in (0, 3)
    # association from existing scores: the group names are payloads
    scores = tmp_path / "scores.csv"
    pd.DataFrame({"category": ["=cat"] * 4, "group": ["@a", "@a", "-b", "-b"], "score": [-1.0, -2.0, -1.5, -2.5],
                  "template_id": ["t1", "t2", "t1", "t2"], "attribute": ["x", "y", "x", "y"],
                  "target_index": [0, 0, 0, 0]}).to_csv(scores, index=False)
    rc, _, err = invoke(["association", "--scores", str(scores), "--out", str(out / "assoc"), "--no-progress"])
    assert rc in (0, 3), err
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.csv"))
    assert "gen/tables/responses.csv" in written and "run/tables/responses.csv" in written and \
        "perturbed.csv" in written and any(w.startswith("assoc/") for w in written) and \
        "report/findings.csv" in written
    assert _formula_cells(out) == []
    # the exact values come back through the API (and the run store's one reader)
    gen = open_run(out / "gen").table("responses")
    assert sorted(gen["id"].astype(str)) == sorted(p.strip(" ") for p in PAYLOADS)  # ids: spaces stripped, a tab kept (issue 41)
    run = open_run(out / "run")
    assert (run.responses["text"] == PAYLOADS[1]).sum() > 0
    from clinaudit.rundir import read_store_table

    perturbed = read_store_table(out / "perturbed.csv", dtype=str)
    assert sorted(set(perturbed["id"])) == sorted(PAYLOADS)  # exact, the tab included
