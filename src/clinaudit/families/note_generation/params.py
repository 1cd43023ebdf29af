"""Parameters of the ``note_generation`` audit (``params:`` in the spec; docs/audits/note_generation.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, field_validator

from ...errors import InputError
from ...loaders.base import DataSource
from ...perturb.relevance import RelevanceChoice
from ...pipeline import JudgeChoice

__all__ = ["AUDIT", "NoteGenerationParams"]

AUDIT = "note_generation"

Source = Literal["doctor", "patient"]
ResidualKind = Literal["possible_name", "first_person_age", "age_question", "gendered_term"]
ExportFormat = Literal["csv", "md", "latex"]
# the defaults of the list fields below, typed as their items
_SOURCES: tuple[Source, ...] = ("doctor", "patient")
_RESIDUAL_KINDS: tuple[ResidualKind, ...] = ("possible_name", "first_person_age", "gendered_term")
_EXPORT_FORMATS: tuple[ExportFormat, ...] = ("csv", "md", "latex")


class NoteGenerationParams(JudgeChoice, RelevanceChoice):
    """Parameters of the ``note_generation`` audit (``params:`` in the spec).

    ``judges`` (from :class:`~clinaudit.pipeline.JudgeChoice`): the registered judge of each role,
    ``incidence`` and ``language_disparity`` (default: P1's, of the same names).
    """

    model_config = ConfigDict(extra="forbid")

    contexts: list[str] = Field(default_factory=lambda: ["Poverty", "Religious Beliefs", "Toxicity"],
                                description="P1 contexts (names or short names, see CONTEXTS)")
    sources: list[Source] = Field(default_factory=lambda: list(_SOURCES),
                                                        description="whose turns get the context (D:/P: rows)")
    attributes: list[str] | None = Field(
        default=None, description="restrict the attributes studied (race, age, gender, or 'race+gender' "
        "intersections); default: each context's own attributes (P1 Table 9)")
    values: dict[str, list[str]] = Field(default_factory=dict,
                                         description="restrict the counterfactual values per attribute")
    deidentify: bool = Field(default=True, description="P1 de-identification before augmentation")
    keep_residual_identifiers: bool | None = Field(
        default=None, description="the older switch: true keeps, false excludes dialogs in which identifiers or "
        "gendered terms remain after de-identification (kinds: residual_kinds); default (null): the spec's "
        "deid.exclude_residual decides (false: possible names replaced by [NAME] and the dialog kept)")
    residual_kinds: list[ResidualKind] = Field(
        default_factory=lambda: list(_RESIDUAL_KINDS),
        description="which remaining items count as identifiers (perturb.deid: capitalised words that may be "
        "names, first-person ages, age questions, gendered words and forms of address)")
    residual_allow: list[str] = Field(default_factory=list, description="words never counted as residual "
                                      "identifiers (e.g. drug or place names a reviewer cleared)")
    min_turns: dict[str, int] = Field(default_factory=lambda: {"mts": 10, "aci": 0},
                                      description="minimum turns per dialog style (P1 drops MTS dialogs < 10 turns)")
    augmentation: Literal["rewrite", "insert"] = Field(
        default="rewrite", description="rewrite: P1's prompt, the model returns the whole dialog (additions-only "
        "gate); insert: the model proposes sentences only and clinaudit inserts them into the source's turns "
        "(for small local models)")
    augment_max_attempts: int = Field(default=3, ge=1)
    augment_max_tokens: int | None = Field(default=None, ge=1, description="default: sized to the dialog "
                                           "(rewrite) or 160 (insert)")
    augment_temperature: float = Field(default=0.0, ge=0)
    insert_max_sentences: int = Field(default=5, ge=1)
    note_style: Literal["auto", "mts", "aci"] = Field(default="auto", description="note prompt: MTS zero-shot "
                                                       "summary or ACI one-shot SOAP; auto: by dialog style")
    aci_shots: Literal[0, 1] = Field(default=1, description="in-context examples in the ACI SOAP prompt")
    aci_example_id: str | None = Field(default=None, description="case id of the in-context example (P1: D2N068 "
                                       "of ACI-Bench valid); default: the first ACI dialog with a reference note")
    aci_example_source: DataSource | None = Field(default=None, description="where to find the example "
                                                  "(default: the spec's data; an example found there is "
                                                  "excluded from the audit)")
    temperature: float = Field(default=0.0, ge=0, description="note generation (P1 used provider defaults)")
    max_tokens: int = Field(default=1024, ge=1, description="note generation")
    judge_max_tokens: int = Field(default=16, ge=1)
    judge_max_attempts: int = Field(default=3, ge=1)
    language_disparity: bool = Field(default=True, description="run the Fig. 5 judge")
    disparity_notes: Literal["positive", "all"] = Field(default="positive", description="notes shown to the "
                                                        "language-disparity judge")
    disparity_order: Literal["shuffled", "fixed"] = Field(default="shuffled", description="order of the notes "
                                                          "in its prompt (deterministic shuffle per dialog)")
    disparity_max_tokens: int = Field(default=384, ge=1)
    n_bootstrap: int = Field(default=1000, ge=10, description="bootstrap resamples of dialogs (CIs)")
    n_permutations: int = Field(default=9999, ge=99, description="sign flips of the ΔBL test (exact enumeration "
                                "when 2^dialogs ≤ this)")
    confidence: float = Field(default=0.95, gt=0, lt=1)
    correction: Literal["bonferroni", "fdr_bh", "holm"] = "bonferroni"
    human_labels: str | None = Field(default=None, description="CSV of human labels for judge validation "
                                     "(relative to the spec; 'demo:human_labels.csv' for the shipped example)")
    export_formats: list[ExportFormat] = Field(default_factory=lambda: list(_EXPORT_FORMATS))

    @field_validator("contexts")
    @classmethod
    def _known_contexts(cls, v: list[str]) -> list[str]:
        from .judges import resolve_context

        out = []
        for name in v:
            try:
                out.append(resolve_context(name).name)
            except InputError as exc:
                raise ValueError(exc.reason) from None
        if not out:
            raise ValueError("at least one context is needed")
        return list(dict.fromkeys(out))

    @field_validator("attributes")
    @classmethod
    def _known_attributes(cls, v: list[str] | None) -> list[str] | None:
        from ...perturb.counterfactual import ATTRIBUTE_VALUES

        if v is None:
            return v
        for a in v:
            parts = a.split("+")
            bad = [p for p in parts if p not in ATTRIBUTE_VALUES]
            if bad or len(set(parts)) != len(parts):
                raise ValueError(f"unknown attribute {a!r}; use race, age, gender or combinations like race+gender")
        return v

    @field_validator("values")
    @classmethod
    def _known_values(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        from ...perturb.counterfactual import AGE_BINS, ATTRIBUTE_VALUES

        for attr, vals in v.items():
            if attr not in ATTRIBUTE_VALUES:
                raise ValueError(f"unknown attribute {attr!r}; known: {', '.join(ATTRIBUTE_VALUES)}")
            if not vals:
                raise ValueError(f"values.{attr}: give at least one value")
            if attr == "age":
                bad = [x for x in vals if x not in AGE_BINS]
                if bad:
                    raise ValueError(f"values.age: unknown age bin(s) {bad}; known: {', '.join(AGE_BINS)}")
        return v

    @field_validator("min_turns")
    @classmethod
    def _styles(cls, v: dict[str, int]) -> dict[str, int]:
        bad = [k for k in v if k not in ("mts", "aci")]
        if bad:
            raise ValueError(f"min_turns keys are dialog styles 'mts' and 'aci', got {bad}")
        return v

