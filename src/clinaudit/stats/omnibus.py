"""Omnibus tests across several arms of one case (more than two related samples).

:func:`cochrans_q_test` — Cochran's Q for k ≥ 2 binary outcomes measured on the same
cases (statsmodels). The note-generation audit uses it for ΔCF: is the incidence of a
context the same under every counterfactual value of a dialog?

Null hypothesis: the probability of a 1 is the same in every column (arm), the cases
(rows) being blocks. Unit: the case; only cases observed under every arm enter (rows
with a missing value are dropped and not counted in ``n``). Q is referred to χ² with
k − 1 degrees of freedom (asymptotic; statsmodels).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np

from .core import StatResult

__all__ = ["cochrans_q_test"]


def cochrans_q_test(x: Sequence[Sequence[float]] | np.ndarray) -> StatResult:
    """Cochran's Q over the columns of a cases × arms 0/1 matrix (NaN = not observed).

    Returns ``StatResult("cochrans_q", Q, p, n, note)`` with ``n`` the complete rows.
    Degenerate cases are not errors: fewer than two columns or no complete row →
    NaN with a note; no row varies across the columns → Q = 0, p = 1.
    """
    from statsmodels.stats.contingency_tables import cochrans_q

    m = np.asarray(x, dtype=float)
    if m.ndim != 2:
        raise ValueError(f"cochrans_q_test needs a cases × arms matrix, got {m.ndim} dimension(s)")
    complete = m[~np.isnan(m).any(axis=1)] if m.size else m.reshape(0, m.shape[1] if m.ndim == 2 else 0)
    n = int(len(complete))
    if m.shape[1] < 2:
        return StatResult("cochrans_q", math.nan, math.nan, n, "fewer than two arms")
    if n == 0:
        return StatResult("cochrans_q", math.nan, math.nan, 0, "no case observed under every arm")
    if not np.isin(complete, (0.0, 1.0)).all():
        raise ValueError("cochrans_q_test needs 0/1 values")
    if (complete.max(axis=1) == complete.min(axis=1)).all():
        return StatResult("cochrans_q", 0.0, 1.0, n, "no case varies across arms")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cochrans_q(complete.astype(int), return_object=True)
    return StatResult("cochrans_q", float(res.statistic), float(res.pvalue), n, "")
