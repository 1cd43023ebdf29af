"""Runner: concurrency, retries, timeouts, rate limit, caching and accounting.

Remote behaviour is tested against the loopback OpenAI-compatible stub with
fault injection; local batching with the mock backend.
"""

from __future__ import annotations

import sqlite3
import time

import numpy as np
import pytest

from clinaudit.cache import ResponseCache
from clinaudit.models.base import MaskedItem
from clinaudit.models.mock import MockBackend
from clinaudit.records import ModelRequest
from clinaudit.runner import Runner, RunnerConfig

from stub_openai_server import StubOpenAI, StubProcess, stub_answer

KEY = "sk-runner-test-secret-987654321"
SPEC = "openai:stub"


@pytest.fixture()
def keyed(monkeypatch):
    monkeypatch.setenv("RUNNER_TEST_KEY", KEY)
    return "RUNNER_TEST_KEY"


def _runner(stub: StubOpenAI, cache: ResponseCache | None, keyed: str, **cfg) -> Runner:
    config = RunnerConfig(**{"concurrency": 32, "timeout_s": 2.0, "backoff_base_s": 0.01, "backoff_max_s": 0.2,
                             "progress": False, **cfg})
    return Runner(cache=cache, config=config,
                  backend_options={SPEC: {"base_url": stub.base_url, "api_key_env": keyed}})


def _requests(n: int = 200) -> list[ModelRequest]:
    return [ModelRequest.chat(SPEC, f"patient question {i}", seed=0, meta={"i": i}) for i in range(n)]


def _cache_rows(path) -> tuple[int, int]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM responses").fetchone()


def test_200_requests_at_concurrency_32_all_succeed_in_order(tmp_path, keyed):
    # Stub in its own process and a generous timeout: no answer is mistaken for a timeout on a busy machine.
    with StubProcess(api_key=KEY, delay_s=0.02) as stub:
        runner = _runner(stub, ResponseCache(tmp_path / "c.sqlite"), keyed, timeout_s=60.0)
        out = runner.generate(_requests())
        stats = stub.stats()
    assert [r.text for r in out] == [stub_answer("stub", f"patient question {i}", 0) for i in range(200)]
    assert [r.meta["i"] for r in out] == list(range(200))
    assert stats["total"] == 200 and set(stats["ok_by_prompt"].values()) == {1}
    assert 8 <= stats["max_in_flight"] <= 32  # really concurrent, never above the limit
    u = runner.usage[SPEC]
    assert (u.calls, u.cache_hits, u.failures, u.retries) == (200, 0, 0, 0)
    assert u.prompt_tokens == 600  # "patient question i" = 3 words each


def test_injected_faults_still_store_each_response_once_and_rerun_makes_no_requests(tmp_path, keyed):
    cache_path = tmp_path / "c.sqlite"
    # Client timeout 3 s; "slow" faults answer after 4 s. On a heavily loaded machine an ordinary answer
    # can also exceed the timeout and be asked again, so server-side counts are asserted as lower bounds;
    # the stored result must be exact whatever happens.
    with StubProcess(api_key=KEY, fault_rate=0.2, fault_seed=3, slow_s=4.0, retry_after=0.05) as stub:
        prompts = [f"patient question {i}" for i in range(200)]
        planned = {p: stub.planned_faults(p) for p in prompts}
        n_faulty = sum(1 for v in planned.values() if v)
        assert 25 <= n_faulty <= 55  # about 20% of the 200 prompts
        runner = _runner(stub, ResponseCache(cache_path), keyed, timeout_s=3.0)
        out = runner.generate(_requests())
        assert all(r.ok for r in out) and len(out) == 200
        assert [r.text for r in out] == [stub_answer("stub", p, 0) for p in prompts]
        stats = stub.stats()
        assert set(stats["faults"]) == {"429", "500", "slow", "drop"}  # every kind of fault happened
        assert sum(stats["faults"].values()) == sum(planned.values())
        assert all(stats["requests_by_prompt"][p] >= planned[p] + 1 for p in prompts)
        assert runner.usage[SPEC].retries >= sum(planned.values())
        assert all(r.attempts >= planned[p] + 1 for r, p in zip(out, prompts))
        assert _cache_rows(cache_path) == (200, 200)  # no duplicates, nothing lost

        # second identical run: zero requests reach the server
        stub.reset_counters()
        again = _runner(stub, ResponseCache(cache_path), keyed)
        out2 = again.generate(_requests())
        assert stub.stats()["total"] == 0
        assert [r.text for r in out2] == [r.text for r in out] and all(r.cached for r in out2)
        assert again.usage[SPEC].cache_hits == 200 and again.usage[SPEC].calls == 0


