"""What every multi-process executor runs on its workers: a cache-less runner answering chunks of calls.

The driver keeps the cache and stores every answer; a worker only makes calls. :func:`backend_recipes`
says how a worker rebuilds the driver's backends (options, or the pickled instance; never a key), and
:class:`ShardWorker` answers chunks with the same runner code a local run uses, on one event loop kept
for the worker's life (its HTTP connections are reused from chunk to chunk). Used by the ``ray``
executor (one Ray actor per shard) and the ``processes`` executor (one process of a stdlib process pool).
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import asdict, replace
from typing import Any

from ..errors import BackendError, ClinauditError

__all__ = ["ShardWorker", "backend_recipes", "store_chunk", "worker_config"]


def worker_config(config: Any, workers: int) -> dict[str, Any]:
    """The ``RunnerConfig`` (as a dict) of each of ``workers`` workers: the run's limits are totals, so its
    concurrency and rate limit are split over the workers; no progress bars, no fail-fast (the driver decides)."""
    per_worker = max(1, math.ceil(config.concurrency / workers))
    rate = config.rate_limit_per_min / workers if config.rate_limit_per_min else None
    return asdict(replace(config, concurrency=per_worker, rate_limit_per_min=rate, progress=False, fail_fast=False))


def backend_recipes(runner: Any, specs: set[str]) -> dict[str, tuple[str, Any, str]]:
    """How a worker rebuilds each backend: ``(kind, payload, identity)`` per model spec.

    ``("options", options, identity)`` when the runner built the backend from its options (the spec's
    ``backends:`` entry — names of key variables, never keys); ``("instance", backend, identity)`` for a
    backend instance given to the runner directly (``Runner.add_backend``), which is pickled as is.
    The identity lets the worker check that it rebuilt the same backend (same request keys)."""
    from ..models.base import get_backend

    out: dict[str, tuple[str, Any, str]] = {}
    for spec in sorted(specs):
        inst = runner.backend(spec)
        opts = dict(runner.backend_options.get(spec, {}))
        try:
            same = get_backend(spec, **opts) is inst
        except ClinauditError:
            same = False
        out[spec] = ("options", opts, inst.identity()) if same else ("instance", inst, inst.identity())
    return out


def store_chunk(runner: Any, requests: dict[str, Any], keys: list[str], answers: list[Any],
                retries: dict[str, int], bar: Any) -> dict[str, Any]:
    """The driver's side of a chunk a worker returned (:meth:`ShardWorker.run_chunk`): its answers stored in one
    transaction (``Runner.store_many``), the progress bar moved on, the worker's retries counted; the stored
    answers by key."""
    from ..runner import Usage

    stored = dict(zip(keys, runner.store_many((key, requests[key], resp) for key, resp in zip(keys, answers))))
    bar.update(len(keys))
    for spec, n in retries.items():
        runner.usage.setdefault(spec, Usage()).retries += n
    return stored


class ShardWorker:
    """One worker: answers chunks of requests with a cache-less runner (backends built once)."""

    def __init__(self, config: dict[str, Any]):
        from ..runner import Runner, RunnerConfig

        self.runner = Runner(cache=None, config=RunnerConfig(**config))
        self.built: set[str] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    def _build(self, recipes: dict[str, tuple[str, Any, str]], specs: set[str]) -> None:
        from ..models.base import get_backend

        for spec in sorted(specs - self.built):
            kind, payload, identity = recipes[spec]
            backend = get_backend(spec, **payload) if kind == "options" else payload
            if backend.identity() != identity:
                raise BackendError(f"the worker built {spec} as {backend.identity()!r}, the driver as "
                                   f"{identity!r}: set the same environment (e.g. OPENAI_BASE_URL) on every node, "
                                   "or give base_url in the spec's backends")
            self.runner.add_backend(backend)
            self.built.add(spec)

    def run_chunk(self, recipes: dict[str, tuple[str, Any, str]], requests: list[Any]) -> tuple[list[Any], dict[str, int]]:
        """Answers to ``requests`` (in order) and the retries they took, per model."""
        self._build(recipes, {r.model for r in requests})
        before = {s: u.retries for s, u in self.runner.usage.items()}
        resps = self._run(self.runner.agenerate(requests, desc="worker chunk"))
        retries = {s: u.retries - before.get(s, 0) for s, u in self.runner.usage.items()}
        return resps, {s: n for s, n in retries.items() if n}

    def _run(self, coro: Any) -> Any:
        """Run ``coro`` on this worker's own loop (kept between chunks, with the backends' connections on it);
        where a loop already runs in this thread, on a loop of its own thread (``run_sync``)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            if self._loop is None or self._loop.is_closed():
                self._loop = asyncio.new_event_loop()
            self.runner.keep_connections = True
            return self._loop.run_until_complete(coro)
        from ..models.base import run_sync

        self.runner.keep_connections = False  # that loop ends with the chunk: so do its connections
        return run_sync(coro)

    def close(self) -> None:
        """Close the backends' connections and the worker's loop (the worker is done)."""
        if self._loop is None or self._loop.is_closed():
            return
        for spec in sorted(self.built):
            closer = getattr(self.runner.backend(spec), "aclose", None)
            if closer is not None:
                self._loop.run_until_complete(closer())
        self._loop.close()
