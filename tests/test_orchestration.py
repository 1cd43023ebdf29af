"""The runner's worker pools, group commit and streaming: every answer stored once, kill-safety, flat memory.

Against real loopback servers: ``fast_stub_server.FastStubProcess`` (asyncio, its own process) for
volume, ``stub_openai_server`` for latency.
"""

from __future__ import annotations

import csv
import http.client
import json
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.cache import ResponseCache
from clinaudit.cli.main import main
from clinaudit.models.mock import MockBackend
from clinaudit.records import ModelRequest
from clinaudit.runner import Runner, RunnerConfig

from fast_stub_server import FastStubProcess
from stub_openai_server import StubProcess, stub_answer

ROOT = Path(__file__).resolve().parents[1]


def _questions(path: Path, n: int, distinct: int | None = None) -> Path:
    distinct = distinct or n
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "question"])
        for i in range(n):
            w.writerow([f"q{i}", f"question {i % distinct}: a cough for {i % distinct % 30} days, what now?"])
    return path


def _cache_rows(path: Path) -> dict[str, str]:
    """prompt -> stored answer text, read straight from the SQLite file (read-only)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT request, response FROM responses").fetchall()
    out: dict[str, str] = {}
    for req, resp in rows:
        prompt = json.loads(req)["messages"][-1]["content"]
        assert prompt not in out, f"prompt stored twice: {prompt}"
        out[prompt] = json.loads(resp)["text"]
    return out


def _generate_argv(inp: Path, out: Path, url: str, concurrency: int) -> list[str]:
    return ["generate", "--input", str(inp), "--id-column", "id", "--text-column", "question", "--model",
            "openai:stub", "--base-url", url, "--concurrency", str(concurrency), "--no-progress", "--out", str(out)]


def test_generate_2000_calls_stores_every_answer_exactly_once(tmp_path, monkeypatch):
    """2,000 rows (1,900 distinct questions: 100 repeat an earlier one) through the worker pool."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    n, distinct = 2000, 1900
    inp = _questions(tmp_path / "q.csv", n, distinct)
    out = tmp_path / "run"
    with FastStubProcess() as stub:
        assert main(_generate_argv(inp, out, stub.base_url, 32)) == 0
        stats = stub.stats(full=True)
        # every distinct question asked exactly once; the repeats were answered from that one call
        assert stats["total"] == distinct and stats["distinct"] == distinct and stats["max_per_prompt"] == 1
        stored = _cache_rows(out / "cache.sqlite")
        assert len(stored) == distinct
        df = pd.read_csv(out / "responses.csv", keep_default_na=False)
        assert len(df) == n and list(df["id"]) == [f"q{i}" for i in range(n)]  # input order kept
        questions = pd.read_csv(inp)["question"]
        expected = [stub_answer("stub", q, 0) for q in questions]  # the stub's answer, recomputed independently
        assert list(df["response"]) == expected
        assert all(stored[q] == a for q, a in zip(questions, expected))
        assert df["request_key"].nunique() == distinct and (df["error"] == "").all()
        table = pd.read_csv(out / "tables" / "responses.csv", keep_default_na=False)
        assert list(table["response"]) == expected
        manifest = json.loads((out / "manifest.json").read_text())
        usage = manifest["runs"][-1]["usage"]["openai:stub"]
        assert (usage["calls"], usage["cache_hits"], usage["failures"]) == (distinct, n - distinct, 0)

        # a second run: nothing new asked, every row from the cache
        stub.reset_counters()
        assert main(_generate_argv(inp, out, stub.base_url, 32)) == 0
        assert stub.stats()["total"] == 0
        again = pd.read_csv(out / "responses.csv", keep_default_na=False)
        assert list(again["response"]) == expected and again["cached"].all()


def test_group_commit_kill_9_keeps_every_committed_answer_and_resume_asks_only_the_rest(tmp_path):
    """SIGKILL in the middle of a run: what the cache holds is a subset of what the stub answered, at most
    one commit group (+ calls in flight) behind it; the re-run asks exactly the calls not stored."""
    n, conc = 4000, 16
    inp = _questions(tmp_path / "q.csv", n)
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("OPENAI_API_KEY", None)
    with FastStubProcess() as stub:
        cmd = [sys.executable, "-m", "clinaudit", *_generate_argv(inp, out, stub.base_url, conc)]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None and stub.stats()["answered"] < 1200:
            time.sleep(0.05)
        assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read()[-500:]!r}"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        first = stub.stats(full=True)
        stored = _cache_rows(out / "cache.sqlite")
        answered = first["by_prompt"]
        assert set(stored) <= set(answered)  # nothing stored that was not answered
        assert all(stored[q] == stub_answer("stub", q, 0) for q in stored)
        # lost: answers still in the commit buffer (at most commit_rows: half the concurrency) or received and not
        # yet handed over
        assert len(answered) - len(stored) <= Runner(config=RunnerConfig(concurrency=conc)).commit_rows() + 2 * conc
        assert len(stored) >= 512  # groups were committed before the kill
        assert not (out / "responses.csv").exists()

        stub.reset_counters()
        assert main(_generate_argv(inp, out, stub.base_url, 64)) == 0
        second = stub.stats(full=True)
    assert second["total"] == n - len(stored) and second["max_per_prompt"] == 1
    assert not set(second["by_prompt"]) & set(stored)  # no committed answer was asked for again
    df = pd.read_csv(out / "responses.csv", keep_default_na=False)
    assert len(df) == n and int(df["cached"].sum()) == len(stored)


