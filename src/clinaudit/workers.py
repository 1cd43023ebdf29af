"""The runner's machinery for many calls at once: fixed pools of worker tasks and the cache's group commit.

* :class:`WorkerPool` - the workers of one backend pulling ``(key, request)`` items from one bounded queue:
  ``concurrency`` workers for a remote backend (no task object per call, no ``gather`` over every call),
  one worker running ``batch_size`` chunks in a thread for a local backend;
* :class:`CommitBuffer` - completed answers handed to :meth:`ResponseCache.put_many` in groups (every
  ``rows`` answers, or by time through :meth:`CommitBuffer.flush_older_than`);
* :class:`RateLimiter` - evenly spaced call starts;
* :func:`wait_all` - wait for a feeder and its workers, raising the first failure at once.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from .cache import ResponseCache
from .models.base import Backend
from .records import ModelRequest, ModelResponse

__all__ = ["Channel", "CommitBuffer", "RateLimiter", "WorkerPool", "wait_all"]


class RateLimiter:
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


class CommitBuffer:
    """Answers waiting for the cache's group commit: one transaction per ``rows`` answers, older ones by time
    (:meth:`flush_older_than`). Until committed they are found by :meth:`get` (a request repeated later in
    the same run is answered from here, not called again)."""

    def __init__(self, cache: ResponseCache | None, rows: int):
        self.cache = cache
        self.rows = max(1, int(rows))
        self.items: dict[str, tuple[str, ModelRequest, ModelResponse]] = {}
        self.since = 0.0

    def add(self, key: str, ident: str, req: ModelRequest, resp: ModelResponse) -> None:
        if self.cache is None:
            return
        if not self.items:
            self.since = time.monotonic()
        self.items[key] = (ident, req, resp)
        if len(self.items) >= self.rows:
            self.flush()

    def get(self, key: str) -> ModelResponse | None:
        """A copy of the answer to ``key`` waiting for its commit, marked cached (None when there is none)."""
        item = self.items.get(key)
        return None if item is None else item[2].model_copy(update={"cached": True})

    def flush(self) -> None:
        if self.items and self.cache is not None:
            items, self.items = self.items, {}
            self.cache.put_many((key, ident, req, resp) for key, (ident, req, resp) in items.items())

    def flush_older_than(self, seconds: float) -> None:
        if self.items and time.monotonic() - self.since >= seconds:
            self.flush()


class WorkerPool:
    """The worker tasks of one backend, pulling from one bounded queue (no task per call).

    Remote: ``concurrency`` workers, each making one call at a time with retries (their answers committed
    in groups). Local: one worker running chunks of ``batch_size`` requests (in request order, as before)
    in a thread, each chunk committed when it is done."""

    def __init__(self, config: Any, backend: Backend, call: Callable[..., Any], run_batch: Callable[..., Any],
                 finish: Callable[..., None], bar: Any, commit: Callable[[], None] = lambda: None):
        self.backend, self.call, self.run_batch, self.finish, self.bar = backend, call, run_batch, finish, bar
        self.commit = commit
        cfg = config
        self.remote = bool(backend.is_remote)
        self.workers = max(1, int(cfg.concurrency)) if self.remote else 1
        # requests handed to one generate() call: the backend's submit_size (a wider window for an in-flight
        # engine that keeps batch_size rows decoding), else its batch_size
        self.size = 1 if self.remote else max(1, int(getattr(backend, "submit_size", None)
                                                     or getattr(backend, "batch_size", 8)))
        self.queue = Channel(max(64, 4 * self.workers))
        self.chunk: list[tuple[str, ModelRequest]] = []
        self.limiter = RateLimiter(cfg.rate_limit_per_min) if self.remote and cfg.rate_limit_per_min else None

    def start(self) -> list[asyncio.Task]:
        work = self._remote if self.remote else self._local
        return [asyncio.create_task(work()) for _ in range(self.workers)]

    async def put(self, key: str, req: ModelRequest) -> None:
        if self.remote:
            await self.queue.put((key, req))
            return
        self.chunk.append((key, req))
        if len(self.chunk) >= self.size:
            chunk, self.chunk = self.chunk, []
            await self.queue.put(chunk)

    async def close_input(self) -> None:
        if self.chunk:
            chunk, self.chunk = self.chunk, []
            await self.queue.put(chunk)
        for _ in range(self.workers):
            await self.queue.put(None)

    async def _remote(self) -> None:
        backend, get, call = self.backend, self.queue.get, self.call
        while (item := await get()) is not None:
            resp = await call(backend, item[1], self.limiter, self.bar)
            self.finish(backend, item[0], item[1], resp)

    async def _local(self) -> None:
        while (chunk := await self.queue.get()) is not None:
            resps = await self.run_batch(self.backend, chunk)
            for (key, req), resp in zip(chunk, resps):
                self.finish(self.backend, key, req, resp)
            self.commit()  # a local batch is slow to make: committed as soon as it is done

    async def release(self) -> None:
        closer = getattr(self.backend, "aclose", None) if self.remote else None
        if closer is not None:  # release HTTP connections before this event loop ends
            await closer()


class Channel:
    """A bounded FIFO between one feeder and many workers that wakes the feeder only at low water.

    ``asyncio.Queue`` wakes a blocked feeder for every item taken out of a full queue (one extra event-loop
    turn per call); here a feeder that found the channel full sleeps until it is half empty, and an item put
    while a worker waits goes straight to that worker."""

    def __init__(self, high: int):
        self.items: deque[Any] = deque()
        self.high = max(2, int(high))
        self.low = self.high // 2
        self.getters: deque[asyncio.Future] = deque()
        self.space: asyncio.Future | None = None

    async def put(self, item: Any) -> None:
        if len(self.items) >= self.high:
            self.space = asyncio.get_running_loop().create_future()
            await self.space
        while self.getters:
            fut = self.getters.popleft()
            if not fut.done():  # a cancelled worker's future is skipped
                fut.set_result(item)
                return
        self.items.append(item)

    async def get(self) -> Any:
        if self.items:
            item = self.items.popleft()
            space = self.space
            if space is not None and len(self.items) <= self.low:
                self.space = None
                if not space.done():
                    space.set_result(None)
            return item
        fut = asyncio.get_running_loop().create_future()
        self.getters.append(fut)
        return await fut


async def wait_all(feed_task: asyncio.Task, workers: list[asyncio.Task]) -> None:
    """Wait for the feeder and every worker (workers may start while we wait); raise the first failure at once."""
    while True:
        tasks = [feed_task, *workers]
        for t in tasks:  # every task, also those that ended between two looks
            if t.done() and not t.cancelled() and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]
        pending = {t for t in tasks if not t.done()}
        if not pending:
            return
        await asyncio.wait(pending, timeout=0.5, return_when=asyncio.FIRST_EXCEPTION)
