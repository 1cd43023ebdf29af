"""Any OpenAI-compatible HTTP endpoint: ``openai:<model>``.

Works with OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp's server, LM Studio
and other servers that speak the ``/chat/completions`` (or ``/completions``)
protocol.

Options (keyword arguments, or spec ``backends:`` entries):

``base_url``
    Endpoint root, e.g. ``http://localhost:8000/v1``. Default: the environment
    variable ``OPENAI_BASE_URL``, else ``https://api.openai.com/v1``.
``api_key_env``
    The *name* of the environment variable holding the API key (default
    ``OPENAI_API_KEY``). The key is read at call time and is never stored: not in
    the backend identity, the manifest, the cache, the log or any error message.
    If the variable is unset, requests are sent without credentials (fine for
    local servers).
``azure_api_version``
    Set it for Azure OpenAI: the key goes in an ``api-key`` header and every
    URL gets ``?api-version=<value>``. ``base_url`` is then the deployment URL
    (``https://<resource>.openai.azure.com/openai/deployments/<deployment>``).
``completion``
    ``True`` sends every request to ``/completions`` with a plain ``prompt``
    instead of ``/chat/completions`` with ``messages``.
``headers``
    Extra, non-secret HTTP headers (e.g. an organisation id).
``max_connections``
    Size of the HTTP connection pool (default 64).
``structured_output``
    How a request's answer grammar is sent (``auto``, ``json_schema``, ``vllm``, ``none``;
    :mod:`clinaudit.models.structured`).

Transient failures (HTTP 429 and 5xx, timeouts, refused or dropped
connections) raise :class:`~clinaudit.models.base.RetryableError` (with the
server's ``Retry-After`` when given) so the runner retries them with backoff;
other HTTP errors (400, 401, 404, ...) fail at once with the status and the
start of the server's answer.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import os
import time
import weakref
from collections.abc import Mapping
from typing import Any

from ..errors import BackendError
from ..grammar import EXTRA_KEY, grammar_of
from ..records import ModelRequest, ModelResponse, TextSplicer
from ..redact import redact, redact_and_cut
from .base import ATTEMPT_LIMIT_S, Backend, RetryableError
from .structured import STRUCTURED_MODES, names_structured_field, structured_fields

__all__ = ["OpenAICompatBackend", "parse_retry_after"]

log = logging.getLogger("clinaudit.openai")

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_INTERNAL_EXTRA = {"attempt", EXTRA_KEY}  # clinaudit bookkeeping in ModelRequest.extra, never sent as such
# options a spec may give every backend that this one accepts and ignores (cost estimate only)
_PASSIVE_OPTIONS = {"price_per_1k_input", "price_per_1k_output"}
_ALL_OPTIONS = _PASSIVE_OPTIONS | {"base_url", "api_key_env", "azure_api_version", "completion", "headers",
                                   "max_connections", "http_timeout_s", "structured_output"}


def parse_retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait from ``Retry-After`` (seconds or HTTP date) or ``retry-after-ms``; None if absent."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):  # an unparseable date raises (it never returns None on Python >= 3.10)
        return None
    return max(0.0, when.timestamp() - time.time())


_AIOHTTP: Any = None


def _aiohttp() -> Any:
    """The HTTP client package, imported on first use (not at ``import clinaudit``)."""
    global _AIOHTTP
    if _AIOHTTP is None:
        import aiohttp

        _AIOHTTP = aiohttp
    return _AIOHTTP


_validate_response = ModelResponse.__pydantic_validator__.validate_python


def _loads(raw: bytes) -> Any:
    """``json.loads(raw)``: UTF-8 decoded here (json.loads of bytes first works out their encoding); a body
    that is not plain UTF-8 (a byte-order mark, UTF-16 or -32) still goes to json.loads as bytes."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return json.loads(raw)
    if text[:1] == "\ufeff" or "\x00" in text[:4]:  # a BOM, or UTF-16/32 without one (json's own test)
        return json.loads(raw)
    return json.loads(text)


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


