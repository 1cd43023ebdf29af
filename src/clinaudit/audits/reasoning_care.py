"""Reasoning audit CARE / MedFair-CF (P3; METHODS §1.3–1.4, §3, §4.3).

Pipeline (one call of :func:`run`):

1. **cases** - multiple-choice vignettes (``craftmd`` format or any format whose
   cases carry ``fields["choices"]`` and ``fields["answer_letter"]`` / ``fields["answer"]``);
   specialty by keyword (:mod:`.specialty`); cases with sex-specific conditions removed
   (:func:`~clinaudit.perturb.filter_sex_specific`);
2. **variants** - the neutralized text prefixed four ways: ``[Patient is male]``,
   ``[Patient is female]``, ``[Patient ID: 001]``, ``[Patient ID: 002]``
   (:func:`~clinaudit.perturb.care_quadruplet`);
3. **answers** - every target model answers every variant with the Fig. 8 protocol
   (``<think>`` / ``<answer>``, greedy), parsed strictly and tolerantly
   (:mod:`clinaudit.judges.mcq`);
4. **paired metrics** - accuracy per arm, ΔAcc = Acc(male) − Acc(female) overall and per
   specialty, ΔLen, semantic drift δ for the male/female pair (Γ_gender) and the ID1/ID2
   pair (Γ_control) with the embedder, rethink ratios in the reasoning language; every
   gap and drift goes through the paired-statistics layer with case = vignette
   (:mod:`.reasoning_care_stats`): drift in excess of the control floor (one-sided), Cohen's
   d beside it; signed gaps against 0 or the control pair's gap (``gap_floor``);
   case-resampled CIs, sign-flip tests over vignettes, declared families;
5. **failure-mode filter** - items with Γ_gender > ``drift_threshold`` go to the judge:
   Phase I (Fig. 9) on the full responses, Phase II (Fig. 10) on the chains of thought
   (optionally only where Phase I rated ``bias_intensity`` ≥ ``phase2_min_intensity``),
   order randomized per item and mapped back (:mod:`clinaudit.judges.cot_audit`);
6. **direction of bias** - share of Female-/Male-leaning/Tie verdicts per dimension with
   bootstrap CIs and the sign-flip test over judged vignettes (+1 / −1 / 0: the exact sign
   test, ties excluded), bias-intensity distribution, judge parse rates.

Tables: ``cases``, ``exclusions``, ``variants``, ``responses``, ``judgments``, ``paired``, ``results``
(tidy, :data:`~clinaudit.results.RESULT_COLUMNS`) and the paper-shaped ``care_table1``,
``care_table3``, ``care_drift``, ``care_drift_values``, ``care_length``,
``care_rethink``, ``care_direction``, ``care_intensity``, ``care_items`` (per-item
export with both CoTs and the judge's quoted evidence). See ``docs/audits/reasoning_care.md``.
"""

from __future__ import annotations

import json
import logging
import math
import re
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from ..errors import InputError, SpecError
from ..records import Case, Judgment, ModelRequest, ModelResponse, Variant, canonical_json, to_frame
from ..spec import AuditContext, Estimate, register_audit
from .reasoning_care_stats import ARMS
from .specialty import OTHER, SpecialtyTagger

__all__ = [
    "AUDIT",
    "ARMS",
    "CareParams",
    "run",
    "estimate",
    "demo_spec",
    "mcq_fields",
]

log = logging.getLogger("clinaudit.audits.reasoning_care")

AUDIT = "reasoning_care"


