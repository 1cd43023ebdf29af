"""Issue 15 item 3: ``openai-batch:<model>`` through a loopback stub of the Files + Batch API.

The stub (tests/stub_batch_server.py) counts uploads, batch creations, polls and answers per prompt.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.cache import ResponseCache
from clinaudit.cli.main import main
from clinaudit.errors import BackendError, SpecError
from clinaudit.models.base import get_backend
from clinaudit.models.openai_batch import BatchLimits, OpenAIBatchBackend
from clinaudit.models.openai_compat import OpenAICompatBackend
from clinaudit.models.options import effective_prices
from clinaudit.pipeline.estimate import Estimate
from clinaudit.records import ModelRequest
from clinaudit.runner import Runner, RunnerConfig

from stub_batch_server import StubBatchAPI
from stub_openai_server import stub_answer

KEY = "sk-batch-test-secret-1f2e3d4c5b6a"
SPEC = "openai-batch:stub-model"


@pytest.fixture(autouse=True)
def keyed(monkeypatch):
    monkeypatch.setenv("BATCH_TEST_KEY", KEY)


def _requests(n: int, tag: str = "q", model: str = SPEC) -> list[ModelRequest]:
    return [ModelRequest.chat(model, f"{tag} {i}", seed=i, max_tokens=8) for i in range(n)]


def _runner(tmp_path: Path, url: str, **opts) -> Runner:
    options = {"base_url": url, "api_key_env": "BATCH_TEST_KEY", "state_dir": str(tmp_path / "batches"),
               "poll_interval_s": 0.01, "poll_max_interval_s": 0.05, **opts}
    return Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=RunnerConfig(progress=False),
                  backend_options={SPEC: options})


def _state(tmp_path: Path) -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((tmp_path / "batches").glob("*.json"))]


def test_options_defaults_are_openais_documented_limits_and_a_list_of_urls_is_refused():
    b = OpenAIBatchBackend(SPEC, base_url="http://h/v1")
    assert (b.max_requests, b.max_bytes) == (50_000, 200_000_000) == (BatchLimits.MAX_REQUESTS, BatchLimits.MAX_BYTES)
    assert b.batch_discount == 0.5 and b.completion_window == "24h"
    with pytest.raises(BackendError, match="one base_url"):
        OpenAIBatchBackend(SPEC, base_url="http://a/v1,http://b/v1")
    with pytest.raises(BackendError, match="needs a model name"):
        OpenAIBatchBackend("openai-batch:")
    assert isinstance(get_backend(SPEC, reuse=False, base_url="http://h/v1"), OpenAIBatchBackend)


def test_batch_run_stores_every_answer_under_the_openai_request_key(tmp_path):
    reqs = _requests(10)
    with StubBatchAPI(api_key=KEY) as stub:
        runner = _runner(tmp_path, stub.base_url, max_requests_per_batch=4)
        out = runner.generate(reqs)
        # split by the request limit: 4 + 4 + 2, every file uploaded with purpose batch
        assert stub.lines_per_file[:3] == [4, 4, 2] and stub.uploads == stub.created == 3
        assert stub.upload_purposes == ["batch"] * 3
        assert {(b["endpoint"], b["completion_window"]) for b in stub.create_bodies} == {("/v1/chat/completions", "24h")}
        url = stub.base_url
    prompts = [r.messages[-1].content for r in reqs]
    assert [r.error for r in out] == [None] * 10
    assert [r.text for r in out] == [stub_answer("stub-model", p, i) for i, p in enumerate(prompts)]
    assert dict(stub.answered_by_prompt) == {p: 1 for p in prompts}
    # the key is the one openai:stub-model at the same base URL computes
    online = OpenAICompatBackend("openai:stub-model", base_url=url)
    online_keys = [r.model_copy(update={"model": "openai:stub-model"}).key(online.identity()) for r in reqs]
    assert [r.request_key for r in out] == online_keys
    assert len(ResponseCache(tmp_path / "cache.sqlite")) == 10
    # so a later openai: run of the same requests is answered from the cache (no server needed)
    later = Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=RunnerConfig(progress=False),
                   backend_options={"openai:stub-model": {"base_url": url}})
    again = later.generate(_requests(10, model="openai:stub-model"))
    assert later.usage["openai:stub-model"].cache_hits == 10 and later.usage["openai:stub-model"].calls == 0
    assert [r.text for r in again] == [r.text for r in out]
    # state files hold batch ids and keys, never the key
    states = _state(tmp_path)
    assert sorted(s["batch_id"] for s in states) == ["batch_1", "batch_2", "batch_3"]
    assert sorted(k for s in states for k in s["keys"]) == sorted(online_keys)
    for p in tmp_path.rglob("*"):
        if p.is_file():
            assert KEY.encode() not in p.read_bytes(), p


def test_byte_limit_splits_files_and_an_oversized_request_fails_with_its_reason(tmp_path):
    reqs = _requests(6) + [ModelRequest.chat(SPEC, "long " + "x" * 2000, seed=9, max_tokens=8)]
    with StubBatchAPI(api_key=KEY) as stub:
        runner = _runner(tmp_path, stub.base_url, max_bytes_per_batch=1000)
        out = runner.generate(reqs)
    assert all(b <= 1000 for b in stub.bytes_per_file[: stub.uploads]) and stub.uploads >= 2
    assert sum(stub.lines_per_file[: stub.uploads]) == 6
    assert [r.error is None for r in out] == [True] * 6 + [False]
    assert "more than max_bytes_per_batch (1,000)" in out[-1].error


def test_error_file_lines_are_failed_calls_with_the_reason_and_a_rerun_sends_only_those_again(tmp_path):
    reqs = _requests(4) + [ModelRequest.chat(SPEC, "PLEASE-FAIL now", seed=1, max_tokens=8)]
    with StubBatchAPI(api_key=KEY) as stub:
        runner = _runner(tmp_path, stub.base_url)
        out = runner.generate(reqs)
        assert [r.error for r in out[:4]] == [None] * 4
        assert out[4].text is None and "HTTP 400" in out[4].error and "invalid_value" in out[4].error
        assert "Invalid value for 'messages'" in out[4].error
        assert runner.usage[SPEC].failures == 1 and runner.usage[SPEC].calls == 4
        assert len(ResponseCache(tmp_path / "cache.sqlite")) == 4  # the failure is not stored
        stub.fail_marker = ""  # the server now accepts it
        again = _runner(tmp_path, stub.base_url)
        out2 = again.generate(reqs)
        assert stub.created == 2 and stub.lines_per_file[-1] == 1  # one new batch, holding only the failed one
    assert all(r.error is None for r in out2) and again.usage[SPEC].cache_hits == 4


def test_a_failed_batch_fails_its_requests_with_the_batch_errors(tmp_path):
    with StubBatchAPI(api_key=KEY, fail_batch=True) as stub:
        out = _runner(tmp_path, stub.base_url).generate(_requests(3))
    assert all("ended 'failed' without an answer for this request: validation failed" in r.error for r in out)
    assert len(ResponseCache(tmp_path / "cache.sqlite")) == 0


def test_max_wait_then_rerun_reattaches_even_when_the_batch_id_was_never_recorded(tmp_path):
    reqs = _requests(5)
    with StubBatchAPI(api_key=KEY, hold=True) as stub:
        out = _runner(tmp_path, stub.base_url, max_wait_s=0.1).generate(reqs)
        assert all("still 'in_progress'" in r.error and "re-run to re-attach" in r.error for r in out)
        assert stub.created == 1
        # a kill between creating the batch and recording its id: the state has only the file id
        (state_file,) = sorted((tmp_path / "batches").glob("*.json"))
        rec = json.loads(state_file.read_text(encoding="utf-8"))
        assert rec["batch_id"] == "batch_1" and rec["input_file_id"] == "file-1"
        rec["batch_id"] = rec["status"] = None
        state_file.write_text(json.dumps(rec), encoding="utf-8")
        stub.hold = False
        out2 = _runner(tmp_path, stub.base_url).generate(reqs)
        assert stub.created == 1 and stub.uploads == 1  # found batch_1 by its input file, nothing paid twice
    assert all(r.error is None for r in out2)
    assert json.loads(state_file.read_text(encoding="utf-8"))["batch_id"] == "batch_1"


# ---- clinaudit generate ---------------------------------------------------------------------------


def _input(tmp_path: Path, n: int) -> Path:
    p = tmp_path / "in.csv"
    pd.DataFrame({"pid": [f"p{i}" for i in range(n)], "q": [f"question {i}" for i in range(n)]}).to_csv(p, index=False)
    return p


def _gen_args(inp: Path, out: Path, url: str) -> list[str]:
    return ["generate", "--no-progress", "--input", str(inp), "--id-column", "pid", "--text-column", "q",
            "--model", SPEC, "--base-url", url, "--api-key-env", "BATCH_TEST_KEY", "--batch-poll-interval", "0.02",
            "--out", str(out)]


def _start_cli(args: list[str]) -> subprocess.Popen:
    """The CLI in its own process; its output goes to a file (a pipe nobody reads could fill up and block it)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1] / "src"),
                                                        os.environ.get("PYTHONPATH", "")])}
    env["PYTHONFAULTHANDLER"] = "1"  # SIGABRT then dumps every thread's stack into the log (see _stops_after_ctrl_c)
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "clinaudit", *args], env=env, stdout=log, stderr=subprocess.STDOUT,
                            preexec_fn=_default_sigint)
    proc.log = log  # type: ignore[attr-defined]
    return proc


