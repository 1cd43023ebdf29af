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
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .cache import ResponseCache
from .errors import BackendError
from .models.base import Backend, MaskedItem, RetryableError, get_backend
from .records import ModelRequest, ModelResponse, stable_hash

__all__ = ["Runner", "RunnerConfig", "Usage"]

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


@dataclass
class Usage:
    calls: int = 0  # model calls that returned (not cache hits)
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    wall_s: float = 0.0

    def add(self, other: "Usage") -> None:
        for k, v in asdict(other).items():
            setattr(self, k, getattr(self, k) + v)


class _RateLimiter:
    """Evenly spaced starts: at most ``per_min`` call starts per minute."""

    def __init__(self, per_min: float):
        self.interval = 60.0 / per_min
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        async with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)


def _progress(total: int, desc: str, enabled: bool):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, disable=not enabled or total == 0, leave=False, dynamic_ncols=True)


class Runner:
    """Runs model requests through backends with caching, retries and accounting.

    ``backend_options`` maps a model spec to the options its backend needs
    (``base_url``, ``api_key_env``, mock ``rules``, ``batch_size`` ...).
    """

    def __init__(
        self,
        cache: ResponseCache | None = None,
        config: RunnerConfig | None = None,
        backend_options: dict[str, dict[str, Any]] | None = None,
    ):
        self.cache = cache
        self.config = config or RunnerConfig()
        self.backend_options = dict(backend_options or {})
        self.usage: dict[str, Usage] = {}
        self._backends: dict[str, Backend] = {}
        self._lock = threading.Lock()
        self._waiting = 0  # remote calls now sleeping before a retry (shown on the progress line)
        self._capped: set[str] = set()  # models already warned about a Retry-After above the cap
        #: ``None``: send uncached calls from this process; else an executor (:mod:`clinaudit.executors`)
        #: whose ``dispatch(runner, requests_by_key, bar)`` sends them and stores each through :meth:`store`
        self.executor: Any = None

    # ---- backends ---------------------------------------------------------
    def add_backend(self, backend: Backend) -> None:
        """Use this instance for its spec (e.g. a mock with a Python responder)."""
        self._backends[backend.spec] = backend

    def backend(self, spec: str) -> Backend:
        if spec not in self._backends:
            self._backends[spec] = get_backend(spec, **self.backend_options.get(spec, {}))
        return self._backends[spec]

    def _usage(self, spec: str) -> Usage:
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
        return _run_sync(self.agenerate(requests, desc=desc))

    async def agenerate(self, requests: Sequence[ModelRequest], desc: str = "model calls") -> list[ModelResponse]:
        started = time.monotonic()
        keys = [self.request_key(r) for r in requests]
        results: list[ModelResponse | None] = [None] * len(requests)
        cached = self.cache.get_many(keys) if self.cache is not None else {}
        todo: dict[str, list[int]] = {}
        for i, (req, key) in enumerate(zip(requests, keys)):
            if key in cached:
                results[i] = cached[key].model_copy(update={"request_key": key, "meta": dict(req.meta)})
                self._usage(req.model).cache_hits += 1
            else:
                todo.setdefault(key, []).append(i)
        if todo:
            by_backend: dict[str, list[str]] = {}
            for key, idxs in todo.items():
                by_backend.setdefault(requests[idxs[0]].model, []).append(key)
            bar = _progress(len(todo), desc, self.config.progress)
            try:
                coros = []
                if self.executor is not None:  # another executor (e.g. Ray) sends the uncached calls ...
                    # ... except those of batch-API backends (openai-batch): they take the whole list, here
                    whole = {m for m in by_backend if getattr(self.backend(m), "agenerate_batch", None) is not None}
                    sent = {k: requests[i[0]] for k, i in todo.items() if requests[i[0]].model not in whole}
                    by_backend = {m: ks for m, ks in by_backend.items() if m in whole}
                    if sent:
                        coros.append(self.executor.dispatch(self, sent, bar))
                for spec, bkeys in by_backend.items():
                    backend = self.backend(spec)
                    first = {k: requests[todo[k][0]] for k in bkeys}
                    if backend.is_remote:
                        coros.append(self._run_remote(backend, first, bar))
                    else:
                        coros.append(self._run_local(backend, first, bar))
                outcomes = await asyncio.gather(*coros)
            finally:
                bar.close()
            for outcome in outcomes:
                for key, resp in outcome.items():
                    for i in todo[key]:
                        results[i] = resp.model_copy(update={"meta": dict(requests[i].meta)})
        elapsed = time.monotonic() - started
        for spec in {r.model for r in requests}:
            self._usage(spec).wall_s += elapsed / max(1, len({r.model for r in requests}))
        return [r for r in results if r is not None]

    def store(self, key: str, request: ModelRequest, resp: ModelResponse) -> ModelResponse:
        """Account for and cache one completed call sent by an executor, exactly as if sent from here."""
        return self._store(self.backend(request.model), key, request, resp)

    def _store(self, backend: Backend, key: str, request: ModelRequest, resp: ModelResponse) -> ModelResponse:
        resp = resp.model_copy(update={"request_key": key, "model": request.model})
        if resp.error is not None:  # every stored or logged error text passes the backend's redaction
            resp = resp.model_copy(update={"error": backend.redact(resp.error)})
        usage = self._usage(request.model)
        if resp.error is None:
            usage.calls += 1
            usage.prompt_tokens += resp.prompt_tokens
            usage.completion_tokens += resp.completion_tokens
            if self.cache is not None:
                self.cache.put(key, backend.identity(), request, resp)
        else:
            usage.failures += 1
            log.warning("model call failed for %s after %d attempt(s): %s", request.model, resp.attempts, resp.error)
            if self.config.fail_fast:
                raise BackendError(f"runner.fail_fast: stopping at the first failed model call ({request.model}): "
                                   f"{resp.error}")
        return resp

    async def _run_local(self, backend: Backend, reqs: dict[str, ModelRequest], bar) -> dict[str, ModelResponse]:
        out: dict[str, ModelResponse] = {}
        keys = list(reqs)
        # requests handed to one generate() call: the backend's submit_size (a wider window for an
        # in-flight engine that keeps batch_size rows decoding), else its batch_size
        size = max(1, int(getattr(backend, "submit_size", None) or getattr(backend, "batch_size", 8)))
        for start in range(0, len(keys), size):
            chunk = keys[start : start + size]
            t0 = time.monotonic()
            try:
                whole = getattr(backend, "agenerate_batch", None)  # e.g. openai-batch: awaited here, cancellable
                resps = await (whole([reqs[k] for k in chunk]) if whole is not None
                               else asyncio.to_thread(backend.generate, [reqs[k] for k in chunk]))
            except Exception as exc:  # a local failure is not retried: it would fail again
                err = backend.redact(f"{type(exc).__name__}: {exc}")
                if self.config.fail_fast:
                    raise BackendError(f"runner.fail_fast: stopping at the first failed model call ({backend.spec}): "
                                       f"{err}") from None
                resps = [ModelResponse(request_key=k, model=backend.spec, error=err) for k in chunk]
            dt = (time.monotonic() - t0) / max(1, len(chunk))
            for k, resp in zip(chunk, resps):
                out[k] = self._store(backend, k, reqs[k], resp.model_copy(update={"latency_s": dt}))
                bar.update(1)
        return out

    async def _run_remote(self, backend: Backend, reqs: dict[str, ModelRequest], bar) -> dict[str, ModelResponse]:
        sem = asyncio.Semaphore(max(1, self.config.concurrency))
        limiter = _RateLimiter(self.config.rate_limit_per_min) if self.config.rate_limit_per_min else None
        out: dict[str, ModelResponse] = {}

        async def one(key: str, req: ModelRequest) -> None:
            async with sem:
                resp = await self._call_with_retries(backend, req, limiter, bar)
            out[key] = self._store(backend, key, req, resp)
            bar.update(1)

        try:
            await asyncio.gather(*(one(k, r) for k, r in reqs.items()))
        finally:
            closer = getattr(backend, "aclose", None)  # release HTTP connections before this event loop ends
            if closer is not None:
                await closer()
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
        self, backend: Backend, req: ModelRequest, limiter: _RateLimiter | None, bar: Any = None
    ) -> ModelResponse:
        cfg = self.config
        last_error = ""
        for attempt in range(cfg.max_retries + 1):
            if limiter is not None:
                await limiter.wait()
            t0 = time.monotonic()
            retry_after: float | None = None
            try:
                resp = await asyncio.wait_for(backend.agenerate(req), timeout=cfg.timeout_s)
                return resp.model_copy(update={"latency_s": time.monotonic() - t0, "attempts": attempt + 1})
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
                why = f"retry {attempt + 1}/{cfg.max_retries} after {_short_reason(last_error)}"
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
        return stable_hash("clinaudit-score-v1", kind, ident, _masked_key(item) if kind == "masked" else item)

    def _cached_vectors(
        self, spec: str, kind: str, items: Sequence[Any], item_key: Callable[[Any], Any], compute: Callable[[list[Any]], np.ndarray], desc: str
    ) -> np.ndarray:
        backend = self.backend(spec)
        ident = backend.identity()
        keys = [stable_hash("clinaudit-score-v1", kind, ident, item_key(it)) for it in items]
        found = self.cache.get_many(keys) if self.cache is not None else {}
        usage = self._usage(spec)
        values: dict[str, Any] = {k: _decode_value(found[k]) for k in keys if k in found}
        usage.cache_hits += sum(1 for k in keys if k in found)
        missing = list(dict.fromkeys(k for k in keys if k not in values))
        first_item = {}
        for k, it in zip(keys, items):
            first_item.setdefault(k, it)
        size = max(1, int(getattr(backend, "submit_size", None) or getattr(backend, "batch_size", 32)))
        bar = _progress(len(missing), desc, self.config.progress)
        try:
            for start in range(0, len(missing), size):
                chunk = missing[start : start + size]
                arr = np.asarray(compute([first_item[k] for k in chunk]))
                usage.calls += len(chunk)
                for k, val in zip(chunk, arr):
                    values[k] = np.asarray(val)
                    if self.cache is not None:
                        req = ModelRequest(model=spec, kind=kind, prompt=str(item_key(first_item[k]))[:2000])
                        self.cache.put(k, ident, req, ModelResponse(request_key=k, model=spec, text=_encode_value(val)))
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
            spec, "masked", list(items), _masked_key, backend.masked_logprobs, desc
        ).reshape(-1)


def _short_reason(error: str) -> str:
    """``"HTTP 429 from http://...: {...}"`` -> ``"HTTP 429"``; other errors: their first 40 characters."""
    m = re.match(r"(HTTP \d{3}|timed out after \S+|timeout|connection error|unreadable JSON)", error)
    return m.group(1) if m else error[:40]


def _masked_key(it: MaskedItem) -> list[Any]:
    """Cache key of a masked item (unchanged for items that score every mask)."""
    if getattr(it, "score_masks", None) is None:
        return [it.text, list(it.targets)]
    return [it.text, list(it.targets), list(it.score_masks)]


def _encode_value(val: Any) -> str:
    import json

    return json.dumps(np.asarray(val, dtype=float).tolist())


def _decode_value(resp: ModelResponse) -> np.ndarray:
    import json

    return np.asarray(json.loads(resp.text or "null"), dtype=float)


def _run_sync(coro):
    """``asyncio.run`` that also works when called from inside a running loop (notebooks)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = asyncio.run(coro)
        except BaseException as exc:  # pragma: no cover - re-raised below
            result["error"] = exc

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in result:
        raise result["error"]
    return result["value"]
