"""Input transformations: perturbations, counterfactuals, augmentation, settings, templates.

Every transformation turns a :class:`~clinaudit.records.Case` into
:class:`~clinaudit.records.Variant` records that keep the case id (paired metrics
are joins) and say in ``description`` / ``provenance`` what was done.

Registry: :func:`register_transform`, :func:`get_transform`, :func:`list_transforms`,
:func:`perturb_cases` (rule-based and LLM transforms; LLM requests batched in one
cached ``runner.generate`` call). Registered names: ``exclamation``, ``uppercase``,
``lowercase``, ``typo``, ``whitespace`` (regex; ``compat`` and ``default`` modes),
``gender_swap``, ``gender_removal``, ``uncertain``, ``colorful`` (LLM rewrites),
``neutralize_gender`` (P3) and ``deidentify`` (P1).

Everything else is a plain function: :func:`appended_turn_counterfactuals`,
:func:`care_quadruplet`, :func:`augment_context` (+ :data:`CONTEXTS`),
:func:`run_conversation` / :func:`run_conversations`, :func:`filter_sex_specific`,
:func:`filter_min_turns`, :func:`deidentify_text`, :func:`neutralize_text`, and the
template helpers :func:`load_templates`, :func:`load_attributes`, :func:`load_targets`,
:func:`expand_templates`, :func:`mask_for_mlm`.
"""

from __future__ import annotations

from .augment import Rejection, additions_only_gate, augment_context, build_augment_prompt
from .conversation import SETTINGS, Conversation, is_final_diagnosis, run_conversation, run_conversations
from .counterfactual import (
    AGE_BINS,
    ATTRIBUTE_VALUES,
    QUADRUPLET_PREFIXES,
    appended_turn_counterfactuals,
    care_quadruplet,
    concrete_age,
)
from .deid import (
    DEFAULT_SEX_SPECIFIC,
    DeidReport,
    FilterResult,
    deidentify_text,
    filter_min_turns,
    filter_sex_specific,
)
from .llm_rewrite import LLM_REWRITES, GateConfig, clean_rewrite, rewrite_cases
from .neutralize import GENDERED_LEXICON, NeutralizeResult, Substitution, find_gendered_terms, neutralize_text
from .prompts import CONTEXTS, REWRITE_PROMPTS, JudgeExample, StereotypeContext, contexts_for
from .protect import EHR_LINE_PATTERNS, resolve_protected
from .regex import REGEX_PERTURBATIONS, perturb_text
from .registry import Transform, case_rng, get_transform, list_transforms, perturb_cases, register_transform
from .templates import (
    DEFAULT_TARGETS,
    Attribute,
    SkippedLine,
    MaskedSentence,
    Template,
    TemplateSentence,
    expand_templates,
    load_attributes,
    load_targets,
    load_templates,
    mask_for_mlm,
)

__all__ = [
    # registry
    "Transform",
    "register_transform",
    "get_transform",
    "list_transforms",
    "perturb_cases",
    "case_rng",
    # regex
    "REGEX_PERTURBATIONS",
    "perturb_text",
    "EHR_LINE_PATTERNS",
    "resolve_protected",
    # LLM rewrites
    "LLM_REWRITES",
    "REWRITE_PROMPTS",
    "GateConfig",
    "clean_rewrite",
    "rewrite_cases",
    # filtering / de-identification / neutralization
    "DEFAULT_SEX_SPECIFIC",
    "FilterResult",
    "filter_sex_specific",
    "filter_min_turns",
    "DeidReport",
    "deidentify_text",
    "GENDERED_LEXICON",
    "NeutralizeResult",
    "Substitution",
    "neutralize_text",
    "find_gendered_terms",
    # counterfactuals
    "ATTRIBUTE_VALUES",
    "AGE_BINS",
    "QUADRUPLET_PREFIXES",
    "concrete_age",
    "appended_turn_counterfactuals",
    "care_quadruplet",
    # augmentation
    "CONTEXTS",
    "StereotypeContext",
    "JudgeExample",
    "contexts_for",
    "Rejection",
    "additions_only_gate",
    "build_augment_prompt",
    "augment_context",
    # conversations
    "SETTINGS",
    "Conversation",
    "is_final_diagnosis",
    "run_conversation",
    "run_conversations",
    # templates
    "DEFAULT_TARGETS",
    "Template",
    "Attribute",
    "SkippedLine",
    "TemplateSentence",
    "MaskedSentence",
    "load_templates",
    "load_attributes",
    "load_targets",
    "expand_templates",
    "mask_for_mlm",
]
