"""A pool of OpenAI-compatible endpoints serving the same model: ``openai:<model>`` with several base URLs.

``--base-url URL1,URL2,...`` on the command line, or a list (or comma-separated string) under
``base_url`` in a spec's ``backends:`` entry, makes the ``openai`` backend a pool:

* **least outstanding requests**: each call goes to the healthy endpoint with the fewest calls in
  flight (ties: the one that has been sent fewest calls so far, so an idle pool takes turns);
* **per-endpoint concurrency** (``endpoint_concurrency``): at most that many calls in flight on any
  one endpoint; a call waits for a free slot (the runner's ``concurrency`` bounds the total);
* **health**: an endpoint that refuses or drops a connection is taken out at once, one that fails
  ``endpoint_max_failures`` calls in a row (timeouts, HTTP 5xx, unreadable answers) likewise.
  After ``endpoint_cooldown_s`` seconds it gets one probe call; a success brings it back, a
  failure takes it out again for twice as long (at most 10 times the cool-down). HTTP 429 sends
  the call elsewhere without counting against the endpoint.
* **no call lost or answered twice**: a call that fails on one endpoint is sent at once to another
  (each endpoint at most once per attempt); only a call that ended in an error is re-sent, so an
  answer that arrived is never asked for again. When every endpoint is out or has failed the
  call, the pool raises :class:`~clinaudit.models.base.RetryableError` and the runner retries the
  call with its usual backoff (and records it as failed when its retries run out; a re-run
  retries it: nothing is stored for it).

The pool is one model: its backend identity, and so every request key and cache entry, is that
of a single-endpoint ``openai:<model>`` backend at the pool's **first** URL. Which endpoint
answered is not part of the key; adding or removing endpoints after the first keeps every stored
answer. ``describe()`` lists every endpoint (URLs only; the key is never part of it).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any

from ..errors import BackendError
from ..records import ModelRequest, ModelResponse
from .base import Backend, RetryableError, register_backend
from .options import OpenAIOptions

__all__ = ["OpenAIPoolBackend", "openai_backend", "split_base_urls", "POOL_OPTIONS"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"  # as clinaudit.models.openai_compat

log = logging.getLogger("clinaudit.pool")

#: Options of the pool itself (the other options go to every endpoint's ``openai`` backend).
POOL_OPTIONS = {"endpoint_concurrency", "endpoint_max_failures", "endpoint_cooldown_s"}
_MAX_COOLDOWN_FACTOR = 10.0


def split_base_urls(base_url: Any) -> list[str] | None:
    """``"u1,u2"`` or ``["u1", "u2"]`` -> ``["u1", "u2"]`` (blanks dropped); ``None`` stays ``None``."""
    if base_url is None:
        return None
    items = base_url.split(",") if isinstance(base_url, str) else list(base_url)
    urls = [str(u).strip().rstrip("/") for u in items if str(u).strip()]
    if not urls:
        raise BackendError(f"base_url lists no endpoint: {base_url!r}")
    dupes = sorted({u for u in urls if urls.count(u) > 1})
    if dupes:
        raise BackendError(f"base_url lists the endpoint {dupes[0]} more than once")
    return urls


@register_backend("openai", capabilities=["generate"], options_model=OpenAIOptions,
                  summary="any OpenAI-compatible endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp server), or a pool of them "
                  "(base_url URL1,URL2,...): openai:<model>")
def openai_backend(spec: str, **options: Any) -> Backend:
    """The ``openai`` backend: one endpoint, or a pool when ``base_url`` lists several (or pool options are given)."""
    env_url = os.environ.get("OPENAI_BASE_URL") or ""
    if options.get("base_url") is None and ("," in env_url or any(options.get(k) is not None for k in POOL_OPTIONS)):
        options = {**options, "base_url": env_url or DEFAULT_BASE_URL}  # OPENAI_BASE_URL=U1,U2 is a pool too
    urls = split_base_urls(options.get("base_url"))
    pooled = (urls is not None and (len(urls) > 1 or not isinstance(options.get("base_url"), str))) or any(
        options.get(k) is not None for k in POOL_OPTIONS)
    if not pooled:
        from .openai_compat import OpenAICompatBackend

        return OpenAICompatBackend(spec, **{k: v for k, v in options.items() if k not in POOL_OPTIONS})
    return OpenAIPoolBackend(spec, **options)


class _Endpoint:
    """One endpoint's backend and health (plain numbers: shared by every event loop that calls the pool)."""

    def __init__(self, index: int, url: str, backend: Any, limit: int | None):
        self.index = index
        self.url = url
        self.backend = backend
        self.limit = limit
        self.outstanding = 0
        self.sent = 0  # calls dispatched here
        self.answered = 0
        self.failed = 0
        self.streak = 0  # failures in a row
        self.down_until: float | None = None  # set while taken out
        self.cooldown = 0.0  # length of the current (or last) time out
        self.probing = False  # one probe call in flight after a cool-down

    def usable(self, now: float) -> bool:
        if self.down_until is None:
            return True
        return now >= self.down_until and not self.probing

    def has_slot(self) -> bool:
        if self.down_until is not None:  # a probe: one call at a time
            return self.outstanding == 0
        return self.limit is None or self.outstanding < self.limit


