"""Language-model association audit (P4 §4.3, Algorithm 1, Table 3; METHODS §1.7, §4.4).

Pipeline: templates × attributes × target words (:mod:`.sentences`) → sentences →
log-probabilities from the model (all sentences of a run in large batches through
the runner, cached) → one prior-adjusted score per sentence (:mod:`.scoring`) →
per-category means per group and the chosen tests — the Wilcoxon signed-rank
test on paired target words by default, the unpaired rank-sum / KS / t tests of
P4's published code on request (:func:`.association_stats.association_tests`)
→ ``tests`` and ``summary`` shaped like P4 Table 3.

With ``params.scores`` the model step is skipped: per-sentence scores that
already exist (a tidy table, or the TSV of HurtfulWords' scoring script; see
:mod:`.existing_scores`) go straight to the statistics.

Groups: words are paired across groups by their index in the lists (man↔woman,
he↔she, ...); the first group is the reference every other group is compared against.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...errors import SpecError
from ...spec import AuditContext, Estimate, register_audit
from .scoring import (
    DEFAULT_PLACEHOLDERS,
    analyze_scores,
    placeholder_sentence,
    score_sentences_causal,
    score_sentences_masked,
    scoring_method,
)
from .sentences import build_sentences, load_targets_file

__all__ = [
    "AssociationParams",
    "PrevalenceSource",
    "ScoresFile",
    "run",
    "estimate",
    "demo_spec",
]

log = logging.getLogger("clinaudit.audits.association")


class PrevalenceSource(BaseModel):
    """A notes table for the corpus-prevalence columns of the summary ("Gender Ratio")."""

    model_config = ConfigDict(extra="forbid")
    notes: str
    text_column: str = "text"
    group_column: str = "group"
    patient_column: str | None = None


class ScoresFile(BaseModel):
    """A file of per-sentence scores that already exist (``params.scores``)."""

    model_config = ConfigDict(extra="forbid")
    path: str
    model: str | None = Field(default=None, description="model name (default: tidy 'model' column, else file name)")


TestName = Literal["signed-rank", "rank-sum", "ks", "t", "sign-flip"]


class AssociationParams(BaseModel):
    """Parameters of the ``association`` recipe (paths relative to the spec file)."""

    model_config = ConfigDict(extra="forbid")

    templates: str | None = Field(default=None, description="templates file (HurtfulWords templates.txt or YAML)")
    attributes: str | None = Field(default=None,
                                   description="attributes file (attribute,category,subgroup CSV or YAML)")
    scores: list[ScoresFile] | None = Field(default=None, description="existing per-sentence scores: no model calls")
    scores_format: Literal["tidy", "hurtfulwords"] = "tidy"
    tests: list[TestName] = Field(default_factory=lambda: ["signed-rank"], min_length=1,
                                  description="signed-rank (paired, default), rank-sum, ks, t, sign-flip "
                                  "(frames); the first fills the summary's p")
    targets: str | None = Field(default=None, description="YAML {groups: {name: [words]}}; default male/female")
    target_set: str | None = Field(default=None, description="a named set under 'sets:' of the targets file")
    method: Literal["auto", "masked", "causal"] = "auto"
    mask_mode: Literal["word", "token"] = "word"
    placeholders: dict[str, str] = Field(default_factory=dict, description="causal prior: category -> placeholder")
    default_placeholder: str = "something"
    groups: list[str] | None = Field(default=None, description="groups to compare, reference first")
    categories: list[str] | None = Field(default=None, description="only these categories")
    max_templates_per_category: int | None = Field(default=None, ge=1)
    batch_size: int | None = Field(default=None, ge=1, description="scoring batch size of local models")
    correction: Literal["bonferroni", "fdr_bh", "holm"] = "bonferroni"
    alpha: float = Field(default=0.01, gt=0, lt=1)
    n_bootstrap: int = Field(default=1000, ge=0, description="resamples (of sentence frames) for every CI")
    prevalence: PrevalenceSource | None = None

    @model_validator(mode="after")
    def _check(self) -> "AssociationParams":
        if self.scores is None and (self.templates is None or self.attributes is None):
            raise ValueError("give templates and attributes (to score sentences with a model), or scores "
                             "(per-sentence scores that already exist)")
        if self.scores is not None and self.templates is not None:
            raise ValueError("scores replaces templates (and model scoring): give one or the other")
        if self.scores is not None and self.prevalence is not None and self.attributes is None:
            raise ValueError("prevalence needs attributes (the strings searched in the notes)")
        if self.scores is not None and not self.scores:
            raise ValueError("scores: give at least one file")
        return self


# --------------------------------------------------------------------------- recipe


def _inputs(ctx: AuditContext) -> tuple[AssociationParams, dict[str, tuple[str, ...]], list[Any], pd.DataFrame, list[Any]]:
    p: AssociationParams = ctx.params  # type: ignore[assignment]
    targets = load_targets_file(ctx.resolve_path(p.targets), p.target_set)
    if p.groups is not None:
        unknown = [g for g in p.groups if g not in targets]
        if unknown or len(p.groups) < 2:
            raise SpecError(f"params.groups {p.groups}: need at least two of the target groups {list(targets)}")
        targets = {g: targets[g] for g in p.groups}
    sentences, table, skipped = build_sentences(
        ctx.resolve_path(p.templates), ctx.resolve_path(p.attributes), targets,  # type: ignore[arg-type]
        categories=p.categories, max_templates_per_category=p.max_templates_per_category,
    )
    return p, targets, sentences, table, skipped


def _apply_batch_size(ctx: AuditContext, models: Sequence[str], batch_size: int | None) -> None:
    if batch_size is None:
        return
    for m in models:
        if m.partition(":")[0] in {"hf", "hf-mlm", "embedded", "mock"}:
            opts = dict(ctx.runner.backend_options.get(m, {}))
            opts.setdefault("batch_size", batch_size)
            ctx.runner.backend_options[m] = opts


def estimate(ctx: AuditContext) -> Estimate:
    """Sentences to score per model: every filled sentence plus its distinct prior sentences."""
    p: AssociationParams = ctx.params  # type: ignore[assignment]
    if p.scores is not None:
        return Estimate(calls={}, notes=[f"{len(p.scores)} existing score file(s): no model calls"])
    p, targets, sentences, table, skipped = _inputs(ctx)
    n = len(sentences)
    ph = {**DEFAULT_PLACEHOLDERS, **p.placeholders}
    causal_priors = len({placeholder_sentence(s, ph.get(s.category, p.default_placeholder)) for s in sentences})
    calls: dict[str, int] = {}
    for m in ctx.models("target"):
        prefix = m.partition(":")[0]
        masked = p.method == "masked" or (p.method == "auto" and prefix == "hf-mlm")
        calls[m] = 2 * n if masked else len({s.sentence for s in sentences}) + causal_priors
    notes = [f"{n} filled sentences over {table['category'].nunique()} categories, {len(targets)} groups"]
    if skipped:
        notes.append(f"{len(skipped)} template line(s) skipped or repaired (see tables/template_report.csv)")
    return Estimate(calls=calls, notes=notes)


def _prevalence(ctx: AuditContext, p: AssociationParams, scores: pd.DataFrame,
                groups: Sequence[str]) -> tuple[pd.DataFrame | None, pd.DataFrame | None]:
    if p.prevalence is None:
        return None, None
    from ...perturb.templates import load_attributes
    from .prevalence import category_prevalence, load_notes, prevalence_results

    src = p.prevalence
    notes = load_notes(ctx.resolve_path(src.notes), src.text_column, src.group_column,  # type: ignore[arg-type]
                       src.patient_column)
    attrs: dict[str, list[str]] = {}
    for a in load_attributes(ctx.resolve_path(p.attributes)):  # type: ignore[arg-type]
        attrs.setdefault(a.category, []).append(a.attribute)
    attrs = {c: v for c, v in attrs.items() if c in set(scores["category"])}
    prevalence = category_prevalence(notes, attrs, patient_col="patient" if src.patient_column else None,
                                     groups=list(groups))
    ctx.write_table("prevalence", prevalence)
    return prevalence, prevalence_results(prevalence, audit="association")


@register_audit(
    "association",
    summary="LM association (P4 Table 3): prior-adjusted log-probability bias scores per category and group "
    "(masked LMs as published, causal LMs by sentence likelihood, or existing scores), Wilcoxon signed-rank "
    "(paired) or the published unpaired rank-sum / KS / t tests",
    params_model=AssociationParams,
    estimate=estimate,
)
def run(ctx: AuditContext) -> dict[str, Any]:
    """Score every sentence with every ``models.target`` model (or read ``params.scores``); write the tables.

    Tables: ``sentences``, ``template_report`` (model scoring only), ``scores``,
    ``exclusions`` (existing scores only), ``tests`` (one row per model ×
    category × comparison × test), ``summary`` (P4 Table 3 shape), ``results``
    (tidy), and ``prevalence`` when a notes table is given.
    """
    p: AssociationParams = ctx.params  # type: ignore[assignment]
    methods: dict[str, str] = {}
    skipped: list[Any] = []
    if p.scores is not None:
        from .existing_scores import load_scores

        files = p.scores
        scores, excluded, groups = load_scores([ctx.resolve_path(f.path) for f in files],  # type: ignore[misc]
                                               p.scores_format, [f.model for f in files], tests=p.tests,
                                               categories=p.categories, groups=p.groups)
        ctx.write_table("exclusions", excluded)
        methods = {str(m): f"existing scores ({p.scores_format})" for m in pd.unique(scores["model"])}
        n_sentences = int(len(scores) / max(1, len(methods)))
    else:
        p, targets, sentences, table, skipped = _inputs(ctx)
        models = ctx.models("target")
        _apply_batch_size(ctx, models, p.batch_size)
        ctx.write_table("sentences", table)
        ctx.write_table("template_report", pd.DataFrame(
            [{"line": s.line, "text": s.text, "reason": s.reason} for s in skipped],
            columns=["line", "text", "reason"]))
        frames = []
        for m in models:
            method = scoring_method(ctx.runner.backend(m), p.method)
            methods[m] = method
            ctx.log.info("association: scoring %d sentences with %s (%s)", len(sentences), m, method)
            if method == "masked":
                frames.append(score_sentences_masked(ctx.runner, m, sentences, table, p.mask_mode))
            else:
                frames.append(score_sentences_causal(ctx.runner, m, sentences, table, p.placeholders,
                                                     p.default_placeholder))
        scores = pd.concat(frames, ignore_index=True)
        groups, n_sentences, excluded = list(targets), len(sentences), None
    ctx.write_table("scores", scores)
    prevalence, prevalence_rows = _prevalence(ctx, p, scores, groups)
    tests, means, summary = analyze_scores(scores, groups, tests=p.tests, correction=p.correction, alpha=p.alpha,
                                           n_bootstrap=p.n_bootstrap, seed=ctx.spec.seed, prevalence=prevalence)
    from .association_stats import tests_table

    ctx.write_table("tests", tests_table(tests))
    ctx.write_table("summary", summary)
    from ...results import results_frame

    parts = [tests, means] + ([prevalence_rows] if prevalence_rows is not None else [])
    ctx.write_table("results", results_frame(pd.concat(parts, ignore_index=True)))
    out = {
        "sentences": n_sentences,
        "categories": sorted(scores["category"].astype(str).unique().tolist()),
        "groups": groups,
        "models": methods,
        "tests": list(p.tests),
        "significant_categories": {m: int(summary.loc[summary["model"] == m, "significant_adj"].sum())
                                   for m in methods},
    }
    if p.scores is not None:
        out["excluded_sentences"] = int(len(excluded)) if excluded is not None else 0
        out["scores_format"] = p.scores_format
    else:
        out["mask_mode"] = p.mask_mode
        out["template_lines_reported"] = len(skipped)  # skipped or repaired on load
    return out


def demo_spec() -> dict[str, Any]:
    """The spec ``clinaudit demo`` runs: the project's demo templates with ``embedded`` (causal scoring)."""
    from ...data import demo_path

    return {
        "audit": "association",
        "name": "association-demo",
        "models": {"target": "embedded"},
        "params": {
            "templates": str(demo_path("association_templates.txt")),
            "attributes": str(demo_path("association_attributes.csv")),
            "targets": str(demo_path("association_targets.yaml")),
            "placeholders": {"PAINMED": "a medication", "PSYCH": "a condition", "CARDIO": "a condition"},
            "batch_size": 64,
            "n_bootstrap": 200,
        },
    }
