"""Language-model association audit (P4 §4.3, Algorithm 1, Table 3; METHODS §1.7, §4.4).

Pipeline: templates × attributes × target words (:mod:`clinaudit.perturb.templates`)
→ sentences → log-probabilities from the model (all sentences of a run in large
batches through the runner, cached) → one prior-adjusted score per sentence →
per-category means per group and a Wilcoxon signed-rank test on paired target
words (:func:`clinaudit.metrics.bias_score_summary`) → ``summary`` shaped like
P4 Table 3.

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
from pydantic import BaseModel, ConfigDict, Field

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
    "summarize_scores",
    "group_mean_results",
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


class AssociationParams(BaseModel):
    """Parameters of the ``association`` recipe (paths relative to the spec file)."""

    model_config = ConfigDict(extra="forbid")

    templates: str = Field(description="templates file (HurtfulWords templates.txt or YAML)")
    attributes: str = Field(description="attributes file (attribute,category,subgroup CSV or YAML)")
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
    n_bootstrap: int = Field(default=1000, ge=0, description="resamples for the CIs of the group means")
    prevalence: PrevalenceSource | None = None


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
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {exc}", file=str(p)) from None
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
        return load_targets(p)
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
    return out


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
) -> pd.DataFrame:
    """Per model and category: each group vs the reference (``groups[0]``), as tidy result rows.

    Wilcoxon signed-rank test on sentences paired by template × attribute ×
    target index (:func:`clinaudit.metrics.bias_score_summary`); p-values
    corrected together over all categories and comparisons of one model
    (family ``categories:<model>``). ``value`` = mean(group − reference) over
    the pairs; ``flag`` marks raw p < ``alpha`` (P4 Table 3), ``flag_adj`` the
    corrected p.
    """
    from ..metrics import bias_score_summary
    from ..results import apply_correction, results_frame

    groups = list(groups)
    if len(groups) < 2:
        raise ValueError(f"need at least two groups to compare, got {groups}")
    ref = groups[0]
    parts = []
    for model, sub in scores.groupby("model", sort=False):
        for g in groups[1:]:
            pair = sub[sub["group"].isin([g, ref])]
            t = bias_score_summary(pair, pair_cols=("template_id", "attribute", "target_index"), groups=[g, ref],
                                   correction=correction, alpha=alpha)
            t["model"] = model
            parts.append(t)
    table = results_frame(pd.concat(parts, ignore_index=True))
    table = apply_correction(table, family_cols=["model"], family="categories", method=correction)
    table["flag"] = (table["p"] < alpha).to_numpy()
    table["flag_adj"] = (table["p_adj"] < alpha).to_numpy()
    return table


def group_mean_results(scores: pd.DataFrame, groups: Sequence[str], *, n_bootstrap: int = 1000,
                       seed: int = 0) -> pd.DataFrame:
    """Mean score per model × category × group with a percentile bootstrap 95% CI (descriptive rows)."""
    from ..results import result_row, results_frame
    from ..stats import bootstrap_ci

    rows = []
    for (model, cat), sub in scores.groupby(["model", "category"], sort=True):
        for g in groups:
            vals = sub.loc[sub["group"] == g, "score"].to_numpy(dtype=float)
            if n_bootstrap > 0 and vals.size > 1:
                lo, hi = bootstrap_ci(lambda x: x.mean(axis=1), vals, n_resamples=n_bootstrap, seed=seed)
                ci_method = f"bootstrap percentile 95% ({n_bootstrap} resamples)"
            else:
                lo = hi = math.nan
                ci_method = ""
            rows.append(result_row(audit="association", metric="mean_log_prob_bias_score", group=g,
                                   value=float(vals.mean()) if vals.size else math.nan, n=int(vals.size),
                                   ci_low=lo, ci_high=hi, ci_method=ci_method, test="none (descriptive)",
                                   category=cat, model=model))
    return results_frame(rows)


def _summary_table(tests: pd.DataFrame, means: pd.DataFrame, scores: pd.DataFrame, groups: Sequence[str],
                   prevalence: pd.DataFrame | None) -> pd.DataFrame:
    """The P4 Table 3 shape: one row per model × category × compared group."""
    rows = []
    for r in tests.to_dict("records"):
        model, cat = r["model"], r["category"]
        sub = scores[(scores["model"] == model) & (scores["category"] == cat)]
        row: dict[str, Any] = {"model": model, "category": cat}
        for g in groups:
            m = means[(means["model"] == model) & (means["category"] == cat) & (means["group"] == g)]
            row[f"mean_{g}"] = float(m["value"].iloc[0]) if len(m) else math.nan
            row[f"ci_low_{g}"] = float(m["ci_low"].iloc[0]) if len(m) else math.nan
            row[f"ci_high_{g}"] = float(m["ci_high"].iloc[0]) if len(m) else math.nan
        row.update(
            {
                "comparison": f"{r['group']} vs {r['reference']}",
                "difference": r["value"],
                "n_pairs": r["n"],
                "test": r["test"],
                "statistic": r["statistic"],
                "p": r["p"],
                "p_adj": r["p_adj"],
                "correction": r["correction"],
                "family": r["family"],
                "significant": bool(r["flag"]),
                "significant_adj": bool(r["flag_adj"]),
                "n_sentences": int(len(sub)),
                "n_templates": int(sub["template_id"].nunique()),
                "n_attributes": int(sub["attribute"].nunique()),
                "sample_template": str(sub["template"].iloc[0]) if len(sub) else "",
            }
        )
        if prevalence is not None:
            for g in groups:
                pv = prevalence[(prevalence["category"] == cat) & (prevalence["group"] == g)]
                row[f"share_{g}"] = float(pv["share"].iloc[0]) if len(pv) else math.nan
            pv = prevalence[prevalence["category"] == cat]
            row["n_mentioning"] = int(pv["n_mentioning"].iloc[0]) if len(pv) else 0
        rows.append(row)
    return pd.DataFrame(rows)


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


@register_audit(
    "association",
    summary="LM association (P4 Table 3): prior-adjusted log-probability bias scores per category and group "
    "(masked LMs as published, causal LMs by sentence likelihood), Wilcoxon signed-rank",
    params_model=AssociationParams,
    estimate=estimate,
)
def run(ctx: AuditContext) -> dict[str, Any]:
    """Score every sentence with every ``models.target`` model; write the association tables.

    Tables: ``sentences``, ``template_report``, ``scores``, ``summary`` (P4 Table 3
    shape), ``results`` (tidy), and ``prevalence`` when a notes table is given.
    """
    p, targets, sentences, table, skipped = _inputs(ctx)
    models = ctx.models("target")
    _apply_batch_size(ctx, models, p.batch_size)
    ctx.write_table("sentences", table)
    ctx.write_table("template_report", pd.DataFrame(
        [{"line": s.line, "text": s.text, "reason": s.reason} for s in skipped], columns=["line", "text", "reason"]))
    frames = []
    methods: dict[str, str] = {}
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
    ctx.write_table("scores", scores)
    groups = list(targets)
    tests = summarize_scores(scores, groups, correction=p.correction, alpha=p.alpha)
    means = group_mean_results(scores, groups, n_bootstrap=p.n_bootstrap, seed=ctx.spec.seed)
    prevalence = None
    results_parts = [tests, means]
    if p.prevalence is not None:
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
                                         groups=groups)
        ctx.write_table("prevalence", prevalence)
        results_parts.append(prevalence_results(prevalence, audit="association"))
    summary = _summary_table(tests, means, scores, groups, prevalence)
    ctx.write_table("summary", summary)
    from ..results import results_frame

    ctx.write_table("results", results_frame(pd.concat(results_parts, ignore_index=True)))
    return {
        "sentences": len(sentences),
        "categories": sorted(table["category"].unique().tolist()),
        "groups": groups,
        "models": methods,
        "mask_mode": p.mask_mode,
        "significant_categories": {m: int(summary.loc[summary["model"] == m, "significant_adj"].sum())
                                   for m in models},
        "template_lines_reported": len(skipped),  # skipped or repaired on load
    }


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
