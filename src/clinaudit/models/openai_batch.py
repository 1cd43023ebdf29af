"""``openai-batch:<model>``: the run's chat requests through the OpenAI Batch API (half price, answers within 24 h).

The runner hands this backend every request it has no cached answer for, at once (it is a
"local"-style backend with a whole-list hook: the runner awaits ``agenerate_batch(requests)`` in its
event loop, so Ctrl-C stops the waiting at once). The backend

1. writes the requests as JSONL (``custom_id`` = the request key, ``url`` = ``/v1/chat/completions``,
   ``body`` = exactly what ``openai:<model>`` would send), split into batches of at most
   ``max_requests_per_batch`` requests and ``max_bytes_per_batch`` bytes (OpenAI's limits:
   50,000 requests, 200 MB);
2. uploads each file to ``/files`` with ``purpose=batch`` and creates a batch on ``/batches`` with
   ``endpoint: /v1/chat/completions`` and ``completion_window: 24h``;
3. polls ``/batches/{id}`` with backoff (``poll_interval_s``, growing 1.5x up to ``poll_max_interval_s``)
   until it ends, then downloads the output and error files (``/files/{id}/content``).

Each answer gets the **same request key as** ``openai:<model>`` **at the same base URL**, so it
lands in the same cache: a later ``openai:`` run of the same requests is a cache hit (and the
other way round). Lines of the error file (and lines of the output file with an HTTP status other
than 200) become failed calls with the server's reason, never answers; a batch that failed,
expired or was cancelled fails the requests it did not answer, with its status as the reason.
Failed calls are not stored, so a re-run sends them again, in a new batch.

**Re-attaching.** Before it creates anything, the backend records the batch in ``state_dir``
(one JSON file per batch: the request keys it holds, the uploaded file id, then the batch id).
A run that is killed and started again finds its requests in those files and polls the same
batches instead of creating (and paying for) new ones. A kill between creating a batch and
recording its id is covered too: the file id is recorded first, and a re-run looks for a batch
made from that file (``GET /batches``) before creating one. ``clinaudit generate`` and spec runs
keep this state in the run directory (``RUN_DIR/batches/``); elsewhere it defaults to
``openai-batch/`` next to the user cache (``$CLINAUDIT_CACHE_DIR``).

The API key is read from the environment variable named by ``api_key_env`` at each call; it is
never written to the state files, the log or an error message (see :mod:`clinaudit.redact`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import BackendError
from ..records import ModelRequest, ModelResponse, stable_hash
from ..redact import redact, redact_and_cut
from .base import Backend, register_backend, run_sync
from .options import OpenAIBatchOptions

__all__ = ["OpenAIBatchBackend", "BatchLimits", "default_state_dir", "TERMINAL"]

log = logging.getLogger("clinaudit.openai_batch")

#: Batch statuses after which nothing changes.
TERMINAL = ("completed", "failed", "expired", "cancelled")
_RETRY_STATUS = {408, 409, 429, 500, 502, 503, 504}


class BatchLimits:
    """OpenAI's documented per-batch limits (https://platform.openai.com/docs/guides/batch)."""

    MAX_REQUESTS = 50_000
    MAX_BYTES = 200_000_000  # 200 MB


def default_state_dir() -> Path:
    """Where batch ids are kept when no run directory is given: ``openai-batch/`` next to the user cache."""
    from ..cache import default_cache_path

    return default_cache_path().parent / "openai-batch"


@register_backend("openai-batch", capabilities=["generate"], options_model=OpenAIBatchOptions,
                  summary="OpenAI Batch API (files + batches, half price, within 24 h; same cache keys as openai:<model>): "
                  "openai-batch:<model>")