def test_non_retryable_error_fails_fast_and_is_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("BAD_KEY", "sk-bad-key-123456")
    with StubOpenAI(api_key=KEY) as stub:
        runner = _runner(stub, ResponseCache(tmp_path / "c.sqlite"), "BAD_KEY")
        (resp,) = runner.generate([ModelRequest.chat(SPEC, "q")])
    assert resp.error is not None and "HTTP 401" in resp.error and resp.attempts == 1
    assert stub.auth_failures == 1 and stub.total == 0 and runner.usage[SPEC].failures == 1
    assert _cache_rows(tmp_path / "c.sqlite") == (0, 0)


def test_gives_up_after_max_retries(tmp_path, keyed):
    with StubOpenAI(api_key=KEY, fault_rate=1.0, max_faults_per_prompt=1, fault_kinds=("500",)) as stub:
        stub.planned_faults = lambda prompt: 100  # type: ignore[method-assign]  # every attempt fails
        runner = _runner(stub, None, keyed, max_retries=2)
        (resp,) = runner.generate([ModelRequest.chat(SPEC, "q")])
    assert resp.error.startswith("gave up after 3 attempts: HTTP 500")
    assert stub.total == 3 and runner.usage[SPEC].retries == 2 and runner.usage[SPEC].failures == 1


def test_retry_after_is_honoured(keyed):
    with StubOpenAI(api_key=KEY, fault_rate=1.0, max_faults_per_prompt=1, fault_kinds=("429",), retry_after=0.4) as stub:
        runner = _runner(stub, None, keyed, backoff_max_s=5.0)  # Retry-After is honoured up to retry_after_max_s
        t0 = time.monotonic()
        (resp,) = runner.generate([ModelRequest.chat(SPEC, "q")])
        elapsed = time.monotonic() - t0
    assert resp.ok and resp.attempts == 2
    assert elapsed >= 0.4  # backoff alone would be ~0.01 s


def test_slow_response_times_out_and_is_retried(keyed):
    # The first answer is held back 6 s; the client gives up after 1 s and asks again. Margins are wide so a
    # busy machine cannot turn the ordinary second answer into a timeout: the point is not waiting 6 s.
    with StubOpenAI(api_key=KEY, fault_rate=1.0, max_faults_per_prompt=1, fault_kinds=("slow",), slow_s=6.0) as stub:
        runner = _runner(stub, None, keyed, timeout_s=1.0)
        t0 = time.monotonic()
        (resp,) = runner.generate([ModelRequest.chat(SPEC, "q")])
    assert resp.ok and resp.attempts >= 2 and time.monotonic() - t0 < 6.0


def test_rate_limit_spaces_call_starts(keyed):
    with StubOpenAI(api_key=KEY) as stub:
        runner = _runner(stub, None, keyed, rate_limit_per_min=600)  # one start per 0.1 s
        t0 = time.monotonic()
        out = runner.generate([ModelRequest.chat(SPEC, f"q{i}") for i in range(6)])
        elapsed = time.monotonic() - t0
    assert all(r.ok for r in out) and elapsed >= 0.5


def test_duplicate_requests_in_one_call_are_sent_once(keyed):
    with StubOpenAI(api_key=KEY) as stub:
        runner = _runner(stub, None, keyed)
        reqs = [ModelRequest.chat(SPEC, "same", meta={"row": i}) for i in range(5)]
        out = runner.generate(reqs)
    assert stub.total == 1
    assert [r.meta["row"] for r in out] == list(range(5)) and len({r.request_key for r in out}) == 1


def test_api_key_never_reaches_the_cache(tmp_path, keyed):
    with StubOpenAI(api_key=KEY) as stub:
        runner = _runner(stub, ResponseCache(tmp_path / "c.sqlite"), keyed)
        runner.generate(_requests(5))
        runner.cache.close()
    for f in tmp_path.iterdir():
        assert KEY.encode() not in f.read_bytes(), f


# ---- local backends -------------------------------------------------------------------------


