"""Content-addressed response cache in SQLite (request hash -> response).

:meth:`ResponseCache.put` commits each response on its own; :meth:`ResponseCache.put_many`
commits a group of responses in one transaction (the runner's group commit: it
hands over what completed every few hundred rows or every fraction of a second).
Either way a crash or ``kill -9`` loses only the calls not committed yet; a
restarted run finds every committed response and redoes only the rest. Failed
calls are never stored. API keys never reach the cache: requests carry no
credentials and backend identities exclude them.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import InputError
from .records import ModelRequest, ModelResponse, TextSplicer

if TYPE_CHECKING:
    from .models.base import MaskedItem

__all__ = ["ResponseCache", "SentJournal", "default_cache_path", "masked_item_key", "answer_from_cache", "encode_score",
           "decode_score"]

log = logging.getLogger("clinaudit.cache")


def default_cache_path() -> Path:
    """User-level cache (``$CLINAUDIT_CACHE_DIR`` or ``~/.cache/clinaudit``)."""
    import os

    base = os.environ.get("CLINAUDIT_CACHE_DIR") or (Path.home() / ".cache" / "clinaudit")
    return Path(base) / "responses.sqlite"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    backend TEXT NOT NULL,
    request TEXT NOT NULL,
    response TEXT NOT NULL,
    created REAL NOT NULL
);
"""


