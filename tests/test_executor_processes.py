"""The processes executor: a run's uncached calls from worker processes of this machine.

Everything talks to loopback stubs this module starts. Worker processes are spawned (a fresh
interpreter each, ~0.5 s), so each test starts at most one pool of two workers.

* ``clinaudit generate --executor processes`` writes the same responses.csv, byte for byte, as the
  same command run locally; ``clinaudit run`` of a mock spec writes the same tables;
* a worker that dies mid-run: a clear error, every chunk returned before is stored, a re-run sends
  only what the cache lacks;
* the runner's window pipeline with an executor: answers handed on in order, the next window
  cancelled when the caller stops;
* ``Runner.store_many``: one transaction per group, the same accounting as ``store``.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from clinaudit.cache import ResponseCache
from clinaudit.errors import BackendError, InputError
from clinaudit.executors import Executor, make_executor
from clinaudit.executors.processes import ProcessExecutor
from clinaudit.models.base import Backend
from clinaudit.records import ModelRequest, ModelResponse
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.pipeline import run_spec

from executor_checks import assert_same_tables, generate_locally_and_with
from stub_openai_server import StubOpenAI, stub_answer

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_generate_from_worker_processes_writes_the_responses_of_a_local_generate(tmp_path, capsys):
    answered = generate_locally_and_with(tmp_path, ["--executor", "processes", "--shards", "2"], rows=40)
    out = capsys.readouterr().out
    assert out.count("80/80 responses") == 2 and "model calls: 80 new, 0 from cache, 0 failed" in out
    for name in ("responses.csv", "tables/responses.csv"):
        assert (tmp_path / "other" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name
    # each run asked every prompt twice (two seeds): nothing sent twice by the executor
    assert set(answered) == {f"question {i}" for i in range(40)} and set(answered.values()) == {4}
    assert len(ResponseCache(tmp_path / "other" / "cache.sqlite")) == 80
    manifest = json.loads((tmp_path / "other" / "manifest.json").read_text())
    assert manifest["runs"][-1]["executor"] == {"executor": "processes", "shards": 2, "chunk_size": None}


@pytest.mark.slow  # two runs of the treatment-shift mock spec (~10 s)
def test_run_with_the_processes_executor_writes_the_tables_of_a_local_run(tmp_path, capsys):
    from clinaudit.cli.main import main

    spec = EXAMPLES / "treatment_shift-mock.yaml"
    local = run_spec(spec, tmp_path / "local", progress=False)
    assert main(["run", str(spec), "--out", str(tmp_path / "procs"), "--no-progress", "--executor", "processes",
                 "--shards", "2"]) == 0
    calls = int(local.manifest["runs"][-1]["usage_total"]["calls"])
    assert f"model calls: {calls} new, 0 from cache, 0 failed" in capsys.readouterr().out
    assert_same_tables(tmp_path / "local", tmp_path / "procs")
    manifest = json.loads((tmp_path / "procs" / "manifest.json").read_text())
    assert manifest["spec"]["runner"]["executor"] == "processes" and manifest["spec"]["runner"]["shards"] == 2


class DieOn(Backend):
    """The loopback stub's model through the real openai backend; the worker process asked for the prompt
    ``fatal`` exits at once (``os._exit``), as a worker killed by the kernel would."""

    name = "die-on"
    is_remote = True

    def __init__(self, spec: str, *, base_url: str, fatal: str):
        super().__init__(spec)
        self.base_url, self.fatal = base_url, fatal
        self._inner: Any = None

    def identity(self) -> str:
        return f"{self.spec}@{self.base_url}"

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_inner": None}

    async def agenerate(self, request: ModelRequest) -> ModelResponse:
        if request.messages[-1].content == self.fatal:
            os._exit(1)
        if self._inner is None:
            from clinaudit.models.openai_compat import OpenAICompatBackend

            self._inner = OpenAICompatBackend(self.spec.replace("die-on:", "openai:"), base_url=self.base_url,
                                              api_key_env="CLINAUDIT_TEST_UNSET_KEY")
        return await self._inner.agenerate(request)

    async def aclose(self) -> None:
        if self._inner is not None:
            await self._inner.aclose()


def test_a_worker_that_dies_is_a_clear_error_and_the_rerun_sends_only_what_the_cache_lacks(tmp_path):
    prompts = [f"question {i}" for i in range(24)]
    requests = [ModelRequest.chat("die-on:stub", p, seed=0) for p in prompts]
    with StubOpenAI() as stub:
        runner = Runner(cache=ResponseCache(tmp_path / "cache.sqlite"),
                        config=RunnerConfig(concurrency=2, max_retries=0, progress=False))
        runner.add_backend(DieOn("die-on:stub", base_url=stub.base_url, fatal=prompts[-1]))
        executor = ProcessExecutor(shards=2, chunk_size=4).attach(runner).executor
        try:
            with pytest.raises(BackendError, match="worker process of the processes executor died.*re-run"):
                runner.generate(requests)
        finally:
            executor.close()
        stored = runner.cache.get_many([runner.request_key(q) for q in requests])
        # the chunks that came back before the crash are stored (the fatal prompt's chunk never is)
        assert runner.request_key(requests[-1]) not in stored
        assert len(stored) == runner.usage["die-on:stub"].calls and len(stored) % 4 == 0
        assert {r.text for r in stored.values()} <= {stub_answer("stub", p, 0) for p in prompts}
        # the re-run (locally, the fatal prompt answered this time) sends exactly what the cache lacks
        stub.reset_counters()
        again = Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=RunnerConfig(progress=False))
        again.add_backend(DieOn("die-on:stub", base_url=stub.base_url, fatal="-"))
        resps = again.generate(requests)
        assert again.usage["die-on:stub"].cache_hits == len(stored)
        assert stub.total == len(requests) - len(stored)
        assert [r.text for r in resps] == [stub_answer("stub", p, 0) for p in prompts]


class _Echo(Executor):
    """An in-process executor answering from a mock backend, recording each window it is handed."""

    name = "echo"

    def __init__(self) -> None:
        self.windows: list[int] = []

    async def dispatch(self, runner: Any, requests: dict[str, Any], bar: Any) -> dict[str, Any]:
        self.windows.append(len(requests))
        await asyncio.sleep(0.01)
        items = [(k, q, _resp(text=f"echo {q.messages[-1].content}")) for k, q in requests.items()]
        return dict(zip(requests, runner.store_many(items)))


def test_streaming_with_an_executor_hands_answers_on_in_order_a_window_at_a_time(tmp_path):
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False, window=3))
    runner.add_backend(_mock())
    ex = _Echo()
    ex.attach(runner)
    requests = [ModelRequest.chat("mock:x", f"q{i}") for i in range(8)]
    seen: list[str] = []
    runner.generate_each(iter(requests), lambda q, r: seen.append(r.text))
    assert seen == [f"echo q{i}" for i in range(8)]
    assert ex.windows == [3, 3, 2]
    assert len(runner.cache) == 8 and runner.usage["mock:x"].calls == 8


def test_a_caller_that_stops_cancels_the_window_already_sent(tmp_path):
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False, window=2))
    runner.add_backend(_mock())
    ex = _Echo()
    ex.attach(runner)

    def stop(q: ModelRequest, r: ModelResponse) -> None:
        raise KeyError("the caller stops")

    loop = asyncio.new_event_loop()
    try:
        with pytest.raises(KeyError):
            loop.run_until_complete(runner.agenerate_each([ModelRequest.chat("mock:x", f"q{i}") for i in range(6)],
                                                          stop))
        # no window is left running after the caller stopped
        assert [t for t in asyncio.all_tasks(loop) if not t.done()] == []
    finally:
        loop.close()
    assert ex.windows[:1] == [2] and len(ex.windows) <= 2


def _resp(**fields: Any) -> ModelResponse:
    """A backend's fresh answer (``request_key`` and ``model`` are filled in when it is stored)."""
    return ModelResponse(request_key="", model="", **fields)


