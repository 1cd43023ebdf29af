"""Deterministic scripted backend for tests and dry runs.

Rules are tried in order; the first whose ``match`` regex is found in the
request's prompt text (system + user messages, ``re.search`` with DOTALL)
answers. A rule may restrict itself to one mock model name with ``model``
(``mock:a`` vs ``mock:b``), and to a seed with ``seed``.

Rule forms (YAML/JSON or Python dicts)::

    rules:
      - match: "MANAGE"                 # regex
        response: "MANAGE [NO]\nVISIT [YES]\nRESOURCE [NO]"
      - match: "Patient is male"
        model: b                        # only for mock:b
        responses: ["not json", '{"ok": 1}']   # chosen by retry attempt (extra.attempt)
      - match: "echo"
        response: "seed={seed} model={model}"    # {seed}, {model}, {attempt} are filled in
      - match: "unreachable"
        error: "HTTP 503: overloaded"   # the call fails with this error (to test failure handling)

``responder=callable(request) -> str | None`` (Python only) takes precedence.
Unmatched requests get ``answer`` (or its older name ``default``; default: ``"MOCK RESPONSE"``), so
"answer X to everything" needs no rule at all::

    backends:
      mock:target:
        answer: "Please come to the clinic today."
``loglik`` and ``embed`` are deterministic functions of the text, so identical
texts score and embed identically.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import BackendError, InputError
from ..loaders.formats import read_yaml_file
from ..records import ModelRequest, ModelResponse, stable_hash
from .base import Backend, register_backend
from .options import MockOptions

__all__ = ["MockBackend"]


def _load_rules(rules: Any, rules_file: str | None) -> list[dict[str, Any]]:
    loaded: list[Any] = []
    where = "mock rules"
    if rules_file:
        path = Path(rules_file)
        where = f"mock rules file {path}"
        if not path.is_file():
            raise BackendError(f"mock rules file not found: {path}")
        try:
            if path.suffix in {".yaml", ".yml"}:
                data = read_yaml_file(path)
            else:
                data = json.loads(path.read_text(encoding="utf-8"))
        except InputError as exc:
            raise BackendError(f"{where}: {exc.reason}") from None
        except UnicodeDecodeError as exc:
            raise BackendError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        except ValueError as exc:  # json.JSONDecodeError
            raise BackendError(f"{where}: not valid JSON: {exc}") from None
        data = data.get("rules", data) if isinstance(data, dict) else data
        if not isinstance(data, list):
            raise BackendError(f"{where}: expected a list of rules (or {{rules: [...]}})")
        loaded.extend(data)
    if rules:
        loaded.extend(rules)
    for i, rule in enumerate(loaded):
        if not isinstance(rule, dict) or "match" not in rule or not ({"response", "responses", "error"} & set(rule)):
            raise BackendError(f"{where}: rule {i} needs 'match' and 'response', 'responses' or 'error': {rule!r}")
        try:
            rule["_re"] = re.compile(str(rule["match"]), re.DOTALL)
        except re.error as exc:
            raise BackendError(f"{where}: rule {i} field 'match': invalid regular expression "
                               f"{rule['match']!r}: {exc}") from None
    return loaded


class _MockFailure(Exception):
    """A rule with ``error:`` matched: the call fails with that text."""


@register_backend("mock", capabilities=["generate", "loglik", "embed"], options_model=MockOptions,
                  summary="deterministic scripted backend for tests: rules map prompt patterns to responses")
class MockBackend(Backend):
    name = "mock"
    is_remote = False
    batch_size = 64

    def __init__(
        self,
        spec: str,
        *,
        rules: list[dict[str, Any]] | None = None,
        rules_file: str | None = None,
        default: str = "MOCK RESPONSE",
        answer: str | None = None,
        responder: Callable[[ModelRequest], str | None] | None = None,
        embed_dim: int = 64,
        **options: Any,
    ):
        super().__init__(spec, **options)
        self.model_name = spec.partition(":")[2] or "mock"
        self.rules = _load_rules(rules, rules_file)
        self.default = default if answer is None else answer
        self.responder = responder
        self.embed_dim = embed_dim
        self.calls = 0  # generation calls actually made (cache hits never reach here)
        self.loglik_calls = 0
        self.embed_calls = 0
        rules = [{k: v for k, v in r.items() if k != "_re"} for r in self.rules]
        self._rules_id = stable_hash(rules, self.default)[:16]

    def identity(self) -> str:
        # Different rule sets must not share cache entries.
        return f"{self.spec}#rules={self._rules_id}"

    def describe(self) -> dict[str, Any]:
        return {"spec": self.spec, "backend": self.name, "rules": len(self.rules)}

    def _answer(self, request: ModelRequest) -> str:
        if self.responder is not None:
            out = self.responder(request)
            if out is not None:
                return out
        text = request.prompt_text()
        attempt = int(request.extra.get("attempt", 0))
        for rule in self.rules:
            if "model" in rule and str(rule["model"]) != self.model_name:
                continue
            if "seed" in rule and rule["seed"] != request.seed:
                continue
            if rule["_re"].search(text):
                if "error" in rule:
                    raise _MockFailure(str(rule["error"]))
                if "responses" in rule:
                    options = rule["responses"]
                    template = options[min(attempt, len(options) - 1)]
                else:
                    template = rule["response"]
                return str(template).replace("{seed}", str(request.seed)).replace(
                    "{model}", self.model_name
                ).replace("{attempt}", str(attempt))
        return self.default

    def generate(self, requests: Sequence[ModelRequest]) -> list[ModelResponse]:
        out = []
        for req in requests:
            self.calls += 1
            try:
                texts = [self._answer(req) for _ in range(max(1, req.n))]
            except _MockFailure as exc:
                out.append(ModelResponse(request_key="", model=self.spec, error=str(exc)))
                continue
            out.append(
                ModelResponse(
                    request_key="",
                    model=self.spec,
                    text=texts[0],
                    choices=texts,
                    prompt_tokens=self.count_tokens(req.prompt_text()),
                    completion_tokens=sum(self.count_tokens(t) for t in texts),
                    finish_reason="stop",
                )
            )
        return out

    def loglik(self, texts: Sequence[str]) -> np.ndarray:
        self.loglik_calls += 1
        return np.array(
            [-sum(1.0 + int(stable_hash(w, length=8), 16) % 100 / 25.0 for w in t.split()) for t in texts],
            dtype=float,
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Hashed bag of words, L2-normalised: identical texts give identical vectors."""
        self.embed_calls += 1
        mat = np.zeros((len(texts), self.embed_dim), dtype=float)
        for i, t in enumerate(texts):
            for w in re.findall(r"\w+", t.lower()):
                mat[i, int(stable_hash(w, length=8), 16) % self.embed_dim] += 1.0
        norms = np.linalg.norm(mat, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return mat / norms
