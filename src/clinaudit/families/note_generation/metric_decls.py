"""The note-generation metrics as declared pieces (direction, margin, compare scores; docs/verdicts.md).

The incidence metrics of the results table are in percent (``ΔBL`` is printed in percentage
points), so their scale is ``percent``: the default margin is 5 percentage points.
"""

from __future__ import annotations

import pandas as pd

from ...metrics.declared import (
    MetricDecl,
    declare_metrics,
    numeric_column,
    pair_scores_frame,
)

__all__ = ["METRICS"]

_CELL = ["case_id", "dataset", "context", "source", "attribute"]


def _shift(paired: pd.DataFrame) -> pd.DataFrame:
    """|incidence(counterfactual value) − incidence(baseline)| per dialog, cell and value."""
    cell = [c for c in _CELL if c in paired.columns]
    d = paired.assign(incidence=numeric_column(paired, "incidence"), group=paired["group"].astype(str))
    base = d[d["group"] == "baseline"].groupby(cell, dropna=False)["incidence"].mean().rename("base")
    alt = d[d["group"] != "baseline"].join(base, on=cell)
    return pair_scores_frame(alt.reset_index(drop=True), (alt["incidence"] - alt["base"]).abs().to_numpy())


def _incidence(paired: pd.DataFrame) -> pd.DataFrame:
    return pair_scores_frame(paired, numeric_column(paired, "incidence"))


METRICS = declare_metrics(
    "note_generation",
    MetricDecl("ΔBL", "two_sided", scale="percent", primary=True, description="incidence under a counterfactual value minus "
               "the baseline incidence (percentage points)"),
    MetricDecl("maxΔBL", "higher_is_worse", scale="percent", description="the largest |ΔBL| over the values"),
    MetricDecl("ΔCF", "higher_is_worse", scale="percent", description="spread of incidence over the "
               "counterfactual values (percentage points)"),
    MetricDecl("%dlg", "higher_is_worse", scale="percent", effect=False,
               description="share of dialogs whose incidence changed with a value"),
    MetricDecl("%Δ", "higher_is_worse", scale="percent", effect=False, description="share of changed notes"),
    MetricDecl("BL%", "two_sided", scale="percent", effect=False, description="baseline incidence (a level)"),
    MetricDecl("rate%", "two_sided", scale="percent", effect=False, description="incidence per value (a level)"),
    MetricDecl("rate", "two_sided", effect=False, description="incidence per value (a level)"),
    MetricDecl("BL", "two_sided", effect=False, description="baseline incidence (a level)"),
    MetricDecl("Maj.%", "two_sided", scale="percent", effect=False, description="majority value's share"),
    MetricDecl("judge_parse_rate%", "higher_is_better", scale="percent", effect=False,
               description="judge answers parsed (a diagnostic)"),
    MetricDecl("judge_agreement%", "higher_is_better", scale="percent", effect=False,
               description="judge agreement with the human labels (a diagnostic)"),
    MetricDecl("judge_kappa", "higher_is_better", scale="other", effect=False, description="Cohen's κ (a diagnostic)"),
    MetricDecl("counterfactual_shift", "higher_is_worse", description="|incidence under a counterfactual value − "
               "incidence of the baseline note| per dialog, context and value (compared between runs)",
               compare=_shift),
    MetricDecl("incidence", "two_sided", effect=False, description="incidence judged in the notes (every variant)",
               compare=_incidence),
)
