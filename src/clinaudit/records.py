"""Core records that flow through every audit.

``cases -> variants -> requests/responses -> judgments -> paired metrics``.

Every record is a pydantic model with a flat ``to_row()`` so a list of records
loads straight into pandas (:func:`to_frame`). Nested fields (dicts, lists) are
stored as JSON strings in tables so CSV round-trips are lossless.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:  # pandas is imported where a frame is made, not with the records (a worker process needs none)
    import pandas as pd

__all__ = [
    "Case",
    "Variant",
    "Message",
    "ModelRequest",
    "ModelResponse",
    "RequestKind",
    "Judgment",
    "to_frame",
    "variant_label",
    "canonical_json",
    "stable_hash",
    "TextSplicer",
    "set_fields",
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


#: what a request asks for (the scoring kinds loglik / embed / masked are cached as requests too)
RequestKind = Literal["chat", "completion", "loglik", "embed", "masked"]


class ModelRequest(_Record):
    """A fully specified model call. Its hash (``key``) addresses the cache.

    ``meta`` is bookkeeping (case id, stage, ...) and is *not* part of the hash,
    so identical prompts from different stages share one cached response.
    """

    model: str  # backend spec, e.g. "openai:gpt-4o-mini", "embedded", "mock"
    kind: RequestKind = "chat"
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
        """sha256 of the canonical JSON of ``["clinaudit-request-v1", backend_identity, <every field but meta>]``.

        That JSON is made through a template per request shape (:class:`TextSplicer`: the same bytes, ~4x
        faster); :meth:`reference_key` is the definition, used for requests no template covers."""
        text = _KEY_JSON(self, backend_identity)
        if text is None:
            return self.reference_key(backend_identity)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def reference_key(self, backend_identity: str = "") -> str:
        """The cache key by its definition (what :meth:`key` computes faster)."""
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


# ---- JSON of requests through templates ---------------------------------------------------------------------


#: the ModelRequest fields :func:`_shape` accounts for. A field added to ModelRequest and not to _shape would
#: let two requests that differ in it share a template (and a cache key): until both are updated, templates
#: are off (every key is made by its definition) and tests/test_call_path.py fails.
SHAPED_FIELDS = frozenset({"model", "kind", "messages", "prompt", "temperature", "max_tokens", "seed", "n", "top_p",
                           "stop", "extra", "meta"})
TEMPLATES_COVER_REQUESTS = frozenset(ModelRequest.model_fields) == SHAPED_FIELDS


def _shape(req: "ModelRequest") -> tuple[tuple[Any, ...], list[str]] | None:
    """``(shape, texts)``: the texts are the message contents and then the prompt; the shape is every other
    field. None for a request with ``extra`` or ``stop`` set or with objects other than ``Message``/``str``
    in those places, for a subclass of ModelRequest (it may have fields of its own), and while
    :data:`SHAPED_FIELDS` is not ModelRequest's field set."""
    if req.__class__ is not ModelRequest or not TEMPLATES_COVER_REQUESTS:
        return None
    d = req.__dict__
    if d["extra"] or d["stop"] is not None:
        return None
    texts = []
    roles = []
    for m in d["messages"]:
        if m.__class__ is not Message:
            return None
        md = m.__dict__
        c = md["content"]
        if c.__class__ is not str:
            return None
        texts.append(c)
        roles.append(md["role"])
    prompt = d["prompt"]
    if prompt is not None:
        if prompt.__class__ is not str:
            return None
        texts.append(prompt)
    t, mt, seed, n, tp = d["temperature"], d["max_tokens"], d["seed"], d["n"], d["top_p"]
    # Each scalar stands in the shape with its class (0, 0.0 and False are equal values but not equal JSON),
    # and a float that is 0 (0.0 and -0.0) or NaN by its repr: equal in the shape only if written the same.
    return (d["model"], d["kind"], tuple(roles), prompt is None,
            t.__class__, t if t.__class__ is not float or (t != 0.0 and t == t) else repr(t), mt.__class__, mt,
            seed.__class__, seed, n.__class__, n,
            tp.__class__, tp if tp.__class__ is not float or (tp != 0.0 and tp == tp) else repr(tp)), texts


