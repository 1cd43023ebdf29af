"""Inter-rater agreement of several raters (judge juries): Krippendorff's α with a case-clustered CI,
and the split of a paired comparison by a case-level stratum (clinically relevant or not).

α comes from the maintained ``krippendorff`` package (Castro, ``krippendorff==0.9.0``), which
implements Krippendorff (2011), *Computing Krippendorff's alpha-reliability*; this module only
codes the labels, guards the degenerate cases and resamples.

**CI of α.** Percentile bootstrap over *cases* (the unit of resampling of every clinaudit
statistic): a resample draws as many cases as there are, with replacement, and every rated unit
(item × field) of a drawn case enters, so the units of one case (its variants, seeds, questions)
move together. α is computed on each resample from the per-unit value counts (α depends on the
data only through them), so a resample is one call of the package on a resampled count matrix.
No test is attached to α (it is a descriptive reliability coefficient; Krippendorff's own
bootstrap is of the same kind).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .core import bootstrap_indices, percentile_ci

__all__ = ["AlphaResult", "krippendorff_alpha", "value_counts_matrix", "split_by_stratum"]

#: Krippendorff's levels of measurement
Level = Literal["nominal", "ordinal", "interval", "ratio"]


@dataclass(frozen=True)
class AlphaResult:
    """Krippendorff's α of one reliability table, its case-bootstrap CI and what it was computed on."""

    alpha: float
    ci_low: float
    ci_high: float
    n_units: int  # units with at least two ratings (the pairable units α uses)
    n_cases: int
    n_raters: int
    level: str
    note: str = ""


def value_counts_matrix(data: Sequence[Sequence[Any]] | np.ndarray) -> tuple[np.ndarray, list[Any]]:
    """Raters × units labels (``None``/NaN = missing) → units × values counts, and the value order."""
    arr = np.asarray(data, dtype=object)
    if arr.ndim != 2:
        raise ValueError("reliability data must be a raters × units table")
    labels = [None if _missing(x) else _label(x) for x in arr.ravel(order="F")]
    codes, uniques = pd.factorize(pd.Series(labels, dtype=object), sort=True, use_na_sentinel=True)
    codes = codes.reshape(arr.shape[1], arr.shape[0])  # units × raters (column-major ravel)
    counts = np.zeros((arr.shape[1], len(uniques)), dtype=float)
    for k in range(len(uniques)):
        counts[:, k] = (codes == k).sum(axis=1)
    return counts, list(uniques)


def _missing(x: Any) -> bool:
    if x is None:
        return True
    try:
        return bool(pd.isna(x))
    except (TypeError, ValueError):
        return False


def _label(x: Any) -> str:
    """Nominal label as text; a whole float (1.0) reads as the integer (1), so 1 and 1.0 agree."""
    if isinstance(x, (float, np.floating)) and float(x).is_integer():
        return str(int(x))
    if isinstance(x, (bool, np.bool_)):
        return str(int(x))
    return str(x)


def _alpha_from_counts(counts: np.ndarray, level: Level) -> float:
    import krippendorff

    pairable = counts[counts.sum(axis=1) >= 2]
    if pairable.shape[0] == 0 or (pairable.sum(axis=0) > 0).sum() < 2:
        return math.nan  # no pairable unit, or one value only: expected disagreement 0, α undefined
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(krippendorff.alpha(value_counts=pairable, level_of_measurement=level))


