"""Validation of backend options given in a spec's ``backends:`` section.

Each backend kind has a pydantic model with ``extra="forbid"``: an unknown option is an
error naming the spec file and the field, with a "did you mean" from :mod:`difflib`. A typo
such as ``base_ur1:`` must not silently send patient text (and the key) to the default
public endpoint. Options that look like credentials (``api_key``, ``token``, ``password``,
an ``Authorization`` header ...) are refused with a pointer to ``api_key_env``: a spec is
copied into ``manifest.json`` and must never hold a secret.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import SpecError
from .base import backend_entry, backend_prefixes, parse_spec

__all__ = ["validate_backend_options", "options_model_for", "looks_like_secret_field",
           "effective_prices", "with_state_dir"]

log = logging.getLogger("clinaudit.spec")

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: Option (or header) names that would carry a credential.
_SECRET_FIELD = re.compile(r"(^|[_-])(api[_-]?key|key|token|secret|password|passwd|bearer|credentials?)$|"
                           r"^authorization$|^auth$", re.I)
_SECRET_HEADERS = {"authorization", "api-key", "x-api-key", "proxy-authorization", "cookie", "openai-api-key"}


def looks_like_secret_field(name: str) -> bool:
    """True for option names such as ``api_key``, ``openai_api_key``, ``token``, ``password``, ``key``."""
    return name != "api_key_env" and bool(_SECRET_FIELD.search(name))


class _Common(BaseModel):
    model_config = ConfigDict(extra="forbid")
    price_per_1k_input: float | None = Field(default=None, ge=0, description="cost estimate only")
    price_per_1k_output: float | None = Field(default=None, ge=0, description="cost estimate only")


class _OpenAIAccess(_Common):
    """What every OpenAI-protocol backend takes: the key's variable name and extra headers (never a key)."""

    api_key_env: str = "OPENAI_API_KEY"
    headers: dict[str, str] = Field(default_factory=dict)
    http_timeout_s: float = Field(default=600.0, gt=0)

    @field_validator("api_key_env")
    @classmethod
    def _env_name(cls, v: str) -> str:
        if not _ENV_NAME.match(v):
            raise ValueError("must be the NAME of an environment variable holding the key (e.g. OPENAI_API_KEY), "
                             "not the key itself")
        return v

    @field_validator("headers")
    @classmethod
    def _no_secret_headers(cls, v: dict[str, str]) -> dict[str, str]:
        bad = [k for k in v if k.lower() in _SECRET_HEADERS or looks_like_secret_field(k)]
        if bad:
            raise ValueError(f"header {bad[0]!r} would carry a credential; a spec must not hold secrets: the key "
                             "is read from the environment variable named by `api_key_env`")
        return v


class OpenAIOptions(_OpenAIAccess):
    base_url: str | list[str] | None = None  # several (a list, or "URL1,URL2"): an endpoint pool
    endpoint_concurrency: int | None = Field(default=None, ge=1, description="pool: calls in flight per endpoint")
    endpoint_max_failures: int = Field(default=3, ge=1, description="pool: failures in a row that take one out")
    endpoint_cooldown_s: float = Field(default=30.0, ge=0, description="pool: seconds out before a probe call")
    azure_api_version: str | None = None
    completion: bool = False
    max_connections: int = Field(default=64, ge=1)
    structured_output: Literal["auto", "json_schema", "vllm", "none"] = Field(
        default="auto", description="how answer grammars are sent (docs/backends.md, Structured output)")

    @field_validator("base_url")
    @classmethod
    def _url(cls, v: str | list[str] | None) -> str | list[str] | None:
        if v is None:
            return v
        urls = [u.strip() for u in (v.split(",") if isinstance(v, str) else v)]
        if not any(urls):
            raise ValueError("lists no endpoint")
        for u in urls:
            if u and not u.startswith(("http://", "https://")):
                raise ValueError(f"must start with http:// or https://, got {u!r}")
        dupes = sorted({u.rstrip("/") for u in urls if u and [x.rstrip("/") for x in urls].count(u.rstrip("/")) > 1})
        if dupes:
            raise ValueError(f"lists the endpoint {dupes[0]} more than once")
        return v


