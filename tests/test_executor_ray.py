"""The ray executor (issue 15, item 1), on a local Ray instance started by this module.

One Ray instance for the whole module (starting Ray costs ~10 s on the 2-core test machine):
``num_cpus=2``, no dashboard, shut down at the end. Everything talks to loopback only.

* the treatment-shift and note-generation mock specs write the same tables with
  ``--executor ray --shards 3`` as with the local executor (rows in any order, ``latency_s`` aside);
* a worker killed mid-run (``os._exit`` once, on its second chunk, after that chunk's calls were
  answered): the run completes, every answer is stored exactly once, calls of chunks finished
  before the crash are not sent again (the loopback stub counts requests per prompt);
* a resumed run sends only what the cache lacks, whichever executor ran before.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from clinaudit.cache import ResponseCache
from clinaudit.executors.ray_executor import RayExecutor
from clinaudit.models.base import Backend
from clinaudit.records import ModelRequest, ModelResponse
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.pipeline import run_spec

from executor_checks import assert_same_tables, generate_locally_and_with
from stub_openai_server import StubOpenAI, stub_answer

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.slow  # Ray startup (~10 s) and actor startup (~2 s each) on 2 cores

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    # classes defined in this test module travel to the workers by value (workers cannot import it)
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield
    ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    if started:
        ray.shutdown()


@pytest.mark.parametrize("example", ["treatment_shift-mock.yaml", "note_generation-mock.yaml"])
def test_ray_run_writes_the_tables_of_a_local_run(tmp_path, example, capsys):
    from clinaudit.cli.main import main

    spec = EXAMPLES / example
    local = run_spec(spec, tmp_path / "local", progress=False)
    assert local.manifest["status"] == "complete"
    code = main(["run", str(spec), "--out", str(tmp_path / "ray"), "--no-progress", "--executor", "ray",
                 "--shards", "3"])
    assert code == 0
    out = capsys.readouterr().out
    calls = int(local.manifest["runs"][-1]["usage_total"]["calls"])
    assert f"model calls: {calls} new, 0 from cache, 0 failed" in out  # the same calls, none answered twice
    assert_same_tables(tmp_path / "local", tmp_path / "ray")
    import json

    manifest = json.loads((tmp_path / "ray" / "manifest.json").read_text())
    assert manifest["spec"]["runner"]["executor"] == "ray" and manifest["spec"]["runner"]["shards"] == 3
    # resuming the finished run with the local executor: every call comes from the cache
    again = run_spec(spec, tmp_path / "ray", progress=False)
    usage = again.manifest["runs"][-1]["usage_total"]
    assert int(usage["calls"]) == 0 and int(usage["cache_hits"]) > 0


def test_generate_on_ray_writes_the_responses_of_a_local_generate(tmp_path, capsys):
    # clinaudit generate --executor ray --shards 2: the same responses.csv, byte for byte, as the same command
    # run locally (each into its own directory and cache); the stub answers every prompt once per run
    answered = generate_locally_and_with(tmp_path, ["--executor", "ray", "--shards", "2"], rows=30)
    out = capsys.readouterr().out
    assert out.count("60/60 responses") == 2 and "model calls: 60 new, 0 from cache, 0 failed" in out
    local = (tmp_path / "local" / "responses.csv").read_bytes()
    assert (tmp_path / "other" / "responses.csv").read_bytes() == local
    assert (tmp_path / "other" / "tables" / "responses.csv").read_bytes() == (
        tmp_path / "local" / "tables" / "responses.csv").read_bytes()
    assert set(answered) == {f"question {i}" for i in range(30)} and set(answered.values()) == {4}
    assert len(ResponseCache(tmp_path / "other" / "cache.sqlite")) == 60


class CrashOnce(Backend):
    """The loopback stub's model, through the real openai backend; the worker process that completes
    its ``crash_at``-th call exits at once (``os._exit``) — once per marker file, across all workers."""

    name = "crash-once"
    is_remote = True

    def __init__(self, spec: str, *, base_url: str, marker: str, crash_at: int):
        super().__init__(spec)
        self.base_url, self.marker, self.crash_at = base_url, marker, crash_at
        self._inner: Any = None
        self._done = 0

    def identity(self) -> str:
        return f"{self.spec}@{self.base_url}"

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_inner": None, "_done": 0}

    async def agenerate(self, request: ModelRequest) -> ModelResponse:
        if self._inner is None:
            from clinaudit.models.openai_compat import OpenAICompatBackend

            self._inner = OpenAICompatBackend(self.spec.replace("crash-once:", "openai:"), base_url=self.base_url,
                                              api_key_env="CLINAUDIT_TEST_UNSET_KEY")
        resp = await self._inner.agenerate(request)
        self._done += 1
        if self._done == self.crash_at:
            try:
                fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                return resp
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            os._exit(1)  # the answer was received but never returned to the driver
        return resp

    async def aclose(self) -> None:
        if self._inner is not None:
            await self._inner.aclose()


class CountingRunner(Runner):
    """Counts how often each answer is stored (``store`` and ``store_many`` are the executor's only ways into
    the cache)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.stored: Counter[str] = Counter()

    def store(self, key: str, request: ModelRequest, resp: ModelResponse) -> ModelResponse:
        self.stored[key] += 1
        return super().store(key, request, resp)

    def store_many(self, items: Any) -> list[ModelResponse]:
        items = list(items)
        self.stored.update(key for key, _, _ in items)
        return super().store_many(items)


