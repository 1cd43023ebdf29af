"""``augmentation: insert``: the model proposes sentences; clinaudit appends them to the source's turns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...records import Case, ModelRequest, Variant
from .params import NoteGenerationParams
from .prompts import INSERT_SUFFIX

__all__ = ["split_sentences", "insert_augment"]


def split_sentences(text: str, limit: int) -> list[str]:
    import re

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


def insert_augment(cases: Sequence[Case], contexts: Sequence[Any], sources: Sequence[str], *, runner: Any,
                    model: str, params: NoteGenerationParams, seed: int) -> tuple[list[Variant], list[Any]]:
    """``augmentation: insert``: the model proposes sentences; they are appended to the source's turns."""
    from ...loaders.dialog import Turn, format_dialog, parse_dialog
    from ...perturb.augment import Rejection, additions_only_gate, build_augment_prompt
    from ...perturb.counterfactual import detect_style

    items = [(c, x, s) for c in cases for x in contexts for s in sources]
    max_tokens = params.augment_max_tokens or 160
    accepted: dict[int, Variant] = {}
    last: dict[int, tuple[str, str, str | None]] = {}
    pending = list(range(len(items)))
    for attempt in range(params.augment_max_attempts):
        if not pending:
            break
        reqs = []
        for i in pending:
            case, cx, src = items[i]
            req = ModelRequest.chat(
                model, build_augment_prompt(case.text, cx, src) + INSERT_SUFFIX,
                temperature=params.augment_temperature, max_tokens=max_tokens,
                seed=None if seed is None else seed + 1000 * attempt,
                meta={"case_id": case.case_id, "stage": "augment", "context": cx.name, "source": src,
                      "attempt": attempt, "mode": "insert"})
            if attempt:
                req.extra["attempt"] = attempt
            reqs.append(req)
        resps = runner.generate(reqs, desc="context augmentation (insert)" + (f" retry {attempt}" if attempt else ""))
        still = []
        for i, req, resp in zip(pending, reqs, resps):
            case, cx, src = items[i]
            if resp.error is not None:
                last[i] = ("model error", resp.error, None)
                still.append(i)
                continue
            sentences = split_sentences(resp.text or "", params.insert_max_sentences)
            turns = parse_dialog(case.text)
            own = [k for k, t in enumerate(turns) if t.speaker == src]
            if not own:
                last[i] = ("no turns of source", f"the dialog has no {src} turns", resp.text)
                still.append(i)
                continue
            if not sentences:
                last[i] = ("no additions", "no usable sentence in the output", resp.text)
                still.append(i)
                continue
            k = len(sentences)
            new_turns = list(turns)
            additions = []
            for j, sent in enumerate(sentences):
                pos = own[min(len(own) - 1, int((j + 1) * len(own) / (k + 1)))]
                t = new_turns[pos]
                new_turns[pos] = Turn(t.speaker, t.utterance.rstrip() + " " + sent)
                additions.append({"turn": pos + 1, "speaker": src, "added": sent, "new_turn": False})
            text = format_dialog(new_turns, style=detect_style(case.text))
            gate = additions_only_gate(case.text, text)
            if not gate.ok:
                last[i] = (gate.reason, gate.detail, resp.text)
                still.append(i)
                continue
            name = f"{src}:{cx.name}"
            accepted[i] = Variant(
                variant_id=Variant.make_id(case.case_id, "augmentation", name, seed),
                case_id=case.case_id, family="augmentation", name=name, text=text, seed=seed,
                description=f"{cx.name} context: sentences proposed by {model} appended to {src} turns "
                            f"(insert mode)",
                provenance={"transform": "augment_context", "mode": "insert", "context": cx.name, "source": src,
                            "attributes": list(cx.attributes), "model": model,
                            "prompt": build_augment_prompt("<dialog>", cx, src) + INSERT_SUFFIX,
                            "params": {"temperature": params.augment_temperature, "max_tokens": max_tokens,
                                       "seed": req.seed},
                            "attempts": attempt + 1, "request_key": resp.request_key, "additions": additions,
                            "gate": "additions_only", "raw_output": resp.text},
            )
        pending = still
    variants = [accepted[i] for i in sorted(accepted)]
    rejections = [Rejection(case_id=items[i][0].case_id, context=items[i][1].name, source=items[i][2],
                            reason=last[i][0], attempts=params.augment_max_attempts, detail=last[i][1],
                            last_output=last[i][2]) for i in pending]
    return variants, rejections