def krippendorff_alpha(
    data: Sequence[Sequence[Any]] | np.ndarray,
    cases: Sequence[Any] | None = None,
    *,
    level: Level = "nominal",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | np.random.Generator | None = 0,
) -> AlphaResult:
    """Krippendorff's α of a raters × units table with a percentile bootstrap CI over cases.

    ``data``: one row per rater (judge), one column per unit (an item's field); ``None`` / NaN
    where a rater gave no usable verdict (unparseable verdicts are missing, never a value).
    ``cases``: the case of each unit (units of one case are resampled together); default: every
    unit its own case. Labels are compared as text for ``nominal``; for other levels they must be
    numbers. α is NaN (with a note) when no unit has two ratings or only one value occurs.
    """
    arr = np.asarray(data, dtype=object)
    if arr.ndim != 2:
        raise ValueError("reliability data must be a raters × units table")
    n_units_all = arr.shape[1]
    case_ids = np.arange(n_units_all).astype(str) if cases is None else np.asarray(list(cases), dtype=object).astype(str)
    if len(case_ids) != n_units_all:
        raise ValueError(f"cases has {len(case_ids)} labels for {n_units_all} units")
    if level == "nominal":
        counts, _ = value_counts_matrix(arr)
    else:
        import krippendorff

        num = pd.DataFrame(arr).apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
        domain = np.unique(num[~np.isnan(num)])
        counts = np.stack([(num == v).sum(axis=0) for v in domain], axis=1).astype(float) if domain.size else \
            np.zeros((n_units_all, 0))
        if domain.size >= 2 and (counts.sum(axis=1) >= 2).any():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                a = float(krippendorff.alpha(reliability_data=num, level_of_measurement=level))
        else:
            a = math.nan
    keep = counts.sum(axis=1) >= 2
    n_units = int(keep.sum())
    if level == "nominal":
        a = _alpha_from_counts(counts, level)
    note = ""
    if n_units == 0:
        note = "undefined: no unit has two usable ratings"
    elif math.isnan(a):
        note = "undefined: every usable rating is one and the same value (no expected disagreement)"
    counts, case_ids = counts[keep], case_ids[keep]
    codes, uniques = pd.factorize(pd.Series(case_ids, dtype=object), sort=True)
    n_cases = len(uniques)
    lo = hi = math.nan
    if n_units and not math.isnan(a) and n_resamples > 0 and level == "nominal":
        per_case = [counts[codes == c] for c in range(n_cases)]
        idx = bootstrap_indices(n_cases, n_resamples, seed=seed)
        vals = np.array([_alpha_from_counts(np.concatenate([per_case[c] for c in row]), level) for row in idx])
        lo, hi = percentile_ci(vals, confidence)
    elif n_units and not math.isnan(a) and n_resamples > 0:
        note = (note + "; " if note else "") + "CI only for nominal data"
    return AlphaResult(alpha=a, ci_low=lo, ci_high=hi, n_units=n_units, n_cases=n_cases, n_raters=int(arr.shape[0]),
                       level=level, note=note)


def split_by_stratum(
    scores: pd.DataFrame,
    stratum: str,
    counted: Sequence[Any],
    *,
    by: Sequence[str] = (),
    family_cols: Sequence[str] | None = None,
    **compare: Any,
) -> pd.DataFrame:
    """A :class:`~clinaudit.stats.PairedFrame` comparison reported separately per value of a case-level
    ``stratum`` column (e.g. ``relevance``: ``relevant`` / ``irrelevant`` / ``unknown``).

    ``compare`` goes to :meth:`PairedFrame.compare` (``case``, ``arm``, ``score``, ``control`` are
    constructor arguments and are taken from it too). Each row carries ``stratum`` and
    ``counts_toward_verdict`` (True where the row's stratum value is in ``counted``); the correction
    family is kept within a stratum value (``family_cols`` + the stratum), so rows that do not count
    never share a family with rows that do.
    """
    from .paired import PairedFrame

    ctor = {k: compare.pop(k) for k in ("case", "arm", "score", "control") if k in compare}
    if stratum not in scores.columns:
        raise KeyError(f"the paired table lacks the stratum column {stratum!r}")
    d = scores.copy()
    d[stratum] = d[stratum].astype(str)
    fam = list(family_cols) + [stratum] if family_cols is not None else None
    out = PairedFrame(d, by=[*by, stratum], **ctor).compare(family_cols=fam, **compare)
    if len(out):
        out["counts_toward_verdict"] = out[stratum].isin([str(c) for c in counted])
    else:
        out["counts_toward_verdict"] = pd.Series(dtype=bool)
    return out