class ResponseCache:
    """The cache file. Reads and writes go through two SQLite connections (WAL lets a reader and a writer
    work at once): a commit in progress, which may wait on the disk, never holds up a lookup, and the
    runner can commit from its writer thread (:class:`~clinaudit.workers.CommitBuffer`)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()  # the read connection
        self._wlock = threading.Lock()  # the write connection (opened on the first write)
        self._wconn: sqlite3.Connection | None = None
        self._journal: SentJournal | None = None
        try:
            self._conn = self._connect()
            self._conn.execute(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise InputError(
                f"not a usable response cache ({exc}); move it aside to start a fresh cache", file=str(self.path)
            ) from None

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL is durable against process crashes (kill -9); only power loss can drop the last commits.
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def get(self, key: str) -> ModelResponse | None:
        with self._lock:
            row = self._conn.execute("SELECT response FROM responses WHERE key=?", (key,)).fetchone()
        if row is None:
            return None
        return _decode(row[0])

    def get_many(self, keys: Iterable[str]) -> dict[str, ModelResponse]:
        """The stored responses of ``keys`` (those found), by key; read 500 keys per query."""
        keys = list(dict.fromkeys(keys))
        found: dict[str, ModelResponse] = {}
        with self._lock:
            for i in range(0, len(keys), 500):
                chunk = keys[i : i + 500]
                q = "SELECT key, response FROM responses WHERE key IN (%s)" % ",".join("?" * len(chunk))
                for key, payload in self._conn.execute(q, chunk):
                    found[key] = _decode(payload)
        return found

    def latencies(self, backend: str, limit: int = 200) -> list[float]:
        """The recorded seconds per call (``latency_s``) of the ``limit`` latest stored answers of a backend
        identity (answers with no recorded time left out): the dry-run estimate's time per call."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT json_extract(response, '$.latency_s') FROM responses WHERE backend=? "
                "ORDER BY created DESC LIMIT ?", (backend, limit)).fetchall()
        return [float(v) for (v,) in rows if isinstance(v, (int, float)) and v > 0]

    def put(self, key: str, backend: str, request: ModelRequest, response: ModelResponse) -> None:
        """Store one response, committed at once (a key is stored once: the first answer wins)."""
        self.put_many([(key, backend, request, response)])

    def put_many(self, items: Iterable[tuple[str, str, ModelRequest, ModelResponse]]) -> int:
        """Store ``(key, backend identity, request, response)`` rows in ONE transaction; failures are skipped.

        Returns how many rows were handed to SQLite (duplicates of stored keys are ignored, not counted out).
        """
        return self.put_rows(self.encode_rows(items))

    @staticmethod
    def encode_rows(items: Iterable[tuple[str, str, ModelRequest, ModelResponse]]) -> list[tuple[Any, ...]]:
        """The table rows of ``(key, backend identity, request, response)`` items, failed calls left out (for
        :meth:`put_rows`; encoded at once, so later changes to the objects cannot reach the cache)."""
        return [_row(key, backend, request, response) for key, backend, request, response in items
                if response.error is None]  # never cache failures

    def put_rows(self, rows: list[tuple[Any, ...]]) -> int:
        """Store rows made by :meth:`encode_rows` in ONE transaction (safe to call from another thread)."""
        if not rows:
            return 0
        with self._wlock:
            if self._wconn is None:
                self._wconn = self._connect()
            conn = self._wconn
            # INSERT OR IGNORE: a key is stored once; a duplicate completion never adds a row.
            # isolation_level=None: the BEGIN/COMMIT pair is ours; the group is durable once COMMIT returns.
            # Many rows per INSERT statement (as many as SQLite takes parameters): one statement step with the
            # GIL released inserts them all, where executemany takes the GIL back after every row (and waits
            # for the event loop's thread to give it up: ~7 us of the runner's time per answer).
            per = self._rows_per_insert(conn)
            conn.execute("BEGIN")
            try:
                for i in range(0, len(rows), per):
                    part = rows[i : i + per]
                    conn.execute(_insert_sql(len(part)), [v for row in part for v in row])
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        return len(rows)

    @staticmethod
    def _rows_per_insert(conn: sqlite3.Connection) -> int:
        """Rows per INSERT: at most ``ROWS_PER_INSERT``, and within the connection's parameter limit (999 in
        SQLite before 3.32)."""
        return max(1, min(ROWS_PER_INSERT, conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // _COLUMNS))

    def stored_keys(self, keys: Iterable[str]) -> set[str]:
        """Those of ``keys`` that are stored (500 keys per query, no answer decoded)."""
        keys = list(dict.fromkeys(keys))
        found: set[str] = set()
        with self._lock:
            for i in range(0, len(keys), 500):
                chunk = keys[i : i + 500]
                q = "SELECT key FROM responses WHERE key IN (%s)" % ",".join("?" * len(chunk))
                found.update(k for (k,) in self._conn.execute(q, chunk))
        return found

    @property
    def journal(self) -> "SentJournal":
        """This process's journal of the calls sent with this cache (see :class:`SentJournal`)."""
        if self._journal is None:
            self._journal = SentJournal(self)
        return self._journal

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._wlock:
            if self._wconn is not None:
                self._wconn.close()
                self._wconn = None
        with self._lock:
            self._conn.close()


class SentJournal:
    """The keys of the calls sent with a cache, so that a run can tell which of its calls an earlier, stopped run
    had already sent: calls paid for twice (a ``kill -9`` loses the answers in flight and those not committed yet).

    Each process appends the key of every call it sends, before sending it, to a file of its own,
    ``<cache>.sent/<pid>-<token>.keys``, one unbuffered ``write`` per call (the bytes are the kernel's as soon as
    it returns: a killed process's journal is complete). A key found in the
    journal of another process (:meth:`earlier`, read once) is a call sent again. When a batch of calls ends
    normally (everything answered is committed), :meth:`settle` removes this process's file and those of
    finished processes whose keys are all stored (and the directory, once empty): it holds the journals of
    stopped runs only."""

    def __init__(self, cache: ResponseCache):
        self.cache = cache
        self.dir = cache.path.with_name(cache.path.name + ".sent")
        self.path = self.dir / f"{os.getpid()}-{secrets.token_hex(4)}.keys"
        self._fd: int | None = None
        self._earlier: dict[Path, set[str]] | None = None
        self._unstored: set[str] = set()
        self._lock = threading.Lock()

    def earlier(self) -> set[str]:
        """The keys in the journals of other processes that are not stored (read once; logged)."""
        if self._earlier is None:
            self._earlier = {}
            for path in sorted(self.dir.glob("*.keys")) if self.dir.is_dir() else []:
                if path != self.path:
                    try:  # a last line cut by the kill (no line end) is left out
                        lines = path.read_text(encoding="ascii", errors="replace").split("\n")[:-1]
                        self._earlier[path] = {line for line in lines if line}
                    except OSError:
                        continue
            sent = set().union(*self._earlier.values()) if self._earlier else set()
            self._unstored = sent - self.cache.stored_keys(sent)
            if self._unstored:
                log.info("the journals of %d earlier run(s) with this cache hold %d call(s) sent and never stored "
                         "(in flight or answered but not yet committed when the run stopped): a call sent again "
                         "is counted as re-sent", len(self._earlier), len(self._unstored))
        return self._unstored

    def record(self, key: str) -> None:
        """Append ``key`` (a call about to be sent)."""
        if self._fd is None:
            with self._lock:
                if self._fd is None:
                    self.dir.mkdir(parents=True, exist_ok=True)
                    self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.write(self._fd, key.encode("ascii", "replace") + b"\n")

    def settle(self) -> None:
        """Everything answered is committed: drop this process's journal and the stopped runs' journals whose
        keys are all stored now."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
                self.path.unlink(missing_ok=True)
            for path, keys in list((self._earlier or {}).items()):
                if not _alive(path) and len(self.cache.stored_keys(keys)) == len(keys):
                    path.unlink(missing_ok=True)
                    del self._earlier[path]  # type: ignore[union-attr]
            try:  # none left: no directory left either
                self.dir.rmdir()
            except OSError:
                pass


def _alive(journal: Path) -> bool:
    """Whether the process that writes ``journal`` (``<pid>-<token>.keys``) still runs (on this host)."""
    try:
        pid = int(journal.name.split("-", 1)[0])
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return pid != os.getpid()


# the stored request: its hashed fields as JSON (the same fields the key is computed from), serialised by
# pydantic-core in field order, made through a template per request shape (pydantic-core escapes a string as
# json's encode_basestring does: the same text, checked in tests/test_call_path.py)
_REQUEST_JSON = TextSplicer(lambda req, _: req.model_dump_json(exclude={"meta"}),
                            json.encoder.encode_basestring)


#: most rows one INSERT statement of :meth:`ResponseCache.put_rows` carries
ROWS_PER_INSERT = 500
_COLUMNS = 5  # key, backend, request, response, created


@functools.lru_cache(maxsize=64)
def _insert_sql(n: int) -> str:
    """``INSERT OR IGNORE`` of ``n`` rows in one statement (rows are inserted in order: the first of two rows
    with one key is the one kept, as with one statement per row)."""
    return ("INSERT OR IGNORE INTO responses(key, backend, request, response, created) VALUES "
            + ",".join(["(?,?,?,?,?)"] * n))


def _row(key: str, backend: str, request: ModelRequest, response: ModelResponse) -> tuple[Any, ...]:
    req_json = _REQUEST_JSON(request) or request.model_dump_json(exclude={"meta"})
    # the stored response: never its meta, never marked cached (no copy of the response is made for this); its
    # choices only when they are not just [text] (one choice: the text is not stored twice, _decode restores it)
    one = response.choices == [response.text]
    resp_json = response.model_dump_json(exclude=_ONE_CHOICE if one else _STORED_BUT)
    return (key, backend, req_json, resp_json, time.time())


# sets (pydantic's exclude= takes set or mapping), never changed
_STORED_BUT: set[str] = {"meta", "cached"}
_ONE_CHOICE: set[str] = _STORED_BUT | {"choices"}


def _decode(payload: str | bytes) -> ModelResponse:
    resp = ModelResponse.model_validate_json(payload)
    if "choices" not in resp.model_fields_set and resp.text is not None:  # stored with one choice, its text
        resp.choices = [resp.text]
    resp.cached = True
    return resp


def answer_from_cache(cached: dict[str, ModelResponse], used: dict[str, ModelResponse], key: str,
                      req: ModelRequest) -> ModelResponse:
    """The cached answer to ``req``: the loaded object itself the first time, a copy for a repeat of the key."""
    resp = cached.pop(key, None)
    if resp is None:
        return used[key].model_copy(update={"meta": dict(req.meta)})
    used[key] = resp
    resp.request_key = key
    resp.meta = dict(req.meta)
    return resp


# --------------------------------------------------------------------------- score values (Runner.loglik, embed, ...)

def masked_item_key(it: MaskedItem) -> list[Any]:
    """Cache key of a masked item (unchanged for items that score every mask)."""
    if it.score_masks is None:
        return [it.text, list(it.targets)]
    return [it.text, list(it.targets), list(it.score_masks)]


def encode_score(val: Any) -> str:
    """A score (a number or a vector) as the text the cache stores for it."""
    return json.dumps(np.asarray(val, dtype=float).tolist())


def decode_score(resp: ModelResponse) -> np.ndarray:
    """The score a cached response holds (:func:`encode_score`'s text read back)."""
    return np.asarray(json.loads(resp.text or "null"), dtype=float)
