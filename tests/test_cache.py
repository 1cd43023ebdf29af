"""Response cache (SQLite): round trips, no failures stored, one row per key, crash safety."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from clinaudit.cache import ResponseCache, default_cache_path
from clinaudit.records import ModelRequest, ModelResponse


def _resp(key: str, text: str = "ok", **kw) -> ModelResponse:
    return ModelResponse(request_key=key, model="mock", text=text, choices=[text], **kw)


def test_round_trip_marks_cached_and_drops_meta(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    req = ModelRequest.chat("mock", "q", meta={"case": 1})
    cache.put("k1", "mock#x", req, _resp("k1", "answer", prompt_tokens=3, completion_tokens=1, meta={"case": 1}))
    got = cache.get("k1")
    assert got is not None and got.cached and got.text == "answer" and got.choices == ["answer"]
    assert (got.prompt_tokens, got.completion_tokens, got.meta) == (3, 1, {})
    assert cache.get("missing") is None and len(cache) == 1


def test_failures_are_never_stored(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    cache.put("k", "b", ModelRequest.chat("mock", "q"), _resp("k", error="HTTP 500"))
    assert len(cache) == 0 and cache.get("k") is None


def test_a_key_is_stored_once_first_answer_wins(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    req = ModelRequest.chat("mock", "q")
    cache.put("k", "b", req, _resp("k", "first"))
    cache.put("k", "b", req, _resp("k", "second"))
    assert len(cache) == 1 and cache.get("k").text == "first"


def test_get_many_over_chunk_boundary(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    req = ModelRequest.chat("mock", "q")
    for i in range(1203):
        cache.put(f"k{i}", "b", req, _resp(f"k{i}", str(i)))
    found = cache.get_many([f"k{i}" for i in range(0, 1300, 1)] + ["k5", "k5"])
    assert len(found) == 1203 and found["k1202"].text == "1202" and all(r.cached for r in found.values())


def test_one_group_over_several_insert_statements_keeps_the_first_of_each_key(tmp_path, monkeypatch):
    # put_rows inserts many rows per statement (ROWS_PER_INSERT); a group of 1,203 rows crosses two statement
    # boundaries, repeats keys inside one statement, across statements and of rows stored before, and holds a
    # failed call: every key is stored once, the first answer kept, the failure left out, the count of rows
    # handed over as before
    import sqlite3

    from clinaudit import cache as cache_mod

    cache = ResponseCache(tmp_path / "c.sqlite")
    req = ModelRequest.chat("mock", "q")
    cache.put("k7", "b", req, _resp("k7", "stored before"))
    items = [(f"k{i}", "b", req, _resp(f"k{i}", f"first {i}")) for i in range(1200)]
    items += [("k3", "b", req, _resp("k3", "again, same statement")),
              ("k1100", "b", req, _resp("k1100", "again, later statement")),
              ("k-failed", "b", req, _resp("k-failed", error="HTTP 500"))]
    items.insert(10, ("k5", "b", req, _resp("k5", "again, after its first")))
    assert cache_mod.ROWS_PER_INSERT == 500
    assert cache.put_many(items) == 1203
    assert len(cache) == 1200
    got = cache.get_many([f"k{i}" for i in range(1200)] + ["k-failed"])
    assert len(got) == 1200 and "k-failed" not in got
    assert got["k7"].text == "stored before" and got["k5"].text == "first 5"
    assert got["k3"].text == "first 3" and got["k1100"].text == "first 1100" and got["k1199"].text == "first 1199"
    with sqlite3.connect(tmp_path / "c.sqlite") as conn:  # the other columns as stored row by row
        key, backend, request, response = conn.execute(
            "SELECT key, backend, request, response FROM responses WHERE key='k999'").fetchone()
    assert (key, backend) == ("k999", "b") and ModelRequest.model_validate_json(request) == req
    assert ModelResponse.model_validate_json(response).text == "first 999"


def test_one_choice_is_stored_once_and_every_response_comes_back_as_it_was(tmp_path):
    import json
    import sqlite3

    cache = ResponseCache(tmp_path / "c.sqlite")
    req = ModelRequest.chat("mock", "q")
    cases = {
        "one": _resp("one", "the answer " * 50),  # choices == [text]: the text is stored once
        "several": ModelResponse(request_key="several", model="m", text="a", choices=["a", "b"]),
        "none": ModelResponse(request_key="none", model="m", text="x"),  # a backend that sets no choices
        "empty": _resp("empty", ""),
        "null": ModelResponse(request_key="null", model="m", text=None),
    }
    cache.put_many([(k, "b", req, r) for k, r in cases.items()])
    with sqlite3.connect(tmp_path / "c.sqlite") as conn:
        stored = {k: json.loads(v) for k, v in conn.execute("SELECT key, response FROM responses")}
    assert "choices" not in stored["one"] and "choices" not in stored["empty"]
    assert stored["several"]["choices"] == ["a", "b"] and stored["none"]["choices"] == []
    got = cache.get_many(list(cases))
    for k, r in cases.items():
        assert got[k].model_dump(exclude={"cached"}) == r.model_dump(exclude={"cached"}), k
    # a row written before this change (choices stored in full) reads the same
    old = _resp("old", "t").model_dump_json(exclude={"meta", "cached"})
    assert '"choices":["t"]' in old
    with sqlite3.connect(tmp_path / "c.sqlite") as conn:
        conn.execute("INSERT INTO responses VALUES ('old', 'b', '{}', ?, 0)", (old,))
    assert cache.get("old").choices == ["t"] and cache.get("old").text == "t"


def test_rows_per_insert_stays_within_the_parameter_limit(tmp_path):
    # SQLite before 3.32 takes at most 999 parameters per statement: 199 rows of 5 columns
    import sqlite3

    cache = ResponseCache(tmp_path / "c.sqlite")
    conn = sqlite3.connect(tmp_path / "other.sqlite")
    conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)
    assert ResponseCache._rows_per_insert(conn) == 199
    conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 3)
    assert ResponseCache._rows_per_insert(conn) == 1
    cache.put("k", "b", ModelRequest.chat("mock", "q"), _resp("k", "kept"))
    cache._wconn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)  # then a group of 450 rows: 3 statements
    req = ModelRequest.chat("mock", "q")
    assert cache.put_many([(f"r{i}", "b", req, _resp(f"r{i}", str(i))) for i in range(450)]) == 450
    assert len(cache) == 451 and cache.get("r449").text == "449"


def test_persists_across_reopen(tmp_path):
    path = tmp_path / "c.sqlite"
    cache = ResponseCache(path)
    cache.put("k", "b", ModelRequest.chat("mock", "q"), _resp("k", "kept"))
    cache.close()
    assert ResponseCache(path).get("k").text == "kept"


def test_concurrent_writers_from_threads(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    req = ModelRequest.chat("mock", "q")

    def work(t: int) -> None:
        for i in range(50):
            cache.put(f"k{i % 25}-{t % 4}", "b", req, _resp("x", f"{t}"))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 100  # 25 keys x 4 groups, duplicates ignored


def test_committed_rows_survive_kill_9(tmp_path):
    """Each put is committed on its own: a process killed with SIGKILL loses nothing it stored."""
    path = tmp_path / "c.sqlite"
    code = textwrap.dedent(
        f"""
        import os, signal
        from clinaudit.cache import ResponseCache
        from clinaudit.records import ModelRequest, ModelResponse
        c = ResponseCache({str(path)!r})
        req = ModelRequest.chat("mock", "q")
        for i in range(40):
            c.put(f"k{{i}}", "b", req, ModelResponse(request_key="", model="mock", text=str(i)))
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    cache = ResponseCache(path)
    assert len(cache) == 40 and cache.get("k39").text == "39"


