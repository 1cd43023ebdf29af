"""Content-addressed response cache in SQLite (request hash -> response).

Each completed call is committed on its own, so a crash or ``kill -9`` loses
at most the calls in flight; a restarted run finds every stored response and
redoes only the rest. Failed calls are never stored. API keys never reach the
cache: requests carry no credentials and backend identities exclude them.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from .errors import InputError
from .records import ModelRequest, ModelResponse

__all__ = ["ResponseCache", "default_cache_path"]


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
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None, timeout=30)
            self._conn.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL is durable against process crashes (kill -9); only power loss can drop the last commits.
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise InputError(
                f"not a usable response cache ({exc}); move it aside to start a fresh cache", file=str(self.path)
            ) from None

    def get(self, key: str) -> ModelResponse | None:
        with self._lock:
            row = self._conn.execute("SELECT response FROM responses WHERE key=?", (key,)).fetchone()
        if row is None:
            return None
        resp = ModelResponse.model_validate_json(row[0])
        return resp.model_copy(update={"cached": True})

    def get_many(self, keys: Iterable[str]) -> dict[str, ModelResponse]:
        keys = list(dict.fromkeys(keys))
        found: dict[str, ModelResponse] = {}
        with self._lock:
            for i in range(0, len(keys), 500):
                chunk = keys[i : i + 500]
                q = "SELECT key, response FROM responses WHERE key IN (%s)" % ",".join("?" * len(chunk))
                for key, payload in self._conn.execute(q, chunk):
                    found[key] = ModelResponse.model_validate_json(payload).model_copy(update={"cached": True})
        return found

    def put(self, key: str, backend: str, request: ModelRequest, response: ModelResponse) -> None:
        if response.error is not None:
            return  # never cache failures
        req_json = json.dumps(request.model_dump(mode="json", exclude={"meta"}), sort_keys=True)
        resp_json = response.model_copy(update={"cached": False, "meta": {}}).model_dump_json()
        with self._lock:
            # INSERT OR IGNORE: a key is stored once; a duplicate completion never adds a row.
            self._conn.execute(
                "INSERT OR IGNORE INTO responses(key, backend, request, response, created) VALUES (?,?,?,?,?)",
                (key, backend, req_json, resp_json, time.time()),
            )

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()
