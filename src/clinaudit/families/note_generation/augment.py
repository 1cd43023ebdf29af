"""The augmentation modes of the audit, over the one generate–validate–retry loop of
:func:`clinaudit.perturb.augment.augment_context`.

* ``rewrite`` (P1): :data:`~clinaudit.perturb.augment.REWRITE`, the model returns the whole dialog;
* ``insert``: the model proposes sentences only (:data:`~.prompts.INSERT_SUFFIX`); clinaudit
  appends them to the source's turns, spread over them, and the result must still pass the
  additions-only gate;
* during the dry-run estimate an output that is not cached is accepted as one added turn
  holding the placeholder text (:func:`dry_run`), so the later stages build — and the estimate
  counts — the notes and judgments a run would make on it (an upper bound: every augmentation
  accepted).
"""

from __future__ import annotations

import re

from ...loaders.dialog import Turn, format_dialog, parse_dialog
from ...perturb.augment import REWRITE, AugmentMode, GateResult, additions_only_gate
from ...perturb.counterfactual import detect_style
from ...pipeline import is_placeholder
from ...records import Case, ModelResponse
from .prompts import INSERT_SUFFIX

__all__ = ["INSERT_MAX_TOKENS", "split_sentences", "insert_mode", "augment_mode", "dry_run"]

#: max_tokens of an insert-mode request when params.augment_max_tokens is not given
INSERT_MAX_TOKENS = 160


def split_sentences(text: str, limit: int) -> list[str]:
    """The sentences (≥ 3 words) of an insert-mode output: list markers and speaker labels removed, deduplicated."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip().strip('"').strip()
        line = re.sub(r"^(?:[-*•]+|\d+[.)]|\(\w\))\s*", "", line)
        line = re.sub(r"^\[?(?:doctor|patient|dr|pt)\]?\s*[:\-]?\s*", "", line, flags=re.I)
        line = line.strip().strip('"').strip()
        if not line or line.endswith(":"):
            continue
        for s in re.split(r"(?<=[.!?])\s+", line):
            s = s.strip()
            if len(s.split()) >= 3:
                out.append(s)
    return list(dict.fromkeys(out))[:limit]


def insert_mode(max_sentences: int) -> AugmentMode:
    """``augmentation: insert``: up to ``max_sentences`` proposed sentences appended to the source's turns."""

    def check(case: Case, source: str, response: ModelResponse) -> GateResult:
        sentences = split_sentences(response.text or "", max_sentences)
        turns = parse_dialog(case.text)
        own = [k for k, t in enumerate(turns) if t.speaker == source]
        if not own:
            return GateResult(False, "no turns of source", f"the dialog has no {source} turns")
        if not sentences:
            return GateResult(False, "no additions", "no usable sentence in the output")
        k = len(sentences)
        new_turns = list(turns)
        additions = []
        for j, sent in enumerate(sentences):
            pos = own[min(len(own) - 1, int((j + 1) * len(own) / (k + 1)))]
            t = new_turns[pos]
            new_turns[pos] = Turn(t.speaker, t.utterance.rstrip() + " " + sent)
            additions.append({"turn": pos + 1, "speaker": source, "added": sent, "new_turn": False})
        text = format_dialog(new_turns, style=detect_style(case.text))
        gate = additions_only_gate(case.text, text)
        if not gate.ok:
            return gate
        return GateResult(True, text=text, additions=additions)

    return AugmentMode(name="insert", suffix=INSERT_SUFFIX, max_tokens=lambda case: INSERT_MAX_TOKENS, check=check,
                       description="{context} context: sentences proposed by {model} appended to {source} turns "
                                   "(insert mode)")


def dry_run(mode: AugmentMode) -> AugmentMode:
    """``mode`` for the dry-run estimate: an output that is not cached is accepted (see the module docstring)."""

    def check(case: Case, source: str, response: ModelResponse) -> GateResult:
        if not is_placeholder(response):
            return mode.check(case, source, response)
        turns = [*parse_dialog(case.text), Turn(source, response.text or "")]
        return GateResult(True, text=format_dialog(turns, style=detect_style(case.text)), additions=[])

    return mode.with_check(check)


def augment_mode(name: str, max_sentences: int, *, dry: bool = False) -> AugmentMode:
    """The mode ``params.augmentation`` names (``rewrite`` or ``insert``), wrapped for the estimate when ``dry``."""
    mode = REWRITE if name == "rewrite" else insert_mode(max_sentences)
    return dry_run(mode) if dry else mode
