"""The metrics ``clinaudit compare`` compares, with their direction, read from the metric declarations.

Each family declares its metrics (:mod:`clinaudit.metrics.declared`); a declaration with ``compare``
(per-pair scores) is compared. Each :class:`CompareMetric` turns one run's ``tables/paired.csv`` (the audit's pairs, keyed by
``case_id``) into per-pair scores ``(case_id, score)``; ``clinaudit compare`` pairs the scores of two
runs by case and tests the per-case difference (:mod:`clinaudit.report.compare`). ``direction`` says
which way is better: ``"lower"`` (a shift, a gap, a drift: less is better), ``"higher"`` (accuracy:
more is better) or ``""`` (no declared direction: the verdict then says only *higher* / *lower*).

An audit that declares no compared metric is compared on every numeric column of its
paired table (direction unknown).

Besides pooled, every metric is compared per level of each stratum column its scores carry
(:data:`STRATA`: ``perturbation``, ``attribute``, ``question``; a declaration's ``compare`` function keeps
them with :func:`clinaudit.metrics.declared.pair_scores_frame`). The margin is the declaration's
(:attr:`clinaudit.metrics.declared.MetricDecl.default_margin`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ..metrics.declared import COMPARE_STRATA

__all__ = ["CHANGED", "DIRECTIONS", "KEY_COLUMNS", "POOLED", "STRATA", "VERDICTS", "CompareMetric",
           "declared_compare_metrics", "generic_metrics", "metrics_for", "read_run_table"]

DIRECTIONS = ("lower", "higher", "")

#: the per-pair score columns a metric is compared within, level by level, as well as pooled
STRATA = COMPARE_STRATA
POOLED = "pooled"  #: the ``stratum`` of a comparison row over every pair
#: every verdict a comparison row can carry
VERDICTS = ("better", "worse", "higher", "lower", "within_margin", "inconclusive")
#: the verdicts that say the runs differ
CHANGED = ("better", "worse", "higher", "lower")

#: paired-table columns that identify a pair rather than measure it (never compared as metrics)
KEY_COLUMNS = frozenset({"case_id", "seed", "seed_b", "target_index", "position", "row", "source_row", "index",
                         "variant_id", "item_id", "frame", "template_id", "id"})


def read_run_table(run: Path, name: str) -> pd.DataFrame:
    """``RUN/tables/<name>.csv`` as the run store reads it (empty cells NaN); empty frame when absent."""
    path = run / "tables" / f"{name}.csv"
    if not path.is_file():
        return pd.DataFrame()
    try:
        from ..rundir import read_store_table

        return read_store_table(path, low_memory=False)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    except (ValueError, pd.errors.ParserError) as exc:
        raise InputError(f"unreadable table: {exc}", file=str(path)) from None


@dataclass(frozen=True)
class CompareMetric:
    """One compared metric: ``score(paired) -> DataFrame[case_id, score]`` (NaN score = pair not usable)."""

    name: str
    direction: str  # "lower" | "higher" | "" (see module doc)
    description: str
    score: Callable[[pd.DataFrame], pd.DataFrame]
    scale: str = "proportion"  # "proportion" (0–1 rates: printed in percentage points) or "other"
    #: ± difference B − A that counts as no change (None: none, so never ``within_margin``)
    margin: float | None = None
    strata: tuple[str, ...] = STRATA  #: columns of the scored pairs compared level by level

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise ValueError(f"direction of {self.name} must be one of {DIRECTIONS}")


def _frame(paired: pd.DataFrame, score: np.ndarray | pd.Series) -> pd.DataFrame:
    from ..metrics.declared import pair_scores_frame

    return pair_scores_frame(paired, score)


def _column(col: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    def score(paired: pd.DataFrame) -> pd.DataFrame:
        return _frame(paired, pd.to_numeric(paired[col], errors="coerce") if col in paired.columns
                      else np.full(len(paired), np.nan))
    return score


def declared_compare_metrics(audit: str) -> tuple[CompareMetric, ...]:
    """The metrics ``audit`` declares with per-pair scores (:mod:`clinaudit.metrics.declared`)."""
    from ..metrics.declared import declared_metrics

    out = []
    for d in declared_metrics(audit).values():
        if d.compare is not None:
            out.append(CompareMetric(d.name, d.compare_direction, d.description, d.compare,
                                     scale="proportion" if d.scale == "proportion" else "other",
                                     margin=d.default_margin))
    return tuple(out)


def generic_metrics(paired: pd.DataFrame) -> tuple[CompareMetric, ...]:
    """Every numeric, non-key column of a paired table as a metric without a direction."""
    out = []
    for col in paired.columns:
        if col in KEY_COLUMNS or col.startswith("_"):
            continue
        vals = pd.to_numeric(paired[col], errors="coerce")
        if vals.notna().sum() == 0 or paired[col].dtype == bool:
            continue
        finite = vals.dropna()
        scale = "proportion" if finite.between(0, 1).all() else "other"
        out.append(CompareMetric(str(col), "", f"mean of the paired table's column '{col}'", _column(str(col)),
                                 scale=scale, margin=0.05 if scale == "proportion" else None))
    return tuple(out)


def metrics_for(audit: str, paired: pd.DataFrame) -> tuple[CompareMetric, ...]:
    """The declared metrics of ``audit``, or :func:`generic_metrics` of its paired table."""
    return declared_compare_metrics(audit) or generic_metrics(paired)
