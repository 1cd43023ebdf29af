"""Spec parameters of the hurtful_words audits (``params:`` of an ``association`` or
``classifier_gaps`` spec; paths are relative to the spec file)."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


__all__ = [
    "AssociationParams",
    "PrevalenceSource",
    "ScoresFile",
    "TestName",
    "PUBLISHED_TESTS",
    "DEFAULT_TESTS",
    "ClassifierGapsParams",
    "ProbeParams",
    "DebiasParams",
    "HurtfulWordsPipelineParams",
    "SyntheticSource",
    "TinyModel",
    "TaskWindows",
    "ChainAssociation",
]


class AdversaryConfig(BaseModel):
    """The adversarial head of pretraining (P4 §4.4, Fig. 3; P4's published runs: λ = 1.0, 3 layers)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    attribute: str = Field(default="gender", description="protected attribute of each text (a notes column)")
    lambda_: float = Field(default=1.0, alias="lambda", ge=0, description="gradient-reversal strength (P4: 1.0)")
    layers: int = Field(default=3, ge=1, description="discriminator layers, widths halving (P4: 3)")
    learning_rate: float | None = Field(default=None, gt=0, description="the discriminator's peak learning rate "
                                        "(default: the encoder's, as in P4)")
    normalize: bool = Field(default=False, description="standardise the [CLS] input per batch (not in P4; "
                            "helps small, freshly initialised encoders)")


class PretrainPhase(BaseModel):
    """One phase of a multi-phase schedule: its own sequence length, steps and batch size (P4: 128 then 512)."""

    model_config = ConfigDict(extra="forbid")
    max_length: int = Field(ge=8, description="tokens per sequence in this phase")
    max_steps: int = Field(ge=1, description="optimiser steps of this phase")
    batch_size: int | None = Field(default=None, ge=1, description="sequences per step (default: the config's)")


class PretrainConfig(BaseModel):
    """Continued-pretraining settings (defaults: a tiny model on CPU; P4's bert-base values in the docs)."""

    model_config = ConfigDict(extra="forbid")
    max_steps: int = Field(default=200, ge=1, description="optimiser steps (P4: one epoch at 128 + one at 512)")
    batch_size: int = Field(default=16, ge=1, description="sequences per step (P4: 32 at length 128)")
    max_length: int = Field(default=128, ge=8, description="tokens per sequence; longer texts are cut into chunks")
    learning_rate: float = Field(default=5e-4, gt=0, description="peak AdamW learning rate (P4: 3e-5)")
    warmup_ratio: float = Field(default=0.1, ge=0, lt=1, description="share of steps of linear warm-up (P4: 0.1)")
    weight_decay: float = Field(default=0.01, ge=0, description="AdamW weight decay (P4: 0.01)")
    mlm_probability: float = Field(default=0.15, gt=0, lt=1, description="share of words masked")
    whole_word_mask: bool = True
    replace_phi: bool = True
    logging_steps: int = Field(default=10, ge=1)
    save_steps: int = Field(default=100, ge=1, description="checkpoint every N steps (OUT/checkpoints)")
    save_total_limit: int | None = Field(default=2, ge=1, description="checkpoints kept")
    seed: int = 0
    device: str = Field(default="auto", description="auto (GPU when present), cpu or cuda")
    cpu_threads: int | None = Field(default=1, ge=1, description="torch threads on CPU (1: fastest for tiny "
                                    "models on a shared machine; None: torch's default)")
    adversary: AdversaryConfig | None = None
    phases: list[PretrainPhase] | None = Field(
        default=None, min_length=1, description="a schedule of phases run one after the other, each continuing "
        "from the previous one's weights with its own max_length / max_steps / batch_size (P4: [{max_length: 128, "
        "...}, {max_length: 512, ...}]); replaces max_steps and max_length")


# --------------------------------------------------------------------------- association


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
#: the tests of HurtfulWords' statistical_significance.txt, in its order: ranksums, ttest_ind, ks_2samp (male, female)
PUBLISHED_TESTS: tuple[TestName, ...] = ("rank-sum", "t", "ks")
#: the default of a model run (and of a tidy score table): the frame-level sign-flip first (it fills the summary's
#: p; its rows are the ones that can be bias), P4's signed-rank beside it (labelled sentence-level, never bias)
DEFAULT_TESTS: tuple[TestName, ...] = ("sign-flip", "signed-rank")
Split = Literal["train", "valid", "test"]
# the defaults of list fields, typed as their items
_TRAIN: tuple[Split, ...] = ("train",)


class AssociationParams(BaseModel):
    """Parameters of the ``association`` recipe (paths relative to the spec file)."""

    model_config = ConfigDict(extra="forbid")

    templates: str | None = Field(default=None, description="templates file (HurtfulWords templates.txt or YAML)")
    attributes: str | None = Field(default=None,
                                   description="attributes file (attribute,category,subgroup CSV or YAML)")
    scores: list[ScoresFile] | None = Field(default=None, description="existing per-sentence scores: no model calls")
    scores_format: Literal["tidy", "hurtfulwords"] = "tidy"
    tests: list[TestName] = Field(default_factory=lambda: list(DEFAULT_TESTS), min_length=1,
                                  description="sign-flip (over template frames: the frame is the unit; the only "
                                  "test whose rows can be bias), signed-rank (paired sentences, P4's text), rank-sum, "
                                  "ks, t (unpaired sentences, P4's published code); the first fills the summary's p. "
                                  "Default: sign-flip, signed-rank; for scores_format hurtfulwords the published "
                                  "rank-sum, t, ks")
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

    @model_validator(mode="before")
    @classmethod
    def _published_tests(cls, data: object) -> object:
        """HurtfulWords' own scores: by default the three tests its ``statistical_significance.txt`` reports."""
        if isinstance(data, dict) and data.get("tests") is None:
            data = {k: v for k, v in data.items() if k != "tests"}
            if data.get("scores") and data.get("scores_format") == "hurtfulwords":
                data["tests"] = list(PUBLISHED_TESTS)
        return data

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


# --------------------------------------------------------------------------- classifier gaps


class DebiasParams(BaseModel):
    """Adversarial debiasing on the probe's features (see :mod:`.debias`)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    attribute: str = Field(description="protected attribute (one of the probe's group fields)")
    lambda_: float = Field(default=1.0, alias="lambda", ge=0, description="gradient-reversal strength")
    hidden: int = Field(default=64, ge=1)
    representation: int = Field(default=32, ge=1)
    epochs: int = Field(default=300, ge=1)
    lr: float = Field(default=1e-2, gt=0)
    weight_decay: float = Field(default=1e-4, ge=0)
    adversary_steps: int = Field(default=3, ge=1)


class ProbeParams(BaseModel):
    """Train probes on frozen encoder features of the spec's cases (``models.encoder``)."""

    model_config = ConfigDict(extra="forbid")
    preset: Literal["craftmd"] | None = Field(
        default=None, description="craftmd: one-vs-rest specialty tasks, sex and race read from the vignette")
    top_k: int = Field(default=3, ge=1, description="craftmd: tasks for the k most frequent categories")
    label_fields: list[str] = Field(default_factory=list, description="case fields holding 0/1 labels, one task each")
    group_fields: list[str] = Field(default_factory=list, description="case fields holding protected attributes")
    split_field: str | None = Field(default=None, description="case field with train/valid/test (else a seeded split)")
    covariates: list[str] = Field(default_factory=list, description="numeric case fields appended (standardised)")
    fractions: tuple[float, float, float] = (0.6, 0.2, 0.2)
    sample: int | None = Field(default=None, ge=1, description="probe a seeded sample of this many cases")
    window_words: int = Field(default=0, ge=0, description="words per window; 0 = one window per text")
    window_stride: int | None = Field(default=None, ge=1, description="words between window starts (default: length)")
    max_windows: int = Field(default=10, ge=1)
    windows_field: str | None = Field(default=None, description="case field holding a JSON list of window texts "
                                      "made upstream (replaces window_words)")
    hidden_sizes: list[list[int]] = Field(default_factory=lambda: [[64], [128, 64]])
    alphas: list[float] = Field(default_factory=lambda: [1e-4, 1e-2])
    c_grid: list[float] = Field(default_factory=lambda: [0.5, 1.0, 2.0, 4.0, 8.0])
    max_iter: int = Field(default=300, ge=1)
    debias: DebiasParams | None = None

    @model_validator(mode="after")
    def _check(self) -> "ProbeParams":
        if self.preset is None and not self.label_fields:
            raise ValueError("give label_fields (0/1 case fields, one task each) or preset: craftmd")
        if any(f < 0 for f in self.fractions) or not math.isclose(sum(self.fractions), 1.0, abs_tol=1e-6):
            raise ValueError("fractions (train, valid, test) must be non-negative and sum to 1")
        return self


class ClassifierGapsParams(BaseModel):
    """Parameters of the ``classifier_gaps`` recipe (paths relative to the spec file)."""

    model_config = ConfigDict(extra="forbid")

    predictions: str | None = Field(default=None, description="predictions CSV (else the data sources' paths)")
    task_column: str | None = Field(default="task", description="task column (None: one task)")
    label_column: str = "label"
    score_column: str | None = Field(default=None, description="scores in [0, 1] (thresholded per task)")
    pred_column: str | None = Field(default=None, description="binary predictions (used as given)")
    group_columns: list[str] = Field(default_factory=list, description="protected attributes")
    split_column: str | None = Field(default=None, description="split column (validation / test rows)")
    valid_split: str = "valid"
    test_split: str = "test"
    threshold: float | None = Field(default=None, description="fixed threshold for every task (no tuning)")
    fallback_threshold: float = Field(default=0.5, description="used when a task's validation has no positives")
    exclude_groups: list[str] = Field(default_factory=list, description="group values dropped (e.g. UNKNOWN)")
    n_resamples: int = Field(default=1000, ge=1, description="bootstrap resamples of the test rows (CIs)")
    n_permutations: int = Field(default=9999, ge=1, description="relabellings of the group for every gap's "
                                "permutation p (its smallest value is 1 / (n_permutations + 1))")
    reference_group: dict[str, str] = Field(default_factory=dict, description="attribute → group every other "
                                            "group is compared with, declared before the data (default: the group "
                                            "each group differs from most, P4)")
    comparison: Literal["largest_gap", "rest"] = Field(
        default="largest_gap", description="the reference of an attribute without a reference_group: largest_gap "
        "(the group each group differs from most, re-chosen in every permutation, P4) or rest (each group against "
        "all the other groups' rows: one fixed question per group, more power against one deviant group)")
    confidence: float = Field(default=0.95, gt=0, lt=1)
    correction: str = "fdr_bh"
    alpha: float = Field(default=0.05, gt=0, lt=1, description="level for the BH-corrected counts")
    probe: ProbeParams | None = None

    @model_validator(mode="after")
    def _check(self) -> "ClassifierGapsParams":
        if self.probe is None:
            if (self.score_column is None) == (self.pred_column is None):
                raise ValueError("give exactly one of score_column or pred_column")
            if not self.group_columns:
                raise ValueError("group_columns must name at least one protected attribute")
            unknown = [a for a in self.reference_group if a not in self.group_columns]
            if unknown:
                raise ValueError(f"reference_group names {', '.join(unknown)}, not in group_columns")
        return self


# --------------------------------------------------------------------------- the whole chain (hurtfulwords_pipeline)


class SyntheticSource(BaseModel):
    """Synthetic MIMIC-III-schema tables written into the run directory (``clinaudit synth-mimic``)."""

    model_config = ConfigDict(extra="forbid")
    patients: int = Field(default=150, ge=10)
    seed: int = 0


class TinyModel(BaseModel):
    """A randomly initialised small BERT whose WordPiece vocabulary is BERT's uncased one cut down to the pieces
    the pretraining corpus uses (``vocab_size`` at most; ``pretrain.tiny_vocab``): the same model for the same
    corpus and seed."""

    model_config = ConfigDict(extra="forbid")
    vocab_size: int = Field(default=800, ge=50)
    hidden: int = Field(default=32, ge=8)
    layers: int = Field(default=4, ge=4, description="at least 4: the task heads read the last four layers' [CLS]")
    heads: int = Field(default=2, ge=1)
    intermediate: int = Field(default=64, ge=8)
    max_position: int = Field(default=256, ge=16)


class TaskWindows(BaseModel):
    """How the task tables cut notes into windows (:class:`.mimic_tasks.TaskOptions`; defaults: P4's)."""

    model_config = ConfigDict(extra="forbid")
    window: int = Field(default=510, ge=8)
    stride: int = Field(default=256, ge=1)
    max_windows: int = Field(default=10, ge=1)
    max_sequences: int = Field(default=30, ge=1)


class ChainAssociation(BaseModel):
    """Association scores (P4 Table 3) of both encoders; files default to the project's demo templates."""

    model_config = ConfigDict(extra="forbid")
    templates: str | None = None
    attributes: str | None = None
    targets: str | None = None
    mask_mode: Literal["word", "token"] = "word"
    tests: list[TestName] = Field(default_factory=lambda: list(DEFAULT_TESTS), min_length=1)
    correction: Literal["bonferroni", "fdr_bh", "holm"] = "bonferroni"
    alpha: float = Field(default=0.01, gt=0, lt=1)
    n_bootstrap: int = Field(default=1000, ge=0)


class HurtfulWordsPipelineParams(BaseModel):
    """Parameters of ``hurtfulwords_pipeline``: MIMIC (or synthetic) tables → 57 tasks → two encoders → Tables 3–5."""

    model_config = ConfigDict(extra="forbid")
    mimic: str | None = Field(default=None, description="folder of the MIMIC-III CSV(.gz) tables (your copy)")
    synthetic: SyntheticSource | None = Field(default=None, description="or: synthetic tables (no credentials)")
    test_subjects: str | None = Field(default=None, description="held-out test patients (SUBJECT_ID list)")
    windows: TaskWindows = Field(default_factory=TaskWindows)
    base_model: str = Field(default="tiny", description="local masked LM folder, or 'tiny' (built here)")
    tiny: TinyModel = Field(default_factory=TinyModel)
    pretrain: PretrainConfig = Field(default_factory=PretrainConfig)
    debias: AdversaryConfig = Field(default_factory=AdversaryConfig,
                                      description="the adversarial head of the debiased encoder (P4: gender, λ=1)")
    pretrain_splits: list[Split] = Field(
        default_factory=lambda: list(_TRAIN), description="whose notes the encoders are pretrained on (P4: all notes)")
    group_columns: list[str] = Field(default_factory=lambda: ["gender", "language_group", "ethnicity_group",
                                                              "insurance_group"])
    probe: dict[str, object] = Field(default_factory=dict, description="ProbeParams fields for the task heads; "
                                     "hidden_sizes: paper = P4's grid")
    association: ChainAssociation = Field(default_factory=ChainAssociation)
    n_resamples: int = Field(default=1000, ge=1)
    confidence: float = Field(default=0.95, gt=0, lt=1)
    correction: str = "fdr_bh"
    alpha: float = Field(default=0.05, gt=0, lt=1)

    @model_validator(mode="after")
    def _check(self) -> "HurtfulWordsPipelineParams":
        if (self.mimic is None) == (self.synthetic is None):
            raise ValueError("give exactly one of mimic (a MIMIC-III folder) or synthetic")
        if self.debias.attribute not in self.group_columns:
            raise ValueError(f"debias.attribute '{self.debias.attribute}' must be one of group_columns")
        return self

