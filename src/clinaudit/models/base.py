"""One interface for every model backend, registered by name.

A backend is addressed by a *spec string* ``prefix[:argument]``, e.g.
``openai:gpt-4o-mini``, ``hf:/models/llama``, ``hf-mlm:/models/bert``,
``embedded``, ``embedded-embedder``, ``mock``. Options (base URL, API key env
var, batch size, mock rules, ...) come separately as keyword arguments.

Backends implement whichever capabilities they have:

* ``generate(requests)`` - text generation (chat or completion), batched;
* ``loglik(texts)`` - total log-likelihood of each text (causal LMs);
* ``masked_logprobs(items)`` - log-probs of target tokens at [MASK] positions (masked LMs);
* ``embed(texts)`` - sentence embeddings.

Heavy imports (torch, transformers, httpx clients) happen inside the backend
modules, which the registry imports only when a spec asks for them.
"""

from __future__ import annotations

import contextvars
import importlib
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from ..errors import BackendError
from ..records import ModelRequest, ModelResponse
from ..registry import Registry, origin_of, registry

__all__ = [
    "ATTEMPT_LIMIT_S",
    "Backend",
    "RetryableError",
    "MaskedItem",
    "register_backend",
    "get_backend",
    "list_backends",
    "parse_spec",
    "run_sync",
]


#: Inside a runner worker: the limit in seconds the runner itself puts on every attempt (``runner.timeout_s``,
#: kept by the pool's watchdog, :class:`clinaudit.workers.Deadlines`); None elsewhere. A backend whose own
#: per-request limit is no tighter may leave its timer out (the openai backend's ``http_timeout_s``: a timer
#: armed and cancelled on every call); a direct call of ``agenerate`` outside a run always keeps it.
ATTEMPT_LIMIT_S: contextvars.ContextVar[float | None] = contextvars.ContextVar("clinaudit_attempt_limit_s",
                                                                               default=None)


class RetryableError(Exception):
    """Transient failure (HTTP 429/5xx, timeout, dropped connection): the runner retries it.

    ``retry_after``: the server's Retry-After in seconds; ``status``: the HTTP status when the server
    answered; ``unreachable``: no connection could be made (refused, DNS, TLS handshake), as opposed to one
    that was made and then failed (an endpoint pool takes an unreachable endpoint out at once)."""

    def __init__(self, message: str, retry_after: float | None = None, *, status: int | None = None,
                 unreachable: bool = False):
        super().__init__(message)
        self.retry_after = retry_after
        self.status = status
        self.unreachable = unreachable


@dataclass(frozen=True)
class MaskedItem:
    """A masked-LM query: ``text`` contains the tokenizer's mask token(s).

    ``targets`` are token ids to read at the mask positions, one list per mask
    position in order (multi-token targets: one id per mask). The result is the
    sum of their log-probs.

    ``score_masks`` (optional) says which of the text's mask tokens the targets
    are read at: 0-based indices in order of appearance, one per target. The
    other masks stay in the input but are not scored (e.g. a masked attribute
    in a prior sentence). ``None`` (default): every mask is scored.
    """

    text: str
    targets: tuple[int, ...]
    score_masks: tuple[int, ...] | None = None


class Backend:
    """Base class. Subclasses set ``name`` and override capabilities they support."""

    name: str = "backend"
    #: True if ``generate`` is an async network call (runner runs many concurrently);
    #: False for local models (runner sends batches of ``batch_size`` in a worker thread).
    is_remote: bool = False
    #: True for a local model that runs a batch of calls together on its device (``hf:``, ``embedded``, ``vllm:``):
    #: the dry-run estimate then times a batch, not only one call alone (:mod:`clinaudit.pipeline.estimate`)
    batches_calls: bool = False
    batch_size: int = 8

    def __init__(self, spec: str, **options: Any):
        self.spec = spec
        self.options = options

    def prepare(self) -> None:
        """Load what the first call would load (a local model's weights); nothing for a remote backend. The
        dry run's time probe calls it first, so that the time of one call does not include the loading."""

    # Identity that goes into the request hash: everything that changes the output
    # (model file, base URL) and nothing secret (never the API key).
    def identity(self) -> str:
        return self.spec

    def request_key(self, request: ModelRequest) -> str:
        """The cache key of ``request``: its hash with this backend's identity. A backend that answers
        exactly like another one (``openai-batch:m`` and ``openai:m``) overrides it to share that one's keys."""
        return request.key(self.identity())

    def describe(self) -> dict[str, Any]:
        """Manifest entry (no secrets)."""
        return {"spec": self.spec, "backend": self.name}

    def redact(self, text: str) -> str:
        """``text`` with this backend's secrets (and fragments of them) masked; the runner passes every
        error message through it before storing or logging it. Backends without secrets return it as is."""
        return text

    # --- capabilities -----------------------------------------------------
    async def agenerate(self, request: ModelRequest) -> ModelResponse:  # remote backends
        raise BackendError(f"backend '{self.name}' does not support async generation")

    def generate(self, requests: Sequence[ModelRequest]) -> list[ModelResponse]:  # local backends
        raise BackendError(f"backend '{self.name}' does not support text generation")

    def loglik(self, texts: Sequence[str]) -> np.ndarray:
        raise BackendError(f"backend '{self.name}' does not score sentence log-likelihoods")

    def masked_logprobs(self, items: Sequence[MaskedItem]) -> np.ndarray:
        raise BackendError(f"backend '{self.name}' is not a masked language model")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise BackendError(f"backend '{self.name}' does not produce embeddings")

    def count_tokens(self, text: str) -> int:
        """Token count (backends with a tokenizer override this); whitespace words otherwise."""
        return len(text.split())

    def close(self) -> None:  # pragma: no cover - optional
        pass