class OpenAICompatBackend(Backend):
    """Chat or completion calls to an OpenAI-compatible server, asynchronous (``aiohttp``: of the async
    clients measured in ``benchmarks/bench_orchestration.py`` the fastest per call, see docs/backends.md)."""

    name = "openai"
    is_remote = True

    def __init__(
        self,
        spec: str,
        *,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        azure_api_version: str | None = None,
        completion: bool = False,
        headers: Mapping[str, str] | None = None,
        max_connections: int = 64,
        http_timeout_s: float = 600.0,
        structured_output: str = "auto",
        **options: Any,
    ):
        unknown = sorted(set(options) - _PASSIVE_OPTIONS)
        if unknown:  # a typo such as base_ur1 must not send requests to the default public endpoint
            import difflib

            known = sorted(_ALL_OPTIONS)
            close = difflib.get_close_matches(unknown[0], known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise BackendError(f"unknown option '{unknown[0]}' for the openai backend{hint} (options: {', '.join(known)})")
        super().__init__(spec, **options)
        self.model = spec.partition(":")[2].strip()
        if not self.model:
            raise BackendError("the openai backend needs a model name: openai:<model>, e.g. openai:gpt-4o-mini")
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        if not self.base_url.startswith(("http://", "https://")):
            raise BackendError(f"base_url must start with http:// or https://, got {self.base_url!r}")
        if not api_key_env or not str(api_key_env).replace("_", "").isalnum():
            raise BackendError(
                f"api_key_env must be the NAME of an environment variable (e.g. OPENAI_API_KEY), not {api_key_env!r}"
            )
        self.api_key_env = str(api_key_env)
        self.azure_api_version = azure_api_version
        self.completion = bool(completion)
        self.extra_headers = {str(k): str(v) for k, v in (headers or {}).items()}
        self.max_connections = int(max_connections)
        self.http_timeout_s = float(http_timeout_s)
        if structured_output not in STRUCTURED_MODES:
            raise BackendError(f"structured_output must be one of {', '.join(STRUCTURED_MODES)}, "
                               f"got {structured_output!r}")
        self.structured_output = str(structured_output)
        self.structured_off = False  # auto: set once the endpoint refused the structured fields
        aiohttp = _aiohttp()  # imported with the first backend made, not in the middle of the first call
        # the whole request within http_timeout_s; in a run whose own limit on each attempt (runner.timeout_s,
        # ATTEMPT_LIMIT_S) is no longer than that, the request goes without a timer of its own (~15 us per call)
        self._timed = aiohttp.ClientTimeout(total=self.http_timeout_s, sock_connect=30.0)
        self._untimed = aiohttp.ClientTimeout(total=None, sock_connect=30.0)
        # One client per event loop: the runner may call us from successive asyncio.run() loops.
        self._clients: dict[int, Any] = {}
        # the JSON body of a request: json.dumps(build_payload(request)), made through a template per shape
        self._body_json = TextSplicer(self._render_body, json.encoder.encode_basestring_ascii)
        self._urls: dict[str, Any] = {}  # path -> parsed URL (parsed once, not on every call)
        self._in_flight: dict[int, int] = {}  # requests running per event loop (aclose waits for 0)

    # ---- identity -------------------------------------------------------------
    def identity(self) -> str:
        ident = f"openai:{self.model}@{self.base_url}"
        if self.completion:
            ident += "#completion"
        return ident

    def describe(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "backend": self.name,
            "model": self.model,
            "base_url": self.base_url,
            "api_key_env": self.api_key_env,  # the variable's name only, never its value
            "azure_api_version": self.azure_api_version,
            "completion": self.completion,
            "extra_headers": sorted(self.extra_headers),
            "structured_output": self.structured_output,
        }

    # ---- HTTP -----------------------------------------------------------------
    def _api_key(self) -> str | None:
        return os.environ.get(self.api_key_env) or None

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", **self.extra_headers}
        key = self._api_key()
        if key:
            if self.azure_api_version:
                headers["api-key"] = key
            else:
                headers["Authorization"] = f"Bearer {key}"
        return headers

    def _auth_headers(self) -> dict[str, str] | None:
        """The per-call headers: the credentials only (read now; the others are the session's defaults)."""
        key = self._api_key()
        if not key:
            return None
        return {"api-key": key} if self.azure_api_version else {"Authorization": f"Bearer {key}"}

    def _client(self) -> Any:  # an aiohttp.ClientSession (aiohttp is imported with the first backend)
        aiohttp = _aiohttp()
        loop = asyncio.get_running_loop()
        entry = self._clients.get(id(loop))
        if entry is not None and entry[0]() is loop and not entry[1].closed:
            return entry[1]
        # Clients of event loops that have finished are dropped (their sockets die with the loop).
        self._clients = {k: e for k, e in self._clients.items() if e[0]() is not None and not e[0]().is_closed()}
        # One keep-alive pool of max_connections sockets to the endpoint; idle sockets are kept 60 s.
        connector = aiohttp.TCPConnector(limit=self.max_connections, limit_per_host=self.max_connections,
                                         keepalive_timeout=60.0, ttl_dns_cache=300)
        # the headers every call sends (those of _headers() but the credentials, which are read per call)
        client = aiohttp.ClientSession(connector=connector, timeout=self._timed,
                                       headers={"Content-Type": "application/json", **self.extra_headers})
        self._clients[id(loop)] = (weakref.ref(loop), client)
        return client

    def redact(self, text: str) -> str:
        """``text`` without the key or any >= 8-character fragment of it (see :mod:`clinaudit.redact`)."""
        return redact(text, [self._api_key()])

    def _server_text(self, text: str, limit: int = 200) -> str:
        """Server text for an error message: redacted first, then cut to ``limit`` characters."""
        return redact_and_cut(text, [self._api_key()], limit)

    def build_payload(self, request: ModelRequest) -> tuple[str, dict[str, Any]]:
        """The endpoint path and JSON body for ``request`` (public for tests and debugging)."""
        if request.kind not in ("chat", "completion"):
            raise BackendError(f"the openai backend only generates text; request kind '{request.kind}' is not supported")
        use_completion = self.completion or request.kind == "completion"
        body: dict[str, Any] = {"model": self.model}
        if use_completion:
            path = "/completions"
            body["prompt"] = request.prompt if request.prompt is not None else "\n\n".join(m.content for m in request.messages)
        else:
            path = "/chat/completions"
            if request.messages:
                body["messages"] = [{"role": m.role, "content": m.content} for m in request.messages]
            else:
                body["messages"] = [{"role": "user", "content": request.prompt or ""}]
        body["temperature"] = request.temperature
        body["max_tokens"] = request.max_tokens
        if request.n != 1:
            body["n"] = request.n
        if request.seed is not None:
            body["seed"] = request.seed
        if request.top_p is not None:
            body["top_p"] = request.top_p
        if request.stop:
            body["stop"] = list(request.stop)
        grammar = grammar_of(request)
        if grammar is not None and not self.structured_off:
            body.update(structured_fields(grammar, self.structured_output))
        for k, v in request.extra.items():
            if k not in _INTERNAL_EXTRA:
                body[k] = v
        return path, body

    def _render_body(self, request: ModelRequest, _context: Any) -> str:
        return json.dumps(self.build_payload(request)[1])

    def body(self, request: ModelRequest) -> tuple[str, bytes]:
        """The endpoint path and the JSON body as sent: ``json.dumps`` of :meth:`build_payload`'s body."""
        text = self._body_json(request)
        if text is None:
            path, payload = self.build_payload(request)
            return path, json.dumps(payload).encode()
        use_completion = self.completion or request.kind == "completion"
        return ("/completions" if use_completion else "/chat/completions"), text.encode()

    async def agenerate(self, request: ModelRequest) -> ModelResponse:
        aiohttp = _aiohttp()
        path, data = self.body(request)
        params = {"api-version": self.azure_api_version} if self.azure_api_version else None
        url = self.base_url + path
        target = self._urls.get(path)
        if target is None:
            import yarl  # aiohttp's URL type: a str would be parsed again on every call

            target = self._urls[path] = yarl.URL(url)
        limit = ATTEMPT_LIMIT_S.get()
        timeout = self._untimed if limit is not None and limit <= self.http_timeout_s else self._timed
        loop_id = id(asyncio.get_running_loop())
        self._in_flight[loop_id] = self._in_flight.get(loop_id, 0) + 1
        try:
            async with self._client().post(target, data=data, headers=self._auth_headers(), params=params,
                                           timeout=timeout) as resp:
                status = resp.status
                raw = await resp.read()
                headers = resp.headers
        except asyncio.TimeoutError as exc:  # aiohttp's ServerTimeoutError is one too
            raise RetryableError(f"timeout calling {url}: {type(exc).__name__}") from None
        except (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError) as exc:
            # refused, reset, dropped (ServerDisconnectedError), DNS, a body cut short ...
            raise RetryableError(self.redact(f"connection error calling {url}: {type(exc).__name__}: {exc}"),
                                 unreachable=isinstance(exc, aiohttp.ClientConnectorError)) from None
        finally:
            self._in_flight[loop_id] -= 1
        if status == 429 or status >= 500:
            raise RetryableError(
                f"HTTP {status} from {url}: {self._server_text(_text(raw))}", retry_after=parse_retry_after(headers),
                status=status,
            )
        if status in (400, 422) and self.structured_output == "auto" and not self.structured_off \
                and grammar_of(request) is not None and names_structured_field(_text(raw)):
            # the endpoint does not take response_format (or a guided field): say so once, send without
            self.structured_off = True
            log.warning("%s: the endpoint refused structured output (HTTP %s: %s); sending answer grammars "
                        "no more (retry-until-parsed only)", self.spec, status, self._server_text(_text(raw), 120))
            return await self.agenerate(request)
        if status >= 400:
            hint = ""
            if status in (401, 403) and not self._api_key():
                hint = f" (the environment variable {self.api_key_env} is not set)"
            raise BackendError(f"HTTP {status} from {url}{hint}: {self._server_text(_text(raw))}")
        try:
            data = _loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            # A 200 with a broken body is usually a proxy hiccup: worth another try.
            raise RetryableError(f"unreadable JSON from {url}: {self._server_text(_text(raw))!r}") from None
        return self.parse_response(data, request)

    def parse_response(self, data: Any, request: ModelRequest) -> ModelResponse:
        """Turn an OpenAI-style JSON answer into a :class:`ModelResponse`."""
        if not isinstance(data, dict) or not isinstance(data.get("choices"), list) or not data["choices"]:
            raise BackendError(f"response from {self.base_url} has no 'choices': {self._server_text(json.dumps(data))}")
        choices = data["choices"]
        if len(choices) > 1:
            choices = sorted(choices, key=lambda c: c.get("index", 0) if isinstance(c, dict) else 0)
        texts: list[str] = []
        for choice in choices:
            if not isinstance(choice, dict):
                raise BackendError(f"malformed choice in response from {self.base_url}: {self._server_text(str(choice))}")
            message = choice.get("message")
            if isinstance(message, dict) and "content" in message:
                text = message.get("content")
            else:
                text = choice.get("text")
            texts.append(text if isinstance(text, str) else "")
        usage = data.get("usage") or {}
        return _validate_response({  # ModelResponse(**...) without the Python-level __init__ frame
            "request_key": "",
            "model": self.spec,
            "text": texts[0],
            "choices": texts,
            "prompt_tokens": int(usage.get("prompt_tokens") or 0),
            "completion_tokens": int(usage.get("completion_tokens") or 0),
            "finish_reason": choices[0].get("finish_reason"),
        })

    async def aclose(self) -> None:
        """Close the HTTP connections of the running event loop, unless requests are still in flight.

        The runner calls this when a batch of calls ends; a later call simply opens a new client.
        """
        loop = asyncio.get_running_loop()
        if self._in_flight.get(id(loop), 0) > 0:
            return
        entry = self._clients.get(id(loop))
        if entry is None or entry[0]() is not loop:
            return
        del self._clients[id(loop)]  # taken out before awaiting: new calls get a fresh client
        self._in_flight.pop(id(loop), None)
        await entry[1].close()
