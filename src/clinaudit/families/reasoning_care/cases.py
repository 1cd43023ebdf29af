"""The cases and variants of the CARE audit: MCQ fields, specialty, filters, quadruplets, exclusions.

:func:`prepare` loads the spec's multiple-choice vignettes, tags each with a specialty
(:mod:`.specialty`), removes sex-specific cases (vignette and options, P3 §3.2), neutralizes
the text and prefixes it four ways (:func:`~clinaudit.perturb.care_quadruplet`), excludes
vignettes in which gendered terms or names remain, and builds the answer requests
(P3 Fig. 8, :mod:`.mcq`). Every excluded case is a row of the ``cases`` table (status,
filter, reason) and of the exclusions ledger (:func:`exclusions_table`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ...errors import InputError, SpecError
from ...judges.mcq import mcq_fields, mcq_request
from ...perturb import care_quadruplet, filter_sex_specific
from ...perturb.deid import DEFAULT_SEX_SPECIFIC
from ...perturb.neutralize import residual_terms
from ...records import Case, ModelRequest, Variant, canonical_json
from ...pipeline import AuditContext
from .metrics import RETHINK_LEXICONS, normalize_language
from .params import ARMS, CareParams
from .specialty import OTHER, SpecialtyTagger

__all__ = ["Item", "Prepared", "mcq_fields", "prepare", "answer_request", "exclusions_table", "language_warnings"]


@dataclass
class Item:
    case: Case
    specialty: str
    choices: list[str]
    gold: str | None
    variants: dict[str, Variant]
    body: str  # neutralized text without prefix


@dataclass
class Prepared:
    cases_df: pd.DataFrame
    items: list[Item]
    requests: list[ModelRequest]  # answer requests, model-major then case then arm
    targets: list[str]
    notes: list[str] = field(default_factory=list)


def answer_request(ctx: AuditContext, p: CareParams, model: str, item: Item, arm: str) -> ModelRequest:
    v = item.variants[arm]
    return mcq_request(
        model, v.text, item.choices, language=normalize_language(p.language)[1], system=p.system_prompt,
        temperature=p.temperature,
        max_tokens=p.max_tokens, seed=ctx.spec.seed, constrain=p.constrain_answers,
        meta={"stage": "answer", "case_id": item.case.case_id, "variant_id": v.variant_id, "arm": arm},
    )


def prepare(ctx: AuditContext) -> Prepared:
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
    items: list[Item] = []
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
        items.append(Item(c, rows[c.case_id]["specialty"], choices, gold, quad, body))
    if not items:
        raise SpecError("no case is left for 'reasoning_care' after the filters (see params.filter_sex_specific, "
                        "params.drop_other, params.exclude_residual)")
    requests = [answer_request(ctx, p, m, it, arm) for m in targets for it in items for arm in ARMS]
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
    return Prepared(cases_df, items, requests, targets, notes)


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