class OpenAIBatchOptions(_OpenAIAccess):
    """``openai-batch:<model>`` (clinaudit.models.openai_batch); limits default to OpenAI's documented ones."""

    base_url: str | None = None
    state_dir: str | None = None  # default: RUN_DIR/batches in runs, else next to the user cache
    max_requests_per_batch: int = Field(default=50_000, ge=1)
    max_bytes_per_batch: int = Field(default=200_000_000, ge=1)
    completion_window: str = "24h"
    poll_interval_s: float = Field(default=10.0, gt=0)
    poll_max_interval_s: float = Field(default=300.0, gt=0)
    max_wait_s: float | None = Field(default=None, ge=0)
    batch_discount: float = Field(default=0.5, ge=0, lt=1, description="price factor of the estimate: 1 - discount")
    structured_output: Literal["json_schema", "vllm", "none"] = Field(
        default="json_schema", description="how answer grammars go into the batch lines (no auto: nothing to detect)")

    @field_validator("base_url")
    @classmethod
    def _url(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith(("http://", "https://")):
            raise ValueError(f"must start with http:// or https://, got {v!r} (one URL: a batch lives on one server)")
        return v


class HFOptions(_Common):
    batch_size: int | None = Field(default=None, ge=1)
    device: str = "cpu"
    dtype: str = "float32"
    max_length: int | None = Field(default=None, ge=1)
    trust_remote_code: bool = False
    engine: Literal["continuous", "static"] = "continuous"
    min_shared_prefix: int = Field(default=16, ge=1)
    max_batch: int | None = Field(default=None, ge=1)
    sync_every: int | None = Field(default=None, ge=1, description="greedy decode steps between host reads "
                                   "of the tokens (default 1 on a CPU, 8 on CUDA)")


class EmbeddedOptions(HFOptions):
    cache_dir: str | None = None


class EmbedderOptions(_Common):
    batch_size: int = Field(default=64, ge=1)
    device: str = "cpu"
    normalize: bool = True


class VLLMOptions(_Common):
    """``vllm:<path-or-name>`` (clinaudit.models.vllm_backend): engine options passed to ``vllm.LLM``."""

    batch_size: int | None = Field(default=None, ge=1, description="requests per generate() call (default 256)")
    tensor_parallel_size: int = Field(default=1, ge=1)
    gpu_memory_utilization: float = Field(default=0.9, gt=0, le=1)
    max_model_len: int | None = Field(default=None, ge=1)
    dtype: str = "auto"
    trust_remote_code: bool = False


class MockOptions(_Common):
    rules: list[dict[str, Any]] | None = None
    rules_file: str | None = None
    default: str = "MOCK RESPONSE"
    answer: str | None = Field(default=None, description="the answer to every generation call no rule matches "
                               "(the same as `default`; no regular expressions needed)")
    embed_dim: int = Field(default=64, ge=1)
    batch_size: int | None = Field(default=None, ge=1)


#: Backend prefix -> its options model.
def options_model_for(prefix: str) -> type[BaseModel] | None:
    """The options model a backend declares on its ``@register_backend(..., options_model=)`` (None: none)."""
    try:
        return getattr(backend_entry(prefix), "options_model", None)
    except KeyError:
        return None


_PRICE_FIELDS = ("price_per_1k_input", "price_per_1k_output")


def effective_prices(model: str, options: Mapping[str, Any]) -> tuple[dict[str, float], float | None]:
    """The prices an estimate uses for ``model``, and the batch discount applied (``None``: not a batch backend).

    A backend whose options declare ``batch_discount`` (``openai-batch``: 0.5 unless given) is priced
    at ``(1 - batch_discount)`` times its ``price_per_1k_input`` / ``price_per_1k_output``.
    """
    prefix = parse_spec(model)[0] if str(model).strip() else ""
    cls = options_model_for(prefix)
    discount = options.get("batch_discount")
    if discount is None and cls is not None and "batch_discount" in cls.model_fields:
        discount = cls.model_fields["batch_discount"].default
    factor = 1.0 - float(discount or 0.0)
    prices = {k: float(options[k]) * factor for k in _PRICE_FIELDS if options.get(k) is not None}
    return prices, (float(discount) if discount is not None else None)


def with_state_dir(backends: Mapping[str, Mapping[str, Any]], models: Iterable[str], state_dir: Any,
                   params: Any = None) -> dict[str, dict[str, Any]]:
    """``backends`` with ``state_dir`` set (where not given) for every used model whose backend keeps
    state between runs (``openai-batch``: its batch ids), so a run keeps it in its run directory."""
    out = {m: dict(o) for m, o in backends.items()}
    for model in dict.fromkeys([*models, *_strings(params)]):
        if not isinstance(model, str) or not model.strip():
            continue
        cls = options_model_for(parse_spec(model)[0])
        if cls is not None and "state_dir" in cls.model_fields and not out.get(model, {}).get("state_dir"):
            out.setdefault(model, {})["state_dir"] = str(state_dir)
    return out


def _known_prefixes() -> list[str]:
    return sorted(backend_prefixes())


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def validate_backend_options(
    backends: Mapping[str, Mapping[str, Any]], source: str, *, used_models: Iterable[str] = (), params: Any = None
) -> dict[str, dict[str, Any]]:
    """Check every ``backends:`` entry; return the options as given (types coerced).

    Errors (:class:`SpecError`) name the spec file and the field path
    (``backends.openai:gpt-4o.base_ur1``). An entry must name a known backend. An entry for a
    model the spec does not use (in ``models:`` or as a string in ``params``) is an error when
    its name is close to a used model that has no entry (a typo would leave that model without
    its options, e.g. its ``base_url``), else a logged warning.
    """
    used = set(used_models) | set(_strings(params))
    out: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    for model, opts in backends.items():
        where = f"backends.{model}"
        prefix, _ = parse_spec(model) if str(model).strip() else ("", "")
        known = _known_prefixes()
        if prefix not in known:
            problems.append(f"field '{where}': unknown model backend '{prefix}'"
                            f"{_did_you_mean(prefix, known)} (known: {', '.join(known)})")
            continue
        cls = options_model_for(prefix)  # None: a plugin backend that declares no options model
        if model not in used:
            models = sorted(m for m in used if m.strip() and parse_spec(m)[0] in known)
            bare = [m for m in models if m not in backends]  # used models left without options
            hint = _did_you_mean(model, bare)
            if hint:  # most likely a typo of a model that would otherwise run without its options
                problems.append(f"field '{where}': options for a model the spec does not use{hint} "
                                f"(models: {', '.join(models) or 'none'})")
            else:
                log.warning("%s: field '%s' names no model the spec uses; its options are not used", source, where)
            continue
        allowed = sorted(cls.model_fields) if cls is not None else []
        bad_fields = False
        for name in opts:
            if looks_like_secret_field(str(name)):
                problems.append(f"field '{where}.{name}': never put a key in a spec (it is copied into manifest.json); "
                                f"export it as an environment variable and name that variable with "
                                f"`api_key_env: MY_KEY_VAR`")
                bad_fields = True
            elif cls is not None and name not in cls.model_fields:
                problems.append(f"field '{where}.{name}': unknown option for the '{prefix}' backend"
                                f"{_did_you_mean(str(name), allowed)} (allowed: {', '.join(allowed)})")
                bad_fields = True
        if bad_fields:
            continue
        if cls is None:
            out[model] = dict(opts)
            continue
        try:
            checked = cls.model_validate(dict(opts))
        except ValidationError as exc:
            for err in exc.errors():
                loc = ".".join(str(p) for p in err["loc"])
                msg = str(err["msg"]).removeprefix("Value error, ")
                problems.append(f"field '{where}.{loc}': {msg}")
            continue
        out[model] = checked.model_dump(exclude_unset=True)
    if problems:
        if len(problems) == 1:  # one line, like every other spec error (clinaudit.spec)
            raise SpecError(f"invalid audit spec {source}: {problems[0]}")
        raise SpecError(f"invalid audit spec {source}: {len(problems)} errors:\n" + "\n".join(f"  {p}" for p in problems))
    return out
