"""The per-call path of the runner, made cheaper without changing what it produces: request keys and bodies
through templates (byte for byte the reference JSON), the responses CSV through the csv module (byte for
byte the pandas export), per-attempt timeouts by a watchdog, the group commit from a writer thread."""

from __future__ import annotations

import asyncio
import gc
import json
import random
import threading
import time

import pandas as pd
import pytest

from clinaudit.cli.generate_cmd import _RESPONSE_COLUMNS, _ResponseWriter
from clinaudit.export import neutralize_frame, store_frame
from clinaudit.models.openai_compat import OpenAICompatBackend
from clinaudit.records import Message, ModelRequest, ModelResponse
from clinaudit.workers import CommitBuffer, Deadlines, fewer_gc_passes

_TEXT = ["a", "é", '"', "\\", "\n", "\t", "\x00", "\x1f", "\x7f", "😀", "\u2028", "/", " ", "{", ",", ":", "\\u0000",
         "\x00clinaudit-text-slot-0\x00"]


def _requests(rng: random.Random, n: int) -> list[ModelRequest]:
    def text() -> str:
        return "".join(rng.choice(_TEXT) for _ in range(rng.randint(0, 10)))

    out = []
    for _ in range(n):
        kw: dict = {}
        if rng.random() < 0.5:
            kw["temperature"] = rng.choice([0.0, -0.0, 0.7, 1, 1e16, True])
        if rng.random() < 0.5:
            kw["seed"] = rng.choice([None, 0, 1, -5, 2**70])
        if rng.random() < 0.3:
            kw["top_p"] = rng.choice([None, 0.9, 1.0])
        if rng.random() < 0.2:
            kw["n"] = 2
        if rng.random() < 0.1:
            kw["stop"] = ["x"]
        if rng.random() < 0.1:
            kw["extra"] = {"a": text()}
        msgs = [Message(role=rng.choice(["system", "user", "assistant"]), content=text())
                for _ in range(rng.randint(0, 3))]
        out.append(ModelRequest(model=rng.choice(["openai:m", "openai:" + text()]),
                                kind=rng.choice(["chat", "chat", "completion"]), messages=msgs,
                                prompt=rng.choice([None, text()]), meta={"i": 1}, **kw))
    return out


def test_request_key_is_its_definition_byte_for_byte():
    rng = random.Random(7)
    for req in _requests(rng, 4000):
        ident = rng.choice(["openai:m@http://x/v1", "mock", "\x00clinaudit-text-slot-0\x00"])
        assert req.key(ident) == req.reference_key(ident)
    # the key of a fixed request, as computed before templates existed: stored caches stay valid
    req = ModelRequest.chat("openai:stub", "bench question 1: I have had a cough for 3 days, what should I do?",
                            seed=0, meta={"id": "q"})
    assert req.key("openai:stub@http://127.0.0.1:1/v1") == \
        "c707bbcf6ca0d4c237b0469ac843e2ea418b8849872ea140f1af3282fd3887af"


def test_request_body_is_json_dumps_of_the_payload():
    rng = random.Random(8)
    backends = [OpenAICompatBackend("openai:m", base_url="http://x/v1"),
                OpenAICompatBackend("openai:m", base_url="http://x/v1", completion=True)]
    for req in _requests(rng, 3000):
        for b in backends:
            path, payload = b.build_payload(req)
            assert b.body(req) == (path, json.dumps(payload).encode())


def _pandas_csv(block: list[dict], columns: list[str], safe: bool, header: bool) -> str:
    """The responses CSV as it was written before (a DataFrame per block)."""
    df = pd.DataFrame(block, columns=columns)
    if safe:
        return neutralize_frame(df).to_csv(index=False, header=header)
    stored = store_frame(df)  # a block holding a carriage return ends its lines in \r\n (export.store_csv)
    has_cr = any("\r" in c for c in stored.columns) or any(isinstance(v, str) and "\r" in v
                                                            for v in stored.to_numpy().ravel())
    return stored.to_csv(index=False, header=header, lineterminator="\r\n" if has_cr else "\n")


