"""An answer grammar as the request fields of an OpenAI-compatible endpoint (option ``structured_output``).

===============  ==========================================================================================
mode             what a request with an :class:`~clinaudit.grammar.OutputGrammar` sends
===============  ==========================================================================================
``auto``         (default) as ``json_schema``; an endpoint that answers HTTP 400/422 naming one of these
                 fields gets the request again without them, and no structured fields from then on
``json_schema``  a JSON-schema grammar as ``response_format: {"type": "json_schema", ...}`` (OpenAI, vLLM,
                 llama.cpp server, Ollama); choice and regex grammars send nothing (OpenAI has no regex)
``vllm``         everything: choices and regexes as vLLM's ``structured_outputs`` (vLLM ≥ 0.10.2) and the
                 older ``guided_choice`` / ``guided_regex`` fields, JSON schemas as ``response_format``
``none``         nothing (the judge's prompt and retry-until-parsed only)
===============  ==========================================================================================
"""

from __future__ import annotations

from typing import Any

from ..grammar import OutputGrammar

__all__ = ["STRUCTURED_MODES", "structured_fields", "names_structured_field"]

STRUCTURED_MODES = ("auto", "json_schema", "vllm", "none")

_FIELD_WORDS = ("response_format", "json_schema", "structured_outputs", "guided_")


def structured_fields(grammar: OutputGrammar, mode: str) -> dict[str, Any]:
    """The request fields that carry ``grammar`` in ``mode`` (empty when the mode sends nothing for it)."""
    if mode == "none":
        return {}
    if grammar.kind == "json_schema":
        return {"response_format": {"type": "json_schema", "json_schema": {
            "name": grammar.name, "schema": dict(grammar.schema or {}), "strict": False}}}
    if mode != "vllm":
        return {}
    if grammar.kind == "choice":
        return {"structured_outputs": {"choice": list(grammar.choices)}, "guided_choice": list(grammar.choices)}
    return {"structured_outputs": {"regex": grammar.pattern}, "guided_regex": grammar.pattern}


def names_structured_field(server_text: str) -> bool:
    """Whether an error answer names one of the structured-output fields (the endpoint does not take them)."""
    low = server_text.lower()
    return any(w in low for w in _FIELD_WORDS)
