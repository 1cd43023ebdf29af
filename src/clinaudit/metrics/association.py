"""Language-model association bias scores aggregated per category (METHODS §4.4, P4 Table 3).

Input: one row per scored sentence — the template, the attribute, the
category, the demographic group and the target word filled in, and the
prior-adjusted log-probability score. Targets of the two groups are paired by
their position in the target lists (man↔woman, he↔she, male↔female, m↔f).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["bias_score_summary"]


def bias_score_summary(
    scores: pd.DataFrame,
    category_col: str = "category",
    group_col: str = "group",
    pair_cols: Sequence[str] = ("template", "attribute", "target_index"),
    score_col: str = "score",
    groups: Sequence[str] | None = None,
    correction: str = "bonferroni",
    alpha: float = 0.01,
    audit: str = "association",
) -> pd.DataFrame:
    """Per category: mean score per group and a paired Wilcoxon signed-rank test.

    Sentences of the two groups are matched on ``pair_cols`` (template ×
    attribute × target-pair index). For each category the test compares the
    matched scores (:func:`clinaudit.stats.wilcoxon_test`); p-values are
    corrected across categories (``correction="bonferroni"`` or ``"fdr_bh"``)
    and ``flag`` marks p < ``alpha`` (0.01 in P4 Table 3; on the raw p, as
    the paper does, with ``flag_adj`` on the corrected one).

    Returns a result table with one row per category: ``value`` = mean of
    group₁ − mean of group₂ over matched pairs, ``group``/``reference`` the two
    groups, ``n`` = matched pairs, extra columns ``category``,
    ``mean_<group>`` (over all that group's sentences), ``n_sentences``,
    ``flag`` and ``flag_adj``.
    """
    from ..results import apply_correction, result_row, results_frame
    from ..stats import wilcoxon_test

    pair_cols = list(pair_cols)
    gvals = list(groups) if groups is not None else sorted(pd.unique(scores[group_col].dropna().astype(str)))
    if len(gvals) != 2:
        raise ValueError(f"bias_score_summary compares exactly two groups, got {gvals}")
    g1, g2 = gvals
    rows: list[dict[str, Any]] = []
    d = scores.assign(_g=scores[group_col].astype(str))
    for cat, sub in d.groupby(category_col, sort=True):
        means = {f"mean_{g}": float(sub.loc[sub["_g"] == g, score_col].mean()) for g in gvals}
        wide = sub[sub["_g"].isin(gvals)].pivot_table(index=pair_cols, columns="_g", values=score_col, aggfunc="mean")
        if g1 in wide.columns and g2 in wide.columns:
            wide = wide[[g1, g2]].dropna()
            x, y = wide[g1].to_numpy(), wide[g2].to_numpy()
        else:
            x = y = np.array([])
        test = wilcoxon_test(x, y)
        rows.append(
            result_row(
                audit=audit,
                metric="log_prob_bias_score",
                group=g1,
                reference=g2,
                value=float(np.mean(x - y)) if x.size else math.nan,
                n=int(x.size),
                test=test.test,
                statistic=test.statistic,
                p=test.p,
                category=cat,
                n_sentences=int(len(sub)),
                note=test.note,
                **means,
            )
        )
    table = results_frame(rows)
    if len(table):
        table = apply_correction(table, family="categories", method=correction)
        table["flag"] = (table["p"] < alpha).to_numpy()
        table["flag_adj"] = (table["p_adj"] < alpha).to_numpy()
    return table
