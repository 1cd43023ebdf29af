"""The runner: every model call of every audit goes through here.

* looks each request up in the content-addressed cache first (a second identical
  run makes zero model calls);
* remote backends: many calls at once under an async concurrency limit, an
  optional requests-per-minute limit, a per-call timeout, and retries with
  exponential backoff + jitter on 429/5xx/timeouts/dropped connections;
* local backends: batches of ``batch_size`` run in a worker thread;
* stores each completed call as soon as it completes (kill-safe, resumable);
* counts calls, cache hits, retries, failures and tokens per model;
* shows a progress bar on long runs.

Scoring capabilities (log-likelihood, embeddings, masked log-probs) are cached
the same way, per text.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Protocol

import numpy as np

from .cache import ResponseCache, answer_from_cache, decode_score, encode_score, masked_item_key
from .errors import BackendError, short_error_reason
from .models.base import Backend, MaskedItem, RetryableError, get_backend, run_sync
from .records import ModelRequest, ModelResponse, RequestKind, set_fields, stable_hash
from .workers import (CallGroup, CommitBuffer, Deadlines, RateLimiter, WorkerPool, fewer_gc_passes, progress_bar,
                      wait_all)

__all__ = ["Runner", "RunnerConfig", "Usage", "ModelCalls"]

log = logging.getLogger("clinaudit.runner")


@dataclass
class RunnerConfig:
    concurrency: int = 8
    max_retries: int = 6
    backoff_base_s: float = 0.5
    backoff_max_s: float = 30.0
    retry_after_max_s: float = 60.0  # a server's Retry-After is honoured up to this many seconds (the one cap)
    timeout_s: float = 120.0
    rate_limit_per_min: float | None = None
    progress: bool = True
    fail_fast: bool = False
    # group commit of the cache: answers are committed in groups of commit_rows // 2 by a writer thread, or
    # within ~2 x commit_s seconds, whichever comes first; never more than commit_rows answers uncommitted
    # (a killed run keeps every committed answer and redoes the rest: the calls in flight, at most concurrency,
    # and at most commit_rows answered ones). None: half the concurrency (at least 1, at most 512)
    commit_rows: int | None = None
    commit_s: float = 0.5
    # generate_each: at most this many requests between the oldest unanswered one and the newest taken in
    window: int = 8192


@dataclass
class Usage:
    calls: int = 0  # model calls that returned (not cache hits)
    resent: int = 0  # calls an earlier run with this cache had sent and stopped before storing (paid twice)
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    wall_s: float = 0.0

    def add(self, other: "Usage") -> None:
        for k, v in asdict(other).items():
            setattr(self, k, getattr(self, k) + v)


class ModelCalls(Protocol):
    """What audit code calls models through: a :class:`Runner`, or the framework's
    :class:`~clinaudit.pipeline.calls.CallLog` (the run context's ``runner``), which records the calls of one."""

    def request_key(self, request: ModelRequest) -> str: ...

    def generate(self, requests: Sequence[ModelRequest], desc: str = "model calls") -> list[ModelResponse]: ...

    def loglik(self, spec: str, texts: Sequence[str], desc: str = "log-likelihoods") -> np.ndarray: ...

    def embed(self, spec: str, texts: Sequence[str], desc: str = "embeddings") -> np.ndarray: ...

    def masked_logprobs(self, spec: str, items: Sequence[MaskedItem], desc: str = "masked log-probs") -> np.ndarray:
        ...


class Runner:
    """Runs model requests through backends with caching, retries and accounting.

    ``backend_options`` maps a model spec to the options its backend needs
    (``base_url``, ``api_key_env``, mock ``rules``, ``batch_size`` ...).
    """

    made: ClassVar[bool] = False  # a Runner was made in this process

    def __init__(
        self,
        cache: ResponseCache | None = None,
        config: RunnerConfig | None = None,
        backend_options: dict[str, dict[str, Any]] | None = None,
    ):
        Runner.made = True  # this process may have made model calls (the CLI's Ctrl-C line says how to resume)
        self.cache = cache
        self.config = config or RunnerConfig()
        self.backend_options = dict(backend_options or {})
        self.usage: dict[str, Usage] = {}
        self._backends: dict[str, Backend] = {}
        self._lock = threading.Lock()
        self._waiting = 0  # remote calls now sleeping before a retry (shown on the progress line)
        self._capped: set[str] = set()  # models already warned about a Retry-After above the cap
        #: ``None``: send uncached calls from this process; else an executor (:mod:`clinaudit.executors`)
        #: whose ``dispatch(runner, requests_by_key, bar)`` sends them and stores them through :meth:`store` or
        #: :meth:`store_many`
        self.executor: Any = None
        #: ``True`` where this runner's event loop outlives each batch of calls (an executor's worker): the remote
        #: backends' HTTP connections are then kept from batch to batch instead of closed at the end of each
        self.keep_connections = False
        #: the journal of sent calls of a runner without a cache (an executor's worker: the driver's chunk journal)
        self.sent_journal: Any = None

    # ---- backends ---------------------------------------------------------
    def add_backend(self, backend: Backend) -> None:
        """Use this instance for its spec (e.g. a mock with a Python responder)."""
        self._backends[backend.spec] = backend

    def backend(self, spec: str) -> Backend:
        if spec not in self._backends:
            self._backends[spec] = get_backend(spec, **self.backend_options.get(spec, {}))
        return self._backends[spec]

    def _usage(self, spec: str) -> Usage:
        usage = self.usage.get(spec)  # (a dict read is atomic; the lock only guards adding a spec)
        if usage is not None:
            return usage
        with self._lock:
            return self.usage.setdefault(spec, Usage())

    def total_usage(self) -> Usage:
        total = Usage()
        for u in self.usage.values():
            total.add(u)
        return total

    def request_key(self, request: ModelRequest) -> str:
        return self.backend(request.model).request_key(request)  # the backend's (openai-batch shares openai's)

    # ---- generation ---------------------------------------------------------
    def generate(self, requests: Sequence[ModelRequest], desc: str = "model calls") -> list[ModelResponse]:
        """Synchronous entry point; responses come back in request order."""
        return run_sync(self.agenerate(requests, desc=desc))

    async def agenerate(self, requests: Sequence[ModelRequest], desc: str = "model calls") -> list[ModelResponse]:
        started = time.monotonic()
        keys = [self.request_key(r) for r in requests]
        results: list[ModelResponse | None] = [None] * len(requests)
        cached = self.cache.get_many(keys) if self.cache is not None else {}
        used: dict[str, ModelResponse] = {}
        todo: dict[str, list[int]] = {}
        for i, (req, key) in enumerate(zip(requests, keys)):
            if key in cached or key in used:
                results[i] = answer_from_cache(cached, used, key, req)
                self._usage(req.model).cache_hits += 1
            else:
                todo.setdefault(key, []).append(i)
        del cached, used
        if todo:
            def done(key: str, req: ModelRequest, resp: ModelResponse) -> None:
                idxs = todo.pop(key)
                resp.meta = dict(req.meta)
                results[idxs[0]] = resp
                for i in idxs[1:]:  # the same request made twice in this batch: answered once
                    results[i] = resp.model_copy(update={"meta": dict(requests[i].meta)})

            sent: dict[str, ModelRequest] = {}
            if self.executor is not None:  # another executor (e.g. Ray) sends the uncached calls ...
                # ... except those of batch-API backends (openai-batch): they take the whole list, here
                sent = {k: requests[i[0]] for k, i in todo.items()
                        if getattr(self.backend(requests[i[0]].model), "agenerate_batch", None) is None}
            own = [k for k in todo if k not in sent]

            async def feed(submit: Callable[[str, ModelRequest], Any]) -> None:
                for key in own:
                    await submit(key, requests[todo[key][0]])

            async def via_executor() -> None:
                bar = progress_bar(len(sent), desc, self.config.progress)
                try:
                    outcome = await self.executor.dispatch(self, sent, bar)
                finally:
                    bar.close()
                for key, resp in outcome.items():
                    done(key, sent[key], resp)

            await asyncio.gather(*([via_executor()] if sent else []),
                                 *([self._dispatch(feed, done, len(own), desc)] if own else []))
        self._add_wall(requests, time.monotonic() - started)
        return [r for r in results if r is not None]

    def generate_each(self, requests: Iterable[ModelRequest], on_response: Callable[[ModelRequest, ModelResponse], Any],
                      desc: str = "model calls", total: int | None = None) -> None:
        """Streaming :meth:`generate`: ``on_response(request, response)`` in request order, holding no more than a
        window of requests (``RunnerConfig.window``) at once. ``requests`` may be a generator."""
        run_sync(self.agenerate_each(requests, on_response, desc=desc, total=total))

    async def agenerate_each(self, requests: Iterable[ModelRequest],
                             on_response: Callable[[ModelRequest, ModelResponse], Any],
                             desc: str = "model calls", total: int | None = None) -> None:
        """See :meth:`generate_each`. Cached answers are read a chunk of keys at a time, never all at once."""
        if self.executor is not None:  # an executor takes lists of calls: a window of requests at a time ...
            it = iter(requests)

            def next_window() -> tuple[list[ModelRequest], asyncio.Task[list[ModelResponse]]] | None:
                chunk = list(itertools.islice(it, max(1, self.config.window)))
                return (chunk, asyncio.ensure_future(self.agenerate(chunk, desc=desc))) if chunk else None

            now = next_window()
            try:
                while now is not None:
                    chunk, answers = now
                    resps = await answers
                    now = next_window()  # ... the next one sent while this one is handed over (two at most)
                    for i, (q, r) in enumerate(zip(chunk, resps)):
                        on_response(q, r)
                        if i % 256 == 255:
                            await asyncio.sleep(0)  # let the next window's calls go out
            finally:
                if now is not None and not now[1].done():  # stopped (an error, Ctrl-C): the next window too
                    now[1].cancel()
                    await asyncio.gather(now[1], return_exceptions=True)
            return
        started = time.monotonic()
        window = asyncio.Semaphore(max(1, self.config.window))
        ready: dict[int, tuple[ModelRequest, ModelResponse]] = {}  # finished, waiting for an earlier one
        waiting: dict[str, list[tuple[int, ModelRequest]]] = {}  # key in flight -> (index, request) asking for it
        state = {"next": 0}
        models: set[str] = set()

        def emit(i: int, req: ModelRequest, resp: ModelResponse) -> None:
            ready[i] = (req, resp)
            while state["next"] in ready:
                q, r = ready.pop(state["next"])
                state["next"] += 1
                window.release()
                on_response(q, r)

        def done(key: str, req: ModelRequest, resp: ModelResponse) -> None:
            asking = waiting.pop(key)
            if len(asking) > 1:  # the same request asked again while in flight: answered now, counted now
                bar.update(len(asking) - 1)
            set_fields(resp, meta=dict(asking[0][1].meta))
            emit(asking[0][0], asking[0][1], resp)
            for i, q in asking[1:]:
                emit(i, q, resp.model_copy(update={"meta": dict(q.meta)}))

        async def feed(submit: Callable[[str, ModelRequest], Any], pending: Callable[[str], Any]) -> None:
            it = iter(requests)
            index = 0
            while True:
                chunk = list(itertools.islice(it, _FIRST_CHUNK if index == 0 else _CHUNK))
                if not chunk:
                    return
                keys = [self.request_key(r) for r in chunk]
                cached = self.cache.get_many([k for k in keys if k not in waiting]) if self.cache is not None else {}
                for key in keys:  # answered earlier in this run, not committed yet
                    if key not in cached and key not in waiting and (resp := pending(key)) is not None:
                        cached[key] = resp
                used: dict[str, ModelResponse] = {}
                for req, key in zip(chunk, keys):
                    await window.acquire()
                    models.add(req.model)
                    if key in waiting:
                        waiting[key].append((index, req))
                    elif key in cached or key in used:
                        self._usage(req.model).cache_hits += 1
                        bar.update(1)
                        emit(index, req, answer_from_cache(cached, used, key, req))
                    else:
                        waiting[key] = [(index, req)]
                        await submit(key, req)
                    index += 1

        bar = progress_bar(total or 0, desc, self.config.progress and bool(total))
        try:
            await self._dispatch(feed, done, total or 0, desc, bar=bar, with_pending=True)
        finally:
            bar.close()
        self._add_wall(models, time.monotonic() - started)

    def _add_wall(self, requests_or_specs: Iterable[Any], elapsed: float) -> None:
        specs = {getattr(r, "model", r) for r in requests_or_specs}
        for spec in specs:
            self._usage(spec).wall_s += elapsed / max(1, len(specs))

    async def _dispatch(self, feed: Callable[..., Any], done: Callable[[str, ModelRequest, ModelResponse], None],
                        total: int, desc: str, bar: Any = None, with_pending: bool = False) -> None:
        """Run every request ``feed`` submits: a fixed pool of worker tasks per backend pulls from a bounded queue
        (``concurrency`` workers for a remote backend, one batching worker for a local one); each answer is
        handed to the cache's group commit and then to ``done(key, request, response)``."""
        own_bar = bar is None
        if own_bar:
            bar = progress_bar(total, desc, self.config.progress)
        writer = CommitBuffer(self.cache, self.commit_rows())
        journal = self.cache.journal if self.cache is not None else self.sent_journal
        earlier = journal.earlier() if journal is not None else set()
        resent: dict[str, int] = {}
        pools: dict[str, WorkerPool] = {}

        def sending(key: str, req: ModelRequest) -> None:  # before each call: the journal of sent calls
            if journal is not None:
                journal.record(key)
                if key in earlier:
                    resent[req.model] = resent.get(req.model, 0) + 1
                    self._usage(req.model).resent += 1

        tasks: list[asyncio.Task[None]] = []

        def finish(backend: Backend, key: str, req: ModelRequest, resp: ModelResponse) -> None:
            resp = self._store(backend, key, req, resp, writer)
            bar.update(1)
            done(key, req, resp)

        async def submit(key: str, req: ModelRequest) -> None:
            pool = pools.get(req.model)
            if pool is None:
                pool = pools[req.model] = WorkerPool(self.config, self.backend(req.model), self._call_with_retries,
                                                     self._run_local_batch, finish, bar, commit=writer.flush,
                                                     sending=sending)
                tasks.extend(pool.start())
            await pool.put(key, req)

        async def feeder() -> None:
            try:
                await (feed(submit, writer.get) if with_pending else feed(submit))
            finally:
                for pool in pools.values():
                    await pool.close_input()

        async def ticker() -> None:  # group commit by time: nothing waits longer than commit_s to be committed
            while True:
                await asyncio.sleep(self.config.commit_s)
                writer.flush_older_than(self.config.commit_s)

        feed_task = asyncio.create_task(feeder())
        tick_task = asyncio.create_task(ticker())
        try:
            with fewer_gc_passes():
                await wait_all(feed_task, tasks)
        finally:
            tick_task.cancel()
            for t in [feed_task, *tasks]:
                t.cancel()
            await asyncio.gather(feed_task, tick_task, *tasks, return_exceptions=True)
            try:
                writer.close()  # everything answered is committed before this returns
            finally:  # a failed commit still releases the watchdogs and connections
                if own_bar:
                    bar.close()
                for pool in pools.values():
                    await pool.release(close=not self.keep_connections)
        if journal is not None:  # every answer committed: this batch's journal is no longer needed
            journal.settle()
        for spec, n in sorted(resent.items()):
            log.info("%s: %d call(s) re-sent: an earlier run with this cache had sent them and was stopped before "
                     "their answers were stored (at most the calls in flight and %d answered ones per stop)",
                     spec, n, self.commit_rows())

    def commit_rows(self) -> int:
        """The most answers left uncommitted at once (``RunnerConfig.commit_rows``; by default half the
        concurrency, at least 1, at most 512): with the calls in flight, what a ``kill -9`` makes a re-run
        send again."""
        if self.config.commit_rows is not None:
            return max(1, int(self.config.commit_rows))
        return max(1, min(512, int(self.config.concurrency) // 2))

    def store(self, key: str, request: ModelRequest, resp: ModelResponse) -> ModelResponse:
        """Account for and cache one completed call sent by an executor, exactly as if sent from here."""
        return self._store(self.backend(request.model), key, request, resp)

    def store_many(self, items: Iterable[tuple[str, ModelRequest, ModelResponse]]) -> list[ModelResponse]:
        """:meth:`store` for a group of completed calls ``(key, request, response)``, cached in ONE transaction
        (an executor's chunk); what was accounted before an error (``fail_fast``) is still committed."""
        group = CallGroup()
        try:
            return [self._store(self.backend(req.model), key, req, resp, group) for key, req, resp in items]
        finally:
            if self.cache is not None and group:
                self.cache.put_many(group)

    def _store(self, backend: Backend, key: str, request: ModelRequest, resp: ModelResponse,
               writer: "CommitBuffer | CallGroup | None" = None) -> ModelResponse:
        # the backend's fresh response object, completed in place (no copies)
        set_fields(resp, request_key=key, model=request.model)
        if resp.error is not None:  # every stored or logged error text passes the backend's redaction
            resp.error = backend.redact(resp.error)
        usage = self._usage(request.model)
        if resp.error is None:
            usage.calls += 1
            usage.prompt_tokens += resp.prompt_tokens
            usage.completion_tokens += resp.completion_tokens
            if writer is not None:
                writer.add(key, backend.identity(), request, resp)
            elif self.cache is not None:
                self.cache.put(key, backend.identity(), request, resp)
        else:
            usage.failures += 1
            log.warning("model call failed for %s after %d attempt(s): %s", request.model, resp.attempts, resp.error)
            if self.config.fail_fast:
                raise BackendError(f"runner.fail_fast: stopping at the first failed model call ({request.model}): "
                                   f"{resp.error}")
        return resp

    async def _run_local_batch(self, backend: Backend, chunk: list[tuple[str, ModelRequest]],
                               each: Callable[[int, ModelResponse], None] | None = None) -> list[ModelResponse]:
        """Answers to one chunk of a local backend, in chunk order. With ``each``, and a backend that hands answers
        back as they finish (``streams_answers``: the ``hf:``/``embedded`` engine), ``each(i, answer)`` is called on
        this event loop for every answer as soon as it is done, while the rest of the chunk is still decoding:
        the caller stores it and moves the progress bar then (a killed run loses only what was in flight)."""
        t0 = time.monotonic()
        handed: dict[int, ModelResponse] = {}
        problems: list[BaseException] = []

        def hand(i: int, resp: ModelResponse) -> None:  # on the event loop
            resp = resp.model_copy()
            resp.latency_s = (time.monotonic() - t0) / (len(handed) + 1)  # this answer's share of the time so far
            handed[i] = resp
            if each is not None and not problems:
                try:
                    each(i, resp)
                except BaseException as exc:  # noqa: BLE001 - raised below, once the backend's thread returns
                    problems.append(exc)

        try:
            whole = getattr(backend, "agenerate_batch", None)  # e.g. openai-batch: awaited here, cancellable
            reqs = [r for _, r in chunk]
            if whole is not None:
                resps = await whole(reqs)
            elif each is not None and getattr(backend, "streams_answers", False):
                loop = asyncio.get_running_loop()
                streaming: Any = backend.generate  # (Backend.generate has no on_response: the engine's has)
                resps = await asyncio.to_thread(
                    lambda: streaming(reqs, on_response=lambda i, r: loop.call_soon_threadsafe(hand, i, r)))
                await asyncio.sleep(0)  # (the hand-backs were queued before the thread's end: they have run)
            else:
                resps = await asyncio.to_thread(backend.generate, reqs)
        except Exception as exc:  # a local failure is not retried: it would fail again
            err = backend.redact(f"{type(exc).__name__}: {exc}")
            if self.config.fail_fast:
                raise BackendError(f"runner.fail_fast: stopping at the first failed model call ({backend.spec}): "
                                   f"{err}") from None
            resps = [ModelResponse(request_key=k, model=backend.spec, error=err) for k, _ in chunk]
        if problems:
            raise problems[0]
        dt = (time.monotonic() - t0) / max(1, len(chunk))
        out = []
        for i, resp in enumerate(resps):
            if i in handed:  # already given to ``each``: the same object
                out.append(handed[i])
                continue
            resp = resp.model_copy()  # a local backend may hand back shared objects: completed on a copy
            resp.latency_s = dt
            out.append(resp)
        return out

    async def _wait_before_retry(self, backend: Backend, delay: float, why: str, bar: Any = None) -> None:
        """Sleep ``delay`` seconds; meanwhile the progress line says that (and why) calls wait on the server."""
        self._waiting += 1
        text = f"waiting {delay:.1f} s on {backend.spec}: {why}"
        if self._waiting > 1:
            text += f" ({self._waiting} calls waiting)"
        if bar is not None:
            bar.set_postfix_str(text, refresh=True)
        log.info("%s", text)
        try:
            await asyncio.sleep(delay)
        finally:
            self._waiting -= 1
            if bar is not None and self._waiting == 0:
                bar.set_postfix_str("", refresh=True)

    async def _call_with_retries(
        self, backend: Backend, req: ModelRequest, limiter: RateLimiter | None, bar: Any = None,
        deadlines: Deadlines | None = None,
    ) -> ModelResponse:
        """One call with retries; each attempt limited to ``timeout_s`` (by the pool's watchdog, ``deadlines``,
        else by ``asyncio.timeout``)."""
        cfg = self.config
        last_error = ""
        for attempt in range(cfg.max_retries + 1):
            if limiter is not None:
                await limiter.wait()
            t0 = time.monotonic()
            retry_after: float | None = None
            try:
                if deadlines is None:
                    async with asyncio.timeout(cfg.timeout_s):  # no extra task per call (wait_for made one)
                        resp = await backend.agenerate(req)
                else:
                    task = deadlines.begin()
                    try:
                        resp = await backend.agenerate(req)
                    except asyncio.CancelledError:
                        if not deadlines.expired(task):
                            raise
                        raise asyncio.TimeoutError from None
                    finally:
                        deadlines.end(task)
                set_fields(resp, latency_s=time.monotonic() - t0, attempts=attempt + 1)
                return resp
            except RetryableError as exc:
                last_error, retry_after = backend.redact(str(exc)), exc.retry_after
            except asyncio.TimeoutError:
                last_error = f"timed out after {cfg.timeout_s}s"
            except Exception as exc:  # non-retryable (bad request, auth, ...)
                return ModelResponse(request_key="", model=req.model, error=backend.redact(f"{type(exc).__name__}: {exc}"),
                                     attempts=attempt + 1)
            if attempt < cfg.max_retries:
                self._usage(req.model).retries += 1
                delay = min(cfg.backoff_max_s, cfg.backoff_base_s * (2**attempt))
                delay = delay * (0.5 + random.random() / 2)  # jitter (not seeded: timing only)
                why = f"retry {attempt + 1}/{cfg.max_retries} after {short_error_reason(last_error)}"
                if retry_after is not None:
                    if retry_after > cfg.retry_after_max_s:  # a warning once per model, then INFO lines
                        level = logging.INFO if backend.spec in self._capped else logging.WARNING
                        self._capped.add(backend.spec)
                        log.log(level, "%s asked to retry after %g s; waiting the cap of %g s (retry_after_max_s)",
                                backend.spec, round(retry_after, 1), cfg.retry_after_max_s)
                    delay = max(delay, min(retry_after, cfg.retry_after_max_s))
                    why = f"server asked Retry-After {round(retry_after, 1):g} s (cap {cfg.retry_after_max_s:g} s); " + why
                await self._wait_before_retry(backend, delay, why, bar)
        return ModelResponse(request_key="", model=req.model, error=f"gave up after {cfg.max_retries + 1} attempts: {last_error}", attempts=cfg.max_retries + 1)

    # ---- scoring (cached per text) ----------------------------------------------
    def score_key(self, spec: str, kind: str, item: Any) -> str:
        """Cache key of one scoring item (``kind``: ``loglik``, ``embed`` or ``masked``)."""
        ident = self.backend(spec).identity()
        return stable_hash("clinaudit-score-v1", kind, ident, masked_item_key(item) if kind == "masked" else item)

    def _cached_vectors(
        self, spec: str, kind: RequestKind, items: Sequence[Any], item_key: Callable[[Any], Any], compute: Callable[[list[Any]], np.ndarray], desc: str
    ) -> np.ndarray:
        backend = self.backend(spec)
        ident = backend.identity()
        keys = [stable_hash("clinaudit-score-v1", kind, ident, item_key(it)) for it in items]
        found = self.cache.get_many(keys) if self.cache is not None else {}
        usage = self._usage(spec)
        values: dict[str, Any] = {k: decode_score(found[k]) for k in keys if k in found}
        usage.cache_hits += sum(1 for k in keys if k in found)
        missing = list(dict.fromkeys(k for k in keys if k not in values))
        first_item: dict[str, Any] = {}
        for k, it in zip(keys, items):
            first_item.setdefault(k, it)
        size = max(1, int(getattr(backend, "submit_size", None) or getattr(backend, "batch_size", None) or 32))
        bar = progress_bar(len(missing), desc, self.config.progress)
        try:
            for start in range(0, len(missing), size):
                chunk = missing[start : start + size]
                arr = np.asarray(compute([first_item[k] for k in chunk]))
                usage.calls += len(chunk)
                rows = []
                for k, val in zip(chunk, arr):
                    values[k] = np.asarray(val)
                    if self.cache is not None:
                        req = ModelRequest(model=spec, kind=kind, prompt=str(item_key(first_item[k]))[:2000])
                        rows.append((k, ident, req, ModelResponse(request_key=k, model=spec, text=encode_score(val))))
                if rows and self.cache is not None:
                    self.cache.put_many(rows)  # one transaction per computed chunk
                bar.update(len(chunk))
        finally:
            bar.close()
        return np.stack([np.asarray(values[k], dtype=float) for k in keys]) if keys else np.zeros((0,))

    def loglik(self, spec: str, texts: Sequence[str], desc: str = "log-likelihoods") -> np.ndarray:
        backend = self.backend(spec)
        return self._cached_vectors(spec, "loglik", list(texts), lambda t: t, backend.loglik, desc).reshape(-1)

    def embed(self, spec: str, texts: Sequence[str], desc: str = "embeddings") -> np.ndarray:
        backend = self.backend(spec)
        return self._cached_vectors(spec, "embed", list(texts), lambda t: t, backend.embed, desc)

    def masked_logprobs(self, spec: str, items: Sequence[MaskedItem], desc: str = "masked log-probs") -> np.ndarray:
        backend = self.backend(spec)
        return self._cached_vectors(
            spec, "masked", list(items), masked_item_key, backend.masked_logprobs, desc
        ).reshape(-1)


_CHUNK = 512  # generate_each: requests keyed and looked up in the cache per chunk
_FIRST_CHUNK = 64  # ... the first chunk smaller: the first calls go out sooner