def test_responses_csv_is_byte_for_byte_the_pandas_export(tmp_path):
    rng = random.Random(9)
    cells = ["a", "=SUM(A1)", "+1", "-x", "@me", "\tx", "\rx", "a\rb", "a\r\nb", "line\nbreak", '"q"', "a,b", "",
             "é", "-5", "1.5", " "]

    def cell() -> str:
        return "".join(rng.choice(cells) for _ in range(rng.randint(1, 3)))

    for id_column in ("id", "=id", "response"):
        columns = [id_column] + [c for c in _RESPONSE_COLUMNS if c != id_column]
        out = tmp_path / id_column
        out.mkdir()
        writer = _ResponseWriter([(out / "safe.csv", True), (out / "exact.csv", False)], columns, id_column, "m")
        writer.BLOCK = 64
        blocks: list[list[dict]] = [[]]
        for i in range(300):
            failed = rng.random() < 0.1
            req = ModelRequest.chat("m", "x", seed=rng.randint(0, 3), meta={"id": cell(), "sample": i % 2})
            resp = ModelResponse(request_key=cell(), model="m", text=None if rng.random() < 0.1 else cell(),
                                 finish_reason=rng.choice([None, "stop", cell()]), prompt_tokens=rng.randint(0, 9),
                                 completion_tokens=3, cached=rng.random() < 0.5, error=cell() if failed else None)
            writer.add(req, resp)
            row = {id_column: req.meta["id"], "sample": i % 2, "seed": req.seed, "model": "m",
                   "response": None if failed else resp.text, "finish_reason": resp.finish_reason,
                   "prompt_tokens": resp.prompt_tokens, "completion_tokens": 3, "cached": resp.cached,
                   "error": resp.error, "request_key": resp.request_key}
            blocks[-1].append(row)
            if len(blocks[-1]) == 64:
                blocks.append([])
        writer.close(True)
        for name, safe in (("safe.csv", True), ("exact.csv", False)):
            expected = "".join(_pandas_csv(b, columns, safe, i == 0) for i, b in enumerate(blocks) if b or i == 0)
            assert (out / name).read_bytes().decode("utf-8") == expected, (id_column, name)


class _SlowBackend:
    async def agenerate(self, delay: float) -> str:
        await asyncio.sleep(delay)
        return "done"


async def _attempt(deadlines: Deadlines, delay: float) -> str:
    task = deadlines.begin()
    try:
        return await _SlowBackend().agenerate(delay)
    except asyncio.CancelledError:
        if not deadlines.expired(task):
            raise
        return "timed out"
    finally:
        deadlines.end(task)


def test_watchdog_times_out_a_slow_attempt_and_leaves_other_cancellations_alone():
    async def run() -> None:
        deadlines = Deadlines(0.2)
        watchdog = asyncio.create_task(deadlines.watch())
        try:
            t0 = time.monotonic()
            assert await _attempt(deadlines, 5.0) == "timed out"
            elapsed = time.monotonic() - t0
            assert 0.2 <= elapsed < 0.2 + deadlines.tick + 0.5
            assert await _attempt(deadlines, 0.01) == "done"  # the worker goes on: no cancellation left over
            assert asyncio.current_task().cancelling() == 0
            other = asyncio.create_task(_attempt(deadlines, 5.0))  # cancelled by someone else: stays cancelled
            await asyncio.sleep(0.05)
            other.cancel()
            with pytest.raises(asyncio.CancelledError):
                await other
            assert not deadlines.running
        finally:
            watchdog.cancel()

    asyncio.run(run())


def test_fewer_gc_passes_restores_the_thresholds():
    before = gc.get_threshold()
    with fewer_gc_passes():
        assert gc.get_threshold()[0] >= 20000
        with fewer_gc_passes():
            assert gc.get_threshold()[0] >= 20000
        assert gc.get_threshold()[0] >= 20000
    assert gc.get_threshold() == before


class _SlowCache:
    """A cache whose commits take a while (in the writer thread); records what was uncommitted when."""

    def __init__(self) -> None:
        self.committed: list[str] = []
        self.threads: set[str] = set()

    @staticmethod
    def encode_rows(items):
        return [(key, resp.text) for key, _, _, resp in items]

    def put_rows(self, rows):
        self.threads.add(threading.current_thread().name)
        time.sleep(0.02)
        self.committed.extend(k for k, _ in rows)
        return len(rows)


