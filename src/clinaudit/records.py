"""Core records that flow through every audit.

``cases -> variants -> requests/responses -> judgments -> paired metrics``.

Every record is a pydantic model with a flat ``to_row()`` so a list of records
loads straight into pandas (:func:`to_frame`). Nested fields (dicts, lists) are
stored as JSON strings in tables so CSV round-trips are lossless.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Case",
    "Variant",
    "Message",
    "ModelRequest",
    "ModelResponse",
    "Judgment",
    "to_frame",
    "canonical_json",
    "stable_hash",
]


def canonical_json(obj: Any) -> str:
    """JSON with sorted keys and no whitespace: the basis of every content hash."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def stable_hash(*parts: Any, length: int = 64) -> str:
    """sha256 over the canonical JSON of ``parts`` (stable across runs and machines)."""
    return hashlib.sha256(canonical_json(list(parts)).encode("utf-8")).hexdigest()[:length]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)

    def to_row(self) -> dict[str, Any]:
        row: dict[str, Any] = {}
        for key, value in self.model_dump(mode="json").items():
            if isinstance(value, (dict, list)):
                row[key] = canonical_json(value)
            else:
                row[key] = value
        return row


class Case(_Record):
    """One unit of audit input: a patient message, vignette, dialog or note."""

    case_id: str
    text: str
    dataset: str = ""
    # Structured extras: gold answer, MCQ choices, EHR context, recorded gender, ...
    fields: dict[str, Any] = Field(default_factory=dict)
    source: str = ""  # file the case came from
    source_row: int | None = None  # 1-based data row in that file


class Variant(_Record):
    """A transformed case. Always keeps ``case_id`` so paired metrics are joins."""

    variant_id: str
    case_id: str
    family: str  # e.g. "perturbation", "counterfactual", "augmentation", "setting", "baseline"
    name: str  # perturbation name or group value, e.g. "typo", "race=Black", "baseline"
    text: str
    seed: int | None = None
    description: str = ""  # what changed, in words
    provenance: dict[str, Any] = Field(default_factory=dict)  # params, mode, model spec, gate results
    flags: list[str] = Field(default_factory=list)  # quality-gate flags (e.g. "length_ratio_out_of_bounds")

    @staticmethod
    def make_id(case_id: str, family: str, name: str, seed: int | None = None) -> str:
        return f"{case_id}::{family}::{name}" + (f"::s{seed}" if seed is not None else "")


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: Literal["system", "user", "assistant"]
    content: str


class ModelRequest(_Record):
    """A fully specified model call. Its hash (``key``) addresses the cache.

    ``meta`` is bookkeeping (case id, stage, ...) and is *not* part of the hash,
    so identical prompts from different stages share one cached response.
    """

    model: str  # backend spec, e.g. "openai:gpt-4o-mini", "embedded", "mock"
    kind: Literal["chat", "completion", "loglik", "embed", "masked"] = "chat"
    messages: list[Message] = Field(default_factory=list)
    prompt: str | None = None
    temperature: float = 0.0
    max_tokens: int = 256
    seed: int | None = None
    n: int = 1
    top_p: float | None = None
    stop: list[str] | None = None
    extra: dict[str, Any] = Field(default_factory=dict)  # backend-specific, hashed
    meta: dict[str, Any] = Field(default_factory=dict)  # not hashed

    def key(self, backend_identity: str = "") -> str:
        payload = self.model_dump(mode="json", exclude={"meta"})
        return stable_hash("clinaudit-request-v1", backend_identity, payload)

    @classmethod
    def chat(cls, model: str, user: str, system: str | None = None, **kw: Any) -> "ModelRequest":
        msgs = [Message(role="system", content=system)] if system else []
        msgs.append(Message(role="user", content=user))
        return cls(model=model, kind="chat", messages=msgs, **kw)

    def prompt_text(self) -> str:
        """A readable single string of the prompt (for logs, mock rules and reports)."""
        if self.prompt is not None:
            return self.prompt
        return "\n".join(f"{m.role}: {m.content}" for m in self.messages)


class ModelResponse(_Record):
    request_key: str
    model: str
    text: str | None = None  # first choice
    choices: list[str] = Field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None
    error: str | None = None  # set when the call failed after all retries (never cached)
    cached: bool = False
    latency_s: float = 0.0
    attempts: int = 1
    meta: dict[str, Any] = Field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None


class Judgment(_Record):
    """A judge's verdict on one item. ``status`` is never silently 'NO'."""

    item_id: str
    judge: str
    status: Literal["ok", "unparseable", "error", "tie"]  # tie: a jury whose top votes are shared (judges.jury)
    value: dict[str, Any] = Field(default_factory=dict)  # parsed fields
    raw: str | None = None  # last raw output
    attempts: int = 1
    request_key: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)


def to_frame(records: Iterable[_Record] | Sequence[_Record], columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Records -> tidy DataFrame (nested fields as JSON strings)."""
    rows = [r.to_row() for r in records]
    if not rows:
        return pd.DataFrame(columns=list(columns) if columns else None)
    return pd.DataFrame(rows)
