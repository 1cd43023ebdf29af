"""An OpenAI-compatible stub server on loopback, for tests (no network needed).

Usage::

    with StubOpenAI(api_key="sk-test", fault_rate=0.2) as stub:
        backend = OpenAICompatBackend("openai:stub", base_url=stub.base_url)
        ...
        assert stub.ok_by_prompt[prompt] == 1

Answers are deterministic functions of (model, prompt, seed, choice index).
Fault injection: a seeded ``fault_rate`` share of the distinct prompts (decided
by a hash, so the same prompts fault on every run) fail on their first
``1..max_faults_per_prompt`` attempts with, in turn, one of:

* ``429``  - HTTP 429 with ``Retry-After``;
* ``500``  - HTTP 500;
* ``slow`` - waits ``slow_s`` (longer than the client's timeout), then answers 503;
* ``drop`` - reads the request and closes the connection without answering.

Counters (thread-safe): ``requests_by_prompt`` (every request received),
``ok_by_prompt`` (successful answers sent), ``faults`` (by kind), ``total``,
``max_in_flight`` (most requests handled at once); ``bodies``, ``headers`` and
``queries`` record what was received. ``api_key`` makes the stub answer 401 to
any other key (``echo_key_in_errors`` puts the wrong key in that answer, as
some servers do; ``echo_key_at=N`` pads that message so the key starts at
character N of the response body, e.g. across a client's 200-character cut).
``retry_after`` is the value of the 429's ``Retry-After`` header (seconds). ``models`` makes it answer
``GET /v1/models`` with those model ids (checked like a call's key); without it that path is a 404.
``kill()`` makes the endpoint die: new connections are refused, and every request still being
handled or arriving on a kept-alive connection is dropped without an answer (never counted in
``ok_by_prompt``).
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["StubOpenAI", "StubProcess", "closed_base_url", "prompt_of", "stub_answer"]

FAULT_KINDS = ("429", "500", "slow", "drop")


def _h(*parts: Any) -> int:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:12], 16)


def prompt_of(body: dict[str, Any]) -> str:
    """The prompt a request is counted under: the last user message, or the completion prompt."""
    if "messages" in body:
        users = [m.get("content", "") for m in body["messages"] if m.get("role") == "user"]
        return users[-1] if users else ""
    prompt = body.get("prompt", "")
    return prompt if isinstance(prompt, str) else json.dumps(prompt)


def closed_base_url() -> str:
    """A loopback base URL on a port nobody listens on (taken from the OS, then closed): connections are refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def stub_answer(model: str, prompt: str, seed: Any, index: int = 0) -> str:
    """The deterministic answer the stub gives."""
    return f"stub[{model}] answer {_h(model, prompt, seed, index) % 100000:05d} (seed={seed}) to: {prompt[:40]}"


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients that time out or are killed reset their connections: expected here, not an error.
        pass


