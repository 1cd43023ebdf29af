"""Language-model association audit (P4 §4.3, Algorithm 1, Table 3; METHODS §1.7, §4.4).

Pipeline: templates × attributes × target words (:mod:`clinaudit.perturb.templates`)
→ sentences → log-probabilities from the model (all sentences of a run in large
batches through the runner, cached) → one prior-adjusted score per sentence →
per-category means per group and the chosen tests — the Wilcoxon signed-rank
test on paired target words by default, the unpaired rank-sum / KS / t tests of
P4's published code on request (:func:`clinaudit.metrics.association.association_tests`)
→ ``tests`` and ``summary`` shaped like P4 Table 3.

With ``params.scores`` the model step is skipped: per-sentence scores that
already exist (a tidy table, or the TSV of HurtfulWords' scoring script; see
:mod:`clinaudit.audits.association_scores`) go straight to the statistics.

Two scoring methods:

``masked`` (``hf-mlm:`` models) — P4 / Kurita et al.::

    score = log p(w | t with a, slot masked) − log p(w | t with a masked, slot masked)

The slot has one mask per target token (multi-token targets: summed
log-probs) and is located by **token** position. The attribute of the prior
sentence is masked with one mask per attribute word (``mask_mode="word"``, as
published) or one per attribute token (``"token"``).

``causal`` (``hf:``, ``embedded``, any backend with ``loglik``) — our extension::

    score = log P(sentence with w and a) − log P(sentence with w and a placeholder)

whole-sentence log-likelihoods, the attribute replaced by a neutral
placeholder (per category, :data:`DEFAULT_PLACEHOLDERS`, configurable).

Groups: target words per group come from a YAML file ``{groups: {name: [words]}}``
(or ``{name: [words]}``; default male/female). Words are paired across groups by
their index in the lists (man↔woman, he↔she, ...); the first group is the
reference every other group is compared against.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import InputError, SpecError
from ..spec import AuditContext, Estimate, register_audit

__all__ = [
    "AssociationParams",
    "PrevalenceSource",
    "DEFAULT_PLACEHOLDERS",
    "SCORE_COLUMNS",
    "load_targets_file",
    "build_sentences",
    "scoring_method",
    "score_sentences_masked",
    "score_sentences_causal",
    "ScoresFile",
    "summarize_scores",
    "group_mean_results",
    "analyze_scores",
    "run",
    "estimate",
    "demo_spec",
]

log = logging.getLogger("clinaudit.audits.association")

#: Neutral replacement of the attribute in the causal prior sentence, per HurtfulWords category
#: (our reading; any category not listed uses ``default_placeholder``, "something").
DEFAULT_PLACEHOLDERS: dict[str, str] = {
    "CVD": "a condition",
    "HTN": "a condition",
    "DIAB": "a condition",
    "MENT": "a condition",
    "HIV": "a condition",
    "DRUG": "a medication",
    "ADD": "substance",
    "DNR": "something",
}

#: Columns of the ``scores`` table, in order (then ``model``, ``method``, ``sentence``, ``prior_sentence``).
SCORE_COLUMNS: list[str] = [
    "template_id",
    "template",
    "category",
    "attribute",
    "subgroup",
    "group",
    "target",
    "target_index",
    "score",
    "logp_target",
    "logp_prior",
]


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


# --------------------------------------------------------------------------- inputs



def load_targets_file(path: str | Path | None, target_set: str | None = None) -> dict[str, tuple[str, ...]]:
    """Target words per group from a targets YAML (``docs/data-formats.md``), or the gender default.

    Schema: ``{groups: {name: [words...]}}`` (optionally ``version``, ``slot``
    and ``sets: {set_name: {groups: {...}, description: ...}}``, one of which
    ``target_set`` picks); a bare ``{name: [words...]}`` mapping also works.
    ``None`` gives male (man, he, male, m) / female (woman, she, female, f).
    Raises :class:`InputError` naming the file and the field.
    """
    from ..perturb.templates import DEMOGRAPHIC_SLOT, load_targets

    if path is None:
        if target_set is not None:
            raise InputError(f"target set {target_set!r} needs a targets file", field="target_set")
        return load_targets(None)
    p = Path(path)
    if not p.is_file():
        raise InputError("targets file not found", file=str(p))
    import yaml

    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte offset {exc.start}); save the file as UTF-8",
                         file=str(p)) from None
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {' '.join(str(exc).split())}", file=str(p)) from None
    if not isinstance(data, dict):
        raise InputError("expected a mapping {groups: {name: [words]}}", file=str(p))
    slot = data.get("slot", DEMOGRAPHIC_SLOT)
    if slot != DEMOGRAPHIC_SLOT:
        raise InputError(f"only the slot {DEMOGRAPHIC_SLOT} is supported, got {slot!r}", file=str(p), field="slot")
    field = "groups"
    if target_set is not None:
        sets = data.get("sets")
        if not isinstance(sets, dict) or target_set not in sets:
            known = sorted(sets) if isinstance(sets, dict) else []
            raise InputError(f"no target set {target_set!r} (sets: {', '.join(known) or 'none'})", file=str(p),
                             field="sets")
        entry = sets[target_set]
        if not isinstance(entry, dict) or "groups" not in entry:
            raise InputError("a target set needs 'groups'", file=str(p), field=f"sets.{target_set}")
        groups, field = entry["groups"], f"sets.{target_set}.groups"
    elif "groups" in data:
        groups = data["groups"]
    else:
        return _equal_lengths(load_targets(p), p, "groups")
    if not isinstance(groups, dict):
        raise InputError("must map each group name to a list of words", file=str(p), field=field)
    if len(groups) < 2:
        raise InputError("at least two groups are needed", file=str(p), field=field)
    out: dict[str, tuple[str, ...]] = {}
    for g, words in groups.items():
        if not isinstance(words, list) or not words or not all(
            isinstance(w, (str, int)) and str(w).strip() for w in words
        ):
            raise InputError("expected a non-empty list of target words", file=str(p), field=f"{field}.{g}")
        out[str(g)] = tuple(" ".join(str(w).split()) for w in words)
    return _equal_lengths(out, p, field)


def _equal_lengths(targets: dict[str, tuple[str, ...]], path: Path, field: str) -> dict[str, tuple[str, ...]]:
    """Groups are compared word by word (the i-th word of one group with the i-th of another), so every
    group needs the same number of target words; unequal lists would silently drop the unpaired words."""
    sizes = {g: len(w) for g, w in targets.items()}
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{g}: {n}" for g, n in sizes.items())
        raise InputError(f"target word lists must have equal lengths, paired by position ({shown})",
                         file=str(path), field=field)
    return targets


def build_sentences(
    templates_path: str | Path,
    attributes_path: str | Path,
    targets: Mapping[str, Sequence[str]],
    *,
    categories: Sequence[str] | None = None,
    max_templates_per_category: int | None = None,
) -> tuple[list[Any], pd.DataFrame, list[Any]]:
    """Expand the templates: ``(sentences, sentence table, skipped-line report)``.

    Only categories that have both templates and attributes are kept; with
    ``categories`` only those (an unknown name is an :class:`InputError`).
    """
    from ..perturb.templates import expand_templates, load_attributes, load_templates

    templates, skipped = load_templates(templates_path)
    attributes = load_attributes(attributes_path)
    attr_cats = {a.category for a in attributes}
    tmpl_cats = {t.category for t in templates}
    if categories is not None:
        unknown = sorted(set(categories) - (attr_cats & tmpl_cats))
        if unknown:
            raise InputError(
                f"categories {unknown} have no templates or no attributes (available: {sorted(attr_cats & tmpl_cats)})",
                file=str(templates_path), field="categories",
            )
        templates = [t for t in templates if t.category in set(categories)]
    if max_templates_per_category is not None:
        kept: list[Any] = []
        seen: dict[str, int] = {}
        for t in templates:
            if seen.get(t.category, 0) < max_templates_per_category:
                kept.append(t)
                seen[t.category] = seen.get(t.category, 0) + 1
        templates = kept
    orphan = sorted(tmpl_cats - attr_cats)
    if orphan:
        log.warning("templates of categories %s have no attributes in %s: not used", orphan, attributes_path)
    sentences = expand_templates(templates, attributes, targets)
    if not sentences:
        raise InputError("no sentences: no template has a category with attributes", file=str(templates_path))
    index = {g: {w: i for i, w in enumerate(words)} for g, words in targets.items()}
    table = pd.DataFrame(
        [
            {
                "template_id": s.template_id,
                "template": s.template,
                "category": s.category,
                "attribute": s.attribute,
                "subgroup": s.subgroup,
                "group": s.group,
                "target": s.target,
                "target_index": index[s.group][s.target],
                "sentence": s.sentence,
            }
            for s in sentences
        ]
    )
    return sentences, table, skipped


def scoring_method(backend: Any, requested: str = "auto") -> str:
    """``"masked"`` or ``"causal"``: what to do with this backend (``auto``: masked for masked LMs)."""
    from ..models.base import Backend

    has_masked = type(backend).masked_logprobs is not Backend.masked_logprobs
    has_loglik = type(backend).loglik is not Backend.loglik
    if requested == "auto":
        requested = "masked" if has_masked else "causal"
    if requested == "masked" and not has_masked:
        raise SpecError(f"model '{backend.spec}' is not a masked LM (use method: causal, or an hf-mlm: model)")
    if requested == "causal" and not has_loglik:
        raise SpecError(f"model '{backend.spec}' cannot score sentence log-likelihoods (use an hf:, embedded or "
                        "hf-mlm: model)")
    return requested


# --------------------------------------------------------------------------- scoring


def _score_frame(sentences: Sequence[Any], table: pd.DataFrame, logp_t: np.ndarray, logp_p: np.ndarray,
                 model: str, method: str, prior_texts: Sequence[str]) -> pd.DataFrame:
    out = table.drop(columns=["sentence"]).copy()
    out["score"] = logp_t - logp_p
    out["logp_target"] = logp_t
    out["logp_prior"] = logp_p
    out = out[SCORE_COLUMNS]
    out["model"] = model
    out["method"] = method
    out["sentence"] = [s.sentence for s in sentences]
    out["prior_sentence"] = list(prior_texts)
    return out


def _by_length(items: Sequence[Any], score: Any, key: Any) -> np.ndarray:
    """Score ``items`` in one call, shortest first (consecutive batches then pad little); input order back."""
    order = sorted(range(len(items)), key=lambda i: key(items[i]))
    values = np.asarray(score([items[i] for i in order]), dtype=float).reshape(-1)
    out = np.empty(len(items), dtype=float)
    out[order] = values
    return out


def score_sentences_masked(runner: Any, model: str, sentences: Sequence[Any], table: pd.DataFrame,
                           mask_mode: str = "word") -> pd.DataFrame:
    """Prior-adjusted masked-LM scores, every sentence and prior in one batched runner call.

    ``logp_target`` = log p(target tokens | sentence with the attribute, slot
    masked); ``logp_prior`` = the same with the attribute masked too.
    """
    from ..perturb.templates import mask_for_mlm

    backend = runner.backend(model)
    tokenizer = getattr(backend, "tokenizer", None)
    if tokenizer is None:
        raise SpecError(f"masked scoring needs the model's tokenizer; backend '{backend.name}' has none")
    items, priors = [], []
    for s in sentences:
        items.append(mask_for_mlm(s, tokenizer, mask_attribute=False, mode=mask_mode).to_masked_item())
        priors.append(mask_for_mlm(s, tokenizer, mask_attribute=True, mode=mask_mode).to_masked_item())
    desc = f"masked log-probs ({model})"
    values = _by_length(items + priors, lambda batch: runner.masked_logprobs(model, batch, desc=desc),
                        key=lambda it: len(it.text))
    n = len(sentences)
    return _score_frame(sentences, table, values[:n], values[n:], model, f"masked/{mask_mode}",
                        [p.text for p in priors])


def _placeholder_sentence(s: Any, placeholder: str) -> str:
    a0, a1 = s.attribute_span
    return s.sentence[:a0] + placeholder + s.sentence[a1:]


def score_sentences_causal(runner: Any, model: str, sentences: Sequence[Any], table: pd.DataFrame,
                           placeholders: Mapping[str, str] | None = None,
                           default_placeholder: str = "something") -> pd.DataFrame:
    """Whole-sentence likelihood-ratio scores for causal LMs, one batched runner call.

    ``logp_target`` = log P(sentence with target and attribute); ``logp_prior`` =
    log P(the same sentence with the attribute replaced by its category's placeholder).
    """
    ph = {**DEFAULT_PLACEHOLDERS, **dict(placeholders or {})}
    priors = [_placeholder_sentence(s, ph.get(s.category, default_placeholder)) for s in sentences]
    texts = [s.sentence for s in sentences]
    desc = f"sentence log-likelihoods ({model})"
    values = _by_length(texts + priors, lambda batch: runner.loglik(model, batch, desc=desc), key=len)
    n = len(sentences)
    return _score_frame(sentences, table, values[:n], values[n:], model, "causal", priors)


# --------------------------------------------------------------------------- statistics


def summarize_scores(
    scores: pd.DataFrame,
    groups: Sequence[str],
    *,
    correction: str = "bonferroni",
    alpha: float = 0.01,
    tests: Sequence[str] = ("signed-rank",),
    n_bootstrap: int = 0,
    seed: int = 0,
) -> pd.DataFrame:
    """Per model and category: each group vs the reference (``groups[0]``), as tidy result rows.

    :func:`clinaudit.metrics.association.association_tests` on sentences paired
    by template × attribute × target index (signed-rank) or on all sentences
    of the two groups (rank-sum, ks, t); p-values corrected together over all
    categories and comparisons of one model (family ``categories:<model>``,
    per test when several are run). ``value`` = mean(group − reference) over
    the pairs (signed-rank) or the difference of the group means; ``flag``
    marks raw p < ``alpha`` (P4 Table 3), ``flag_adj`` the corrected p; the CI
    resamples sentence frames (``n_bootstrap`` resamples, none when 0).
    """
    from ..metrics.association import add_pairing_columns, association_tests

    return association_tests(add_pairing_columns(scores), groups, tests, correction=correction, alpha=alpha,
                             n_bootstrap=n_bootstrap, seed=seed)


def group_mean_results(scores: pd.DataFrame, groups: Sequence[str], *, n_bootstrap: int = 1000,
                       seed: int = 0) -> pd.DataFrame:
    """Mean score per model × category × group with a 95% percentile bootstrap CI over sentence frames."""
    from ..metrics.association import add_pairing_columns
    from ..metrics.association import group_mean_results as _means

    return _means(add_pairing_columns(scores), groups, n_bootstrap=n_bootstrap, seed=seed)


def analyze_scores(scores: pd.DataFrame, groups: Sequence[str], *, tests: Sequence[str] = ("signed-rank",),
                   correction: str = "bonferroni", alpha: float = 0.01, n_bootstrap: int = 1000, seed: int = 0,
                   prevalence: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Statistics of a score table: ``(tests, group means, summary)`` (result rows, result rows, Table 3)."""
    from ..metrics.association import add_pairing_columns, association_summary

    scored = add_pairing_columns(scores)
    tests_t = summarize_scores(scored, groups, correction=correction, alpha=alpha, tests=tests,
                               n_bootstrap=n_bootstrap, seed=seed)
    means = group_mean_results(scored, groups, n_bootstrap=n_bootstrap, seed=seed)
    return tests_t, means, association_summary(tests_t, means, scored, groups, prevalence)


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
    causal_priors = len({_placeholder_sentence(s, ph.get(s.category, p.default_placeholder)) for s in sentences})
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
    from ..perturb.templates import load_attributes
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
        from .association_scores import load_scores

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
    from ..metrics.association import tests_table

    ctx.write_table("tests", tests_table(tests))
    ctx.write_table("summary", summary)
    from ..results import results_frame

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
    from ..data import demo_path

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
