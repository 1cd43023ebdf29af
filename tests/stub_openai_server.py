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
``ok_by_prompt`` (successful answers sent), ``faults`` (by kind), ``total``.
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

__all__ = ["StubOpenAI", "prompt_of", "stub_answer"]

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
    ):
        self.api_key = api_key
        self.fault_rate = fault_rate
        self.fault_seed = fault_seed
        self.max_faults_per_prompt = max(1, max_faults_per_prompt)
        self.fault_kinds = tuple(fault_kinds)
        self.slow_s = slow_s
        self.retry_after = retry_after
        self.delay_s = delay_s
        self.keep_bodies = keep_bodies
        self._lock = threading.Lock()
        self.reset_counters()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # ---- lifecycle -------------------------------------------------------------
    def start(self) -> "StubOpenAI":
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server naming)
                stub._handle(self)

        self._server = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "StubOpenAI":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
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
            h.end_headers()
            h.wfile.write(data)
            h.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            h.close_connection = True

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        path = h.path.split("?", 1)[0]
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
                self._send_json(h, 401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}})
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
            self.ok_by_prompt[prompt] += 1
        texts = [c["message"]["content"] if chat else c["text"] for c in choices]
        usage = {"prompt_tokens": len(prompt.split()), "completion_tokens": sum(len(t.split()) for t in texts)}
        self._send_json(h, 200, {"id": f"stub-{_h(prompt, seed) % 10**8}", "object": "chat.completion" if chat else "text_completion",
                                 "model": model, "choices": choices, "usage": usage})