def _requests(n_cases: int, per_case: int) -> list[ModelRequest]:
    return [ModelRequest.chat("crash-once:stub", f"case {c} question {q}", seed=c, meta={"case_id": f"c{c}"})
            for c in range(n_cases) for q in range(per_case)]


def test_a_worker_killed_mid_run_loses_nothing_and_repeats_no_finished_chunk(tmp_path):
    chunk = 4
    with StubOpenAI(delay_s=0.01) as stub:
        backend = CrashOnce("crash-once:stub", base_url=stub.base_url, marker=str(tmp_path / "crashed"),
                            crash_at=chunk + 2)  # in the worker's second chunk, its first chunk already returned
        runner = CountingRunner(cache=ResponseCache(tmp_path / "cache.sqlite"),
                                config=RunnerConfig(concurrency=3, max_retries=0, progress=False))
        runner.add_backend(backend)
        executor = RayExecutor(shards=3, chunk_size=chunk).attach(runner).executor
        requests = _requests(n_cases=12, per_case=3)
        try:
            resps = runner.generate(requests)
        finally:
            executor.close()
        assert (tmp_path / "crashed").is_file(), "no worker crashed: the test did not test anything"
        import psutil

        assert not psutil.pid_exists(int((tmp_path / "crashed").read_text()))
        # the run completed: every answer is the stub's, none failed
        assert [r.error for r in resps] == [None] * len(requests)
        assert [r.text for r in resps] == [stub_answer("stub", q.messages[-1].content, q.seed) for q in requests]
        # every answer stored exactly once, and all are in the cache
        keys = [runner.request_key(q) for q in requests]
        assert runner.stored == Counter(keys)
        assert set(runner.cache.get_many(keys)) == set(keys)
        assert runner.usage["crash-once:stub"].calls == len(requests)
        # only the crashed chunk was sent again: at most `chunk` prompts twice, every other prompt once
        sent = stub.requests_by_prompt
        assert set(sent) == {q.messages[-1].content for q in requests}
        twice = [p for p, n in sent.items() if n == 2]
        assert max(sent.values()) <= 2 and 1 <= len(twice) <= chunk
        assert sum(sent.values()) == len(requests) + len(twice)


def test_a_resumed_run_sends_only_what_the_cache_lacks_whichever_executor_ran_first(tmp_path):
    with StubOpenAI() as stub:
        requests = [ModelRequest.chat("openai:stub", f"question {i}", seed=0, meta={"case_id": f"c{i % 5}"})
                    for i in range(20)]
        options = {"openai:stub": {"base_url": stub.base_url, "api_key_env": "CLINAUDIT_TEST_UNSET_KEY"}}
        cache = tmp_path / "cache.sqlite"
        local = Runner(cache=ResponseCache(cache), config=RunnerConfig(progress=False), backend_options=options)
        local.generate(requests[:8])  # a local run that stopped after 8 calls
        distributed = Runner(cache=ResponseCache(cache), config=RunnerConfig(progress=False), backend_options=options)
        executor = RayExecutor(shards=2).attach(distributed).executor
        try:
            resps = distributed.generate(requests)
            assert distributed.usage["openai:stub"].calls == 12 and distributed.usage["openai:stub"].cache_hits == 8
            assert stub.requests_by_prompt == Counter({q.messages[-1].content: 1 for q in requests})
            assert [r.cached for r in resps] == [True] * 8 + [False] * 12
            # and back: a local run after the Ray run finds everything
            again = Runner(cache=ResponseCache(cache), config=RunnerConfig(progress=False), backend_options=options)
            assert [r.text for r in again.generate(requests)] == [r.text for r in resps]
            assert again.usage["openai:stub"].calls == 0 and stub.total == 20
        finally:
            executor.close()