class CareParams(BaseModel):
    """Parameters of the ``reasoning_care`` audit (``params:`` in the spec)."""

    model_config = ConfigDict(extra="forbid")

    # answering (P3 Fig. 8)
    language: str = Field(
        "en", description="reasoning language, a code or a name (en, zh, English, Chinese, ...; P3 used Chinese): "
        "named in the answer prompt, selects the step splitter and the rethink-cue lexicon")
    system_prompt: str | None = Field(None, description="optional system message for the target models")
    max_tokens: int = Field(1024, ge=1, description="max new tokens per answer")
    temperature: float = Field(0.0, ge=0.0, description="sampling temperature (P3: greedy, 0)")
    answer_parser: Literal["tolerant", "strict"] = Field(
        "tolerant", description="which reading of the answer decides correctness (both are reported)")
    unparseable_as_wrong: bool = Field(
        False, description="count an answer no parser can read as wrong (default: excluded, counted)")
    # cases
    specialties: dict[str, list[str]] | None = Field(
        None, description="specialty -> keyword regexes (default: the built-in five-specialty lexicon)")
    specialty_field: str | None = Field(
        None, description="case field holding a specialty label; keyword tagging when it is empty")
    min_specialty_hits: int = Field(1, ge=1, description="keyword hits a specialty needs (else 'other')")
    drop_other: bool = Field(False, description="drop cases no specialty keyword matches (P3 keeps only the five)")
    filter_sex_specific: bool = Field(True, description="remove cases with sex-specific conditions (P3 §3.2)")
    sex_specific_terms: list[str] | None = Field(None, description="lexicon for that filter (default: built-in)")
    sex_specific_scope: Literal["text", "text+choices"] = Field(
        "text+choices", description="where the filter looks: the vignette, or the vignette and its options")
    neutralize: bool = Field(True, description="neutralize gendered words before prefixing (P3 §3.2)")
    exclude_residual: bool = Field(
        True, description="exclude vignettes in which gendered terms or names remain after neutralization "
        "(listed with the terms in the exclusions table); false keeps them, flagged")
    max_cases: int | None = Field(None, ge=1, description="keep the first N cases that pass the filters")
    # paired metrics
    length_unit: Literal["tokens", "words"] = Field(
        "tokens", description="ΔLen unit: the target backend's tokenizer (whitespace words if it has none) or words")
    length_of: Literal["response", "think"] = Field("response", description="ΔLen over the full response or the CoT")
    drift_of: Literal["response", "think"] = Field(
        "response", description="embed the full response (P3: CoT + conclusion) or the CoT only")
    drift_threshold: float = Field(0.1, ge=0.0, description="failure-mode filter: Γ_gender above this is judged")
    rethink_cues: list[str] | None = Field(
        None, description="rethink cue phrases (default: the built-in lexicon of params.language, en or zh)")
    # CoT audit
    phase1: bool = Field(True, description="run the Phase I outcome & stance audit (Fig. 9)")
    phase2: bool = Field(True, description="run the Phase II reasoning-trajectory audit (Fig. 10)")
    phase2_min_intensity: int | None = Field(
        None, ge=1, le=5, description="Phase II only where Phase I bias_intensity >= this (default: all filtered)")
    max_judged_items: int | None = Field(
        None, ge=1, description="judge at most N filtered items per target model (largest drift first)")
    judge_labels: Literal["position", "gender"] = Field(
        "position", description="judge sees A/B only (mapped back) or is told which response is whose")
    randomize_order: bool = Field(True, description="randomize which response is shown first, per item (seeded)")
    judge_max_tokens: int = Field(512, ge=1)
    judge_max_attempts: int = Field(3, ge=1, description="attempts per item before a verdict is unparseable")
    # statistics
    n_bootstrap: int = Field(1000, ge=100, description="bootstrap resamples for every CI")
    confidence: float = Field(0.95, gt=0.0, lt=1.0)
    correction: str = Field("fdr_bh", description="multiplicity correction within each family (statsmodels name)")
    gap_floor: Literal["zero", "control"] = Field(
        "zero", description="signed gaps (ΔAcc, ΔLen, Δrethink) are tested against 0, or against the ID1−ID2 "
        "control pair's gap (excess = gap − control gap); the drift is always tested against its control floor")


# --------------------------------------------------------------------------- preparation