def test_local_backend_runs_in_batches_of_batch_size(tmp_path):
    mock = MockBackend("mock", rules=[{"match": "q", "response": "answer seed={seed}"}])
    mock.batch_size = 4
    sizes: list[int] = []
    original = mock.generate
    mock.generate = lambda reqs: (sizes.append(len(reqs)), original(reqs))[1]  # type: ignore[method-assign]
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False))
    runner.add_backend(mock)
    reqs = [ModelRequest.chat("mock", f"q{i}", seed=i) for i in range(10)]
    out = runner.generate(reqs)
    assert sizes == [4, 4, 2]
    assert [r.text for r in out] == [f"answer seed={i}" for i in range(10)]
    assert runner.generate(reqs)[0].cached and sizes == [4, 4, 2]  # second run: all cached


def test_local_backend_failure_becomes_error_responses_not_cached(tmp_path):
    mock = MockBackend("mock")

    def boom(reqs):
        raise RuntimeError("out of memory")

    mock.generate = boom  # type: ignore[method-assign]
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False))
    runner.add_backend(mock)
    out = runner.generate([ModelRequest.chat("mock", "a"), ModelRequest.chat("mock", "b")])
    assert [r.error for r in out] == ["RuntimeError: out of memory"] * 2
    assert len(runner.cache) == 0 and runner.usage["mock"].failures == 2


def test_scores_are_cached_per_text(tmp_path):
    mock = MockBackend("mock")
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False))
    runner.add_backend(mock)
    a = runner.loglik("mock", ["the patient", "a cough", "the patient"])
    assert a[0] == a[2] and mock.loglik_calls == 1
    b = runner.loglik("mock", ["a cough", "the patient"])
    assert mock.loglik_calls == 1 and np.array_equal(b, a[[1, 0]])
    e1 = runner.embed("mock", ["x y", "z"])
    e2 = runner.embed("mock", ["z"])
    assert mock.embed_calls == 1 and np.allclose(e2[0], e1[1])


def test_masked_scores_cache_key_includes_targets(tmp_path):
    seen: list[list[MaskedItem]] = []
    mock = MockBackend("mock")
    mock.masked_logprobs = lambda items: (seen.append(list(items)), np.array([-float(sum(i.targets)) for i in items]))[1]  # type: ignore[method-assign]
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False))
    runner.add_backend(mock)
    items = [MaskedItem("he is [MASK]", (5,)), MaskedItem("he is [MASK]", (7,))]
    assert runner.masked_logprobs("mock", items).tolist() == [-5.0, -7.0]
    assert runner.masked_logprobs("mock", items[::-1]).tolist() == [-7.0, -5.0]
    assert len(seen) == 1


def test_connections_are_released_after_each_run_even_with_concurrent_runs(keyed):
    import asyncio

    with StubOpenAI(api_key=KEY, delay_s=0.01) as stub:
        runner = _runner(stub, None, keyed, concurrency=4)
        runner.generate([ModelRequest.chat(SPEC, f"a{i}") for i in range(5)])
        assert runner.backend(SPEC)._clients == {}  # HTTP client closed when the run ended

        async def two_runs():
            return await asyncio.gather(
                runner.agenerate([ModelRequest.chat(SPEC, f"b{i}") for i in range(20)]),
                runner.agenerate([ModelRequest.chat(SPEC, f"c{i}") for i in range(3)]),
            )

        first, second = asyncio.run(two_runs())  # the short run ending must not cut off the long one
    assert all(r.ok for r in first + second) and len(first) == 20
    assert runner.backend(SPEC)._clients == {}


def test_runner_defaults_are_declared_once():
    """The spec's `runner:`, the CLI's model-call options and the runner itself agree on every default."""
    import argparse

    from clinaudit.cli.common import add_runner_args, runner_config_from_args
    from clinaudit.runner import RunnerConfig
    from clinaudit.spec import RunnerSettings

    parser = argparse.ArgumentParser()
    add_runner_args(parser)
    from_cli = runner_config_from_args(parser.parse_args([]))
    spec, runner = RunnerSettings(), RunnerConfig()
    for name in ("concurrency", "max_retries", "timeout_s", "rate_limit_per_min", "retry_after_max_s"):
        assert getattr(from_cli, name) == getattr(spec, name) == getattr(runner, name), name
    assert spec.fail_fast is runner.fail_fast is False
    assert (runner.concurrency, runner.max_retries, runner.timeout_s, runner.retry_after_max_s) == (8, 6, 120.0, 60.0)
    assert "(default 120)" in parser.format_help() and "(default 8)" in parser.format_help()
