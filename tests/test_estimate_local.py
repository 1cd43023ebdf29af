"""The dry-run estimate of a batching local backend (issue 44): one call alone overstates a run whose calls go in
batches; a second probe sends a batch of the next requests and the run is timed by it, the one-at-a-time time
stated as the upper bound. A fake backend whose batch of k takes 0.2 s + 0.05 s × k makes the numbers known."""

from __future__ import annotations

import time
from types import SimpleNamespace

from clinaudit.pipeline.estimate import Estimate


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
        time.sleep(0.2 + 0.05 * len(requests))
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