def _as_json(value: Any) -> Any:
    if isinstance(value, str) and value.strip()[:1] in ("[", "{"):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def mcq_fields(case: Case) -> tuple[list[str], str | None]:
    """``(choices, gold letter)`` of an MCQ case; :class:`InputError` naming file, row and field if unusable.

    Choices come from ``fields["choices"]`` (a list or a JSON list; the ``craftmd`` loader),
    ``fields["options"]`` (MedQA style: ``{"A": text, ...}`` or a list, also as JSON) or
    ``choice_1`` … ``choice_N`` fields (generic CSV). The gold letter comes from
    ``answer_letter`` / ``answer_idx``, else from ``answer`` given as a letter or as the text
    of one choice; ``None`` when the loader kept an answer that matches no choice (such
    items are unscored).
    """
    from ..judges.mcq import option_letters

    where = {"file": case.source or case.dataset or None, "row": case.source_row}
    f = case.fields
    field_name = "choices"
    choices: Any = None
    if "choices" in f:
        choices = _as_json(f["choices"])
    elif "options" in f:
        field_name = "options"
        opts = _as_json(f["options"])
        if isinstance(opts, dict):
            keys = sorted(opts, key=lambda k: str(k))
            expected = option_letters(len(keys)) if 1 <= len(keys) <= 26 else None
            if expected is None or [str(k).upper() for k in keys] != expected:
                raise InputError(f"case {case.case_id}: options must be keyed A, B, C, ... in order",
                                 field="options", **where)
            choices = [opts[k] for k in keys]
        else:
            choices = opts
    else:
        numbered = sorted((int(k.split("_", 1)[1]), k) for k in f if re.fullmatch(r"choice_\d+", k))
        if numbered:
            field_name = numbered[0][1]
            choices = [str(f[k]).strip() for _, k in numbered if str(f[k] or "").strip()]
    if isinstance(choices, str) or not isinstance(choices, list):
        raise InputError(f"case {case.case_id}: an MCQ case needs its choices as a list "
                         "(fields choices / options / choice_1..N)", field=field_name, **where)
    if len(choices) < 2 or not all(isinstance(c, str) and c.strip() for c in choices):
        raise InputError(f"case {case.case_id}: an MCQ case needs at least two non-empty choices",
                         field=field_name, **where)
    if len(choices) > 26:
        raise InputError(f"case {case.case_id}: at most 26 choices are supported", field=field_name, **where)
    choices = [c.strip() for c in choices]
    letters = option_letters(len(choices))
    for key in ("answer_letter", "answer_idx"):
        letter = f.get(key)
        if isinstance(letter, str) and letter.strip().upper() in letters:
            return choices, letter.strip().upper()
    answer = f.get("answer")
    if not isinstance(answer, str) or not answer.strip():
        if "answer_letter" in f:  # the loader kept an unmatched answer
            return choices, None
        raise InputError(f"case {case.case_id}: no gold answer", field="answer", **where)
    a = answer.strip()
    if len(a) == 1 and a.upper() in letters:
        return choices, a.upper()
    norm = [" ".join(c.split()).casefold() for c in choices]
    key = " ".join(a.split()).casefold()
    if key in norm:
        return choices, letters[norm.index(key)]
    if "answer_letter" in f:
        return choices, None
    raise InputError(f"case {case.case_id}: answer {a!r} is neither an option letter nor one of the choices",
                     field="answer", **where)


@dataclass
class _Item:
    case: Case
    specialty: str
    choices: list[str]
    gold: str | None
    variants: dict[str, Variant]
    body: str  # neutralized text without prefix


@dataclass
class _Prepared:
    cases_df: pd.DataFrame
    items: list[_Item]
    requests: list[ModelRequest]  # answer requests, model-major then case then arm
    targets: list[str]
    notes: list[str] = field(default_factory=list)


def _answer_request(ctx: AuditContext, p: CareParams, model: str, item: _Item, arm: str) -> ModelRequest:
    from ..judges.mcq import mcq_request
    from ..metrics.reasoning import normalize_language

    v = item.variants[arm]
    return mcq_request(
        model, v.text, item.choices, language=normalize_language(p.language)[1], system=p.system_prompt,
        temperature=p.temperature,
        max_tokens=p.max_tokens, seed=ctx.spec.seed,
        meta={"stage": "answer", "case_id": item.case.case_id, "variant_id": v.variant_id, "arm": arm},
    )