class StubOpenAI:
    def __init__(
        self,
        *,
        api_key: str | None = None,
        fault_rate: float = 0.0,
        fault_seed: int = 0,
        max_faults_per_prompt: int = 2,
        fault_kinds: tuple[str, ...] = FAULT_KINDS,
        slow_s: float = 1.5,
        retry_after: float = 0.05,
        delay_s: float = 0.0,
        keep_bodies: bool = True,
        echo_key_in_errors: bool = False,
        echo_key_at: int | None = None,
        models: tuple[str, ...] | None = None,
    ):
        self.api_key = api_key
        self.models = models
        self.fault_rate = fault_rate
        self.fault_seed = fault_seed
        self.max_faults_per_prompt = max(1, max_faults_per_prompt)
        self.fault_kinds = tuple(fault_kinds)
        self.slow_s = slow_s
        self.retry_after = retry_after
        self.delay_s = delay_s
        self.keep_bodies = keep_bodies
        self.echo_key_in_errors = echo_key_in_errors
        self.echo_key_at = echo_key_at
        self._lock = threading.Lock()
        self.dead = False
        self.reset_counters()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # ---- lifecycle -------------------------------------------------------------
    def start(self) -> "StubOpenAI":
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in ONE send (a buffered wfile, flushed once per answer) with Nagle
            # off: written in two sends, the client's delayed ACK held every answer back ~40 ms.
            disable_nagle_algorithm = True
            wbufsize = 1 << 16

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server naming)
                if self.path == "/_reset":
                    self.rfile.read(int(self.headers.get("Content-Length") or 0))
                    stub.reset_counters()
                    stub._send_json(self, 200, {"ok": True})
                    return
                stub._handle(self)

            def do_GET(self) -> None:  # noqa: N802
                if self.path == "/_stats":
                    stub._send_json(self, 200, stub.stats())
                elif self.path == "/v1/models" and stub.models is not None:
                    stub._list_models(self)
                else:
                    stub._send_json(self, 404, {"error": {"message": "not found"}})

        self._server = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def kill(self) -> None:
        """The endpoint dies: connections refused from now on, requests in progress dropped unanswered."""
        with self._lock:
            self.dead = True
        if self._server is not None:
            self._killed_port = self.port  # base_url still names the dead endpoint
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _drop(self, h: BaseHTTPRequestHandler) -> None:
        h.close_connection = True
        try:
            h.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def __enter__(self) -> "StubOpenAI":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None and self.dead:
            return self._killed_port
        assert self._server is not None, "stub not started"
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def reset_counters(self) -> None:
        with self._lock:
            self.requests_by_prompt: Counter[str] = Counter()
            self.ok_by_prompt: Counter[str] = Counter()
            self.faults: Counter[str] = Counter()
            self.total = 0
            self.bodies: list[dict[str, Any]] = []
            self.paths: Counter[str] = Counter()
            self.auth_failures = 0
            self.queries: list[str] = []
            self.headers: list[dict[str, str]] = []
            self.in_flight = 0
            self.max_in_flight = 0

    def stats(self) -> dict[str, Any]:
        """A JSON-able snapshot of every counter (what a :class:`StubProcess` reads over HTTP)."""
        with self._lock:
            return {
                "requests_by_prompt": dict(self.requests_by_prompt), "ok_by_prompt": dict(self.ok_by_prompt),
                "faults": dict(self.faults), "total": self.total, "bodies": list(self.bodies),
                "paths": dict(self.paths), "auth_failures": self.auth_failures, "queries": list(self.queries),
                "headers": list(self.headers), "max_in_flight": self.max_in_flight,
            }

    # ---- fault plan --------------------------------------------------------------
    def planned_faults(self, prompt: str) -> int:
        """How many times this prompt faults before it is answered (0 for most)."""
        if self.fault_rate <= 0:
            return 0
        h = _h("fault", self.fault_seed, prompt)
        if (h % 10_000) / 10_000 >= self.fault_rate:
            return 0
        return 1 + (h // 10_000) % self.max_faults_per_prompt

    def fault_kind(self, prompt: str, attempt: int) -> str:
        return self.fault_kinds[(_h("kind", self.fault_seed, prompt) + attempt) % len(self.fault_kinds)]

    # ---- request handling -----------------------------------------------------------
    def _send_json(self, h: BaseHTTPRequestHandler, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                h.send_header(k, v)
            h.end_headers()  # into the handler's write buffer ...
            h.wfile.write(data)
            h.wfile.flush()  # ... sent with the body in one send
        except (BrokenPipeError, ConnectionResetError, OSError):
            h.close_connection = True

    def _list_models(self, h: BaseHTTPRequestHandler) -> None:
        """``GET /v1/models`` (only with ``models``): the key checked as for a call, then ``data[].id``."""
        if self.api_key is not None and h.headers.get("Authorization", "") != f"Bearer {self.api_key}" \
                and h.headers.get("api-key") != self.api_key:
            self._send_json(h, 401, {"error": {"message": "Incorrect API key provided"}})
            return
        self._send_json(h, 200, {"object": "list", "data": [{"id": m, "object": "model"} for m in self.models or ()]})

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            self._handle_one(h)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _handle_one(self, h: BaseHTTPRequestHandler) -> None:
        if self.dead:
            self._drop(h)
            return
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        path, _, query = h.path.partition("?")
        with self._lock:
            self.queries.append(query)
            self.headers.append({k.lower(): v for k, v in h.headers.items()})
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send_json(h, 400, {"error": {"message": "invalid JSON body"}})
            return
        if self.api_key is not None:
            auth = h.headers.get("Authorization", "")
            if auth != f"Bearer {self.api_key}" and h.headers.get("api-key") != self.api_key:
                with self._lock:
                    self.auth_failures += 1
                sent = auth.removeprefix("Bearer ") or h.headers.get("api-key", "")
                message = f"Incorrect API key provided: {sent}" if self.echo_key_in_errors else "Incorrect API key provided"
                if self.echo_key_in_errors and self.echo_key_at is not None and sent:
                    at = json.dumps({"error": {"message": message}}).index(sent)
                    message = f"Incorrect API key provided: {'x' * max(0, self.echo_key_at - at)}{sent}"
                self._send_json(h, 401, {"error": {"message": message, "type": "invalid_request_error"}})
                return
        if path not in ("/v1/chat/completions", "/v1/completions"):
            self._send_json(h, 404, {"error": {"message": f"unknown path {path}"}})
            return
        prompt = prompt_of(body)
        with self._lock:
            attempt = self.requests_by_prompt[prompt]
            self.requests_by_prompt[prompt] += 1
            self.total += 1
            self.paths[path] += 1
            if self.keep_bodies:
                self.bodies.append(body)
            kind = self.fault_kind(prompt, attempt) if attempt < self.planned_faults(prompt) else None
            if kind is not None:
                self.faults[kind] += 1
        if kind == "429":
            self._send_json(h, 429, {"error": {"message": "rate limited"}}, {"Retry-After": str(self.retry_after)})
            return
        if kind == "500":
            self._send_json(h, 500, {"error": {"message": "internal error"}})
            return
        if kind == "slow":
            time.sleep(self.slow_s)
            self._send_json(h, 503, {"error": {"message": "too slow"}})
            return
        if kind == "drop":
            h.close_connection = True
            try:
                h.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if self.delay_s:
            time.sleep(self.delay_s)
        model = str(body.get("model", ""))
        seed = body.get("seed")
        n = int(body.get("n") or 1)
        chat = path.endswith("/chat/completions")
        choices = []
        for i in range(n):
            text = stub_answer(model, prompt, seed, i)
            choice: dict[str, Any] = {"index": i, "finish_reason": "stop"}
            if chat:
                choice["message"] = {"role": "assistant", "content": text}
            else:
                choice["text"] = text
            choices.append(choice)
        # Count the answer before sending it: a client that stored it must find it counted.
        with self._lock:
            dead = self.dead
            if not dead:
                self.ok_by_prompt[prompt] += 1
        if dead:  # killed while this request was being handled: it is never answered
            self._drop(h)
            return
        texts = [c["message"]["content"] if chat else c["text"] for c in choices]
        usage = {"prompt_tokens": len(prompt.split()), "completion_tokens": sum(len(t.split()) for t in texts)}
        self._send_json(h, 200, {"id": f"stub-{_h(prompt, seed) % 10**8}", "object": "chat.completion" if chat else "text_completion",
                                 "model": model, "choices": choices, "usage": usage})


class StubProcess:
    """The same stub in its own Python process (own GIL), with the same counters read over HTTP.

    Use it when the client under test is busy (many concurrent calls): a stub
    thread in the test process would compete with the client for the GIL and
    make normal answers look like timeouts.
    """

    _COUNTERS = ("requests_by_prompt", "ok_by_prompt", "faults", "paths")

    def __init__(self, **config: Any):
        self.config = config
        self._plan = StubOpenAI(**config)  # never started: computes the fault plan locally
        self._proc: Any = None
        self._port: int | None = None

    def start(self) -> "StubProcess":
        import subprocess
        import sys

        self._proc = subprocess.Popen(
            [sys.executable, __file__, json.dumps(self.config)], stdout=subprocess.PIPE, stdin=subprocess.PIPE, text=True
        )
        line = self._proc.stdout.readline()
        if not line.strip().isdigit():
            self.stop()
            raise RuntimeError(f"stub server did not start: {line!r}")
        self._port = int(line)
        return self

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=5)
            except Exception:  # noqa: BLE001
                self._proc.kill()
            self._proc = None

    def __enter__(self) -> "StubProcess":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._port is not None, "stub not started"
        return self._port

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

    def stats(self) -> dict[str, Any]:
        return self._control("GET", "/_stats")

    def reset_counters(self) -> None:
        self._control("POST", "/_reset")

    def planned_faults(self, prompt: str) -> int:
        return self._plan.planned_faults(prompt)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in ("config",):
            raise AttributeError(name)
        stats = self.stats()
        if name in stats:
            value = stats[name]
            return Counter(value) if name in self._COUNTERS else value
        raise AttributeError(name)


if __name__ == "__main__":  # run as a separate process: argv[1] = JSON config; prints the port
    import sys

    cfg = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    if "fault_kinds" in cfg:
        cfg["fault_kinds"] = tuple(cfg["fault_kinds"])
    server = StubOpenAI(**cfg).start()
    print(server.port, flush=True)
    try:
        sys.stdin.read()  # until the parent closes our stdin or terminates us
    except KeyboardInterrupt:
        pass
    server.stop()
