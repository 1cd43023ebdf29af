"""Stereotype-context augmentation (P1 §3.1, Appendix A.3.1 and Table 9).

For each case × context × source (doctor / patient) an LLM receives P1's prompt
"Propose the addition of three or more sentences in <doctor's|patient's> dialogs in
the conversation below to reflect that <Table 9 instruction>" followed by the dialog.

The returned dialog must pass the **additions-only gate** (our reading of P1's
"incorporating additional statements"; beyond the paper):

* it parses as a dialog (:func:`~clinaudit.loaders.dialog.parse_dialog`); text before
  the first and after the last labelled turn (a preamble such as "Here is the
  conversation:" or a closing note) is ignored;
* every original turn survives verbatim (whitespace-normalised), by the same
  speaker, and in the original order; new sentences may be new turns or may be added
  to an existing turn (the original utterance must still be contained in it);
* something was added.

An output that fails is retried with a new ``extra.attempt`` (a new, separately
cached request; the seed moves on by 1000 per attempt when set) up to
``max_attempts``; then the item is rejected with the reason of the last attempt:
``"dropped turn"``, ``"reordered"``, ``"unparseable"``, ``"no additions"`` or
``"model error"``. Accepted dialogs are re-written in the original dialog's style
(MTS ``Doctor:`` or ACI ``[doctor]``) so later stages (appended-turn
counterfactuals) see one convention.

How a request is worded and its output turned into a dialog is an
:class:`AugmentMode` (default :data:`REWRITE`, P1's prompt and the gate above); a
caller with another mode (e.g. the note-generation audit's ``insert`` mode, where
the model proposes sentences only) passes its own to :func:`augment_context` and
keeps this one generate–validate–retry loop.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..records import Case, ModelRequest, ModelResponse, Variant
from ._dialog import format_dialog, parse_dialog
from .counterfactual import detect_style
from .prompts import AUGMENT_PROMPT, CONTEXTS, StereotypeContext

if TYPE_CHECKING:  # pragma: no cover
    from ..runner import ModelCalls

__all__ = [
    "Rejection",
    "GateResult",
    "AugmentMode",
    "REWRITE",
    "additions_only_gate",
    "rewrite_check",
    "build_augment_prompt",
    "augment_context",
    "CONTEXTS",
    "StereotypeContext",
]


@dataclass
class Rejection:
    """An augmentation that never passed the gate."""

    case_id: str
    context: str
    source: str
    reason: str  # "dropped turn" | "reordered" | "unparseable" | "no additions" | "model error"
    attempts: int
    detail: str = ""
    last_output: str | None = None

    def to_row(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class GateResult:
    """Outcome of :func:`additions_only_gate`."""

    ok: bool
    reason: str = ""
    detail: str = ""
    text: str = ""  # the accepted dialog, in the original's style
    additions: list[dict[str, Any]] | None = None  # {"turn", "speaker", "added", "new_turn"}

    def __iter__(self) -> Iterator[Any]:  # ``ok, reason, detail = additions_only_gate(...)``
        return iter((self.ok, self.reason, self.detail))


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _turns(text: str) -> list[tuple[str, str]]:
    turns = [(t.speaker, _norm(t.utterance)) for t in parse_dialog(text)]
    while turns and turns[0][0] == "unknown":
        turns.pop(0)
    while turns and turns[-1][0] == "unknown":
        turns.pop()
    return turns


def additions_only_gate(original: str, augmented: str) -> GateResult:
    """Do all original turns survive, by the same speaker and in order, with something added?"""
    orig = _turns(original)
    new = _turns(augmented)
    if not new or not any(s in ("doctor", "patient") for s, _ in new):
        return GateResult(False, "unparseable", "no doctor/patient turns found in the output")
    j = 0
    matched: list[int] = []
    for i, (spk, utt) in enumerate(orig):
        k = j
        while k < len(new) and not (new[k][0] == spk and utt in new[k][1]):
            k += 1
        if k == len(new):
            elsewhere = any(s == spk and utt in u for s, u in new[:j])
            reason = "reordered" if elsewhere else "dropped turn"
            return GateResult(False, reason, f"original turn {i + 1} ({spk}): {utt[:120]!r}")
        matched.append(k)
        j = k + 1
    additions: list[dict[str, Any]] = []
    matched_set = dict(zip(matched, range(len(orig))))
    for k, (spk, utt) in enumerate(new):
        if k in matched_set:
            o = orig[matched_set[k]][1]
            if utt != o:
                added = _norm(utt.replace(o, " ", 1))
                additions.append({"turn": k + 1, "speaker": spk, "added": added, "new_turn": False})
        else:
            additions.append({"turn": k + 1, "speaker": spk, "added": utt, "new_turn": True})
    if not additions:
        return GateResult(False, "no additions", "the output repeats the dialog unchanged")
    style = detect_style(original)
    # keep only the labelled span (drop an unlabelled preamble / postscript)
    labelled = list(parse_dialog(augmented))
    while labelled and labelled[0].speaker == "unknown":
        labelled.pop(0)
    while labelled and labelled[-1].speaker == "unknown":
        labelled.pop()
    text = format_dialog(labelled, style=style)
    return GateResult(True, "", "", text=text, additions=additions)


def _context(ctx: str | StereotypeContext) -> StereotypeContext:
    if isinstance(ctx, StereotypeContext):
        return ctx
    if ctx in CONTEXTS:
        return CONTEXTS[ctx]
    for c in CONTEXTS.values():
        if ctx.lower() in (c.name.lower(), c.short.lower()):
            return c
    raise InputError(f"unknown context {ctx!r}; known: {', '.join(CONTEXTS)}", field="contexts")


def build_augment_prompt(dialog: str, context: StereotypeContext | str, source: str) -> str:
    """P1's augmentation prompt for one dialog, context and source ("doctor" | "patient")."""
    ctx = _context(context)
    if source not in ("doctor", "patient"):
        raise InputError(f"source must be 'doctor' or 'patient', got {source!r}", field="sources")
    return AUGMENT_PROMPT.format(source=source, instruction=ctx.instruction(source)) + "\n\n" + dialog.strip()