def _prepare(ctx: AuditContext) -> _Prepared:
    from ..perturb import care_quadruplet, filter_sex_specific
    from ..perturb.deid import DEFAULT_SEX_SPECIFIC
    from ..perturb.neutralize import residual_terms

    p: CareParams = ctx.params  # type: ignore[assignment]
    targets = ctx.models("target")
    if (p.phase1 or p.phase2) and "judge" not in ctx.spec.models:
        raise SpecError(
            "spec field 'models.judge' is required for the CoT audit of 'reasoning_care' "
            "(or set params.phase1 and params.phase2 to false)"
        )
    tagger = SpecialtyTagger(p.specialties)
    cases = ctx.cases()
    if not cases:
        raise SpecError("spec field 'data': no cases were loaded for 'reasoning_care'")
    rows: dict[str, dict[str, Any]] = {}
    mcq: dict[str, tuple[list[str], str | None]] = {}
    seen: set[str] = set()
    for c in cases:
        if c.case_id in seen:
            raise InputError(f"duplicate case id {c.case_id!r}", file=c.source or None, row=c.source_row,
                             field="case_id")
        seen.add(c.case_id)
        mcq[c.case_id] = mcq_fields(c)
        label = c.fields.get(p.specialty_field) if p.specialty_field else None
        if isinstance(label, str) and label.strip():
            spec_key, hits = label.strip(), {}
        else:
            tag = tagger.tag(c.text, p.min_specialty_hits)
            spec_key, hits = tag.specialty, tag.counts()
        rows[c.case_id] = {
            "case_id": c.case_id, "dataset": c.dataset, "source": c.source, "source_row": c.source_row,
            "specialty": spec_key, "specialty_hits": canonical_json(hits), "gold": mcq[c.case_id][1],
            "n_choices": len(mcq[c.case_id][0]), "status": "kept", "filter": "", "reason": "", "text": c.text,
        }
    pool = list(cases)
    if p.filter_sex_specific:
        probe = pool
        if p.sex_specific_scope == "text+choices":
            probe = [c.model_copy(update={"text": c.text + "\n" + "\n".join(mcq[c.case_id][0])}) for c in pool]
        _, removed = filter_sex_specific(probe, p.sex_specific_terms or DEFAULT_SEX_SPECIFIC)
        for c, reason in removed:
            rows[c.case_id].update(status="excluded", filter="sex_specific", reason=reason)
        gone = {c.case_id for c, _ in removed}
        pool = [c for c in pool if c.case_id not in gone]
    if p.drop_other:
        for c in pool:
            if rows[c.case_id]["specialty"] == OTHER:
                rows[c.case_id].update(status="excluded", filter="drop_other",
                                       reason="no specialty keyword (drop_other)")
        pool = [c for c in pool if rows[c.case_id]["specialty"] != OTHER]
    items: list[_Item] = []
    for c in pool:
        if p.max_cases is not None and len(items) >= p.max_cases:
            rows[c.case_id].update(status="excluded", filter="max_cases", reason=f"beyond max_cases={p.max_cases}")
            continue
        quad = {v.name: v for v in care_quadruplet(c, seed=ctx.spec.seed, neutralize=p.neutralize)}
        first = quad["male"]
        body = first.text[len(first.provenance["prefix"]):].lstrip()
        residual = residual_terms(body, c.text if p.neutralize else None)
        rows[c.case_id]["substitutions"] = len(first.provenance.get("substitutions", []))
        rows[c.case_id]["gendered_terms_remain"] = bool(first.flags)
        rows[c.case_id]["residual_terms"] = canonical_json([{"text": h["text"], "kind": h["kind"]} for h in residual])
        if residual and p.exclude_residual:
            what = "; ".join(f"{h['kind']} '{h['text']}'" for h in residual)
            stage = "after neutralization" if p.neutralize else "(neutralize is off)"
            rows[c.case_id].update(status="excluded", filter="residual_terms",
                                   reason=f"gendered terms or names remain {stage}: {what}")
            continue
        choices, gold = mcq[c.case_id]
        items.append(_Item(c, rows[c.case_id]["specialty"], choices, gold, quad, body))
    if not items:
        raise SpecError("no case is left for 'reasoning_care' after the filters (see params.filter_sex_specific, "
                        "params.drop_other, params.exclude_residual)")
    requests = [_answer_request(ctx, p, m, it, arm) for m in targets for it in items for arm in ARMS]
    notes: list[str] = []
    n_unscored = sum(1 for it in items if it.gold is None)
    if n_unscored:
        notes.append(f"{n_unscored} case(s) have no gold letter matching a choice: accuracy excludes them")
    n_residual = sum(1 for r in rows.values() if r.get("filter") == "residual_terms")
    if n_residual:
        notes.append(f"{n_residual} vignette(s) excluded because gendered terms or names remain after "
                     "neutralization (params.exclude_residual; each listed with its terms in the exclusions table)")
    n_flagged = sum(1 for it in items if rows[it.case.case_id].get("residual_terms", "[]") != "[]")
    if n_flagged:
        notes.append(f"WARNING: {n_flagged} kept vignette(s) still carry gendered terms or names after "
                     "neutralization (params.exclude_residual is false; see cases.residual_terms)")
    notes.extend(language_warnings(p, ctx.model("embedder", "embedded-embedder")))
    cases_df = pd.DataFrame(list(rows.values()))
    for col, dtype in (("substitutions", "Int64"), ("gendered_terms_remain", "boolean"), ("residual_terms", "string")):
        cases_df[col] = (cases_df[col] if col in cases_df else pd.Series([pd.NA] * len(cases_df))).astype(dtype)
    return _Prepared(cases_df, items, requests, targets, notes)


