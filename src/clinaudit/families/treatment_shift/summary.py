"""The run summary of a treatment-shift run and the cost lines of its dry-run estimate."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from .params import TreatmentShiftParams

__all__ = ["treatment_summary", "conversation_summary", "cost_notes"]


def treatment_summary(labels: pd.DataFrame, inferred: pd.DataFrame, annotator_mode: str) -> dict[str, Any]:
    """Annotation counts and parse rates, parser disagreement, gender-inference parse rate and accuracy."""
    s: dict[str, Any] = {}
    judged = labels[labels["judge_status"].isin(["ok", "unparseable", "error", "tie"])]
    per_ann = judged.drop_duplicates("response_key")
    s["annotations"] = len(per_ann)
    s["annotator_parse_rate"] = float((per_ann["judge_status"] == "ok").mean()) if len(per_ann) else math.nan
    s["annotations_unparseable"] = int((per_ann["judge_status"] == "unparseable").sum())
    if (per_ann["judge_status"] == "tie").any():  # a judge jury split on some question (docs/judges.md)
        s["annotations_tied"] = int((per_ann["judge_status"] == "tie").sum())
    s["annotator_mode"] = annotator_mode
    if annotator_mode == "generate":  # (scored labels have no text format to disagree about)
        both = labels.dropna(subset=["label_strict", "label_tolerant"])
        s["strict_vs_tolerant_disagreement"] = float(
            (both["label_strict"] != both["label_tolerant"]).mean()) if len(both) else math.nan
    if len(inferred):
        s["gender_inference_parse_rate"] = float((inferred["status"] == "ok").mean())
        known = inferred.dropna(subset=["inferred_gender", "recorded_gender"])
        known = known[known["recorded_gender"].isin(["female", "male"])]
        if len(known):
            s["gender_inference_accuracy"] = float((known["inferred_gender"] == known["recorded_gender"]).mean())
    return s


def conversation_summary(conv: pd.DataFrame) -> dict[str, Any]:
    return {"conversations": len(conv),
            "diagnosis_decided_rate": float(conv["correct"].notna().mean()) if len(conv) else math.nan}


def cost_notes(ctx: Any, params: TreatmentShiftParams, targets: list[str], judge: str) -> list[str]:
    """Cost per priced model (``price_per_1k_input`` / ``_output`` of ``backends``) from the dry-run count.

    Input: the prompt tokens of the new (not cached) calls; output priced at the ``max_tokens``
    upper bound (``judge_max_tokens`` for the judge model).
    """
    from ...models.options import effective_prices

    count = getattr(ctx.runner, "count", None)  # the framework's dry-run count (clinaudit.pipeline.CallLog)
    if count is None:
        return []
    max_out = {m: params.max_tokens for m in targets}
    max_out[judge] = params.judge_max_tokens
    notes, total, priced = [], 0.0, False
    for m, keys in sorted(count.keys.items()):
        opts, discount = effective_prices(m, ctx.spec.backends.get(m, {}))  # a batch backend's price: discounted
        pin, pout = opts.get("price_per_1k_input"), opts.get("price_per_1k_output")
        if pin is None and pout is None:
            continue
        priced = True
        n = len(keys)
        new = max(0, n - len(count.hits.get(m, set()) & keys))
        toks = round(count.prompt_words.get(m, 0) * 4 / 3)
        cost = (toks * (new / n if n else 0.0) / 1000) * float(pin or 0) + \
            new * max_out.get(m, params.max_tokens) / 1000 * float(pout or 0)
        total += cost
        batch = f"; batch price, {discount:.0%} off" if discount else ""
        notes.append(f"cost {m}: ~${cost:.2f} for {new} new calls (output priced at the max_tokens upper bound{batch})")
    if priced:
        notes.append(f"estimated cost, all priced models: ~${total:.2f}")
    return notes