def _mock() -> Backend:
    from clinaudit.models.base import get_backend

    return get_backend("mock:x", rules=[{"match": ".", "response": "mock"}])


def test_store_many_commits_a_group_in_one_transaction_with_stores_accounting(tmp_path):
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False))
    runner.add_backend(_mock())
    reqs = [ModelRequest.chat("mock:x", f"q{i}") for i in range(3)]
    commits: list[int] = []
    put_many = runner.cache.put_many
    runner.cache.put_many = lambda items: commits.append(len(list(items := list(items)))) or put_many(items)
    ok = [_resp(text="a", prompt_tokens=2, completion_tokens=3), _resp(text="b"), _resp(error="HTTP 500 from x")]
    out = runner.store_many((runner.request_key(q), q, r) for q, r in zip(reqs, ok))
    assert commits == [2]  # one transaction, the failure never cached
    assert [r.model for r in out] == ["mock:x"] * 3 and out[0].request_key == runner.request_key(reqs[0])
    usage = runner.usage["mock:x"]
    assert (usage.calls, usage.failures, usage.prompt_tokens, usage.completion_tokens) == (2, 1, 2, 3)
    assert set(runner.cache.get_many([runner.request_key(q) for q in reqs])) == {runner.request_key(q)
                                                                                for q in reqs[:2]}