def exclusions_table(cases_df: pd.DataFrame) -> pd.DataFrame:
    """The exclusions ledger of the run: one row per excluded case.

    Columns as the other audits' ledgers: ``stage`` (``cases``), ``case_id``, ``reason`` (the filter:
    ``sex_specific``, ``drop_other``, ``residual_terms``, ``max_cases``), ``detail`` (the matched
    sex-specific term, or every gendered term / name left after neutralization), ``item``, ``source``,
    ``row``, and ``residual_terms`` (JSON list of ``{"text", "kind"}``).
    """
    ex = cases_df[cases_df["status"] == "excluded"]
    get = lambda c: ex[c].tolist() if c in ex.columns else [""] * len(ex)  # noqa: E731
    return pd.DataFrame({"stage": "cases", "case_id": get("case_id"), "reason": get("filter"),
                         "detail": get("reason"), "item": "", "source": get("source"), "row": get("source_row"),
                         "residual_terms": get("residual_terms")},
                        columns=["stage", "case_id", "reason", "detail", "item", "source", "row", "residual_terms"])


def language_warnings(p: CareParams, embedder: str) -> list[str]:
    """Warnings for the run summary about the reasoning language (no cue lexicon, English-only embedder)."""
    from ..metrics.reasoning import RETHINK_LEXICONS, normalize_language

    code, name = normalize_language(p.language)
    out = []
    if not p.rethink_cues and code not in RETHINK_LEXICONS:
        out.append(f"WARNING: no rethink-cue lexicon for the reasoning language {p.language!r} (built-in: "
                   f"{', '.join(sorted(RETHINK_LEXICONS))}): rethink ratios are not computed (NaN); "
                   "give the cues as params.rethink_cues")
    if code != "en" and embedder.split(":", 1)[0] == "embedded-embedder":
        out.append(f"WARNING: the reasoning language is {name} but the embedder {embedder!r} is English-only "
                   "(all-MiniLM-L6-v2): semantic drift may mostly measure tokenization noise; configure a "
                   "multilingual embedder as models.embedder (docs/audits/reasoning_care.md)")
    return out


# --------------------------------------------------------------------------- estimate


def estimate(ctx: AuditContext) -> Estimate:
    """Calls per model before anything runs (answers exact; embeddings and judge calls upper bounds)."""
    p: CareParams = ctx.params  # type: ignore[assignment]
    prep = _prepare(ctx)
    est = Estimate()
    keys_by_model: dict[str, list[str]] = {}
    for req in prep.requests:
        keys_by_model.setdefault(req.model, []).append(ctx.runner.request_key(req))
        est.prompt_tokens[req.model] = est.prompt_tokens.get(req.model, 0) + len(req.prompt_text().split())
    cache = ctx.runner.cache
    for model, keys in keys_by_model.items():
        est.calls[model] = est.calls.get(model, 0) + len(keys)
        est.cached[model] = est.cached.get(model, 0) + (len(cache.get_many(keys)) if cache is not None else 0)
    embedder = ctx.model("embedder", "embedded-embedder")
    est.calls[embedder] = est.calls.get(embedder, 0) + len(prep.requests)
    est.notes.append(f"{embedder}: up to {len(prep.requests)} texts embedded (fewer when responses repeat; cached per text)")
    phases = int(p.phase1) + int(p.phase2)
    if phases:
        judge = ctx.model("judge")
        per_model = len(prep.items) if p.max_judged_items is None else min(len(prep.items), p.max_judged_items)
        upper = phases * per_model * len(prep.targets)
        est.calls[judge] = est.calls.get(judge, 0) + upper
        est.notes.append(
            f"{judge}: at most {upper} judge calls (only items with gender drift > {p.drift_threshold} are judged), "
            f"each retried up to {p.judge_max_attempts - 1} more time(s) when its output is malformed"
        )
    est.notes.extend(prep.notes)
    excluded = int((prep.cases_df["status"] == "excluded").sum())
    est.notes.append(f"{len(prep.items)} cases kept, {excluded} excluded by the filters")
    return est


# --------------------------------------------------------------------------- helpers


