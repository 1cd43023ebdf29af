"""LLM rewrite perturbations of P2 (Appendix A, Table 6).

``gender_swap``, ``gender_removal``, ``uncertain`` and ``colorful`` send the
Table 6 instruction (:data:`~clinaudit.perturb.prompts.REWRITE_PROMPTS`) followed by
the case text to any backend through the :class:`~clinaudit.runner.Runner`
(batched, concurrent, cached), clean echoes of the instruction from the output
(:func:`clean_rewrite`), and run quality gates (beyond the paper):

* **EHR lines** — tabular ``Key: value`` lines of the original (see
  :func:`~clinaudit.perturb.protect.is_tabular_line`) must come back unchanged
  (whitespace-normalised) → flag ``ehr_lines_changed``; the changed lines are listed
  in ``provenance["gates"]["ehr_lines_changed"]``. The gender rewrites exempt
  ``Gender:``/``Sex:`` lines, which they are meant to change.
* **length ratio** ``len(new) / len(old)`` outside ``[min_length_ratio,
  max_length_ratio]`` (default 0.5–2.0) → ``length_ratio_out_of_bounds``;
* **embedding similarity** — cosine of ``runner.embed(embedder, ...)`` vectors
  (default embedder ``embedded-embedder``; ``embedder=None`` or ``similarity=False``
  skips it) below ``min_similarity`` (default 0.6) → ``low_similarity``.

and the checks of :mod:`.rewrite_checks` on the rewritten text: a refusal → ``refusal``; ``gender_swap``
whose markers do not lean the other way → ``gender_not_swapped``; ``gender_removal`` with markers left →
``gender_markers_left`` (the marker counts in ``provenance["gates"]``).

Flagged variants are kept and marked (``Variant.flags``) here; an audit that pairs them drops the invalid
ones (:data:`~clinaudit.perturb.rewrite_checks.INVALID_REWRITE_FLAGS`); gate values are in
``provenance["gates"]``. A failed call gives flag ``model_error``, an empty output
``empty_output``; both keep the original text so joins still work, and both are
easy to drop (``[v for v in variants if not v.flags]``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from ..records import Case, ModelRequest, ModelResponse, Variant
from .prompts import REWRITE_JOIN, REWRITE_PROMPTS
from .protect import ehr_lines
from .registry import perturb_cases, register_transform
from .rewrite_checks import rewrite_flags

if TYPE_CHECKING:  # pragma: no cover
    from ..runner import Runner

__all__ = [
    "LLM_REWRITES",
    "DEFAULT_EMBEDDER",
    "GateConfig",
    "clean_rewrite",
    "build_rewrite_request",
    "ehr_gate",
    "apply_similarity_gate",
    "rewrite_cases",
]

LLM_REWRITES: tuple[str, ...] = ("gender_swap", "gender_removal", "uncertain", "colorful")
DEFAULT_EMBEDDER = "embedded-embedder"
_EXEMPT = {"gender_swap": ("gender", "sex"), "gender_removal": ("gender", "sex")}


@dataclass
class GateConfig:
    """Bounds of the rewrite quality gates (defaults: ratio 0.5–2.0, similarity ≥ 0.6)."""

    min_length_ratio: float = 0.5
    max_length_ratio: float = 2.0
    min_similarity: float = 0.6
    check_ehr: bool = True
    similarity: bool = True
    exempt_keys: tuple[str, ...] = field(default_factory=tuple)

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> "GateConfig":
        """Pick the gate fields out of keyword parameters (``gates=`` wins if given)."""
        if isinstance(params.get("gates"), GateConfig):
            return params["gates"]
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in params.items() if k in names})


# --------------------------------------------------------------------------- cleaning

_PREAMBLE = re.compile(
    r"^\s*(?:(?:sure|certainly|okay|ok|of course)[!,.]?\s*)?"
    r"(?:here(?:'s| is| are)\b[^\n]{0,120}?|(?:the )?(?:rewritten|revised|modified|updated|perturbed|new|output)"
    r"\b[^\n]{0,60}?)[:：]\s*\n?",
    re.IGNORECASE,
)
_POSTSCRIPT = re.compile(
    r"\n\s*\n\s*(?:\(?note\b|i (?:have|'ve) (?:swapped|removed|added|made|changed|kept|replaced)|"
    r"let me know|changes made|in this (?:version|rewrite)|this (?:version|rewrite))[\s\S]*$",
    re.IGNORECASE,
)
_QUOTES = {('"', '"'), ("“", "”"), ("'", "'"), ("```", "```")}


def clean_rewrite(output: str, original: str | None = None, instruction: str | None = None) -> str:
    """Strip echoes of the instruction from a rewrite.

    Removes a leading echo of ``instruction``, a preamble line such as "Here is the
    rewritten message:" or "Sure! Here's the text with the gender swapped:", code
    fences, quotes wrapping the whole output (unless the original was quoted too)
    and a trailing note after a blank line ("Note: I have swapped ...",
    "Let me know ...").
    """
    text = (output or "").strip()
    if instruction and text.lower().startswith(instruction.strip().lower()):
        text = text[len(instruction.strip()):].strip()
    fence = re.fullmatch(r"```[\w-]*\n?([\s\S]*?)\n?```", text)
    if fence:
        text = fence.group(1).strip()
    for _ in range(2):
        m = _PREAMBLE.match(text)
        if m and len(text) > m.end():
            text = text[m.end():].strip()
    text = _POSTSCRIPT.sub("", text).strip()
    fence = re.fullmatch(r"```[\w-]*\n?([\s\S]*?)\n?```", text)
    if fence:
        text = fence.group(1).strip()
    orig = (original or "").strip()
    for lq, rq in _QUOTES:
        if len(text) > 2 * len(lq) and text.startswith(lq) and text.endswith(rq) and not orig.startswith(lq):
            inner = text[len(lq): -len(rq)]
            if lq not in inner or lq != rq:
                text = inner.strip()
                break
    return text


# --------------------------------------------------------------------------- requests


def _auto_max_tokens(text: str) -> int:
    return int(min(4096, max(256, len(text) // 2)))


def build_rewrite_request(
    case: Case,
    name: str,
    *,
    model: str,
    seed: int = 0,
    temperature: float = 0.0,
    max_tokens: int | None = None,
    **_: Any,
) -> ModelRequest:
    """The Table 6 request for one case (``meta`` carries the case id and the transform)."""
    if name not in REWRITE_PROMPTS:
        raise ValueError(f"unknown rewrite {name!r}; known: {', '.join(REWRITE_PROMPTS)}")
    prompt = REWRITE_JOIN.format(instruction=REWRITE_PROMPTS[name], text=case.text)
    return ModelRequest.chat(
        model,
        prompt,
        temperature=temperature,
        max_tokens=max_tokens or _auto_max_tokens(case.text),
        seed=seed,
        meta={"case_id": case.case_id, "stage": "perturb", "transform": name},
    )


# --------------------------------------------------------------------------- gates


def _norm_line(line: str) -> str:
    return re.sub(r"\s+", " ", line).strip()


def ehr_gate(original: str, rewritten: str, exempt_keys: Sequence[str] = ()) -> list[str]:
    """Tabular EHR lines of ``original`` that do not come back unchanged in ``rewritten``."""
    exempt = tuple(k.lower() for k in exempt_keys)
    new_lines = {_norm_line(ln) for ln in rewritten.splitlines()}
    missing = []
    for line in ehr_lines(original):
        key = line.split(":", 1)[0].strip().lower()
        if exempt and any(key == k or key.startswith(k + " ") for k in exempt):
            continue
        if _norm_line(line) not in new_lines:
            missing.append(line)
    return missing


def apply_similarity_gate(
    pairs: Sequence[tuple[Case | str, Variant]],
    runner: "Runner",
    embedder: str | None,
    config: GateConfig | None = None,
) -> None:
    """Embed originals and rewrites in one batch; record cosine and flag ``low_similarity`` in place."""
    config = config or GateConfig()
    todo = [(c, v) for c, v in pairs if not ({"model_error", "empty_output"} & set(v.flags))]
    if not todo or not embedder or not config.similarity:
        return
    originals = [c.text if isinstance(c, Case) else c for c, _ in todo]
    texts = originals + [v.text for _, v in todo]
    vecs = np.asarray(runner.embed(embedder, texts, desc="rewrite similarity"), dtype=float)
    n = len(todo)
    a, b = vecs[:n], vecs[n:]
    na = np.linalg.norm(a, axis=1)
    nb = np.linalg.norm(b, axis=1)
    cos = np.where((na > 0) & (nb > 0), (a * b).sum(axis=1) / np.maximum(na * nb, 1e-12), 0.0)
    for (_, v), sim in zip(todo, cos):
        gates = v.provenance.setdefault("gates", {})
        gates["similarity"] = round(float(sim), 6)
        gates["embedder"] = embedder
        gates["min_similarity"] = config.min_similarity
        if sim < config.min_similarity and "low_similarity" not in v.flags:
            v.flags.append("low_similarity")


def _finish_one(
    case: Case,
    name: str,
    req: ModelRequest,
    resp: ModelResponse,
    *,
    model: str,
    seed: int,
    config: GateConfig,
) -> Variant:
    flags: list[str] = []
    raw = resp.text if resp.error is None else None
    text = clean_rewrite(raw or "", case.text, REWRITE_PROMPTS[name]) if raw is not None else ""
    gates: dict[str, Any] = {}
    if resp.error is not None:
        flags.append("model_error")
        text = case.text
    elif not text:
        flags.append("empty_output")
        text = case.text
    else:
        ratio = len(text) / max(1, len(case.text))
        gates["length_ratio"] = round(ratio, 6)
        gates["length_bounds"] = [config.min_length_ratio, config.max_length_ratio]
        if not config.min_length_ratio <= ratio <= config.max_length_ratio:
            flags.append("length_ratio_out_of_bounds")
        if config.check_ehr:
            exempt = tuple(config.exempt_keys) or _EXEMPT.get(name, ())
            changed = ehr_gate(case.text, text, exempt)
            gates["ehr_lines_checked"] = len(ehr_lines(case.text))
            gates["ehr_lines_changed"] = changed
            if changed:
                flags.append("ehr_lines_changed")
        checks, markers = rewrite_flags(name, case.text, text)
        flags += checks
        gates.update(markers)
    return Variant(
        variant_id=Variant.make_id(case.case_id, "perturbation", name, seed),
        case_id=case.case_id,
        family="perturbation",
        name=name,
        text=text,
        seed=seed,
        description=f"LLM rewrite '{name}' by {model} (P2 Table 6)" + (f"; flags: {', '.join(flags)}" if flags else ""),
        provenance={
            "transform": name,
            "kind": "llm",
            "mode": "default",
            "model": model,
            "prompt": REWRITE_PROMPTS[name],
            "params": {"temperature": req.temperature, "max_tokens": req.max_tokens, "seed": req.seed},
            "request_key": resp.request_key,
            "cached": resp.cached,
            "raw_output": raw,
            "error": resp.error,
            "gates": gates,
        },
        flags=flags,
    )


def _make(name: str) -> tuple[Callable[..., Any], ...]:  # apply, build, finish, post
    def build(case: Case, *, model: str, seed: int = 0, **params: Any) -> list[ModelRequest]:
        return [build_rewrite_request(case, name, model=model, seed=seed, **params)]

    def finish(case: Case, reqs: list[ModelRequest], resps: list[ModelResponse], *, model: str, seed: int = 0,
               **params: Any) -> list[Variant]:
        return [_finish_one(case, name, reqs[0], resps[0], model=model, seed=seed, config=GateConfig.from_params(params))]

    def post(pairs: list[tuple[Case, Variant]], *, runner: "Runner", embedder: str | None = None, **params: Any) -> None:
        config = GateConfig.from_params(params)
        apply_similarity_gate(pairs, runner, DEFAULT_EMBEDDER if embedder is None else embedder, config)

    def apply(case: Case, rng: Any = None, *, runner: "Runner | None" = None, model: str | None = None,
              embedder: str | None = None, seed: int = 0, **params: Any) -> list[Variant]:
        params.pop("mode", None)
        params.pop("protected", None)
        return perturb_cases([case], [name], runner=runner, model=model, embedder=embedder, seed=seed, **params)

    apply.__name__ = f"apply_{name}"
    apply.__doc__ = f"LLM rewrite ``{name}`` of one case (needs ``runner=`` and ``model=``)."
    return apply, build, finish, post


_SUMMARIES = {
    "gender_swap": "LLM swaps the patient's gender, no other changes (P2 Table 6)",
    "gender_removal": "LLM removes gender markers, no other changes (P2 Table 6)",
    "uncertain": "LLM adds hedging / uncertain language (P2 Table 6)",
    "colorful": "LLM adds exclamations, expletives and intensive adverbs (P2 Table 6)",
}

for _name in LLM_REWRITES:
    _apply, _build, _finish, _post = _make(_name)
    register_transform(_name, "perturbation", _SUMMARIES[_name], kind="llm", build=_build, finish=_finish,
                       post=_post)(_apply)


def rewrite_cases(
    cases: Sequence[Case],
    names: Sequence[str] = LLM_REWRITES,
    *,
    runner: "Runner",
    model: str,
    seed: int = 0,
    embedder: str | None = DEFAULT_EMBEDDER,
    gates: GateConfig | None = None,
    temperature: float = 0.0,
    max_tokens: int | None = None,
) -> list[Variant]:
    """Rewrite every case with every named rewrite in one batched, cached runner call."""
    cfg = gates or GateConfig()
    if embedder is None:
        cfg = GateConfig(**{**cfg.__dict__, "similarity": False})
    return perturb_cases(
        cases, list(names), runner=runner, model=model, embedder=embedder or "", seed=seed, gates=cfg,
        temperature=temperature, max_tokens=max_tokens,
    )