def test_store_many_with_fail_fast_commits_what_came_before_the_failure(tmp_path):
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False, fail_fast=True))
    runner.add_backend(_mock())
    reqs = [ModelRequest.chat("mock:x", f"q{i}") for i in range(3)]
    resps = [_resp(text="a"), _resp(error="boom"), _resp(text="c")]
    with pytest.raises(BackendError, match="fail_fast"):
        runner.store_many((runner.request_key(q), q, r) for q, r in zip(reqs, resps))
    assert list(runner.cache.get_many([runner.request_key(q) for q in reqs])) == [runner.request_key(reqs[0])]


def test_make_executor_processes_settings():
    from clinaudit.executors.processes import default_workers

    ex = make_executor("processes", shards=3)  # at most the usable CPUs (at least 2)
    assert isinstance(ex, ProcessExecutor) and ex.describe() == {"executor": "processes",
                                                                 "shards": min(3, default_workers()),
                                                                 "chunk_size": None}
    with pytest.raises(InputError, match="--ray-address only applies to the ray executor"):
        make_executor("processes", address="auto")
    with pytest.raises(InputError, match="--shards must be at least 1"):
        ProcessExecutor(shards=0)
    ex.close()  # never started: nothing to stop


def test_a_worker_keeps_its_connections_from_chunk_to_chunk_and_closes_them_at_the_end():
    # ShardWorker answers each chunk on one loop kept for its life: the openai backend's client (its pool of
    # keep-alive connections) is the same object for the second chunk; close() closes it. A runner whose loop
    # ends with the batch (keep_connections False, the default) closes the client at the end of each batch.
    from clinaudit.executors.shard_worker import ShardWorker, backend_recipes

    with StubOpenAI() as stub:
        driver = Runner(config=RunnerConfig(progress=False),
                        backend_options={"openai:stub": {"base_url": stub.base_url,
                                                         "api_key_env": "CLINAUDIT_TEST_UNSET_KEY"}})
        recipes = backend_recipes(driver, {"openai:stub"})
        worker = ShardWorker({"concurrency": 4, "progress": False})
        clients = []
        for c in range(2):
            resps, _ = worker.run_chunk(recipes, [ModelRequest.chat("openai:stub", f"chunk {c} q{i}", seed=0)
                                                  for i in range(6)])
            assert [r.text for r in resps] == [stub_answer("stub", f"chunk {c} q{i}", 0) for i in range(6)]
            backend = worker.runner.backend("openai:stub")
            (entry,) = backend._clients.values()
            clients.append(entry[1])
        assert clients[0] is clients[1] and not clients[1].closed
        worker.close()
        assert clients[1].closed and worker._loop.is_closed()
        # the default runner closes its client when the batch ends (and drops it: the next batch opens a new one)
        seen = []
        backend = driver.backend("openai:stub")
        real_client = backend._client
        backend._client = lambda: seen.append(real_client()) or seen[-1]
        assert driver.generate([ModelRequest.chat("openai:stub", "once", seed=0)])[0].error is None
        assert seen and seen[-1].closed and backend._clients == {}