def test_a_pool_of_vllm_style_servers_through_the_ray_executor(tmp_path, monkeypatch):
    """vLLM serves an OpenAI-compatible API: a spec points `openai:<served name>` at a pool of such servers
    (here two loopback stubs, no API key, as `vllm serve` without --api-key) and runs with --executor ray."""
    import json

    import yaml

    from clinaudit.spec import parse_spec_dict
    from stub_openai_server import prompt_of

    monkeypatch.delenv("CLINAUDIT_TEST_UNSET_KEY", raising=False)
    data = yaml.safe_load((EXAMPLES / "treatment_shift-mock.yaml").read_text())
    with StubOpenAI(delay_s=0.01) as gpu1, StubOpenAI(delay_s=0.01) as gpu2:
        data["models"]["target"] = ["openai:llama8b"]
        data["backends"] = {"openai:llama8b": {"base_url": [gpu1.base_url, gpu2.base_url],
                                               "api_key_env": "CLINAUDIT_TEST_UNSET_KEY"},
                            "mock:judge": data["backends"]["mock:judge"]}
        spec, params = parse_spec_dict(data, source="vllm-style spec")
        rd = run_spec(spec, tmp_path / "run", params=params, progress=False, executor="ray", shards=2)
        assert rd.manifest["status"] == "complete"
        sent = Counter((prompt_of(b), b.get("seed")) for b in gpu1.bodies + gpu2.bodies)
        assert gpu1.bodies and gpu2.bodies  # both servers of the pool answered
        assert not any("authorization" in h for h in gpu1.headers + gpu2.headers)  # no key configured, none sent
    responses = pd.read_csv(tmp_path / "run" / "tables" / "responses.csv", keep_default_na=False)
    target = responses[responses["model"] == "openai:llama8b"]
    assert len(target) > 0 and set(sent.values()) == {1}  # every distinct request sent once, to one server
    assert len(sent) == target["request_key"].nunique()
    for _, row in target.iterrows():
        prompt = json.loads(row["messages"])[-1]["content"]
        assert row["text"] == stub_answer("llama8b", prompt, int(row["seed"]))


class LoadCounting(Backend):
    """A local-model stand-in that records (in a file) every time a process loads its 'weights'."""

    name = "load-counting"
    is_remote = False
    batch_size = 4

    def __init__(self, spec: str, *, log: str):
        super().__init__(spec)
        self.log = log
        self._loaded = False

    def generate(self, requests):
        if not self._loaded:
            with open(self.log, "a") as fh:
                fh.write(f"{os.getpid()}\n")
            self._loaded = True
        return [ModelResponse(request_key="", model=self.spec, text=f"local answer to {r.prompt_text()}")
                for r in requests]


def test_a_local_model_is_loaded_once_per_actor(tmp_path):
    log = tmp_path / "loads.txt"
    runner = Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=RunnerConfig(progress=False))
    runner.add_backend(LoadCounting("load-counting:m", log=str(log)))
    executor = RayExecutor(shards=2, chunk_size=4).attach(runner).executor
    try:
        for part in range(3):  # three batches of calls (e.g. three stages): the actors keep their model
            reqs = [ModelRequest.chat("load-counting:m", f"q{part}-{i}", meta={"case_id": f"c{i}"}) for i in range(16)]
            assert [r.text for r in runner.generate(reqs)] == [f"local answer to user: q{part}-{i}" for i in range(16)]
    finally:
        executor.close()
    pids = log.read_text().split()
    assert len(pids) == 2 and len(set(pids)) == 2 and str(os.getpid()) not in pids  # one load per actor