def rewrite_check(case: Case, source: str, response: ModelResponse) -> GateResult:
    """P1's rewrite mode: the output must be the whole dialog and pass :func:`additions_only_gate`."""
    return additions_only_gate(case.text, response.text or "")


def _rewrite_max_tokens(case: Case) -> int:
    return int(min(4096, max(512, len(case.text) // 2 + 256)))


@dataclass(frozen=True)
class AugmentMode:
    """How an augmentation request is worded and its output checked (see the module docstring).

    ``suffix`` is appended to P1's prompt; ``max_tokens(case)`` sizes a request when the caller
    gives no ``max_tokens``; ``check(case, source, response)`` returns a :class:`GateResult` whose
    ``text``/``additions`` make the variant (``ok`` false: retried, then rejected with its reason);
    ``description`` is formatted with ``context``, ``source`` and ``model``. A mode other than
    ``rewrite`` is named in the requests' ``meta`` and the variants' ``provenance`` (``mode``).
    """

    name: str = "rewrite"
    suffix: str = ""
    max_tokens: Callable[[Case], int] = _rewrite_max_tokens
    check: Callable[[Case, str, ModelResponse], GateResult] = rewrite_check
    description: str = "{context} context added to the {source}'s turns by {model} (P1 §3.1)"

    def with_check(self, check: Callable[[Case, str, ModelResponse], GateResult]) -> "AugmentMode":
        """The same mode with another output check (e.g. one that wraps this one)."""
        return AugmentMode(self.name, self.suffix, self.max_tokens, check, self.description)


#: P1's mode: the model returns the whole dialog, which must pass the additions-only gate
REWRITE = AugmentMode()


def _request(case: Case, ctx: StereotypeContext, source: str, *, model: str, seed: int, attempt: int,
             temperature: float, max_tokens: int | None, mode: AugmentMode = REWRITE) -> ModelRequest:
    meta: dict[str, Any] = {"case_id": case.case_id, "stage": "augment", "context": ctx.name, "source": source,
                            "attempt": attempt}
    if mode.name != REWRITE.name:
        meta["mode"] = mode.name
    req = ModelRequest.chat(
        model,
        build_augment_prompt(case.text, ctx, source) + mode.suffix,
        temperature=temperature,
        max_tokens=max_tokens or mode.max_tokens(case),
        seed=None if seed is None else seed + 1000 * attempt,
        meta=meta,
    )
    if attempt:
        req.extra["attempt"] = attempt
    return req


def augment_context(
    cases: Sequence[Case],
    contexts: Sequence[str | StereotypeContext] | None = None,
    sources: Sequence[str] = ("doctor", "patient"),
    *,
    runner: "ModelCalls",
    model: str,
    max_attempts: int = 3,
    seed: int = 0,
    temperature: float = 0.0,
    max_tokens: int | None = None,
    mode: AugmentMode = REWRITE,
) -> tuple[list[Variant], list[Rejection]]:
    """Augment every case × context × source; returns ``(variants, rejections)``.

    ``contexts`` are names of :data:`CONTEXTS` (default: all). Each attempt round is
    one batched ``runner.generate`` call. Variants: family ``"augmentation"``, name
    ``"<source>:<context>"`` (e.g. ``"doctor:Poverty"``). ``mode``: how requests are
    worded and outputs checked (default :data:`REWRITE`, P1's).
    """
    ctxs = [_context(c) for c in (contexts if contexts is not None else list(CONTEXTS))]
    for s in sources:
        if s not in ("doctor", "patient"):
            raise InputError(f"source must be 'doctor' or 'patient', got {s!r}", field="sources")
    if max_attempts < 1:
        raise InputError("max_attempts must be at least 1", field="max_attempts")
    items = [(case, ctx, src) for case in cases for ctx in ctxs for src in sources]
    accepted: dict[int, Variant] = {}
    last: dict[int, tuple[str, str, str | None]] = {}
    pending = list(range(len(items)))
    for attempt in range(max_attempts):
        if not pending:
            break
        reqs = [
            _request(items[i][0], items[i][1], items[i][2], model=model, seed=seed, attempt=attempt,
                     temperature=temperature, max_tokens=max_tokens, mode=mode)
            for i in pending
        ]
        label = "context augmentation" + (f" ({mode.name})" if mode.name != REWRITE.name else "")
        resps = runner.generate(reqs, desc=label + (f" (retry {attempt})" if attempt else ""))
        still = []
        for i, req, resp in zip(pending, reqs, resps):
            case, ctx, src = items[i]
            if resp.error is not None:
                last[i] = ("model error", resp.error, None)
                still.append(i)
                continue
            gate = mode.check(case, src, resp)
            if not gate.ok:
                last[i] = (gate.reason, gate.detail, resp.text)
                still.append(i)
                continue
            name = f"{src}:{ctx.name}"
            accepted[i] = Variant(
                variant_id=Variant.make_id(case.case_id, "augmentation", name, seed),
                case_id=case.case_id,
                family="augmentation",
                name=name,
                text=gate.text,
                seed=seed,
                description=mode.description.format(context=ctx.name, source=src, model=model),
                provenance={
                    "transform": "augment_context",
                    **({"mode": mode.name} if mode.name != REWRITE.name else {}),
                    "context": ctx.name,
                    "source": src,
                    "attributes": list(ctx.attributes),
                    "model": model,
                    "prompt": build_augment_prompt("<dialog>", ctx, src) + mode.suffix,
                    "params": {"temperature": temperature, "max_tokens": req.max_tokens, "seed": req.seed},
                    "attempts": attempt + 1,
                    "request_key": resp.request_key,
                    "additions": gate.additions,
                    "gate": "additions_only",
                    "raw_output": resp.text,
                },
            )
        pending = still
    variants = [accepted[i] for i in sorted(accepted)]
    rejections = [
        Rejection(case_id=items[i][0].case_id, context=items[i][1].name, source=items[i][2], reason=last[i][0],
                  attempts=max_attempts, detail=last[i][1], last_output=last[i][2])
        for i in pending
    ]
    return variants, rejections