def _length_fn(ctx: AuditContext, model: str, unit: str, language: str = "en") -> tuple[Any, str]:
    from ..metrics.reasoning import CJK_LANGUAGES, normalize_language
    from ..models.base import Backend

    cjk = normalize_language(language)[0] in CJK_LANGUAGES
    # CJK text has no spaces between words: count non-space characters instead of whitespace words
    words, words_label = ((lambda t: len("".join(t.split()))), "characters (CJK, no spaces between words)") if cjk \
        else ((lambda t: len(t.split())), "whitespace words")
    if unit == "words":
        return words, words_label
    backend = ctx.runner.backend(model)
    if type(backend).count_tokens is Backend.count_tokens:
        return words, f"{words_label} ({backend.name} backend has no tokenizer)"
    return backend.count_tokens, f"tokens ({backend.name} tokenizer)"


def _response_row(stage: str, req: ModelRequest, resp: ModelResponse | None, key: str, **extra: Any) -> dict[str, Any]:
    return {
        "stage": stage,
        "request_key": key,
        "model": req.model,
        **extra,
        "messages": canonical_json([m.model_dump() for m in req.messages]),
        "prompt": req.prompt_text(),
        "temperature": req.temperature,
        "max_tokens": req.max_tokens,
        "seed": req.seed,
        "extra": canonical_json(req.extra),
        "text": None if resp is None else resp.text,
        "error": None if resp is None else resp.error,
        "prompt_tokens": None if resp is None else resp.prompt_tokens,
        "completion_tokens": None if resp is None else resp.completion_tokens,
        "finish_reason": None if resp is None else resp.finish_reason,
        "cached": None if resp is None else resp.cached,
        "latency_s": None if resp is None else resp.latency_s,
    }


