"""Metric declarations: what each reported metric means for a verdict and for ``clinaudit compare``.

Every audit family (and plugin) declares its metrics once, as registered pieces of the
``metric`` kind (:func:`declare_metrics`); the core reads the declarations
(:func:`declared_metrics`, :func:`declaration_for`) and never names a family's metrics itself.

A :class:`MetricDecl` says

- ``name``: the value of the ``metric`` column of ``tables/results.csv`` it describes (and/or the
  name ``clinaudit compare`` prints);
- ``direction``: ``higher_is_worse`` (a shift, a gap, a flip rate), ``higher_is_better``
  (accuracy) or ``two_sided`` (a difference whose sign has no preferred side);
- ``scale`` and ``margin``: the equivalence margin of the verdicts, in the row's own units
  (``proportion``: 0.05 = 5 percentage points; ``percent``: 5.0 percentage points; ``standardized``
  (an effect size such as Cohen's d): 0.2; ``other``: no default — a spec sets it with
  ``verdicts.margins``, otherwise the row cannot be shown within a margin);
- ``effect``: True for a comparison (a difference, an excess over a floor, a gap: the row is
  tested against ``null``), False for a level (a rate, an accuracy, a parse rate) that is reported
  but is no effect;
- ``null``: the value of "no effect" (0 for differences; 0.5 for an AUC);
- ``compare``: per-pair scores ``paired.csv -> DataFrame[case_id, score]`` that ``clinaudit
  compare`` pairs between two runs (None: the metric is not compared);
- ``primary``: True for the metric of the audit's primary question (docs/verdicts.md, *The primary question*):
  its effect rows are tested first and the headline and ``clinaudit gate`` decide on them; a spec's
  ``verdicts.primary`` overrides the declaration;
- ``group_units``: optional ``results -> Series`` of the smallest number of independent units
  behind each row's groups (e.g. positives per group for a recall gap); the validity gates hold
  it against ``verdicts.min_per_group``.

Declaring (in the family's own module; the registry finds the ``declare_metrics`` call there)::

    from clinaudit.metrics.declared import MetricDecl, declare_metrics

    declare_metrics("my_audit",
        MetricDecl("flip_rate", "higher_is_worse", description="share of pairs whose answer changed"),
    )
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

__all__ = [
    "COMPARE_STRATA",
    "DEFAULT_MARGINS",
    "DIRECTIONS",
    "SCALES",
    "MetricDecl",
    "declaration_for",
    "declare_metrics",
    "register_metric_decls",
    "declared_metrics",
    "metric_key",
    "numeric_column",
    "pair_scores_frame",
    "smallest_count",
]

DIRECTIONS = ("higher_is_worse", "higher_is_better", "two_sided")
#: default margin per scale, in the row's own units (None: no default; a spec must set it)
DEFAULT_MARGINS: dict[str, float | None] = {"proportion": 0.05, "percent": 5.0, "standardized": 0.2, "other": None}
SCALES = tuple(DEFAULT_MARGINS)


@dataclass(frozen=True)
class MetricDecl:
    """One declared metric (see the module docstring)."""

    name: str
    direction: str = "higher_is_worse"
    scale: str = "proportion"
    margin: float | None = None
    effect: bool = True
    null: float = 0.0
    description: str = ""
    compare: Callable[[pd.DataFrame], pd.DataFrame] | None = field(default=None, compare=False)
    group_units: Callable[[pd.DataFrame], pd.Series] | None = field(default=None, compare=False)
    audit: str = ""
    primary: bool = False

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a declared metric needs a name")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"metric {self.name}: direction must be one of {', '.join(DIRECTIONS)}, "
                             f"not {self.direction!r}")
        if self.scale not in SCALES:
            raise ValueError(f"metric {self.name}: scale must be one of {', '.join(SCALES)}, not {self.scale!r}")
        if self.margin is not None and not (math.isfinite(self.margin) and self.margin > 0):
            raise ValueError(f"metric {self.name}: margin must be a positive number, not {self.margin!r}")

    @property
    def default_margin(self) -> float | None:
        """The declared margin, or the scale's default (None: no default for this scale)."""
        return self.margin if self.margin is not None else DEFAULT_MARGINS[self.scale]

    @property
    def compare_direction(self) -> str:
        """The direction in ``clinaudit compare``'s words: ``lower`` / ``higher`` is better, or ``""``."""
        return {"higher_is_worse": "lower", "higher_is_better": "higher"}.get(self.direction, "")


_ORDER: dict[str, list[str]] = {}  # audit -> metric names in the order they were declared


def metric_key(audit: str, name: str) -> str:
    """The registry name of a declared metric: ``audit/name``."""
    return f"{audit}/{name}"