class TextSplicer:
    """A JSON text made from a request (``render(request, context)``), made fast through templates.

    For requests of one shape (every field but the texts: message contents and prompt, see :func:`_shape`)
    and one ``context`` the rendered JSON differs only where the texts stand, and a JSON string is encoded
    the same wherever it stands. So the request is rendered once per shape with sentinel texts, split at the
    (encoded) sentinels, and every later request of that shape is ``head + encode(text 1) + tail 1 + ...``:
    byte for byte what ``render`` returns, at a fraction of the cost. ``encode`` must be the string encoder
    ``render``'s JSON uses (``json.encoder.encode_basestring`` for ``ensure_ascii=False``, ``..._ascii``
    otherwise). Returns None for requests it does not cover (then render them yourself)."""

    _SLOT = "\x00clinaudit-text-slot-%d\x00"
    MAX_TEMPLATES = 4096

    def __init__(self, render: Callable[["ModelRequest", Any], str], encode: Callable[[str], str]):
        self.render, self.encode = render, encode
        self.templates: dict[Any, tuple[str, tuple[str, ...]] | None] = {}

    def __call__(self, req: "ModelRequest", context: Any = None) -> str | None:
        found = _shape(req)
        if found is None:
            return None
        shape, texts = found
        try:
            template = self.templates[(context, shape)]
        except KeyError:
            template = self._make(req, len(texts), context)
            if len(self.templates) >= self.MAX_TEMPLATES:
                self.templates.clear()
            self.templates[(context, shape)] = template
        if template is None:
            return None
        head, tails = template
        encode = self.encode
        if len(texts) == 1:
            return head + encode(texts[0]) + tails[0]
        parts = [head]
        for text, tail in zip(texts, tails):
            parts.append(encode(text))
            parts.append(tail)
        return "".join(parts)

    def _make(self, req: "ModelRequest", n_texts: int, context: Any) -> tuple[str, tuple[str, ...]] | None:
        slots = [self._SLOT % i for i in range(n_texts)]
        update: dict[str, Any] = {"messages": [Message(role=m.role, content=slots[i])
                                               for i, m in enumerate(req.messages)]}
        if req.prompt is not None:
            update["prompt"] = slots[-1]
        text = self.render(req.model_copy(update=update), context)
        pieces: list[str] = []
        rest = text
        for slot in slots:
            enc = self.encode(slot)
            if text.count(enc) != 1 or enc not in rest:
                return None  # a text used twice, not at all or out of order: not a template
            before, rest = rest.split(enc)
            pieces.append(before)
        pieces.append(rest)
        return pieces[0], tuple(pieces[1:])


_KEY_JSON = TextSplicer(
    lambda req, ident: canonical_json(["clinaudit-request-v1", ident, req.model_dump(mode="json", exclude={"meta"})]),
    json.encoder.encode_basestring)  # what json.dumps(ensure_ascii=False) uses


def set_fields(record: BaseModel, **values: Any) -> None:
    """``record.<name> = value`` for each field at once, done as pydantic does it for a model without
    assignment validation (the value into ``__dict__``, the name into the set fields): the runner completes
    every response this way (a quarter of the cost of the attribute assignments)."""
    record.__dict__.update(values)
    record.__pydantic_fields_set__.update(values)


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


def variant_label(family: Any, name: Any) -> str:
    """What a variant changed, as the findings and the viewer name it: a perturbation's name (``uppercase``), a
    counterfactual's value (``race=Asian`` -> ``Asian``), ``baseline`` for the unchanged text."""
    if str(family or "") == "baseline":
        return "baseline"
    return str(name or "").split("=", 1)[-1]


def to_frame(records: Iterable[_Record] | Sequence[_Record], columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Records -> tidy DataFrame (nested fields as JSON strings)."""
    import pandas as pd

    rows = [r.to_row() for r in records]
    if not rows:
        return pd.DataFrame(columns=list(columns) if columns else None)
    return pd.DataFrame(rows)
