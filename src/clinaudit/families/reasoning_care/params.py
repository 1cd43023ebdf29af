"""Parameters of the CARE reasoning audit (``params:`` of a ``reasoning_care`` spec) and its arms."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from ...perturb.relevance import RelevanceChoice
from ...pipeline import JudgeChoice

__all__ = ["AUDIT", "ARMS", "CareParams"]

#: The four arms of a CARE quadruplet: the two gender counterfactuals and the ID1/ID2 control pair.
ARMS: tuple[str, ...] = ("male", "female", "id1", "id2")

AUDIT = "reasoning_care"


class CareParams(JudgeChoice, RelevanceChoice):
    """Parameters of the ``reasoning_care`` audit (``params:`` in the spec).

    ``judges`` (from :class:`~clinaudit.pipeline.JudgeChoice`): ``{role: registered judge}`` for the
    roles of :attr:`ReasoningCare.judges <clinaudit.families.reasoning_care.audit.ReasoningCare.judges>`
    (an unknown role is a spec error naming ``params.judges.<role>``). A judge for ``mcq_answer`` is built with ``choices`` and ``mode``
    and its parsed ``answer`` is the letter that is scored; one for ``cot_phase1`` / ``cot_phase2``
    subclasses :class:`~clinaudit.families.reasoning_care.judges.CoTJudge`.
    """

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
    constrain_answers: bool = Field(
        True, description="send the answer format (<think>…</think><answer>letter</answer>) as an output grammar: "
        "enforced by hf:/embedded/vllm: and by openai: endpoints configured for it (docs/backends.md)")
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