class OpenAIBatchBackend(Backend):
    """``openai-batch:<model>``: chat requests sent through ``/files`` + ``/batches`` (see the module docstring)."""

    name = "openai-batch"
    is_remote = False
    batch_size = 1_000_000_000  # the runner hands over every uncached request in one call

    def __init__(
        self,
        spec: str,
        *,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        headers: Mapping[str, str] | None = None,
        state_dir: str | os.PathLike | None = None,
        max_requests_per_batch: int = BatchLimits.MAX_REQUESTS,
        max_bytes_per_batch: int = BatchLimits.MAX_BYTES,
        completion_window: str = "24h",
        poll_interval_s: float = 10.0,
        poll_max_interval_s: float = 300.0,
        max_wait_s: float | None = None,
        batch_discount: float = 0.5,
        http_timeout_s: float = 600.0,
        price_per_1k_input: float | None = None,
        price_per_1k_output: float | None = None,
        structured_output: str = "json_schema",
    ):
        from .openai_compat import OpenAICompatBackend

        super().__init__(spec)
        self.model = spec.partition(":")[2].strip()
        if not self.model:
            raise BackendError("the openai-batch backend needs a model name: openai-batch:<model>, "
                               "e.g. openai-batch:gpt-4o-mini")
        if base_url is not None and ("," in str(base_url) or not isinstance(base_url, str)):
            raise BackendError("openai-batch takes one base_url (a batch lives on one server), not a list")
        # The online backend of the same model and server: request bodies, answer parsing, identity.
        self.online = OpenAICompatBackend(f"openai:{self.model}", base_url=base_url, api_key_env=api_key_env,
                                          headers=headers, structured_output=structured_output)
        self.base_url = self.online.base_url
        self.api_key_env = self.online.api_key_env
        self.extra_headers = dict(self.online.extra_headers)
        self.state_dir = Path(state_dir) if state_dir is not None else default_state_dir()
        for name, value, low in (("max_requests_per_batch", max_requests_per_batch, 1),
                                 ("max_bytes_per_batch", max_bytes_per_batch, 1)):
            if int(value) < low:
                raise BackendError(f"{name} must be at least {low}, got {value!r}")
        self.max_requests = int(max_requests_per_batch)
        self.max_bytes = int(max_bytes_per_batch)
        self.completion_window = str(completion_window)
        self.poll_interval_s = float(poll_interval_s)
        self.poll_max_interval_s = max(float(poll_max_interval_s), self.poll_interval_s)
        self.max_wait_s = None if max_wait_s is None else float(max_wait_s)
        if not 0.0 <= float(batch_discount) < 1.0:
            raise BackendError(f"batch_discount must be in [0, 1), got {batch_discount!r}")
        self.batch_discount = float(batch_discount)
        self.http_timeout_s = float(http_timeout_s)
        self.options = {"price_per_1k_input": price_per_1k_input, "price_per_1k_output": price_per_1k_output}

    # ---- identity: the online backend's, so both share request keys and cache entries ------------
    def identity(self) -> str:
        return self.online.identity()

    def request_key(self, request: ModelRequest) -> str:
        """The key ``openai:<model>`` at the same base URL gives the same request."""
        return request.model_copy(update={"model": self.online.spec}).key(self.identity())

    def describe(self) -> dict[str, Any]:
        return {"spec": self.spec, "backend": self.name, "model": self.model, "base_url": self.base_url,
                "api_key_env": self.api_key_env, "state_dir": str(self.state_dir),
                "max_requests_per_batch": self.max_requests, "max_bytes_per_batch": self.max_bytes,
                "completion_window": self.completion_window, "batch_discount": self.batch_discount,
                "extra_headers": sorted(self.extra_headers)}

    def redact(self, text: str) -> str:
        return redact(text, [self._key()])

    def _key(self) -> str | None:
        return os.environ.get(self.api_key_env) or None

    # ---- HTTP -----------------------------------------------------------------------------------
    async def _http(self, client: Any, method: str, path: str, **kw: Any) -> Any:
        """One control call (upload, create, poll, download), retried on 429/5xx/connection errors."""
        import httpx

        headers = dict(self.extra_headers)
        key = self._key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        url = self.base_url + path
        delay, last = 1.0, ""
        for attempt in range(6):
            try:
                resp = await client.request(method, url, headers=headers, **kw)
            except httpx.HTTPError as exc:
                last = self.redact(f"{type(exc).__name__}: {exc}")
            else:
                if resp.status_code < 400:
                    return resp
                body = redact_and_cut(resp.text, [key], 300)
                if resp.status_code not in _RETRY_STATUS:
                    hint = f" (the environment variable {self.api_key_env} is not set)" \
                        if resp.status_code in (401, 403) and not key else ""
                    raise BackendError(f"HTTP {resp.status_code} from {method} {url}{hint}: {body}")
                last = f"HTTP {resp.status_code}: {body}"
            if attempt < 5:
                await asyncio.sleep(min(delay, self.poll_max_interval_s))
                delay *= 2
        raise BackendError(f"{method} {url} failed 6 times; last error: {last}")

    async def _json(self, client: Any, method: str, path: str, **kw: Any) -> dict[str, Any]:
        resp = await self._http(client, method, path, **kw)
        try:
            data = resp.json()
        except ValueError:
            raise BackendError(f"unreadable JSON from {method} {self.base_url + path}: "
                               f"{redact_and_cut(resp.text, [self._key()], 200)!r}") from None
        if not isinstance(data, dict):
            raise BackendError(f"unexpected answer from {method} {self.base_url + path}: not a JSON object")
        return data

    # ---- state files (one per batch, rewritten atomically) ----------------------------------------------
    def _state_path(self, local_id: str) -> Path:
        return self.state_dir / f"{local_id}.json"

    def _save(self, rec: dict[str, Any]) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        path = self._state_path(rec["local_id"])
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(rec), encoding="utf-8")
        os.replace(tmp, path)

    def _load_records(self) -> list[dict[str, Any]]:
        if not self.state_dir.is_dir():
            return []
        out = []
        for path in sorted(self.state_dir.glob("*.json")):
            try:
                rec = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                log.warning("ignoring unreadable batch state file %s", path)
                continue
            if isinstance(rec, dict) and rec.get("identity") == self.identity():
                out.append(rec)
        return sorted(out, key=lambda r: (r.get("created", 0.0), r["local_id"]))

    # ---- the run ---------------------------------------------------------------------------------------
    def generate(self, requests: Sequence[ModelRequest]) -> list[ModelResponse]:
        """Synchronous form of :meth:`agenerate_batch` (the runner calls that one in its event loop)."""
        return run_sync(self.agenerate_batch(requests))

    async def agenerate_batch(self, requests: Sequence[ModelRequest]) -> list[ModelResponse]:
        """Every request through batches; answers in request order. Cancelling it (Ctrl-C) stops the
        waiting at once; the batches keep running at the provider and a re-run re-attaches to them."""
        import httpx

        keys = [self.request_key(r) for r in requests]
        wanted: dict[str, ModelRequest] = {}
        for k, r in zip(keys, requests):
            wanted.setdefault(k, r)
        results: dict[str, ModelResponse] = {}
        async with httpx.AsyncClient(timeout=httpx.Timeout(self.http_timeout_s, connect=30.0)) as client:
            records = self._attach(wanted)
            records += self._new_records(wanted, {k for r in records for k in r["mine"]}, results)
            for rec in records:
                await self._submit(client, rec)
            await self._wait(client, records, wanted, results)
        return [results[k].model_copy(update={"request_key": k}) for k in keys]

    def _attach(self, wanted: Mapping[str, ModelRequest]) -> list[dict[str, Any]]:
        """Earlier batches (state files) holding wanted requests that they have not failed."""
        claimed: set[str] = set()
        out = []
        for rec in self._load_records():
            if not rec.get("input_file_id"):  # recorded, then killed before the upload: nothing to pay for
                self._state_path(rec["local_id"]).unlink(missing_ok=True)
                continue
            failed = rec.get("failed", {})
            mine = [k for k in rec["keys"] if k in wanted and k not in claimed and k not in failed]
            if mine:
                claimed.update(mine)
                rec["mine"] = mine
                out.append(rec)
                log.info("re-attaching to batch %s (%s, %d of its requests wanted)",
                         rec.get("batch_id") or rec["local_id"], rec.get("status") or "not created", len(mine))
        return out

    def _new_records(self, wanted: Mapping[str, ModelRequest], claimed: set[str],
                     results: dict[str, ModelResponse]) -> list[dict[str, Any]]:
        """Split the unclaimed requests into batches within the limits; record each before uploading."""
        groups: dict[str, list[tuple[str, bytes]]] = {}
        for key, req in wanted.items():
            if key in claimed:
                continue
            try:
                path, body = self.online.build_payload(req)
            except BackendError as exc:
                results[key] = self._failure(req, str(exc))
                continue
            endpoint = "/v1" + path
            line = json.dumps({"custom_id": key, "method": "POST", "url": endpoint, "body": body},
                              separators=(",", ":")).encode("utf-8") + b"\n"
            if len(line) > self.max_bytes:
                results[key] = self._failure(req, f"request is {len(line):,} bytes as a batch line, more than "
                                                  f"max_bytes_per_batch ({self.max_bytes:,})")
                continue
            groups.setdefault(endpoint, []).append((key, line))
        out = []
        for endpoint, lines in groups.items():
            chunk: list[tuple[str, bytes]] = []
            size = 0
            for key, line in lines + [("", b"")]:
                if key and len(chunk) < self.max_requests and size + len(line) <= self.max_bytes:
                    chunk.append((key, line))
                    size += len(line)
                    continue
                if chunk:
                    out.append(self._record(endpoint, chunk))
                chunk, size = ([(key, line)], len(line)) if key else ([], 0)
        return out

    def _record(self, endpoint: str, chunk: list[tuple[str, bytes]]) -> dict[str, Any]:
        keys = [k for k, _ in chunk]
        local_id = "batch-" + stable_hash("clinaudit-openai-batch-v1", self.identity(), endpoint, keys, length=20)
        rec = {"version": 1, "local_id": local_id, "identity": self.identity(), "endpoint": endpoint,
               "keys": keys, "input_file_id": None, "batch_id": None, "status": None, "failed": {},
               "created": time.time(), "bytes": sum(len(line) for _, line in chunk)}
        self._save(rec)
        rec["mine"] = keys
        rec["_content"] = b"".join(line for _, line in chunk)
        return rec

    async def _submit(self, client: Any, rec: dict[str, Any]) -> None:
        """Upload (if needed) and create the batch (unless one already exists for the uploaded file)."""
        if rec.get("batch_id"):
            return
        if rec.get("input_file_id"):
            found = await self._find_batch(client, rec["input_file_id"])
            if found is not None:
                rec["batch_id"], rec["status"] = found["id"], found.get("status")
                self._save(_public(rec))
                log.info("found batch %s made from file %s earlier; re-attaching", found["id"], rec["input_file_id"])
                return
        else:
            content = rec["_content"]
            up = await self._json(client, "POST", "/files", data={"purpose": "batch"},
                            files={"file": (f"clinaudit-{rec['local_id']}.jsonl", content, "application/jsonl")})
            if not up.get("id"):
                raise BackendError(f"upload to {self.base_url}/files answered without a file id")
            rec["input_file_id"] = up["id"]
            rec.pop("_content", None)  # up to 200 MB per batch: not kept while the batch runs
            self._save(_public(rec))
        made = await self._json(client, "POST", "/batches", json={
            "input_file_id": rec["input_file_id"], "endpoint": rec["endpoint"],
            "completion_window": self.completion_window, "metadata": {"clinaudit_batch": rec["local_id"]}})
        if not made.get("id"):
            raise BackendError(f"{self.base_url}/batches answered without a batch id")
        rec["batch_id"], rec["status"] = made["id"], made.get("status")
        self._save(_public(rec))
        log.info("created batch %s: %d requests (%s bytes) to %s", made["id"], len(rec["keys"]), rec.get("bytes"),
                 rec["endpoint"])

    async def _find_batch(self, client: Any, file_id: str) -> dict[str, Any] | None:
        after = None
        for _ in range(20):  # the newest 2,000 batches
            params: dict[str, Any] = {"limit": 100}
            if after:
                params["after"] = after
            page = await self._json(client, "GET", "/batches", params=params)
            data = [b for b in page.get("data") or [] if isinstance(b, dict)]
            for b in data:
                if b.get("input_file_id") == file_id and b.get("status") not in ("failed",):
                    return b
            if not page.get("has_more") or not data:
                return None
            after = page.get("last_id") or data[-1].get("id")
        return None

    async def _wait(self, client: Any, records: list[dict[str, Any]], wanted: Mapping[str, ModelRequest],
              results: dict[str, ModelResponse]) -> None:
        started = time.monotonic()
        interval = self.poll_interval_s
        pending = list(records)
        while True:
            still = []
            for rec in pending:
                try:
                    batch = await self._json(client, "GET", f"/batches/{rec['batch_id']}")
                except BackendError as exc:  # a batch the server does not know (deleted, other account)
                    if "HTTP 404" not in str(exc):
                        raise
                    batch = {"status": "not found", "errors": {"data": [{"message": str(exc)}]}}
                status = str(batch.get("status"))
                if status != rec.get("status"):
                    rec["status"] = status
                    self._save(_public(rec))
                    counts = _mapping(batch.get("request_counts"))
                    log.info("batch %s: %s (%s of %s done, %s failed)", rec["batch_id"], status,
                             counts.get("completed", "?"), counts.get("total", "?"), counts.get("failed", "?"))
                if status in TERMINAL or status == "not found":
                    await self._collect(client, rec, batch, wanted, results)
                else:
                    still.append(rec)
            pending = still
            if not pending:
                return
            waited = time.monotonic() - started
            if self.max_wait_s is not None and waited + interval > self.max_wait_s:
                for rec in pending:
                    reason = (f"batch {rec['batch_id']} still '{rec['status']}' after max_wait_s={self.max_wait_s:g} s; "
                              "re-run to re-attach to it (it is not created or paid again)")
                    for k in rec["mine"]:
                        results.setdefault(k, self._failure(wanted[k], reason))
                return
            await asyncio.sleep(interval)
            interval = min(self.poll_max_interval_s, interval * 1.5)

    async def _collect(self, client: Any, rec: dict[str, Any], batch: Mapping[str, Any], wanted: Mapping[str, ModelRequest],
                 results: dict[str, ModelResponse]) -> None:
        mine, rec_keys = set(rec["mine"]), set(rec["keys"])
        failed: dict[str, str] = {}
        seen: set[str] = set()  # keys with a line in the output or error file
        lost: list[str] = []
        for field in ("output_file_id", "error_file_id"):
            file_id = batch.get(field)
            if not file_id:
                continue
            try:
                text = (await self._http(client, "GET", f"/files/{file_id}/content")).text
            except BackendError as exc:  # e.g. the provider deleted the file: its requests fail (a re-run resends)
                if "HTTP 404" not in str(exc):
                    raise
                lost.append(f"{field} {file_id} could not be downloaded: {exc}")
                continue
            # JSON Lines end at "\n" only: str.splitlines() would also cut at a raw U+2028 inside a JSON string
            for n, raw in enumerate(text.split("\n"), 1):
                if not raw.strip():
                    continue
                try:
                    line = json.loads(raw)
                    key = line["custom_id"]
                except (ValueError, KeyError, TypeError):
                    key = None
                if not isinstance(key, str):  # not a JSON object, or no string custom_id: not one of ours
                    log.warning("batch %s: unreadable line %d of %s %s (no string 'custom_id')", rec["batch_id"], n,
                                field, file_id)
                    continue
                if key not in rec_keys:
                    continue
                seen.add(key)
                resp, reason = self._parse_line(line, wanted.get(key))
                if reason is not None:
                    failed[key] = reason
                if key in mine and key not in results:
                    results[key] = resp if resp is not None else self._failure(wanted[key], reason or "")
        status = str(batch.get("status"))
        errors = "; ".join([str(e.get("message", e)) for e in _error_list(batch.get("errors")) if isinstance(e, dict)]
                           + lost)
        for key in rec["keys"]:
            if key in seen:
                continue
            reason = f"batch {rec['batch_id']} ended '{status}' without an answer for this request"
            if errors:
                reason += f": {errors}"
            failed[key] = reason
            if key in mine:
                results[key] = self._failure(wanted[key], reason)
        if failed:  # a re-run sends these again in a new batch instead of re-attaching here
            rec["failed"] = {**rec.get("failed", {}), **{k: self.redact(v)[:300] for k, v in failed.items()}}
        self._save(_public(rec))

    def _parse_line(self, line: Mapping[str, Any], request: ModelRequest | None) -> tuple[ModelResponse | None, str | None]:
        """(answer, None), or (None, reason) for an error line or a non-200 answer."""
        error = line.get("error")
        response = line.get("response") or {}
        code = response.get("status_code") if isinstance(response, dict) else None
        body = response.get("body") if isinstance(response, dict) else None
        if error or code != 200:
            parts = []
            if code is not None:
                parts.append(f"HTTP {code}")
            detail = error if isinstance(error, dict) else ((body or {}).get("error") if isinstance(body, dict) else None)
            if isinstance(detail, dict):
                parts.append(": ".join(str(x) for x in (detail.get("code"), detail.get("message")) if x))
            elif error:
                parts.append(str(error))
            return None, self.redact("batch request failed: " + (" ".join(p for p in parts if p) or "no answer"))[:300]
        if request is None:
            return None, None
        try:
            resp = self.online.parse_response(body, request)
        except BackendError as exc:
            return None, self.redact(str(exc))
        return resp.model_copy(update={"model": self.spec}), None

    def _failure(self, request: ModelRequest, reason: str) -> ModelResponse:
        return ModelResponse(request_key="", model=self.spec, error=self.redact(reason))

    def count_tokens(self, text: str) -> int:
        return self.online.count_tokens(text)


def _mapping(value: Any) -> Mapping[str, Any]:
    """``value`` when the server sent a JSON object there, else an empty one (a field of the wrong shape)."""
    return value if isinstance(value, Mapping) else {}


def _error_list(value: Any) -> list[Any]:
    """A batch object's ``errors``: ``{"data": [...]}`` as the Batch API documents it, or a bare list."""
    data = value.get("data") if isinstance(value, Mapping) else value
    return list(data) if isinstance(data, list) else []


def _public(rec: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a batch record written to its state file (not the run's working fields)."""
    return {k: v for k, v in rec.items() if k not in ("mine", "_content")}
