"""Per-group classification metrics (METHODS §4.5, P4 §4.1–4.2), shared by every audit.

Plain metric functions ``f(y_true, y_pred)`` returning a float, NaN when the
metric is undefined for the data (never 0), and the multi-group gap expansion
(:func:`multigroup_gaps`), used by :class:`clinaudit.metrics.frame.Disaggregate`.
The F1-optimal threshold, the window merge and the bootstrap gap table of the
classifier-gaps audit live in :mod:`clinaudit.families.hurtful_words.classifier_metrics`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "positive_rate",
    "recall",
    "specificity",
    "accuracy",
    "multigroup_gaps",
    "as_binary",
]


def as_binary(y: Any, name: str) -> np.ndarray:
    """``y`` as an int array of 0/1 (ValueError naming ``name`` for anything else)."""
    arr = np.asarray(y, dtype=float).ravel()
    if np.isnan(arr).any() or not np.isin(arr, (0.0, 1.0)).all():
        raise ValueError(f"{name} must hold only 0/1 values")
    return arr.astype(np.int64)


def _ratio(num: int | float, den: int | float) -> float:
    return math.nan if den == 0 else float(num) / float(den)


def positive_rate(y_true: Any, y_pred: Any) -> float:
    """Share of cases predicted positive (the "parity" / selection rate).

    ``y_true`` is accepted for a uniform signature and ignored. NaN for an
    empty group.
    """
    p = as_binary(y_pred, "y_pred")
    return _ratio(int(p.sum()), p.size)


def recall(y_true: Any, y_pred: Any) -> float:
    """True-positive rate TP / (TP + FN). NaN (undefined) when the group has no positives."""
    t, p = as_binary(y_true, "y_true"), as_binary(y_pred, "y_pred")
    return _ratio(int(((t == 1) & (p == 1)).sum()), int((t == 1).sum()))


def specificity(y_true: Any, y_pred: Any) -> float:
    """True-negative rate TN / (TN + FP). NaN (undefined) when the group has no negatives."""
    t, p = as_binary(y_true, "y_true"), as_binary(y_pred, "y_pred")
    return _ratio(int(((t == 0) & (p == 0)).sum()), int((t == 0).sum()))


def accuracy(y_true: Any, y_pred: Any) -> float:
    """Share of correct predictions. NaN for an empty group."""
    t, p = as_binary(y_true, "y_true"), as_binary(y_pred, "y_pred")
    return _ratio(int((t == p).sum()), t.size)


def multigroup_gaps(values_by_group: Mapping[Any, float] | pd.Series) -> dict[Any, dict[str, Any]]:
    """Gap of each group to the group it differs from most (P4's multi-group expansion).

    For group j with value m_j, the comparison group is i* = argmax_{i≠j} |m_j − m_i|
    and gap_j = m_j − m_{i*}. With two groups this is the simple difference
    (gap_A = m_A − m_B, gap_B = m_B − m_A). Groups whose value is NaN get a
    NaN gap and are never chosen as i*; ties in |m_j − m_i| go to the first
    group in the input order. Returns ``{group: {"gap": float, "reference": group or None}}``.
    """
    items = list(values_by_group.items())
    out: dict[Any, dict[str, Any]] = {}
    for j, mj in items:
        best_gap, best_ref = math.nan, None
        if not _isnan(mj):
            best_abs = -1.0
            for i, mi in items:
                if i == j or _isnan(mi):
                    continue
                if abs(mj - mi) > best_abs:
                    best_abs, best_gap, best_ref = abs(mj - mi), float(mj - mi), i
        out[j] = {"gap": best_gap, "reference": best_ref}
    return out


def _isnan(x: Any) -> bool:
    return x is None or (isinstance(x, (float, np.floating)) and math.isnan(x))
