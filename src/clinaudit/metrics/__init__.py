"""Metrics shared by every audit: plain functions plus one disaggregation layer.

Each metric is a plain function; undefined values are NaN, never 0.

- association (P4): :func:`bias_score_summary`
- classifier gaps (P4): :func:`positive_rate`, :func:`recall`, :func:`specificity`,
  :func:`multigroup_gaps`, :func:`f1_optimal_threshold`, :func:`merge_window_probs`,
  :func:`classifier_gap_table`, :func:`gap_summary`
- disaggregation: :class:`Disaggregate`

Incidence disparities (P1) are the note-generation family's:
:mod:`clinaudit.families.note_generation.metrics`; the reasoning metrics (P3: ΔAcc, ΔLen,
semantic drift, rethink ratio) the reasoning_care family's:
:mod:`clinaudit.families.reasoning_care.metrics`; treatment shift (P2: TSR, RCR, RCER) the
treatment_shift family's: :mod:`clinaudit.families.treatment_shift.metrics`.

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

__all__ = [
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
