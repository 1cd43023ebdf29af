"""What every multi-process executor runs on its workers: a cache-less runner answering chunks of calls.

The driver keeps the cache and stores every answer; a worker only makes calls. :func:`backend_recipes`
says how a worker rebuilds the driver's backends (options, or the pickled instance; never a key), and
:class:`ShardWorker` answers chunks with the same runner code a local run uses, on one event loop kept
for the worker's life (its HTTP connections are reused from chunk to chunk). Used by the ``ray``
executor (one Ray actor per shard) and the ``processes`` executor (one process of a stdlib process pool).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import secrets
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from ..errors import BackendError, ClinauditError
from .lifeline import die_with_driver, end_if_driver_gone

__all__ = ["ChunkJournals", "ShardWorker", "backend_recipes", "store_chunk", "worker_config"]

log = logging.getLogger("clinaudit.executors")


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


class ChunkJournals:
    """The driver's side of the journal of sent calls (:class:`clinaudit.cache.SentJournal`) for an executor's
    chunks: each chunk sent gets a journal file of its own, ``<cache>.sent/<driver pid>-c<token>.keys``, to which
    the worker appends each key before sending its call (:class:`_AppendJournal`); the driver removes it once the
    chunk's answers are stored. A killed run leaves the files of its unreturned chunks, whose calls the next run
    counts as re-sent (``resent`` in the usage, one log line), as a local run does."""

    def __init__(self, runner: Any):
        self.journal = runner.cache.journal if getattr(runner, "cache", None) is not None else None

    def count_resent(self, runner: Any, requests: dict[str, Any], sent: set[str] | None = None) -> None:
        """Count the calls of ``requests`` sent before and never stored (all are about to be sent again): those in
        the journals of stopped runs, or, given ``sent``, those keys (a dead worker's chunk of this run)."""
        from ..runner import Usage

        if self.journal is None:
            return
        earlier = self.journal.earlier() if sent is None else sent
        resent: dict[str, int] = {}
        for key, req in requests.items():
            if key in earlier:
                resent[req.model] = resent.get(req.model, 0) + 1
        for spec, n in sorted(resent.items()):
            runner.usage.setdefault(spec, Usage()).resent += n
            log.info("%s: %d call(s) re-sent: an earlier run with this cache had sent them and was stopped before "
                     "their answers were stored (at most the calls in flight and %d answered ones per stop)",
                     spec, n, runner.commit_rows())

    def new(self) -> str | None:
        """The path of a new chunk's journal (``None`` without a cache)."""
        if self.journal is None:
            return None
        self.journal.dir.mkdir(parents=True, exist_ok=True)
        return str(self.journal.dir / f"{os.getpid()}-c{secrets.token_hex(6)}.keys")

    @staticmethod
    def stored(path: str | None) -> None:
        """The chunk's answers are stored: its journal goes."""
        if path is not None:
            Path(path).unlink(missing_ok=True)

    def lost(self, runner: Any, requests: dict[str, Any], path: str | None) -> None:
        """A chunk that did not come back (its worker died) is sent again: the calls its journal holds are counted
        as re-sent (they may have been paid for), and the journal goes."""
        if path is None:
            return
        try:  # a last line cut by the kill (no line end) is left out
            sent = {k for k in Path(path).read_text(encoding="ascii", errors="replace").split("\n")[:-1] if k}
        except OSError:
            sent = set()
        self.count_resent(runner, requests, sent)
        self.stored(path)

    def settle(self) -> None:
        """Every chunk of a batch stored: the stopped runs' journals whose keys are all stored now go."""
        if self.journal is not None:
            self.journal.settle()


class _AppendJournal:
    """A worker's journal of one chunk: each key appended before its call is sent (one unbuffered write, as
    :class:`~clinaudit.cache.SentJournal` does); best effort (a worker that cannot write it, e.g. on another
    machine, sends its calls unjournaled)."""

    def __init__(self, path: str):
        try:
            self._fd: int | None = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        except OSError:
            self._fd = None

    def earlier(self) -> set[str]:
        return set()

    def record(self, key: str) -> None:
        if self._fd is not None:
            os.write(self._fd, key.encode("ascii", "replace") + b"\n")

    def settle(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class ShardWorker:
    """One worker: answers chunks of requests with a cache-less runner (backends built once). ``driver``
    (:func:`~clinaudit.executors.lifeline.driver_identity`): the worker ends within a second of that process."""

    def __init__(self, config: dict[str, Any], driver: dict[str, Any] | None = None):
        from ..runner import Runner, RunnerConfig

        self.driver = driver
        self.lifeline = die_with_driver(driver)
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

    def run_chunk(self, recipes: dict[str, tuple[str, Any, str]], requests: list[Any],
                  journal: str | None = None) -> tuple[list[Any], dict[str, int]]:
        """Answers to ``requests`` (in order) and the retries they took, per model; with ``journal`` (a path from
        :meth:`ChunkJournals.new`), each call's key is appended to that file before the call is sent."""
        end_if_driver_gone(self.driver)  # a chunk queued before the driver died is never sent
        self._build(recipes, {r.model for r in requests})
        before = {s: u.retries for s, u in self.runner.usage.items()}
        self.runner.sent_journal = _AppendJournal(journal) if journal else None
        try:
            resps = self._run(self.runner.agenerate(requests, desc="worker chunk"))
        finally:
            if self.runner.sent_journal is not None:
                self.runner.sent_journal.settle()
                self.runner.sent_journal = None
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
