"""A zero-latency OpenAI-compatible stub on loopback built on ``asyncio.Protocol``, for throughput tests.

:class:`stub_openai_server.StubOpenAI` (``http.server``, a thread per connection)
is the stub for behaviour: faults, keys, Retry-After. It costs the server about as
much CPU per answer as a fast client spends, so it cannot show a client's ceiling
on a small machine. This one answers from a single event loop in its own process:
it reads HTTP/1.1 keep-alive requests, answers each with the same deterministic
text (:func:`stub_openai_server.stub_answer`) in one ``write`` (headers and body
together, ``TCP_NODELAY`` set), and counts every request it received and every
answer it sent per prompt.

Usage::

    with FastStubProcess() as stub:           # its own process (own GIL)
        ... requests to stub.base_url ...
        stub.stats()  # {"total": .., "answered": .., "distinct": .., "max_per_prompt": .., "by_prompt": {...}}

``GET /_stats?full=1`` includes the per-prompt counts (``by_prompt``); ``POST /_reset``
clears the counters.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stub_openai_server import prompt_of, stub_answer  # noqa: E402

__all__ = ["FastStubProcess", "serve"]

_REASONS = {200: b"OK", 400: b"Bad Request", 404: b"Not Found"}


class _Counters:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.total = 0
        self.answered = 0
        self.by_prompt: Counter[str] = Counter()

    def snapshot(self, full: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"total": self.total, "answered": self.answered, "distinct": len(self.by_prompt),
                               "max_per_prompt": max(self.by_prompt.values(), default=0)}
        if full:
            out["by_prompt"] = dict(self.by_prompt)
        return out


def _response(status: int, payload: dict[str, Any]) -> bytes:
    body = json.dumps(payload).encode()
    head = (b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
            % (status, _REASONS.get(status, b"OK"), len(body)))
    return head + body


class _Protocol(asyncio.Protocol):
    def __init__(self, counters: _Counters):
        self.counters = counters
        self.buf = b""
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        self.buf += data
        out = []
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                break
            head = self.buf[:end].decode("latin-1")
            length = 0
            for line in head.split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if len(self.buf) < end + 4 + length:
                break
            body = self.buf[end + 4: end + 4 + length]
            self.buf = self.buf[end + 4 + length:]
            out.append(self.answer(head.split("\r\n", 1)[0], body))
        if out:
            self.transport.write(b"".join(out))

    def answer(self, request_line: str, raw: bytes) -> bytes:
        method, _, rest = request_line.partition(" ")
        target = rest.rsplit(" ", 1)[0]
        path, _, query = target.partition("?")
        if path == "/_stats":
            return _response(200, self.counters.snapshot("full=1" in query))
        if path == "/_reset":
            self.counters.reset()
            return _response(200, {"ok": True})
        if path not in ("/v1/chat/completions", "/v1/completions"):
            return _response(404, {"error": {"message": f"unknown path {path}"}})
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return _response(400, {"error": {"message": "invalid JSON body"}})
        prompt = prompt_of(body)
        self.counters.total += 1
        self.counters.by_prompt[prompt] += 1
        model, seed = str(body.get("model", "")), body.get("seed")
        text = stub_answer(model, prompt, seed, 0)
        chat = path.endswith("/chat/completions")
        choice: dict[str, Any] = {"index": 0, "finish_reason": "stop"}
        if chat:
            choice["message"] = {"role": "assistant", "content": text}
        else:
            choice["text"] = text
        self.counters.answered += 1  # counted before it is sent: a client that stored it finds it counted
        return _response(200, {"id": "stub", "object": "chat.completion" if chat else "text_completion", "model": model,
                               "choices": [choice], "usage": {"prompt_tokens": len(prompt.split()),
                                                              "completion_tokens": len(text.split())}})


async def serve(port: int = 0, ready: Any = None) -> None:
    counters = _Counters()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: _Protocol(counters), "127.0.0.1", port, backlog=1024)
    if ready is not None:
        ready(server.sockets[0].getsockname()[1])
    async with server:
        await server.serve_forever()


class FastStubProcess:
    """The asyncio stub in its own Python process; prints its port, stops when stdin closes or on stop()."""

    def __init__(self) -> None:
        self._proc: Any = None
        self.port = 0

    def start(self) -> "FastStubProcess":
        self._proc = subprocess.Popen([sys.executable, __file__], stdout=subprocess.PIPE, stdin=subprocess.PIPE,
                                      text=True)
        line = self._proc.stdout.readline()
        if not line.strip().isdigit():
            self.stop()
            raise RuntimeError(f"fast stub did not start: {line!r}")
        self.port = int(line)
        return self

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc = None

    def __enter__(self) -> "FastStubProcess":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def pid(self) -> int:
        return int(self._proc.pid)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _control(self, method: str, path: str) -> dict[str, Any]:
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=b"" if method == "POST" else None)
            return json.loads(conn.getresponse().read())
        finally:
            conn.close()

    def stats(self, full: bool = False) -> dict[str, Any]:
        return self._control("GET", "/_stats?full=1" if full else "/_stats")

    def reset_counters(self) -> None:
        self._control("POST", "/_reset")


if __name__ == "__main__":
    import threading

    def _ready(port: int) -> None:
        print(port, flush=True)

    def _watch_stdin() -> None:  # the parent closing our stdin (or dying) ends the stub
        try:
            sys.stdin.read()
        finally:
            import os

            os._exit(0)

    threading.Thread(target=_watch_stdin, daemon=True).start()
    asyncio.run(serve(0, _ready))