class OpenAIPoolBackend(Backend):
    """``openai:<model>`` over several base URLs serving the same model (see the module docstring)."""

    name = "openai"
    is_remote = True

    def __init__(
        self,
        spec: str,
        *,
        base_url: Any = None,
        endpoint_concurrency: int | None = None,
        endpoint_max_failures: int | None = None,
        endpoint_cooldown_s: float | None = None,
        **options: Any,
    ):
        from .openai_compat import OpenAICompatBackend

        urls = split_base_urls(base_url)
        if urls is None:
            raise BackendError("an endpoint pool needs base_url: a list of URLs, or URL1,URL2,... ")
        if endpoint_concurrency is not None and int(endpoint_concurrency) < 1:
            raise BackendError(f"endpoint_concurrency must be at least 1, got {endpoint_concurrency!r}")
        if endpoint_max_failures is not None and int(endpoint_max_failures) < 1:
            raise BackendError(f"endpoint_max_failures must be at least 1, got {endpoint_max_failures!r}")
        if endpoint_cooldown_s is not None and not float(endpoint_cooldown_s) >= 0:
            raise BackendError(f"endpoint_cooldown_s must be >= 0 seconds, got {endpoint_cooldown_s!r}")
        super().__init__(spec, **options)
        limit = int(endpoint_concurrency) if endpoint_concurrency is not None else None
        self.endpoint_concurrency = limit
        self.max_failures = int(endpoint_max_failures) if endpoint_max_failures is not None else 3
        self.cooldown_s = float(endpoint_cooldown_s) if endpoint_cooldown_s is not None else 30.0
        self.endpoints = [_Endpoint(i, u, OpenAICompatBackend(spec, base_url=u, **options), limit)
                          for i, u in enumerate(urls)]
        first = self.endpoints[0].backend
        self.model = first.model
        self.base_urls = [e.backend.base_url for e in self.endpoints]
        self._waiters: list[asyncio.Future] = []  # calls waiting for a free endpoint

    # ---- identity: the first endpoint's, so the pool shares keys and cache with it -------------
    def identity(self) -> str:
        return self.endpoints[0].backend.identity()

    def describe(self) -> dict[str, Any]:
        out = dict(self.endpoints[0].backend.describe())
        out["base_url"] = list(self.base_urls)
        out["endpoints"] = list(self.base_urls)
        out["endpoint_concurrency"] = self.endpoint_concurrency
        out["endpoint_max_failures"] = self.max_failures
        out["endpoint_cooldown_s"] = self.cooldown_s
        return out

    def redact(self, text: str) -> str:
        for e in self.endpoints:  # they share api_key_env; each masks the same key
            text = e.backend.redact(text)
        return text

    def build_payload(self, request: ModelRequest) -> tuple[str, dict[str, Any]]:
        return self.endpoints[0].backend.build_payload(request)

    def stats(self) -> list[dict[str, Any]]:
        """Per endpoint: URL, calls sent, answered, failed, in flight now, and whether it is taken out."""
        return [{"url": e.url, "sent": e.sent, "answered": e.answered, "failed": e.failed,
                 "outstanding": e.outstanding, "out": e.down_until is not None} for e in self.endpoints]

    # ---- choosing an endpoint ---------------------------------------------------------------------
    def _wake(self) -> None:
        """Wake every call waiting for a slot (synchronous: safe in ``finally`` of a cancelled call)."""
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                try:
                    fut.set_result(None)
                except RuntimeError:  # its event loop has ended
                    pass

    async def _acquire(self, tried: set[int], last_error: str) -> _Endpoint:
        while True:
            now = time.monotonic()
            candidates = [e for e in self.endpoints if e.index not in tried]
            if not candidates:
                raise self._exhausted(tried, last_error)
            usable = [e for e in candidates if e.usable(now)]
            free = [e for e in usable if e.has_slot()]
            if free:
                best = min(free, key=lambda e: (e.outstanding, e.sent, e.index))
                if best.down_until is not None:
                    best.probing = True  # the first call after a cool-down is its probe
                best.outstanding += 1
                best.sent += 1
                return best
            ends = [e.down_until - now for e in candidates if e.down_until is not None and e.down_until > now]
            timeout = min(ends) if ends else None
            if not usable:
                probing = any(e.probing for e in candidates)
                if tried and not probing:  # failed here, every other endpoint is out: the runner backs off
                    raise self._exhausted(tried, last_error, retry_after=timeout)
                if timeout is not None and timeout > 1.0 and not probing:
                    raise self._exhausted(tried, last_error or "every endpoint is taken out", retry_after=timeout)
            fut = asyncio.get_running_loop().create_future()
            self._waiters.append(fut)
            try:
                await asyncio.wait_for(fut, timeout=timeout)
            except asyncio.TimeoutError:
                pass

    def _exhausted(self, tried: set[int], last_error: str, retry_after: float | None = None) -> RetryableError:
        out = sum(1 for e in self.endpoints if e.down_until is not None)
        why = last_error or "no endpoint available"
        return RetryableError(f"endpoint pool ({len(self.endpoints)} endpoints, {out} taken out, "
                              f"{len(tried)} failed this call): {why}", retry_after=retry_after)

    def _release(self, e: _Endpoint, outcome: str) -> None:
        """``outcome``: ``ok``; ``neutral`` (HTTP 429 or a refused request: not the endpoint's health);
        ``dead`` (connection refused or dropped: taken out at once); ``fail`` (timeout, 5xx, cancelled)."""
        e.outstanding -= 1
        was_probe, e.probing = e.probing, False
        if outcome == "ok":
            e.answered += 1
            e.streak = 0
            if e.down_until is not None:
                log.warning("endpoint %s is back in the pool after a successful probe call", e.url)
                e.down_until = None
                e.cooldown = 0.0
        elif outcome in ("dead", "fail"):
            e.failed += 1
            e.streak += 1
            if outcome == "dead" or e.streak >= self.max_failures or was_probe:
                if e.down_until is None or was_probe:
                    e.cooldown = (min(self.cooldown_s * _MAX_COOLDOWN_FACTOR, max(self.cooldown_s, e.cooldown * 2))
                                  if was_probe else self.cooldown_s)
                    e.down_until = time.monotonic() + e.cooldown
                    log.warning("endpoint %s taken out of the pool for %.1f s after %d failed call(s) in a row",
                                e.url, e.cooldown, e.streak)
        self._wake()

    # ---- calls ----------------------------------------------------------------------------------
    async def agenerate(self, request: ModelRequest) -> ModelResponse:
        tried: set[int] = set()
        last_error = ""
        last_retry_after: float | None = None
        while True:
            try:
                e = await self._acquire(tried, last_error)
            except RetryableError as exc:
                if exc.retry_after is None:
                    exc.retry_after = last_retry_after
                raise
            outcome = "fail"  # also a cancelled call (the runner's timeout): the endpoint did not answer in time
            try:
                resp = await e.backend.agenerate(request)
                outcome = "ok"
                return resp
            except RetryableError as exc:
                # no connection could be made (refused, DNS): the server is gone; dropped, timed out, 5xx: one
                # more failure; 429: busy, not failing
                outcome = "neutral" if exc.status == 429 else ("dead" if exc.unreachable else "fail")
                last_error, last_retry_after = str(exc), exc.retry_after
                tried.add(e.index)
            except BackendError:  # not retried (400, 401, ...): the request's fault, not the endpoint's
                outcome = "neutral"
                raise
            finally:
                self._release(e, outcome)

    async def aclose(self) -> None:
        log.info("endpoint pool %s: %s", self.spec, "; ".join(
            f"{s['url']}: {s['answered']} answered, {s['failed']} failed" for s in self.stats()))
        for e in self.endpoints:
            closer = getattr(e.backend, "aclose", None)
            if closer is not None:
                await closer()

    def close(self) -> None:
        for e in self.endpoints:
            e.backend.close()

    def count_tokens(self, text: str) -> int:
        return self.endpoints[0].backend.count_tokens(text)

