"""The framework's record of every model call: the ``responses`` table and the dry-run count.

Every audit reaches its models through ``ctx.runner``, which is a :class:`CallLog`
around the shared :class:`~clinaudit.runner.Runner`. The log

- records every call (generation, every judge retry, log-likelihood, embedding and
  masked scoring) as one row of :data:`~clinaudit.pipeline.stages.RESPONSE_COLUMNS`,
  appended to ``RUN/tables/responses.csv`` as each batch completes (a killed run keeps
  the rows of its finished calls; the cache keeps their answers);
- in **dry** mode answers only from the cache and counts, per model, the calls a run
  would make (first attempts; retries come on top) and how many are cached — the
  estimate of ``clinaudit run --dry-run`` for any audit declared as stages. A call it
  cannot answer gets a unique placeholder text (``finish_reason`` :data:`NOT_CACHED`), so
  the later stages still build — and count — the calls they would make on it;
- exposes :meth:`cached` and :meth:`score_key`, so audits never read the cache or its
  key format themselves.

What a request belongs to is read from its ``meta`` (``stage``, ``case_id``,
``variant_id`` — or ``variant`` — and ``item_id``); the retry number from
``extra["attempt"]``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..models.base import MaskedItem
from ..records import ModelRequest, ModelResponse, RequestKind
from ..export import store_csv
from ..grammar import grammar_of
from ..rundir import read_store_table
from .stages import RESPONSE_COLUMNS

__all__ = ["CallLog", "NOT_CACHED", "PLACEHOLDER_PREFIX", "DryCount", "response_row", "is_placeholder"]

#: ``finish_reason`` of a placeholder response the dry run gives for a call it could not answer from
#: the cache (its text is a unique placeholder, so later stages build and count their calls on it)
NOT_CACHED = "not_cached"


#: how the text of every dry-run placeholder begins
PLACEHOLDER_PREFIX = "[dry run: not cached"


def is_placeholder(resp: ModelResponse | str | None) -> bool:
    """True for the placeholder a dry run gives to a call it could not answer from the cache (a response,
    or its text where only the text travels on, e.g. a turn of a simulated conversation)."""
    if isinstance(resp, ModelResponse):
        return resp.finish_reason == NOT_CACHED
    return isinstance(resp, str) and resp.startswith(PLACEHOLDER_PREFIX)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def response_row(req: ModelRequest, resp: ModelResponse | None, *, stage: str = "", key: str | None = None
                 ) -> dict[str, Any]:
    """One ``responses`` row for a request and its response (``None``: not answered)."""
    meta = req.meta
    return {
        "request_key": key if key is not None else (resp.request_key if resp is not None else ""),
        "stage": meta.get("stage") or stage,
        "model": req.model,
        "case_id": meta.get("case_id", ""),
        "variant_id": meta.get("variant_id", meta.get("variant", "")),
        "item_id": meta.get("item_id", ""),
        "attempt": int(req.extra.get("attempt", 0) or 0),
        "kind": req.kind,
        "messages": json.dumps([m.model_dump() for m in req.messages], ensure_ascii=False),
        "prompt": req.prompt_text(),
        "temperature": req.temperature,
        "max_tokens": req.max_tokens,
        "seed": req.seed,
        "top_p": req.top_p,
        "extra": _json(req.extra),
        "text": None if resp is None else resp.text,
        "error": None if resp is None else resp.error,
        "cached": None if resp is None else resp.cached,
        "attempts": None if resp is None else resp.attempts,
        "prompt_tokens": None if resp is None else resp.prompt_tokens,
        "completion_tokens": None if resp is None else resp.completion_tokens,
        "finish_reason": None if resp is None else resp.finish_reason,
        "latency_s": None if resp is None else resp.latency_s,
        "meta": _json(meta),
    }


@dataclass
class DryCount:
    """What a dry run saw: distinct first-attempt call keys per model, those cached, prompt words."""

    keys: dict[str, set[str]] = field(default_factory=dict)
    hits: dict[str, set[str]] = field(default_factory=dict)
    prompt_words: dict[str, int] = field(default_factory=dict)
    placeholders: int = 0
    #: the first uncached generation request per model: what the dry run's time probe sends
    samples: dict[str, ModelRequest] = field(default_factory=dict)
    #: up to 8 further uncached generation requests per model: a local backend's batched time probe
    more_samples: dict[str, list[ModelRequest]] = field(default_factory=dict)
    #: model -> request shape (:func:`request_shape`: stage, max_tokens, sampling, grammar) -> [new calls of that
    #: shape, up to 8 of its uncached requests]: a local backend's batched probes time each shape on its own
    shapes: dict[str, dict[str, list[Any]]] = field(default_factory=dict)

    def add(self, model: str, key: str, *, hit: bool, retry: bool, words: int,
            request: ModelRequest | None = None) -> None:
        if retry:  # retries of unparseable outputs: not predictable before a run, not counted (even if cached)
            return
        bucket = self.keys.setdefault(model, set())
        new = key not in bucket
        if new:
            bucket.add(key)
            self.prompt_words[model] = self.prompt_words.get(model, 0) + words
        if hit:
            self.hits.setdefault(model, set()).add(key)
        elif request is not None:
            if new:
                shape = self.shapes.setdefault(model, {}).setdefault(request_shape(request), [0, []])
                shape[0] += 1
                if len(shape[1]) < 8:
                    shape[1].append(request)
            if model not in self.samples:
                self.samples[model] = request
            elif new and len(more := self.more_samples.setdefault(model, [])) < 8:
                more.append(request)


def request_shape(request: ModelRequest) -> str:
    """What makes a local model's calls cost alike: the stage that sends them, their ``max_tokens``, sampled or
    greedy, with an answer grammar or not (a judge's constrained labels cost a fraction of a free answer)."""
    stage = str(request.meta.get("stage") or request.meta.get("judge") or "calls")
    how = "sampled" if request.temperature > 0 else "greedy"
    return f"{stage}, {how}, max_tokens {request.max_tokens}" + (", grammar" if grammar_of(request) else "")


class CallLog:
    """A runner proxy owned by the framework (see the module docstring).

    ``path``: the CSV the rows are appended to as calls complete (``None``: keep them in memory); a
    new invocation starts the file afresh with its first call (cached calls are recorded too).
    ``dry``: answer only from the cache; count instead of calling.
    """

    def __init__(self, runner: Any, path: str | Path | None = None, *, dry: bool = False):
        self.inner = runner
        self.path = Path(path) if path is not None else None
        self.dry = dry
        self.rows: list[dict[str, Any]] = []
        self.count = DryCount()
        self._lock = threading.Lock()
        self._header_written = False

    # ---- everything else is the runner's
    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property
    def runner(self) -> Any:
        """The wrapped runner (for code that must hand it to another executor)."""
        return self.inner

    # ---- recording
    def _record(self, rows: list[dict[str, Any]]) -> None:
        if not rows or self.dry:
            return
        with self._lock:
            if self.path is None:  # kept in memory only when there is no run store to stream to
                self.rows.extend(rows)
                return
            # safe to open, read back exactly (read_store_table)
            store_csv(pd.DataFrame(rows, columns=RESPONSE_COLUMNS), self.path,
                      mode="a" if self._header_written else "w", header=not self._header_written)
            self._header_written = True

    def frame(self) -> pd.DataFrame:
        """Every call recorded by this invocation, once per (request, stage, case, variant, item).

        Read back from the streamed file (no per-call objects are held during the run)."""
        if self.path is not None and self._header_written:
            df = read_store_table(self.path, dtype={"case_id": str, "variant_id": str, "item_id": str,
                                                    "request_key": str})
        elif self.path is not None:
            df = pd.DataFrame(columns=RESPONSE_COLUMNS)
        else:
            df = pd.DataFrame(self.rows, columns=RESPONSE_COLUMNS)
        if len(df):
            df = df.drop_duplicates(subset=["request_key", "stage", "case_id", "variant_id", "item_id"], keep="last")
        return df.reset_index(drop=True)

    # ---- cache access without the cache's key format
    def request_key(self, request: ModelRequest) -> str:
        return str(self.inner.request_key(request))

    def cached(self, requests: Sequence[ModelRequest]) -> dict[str, ModelResponse]:
        """Cached responses of ``requests`` (no call made), by request key."""
        return self._cached_keys([self.inner.request_key(r) for r in requests])

    def _cached_keys(self, keys: Sequence[str]) -> dict[str, ModelResponse]:
        cache = getattr(self.inner, "cache", None)
        return cache.get_many(list(keys)) if cache is not None else {}

    def score_key(self, model: str, kind: str, item: Any) -> str:
        """The cache key of one scoring item (``kind``: loglik, embed, masked)."""
        return str(self.inner.score_key(model, kind, item))

    # ---- calls
    def generate(self, requests: Sequence[ModelRequest], desc: str = "model calls") -> list[ModelResponse]:
        requests = list(requests)
        if self.dry:
            return self._dry_generate(requests)
        resps: list[ModelResponse] = self.inner.generate(requests, desc=desc)
        self._record([response_row(q, r, stage=desc) for q, r in zip(requests, resps)])
        return resps

    def _dry_generate(self, requests: list[ModelRequest]) -> list[ModelResponse]:
        keys = [self.inner.request_key(r) for r in requests]
        found = self._cached_keys(keys)
        out = []
        for req, key in zip(requests, keys):
            hit = key in found
            self.count.add(req.model, key, hit=hit, retry=bool(req.extra.get("attempt")),
                           words=len(req.prompt_text().split()), request=req)
            if hit:
                out.append(found[key].model_copy(update={"request_key": key, "meta": dict(req.meta)}))
            else:
                if not req.extra.get("attempt"):
                    self.count.placeholders += 1
                out.append(ModelResponse(request_key=key, model=req.model, text=f"{PLACEHOLDER_PREFIX} {key[:12]}]",
                                         finish_reason=NOT_CACHED))
        return out

    def _scores(self, kind: RequestKind, model: str, items: Sequence[Any], desc: str, shape: tuple[int, ...]) -> np.ndarray:
        method = {"loglik": "loglik", "embed": "embed", "masked": "masked_logprobs"}[kind]
        if self.dry:
            keys = [self.score_key(model, kind, it) for it in items]
            found = self._cached_keys(keys)
            for it, key in zip(items, keys):
                text = it.text if isinstance(it, MaskedItem) else str(it)
                self.count.add(model, key, hit=key in found, retry=False, words=len(text.split()))
            if items and len(found) == len(set(keys)):  # all cached: the runner answers from the cache
                return np.asarray(getattr(self.inner, method)(model, items, desc=desc))
            return np.full((len(items), *shape), np.nan)
        values: np.ndarray = getattr(self.inner, method)(model, items, desc=desc)
        rows = []
        for it, val in zip(items, values):
            text = it.text if isinstance(it, MaskedItem) else str(it)
            req = ModelRequest(model=model, kind=kind, prompt=text, meta={"stage": desc})
            resp = ModelResponse(request_key=self.score_key(model, kind, it), model=model,
                                 text=json.dumps(np.asarray(val, dtype=float).tolist()))
            rows.append(response_row(req, resp, stage=desc))
        self._record(rows)
        return values

    def loglik(self, spec: str, texts: Sequence[str], desc: str = "log-likelihoods") -> np.ndarray:
        return self._scores("loglik", spec, list(texts), desc, ())

    def embed(self, spec: str, texts: Sequence[str], desc: str = "embeddings") -> np.ndarray:
        return self._scores("embed", spec, list(texts), desc, (1,))

    def masked_logprobs(self, spec: str, items: Sequence[MaskedItem], desc: str = "masked log-probs") -> np.ndarray:
        return self._scores("masked", spec, list(items), desc, ())
