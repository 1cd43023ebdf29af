"""The runner's machinery for many calls at once: fixed pools of worker tasks and the cache's group commit.

* :class:`WorkerPool` - the workers of one backend pulling ``(key, request)`` items from one bounded queue:
  ``concurrency`` workers for a remote backend (no task object per call, no ``gather`` over every call),
  one worker running ``batch_size`` chunks in a thread for a local backend;
* :class:`CommitBuffer` - completed answers committed in groups by a writer thread (every ``rows // 2``
  answers, or by time through :meth:`CommitBuffer.flush_older_than`; never more than ``rows`` uncommitted);
* :class:`RateLimiter` - evenly spaced call starts;
* :class:`Deadlines` - the per-attempt timeouts of a pool's workers, kept by one watchdog task;
* :func:`wait_all` - wait for a feeder and its workers, raising the first failure at once;
* :func:`fewer_gc_passes` - the garbage collector's young generation made larger while calls run.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading
import time
from collections import deque
from collections.abc import Iterator
from collections.abc import Callable
from typing import Any

from .cache import ResponseCache
from .models.base import ATTEMPT_LIMIT_S, Backend
from .records import ModelRequest, ModelResponse

__all__ = ["CallGroup", "Channel", "CommitBuffer", "Deadlines", "NoBar", "RateLimiter", "WorkerPool", "fewer_gc_passes",
           "progress_bar", "wait_all"]


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
    """Answers waiting for the cache's group commit, committed by a writer thread so that a commit waiting on
    the disk (SQLite's WAL checkpoints sync it) never stalls the event loop.

    Every ``rows // 2`` answers (or older ones by time, :meth:`flush_older_than`) are encoded here and handed
    to the thread as one transaction; at most one group is in the thread at a time, so no more than ``rows``
    answers are ever uncommitted (what a ``kill -9`` can lose), as with one synchronous commit per ``rows``.
    Until committed they are found by :meth:`get` (a request repeated later in the same run is answered from
    here, not called again). :meth:`flush` returns once everything added is committed."""

    def __init__(self, cache: ResponseCache | None, rows: int):
        self.cache = cache
        self.rows = max(1, int(rows))
        self.group = max(1, self.rows // 2)
        self.items: dict[str, tuple[str, ModelRequest, ModelResponse]] = {}
        self.since = 0.0
        self.committing: dict[str, tuple[str, ModelRequest, ModelResponse]] = {}  # the group in the thread
        self._future: Any = None
        self._thread: Any = None  # a one-thread executor, started with the first group

    def add(self, key: str, ident: str, req: ModelRequest, resp: ModelResponse) -> None:
        if self.cache is None:
            return
        if not self.items:
            self.since = time.monotonic()
        self.items[key] = (ident, req, resp)
        if len(self.items) >= self.group:
            self._hand_over()

    def get(self, key: str) -> ModelResponse | None:
        """A copy of the answer to ``key`` waiting for its commit, marked cached (None when there is none)."""
        item = self.items.get(key) or self.committing.get(key)
        return None if item is None else item[2].model_copy(update={"cached": True})

    def _hand_over(self) -> None:
        self._wait()  # the previous group first: never more than one group in the thread
        items, self.items = self.items, {}
        assert self.cache is not None
        rows = self.cache.encode_rows((key, ident, req, resp) for key, (ident, req, resp) in items.items())
        if not rows:
            return
        if self._thread is None:
            from concurrent.futures import ThreadPoolExecutor

            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clinaudit-commit")
        self.committing = items
        self._future = self._thread.submit(self.cache.put_rows, rows)

    def _wait(self) -> None:
        """Wait for the group in the thread (raising its error, if any)."""
        if self._future is not None:
            future, self._future = self._future, None
            try:
                future.result()
            finally:
                self.committing = {}

    def flush(self) -> None:
        """Commit everything added so far; returns when it is committed."""
        if self.items and self.cache is not None:
            self._hand_over()
        self._wait()

    def flush_older_than(self, seconds: float) -> None:
        if self._future is not None and self._future.done():
            self._wait()  # a finished group: its error, if any, surfaces now
        if self.items and time.monotonic() - self.since >= seconds:
            self._hand_over()

    def close(self) -> None:
        """:meth:`flush`, then stop the writer thread."""
        try:
            self.flush()
        finally:
            if self._thread is not None:
                self._thread.shutdown(wait=True)
                self._thread = None


class Deadlines:
    """Per-attempt timeouts of a pool's workers kept by one watchdog task (``asyncio.timeout`` arms and
    cancels a timer for every call: ~10 us of the event loop's time per call at thousands of calls/s).

    A worker marks the start of an attempt (:meth:`begin`) and its end (:meth:`end`); every ``tick`` seconds
    (an eighth of the timeout, at most 1 s) the watchdog cancels each worker whose attempt has run past its
    deadline, and :meth:`expired` tells the worker that the ``CancelledError`` it got was that timeout (the
    cancellation is then withdrawn, as ``asyncio.timeout`` does). An attempt therefore times out between
    ``timeout_s`` and ``timeout_s + tick`` after it started."""

    def __init__(self, timeout_s: float):
        self.timeout_s = float(timeout_s)
        self.tick = min(1.0, max(0.005, self.timeout_s / 8))
        self.running: dict[asyncio.Task, tuple[float, int]] = {}  # worker -> (deadline, cancel requests before)
        self.fired: set[asyncio.Task] = set()  # cancelled by the watchdog, not told yet

    def begin(self) -> asyncio.Task:
        task = asyncio.current_task()
        assert task is not None
        self.running[task] = (time.monotonic() + self.timeout_s, task.cancelling())
        return task

    def end(self, task: asyncio.Task) -> None:
        self.running.pop(task, None)
        if task in self.fired:  # the attempt ended otherwise before the cancellation reached it
            self.fired.discard(task)
            task.uncancel()

    def expired(self, task: asyncio.Task) -> bool:
        """True when the ``CancelledError`` ``task`` got was its deadline alone (then no longer a cancellation);
        False for any other cancellation (also one that came together with the deadline)."""
        if task not in self.fired:
            return False
        self.fired.discard(task)
        before = self.running.get(task, (0.0, 0))[1]
        return task.uncancel() <= before

    async def watch(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            now = time.monotonic()
            for task, (deadline, _) in list(self.running.items()):
                if deadline <= now and task not in self.fired:
                    self.fired.add(task)
                    task.cancel()


class WorkerPool:
    """The worker tasks of one backend, pulling from one bounded queue (no task per call).

    Remote: ``concurrency`` workers, each making one call at a time with retries (their answers committed
    in groups). Local: one worker running chunks of ``batch_size`` requests (in request order, as before)
    in a thread, each chunk committed when it is done; a backend that hands answers back as they finish
    (``streams_answers``) has each one stored, and counted on the bar, as it comes."""

    def __init__(self, config: Any, backend: Backend, call: Callable[..., Any], run_batch: Callable[..., Any],
                 finish: Callable[..., None], bar: Any, commit: Callable[[], None] = lambda: None,
                 sending: Callable[[str, ModelRequest], None] = lambda key, req: None):
        self.backend, self.call, self.run_batch, self.finish, self.bar = backend, call, run_batch, finish, bar
        self.commit, self.sending = commit, sending
        cfg = config
        self.remote = bool(backend.is_remote)
        self.workers = max(1, int(cfg.concurrency)) if self.remote else 1
        # requests handed to one generate() call: the backend's submit_size (a wider window for an in-flight
        # engine that keeps batch_size rows decoding), else its batch_size
        self.size = 1 if self.remote else max(1, int(getattr(backend, "submit_size", None)
                                                     or getattr(backend, "batch_size", None) or 8))
        self.queue = Channel(max(64, 4 * self.workers))
        self.chunk: list[tuple[str, ModelRequest]] = []
        self.limiter = RateLimiter(cfg.rate_limit_per_min) if self.remote and cfg.rate_limit_per_min else None
        self.deadlines = Deadlines(cfg.timeout_s) if self.remote else None
        self._watchdog: asyncio.Task | None = None

    def start(self) -> list[asyncio.Task]:
        """Start the workers (returned) and, for a remote backend, the watchdog of their timeouts (stopped by
        :meth:`release`)."""
        work = self._remote if self.remote else self._local
        if self.deadlines is not None:
            self._watchdog = asyncio.create_task(self.deadlines.watch())
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
        assert self.deadlines is not None  # a remote pool's
        ATTEMPT_LIMIT_S.set(self.deadlines.timeout_s)  # in this task's context only: each attempt's limit
        backend, get, call, sending = self.backend, self.queue.get, self.call, self.sending
        while (item := await get()) is not None:
            sending(item[0], item[1])
            resp = await call(backend, item[1], self.limiter, self.bar, self.deadlines)
            self.finish(backend, item[0], item[1], resp)

    async def _local(self) -> None:
        while (chunk := await self.queue.get()) is not None:
            for key, req in chunk:
                self.sending(key, req)
            handed: set[int] = set()

            def each(i: int, resp: ModelResponse, chunk: list[tuple[str, ModelRequest]] = chunk,
                     handed: set[int] = handed) -> None:
                handed.add(i)  # an answer handed back before the chunk ends: stored, and the bar moves, now
                self.finish(self.backend, chunk[i][0], chunk[i][1], resp)

            resps = await self.run_batch(self.backend, chunk, each)
            for i, ((key, req), resp) in enumerate(zip(chunk, resps)):
                if i not in handed:
                    self.finish(self.backend, key, req, resp)
            self.commit()  # a local batch is slow to make: committed as soon as it is done

    async def release(self, close: bool = True) -> None:
        """Stop the watchdog and (``close``) the backend's HTTP connections: before this event loop ends."""
        if self._watchdog is not None:
            self._watchdog.cancel()
            await asyncio.gather(self._watchdog, return_exceptions=True)
            self._watchdog = None
        closer = getattr(self.backend, "aclose", None) if self.remote and close else None
        if closer is not None:
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


_GC_LOCK = threading.Lock()
_GC_STATE: dict[str, Any] = {"depth": 0, "saved": None}  # saved: the thresholds before the outermost block
#: young-generation threshold while calls run (CPython's default is 700 allocations)
GC_YOUNG_THRESHOLD = 20000


@contextlib.contextmanager
def fewer_gc_passes() -> Iterator[None]:
    """Run the block with a larger young generation (``gc.set_threshold(GC_YOUNG_THRESHOLD, ...)``), restored
    after the outermost such block ends.

    Every call allocates a few hundred objects, almost all freed at once by reference counting; with the
    default threshold the collector still passes over the young objects every 700 allocations and over every
    object of the process (pandas, pydantic ... ~90,000 at ``import clinaudit``) every few thousand calls.
    Measured on ``clinaudit generate`` at 10,000 calls: 572 collections taking 392 ms with the default, 27
    taking 85 ms with this (~30 us less CPU per call). Garbage in cycles is still collected, only in larger
    steps (a young generation of 20,000 objects is a few MB at most)."""
    with _GC_LOCK:
        if _GC_STATE["depth"] == 0:
            old = gc.get_threshold()
            _GC_STATE["saved"] = old
            gc.set_threshold(max(old[0], GC_YOUNG_THRESHOLD), *old[1:])
        _GC_STATE["depth"] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_STATE["depth"] -= 1
            if _GC_STATE["depth"] == 0 and _GC_STATE["saved"] is not None:
                gc.set_threshold(*_GC_STATE["saved"])
                _GC_STATE["saved"] = None


class NoBar:
    """The progress bar when none is shown (tqdm is then not imported at all)."""

    n = 0

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, desc: str, enabled: bool) -> Any:  # a tqdm bar, or NoBar
    if not enabled or total == 0:
        return NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, leave=False, dynamic_ncols=True)


class CallGroup(list[tuple[str, str, ModelRequest, ModelResponse]]):
    """Completed calls collected for one cache transaction (:meth:`Runner.store_many`; the ``add`` of a
    :class:`~clinaudit.workers.CommitBuffer`)."""

    def add(self, key: str, backend: str, request: ModelRequest, response: ModelResponse) -> None:
        self.append((key, backend, request, response))
