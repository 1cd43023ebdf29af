"""Metrics shared by every audit: plain functions plus one disaggregation layer.

Each metric is a plain function; undefined values are NaN, never 0.

- per-group classification metrics: :func:`positive_rate`, :func:`recall`, :func:`specificity`,
  :func:`accuracy`, :func:`multigroup_gaps`
- disaggregation: :class:`Disaggregate`

Incidence disparities (P1) are the note-generation family's:
:mod:`clinaudit.families.note_generation.metrics`; the reasoning metrics (P3: ΔAcc, ΔLen,
semantic drift, rethink ratio) the reasoning_care family's:
:mod:`clinaudit.families.reasoning_care.metrics`; treatment shift (P2: TSR, RCR, RCER) the
treatment_shift family's: :mod:`clinaudit.families.treatment_shift.metrics`; the association
bias scores and the classifier-gap table (P4) the hurtful_words family's:
:mod:`clinaudit.families.hurtful_words.association_stats`,
:mod:`clinaudit.families.hurtful_words.classifier_metrics`.

Formulas and our readings: ``docs/metrics.md``.
"""

from .classifier import (
    accuracy,
    multigroup_gaps,
    positive_rate,
    recall,
    specificity,
)
from .frame import Disaggregate

__all__ = [
    "positive_rate",
    "recall",
    "specificity",
    "accuracy",
    "multigroup_gaps",
    "Disaggregate",
]
