"""Serial gatekeeping of a primary and a secondary family (docs/verdicts.md, *The run-level family*).

Clinical trials test their primary endpoint first and spend alpha on secondary endpoints only through it. The
procedure here is **serial gatekeeping** (Westfall & Krishen 2001; Dmitrienko & Tamhane, *Gatekeeping procedures
in clinical trials*, 2007): the primary family is tested by Holm at ``alpha``; the secondary family is tested, by
Holm at the full ``alpha``, only when **every** primary hypothesis is rejected. It controls the family-wise error
over both families in the strong sense (a closed testing procedure), whatever the dependence between the rows.

As adjusted p-values (compared with ``alpha`` like any corrected p): a primary row's is its Holm value within the
primary family; a secondary row's is the larger of the primary family's largest Holm value (the gate) and its own
Holm value within the secondary family. The Holm values are statsmodels ``multipletests(method="holm")``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["serial_gatekeeping"]


def serial_gatekeeping(p: np.ndarray, primary: np.ndarray) -> np.ndarray:
    """Adjusted p-values of serial gatekeeping: Holm within the primary rows; a secondary row's value is
    ``max(max primary Holm, its Holm within the secondary rows)`` (so it is below alpha only when every primary
    row is). ``p``: raw p-values (no NaN); ``primary``: booleans of the same length. Without a primary row the
    secondary rows are one Holm family (no gate)."""
    from statsmodels.stats.multitest import multipletests

    raw = np.asarray(p, dtype=float)
    first = np.asarray(primary, dtype=bool)
    if raw.shape != first.shape:
        raise ValueError(f"p has {raw.size} values but primary {first.size}")
    if np.isnan(raw).any():
        raise ValueError("serial_gatekeeping needs a p-value on every row (NaN given)")
    out = np.full(raw.shape, np.nan)
    gate = 0.0
    if first.any():
        out[first] = multipletests(raw[first], method="holm")[1]
        gate = float(out[first].max())
    if (~first).any():
        out[~first] = np.maximum(gate, multipletests(raw[~first], method="holm")[1])
    return out