@dataclass(frozen=True)
class BackendEntry:
    """What the registry keeps for a backend prefix (kind ``backend``): where its class lives, what it can do."""

    prefix: str
    module: str
    attr: str
    summary: str
    capabilities: tuple[str, ...]
    options_model: Any = None  # pydantic model (extra="forbid") of the spec's `backends:` options, if given


# The shared registry of backends (clinaudit.registry, kind "backend"): each built-in backend
# module declares its own with @register_backend; plugins add more by entry point.
_BACKENDS: Registry[BackendEntry] = registry("backend")
_LOADED: dict[str, type[Backend]] = {}
B = TypeVar("B", bound=Callable[..., Any])
T = TypeVar("T")


def register_backend(
    prefix: str, *, summary: str, capabilities: Sequence[str], options_model: Any = None,
) -> Callable[[B], B]:
    """Decorator registering a backend class (or a factory function) under ``prefix``, in its own module::

        @register_backend("mock", summary="...", capabilities=["generate"], options_model=MockOptions)
        class MockBackend(Backend): ...

    The registry reads the declaration from the source, so the module is imported only when a spec
    uses the backend. ``options_model`` (optional): a pydantic model with ``extra="forbid"`` listing
    the options a spec's ``backends:`` entry may give this backend; spec validation then names
    unknown ones. Without it, any option passes except credential-like names (``api_key``, ``token`` ...).
    """

    def deco(obj: B) -> B:
        _BACKENDS.add(prefix, BackendEntry(prefix, obj.__module__, obj.__name__, summary, tuple(capabilities),
                                           options_model), origin=origin_of(obj))
        return obj

    return deco


def backend_entry(prefix: str) -> Any:
    """The registry entry of a backend prefix (``KeyError`` if unknown)."""
    return _BACKENDS.get(prefix)


def backend_prefixes() -> list[str]:
    """Every registered backend prefix (built-ins and plugins)."""
    return list(_BACKENDS.names())


def parse_spec(spec: str) -> tuple[str, str]:
    """``"openai:gpt-4o" -> ("openai", "gpt-4o")``; ``"embedded" -> ("embedded", "")``."""
    spec = spec.strip()
    if not spec:
        raise BackendError("empty model spec; see `clinaudit models` for the available backends")
    prefix, _, arg = spec.partition(":")
    return prefix, arg


_INSTANCES: dict[tuple[str, str], Backend] = {}


def get_backend(spec: str, *, reuse: bool = True, **options: Any) -> Backend:
    """Instantiate (or reuse) the backend for ``spec``.

    Local models are expensive to load, so by default one instance per
    (spec, options) is kept for the life of the process.
    """
    prefix, _ = parse_spec(spec)
    try:
        entry = _BACKENDS.get(prefix)
    except KeyError:
        known = ", ".join(_BACKENDS.names())
        raise BackendError(f"unknown model backend '{prefix}' in spec '{spec}'. Known backends: {known}"
                           f"{_BACKENDS.did_you_mean(prefix)}") from None
    cache_key = (spec, repr(sorted(options.items(), key=lambda kv: kv[0])))
    if reuse and cache_key in _INSTANCES:
        return _INSTANCES[cache_key]
    cls = _LOADED.get(prefix)
    if cls is None:
        cls = getattr(importlib.import_module(entry.module), entry.attr)
        _LOADED[prefix] = cls
    backend = cls(spec, **options)
    if reuse:
        _INSTANCES[cache_key] = backend
    return backend


def list_backends() -> list[dict[str, Any]]:
    return [
        {"prefix": e.prefix, "summary": e.summary, "capabilities": list(e.capabilities)}
        for _, e in _BACKENDS.items()
    ]


def clear_instances() -> None:
    """Drop cached backend instances (tests)."""
    _INSTANCES.clear()


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` that also works when called from inside a running loop (notebooks, a backend's
    synchronous method called from the runner's loop): then the coroutine runs in a new thread's loop."""
    import asyncio
    import threading

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = asyncio.run(coro)
        except BaseException as exc:  # pragma: no cover - re-raised below
            result["error"] = exc

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in result:
        raise result["error"]
    value: T = result["value"]
    return value