def test_generate_each_keeps_order_reads_cache_in_chunks_and_batches_local_calls_as_before(tmp_path):
    mock = MockBackend("mock")
    mock.batch_size = 3
    batches: list[list[str]] = []
    inner = mock.generate

    def spy(reqs):
        batches.append([r.prompt_text() for r in reqs])
        return inner(reqs)

    mock.generate = spy  # type: ignore[method-assign]
    cache = ResponseCache(tmp_path / "c.sqlite")
    runner = Runner(cache=cache, config=RunnerConfig(progress=False))
    runner.add_backend(mock)
    reqs = [ModelRequest(model="mock", kind="completion", prompt=f"p{i % 7}", meta={"i": i}) for i in range(9)]
    got: list[tuple[int, str]] = []
    runner.generate_each(iter(reqs), lambda q, a: got.append((q.meta["i"], a.meta["i"])))
    assert got == [(i, i) for i in range(9)]  # request order, each answer carrying its own request's meta
    assert batches == [["p0", "p1", "p2"], ["p3", "p4", "p5"], ["p6"]]  # distinct keys, request order, batch 3
    assert len(cache) == 7

    sizes: list[int] = []
    real = cache.get_many
    cache.get_many = lambda keys: (sizes.append(len(list(keys))), real(keys))[1]  # type: ignore[method-assign]
    many = [ModelRequest(model="mock", kind="completion", prompt=f"p{i % 7}") for i in range(2000)]
    hits = []
    runner.generate_each(many, lambda q, a: hits.append(a.cached))
    assert len(hits) == 2000 and all(hits) and len(batches) == 3  # fully cached: no call
    assert sizes and max(sizes) <= 512  # never every key at once


def test_fail_fast_stops_the_worker_pool_at_the_first_failure(tmp_path):
    from clinaudit.errors import BackendError

    with FastStubProcess() as stub:
        runner = Runner(config=RunnerConfig(progress=False, fail_fast=True, concurrency=4, max_retries=0),
                        backend_options={"openai:stub": {"base_url": stub.base_url.replace("/v1", "/nope")}})
        reqs = [ModelRequest.chat("openai:stub", f"q{i}") for i in range(500)]
        with pytest.raises(BackendError, match="fail_fast"):
            runner.generate(reqs)
        assert stub.stats()["total"] == 0  # 404s: not counted as answered prompts
    assert runner.usage["openai:stub"].failures < 20  # stopped at once, not after all 500


def test_stub_answers_in_one_send_without_the_delayed_ack_wait():
    """The test stub wrote headers and body in two sends: ~44 ms per sequential answer (Nagle + delayed ACK)."""
    with StubProcess() as stub:
        conn = http.client.HTTPConnection("127.0.0.1", stub.port, timeout=30)
        body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
        times = []
        for _ in range(21):
            t0 = time.perf_counter()
            conn.request("POST", "/v1/chat/completions", body=body, headers={"Content-Type": "application/json"})
            assert conn.getresponse().read()
            times.append(time.perf_counter() - t0)
        conn.close()
    assert statistics.median(times) < 0.02, times


@pytest.mark.slow
def test_peak_rss_of_generate_does_not_grow_with_the_number_of_calls(tmp_path):
    """Peak RSS at 2,000 vs 20,000 calls: the old runner held ~6 KB per call (>100 MB more at 20,000)."""
    code = ("import resource, sys\nfrom clinaudit.cli.main import main\nrc = main(sys.argv[1:])\n"
            "print('RSS', rc, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("OPENAI_API_KEY", None)
    rss = {}
    with FastStubProcess() as stub:
        for n in (2000, 20000):
            inp = _questions(tmp_path / f"q{n}.csv", n)
            proc = subprocess.run([sys.executable, "-c", code, *_generate_argv(inp, tmp_path / f"r{n}", stub.base_url,
                                                                               64)],
                                  env=env, capture_output=True, text=True, timeout=900)
            line = [ln.split() for ln in proc.stdout.splitlines() if ln.startswith("RSS")]
            assert proc.returncode == 0 and line and line[0][1] == "0", proc.stderr[-800:]
            rss[n] = int(line[0][2]) / 1024  # MB
    assert rss[20000] - rss[2000] < 40, rss
