"""Before a run: is every OpenAI-compatible endpoint of the spec usable? (``clinaudit run --dry-run``)

One ``GET <base_url>/models`` per endpoint (httpx, a few seconds at most), with the key the run would send:

* **reachable** — a refused connection, a DNS failure or no answer within ``connect_s`` is an error
  naming the endpoint and the spec field (``backends.<model>.base_url``); so is a server that accepts the
  connection but does not answer within ``read_s`` (``clinaudit run --dry-run``: 5 s, or the spec's own
  ``runner.timeout_s`` when it sets one; one try, no retries), so a stuck endpoint is found in seconds, not
  after ``runner.timeout_s`` × retries; the message names ``runner.timeout_s`` for a slow server;
* **key** — a ``401``/``403`` is an error naming the variable: not set, or set and refused. A variable the
  spec names itself (``api_key_env``) that is not set is an error even when the server takes calls
  without a key (the spec says one is needed);
* **model listed** — when the endpoint lists its models (``data[].id``), a model it does not list is an
  error naming the models it has (a listed ``name:tag`` or ``org/name`` counts as ``name``). An endpoint
  that does not list models (404, another answer) is a note, not an error: its first real call (the time
  probe) decides;
* Azure deployments (``azure_api_version``) are checked for reachability and key only.

The key is sent, never printed: every message is redacted like the backend's own errors.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

__all__ = ["EndpointReport", "check_endpoints", "endpoints_of"]


@dataclass
class EndpointReport:
    """Errors (the run cannot work) and notes (worth knowing) of the endpoint checks."""

    errors: list[tuple[str, str]] = field(default_factory=list)  # (spec field, message)
    notes: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)  # "<model> at <url>" that answered


def endpoints_of(backend: Any) -> list[Any]:
    """The OpenAI-compatible backends behind ``backend``: itself, a pool's endpoints, a batch backend's online
    twin; ``[]`` for a local or mock backend."""
    if hasattr(backend, "endpoints"):
        return [e.backend for e in backend.endpoints]
    if hasattr(backend, "online"):
        return [backend.online]
    if hasattr(backend, "base_url") and hasattr(backend, "api_key_env"):
        return [backend]
    return []


def _matches(model: str, listed: list[str]) -> bool:
    def bare(name: str) -> str:
        return name.rsplit("/", 1)[-1].split(":", 1)[0].lower()

    return model in listed or any(bare(x) == bare(model) for x in listed)


def check_endpoints(runner: Any, specs: list[str], options: dict[str, dict[str, Any]] | None = None, *,
                    connect_s: float = 3.0, read_s: float = 8.0) -> EndpointReport:
    """Check the endpoint of every model in ``specs`` (see the module doc); ``options`` are the spec's
    ``backends:`` entries (to tell a variable the spec names from the default one)."""
    import httpx

    report = EndpointReport()
    seen: set[tuple[str, str]] = set()
    for spec in specs:
        try:
            backend = runner.backend(spec)
        except Exception:  # noqa: BLE001 - a backend that cannot be made is reported by the run itself
            continue
        declared_key = "api_key_env" in ((options or {}).get(spec) or {})
        for b in endpoints_of(backend):
            key_of = (b.base_url, b.model)
            if key_of in seen:
                continue
            seen.add(key_of)
            where = f"backends.{spec}"
            var = b.api_key_env
            key = os.environ.get(var) or None
            if declared_key and not key:
                report.errors.append((f"{where}.api_key_env", f"{spec}: the environment variable {var} is not set "
                                      f"(the spec names it as the key of {b.base_url}); set it, or remove "
                                      "api_key_env for a server that needs no key"))
                continue
            headers = {**b.extra_headers}
            if key:
                headers.update({"api-key": key} if b.azure_api_version else {"Authorization": f"Bearer {key}"})
            params = {"api-version": b.azure_api_version} if b.azure_api_version else None
            url = f"{b.base_url}/models"
            try:
                resp = httpx.get(url, headers=headers, params=params,
                                 timeout=httpx.Timeout(read_s, connect=connect_s), follow_redirects=True)
            except httpx.ConnectTimeout:
                report.errors.append((f"{where}.base_url", f"{spec}: {b.base_url} did not accept a connection "
                                      f"within {connect_s:g} s; is the server running, and is base_url right?"))
                continue
            except httpx.TimeoutException:  # connected, then no answer: a stuck (or very slow) server
                report.errors.append((f"{where}.base_url", f"{spec}: {b.base_url} accepted the connection but did "
                                      f"not answer GET {url} within {read_s:g} s (the dry-run check tries once, "
                                      "without retries); is the server running and serving? For a slow server set "
                                      "runner.timeout_s in the spec: the check then waits that long"))
                continue
            except httpx.HTTPError as exc:
                report.errors.append((f"{where}.base_url", b.redact(
                    f"{spec}: cannot reach {b.base_url} ({type(exc).__name__}: {exc}); is the server running, and "
                    "is base_url right?")))
                continue
            if resp.status_code in (401, 403):
                why = (f"the environment variable {var} is not set" if not key else
                       f"the key in the environment variable {var} was refused")
                report.errors.append((f"{where}.api_key_env", f"{spec}: {b.base_url} answered HTTP "
                                      f"{resp.status_code}: {why}"))
                continue
            if b.azure_api_version or resp.status_code != 200:
                if resp.status_code != 200:
                    report.notes.append(f"{spec}: {b.base_url} does not list its models (HTTP {resp.status_code} "
                                        "for GET /models); the model name is checked by the first call")
                report.checked.append(f"{spec} at {b.base_url} (reachable; the model not checked)")
                continue
            try:
                listed = [str(m.get("id")) for m in (resp.json().get("data") or []) if isinstance(m, dict)]
            except (ValueError, AttributeError):
                listed = []
            if listed and not _matches(b.model, listed):
                shown = ", ".join(listed[:8]) + (f" and {len(listed) - 8} more" if len(listed) > 8 else "")
                report.errors.append((f"models ({spec})", b.redact(
                    f"{spec}: {b.base_url} does not serve the model '{b.model}' (it lists: {shown})")))
                continue
            report.checked.append(f"{spec} at {b.base_url} (reachable, model listed, key taken)")
    return report
