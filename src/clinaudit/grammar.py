"""Answer grammars: what a judge's output must look like, declared once next to its parser.

A judge that calls a model declares its answer as an :class:`OutputGrammar` (``Judge.grammar()``):

* ``choice`` — one of a few fixed strings (``YES`` / ``NO``);
* ``regex`` — a regular expression the whole answer must match (``MANAGE \\[(YES|NO)\\]\\n...``),
  written in the subset shared by Python's ``re``, Rust's ``regex`` (llguidance) and vLLM;
* ``json_schema`` — a JSON object validated by a JSON schema (the CoT audit's phases).

The grammar travels with the request in ``ModelRequest.extra["output_grammar"]`` (so it is part of
the request's cache key: a constrained answer is never served for an unconstrained request, nor the
other way round). Backends read it with :func:`grammar_of`: ``hf:``/``embedded`` enforce it token by
token (:mod:`clinaudit.models.constrained`, llguidance), in-process ``vllm:`` through vLLM's guided
decoding, ``openai:`` sends it as ``response_format`` / vLLM's guided fields where the endpoint
supports it (option ``structured_output``), and every other backend ignores it. The judge's parser
still reads the answer and ``run_judge`` still retries what does not parse: a grammar makes a parse
failure unlikely, never a reason to guess.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .records import ModelRequest

__all__ = ["EXTRA_KEY", "OutputGrammar", "literal", "attach", "grammar_of", "strip_grammar", "header_choice"]

#: where a request carries its grammar (hashed with the request; never sent as such to an API)
EXTRA_KEY = "output_grammar"

_META = set("\\.^$|?*+()[]{}")


def literal(text: str) -> str:
    """``text`` as a regex matching exactly it (escapes the metacharacters only, which every dialect accepts)."""
    return "".join("\\" + c if c in _META else c for c in text)


@dataclass(frozen=True)
class OutputGrammar:
    """One answer grammar (see the module docstring). Build with :meth:`choice`, :meth:`regex`, :meth:`json`."""

    kind: Literal["choice", "regex", "json_schema"]
    choices: tuple[str, ...] = ()
    pattern: str = ""
    schema: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)
    name: str = "answer"

    @classmethod
    def choice(cls, options: Sequence[str]) -> "OutputGrammar":
        opts = tuple(str(o) for o in options)
        if not opts or any(not o for o in opts):
            raise ValueError("a choice grammar needs at least one non-empty option")
        return cls(kind="choice", choices=opts)

    @classmethod
    def regex(cls, pattern: str) -> "OutputGrammar":
        re.compile(pattern)  # a bad pattern fails here, where it is declared
        return cls(kind="regex", pattern=pattern)

    @classmethod
    def json(cls, schema: Mapping[str, Any], name: str = "answer") -> "OutputGrammar":
        if not isinstance(schema, Mapping) or schema.get("type") != "object":
            raise ValueError("a JSON grammar needs a JSON schema of an object")
        return cls(kind="json_schema", schema=dict(schema), name=name)

    # ---- forms ------------------------------------------------------------------------------
    def regex_text(self) -> str | None:
        """The grammar as one regex (choices become an alternation); None for a JSON schema."""
        if self.kind == "choice":
            return "(" + "|".join(literal(c) for c in self.choices) + ")"
        if self.kind == "regex":
            return self.pattern
        return None

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form carried in ``ModelRequest.extra`` (and hashed with it)."""
        if self.kind == "choice":
            return {"kind": "choice", "choices": list(self.choices)}
        if self.kind == "regex":
            return {"kind": "regex", "pattern": self.pattern}
        return {"kind": "json_schema", "name": self.name, "schema": json.loads(json.dumps(self.schema, sort_keys=True))}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "OutputGrammar":
        kind = d.get("kind") if isinstance(d, Mapping) else None
        if kind == "choice":
            return cls.choice(list(d.get("choices") or []))
        if kind == "regex":
            return cls.regex(str(d.get("pattern", "")))
        if kind == "json_schema":
            return cls.json(d.get("schema") or {}, str(d.get("name") or "answer"))
        raise ValueError(f"{EXTRA_KEY}: kind must be choice, regex or json_schema, got {kind!r}")

    def fullmatch(self, text: str) -> bool:
        """Whether ``text`` is a complete answer of this grammar (JSON: an object with the required keys)."""
        rx = self.regex_text()
        if rx is not None:
            return re.fullmatch(rx, text) is not None
        try:
            obj = json.loads(text)
        except ValueError:
            return False
        req = (self.schema or {}).get("required", [])
        return isinstance(obj, dict) and all(k in obj for k in req)


def header_choice(header: str, options: Sequence[str] = ("YES", "NO")) -> str:
    """Regex of one ``HEADER [OPTION]`` line, e.g. ``MANAGE \\[(YES|NO)\\]``."""
    return literal(header) + r" \[(" + "|".join(literal(o) for o in options) + r")\]"


def attach(request: ModelRequest, grammar: OutputGrammar | None) -> ModelRequest:
    """``request`` carrying ``grammar`` in its ``extra`` (a new request; unchanged when ``grammar`` is None)."""
    if grammar is None:
        return request
    return request.model_copy(update={"extra": {**request.extra, EXTRA_KEY: grammar.to_dict()}})


def grammar_of(request: ModelRequest) -> OutputGrammar | None:
    """The grammar a request carries, or None."""
    d = request.extra.get(EXTRA_KEY) if request.extra else None
    return None if d is None else OutputGrammar.from_dict(d)


def strip_grammar(extra: Mapping[str, Any]) -> dict[str, Any]:
    """``extra`` without the grammar (what a backend that does not enforce it passes on)."""
    return {k: v for k, v in extra.items() if k != EXTRA_KEY}
