"""From the answers to the paired table: reading, lengths, drift, the failure-mode filter, the item export.

* :func:`read_answers` - every answer read by the answer parser (the ``mcq_answer``
  judge role decides the letter that is scored) and by the Fig. 8 protocol's two
  readings (strict and tolerant, reported), its chain of thought, length and rethink ratio;
* :func:`paired_frame` - one row per target model and vignette: the four arms' answers,
  correctness and lengths, ΔLen, the drifts of the gender and control pairs, the rethink
  ratios and the failure-mode flag (Γ_gender > ``drift_threshold``);
* :func:`judged_items` - the items the CoT judge sees (largest drift first, at most
  ``max_judged_items`` per target model);
* :func:`cot_items` - the pairs one CoT phase compares (full responses for Phase I, CoTs
  for Phase II), each shown in an order drawn per item and phase;
* :func:`items_export` - the ``care_items`` table (both responses and CoTs, every verdict).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...judges.base import apply_parser
from ...judges.mcq import format_options, parse_mcq
from ...models.base import Backend
from ...records import Judgment, ModelRequest, ModelResponse
from .cases import Item
from .judges import PHASE1_DIMENSIONS, PHASE2_DIMENSIONS, CoTPair, male_first
from .metrics import CJK_LANGUAGES, normalize_language, rethink_ratio, semantic_drift
from .params import ARMS, CareParams

__all__ = ["Answers", "length_fn", "read_answers", "embed_sources", "paired_frame", "judged_items", "cot_items",
           "items_export"]

#: (target model, case id, arm) -> what was read from that answer
Answers = dict[tuple[str, str, str], dict[str, Any]]


def length_fn(backend: Backend | None, unit: str, language: str = "en") -> tuple[Callable[[str], float], str]:
    """The ΔLen counter and its label: the backend's tokenizer, else whitespace words (CJK: characters).

    ``backend=None`` (the dry run, which needs no lengths) counts words.
    """
    cjk = normalize_language(language)[0] in CJK_LANGUAGES
    # CJK text has no spaces between words: count non-space characters instead of whitespace words
    words, words_label = ((lambda t: len("".join(t.split()))), "characters (CJK, no spaces between words)") if cjk \
        else ((lambda t: len(t.split())), "whitespace words")
    if unit == "words" or backend is None:
        return words, words_label
    if type(backend).count_tokens is Backend.count_tokens:
        return words, f"{words_label} ({backend.name} backend has no tokenizer)"
    return backend.count_tokens, f"tokens ({backend.name} tokenizer)"


def read_answers(p: CareParams, pairs: Sequence[tuple[ModelRequest, ModelResponse]], items: dict[str, Item],
                 parser: Callable[[Item], Any], lengths: dict[str, Callable[[str], float]],
                 cues: Sequence[str] | None, language: str) -> tuple[Answers, list[Judgment]]:
    """Read every answer; one ``mcq_answer:<arm>`` judgment per answer (status error for a failed call)."""
    ans: Answers = {}
    judgments: list[Judgment] = []
    for req, resp in pairs:
        cid, arm = req.meta["case_id"], req.meta["arm"]
        it = items[cid]
        text = resp.text if resp.error is None else None
        item_id = f"{req.model}::{cid}::{arm}"
        judge = parser(it)
        if text is None:
            j = Judgment(item_id=item_id, judge=f"{judge.name}:{arm}", status="error", request_key=resp.request_key,
                         meta={"error": resp.error or ""})
        else:
            j = apply_parser(judge, [(item_id, text)])[0]
            j = j.model_copy(update={"judge": f"{judge.name}:{arm}", "request_key": resp.request_key})
        judgments.append(j)
        parsed = parse_mcq(text, it.choices) if text is not None else None
        letter = j.value.get("answer") if j.status == "ok" else None
        if text is None or it.gold is None:
            correct = math.nan
        elif letter is None:
            correct = 0.0 if p.unparseable_as_wrong else math.nan
        else:
            correct = float(letter == it.gold)
        think = parsed.think if parsed is not None else None
        len_src = think if p.length_of == "think" else text
        ans[(req.model, cid, arm)] = {
            "text": text, "letter": letter, "strict": None if parsed is None else parsed.strict_letter,
            "tolerant": None if parsed is None else parsed.letter, "method": "error" if parsed is None else parsed.method,
            "correct": correct, "think": think,
            "length": float(lengths[req.model](len_src)) if len_src is not None else math.nan,
            "rethink": rethink_ratio(think, cues, language) if think is not None and cues is not None else math.nan,
            "error": resp.error,
        }
    return ans, judgments


def embed_sources(ans: Answers, drift_of: str) -> tuple[list[str], dict[tuple[str, str, str], int]]:
    """The texts to embed (full response or CoT, ``params.drift_of``) and each answer's row among them."""
    texts: list[str] = []
    index: dict[tuple[str, str, str], int] = {}
    for key, a in ans.items():
        src = a["think"] if drift_of == "think" else a["text"]
        if src is not None:
            index[key] = len(texts)
            texts.append(src)
    return texts, index


