"""The association and classifier-gap metrics as declared pieces (direction, margin, compare scores).

Log-probability bias scores have no natural unit: no default margin (a spec sets one with
``verdicts.margins``). Classifier gaps are differences of rates (default margin 5 percentage
points); a recall gap needs positives in each group, a specificity gap negatives (``group_units``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...metrics.declared import (
    MetricDecl,
    declare_metrics,
    with_reference,
    numeric_column,
    pair_scores_frame,
)

__all__ = ["ASSOCIATION", "CHAIN", "CLASSIFIER_GAPS"]


def _spread(paired: pd.DataFrame) -> pd.DataFrame:
    """Per frame (case): max − min over the attribute groups of the mean log-probability bias score."""
    keys = [c for c in ("case_id", "model", "method") if c in paired.columns]
    d = paired.assign(score=numeric_column(paired, "score"))
    g = d.groupby(keys + ["group"], dropna=False)["score"].mean().reset_index()
    spread = g.groupby(keys, dropna=False)["score"].agg(lambda s: s.max() - s.min() if s.notna().sum() > 1 else np.nan)
    spread = spread.reset_index()
    return pair_scores_frame(spread, spread["score"])


def _correct(paired: pd.DataFrame) -> pd.DataFrame:
    label = next((c for c in ("label", "y_true", "y") if c in paired.columns), None)
    pred = next((c for c in ("pred", "y_pred", "prediction") if c in paired.columns), None)
    if label is None or pred is None:
        return pair_scores_frame(paired, np.full(len(paired), np.nan))
    y, p = numeric_column(paired, label), numeric_column(paired, pred)
    return pair_scores_frame(paired, np.where(y.isna() | p.isna(), np.nan, (y == p).astype(float)))


def _positives(results: pd.DataFrame) -> pd.Series:
    return numeric_column(results, "n_pos_group")


def _negatives(results: pd.DataFrame) -> pd.Series:
    return numeric_column(results, "n_group") - numeric_column(results, "n_pos_group")


def _frames(results: pd.DataFrame) -> pd.Series:
    """Association rows: the sentence frames (template × attribute), the unit of the test and the bootstrap."""
    return numeric_column(results, "n_frames")


def _rows(results: pd.DataFrame) -> pd.Series:
    return numeric_column(results, "n_group")


ASSOCIATION = declare_metrics(
    "association",
    MetricDecl("log_prob_bias_score", "two_sided", scale="other", primary=True,
               description="log-probability bias score of a group against the reference group",
               group_units=_frames),
    MetricDecl("mean_log_prob_bias_score", "two_sided", scale="other", effect=False,
               description="mean log-probability bias score of a group (a level)"),
    MetricDecl("share_of_mentions", "two_sided", effect=False, description="prevalence of mentions (a level)"),
    MetricDecl("group_score_spread", "higher_is_worse", scale="other", description="per sentence frame: max − min "
               "over attribute groups of the mean log-probability bias score (compared between runs)",
               compare=_spread),
)

CLASSIFIER_GAPS = declare_metrics(
    "classifier_gaps",
    MetricDecl("parity_gap", "two_sided", description="positive-prediction rate of a group minus the reference's",
               group_units=with_reference(_rows)),
    MetricDecl("recall_gap", "two_sided", primary=True, description="recall of a group minus the reference's (needs positives "
               "in each group)", group_units=with_reference(_positives)),
    MetricDecl("specificity_gap", "two_sided", description="specificity of a group minus the reference's (needs "
               "negatives in each group)", group_units=with_reference(_negatives)),
    MetricDecl("attribute_auc", "higher_is_worse", null=0.5,
               description="AUC of recovering the protected attribute from the representation (0.5: none)"),
    MetricDecl("adversary_auc", "higher_is_worse", null=0.5, description="the adversary's AUC (0.5: none)"),
    MetricDecl("auroc", "higher_is_better", effect=False, description="task AUROC (a level)"),
    MetricDecl("auprc", "higher_is_better", effect=False, description="task AUPRC (a level)"),
    MetricDecl("accuracy", "higher_is_better", effect=False, description="share of test rows whose prediction "
               "equals the label (compared between runs)", compare=_correct),
)

#: the MIMIC chain reports the same classifier metrics under its own audit name
CHAIN = declare_metrics("hurtfulwords_pipeline", *CLASSIFIER_GAPS)
