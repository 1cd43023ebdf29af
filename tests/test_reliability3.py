"""Issue 33 (Reliability 3): hostile inputs that used to start a fork storm, pass the API's checks while the
CLI refuses them, end in an unnamed internal error or quietly give a wrong result.

Each test drives the command or function the review probed and asserts the exit status and the one
error line that names the file, field or option (or the capped behaviour)."""

from __future__ import annotations

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
            requests = [ModelRequest.chat("openai:stub", f"question {i}", seed=0) for i in range(6)]
            resps = runner.generate(requests)
            started = {p.pid for p in me.children(recursive=True)} - before
            # 6 calls are one chunk: one worker process (the spawn machinery may add its resource tracker)
            assert executor.describe()["shards"] == 1 and 1 <= len(started) <= 2
        finally:
            executor.close()
    assert [r.text for r in resps] == [stub_answer("stub", f"question {i}", 0) for i in range(6)]


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