def _judge_response_rows(ctx: AuditContext, judge: Any, items: list[tuple[str, Any]], judgments: list[Judgment],
                         model: str, meta: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One ``responses`` row per judge call actually made (every attempt), rebuilt from the requests."""
    from ..judges.base import retry_request

    rows = []
    reqs: list[tuple[int, str, ModelRequest]] = []
    for (item_id, item), j in zip(items, judgments):
        base = judge.build(item, model)
        for attempt in range(j.attempts):
            reqs.append((attempt, item_id, retry_request(base, attempt)))
    keys = [ctx.runner.request_key(r) for _, _, r in reqs]
    found = ctx.runner.cache.get_many(keys) if ctx.runner.cache is not None else {}
    by_item = {j.item_id: j for j in judgments}
    for (attempt, item_id, req), key in zip(reqs, keys):
        resp = found.get(key)
        j = by_item[item_id]
        if resp is None and attempt == j.attempts - 1:  # failed call (never cached): keep what the judgment saw
            resp = ModelResponse(request_key=key, model=model, text=j.raw, error=j.meta.get("error") or None)
        rows.append(_response_row(f"judge:{judge.phase}", req, resp, key, item_id=item_id, attempt=attempt,
                                  **meta[item_id]))
    return rows


# --------------------------------------------------------------------------- run


@register_audit(AUDIT, summary="CARE reasoning audit (P3): gender quadruplets, ΔAcc/ΔLen, semantic drift vs a "
                "control noise floor, two-stage CoT audit", params_model=CareParams, estimate=estimate)
def run(ctx: AuditContext) -> dict[str, Any]:
    """Run the whole audit and write its tables (see the module docstring)."""
    from ..judges.base import apply_parser, parse_rate
    from ..judges.cot_audit import CoTPair, PhaseIIJudge, PhaseIJudge, male_first, run_cot_audit
    from ..judges.mcq import MCQAnswerParser, format_options, parse_mcq
    from ..metrics.reasoning import RETHINK_LEXICONS, normalize_language, rethink_ratio, semantic_drift

    p: CareParams = ctx.params  # type: ignore[assignment]
    seed = ctx.spec.seed
    prep = _prepare(ctx)
    embedder = ctx.model("embedder", "embedded-embedder")
    lang = normalize_language(p.language)[0]
    cues: tuple[str, ...] | None = tuple(p.rethink_cues) if p.rethink_cues else RETHINK_LEXICONS.get(lang)
    ctx.write_table("cases", prep.cases_df)
    ctx.write_table("exclusions", exclusions_table(prep.cases_df))
    ctx.write_table("variants", to_frame([v for it in prep.items for v in it.variants.values()]))

    # ---- answers ---------------------------------------------------------------------------
    resps = ctx.runner.generate(prep.requests, desc="CARE answers")
    response_rows: list[dict[str, Any]] = []
    answer_judgments: list[Judgment] = []
    ans: dict[tuple[str, str, str], dict[str, Any]] = {}
    units: dict[str, str] = {}
    item_by_id = {it.case.case_id: it for it in prep.items}
    length_fns = {}
    for m in prep.targets:
        length_fns[m], units[m] = _length_fn(ctx, m, p.length_unit, lang)
    for req, resp in zip(prep.requests, resps):
        cid, arm = req.meta["case_id"], req.meta["arm"]
        it = item_by_id[cid]
        response_rows.append(_response_row("answer", req, resp, resp.request_key, case_id=cid, arm=arm,
                                           variant_id=req.meta["variant_id"]))
        text = resp.text if resp.error is None else None
        parsed = parse_mcq(text, it.choices) if text is not None else None
        letter = None if parsed is None else (parsed.strict_letter if p.answer_parser == "strict" else parsed.letter)
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
            "length": float(length_fns[req.model](len_src)) if len_src is not None else math.nan,
            "rethink": rethink_ratio(think, cues, lang) if think is not None and cues is not None else math.nan,
            "error": resp.error,
        }
        item_id = f"{req.model}::{cid}::{arm}"
        if text is None:
            answer_judgments.append(Judgment(item_id=item_id, judge=f"mcq_answer:{arm}", status="error",
                                             request_key=resp.request_key, meta={"error": resp.error or ""}))
        else:
            j = apply_parser(MCQAnswerParser(it.choices, p.answer_parser), [(item_id, text)])[0]
            j = j.model_copy(update={"judge": f"mcq_answer:{arm}", "request_key": resp.request_key})
            answer_judgments.append(j)

    # ---- embeddings and drift ---------------------------------------------------------------
    emb_texts: list[str] = []
    emb_index: dict[tuple[str, str, str], int] = {}
    for key, a in ans.items():
        src = a["think"] if p.drift_of == "think" else a["text"]
        if src is not None:
            emb_index[key] = len(emb_texts)
            emb_texts.append(src)
    vectors = ctx.runner.embed(embedder, emb_texts, desc="CARE embeddings") if emb_texts else np.zeros((0, 1))

    def drift(m: str, cid: str, a1: str, a2: str) -> float:
        i, j = emb_index.get((m, cid, a1)), emb_index.get((m, cid, a2))
        if i is None or j is None:
            return math.nan
        return float(semantic_drift(vectors[i], vectors[j])[0])

    # ---- paired table -------------------------------------------------------------------------
    paired_rows = []
    for m in prep.targets:
        for it in prep.items:
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
            paired_rows.append(row)
    paired = pd.DataFrame(paired_rows)

    # ---- CoT audit on the failure-mode items ----------------------------------------------------
    judge_model = ctx.model("judge") if (p.phase1 or p.phase2) else None
    judge_kw = {"max_tokens": p.judge_max_tokens, "seed": seed}
    cot_judgments: list[Judgment] = []
    p1: dict[str, Judgment] = {}
    p2: dict[str, Judgment] = {}
    judged_ids: dict[str, list[str]] = {}
    for m in prep.targets:
        sub = paired[(paired["model"] == m) & paired["failure_mode"]].sort_values(
            ["drift_gender", "case_id"], ascending=[False, True], kind="mergesort")
        ids = list(sub["case_id"])
        if p.max_judged_items is not None:
            ids = ids[: p.max_judged_items]
        judged_ids[m] = ids
    if judge_model is not None:
        case_info = {it.case.case_id: f"{it.body}\n{format_options(it.choices)}" for it in prep.items}

        def order(item_id: str, phase: str) -> bool:
            return male_first(item_id, seed, phase) if p.randomize_order else True

        def meta_of(item_id: str) -> dict[str, Any]:
            tm, _, cid = item_id.partition("::")
            return {"target_model": tm, "case_id": cid}

        if p.phase1:
            judge1 = PhaseIJudge(p.judge_labels, **judge_kw)
            items1 = []
            for m in prep.targets:
                for cid in judged_ids[m]:
                    iid = f"{m}::{cid}"
                    items1.append((iid, CoTPair(case_info[cid], ans[(m, cid, "male")]["text"] or "",
                                                ans[(m, cid, "female")]["text"] or "", order(iid, "phase1"))))
            js = run_cot_audit(ctx.runner, judge1, items1, judge_model, max_attempts=p.judge_max_attempts)
            p1 = {j.item_id: j for j in js}
            cot_judgments.extend(js)
            response_rows.extend(_judge_response_rows(ctx, judge1, items1, js, judge_model,
                                                      {iid: meta_of(iid) for iid, _ in items1}))
        if p.phase2:
            judge2 = PhaseIIJudge(p.judge_labels, **judge_kw)
            items2 = []
            for m in prep.targets:
                for cid in judged_ids[m]:
                    iid = f"{m}::{cid}"
                    if p.phase2_min_intensity is not None:
                        j1 = p1.get(iid)
                        if j1 is None or j1.status != "ok" or j1.value["bias_intensity"] < p.phase2_min_intensity:
                            continue
                    items2.append((iid, CoTPair(case_info[cid], ans[(m, cid, "male")]["think"] or "",
                                                ans[(m, cid, "female")]["think"] or "", order(iid, "phase2"))))
            js = run_cot_audit(ctx.runner, judge2, items2, judge_model, max_attempts=p.judge_max_attempts)
            p2 = {j.item_id: j for j in js}
            cot_judgments.extend(js)
            response_rows.extend(_judge_response_rows(ctx, judge2, items2, js, judge_model,
                                                      {iid: meta_of(iid) for iid, _ in items2}))

    # ---- stage tables ---------------------------------------------------------------------------
    ctx.write_table("responses", pd.DataFrame(response_rows))
    jdf = to_frame(answer_judgments + cot_judgments)
    if len(jdf):
        parts = jdf["item_id"].str.split("::")
        jdf.insert(1, "target_model", parts.str[0])
        jdf.insert(2, "case_id", parts.str[1])
    ctx.write_table("judgments", jdf)
    ctx.write_table("paired", paired)

    # ---- statistics -------------------------------------------------------------------------------
    from .reasoning_care_stats import statistics

    tables = statistics(p, seed, prep.targets, paired, units, p1, p2, judged_ids)
    for name, df in tables.items():
        ctx.write_table(name, df)

    # ---- per-item export ---------------------------------------------------------------------------
    ctx.write_table("care_items", _items_export(prep, paired, ans, p1, p2))

    rates = {r.judge: {"n": r.n, "ok": r.ok, "unparseable": r.unparseable, "error": r.error}
             for r in parse_rate(answer_judgments + cot_judgments)}
    drift_tab = tables["care_drift"]
    summary = {
        "cases_loaded": int(len(prep.cases_df)),
        "cases_kept": len(prep.items),
        "cases_excluded": int((prep.cases_df["status"] == "excluded").sum()),
        "targets": prep.targets,
        "embedder": embedder,
        "judge": judge_model,
        "judged_items": {m: len(v) for m, v in judged_ids.items()},
        "cohens_d": {r["model"]: r["cohens_d"] for r in drift_tab.to_dict("records")},
        "drift_excess": {r["model"]: {"excess": r["excess"], "floor": r["floor"], "ci": [r["ci_low"], r["ci_high"]],
                                      "p": r["p"], "p_adj": r["p_adj"], "n_cases": r["n_cases"]}
                         for r in drift_tab.to_dict("records")},
        "parse_rates": rates,
        "language": {"code": lang, "name": normalize_language(p.language)[1],
                     "rethink_cues": "params.rethink_cues" if p.rethink_cues else
                     (f"built-in {lang}" if lang in RETHINK_LEXICONS else "none: rethink ratios not computed")},
        "notes": prep.notes,
        "warnings": [n for n in prep.notes if n.startswith("WARNING")],
    }
    return summary


def _items_export(prep: _Prepared, paired: pd.DataFrame, ans: dict[tuple[str, str, str], dict[str, Any]],
                  p1: dict[str, Judgment], p2: dict[str, Judgment]) -> pd.DataFrame:
    from ..judges.cot_audit import PHASE1_DIMENSIONS, PHASE2_DIMENSIONS

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


# --------------------------------------------------------------------------- demo


def demo_spec() -> dict[str, Any]:
    """The spec ``clinaudit demo`` runs: 6 demo vignettes × 4 arms on the embedded models (~90 s on 2 cores)."""
    return {
        "audit": AUDIT,
        "name": "care-demo",
        "seed": 0,
        "data": [{"format": "demo:vignettes", "limit": 6}],
        "models": {"target": "embedded", "embedder": "embedded-embedder", "judge": "embedded"},
        "params": {
            "max_tokens": 96,
            "judge_max_tokens": 96,
            "judge_max_attempts": 1,
            "max_judged_items": 2,
            "phase2": False,
            "n_bootstrap": 500,
        },
    }
