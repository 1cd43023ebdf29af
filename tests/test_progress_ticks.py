"""Progress bars count finished calls as they finish, for every kind of backend, and a local backend's answers are
stored as they finish (issues 40 and 44).

Slow mock backends: a local one that hands each answer back as it is done (as the ``hf:``/``embedded`` engine
does), a local one that answers a whole chunk at once, and a remote one (one call at a time, concurrently). The
bar is replaced by a spy that, at every tick, compares its count with the calls the runner has stored (handed to
the cache's group commit, or answered from the cache) at that moment.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from clinaudit import runner as runner_mod
from clinaudit.cache import ResponseCache
from clinaudit.models.mock import MockBackend
from clinaudit.records import ModelRequest
from clinaudit.runner import Runner, RunnerConfig


class SpyBar:
    """Records, at every tick, the bar's count and the calls stored so far."""

    def __init__(self, total: int, stored):
        self.total, self.n, self.stored = total, 0, stored
        self.ticks: list[tuple[int, int, bool]] = []  # (bar count, stored calls, backend still generating)
        self.busy = lambda: False

    def update(self, n: int = 1) -> None:
        self.n += n
        self.ticks.append((self.n, self.stored(), self.busy()))

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass


class SlowLocal(MockBackend):
    """A local backend that answers one request every ``delay`` seconds; ``stream``: each handed back when done."""

    def __init__(self, spec: str, *, delay: float = 0.03, stream: bool = True, fail_after: int | None = None,
                 **kw):
        super().__init__(spec, **kw)
        self.delay, self.fail_after = delay, fail_after
        self.streams_answers = stream
        self.batch_size = 8
        self.generating = threading.Event()
        self.finished = 0

    def generate(self, requests, on_response=None):
        self.generating.set()
        try:
            out = []
            for i, req in enumerate(requests):
                time.sleep(self.delay)
                if self.fail_after is not None and self.finished >= self.fail_after:
                    raise RuntimeError("the process was killed here")
                resp = super().generate([req])[0]
                self.finished += 1
                out.append(resp)
                if on_response is not None:
                    on_response(i, resp)
            return out
        finally:
            self.generating.clear()


class SlowRemote(MockBackend):
    is_remote = True

    async def agenerate(self, request):
        await asyncio.sleep(0.01 + 0.02 * (hash(request.prompt_text()) % 3))
        return super().generate([request])[0]


def _spy(monkeypatch, runner: Runner, backend) -> list[SpyBar]:
    stored = {"n": 0}
    real_store = runner._store

    def counting_store(*args, **kwargs):
        resp = real_store(*args, **kwargs)
        stored["n"] += 1
        return resp

    monkeypatch.setattr(runner, "_store", counting_store)
    bars: list[SpyBar] = []

    def now() -> int:  # calls stored (handed to the cache's group commit) and calls answered from the cache
        return stored["n"] + sum(u.cache_hits for u in runner.usage.values())

    def make(total, desc, enabled):
        before = now()
        bar = SpyBar(total, lambda: now() - before)
        if isinstance(backend, SlowLocal):
            bar.busy = backend.generating.is_set
        bars.append(bar)
        return bar

    monkeypatch.setattr(runner_mod, "progress_bar", make)
    return bars


def _reqs(spec: str, n: int, tag: str = "") -> list[ModelRequest]:
    return [ModelRequest.chat(spec, f"question {tag}{i}", max_tokens=4) for i in range(n)]


@pytest.mark.parametrize("kind", ["local-streaming", "local-chunks", "remote"])
def test_the_bar_counts_the_stored_calls_at_every_tick(kind, tmp_path, monkeypatch):
    spec = "mock:slow"
    backend = {"local-streaming": SlowLocal(spec), "local-chunks": SlowLocal(spec, stream=False),
               "remote": SlowRemote(spec)}[kind]
    cache = ResponseCache(tmp_path / "c.sqlite")
    runner = Runner(cache=cache, config=RunnerConfig(concurrency=4, commit_s=0.05, progress=True))
    runner.add_backend(backend)
    bars = _spy(monkeypatch, runner, backend)
    first = _reqs(spec, 6, "a")
    runner.generate(first)  # 6 answers stored
    reqs = first + _reqs(spec, 12, "b")  # 6 answered from the cache, 12 new
    got: list[str] = []
    runner.generate_each(reqs, lambda q, r: got.append(r.text), total=len(reqs))
    assert len(got) == len(reqs) and len(bars) == 2
    for bar in bars:
        assert [n for n, _, _ in bar.ticks] == list(range(1, bar.total + 1))  # one tick per finished call
        assert [n for n, _, _ in bar.ticks] == [stored for _, stored, _ in bar.ticks]  # = stored, at every tick
    assert len(cache.get_many([runner.request_key(r) for r in reqs])) == 18
    busy = sum(b for _, _, b in bars[1].ticks)
    if kind == "local-streaming":  # answers stored while the backend was still generating its chunk
        assert busy >= 8
    elif kind == "local-chunks":  # a backend that answers a chunk at once: stored (and counted) at its end
        assert busy == 0


def test_a_request_asked_twice_in_flight_is_counted_twice(tmp_path, monkeypatch):
    """Issue 44: the bar stopped short of its total when a request was asked again while in flight."""
    spec = "mock:slow"
    backend = SlowRemote(spec)
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(concurrency=4, progress=True))
    runner.add_backend(backend)
    bars = _spy(monkeypatch, runner, backend)
    reqs = _reqs(spec, 5)
    reqs.insert(3, reqs[2])
    runner.generate_each(reqs, lambda q, r: None, total=len(reqs))
    assert bars[0].n == bars[0].total == 6
    assert [stored for _, stored, _ in bars[0].ticks][-1] == 5  # one call stored for the two askers


def test_a_local_run_stopped_mid_chunk_keeps_what_was_answered(tmp_path):
    """The backend dies after 5 answers of a chunk of 8: those 5 are in the cache, only the 3 in flight are lost."""
    spec = "mock:dies"
    backend = SlowLocal(spec, delay=0.01, fail_after=5)
    cache = ResponseCache(tmp_path / "c.sqlite")
    runner = Runner(cache=cache, config=RunnerConfig(progress=False))
    runner.add_backend(backend)
    reqs = _reqs(spec, 8)
    resps = runner.generate(reqs)
    assert [r.error is None for r in resps] == [True] * 5 + [False] * 3
    kept = cache.get_many([runner.request_key(r) for r in reqs])
    assert sorted(kept) == sorted(runner.request_key(r) for r in reqs[:5])
    # the chunk-at-once backend loses the whole chunk in the same situation
    backend2 = SlowLocal("mock:dies2", delay=0.01, fail_after=5, stream=False)
    runner.add_backend(backend2)
    reqs2 = _reqs("mock:dies2", 8)
    runner.generate(reqs2)
    assert cache.get_many([runner.request_key(r) for r in reqs2]) == {}
