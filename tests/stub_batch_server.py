"""A loopback stub of the OpenAI Files + Batch API, for tests (no network needed).

Usage::

    with StubBatchAPI(api_key="sk-test") as stub:
        backend = OpenAIBatchBackend("openai-batch:m", base_url=stub.base_url, ...)
        ...
        assert stub.created == 1

Endpoints: ``POST /v1/files`` (multipart, ``purpose=batch``), ``POST /v1/batches``,
``GET /v1/batches/{id}``, ``GET /v1/batches`` (a page of the newest batches, ``after``/``limit``),
``GET /v1/files/{id}/content``. A batch moves one step per poll (``validating`` -> ``in_progress``
-> ``finalizing`` -> ``completed``) unless ``hold`` is set (it then stays ``in_progress``). On
completion every line is answered like ``StubOpenAI`` answers it (:func:`stub_answer`), except
prompts containing ``fail_marker``: those go to the error file with HTTP 400 and a reason.
``fail_batch`` makes every batch end ``failed`` with a validation error and no files.

Counters: ``uploads``, ``created`` (batch creations), ``polls``, ``downloads``,
``answered_by_prompt`` (answers written to output files), ``lines_per_file``, ``bytes_per_file``,
``auth_failures``; ``create_bodies`` and ``upload_purposes`` record what was sent.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from stub_openai_server import prompt_of, stub_answer

__all__ = ["StubBatchAPI"]

_STEPS = ("validating", "in_progress", "finalizing", "completed")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:  # killed clients reset connections
        pass


class StubBatchAPI:
    def __init__(self, *, api_key: str | None = None, hold: bool = False, fail_marker: str = "PLEASE-FAIL",
                 fail_batch: bool = False, max_lines: int = 50_000):
        self.api_key = api_key
        self.hold = hold
        self.fail_marker = fail_marker
        self.fail_batch = fail_batch
        self.max_lines = max_lines
        self._lock = threading.Lock()
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.uploads = self.created = self.polls = self.downloads = self.auth_failures = 0
        self.answered_by_prompt: Counter[str] = Counter()
        self.lines_per_file: list[int] = []
        self.bytes_per_file: list[int] = []
        self.create_bodies: list[dict[str, Any]] = []
        self.upload_purposes: list[str] = []
        self._server: _Server | None = None

    # ---- lifecycle ---------------------------------------------------------------------------
    def start(self) -> "StubBatchAPI":
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                stub._dispatch(self, "POST")

            def do_GET(self) -> None:  # noqa: N802
                stub._dispatch(self, "GET")

        self._server = _Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "StubBatchAPI":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._server is not None, "stub not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    # ---- HTTP --------------------------------------------------------------------------------------
    def _send(self, h: BaseHTTPRequestHandler, status: int, payload: Any, raw: bytes | None = None) -> None:
        data = raw if raw is not None else json.dumps(payload).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/octet-stream" if raw is not None else "application/json")
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except OSError:
            h.close_connection = True

    def _dispatch(self, h: BaseHTTPRequestHandler, method: str) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        if self.api_key is not None and h.headers.get("Authorization") != f"Bearer {self.api_key}":
            with self._lock:
                self.auth_failures += 1
            self._send(h, 401, {"error": {"message": "Incorrect API key provided"}})
            return
        path, _, query = h.path.partition("?")
        parts = [p for p in path.split("/") if p]  # ["v1", "files"], ["v1", "batches", id] ...
        try:
            if method == "POST" and parts == ["v1", "files"]:
                return self._upload(h, raw)
            if method == "POST" and parts == ["v1", "batches"]:
                return self._create(h, json.loads(raw or b"{}"))
            if method == "GET" and parts == ["v1", "batches"]:
                return self._list(h, query)
            if method == "GET" and len(parts) == 3 and parts[:2] == ["v1", "batches"]:
                return self._poll(h, parts[2])
            if method == "GET" and len(parts) == 4 and parts[:2] == ["v1", "files"] and parts[3] == "content":
                with self._lock:
                    content = self.files.get(parts[2])
                    self.downloads += 1
                if content is None:
                    return self._send(h, 404, {"error": {"message": f"no file {parts[2]}"}})
                return self._send(h, 200, None, raw=content)
        except (ValueError, KeyError) as exc:
            return self._send(h, 400, {"error": {"message": f"bad request: {exc}"}})
        self._send(h, 404, {"error": {"message": f"unknown path {method} {path}"}})

    def _upload(self, h: BaseHTTPRequestHandler, raw: bytes) -> None:
        ctype = h.headers.get("Content-Type", "")
        msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            f"Content-Type: {ctype}\r\n\r\n".encode() + raw)
        fields = {part.get_param("name", header="content-disposition"): part.get_payload(decode=True)
                  for part in msg.iter_parts()}
        purpose = (fields.get("purpose") or b"").decode()
        content = fields["file"]
        with self._lock:
            self.uploads += 1
            self.upload_purposes.append(purpose)
            file_id = f"file-{len(self.files) + 1}"
            self.files[file_id] = content
            self.lines_per_file.append(len(content.splitlines()))
            self.bytes_per_file.append(len(content))
        self._send(h, 200, {"id": file_id, "object": "file", "bytes": len(content), "purpose": purpose})

    def _create(self, h: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        with self._lock:
            if body.get("input_file_id") not in self.files:
                return self._send(h, 400, {"error": {"message": "unknown input_file_id"}})
            self.created += 1
            self.create_bodies.append(body)
            batch_id = f"batch_{len(self.batches) + 1}"
            n = len(self.files[body["input_file_id"]].splitlines())
            batch = {"id": batch_id, "object": "batch", "endpoint": body.get("endpoint"),
                     "input_file_id": body["input_file_id"], "completion_window": body.get("completion_window"),
                     "status": "validating", "output_file_id": None, "error_file_id": None, "errors": None,
                     "request_counts": {"total": n, "completed": 0, "failed": 0}, "metadata": body.get("metadata")}
            self.batches[batch_id] = batch
        self._send(h, 200, batch)

    def _list(self, h: BaseHTTPRequestHandler, query: str) -> None:
        from urllib.parse import parse_qs

        q = parse_qs(query)
        limit = int((q.get("limit") or ["20"])[0])
        after = (q.get("after") or [None])[0]
        with self._lock:
            ids = sorted(self.batches, key=lambda b: int(b.split("_")[1]), reverse=True)  # newest first
            if after in ids:
                ids = ids[ids.index(after) + 1:]
            page = [dict(self.batches[i]) for i in ids[:limit]]
        self._send(h, 200, {"object": "list", "data": page, "has_more": len(ids) > limit,
                            "last_id": page[-1]["id"] if page else None})

    def _poll(self, h: BaseHTTPRequestHandler, batch_id: str) -> None:
        with self._lock:
            self.polls += 1
            batch = self.batches.get(batch_id)
            if batch is None:
                return self._send(h, 404, {"error": {"message": f"no batch {batch_id}"}})
            if batch["status"] in _STEPS[:-1] and not (self.hold and batch["status"] == "in_progress"):
                step = _STEPS[_STEPS.index(batch["status"]) + 1]
                if step == "completed":
                    self._finish(batch)
                else:
                    batch["status"] = step
            out = dict(batch)
        self._send(h, 200, out)

    def _finish(self, batch: dict[str, Any]) -> None:
        """Answer every line (called with the lock held)."""
        lines = [json.loads(x) for x in self.files[batch["input_file_id"]].splitlines() if x.strip()]
        if self.fail_batch or len(lines) > self.max_lines:
            batch["status"] = "failed"
            batch["errors"] = {"object": "list", "data": [{"code": "invalid_file", "message":
                                                           f"the file has {len(lines)} lines (limit {self.max_lines})"
                                                           if len(lines) > self.max_lines else "validation failed"}]}
            return
        out, err = [], []
        for i, line in enumerate(lines):
            body, key = line["body"], line["custom_id"]
            assert line["method"] == "POST" and line["url"] == batch["endpoint"]
            prompt = prompt_of(body)
            if self.fail_marker and self.fail_marker in prompt:
                err.append({"id": f"req_{i}", "custom_id": key, "response": {
                    "status_code": 400, "request_id": f"r{i}", "body": {"error": {
                        "message": f"Invalid value for 'messages': {self.fail_marker}", "type": "invalid_request_error",
                        "code": "invalid_value"}}}, "error": None})
                continue
            text = stub_answer(str(body.get("model", "")), prompt, body.get("seed"))
            self.answered_by_prompt[prompt] += 1
            out.append({"id": f"req_{i}", "custom_id": key, "error": None, "response": {
                "status_code": 200, "request_id": f"r{i}", "body": {
                    "id": f"chatcmpl-{i}", "object": "chat.completion", "model": body.get("model"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": len(prompt.split()), "completion_tokens": len(text.split())}}}})
        for name, rows in (("output_file_id", out), ("error_file_id", err)):
            if rows:
                file_id = f"file-{len(self.files) + 1}"
                self.files[file_id] = "".join(json.dumps(r) + "\n" for r in rows).encode()
                batch[name] = file_id
        batch["status"] = "completed"
        batch["request_counts"] = {"total": len(lines), "completed": len(out), "failed": len(err)}