def _output(proc: subprocess.Popen) -> str:
    proc.log.seek(0)  # type: ignore[attr-defined]
    return proc.log.read().decode(errors="replace")[-4000:]  # type: ignore[attr-defined]


def _default_sigint() -> None:
    """In the child before exec: SIGINT delivered and handled as in a terminal, whatever this test process's
    threads have set (an ignored or blocked signal would be inherited)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])


def _stops_after_ctrl_c(proc: subprocess.Popen, timeout: float = 20) -> int:
    """Ctrl-C, and a second one (as a user would) if the first has not stopped it within ``timeout`` s."""
    for _ in range(2):
        proc.send_signal(signal.SIGINT)
        try:
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
    proc.send_signal(signal.SIGABRT)  # faulthandler: where every thread is
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    pytest.fail(f"clinaudit did not stop after two Ctrl-C ({timeout:g} s each); its output:\n{_output(proc)}")


def _wait_for_polls(stub: StubBatchAPI, proc: subprocess.Popen, polls: int) -> None:
    deadline = time.monotonic() + 60
    while stub.polls < polls and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    assert stub.polls >= polls, _output(proc) if proc.poll() is not None else "no poll within 60 s"


def test_generate_killed_after_the_batch_is_created_reattaches_on_rerun(tmp_path):
    inp, out = _input(tmp_path, 8), tmp_path / "run"
    with StubBatchAPI(api_key=KEY, hold=True) as stub:
        # Ctrl-C while waiting: the command stops at once (it does not wait for the batch to end)
        proc = _start_cli(_gen_args(inp, out, stub.base_url))
        try:
            _wait_for_polls(stub, proc, 2)
            assert _stops_after_ctrl_c(proc) == 130, _output(proc)
        finally:
            proc.kill()
        # kill -9 while waiting, in the re-attached run
        proc = _start_cli(_gen_args(inp, out, stub.base_url))
        try:
            _wait_for_polls(stub, proc, 4)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        assert stub.created == 1
        assert [s["batch_id"] for s in _state(out)] == ["batch_1"]  # kept in the run directory
        stub.hold = False
        assert main(_gen_args(inp, out, stub.base_url)) == 0
        assert (stub.created, stub.uploads) == (1, 1)
    df = pd.read_csv(out / "responses.csv")
    assert df["error"].isna().all() and len(df) == 8
    assert list(df["response"]) == [stub_answer("stub-model", f"question {i}", 0) for i in range(8)]
    assert dict(stub.answered_by_prompt) == {f"question {i}": 1 for i in range(8)}
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["models"][0]["state_dir"] == str(out / "batches")
    for p in out.rglob("*"):
        if p.is_file():
            assert KEY.encode() not in p.read_bytes(), p


# ---- specs and the estimate ---------------------------------------------------------------------------


def test_a_spec_run_keeps_batch_state_in_its_run_directory(tmp_path):
    import yaml

    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import make_context

    spec = yaml.safe_load((Path(__file__).parents[1] / "examples" / "note_generation-mock.yaml").read_text(encoding="utf-8"))
    spec["models"]["target"] = SPEC  # no backends entry: the run directory still holds its state
    spec["models"]["judge"] = "openai-batch:judge-model"
    spec["backends"]["openai-batch:judge-model"] = {"base_url": "http://h/v1", "state_dir": str(tmp_path / "mine"),
                                                    "batch_discount": 0.4}
    parsed, params = parse_spec_dict(spec, "spec.yaml")
    ctx = make_context(parsed, params, tmp_path / "run", progress=False)
    try:
        assert ctx.runner.backend(SPEC).state_dir == tmp_path / "run" / "batches"
        judge = ctx.runner.backend("openai-batch:judge-model")
        assert judge.state_dir == tmp_path / "mine" and judge.batch_discount == 0.4
    finally:
        ctx.rundir.close()
    bad = {**spec, "backends": {**spec["backends"], "openai-batch:judge-model": {"max_request_per_batch": 10}}}
    with pytest.raises(SpecError, match="did you mean .max_requests_per_batch."):
        parse_spec_dict(bad, "spec.yaml")


@pytest.mark.slow
def test_a_spec_runs_its_target_through_batches_and_a_rerun_creates_none(tmp_path):
    import yaml

    from clinaudit.pipeline import run_spec

    spec = yaml.safe_load((Path(__file__).parents[1] / "examples" / "note_generation-mock.yaml").read_text(encoding="utf-8"))
    spec["models"]["target"] = SPEC
    spec["params"]["n_bootstrap"] = 50
    with StubBatchAPI(api_key=KEY) as stub:
        spec["backends"][SPEC] = {"base_url": stub.base_url, "api_key_env": "BATCH_TEST_KEY", "poll_interval_s": 0.01}
        path = tmp_path / "spec.yaml"
        path.write_text(yaml.safe_dump(spec), encoding="utf-8")
        run_spec(path, tmp_path / "run", progress=False)
        created = stub.created
        assert created >= 1 and sum(stub.answered_by_prompt.values()) >= 1
        run_spec(path, tmp_path / "run", progress=False, resume=True)
        assert stub.created == created  # everything came from the cache
    assert {p.parent for p in (tmp_path / "run" / "batches").glob("*.json")} == {tmp_path / "run" / "batches"}
    resp = pd.read_csv(tmp_path / "run" / "tables" / "responses.csv") if (tmp_path / "run" / "tables" / "responses.csv").exists() \
        else pd.read_parquet(next((tmp_path / "run" / "tables").glob("responses.*")))
    target = resp[resp["model"] == SPEC]
    assert len(target) >= 1 and target["error"].isna().all()


def test_estimate_applies_the_batch_discount_to_prices():
    assert effective_prices(SPEC, {"price_per_1k_input": 0.002, "price_per_1k_output": 0.008}) == \
        ({"price_per_1k_input": 0.001, "price_per_1k_output": 0.004}, 0.5)
    assert effective_prices(SPEC, {"price_per_1k_input": 0.002, "batch_discount": 0.25})[0] == \
        {"price_per_1k_input": pytest.approx(0.0015)}
    assert effective_prices("openai:m", {"price_per_1k_input": 0.002}) == ({"price_per_1k_input": 0.002}, None)
    est = Estimate(calls={SPEC: 100, "openai:m": 100}, prompt_tokens={SPEC: 10_000, "openai:m": 10_000})
    text = est.to_text({SPEC: {"price_per_1k_input": 0.002}, "openai:m": {"price_per_1k_input": 0.002}})
    lines = {line.split()[0]: line for line in text.splitlines() if line.startswith("  openai")}
    assert "~$0.02 input" in lines["openai:m"]
    assert "~$0.01 input (batch price: 50% off)" in lines[SPEC]


def test_a_batch_the_server_no_longer_knows_fails_its_requests_and_the_next_run_sends_them_again(tmp_path):
    reqs = _requests(3)
    with StubBatchAPI(api_key=KEY, hold=True) as stub:
        _runner(tmp_path, stub.base_url, max_wait_s=0.05).generate(reqs)
        del stub.batches["batch_1"]  # deleted at the provider (or state from another account)
        out = _runner(tmp_path, stub.base_url).generate(reqs)
        assert all("ended 'not found'" in r.error and "HTTP 404" in r.error for r in out)
        assert stub.created == 1
        stub.hold = False
        out = _runner(tmp_path, stub.base_url).generate(reqs)
        assert stub.created == 2 and all(r.error is None for r in out)


def test_with_another_executor_batch_requests_stay_in_this_process_as_one_list(tmp_path):
    """An executor (e.g. Ray) gets the other models' calls; openai-batch's stay whole, here (one batch, not one
    per chunk of an actor)."""
    from clinaudit.executors.local import Executor
    from clinaudit.records import ModelResponse

    class Recording(Executor):
        name = "recording"

        def __init__(self):
            self.sent: list[str] = []

        async def dispatch(self, runner, requests, bar):
            self.sent += [r.model for r in requests.values()]
            return {k: runner.store(k, r, ModelResponse(request_key=k, model=r.model, text="elsewhere"))
                    for k, r in requests.items()}

    with StubBatchAPI(api_key=KEY) as stub:
        runner = _runner(tmp_path, stub.base_url)
        executor = Recording().attach(runner).executor
        out = runner.generate(_requests(4) + _requests(3, model="mock"))
        assert stub.created == 1 and stub.lines_per_file == [4]
    assert executor.sent == ["mock"] * 3
    assert [r.text for r in out[4:]] == ["elsewhere"] * 3 and all(r.error is None for r in out[:4])
