"""Parameters of the ``treatment_shift`` audit (``params:`` in a spec) and what follows from them."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from ...perturb.relevance import RelevanceChoice
from ...pipeline import JudgeChoice
from .variants import GenderInferencePlan, gender_inference_plan

__all__ = [
    "ALL_PERTURBATIONS",
    "REGEX_PERTURBATIONS",
    "LLM_PERTURBATIONS",
    "QUESTIONS",
    "SETTINGS",
    "TreatmentShiftParams",
    "all_perturbations",
    "control_perturbation",
    "gender_plan",
]

REGEX_PERTURBATIONS: tuple[str, ...] = ("exclamation", "typo", "whitespace", "lowercase", "uppercase")
LLM_PERTURBATIONS: tuple[str, ...] = ("gender_swap", "gender_removal", "uncertain", "colorful")
#: The nine P2 perturbations, in the paper's order.
ALL_PERTURBATIONS: tuple[str, ...] = LLM_PERTURBATIONS + REGEX_PERTURBATIONS
Question = Literal["MANAGE", "VISIT", "RESOURCE"]
QUESTIONS: tuple[Question, ...] = ("MANAGE", "VISIT", "RESOURCE")
SETTINGS: tuple[str, ...] = ("vignette", "single_turn", "multi_turn", "summarized")


class TreatmentShiftParams(JudgeChoice, RelevanceChoice):
    """Parameters of the ``treatment_shift`` audit (``params:`` in the spec). Defaults follow P2."""

    model_config = ConfigDict(extra="forbid")

    # --- variants
    treatment: bool = Field(True, description="run the treatment-recommendation part (MANAGE/VISIT/RESOURCE)")
    perturbations: list[str] = Field(default_factory=lambda: list(ALL_PERTURBATIONS),
                                     description="any subset of the nine P2 perturbations (or other registered ones)")
    mode: Literal["default", "compat"] = Field("default", description="regex perturbation mode (compat = published code)")
    protect_ehr: bool = Field(True, description="regex perturbations leave tabular EHR lines unchanged")
    filter_sex_specific: bool = Field(True, description="set aside cases about sex-specific conditions")
    sex_specific_terms: list[str] | None = Field(None, description="override the sex-specific keyword lexicon")
    similarity_gate: bool = Field(True, description="embedding-similarity gate on LLM rewrites (models.embedder)")
    drop_flagged: bool = Field(False, description="drop every variant flagged by a quality gate (invalid rewrites "
                               "are dropped anyway, see keep_invalid_rewrites)")
    keep_invalid_rewrites: bool = Field(
        False, description="keep LLM rewrites that are no valid counterfactual (refusal, gender not swapped / markers "
        "left, low similarity, length ratio, EHR lines changed). Default: drop them and list them in the exclusions")
    min_valid_share: float = Field(
        0.8, ge=0.0, le=1.0, description="a rewritten perturbation whose share of valid rewrites is below this is "
        "not measured (its rows not_measured, the reason on the first screen)")
    keep_failed_rewrites: bool = Field(
        False, description="keep LLM rewrites that failed (model error / empty output; their text is the original). "
        "Default: drop them from the analysis and list them in the exclusions table")
    # --- target calls
    seeds: list[int] = Field(default_factory=lambda: [0, 1, 42], min_length=1)
    temperature: float = Field(0.7, ge=0.0, le=2.0)
    max_tokens: int = Field(512, ge=1)
    system_prompt: str = Field("auto", description="auto | oncologist | primary_care | none | your own text")
    specialty_field: str = Field("specialty", description="case field naming the specialty (auto system prompt)")
    context_field: str | None = Field(None, description="case field with EHR context (auto: context/ehr/...)")
    perturb_context: bool = Field(False, description="also perturb the EHR context (default: message only)")
    # --- judge
    questions: list[Question] = Field(default_factory=lambda: list(QUESTIONS))
    parser: Literal["tolerant", "strict"] = Field("tolerant", description="which parser's labels feed the metrics")
    annotator_mode: Literal["generate", "loglik"] = Field(
        "generate", description="generate: the judge writes MANAGE [YES]...; loglik: the judge model scores "
        "'[YES]' vs '[NO]' (beyond the paper; for small local models that ignore the format)")
    annotator_example: bool = Field(True, description="include a worked example in the annotator prompt")
    judge_max_tokens: int = Field(256, ge=1)
    judge_attempts: int = Field(3, ge=1, description="tries per annotation before it counts as unparseable")
    # --- subgroups / validation
    infer_gender: bool = Field(True, description="model-inferred gender subgroups (P2 Appendix D); by default "
                               "only when gender_removal is run (else skipped with a note)")
    gender_inference_model: Literal["judge", "target"] = Field("judge")
    gender_inference_on: Literal["gender_removal", "baseline"] = Field(
        "gender_removal", description="infer from the gender-removed text (P2; never falls back to the gendered "
        "baseline) or, explicitly, from the baseline text (noted as gendered)")
    gender_field: str | None = Field(None, description="case field with the recorded gender (auto)")
    validation_field: str = Field("validation", description="case field(s) with clinician labels V")
    group_columns: list[str] = Field(
        default_factory=list, description="case fields (data columns) to report effect gaps by, beside the recorded "
        "gender: race, ethnicity, age (read as bands), language, insurance, ... (one row per non-reference group)")
    reference_groups: dict[str, str] = Field(
        default_factory=dict, description="the reference group of each group column (default: its largest group "
        "in the input; ties: the first sorted)")
    value_maps: dict[str, dict[str, str]] = Field(
        default_factory=dict, description="per field, raw value -> group (case- and whitespace-insensitive), e.g. "
        "{gender: {'1': male, '2': female}}; the recorded gender also knows f/female/woman/w and m/male/man")
    unknown_values: dict[str, list[str]] = Field(
        default_factory=dict, description="per field, values that mean 'not recorded' (left out of the gaps, "
        "said on the first screen); any other value no map knows stops the run (exit 2)")
    min_group_cases: int = Field(2, ge=1, description="a group with fewer cases is not measured (said on the first "
                                 "screen)")
    # --- conversations
    settings: list[str] = Field(default_factory=list, description="conversational settings to run")
    conversation_perturbations: list[str] | None = Field(
        None, description="perturbations crossed with the settings (default: perturbations minus uncertain/colorful)")
    conversation_seeds: list[int] | None = Field(None, description="default: the first seed")
    max_turns: int = Field(5, ge=1, description="cap on the doctor agent's questions (multi_turn, summarized)")
    conversation_max_tokens: int = Field(128, ge=1, description="max tokens of each doctor / patient turn")
    answer_field: str | None = Field(None, description="case field with the gold diagnosis (auto: answer)")
    diagnosis_judge: Literal["rule", "llm", "rule_then_llm"] = Field("rule_then_llm")
    control: str | None = Field(
        "auto", description="a perturbation every other one is also compared with (shift beyond the control's "
        "shift, case-clustered CI and test); auto: cognitive_control when it is run, else none")
    # --- statistics
    n_resamples: int = Field(1000, ge=10)
    correction: Literal["bonferroni", "fdr_bh"] = Field("bonferroni")

    @field_validator("perturbations", "conversation_perturbations")
    @classmethod
    def _known(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        from ...perturb import list_transforms

        known = list_transforms()
        bad = [n for n in v if n not in known]
        if bad:
            import difflib

            close = [f"'{c[0]}'" for c in (difflib.get_close_matches(n, list(known), n=1, cutoff=0.6) for n in bad)
                     if c]
            hint = f"; did you mean {' / '.join(close)}?" if close else ""
            raise ValueError(f"unknown perturbation(s) {', '.join(bad)}{hint} known: {', '.join(sorted(known))}")
        if len(set(v)) != len(v):
            raise ValueError("perturbations are listed twice")
        return v

    @field_validator("settings")
    @classmethod
    def _settings(cls, v: list[str]) -> list[str]:
        bad = [s for s in v if s not in SETTINGS]
        if bad:
            raise ValueError(f"unknown setting(s) {', '.join(bad)}; known: {', '.join(SETTINGS)}")
        return v

    @field_validator("seeds")
    @classmethod
    def _unique(cls, v: list[int]) -> list[int]:
        if len(set(v)) != len(v):
            raise ValueError("seeds must be distinct")
        return v

    @model_validator(mode="after")
    def _something(self) -> "TreatmentShiftParams":
        if not self.treatment and not self.settings:
            raise ValueError("nothing to do: set treatment: true or list conversational settings")
        run = self.perturbations + list(self.conversation_perturbations or [])
        if self.control not in (None, "auto") and self.control not in run:
            raise ValueError(f"params.control {self.control!r} is not among the perturbations run "
                             f"({', '.join(run)}): add it to params.perturbations")
        if ("infer_gender" in self.model_fields_set and self.infer_gender and self.treatment
                and self.gender_inference_on == "gender_removal" and "gender_removal" not in run):
            raise ValueError(
                "params.infer_gender: true infers gender from the gender_removal rewrite (gender_inference_on: "
                "gender_removal, P2 Appendix D), but gender_removal is not in params.perturbations: add it, or set "
                "gender_inference_on: baseline to infer from the gendered baseline text (reported as such)")
        return self


def control_perturbation(params: TreatmentShiftParams) -> str | None:
    """The perturbation the others are compared with: ``params.control``, or with ``auto`` the
    cognitive-bias control (:data:`clinaudit.perturb.cognitive.COGNITIVE_CONTROL`) when it is run."""
    from ...perturb.cognitive import COGNITIVE_CONTROL

    if params.control != "auto":
        return params.control
    treat, conv = all_perturbations(params)
    return COGNITIVE_CONTROL if COGNITIVE_CONTROL in treat + conv else None


def all_perturbations(params: TreatmentShiftParams) -> tuple[list[str], list[str]]:
    """(perturbations of the treatment part, perturbations crossed with the conversational settings)."""
    treat = list(params.perturbations) if params.treatment else []
    conv = params.conversation_perturbations
    if conv is None:
        conv = [p for p in params.perturbations if p not in ("uncertain", "colorful")]
    return treat, (list(conv) if params.settings else [])


def gender_plan(params: TreatmentShiftParams) -> GenderInferencePlan:
    """Whether and from which text the patient's gender is inferred (P2 Appendix D)."""
    treat, conv = all_perturbations(params)
    return gender_inference_plan(infer_gender=params.infer_gender, gender_inference_on=params.gender_inference_on,
                                 perturbations=treat + conv, treatment=params.treatment)