def test_request_key_is_stable_and_ignores_meta():
    a = ModelRequest.chat("openai:m", "q", seed=1, meta={"case": "a"})
    b = ModelRequest.chat("openai:m", "q", seed=1, meta={"case": "b"})
    assert a.key("openai:m@http://x/v1") == b.key("openai:m@http://x/v1")
    assert a.key("openai:m@http://x/v1") != a.key("openai:m@http://y/v1")  # another endpoint, another entry
    assert a.key("i") != ModelRequest.chat("openai:m", "q", seed=2).key("i")
    assert len(a.key("i")) == 64


def test_default_cache_path_honours_env(monkeypatch, tmp_path):
    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "cc"))
    assert default_cache_path() == tmp_path / "cc" / "responses.sqlite"
    monkeypatch.delenv("CLINAUDIT_CACHE_DIR")
    assert default_cache_path() == Path.home() / ".cache" / "clinaudit" / "responses.sqlite"


def test_corrupt_cache_file_gives_input_error_naming_the_file(tmp_path):
    from clinaudit.errors import InputError

    bad = tmp_path / "cache.sqlite"
    bad.write_bytes(b"this is not a sqlite database" * 100)
    with pytest.raises(InputError) as info:
        ResponseCache(bad)
    assert str(bad) in str(info.value)