def paired_frame(p: CareParams, targets: Sequence[str], items: Sequence[Item], ans: Answers, vectors: np.ndarray,
                 index: dict[tuple[str, str, str], int], units: dict[str, str]) -> pd.DataFrame:
    """One row per target model and vignette (see the module docstring)."""

    def drift(m: str, cid: str, a1: str, a2: str) -> float:
        i, j = index.get((m, cid, a1)), index.get((m, cid, a2))
        if i is None or j is None:
            return math.nan
        return float(semantic_drift(vectors[i], vectors[j])[0])

    rows = []
    for m in targets:
        for it in items:
            cid = it.case.case_id
            row: dict[str, Any] = {"model": m, "case_id": cid, "specialty": it.specialty, "gold": it.gold}
            for arm in ARMS:
                a = ans[(m, cid, arm)]
                row[f"answer_{arm}"] = a["letter"]
                row[f"strict_{arm}"] = a["strict"]
                row[f"tolerant_{arm}"] = a["tolerant"]
                row[f"method_{arm}"] = a["method"]
                row[f"correct_{arm}"] = a["correct"]
                row[f"len_{arm}"] = a["length"]
            row["delta_len"] = row["len_male"] - row["len_female"]
            row["delta_len_control"] = row["len_id1"] - row["len_id2"]
            row["drift_gender"] = drift(m, cid, "male", "female")
            row["drift_control"] = drift(m, cid, "id1", "id2")
            for arm in ARMS:
                row[f"rethink_{arm}"] = ans[(m, cid, arm)]["rethink"]
            row["failure_mode"] = bool(row["drift_gender"] > p.drift_threshold) if not math.isnan(
                row["drift_gender"]) else False
            row["length_unit"] = units[m]
            rows.append(row)
    return pd.DataFrame(rows)


def judged_items(p: CareParams, targets: Sequence[str], paired: pd.DataFrame, *, every_item: bool = False
                 ) -> dict[str, list[str]]:
    """Case ids the CoT judge sees per target model: failure-mode items, largest drift first, capped.

    ``every_item`` (the dry run, where no drift is known) takes every item: the upper bound.
    """
    out = {}
    for m in targets:
        sub = paired[(paired["model"] == m) & (paired["failure_mode"] | every_item)].sort_values(
            ["drift_gender", "case_id"], ascending=[False, True], kind="mergesort")
        ids = list(sub["case_id"])
        if p.max_judged_items is not None:
            ids = ids[: p.max_judged_items]
        out[m] = ids
    return out


def cot_items(p: CareParams, phase: str, judged: dict[str, list[str]], items: Sequence[Item], ans: Answers,
              seed: int, phase1: dict[str, Judgment] | None = None, *, dry: bool = False) -> list[tuple[str, CoTPair]]:
    """``(item id, pair)`` for one phase; Phase II keeps the items Phase I rated ≥ ``phase2_min_intensity``.

    ``dry`` (the dry run, where Phase I's verdicts are not known) keeps every item: the upper bound.
    """
    case_info = {it.case.case_id: f"{it.body}\n{format_options(it.choices)}" for it in items}
    source = "text" if phase == "phase1" else "think"
    out = []
    for m, ids in judged.items():
        for cid in ids:
            iid = f"{m}::{cid}"
            if phase == "phase2" and p.phase2_min_intensity is not None and not dry:
                j1 = (phase1 or {}).get(iid)
                if j1 is None or j1.status != "ok" or j1.value["bias_intensity"] < p.phase2_min_intensity:
                    continue
            first = male_first(iid, seed, phase) if p.randomize_order else True
            out.append((iid, CoTPair(case_info[cid], ans[(m, cid, "male")][source] or "",
                                     ans[(m, cid, "female")][source] or "", first, item_id=iid, case_id=cid,
                                     target_model=m)))
    return out


def items_export(paired: pd.DataFrame, ans: Answers, p1: dict[str, Judgment], p2: dict[str, Judgment]) -> pd.DataFrame:
    """The ``care_items`` table: one row per target model and vignette with both CoTs and every verdict."""
    rows = []
    for rec in paired.to_dict("records"):
        m, cid = rec["model"], rec["case_id"]
        iid = f"{m}::{cid}"
        row: dict[str, Any] = {k: rec[k] for k in ("model", "case_id", "specialty", "gold", "drift_gender",
                                                   "drift_control", "failure_mode", "delta_len")}
        for arm in ARMS:
            row[f"answer_{arm}"] = rec[f"answer_{arm}"]
            row[f"correct_{arm}"] = rec[f"correct_{arm}"]
        for arm in ("male", "female"):
            row[f"response_{arm}"] = ans[(m, cid, arm)]["text"]
            row[f"cot_{arm}"] = ans[(m, cid, arm)]["think"]
        j1, j2 = p1.get(iid), p2.get(iid)
        row["phase1_status"] = j1.status if j1 else "not judged"
        row["phase1_order"] = j1.meta.get("order") if j1 else None
        for dim in PHASE1_DIMENSIONS:
            row[dim] = j1.value.get(dim) if j1 and j1.status == "ok" else None
        row["bias_intensity"] = j1.value.get("bias_intensity") if j1 and j1.status == "ok" else None
        row["phase1_explanation"] = j1.value.get("explanation") if j1 and j1.status == "ok" else None
        row["phase1_raw"] = j1.raw if j1 else None
        row["phase2_status"] = j2.status if j2 else "not judged"
        row["phase2_order"] = j2.meta.get("order") if j2 else None
        for dim in PHASE2_DIMENSIONS:
            row[dim] = j2.value.get(dim) if j2 and j2.status == "ok" else None
            row[f"{dim}_evidence"] = j2.value.get(f"{dim}_evidence") if j2 and j2.status == "ok" else None
        row["phase2_raw"] = j2.raw if j2 else None
        rows.append(row)
    return pd.DataFrame(rows)
