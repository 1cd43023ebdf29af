"""The dry-run estimate of a batching local backend (issue 44): one call alone overstates a run whose calls go in
batches; a second probe sends a batch of the next requests and the run is timed by it, the one-at-a-time time
stated as the upper bound. A fake backend whose batch of k takes 0.2 s + 0.05 s × k makes the numbers known. The
fake backends advance a fake clock (``time.monotonic``, which the estimate reads) instead of sleeping, so the numbers
are exact whatever the machine's load."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from clinaudit.pipeline.estimate import Estimate


class _Clock:
    now = 1000.0


def _spend(seconds: float) -> None:
    """What a call of the fake backends costs: the fake clock moves on (no real sleep)."""
    _Clock.now += seconds


@pytest.fixture(autouse=True)
def _fake_clock(monkeypatch):
    monkeypatch.setattr(time, "monotonic", lambda: _Clock.now)


class _Backend:
    is_remote = False
    batches_calls = True  # as hf:, embedded and vllm: declare
    batch_size = 4

    def prepare(self) -> None:
        pass


class _Runner:
    cache = None
    config = SimpleNamespace(concurrency=1)

    def __init__(self) -> None:
        self.batches: list[int] = []

    def backend(self, spec: str) -> _Backend:
        return _Backend()

    def generate(self, requests: list, desc: str = "") -> list:
        self.batches.append(len(requests))
        _spend(0.2 + 0.05 * len(requests))
        return [SimpleNamespace(error=None) for _ in requests]


def test_a_batching_local_backend_is_timed_by_a_batched_probe():
    est = Estimate(calls={"hf:m": 40}, cached={}, samples={"hf:m": "r0"},
                   more_samples={"hf:m": [f"r{i}" for i in range(1, 9)]})
    runner = _Runner()
    est.add_time(runner, probe=True)
    assert runner.batches == [1, 4]  # the single probe, then a batch of the backend's batch size
    low, high = est.ranges["hf:m"]
    # one call alone 0.25 s -> 40 calls at most 10 s; a batch of 4 in 0.4 s -> 0.1 s per call -> about 4 s
    assert 3.6 < low < 5.5 and 9.5 < high < 13
    text = est.to_text()
    assert "per call in a batch of 4" in text and "(up to ~" in text and "if the calls do not batch" in text


def test_a_backend_without_batching_keeps_the_one_probe():
    est = Estimate(calls={"mock:t": 5}, samples={"mock:t": "r0"}, more_samples={"mock:t": ["r1", "r2"]})
    runner = _Runner()
    runner.backend = lambda spec: SimpleNamespace(is_remote=False, prepare=lambda: None)  # type: ignore[method-assign]
    est.add_time(runner, probe=True)  # (no batches_calls, as a mock: one probe, however it batches)
    assert runner.batches == [1] and "one probe call" in est.seconds["mock:t"][1] and not est.ranges


def test_the_local_model_backends_declare_that_they_batch_and_the_others_do_not():
    from clinaudit.models.embedded import EmbeddedGenerator
    from clinaudit.models.hf import HFCausalBackend
    from clinaudit.models.mock import MockBackend
    from clinaudit.models.openai_compat import OpenAICompatBackend
    from clinaudit.models.vllm_backend import VLLMBackend

    assert HFCausalBackend.batches_calls and EmbeddedGenerator.batches_calls and VLLMBackend.batches_calls
    assert not MockBackend.batches_calls and not OpenAICompatBackend.batches_calls


class _Engine:
    """A batching local backend whose decoding step over ``w`` rows costs 10 ms x sqrt(w) (so alpha = 0.5):
    a batch takes (its longest answer's tokens) steps; an answer has min(max_tokens, 10) tokens."""

    is_remote = False
    batches_calls = True
    batch_size = 4
    max_batch = 16

    def __init__(self) -> None:
        self.direct: list[list] = []

    def prepare(self) -> None:
        pass

    def answer(self, requests: list) -> list:
        toks = [min(r.max_tokens, 10) for r in requests]
        _spend(max(toks) * 0.01 * len(requests) ** 0.5)
        return [SimpleNamespace(error=None, completion_tokens=k, text=f"answer {i}") for i, k in enumerate(toks)]

    def generate(self, requests: list) -> list:  # straight to the backend: not stored
        self.direct.append(list(requests))
        return self.answer(requests)


class _EngineRunner:
    cache = None
    config = SimpleNamespace(concurrency=1)

    def __init__(self) -> None:
        self.engine = _Engine()
        self.stored: list[int] = []

    def backend(self, spec: str) -> _Engine:
        return self.engine

    def request_key(self, request) -> str:
        return request.key()

    def generate(self, requests: list, desc: str = "") -> list:
        self.stored.append(len(requests))
        return self.engine.answer(requests)


def test_a_batching_local_backend_is_timed_shape_by_shape_at_the_runs_width():
    from clinaudit.pipeline.calls import PLACEHOLDER_PREFIX
    from clinaudit.records import ModelRequest

    answers = [ModelRequest.chat("embedded", f"message {i}", temperature=0.7, max_tokens=64, seed=i) for i in range(8)]
    judged = [ModelRequest.chat("embedded", f"label this: {PLACEHOLDER_PREFIX} {i:012d}]", max_tokens=2)
              for i in range(8)]
    est = Estimate(calls={"embedded": 60}, samples={"embedded": answers[0]},
                   shapes={"embedded": {"target": [40, answers], "judge, grammar": [20, judged]}})
    runner = _EngineRunner()
    est.add_time(runner, probe=True)
    # stored: the single probe, then a batch of 4 answers; the judge batch (built on answers not cached yet) went
    # straight to the backend with a probe answer's text in the placeholder's place, after the 2-token warm-up
    assert runner.stored == [1, 4]
    assert [len(b) for b in runner.engine.direct] == [1, 4]
    assert runner.engine.direct[0][0].max_tokens == 2
    assert all(PLACEHOLDER_PREFIX not in r.messages[-1].content and "answer" in r.messages[-1].content
               for r in runner.engine.direct[1])
    total, how = est.seconds["embedded"]
    assert "rows^0." in how and "40 target" in how and "20 judge, grammar" in how
    # one call alone: 10 steps x 10 ms = 0.1 s; 4 rows: 10 steps x 20 ms = 0.2 s -> alpha 0.5. At the run's 16 rows
    # an answer costs 0.2 / 4 x (16 / 4) ** -0.5 = 0.025 s (40 of them: 1.0 s); a label 2 steps x 20 ms / 4 =
    # 0.01 s at 4 rows, 0.005 s at 16 (20 of them: 0.1 s): 1.1 s of calls, plus the load, timed with the 2-token
    # warm-up (2 steps x 10 ms = 0.02 s): 1.12 s in all
    assert total == pytest.approx(1.12, abs=1e-6)
    low, high = est.likely["embedded"]
    assert low < total < high
    assert "likely" in est.to_text()


def test_the_dry_count_keeps_requests_by_shape():
    from clinaudit.pipeline.calls import DryCount, request_shape
    from clinaudit.records import ModelRequest

    count = DryCount()
    reqs = [ModelRequest.chat("embedded", f"m{i}", temperature=0.7, max_tokens=128, seed=i, meta={"stage": "target"})
            for i in range(12)]
    reqs += [ModelRequest.chat("embedded", f"j{i}", max_tokens=256, meta={"stage": "treatment_annotator"})
             for i in range(3)]
    for r in reqs + reqs[:2]:  # a request seen twice is one call
        count.add("embedded", r.key(), hit=False, retry=False, words=1, request=r)
    shapes = count.shapes["embedded"]
    assert {k: (n, len(s)) for k, (n, s) in shapes.items()} == {
        request_shape(reqs[0]): (12, 8), request_shape(reqs[-1]): (3, 3)}
    assert request_shape(reqs[0]) == "target, sampled, max_tokens 128"


def test_a_run_about_to_start_on_a_local_model_times_its_own_first_call_only():
    """Issue 49: ``run`` on ``embedded`` said "time: not estimated" and then took 16 minutes. Before a run (not
    --dry-run) a local model without recorded answers is timed by the run's own first call (stored, so the run does
    not send it again): no batched or per-shape probe, no warm-up; the time is an upper bound (one call at a time).
    A remote model and the mock backend (no batches_calls) are not probed."""
    est = Estimate(calls={"hf:m": 40}, cached={}, samples={"hf:m": "r0"},
                   more_samples={"hf:m": [f"r{i}" for i in range(1, 9)]},
                   shapes={"hf:m": {"target max_tokens=128": [40, [f"r{i}" for i in range(8)]]}})
    runner = _Runner()
    est.add_time(runner, probe=False, local_call=True)
    assert runner.batches == [1]  # the one call, nothing else
    sec, how = est.seconds["hf:m"]
    assert sec == pytest.approx(40 * 0.25)  # 0.2 s + 0.05 s for a batch of one, x 40 calls, one at a time
    assert "the run's first call, timed" in how and "an upper bound" in how and not est.ranges and not est.likely
    assert "time: about 10 s for the new calls" in est.to_text()
    for backend in (SimpleNamespace(is_remote=True, batches_calls=False, prepare=lambda: None),
                    SimpleNamespace(is_remote=False, batches_calls=False, prepare=lambda: None)):  # remote; mock
        est = Estimate(calls={"x": 5}, samples={"x": "r0"})
        runner = _Runner()
        runner.backend = lambda spec, b=backend: b  # type: ignore[method-assign]
        est.add_time(runner, probe=False, local_call=True)
        assert runner.batches == [] and not est.seconds and "time: not estimated" in est.to_text()
