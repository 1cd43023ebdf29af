"""The ``processes`` executor: a run's uncached calls from several processes of this machine.

One Python process drives one event loop on one core: against a fast endpoint (a local vLLM server,
a pool of them) the client's own CPU is the limit. This executor spreads the calls over a stdlib
process pool (:class:`concurrent.futures.ProcessPoolExecutor`, ``spawn`` start), so every core
makes calls:

1. the driver's runner looks every request up in the cache and hands :meth:`ProcessExecutor.dispatch`
   only the distinct requests not stored yet;
2. they are cut, in request order, into chunks, all handed to the pool at once (it queues them); the
   pool has ``shards`` workers (default: the usable CPUs), never more than the usable CPUs (at least 2)
   nor than the chunks there are, started with the first calls (restarted larger between two batches of
   calls when a later batch has more chunks); ``--shards`` above ``MAX_SHARDS`` is refused;
3. each worker process (:class:`~clinaudit.executors.shard_worker.ShardWorker`, built once per process
   when the first calls come, before any is sent) answers a chunk with the same runner code a
   local run uses, without a cache, on one event loop kept for its life; the run's concurrency and
   rate limit are totals, split over the workers;
4. the driver stores each chunk that comes back in the run's cache in one transaction
   (``Runner.store_many``) and hands it on.

A chunk is the unit that is stored: if the run is killed, the calls of the chunks not yet returned
are made again on the re-run; every returned chunk is in the cache. A worker process that dies (``kill -9``,
the kernel's out-of-memory killer) breaks the pool (``BrokenProcessPool``): the chunks it had not returned
are sent again from a new pool (up to ``MAX_WORKER_DEATHS`` times in one batch of calls, then the run stops
with one error line), so the run ends with every answer stored once. API keys never travel: a worker
gets the backend options (``api_key_env`` is a variable's *name*) and reads the key from the
environment it inherits.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..errors import BackendError, ClinauditError, InputError
from .local import Executor
from .lifeline import driver_identity
from .shard_worker import ChunkJournals, ShardWorker, backend_recipes, store_chunk, worker_config
from .sharding import MAX_SHARDS, check_shards, chunked

__all__ = ["MAX_SHARDS", "ProcessExecutor", "check_shards", "default_workers", "usable_cpus", "worker_count"]

log = logging.getLogger("clinaudit.executors.processes")

#: the most calls in one chunk (the unit stored at once, and made again after a crash)
MAX_CHUNK = 512
#: worker deaths one batch of calls survives (each: a new pool sends the chunks not returned again); one more
#: stops the run with one error line
MAX_WORKER_DEATHS = 3
#: seconds to wait for a broken pool to fail the chunks it still holds
_BROKEN_WAIT_S = 30.0

_WORKER: ShardWorker | None = None  # in a worker process: its runner


def _start_worker(config: dict[str, Any], driver: dict[str, Any] | None = None) -> None:
    global _WORKER
    _WORKER = ShardWorker(config, driver)  # first: the worker ends with the driver, whatever ends that
    atexit.register(_WORKER.close)  # the worker's connections closed as its process ends
    importlib.import_module("aiohttp")  # the remote backends' HTTP client: imported now, not on the first call


def _ready() -> int:
    return os.getpid()


def _run_chunk(recipes: dict[str, tuple[str, Any, str]], requests: list[Any],
               journal: str | None = None) -> tuple[list[Any], dict[str, int]]:
    assert _WORKER is not None, "the pool's initializer builds the worker"
    return _WORKER.run_chunk(recipes, requests, journal)


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask on Linux, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def default_workers() -> int:
    """Worker processes when ``--shards`` is not given: the usable CPUs, at least 2."""
    return max(2, usable_cpus())


def worker_count(requested: int | None, chunks: int) -> int:
    """The worker processes to start for ``chunks`` chunks of calls: ``requested`` (default
    :func:`default_workers`), capped at the usable CPUs (at least 2) and at the chunks there are."""
    return max(1, min(requested or default_workers(), default_workers(), chunks))


class ProcessExecutor(Executor):
    """Send a run's uncached calls from ``shards`` worker processes (see the module docstring).

    ``shards``: worker processes (default: this machine's usable CPUs, at least 2). ``chunk_size``: calls
    per chunk (default: 16 per worker connection, at most ``MAX_CHUNK``)."""

    name = "processes"

    def __init__(self, shards: int | None = None, *, chunk_size: int | None = None):
        check_shards(shards)
        if chunk_size is not None and int(chunk_size) < 1:
            raise InputError(f"chunk_size must be at least 1, got {chunk_size}")
        self.shards = int(shards) if shards is not None else None
        self.chunk_size = int(chunk_size) if chunk_size is not None else None
        self._pool: ProcessPoolExecutor | None = None
        self._workers = 0
        self._chunk = 1

    def attach(self, runner: Any) -> Any:
        """Install on ``runner``. The workers start with the first calls, as many as there is work for
        (:func:`worker_count`); a worker that cannot start fails then, before any call is made."""
        super().attach(runner)
        if self.shards and self.shards > default_workers():
            log.warning("processes executor: --shards %d is more than this machine's %d usable CPU(s); "
                        "starting at most %d worker processes", self.shards, usable_cpus(), default_workers())
        return runner

    def _start(self, runner: Any, chunks: int) -> ProcessPoolExecutor:
        """The pool, started (or restarted larger, between two batches of calls) for ``chunks`` chunks."""
        n = worker_count(self.shards, chunks)
        if self._pool is not None and n <= self._workers:
            return self._pool
        self.close()
        cfg = worker_config(runner.config, n)
        self._workers = n
        self._pool = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_start_worker,
                                         initargs=(cfg, driver_identity(child=True)))
        try:  # one task per worker starts them all at once (each builds its runner first)
            for fut in [self._pool.submit(_ready) for _ in range(n)]:
                fut.result()
        except BrokenProcessPool as exc:
            self.close()
            raise BackendError(f"the processes executor could not start its workers ({exc}); a Python script "
                               "that starts a run with it must do so under `if __name__ == '__main__':`, as "
                               "for any spawned process pool") from None
        log.info("processes executor: %d worker(s), %d call(s) per chunk, concurrency %d per worker", n,
                 self._chunk, cfg["concurrency"])
        return self._pool

    def _chunk_size(self, runner: Any) -> int:
        """Calls per chunk: ``chunk_size``, else one worker's concurrency (at most ``MAX_CHUNK``): every call of a
        running chunk is in flight, so a ``kill -9`` loses no more answered calls than the local executor's bound
        (the calls in flight: the run's concurrency)."""
        per_worker = worker_config(runner.config, worker_count(self.shards, MAX_SHARDS))["concurrency"]
        return self.chunk_size or min(MAX_CHUNK, per_worker)

    async def dispatch(self, runner: Any, requests: dict[str, Any], bar: Any) -> dict[str, Any]:
        self._chunk = self._chunk_size(runner)
        remaining = list(chunked(list(requests), self._chunk))
        recipes = backend_recipes(runner, {r.model for r in requests.values()})
        out: dict[str, Any] = {}
        deaths = 0
        journals = ChunkJournals(runner)
        journals.count_resent(runner, requests)
        while remaining:
            pool = self._start(runner, len(remaining))
            remaining, broken = await self._run_chunks(pool, runner, recipes, requests, remaining, bar, out,
                                                       journals)
            if broken is None:
                journals.settle()
                break
            # a worker died (killed, out of memory): the pool is broken and every chunk it had not returned failed
            # with it; those chunks are sent again from a new pool, the returned ones are stored
            deaths += 1
            self._discard()
            if deaths > MAX_WORKER_DEATHS:
                raise BackendError(f"a worker process of the processes executor died {deaths} times ({broken}); "
                                   "the calls of the chunks it returned are stored: re-run the same command to "
                                   "resume") from None
            calls = sum(len(keys) for keys in remaining)
            log.warning("processes executor: a worker process died (%s); sending the %d call(s) of the chunks it did not return again "
                        "from new workers (%d of at most %d restarts)", broken, calls, deaths, MAX_WORKER_DEATHS)
        return out

    async def _run_chunks(self, pool: ProcessPoolExecutor, runner: Any, recipes: dict[str, Any],
                          requests: dict[str, Any], chunks: list[list[str]], bar: Any,
                          out: dict[str, Any], journals: ChunkJournals) -> tuple[list[list[str]], BaseException | None]:
        """Send ``chunks`` to ``pool`` and store each as it comes back (into ``out``). Returns the chunks that
        did not come back and the pool's error when a worker died (``BrokenProcessPool``), else ``([], None)``;
        the calls a lost chunk had sent are counted as re-sent."""
        loop = asyncio.get_running_loop()
        paths = {id(keys): journals.new() for keys in chunks}
        pending = {loop.run_in_executor(pool, _run_chunk, recipes, [requests[k] for k in keys], paths[id(keys)]): keys
                   for keys in chunks}
        lost: list[list[str]] = []
        broken: BaseException | None = None
        try:
            while pending:
                done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for fut in done:
                    keys = pending.pop(fut)
                    try:
                        resps, retries = fut.result()
                    except BrokenProcessPool as exc:
                        broken = broken or exc
                        lost.append(keys)
                        continue
                    except ClinauditError:
                        raise
                    except Exception as exc:  # noqa: BLE001 - a worker's unexpected error, with its type
                        raise BackendError(f"a worker process failed: {type(exc).__name__}: {exc}") from None
                    out.update(store_chunk(runner, requests, keys, resps, retries, bar))
                    journals.stored(paths[id(keys)])
                if broken is not None and pending:
                    # the pool's own thread fails every other chunk it holds: wait for that instead of cancelling
                    # them (a cancel racing that thread's set_exception kills it with InvalidStateError, and the
                    # surviving workers are then never stopped: the process could not exit)
                    await asyncio.wait(pending, timeout=_BROKEN_WAIT_S)
        finally:
            if broken is None:
                for fut in pending:  # stopped early (error, Ctrl-C): queued chunks need not run
                    fut.cancel()
        if broken is not None:
            lost.extend(pending.values())
            for keys in lost:
                journals.lost(runner, {k: requests[k] for k in keys}, paths[id(keys)])
        return lost, broken

    def describe(self) -> dict[str, Any]:
        planned = self._workers or (min(self.shards, default_workers()) if self.shards else None)
        return {"executor": self.name, "shards": planned, "chunk_size": self.chunk_size}

    def _discard(self) -> None:
        """Drop a broken pool: its surviving workers are stopped (not waited for) and the next calls start a new
        one."""
        pool, self._pool, self._workers = self._pool, None, 0
        if pool is None:
            return
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            if proc.is_alive():
                proc.kill()
        pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (a chunk already running is finished first; queued ones are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
