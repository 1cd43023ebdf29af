"""Metrics shared by every audit: plain functions plus one disaggregation layer.

Each metric is a plain function; undefined values are NaN, never 0.

- treatment shift (P2): :func:`tsr`, :func:`rcr`, :func:`rcer`, :func:`treatment_shift_table`,
  :func:`subgroup_gap`, :func:`agreement_matrix`
- association (P4): :func:`bias_score_summary`
- classifier gaps (P4): :func:`positive_rate`, :func:`recall`, :func:`specificity`,
  :func:`multigroup_gaps`, :func:`f1_optimal_threshold`, :func:`merge_window_probs`,
  :func:`classifier_gap_table`, :func:`gap_summary`
- disaggregation: :class:`Disaggregate`

Incidence disparities (P1) are the note-generation family's:
:mod:`clinaudit.families.note_generation.metrics`; the reasoning metrics (P3: ΔAcc, ΔLen,
semantic drift, rethink ratio) the reasoning_care family's:
:mod:`clinaudit.families.reasoning_care.metrics`.

Formulas and our readings: ``docs/metrics.md``.
"""

from .association import bias_score_summary
from .classifier import (
    accuracy,
    classifier_gap_table,
    f1_optimal_threshold,
    gap_summary,
    merge_window_probs,
    multigroup_gaps,
    positive_rate,
    recall,
    specificity,
)
from .frame import Disaggregate
from .treatment_shift import (
    CARE_PLUS,
    NOISE_FLOOR,
    agreement_matrix,
    care_plus,
    rcer,
    rcr,
    subgroup_gap,
    treatment_shift_table,
    tsr,
)

__all__ = [
    "CARE_PLUS",
    "NOISE_FLOOR",
    "care_plus",
    "tsr",
    "rcr",
    "rcer",
    "treatment_shift_table",
    "subgroup_gap",
    "agreement_matrix",
    "bias_score_summary",
    "positive_rate",
    "recall",
    "specificity",
    "accuracy",
    "multigroup_gaps",
    "f1_optimal_threshold",
    "merge_window_probs",
    "classifier_gap_table",
    "gap_summary",
    "Disaggregate",
]