def test_group_commit_keeps_at_most_commit_rows_uncommitted_and_commits_everything():
    cache = _SlowCache()
    buf = CommitBuffer(cache, rows=100)  # type: ignore[arg-type]
    req = ModelRequest.chat("m", "q")
    worst = 0
    for i in range(1000):
        buf.add(f"k{i}", "m", req, ModelResponse(request_key=f"k{i}", model="m", text=f"a{i}"))
        worst = max(worst, i + 1 - len(cache.committed))
        assert buf.get(f"k{i}") is not None or f"k{i}" in cache.committed  # answered from the buffer meanwhile
    buf.close()
    assert worst <= 100
    assert cache.committed == [f"k{i}" for i in range(1000)]
    assert cache.threads and threading.current_thread().name not in cache.threads  # not on the loop's thread


def test_group_commit_raises_the_writer_threads_error():
    class Broken(_SlowCache):
        def put_rows(self, rows):
            raise RuntimeError("disk full")

    buf = CommitBuffer(Broken(), rows=4)  # type: ignore[arg-type]
    req = ModelRequest.chat("m", "q")
    with pytest.raises(RuntimeError, match="disk full"):
        for i in range(10):
            buf.add(f"k{i}", "m", req, ModelResponse(request_key=f"k{i}", model="m", text="a"))
        buf.close()


def test_stored_request_json_is_pydantics_byte_for_byte():
    from clinaudit.cache import ResponseCache

    rng = random.Random(10)
    resp = ModelResponse(request_key="k", model="m", text="a")
    for req in _requests(rng, 3000):
        (row,) = ResponseCache.encode_rows([("k", "ident", req, resp)])
        assert row[2] == req.model_dump_json(exclude={"meta"})


def test_request_templates_account_for_every_request_field():
    """A new ModelRequest field must be added to records._shape (and SHAPED_FIELDS): until then the
    templates are off, so that two requests differing only in the new field never share a cache key."""
    from clinaudit import records
    from clinaudit.records import ModelRequest

    assert records.TEMPLATES_COVER_REQUESTS, (
        f"ModelRequest fields {sorted(set(ModelRequest.model_fields) ^ records.SHAPED_FIELDS)} are not handled by "
        "records._shape: add them to the shape and to SHAPED_FIELDS")

    class Tagged(ModelRequest):  # a subclass may carry fields the shape does not know
        tag: str = "a"

    a, b = Tagged(model="m", prompt="p", tag="a"), Tagged(model="m", prompt="p", tag="b")
    assert records._shape(a) is None
    assert a.key() == a.reference_key() and a.key() != b.key()


def test_a_failed_commit_is_raised_and_still_releases_the_connections(tmp_path, monkeypatch):
    """The cache's writer thread fails: the run raises that error, and the HTTP session and the timeout
    watchdog are still released (they were skipped when the final commit raised)."""
    from clinaudit.cache import ResponseCache
    from clinaudit.runner import Runner, RunnerConfig

    from fast_stub_server import FastStubProcess

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    class FullDisk(ResponseCache):
        def put_rows(self, rows):
            raise RuntimeError("disk full")

    with FastStubProcess() as stub:
        runner = Runner(cache=FullDisk(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False, concurrency=4),
                        backend_options={"openai:stub": {"base_url": stub.base_url}})
        with pytest.raises(RuntimeError, match="disk full"):
            runner.generate([ModelRequest.chat("openai:stub", f"q{i}") for i in range(50)])
        backend = runner.backend("openai:stub")
        assert backend._clients == {}  # the session was closed


def test_answers_are_read_as_json_loads_of_the_bytes_reads_them():
    """The body is decoded as UTF-8 before json.loads (skipping its encoding test), except when it is not
    plain UTF-8: the result, or the error, is json.loads(bytes)'s."""
    from clinaudit.models.openai_compat import _loads

    cases = [b'{"a": 1}', '\ufeff{"a": "\u00e9"}'.encode("utf-8"), b"\xef\xbb\xbf[1]", b' {"a": "\xc3\xa9"}',
             b'{"a": "\xff"}', b"not json", b"", b"\x00"]
    for enc in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"):
        cases += [t.encode(enc) for t in ('{"a": "x"}', "[1, 2]", '"s"', "7", ' {"b": "é"}')]

    def outcome(fn, raw):
        try:
            return fn(raw)
        except ValueError as e:  # JSONDecodeError and UnicodeDecodeError
            return type(e).__name__

    for raw in cases:
        assert outcome(_loads, raw) == outcome(json.loads, raw), raw