def declare_metrics(audit: str, *decls: MetricDecl) -> tuple[MetricDecl, ...]:
    """Register ``decls`` as the metrics of ``audit`` (kind ``metric``, names ``audit/metric``)."""
    from ..registry import caller_origin, registry

    origin = caller_origin(f"register_metric_decls({audit!r})")
    out = []
    for d in decls:
        d = d if d.audit == audit else MetricDecl(**{**d.__dict__, "audit": audit})
        registry("metric").add(metric_key(audit, d.name), d, origin=origin)
        order = _ORDER.setdefault(audit, [])
        if d.name not in order:
            order.append(d.name)
        out.append(d)
    return tuple(out)


register_metric_decls = declare_metrics  # the name of the one pattern (clinaudit.extend: register_<kind>)


def declared_metrics(audit: str) -> dict[str, MetricDecl]:
    """Every metric declared for ``audit`` (built-in families and plugins), by name, in declaration order."""
    from ..registry import registry

    reg = registry("metric")
    prefix = f"{audit}/"
    out: dict[str, MetricDecl] = {}
    for key in reg.names():
        if key.startswith(prefix):
            item: Any = reg.get(key)
            if isinstance(item, MetricDecl):
                out[item.name] = item
    order = _ORDER.get(audit, [])
    rank = {name: i for i, name in enumerate(order)}
    return dict(sorted(out.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))


def declaration_for(audit: str, metric: str, declared: Mapping[str, Mapping[str, MetricDecl]] | None = None
                    ) -> MetricDecl | None:
    """The declaration of ``metric`` in ``audit`` (None when the audit does not declare it)."""
    table = declared[audit] if declared is not None and audit in declared else declared_metrics(audit)
    return table.get(metric)


# ---- helpers for declarations (per-pair scores for compare, group counts for the gates)

#: the paired-table columns ``clinaudit compare`` compares a metric within (each level as well as pooled)
COMPARE_STRATA = ("perturbation", "attribute", "question")


def pair_scores_frame(paired: pd.DataFrame, score: Any) -> pd.DataFrame:
    """``DataFrame[case_id, score]`` from a paired table's rows and one score per row, with the rows'
    stratum columns (:data:`COMPARE_STRATA`) that the table has."""
    import numpy as np

    out = pd.DataFrame({"case_id": paired["case_id"].astype(str).to_numpy(),
                        "score": np.asarray(score, dtype=float)})
    for col in COMPARE_STRATA:
        if col in paired.columns:
            out[col] = paired[col].to_numpy()
    return out


def numeric_column(table: pd.DataFrame, col: str) -> pd.Series:
    """``table[col]`` as numbers (NaN where absent or not a number)."""
    if col not in table.columns:
        return pd.Series(float("nan"), index=table.index)
    return pd.to_numeric(table[col], errors="coerce")


def smallest_count(*cols: str) -> Callable[[pd.DataFrame], pd.Series]:
    """A ``group_units`` reader: per row, the smallest of the count columns ``cols`` (NaN where none)."""

    def units(results: pd.DataFrame) -> pd.Series:
        present = [numeric_column(results, c) for c in cols if c in results.columns]
        if not present:
            return pd.Series(float("nan"), index=results.index)
        return pd.concat(present, axis=1).min(axis=1, skipna=True)

    return units


def with_reference(units: Callable[[pd.DataFrame], pd.Series],
                   keys: tuple[str, ...] = ("audit", "metric", "task", "attribute", "model", "dataset")
                   ) -> Callable[[pd.DataFrame], pd.Series]:
    """A ``group_units`` reader: the smaller of a row's own units and its reference group's units.

    The reference group's units are read from the row (of the same ``keys``) whose ``group`` is this
    row's ``reference`` (a gap against a group of 2 positives rests on 2 positives, whatever the other side).
    """

    def both(results: pd.DataFrame) -> pd.Series:
        own = pd.to_numeric(units(results), errors="coerce")
        if "reference" not in results.columns or "group" not in results.columns:
            return own
        cols = [k for k in keys if k in results.columns]
        text = results[cols].apply(lambda col: col.map(lambda x: "" if pd.isna(x) else str(x)))
        key = text.agg("|".join, axis=1) if cols else pd.Series("", index=results.index)
        lookup = {(k, str(g)): u for k, g, u in zip(key, results["group"], own) if pd.notna(u)}
        ref = pd.Series([lookup.get((k, str(r)), float("nan")) for k, r in zip(key, results["reference"])],
                        index=results.index, dtype=float)
        return pd.concat([own, ref], axis=1).min(axis=1, skipna=True)

    return both
