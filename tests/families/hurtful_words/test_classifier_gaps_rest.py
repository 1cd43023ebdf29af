"""Issue 48: group-vs-rest classifier gaps (params.comparison = rest): one fixed question per group."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.proportion import confint_proportions_2indep

from clinaudit.families.hurtful_words.gap_table import audit_predictions


def _table(groups: dict[str, tuple[int, int]]) -> pd.DataFrame:
    """Label-positive rows only: per group (positives, predicted positive among them)."""
    rows = []
    for g, (pos, tp) in groups.items():
        rows += [{"label": 1, "pred": int(i < tp), "race": g} for i in range(pos)]
    return pd.DataFrame(rows)


def test_each_group_against_the_rest_by_hand():
    """Recall A 60/100, B 80/100, C 80/100: A vs rest = 0.6 − 160/200 = −0.2, B vs rest = 0.8 − 140/200 = +0.1;
    the interval is Newcombe's (statsmodels) of the two counts; the permutation p of A's 20 pp gap is small,
    of B's 10 pp larger."""
    res = audit_predictions(_table({"A": (100, 60), "B": (100, 80), "C": (100, 80)}), task_column=None,
                            label_column="label", pred_column="pred", group_columns="race", n_resamples=50,
                            n_permutations=999, metrics=("recall",), comparison="rest").gaps
    assert res["group"].tolist() == ["A", "B", "C"] and set(res["reference"]) == {"rest"}
    assert res["value"].tolist() == pytest.approx([-0.2, 0.1, 0.1])
    lo, hi = confint_proportions_2indep(60, 100, 160, 200, method="newcomb", compare="diff")
    assert (res["ci_low"].iloc[0], res["ci_high"].iloc[0]) == pytest.approx((lo, hi))
    assert res["reference_value"].tolist() == pytest.approx([0.8, 0.7, 0.7])
    assert res["p"].iloc[0] < 0.01 < res["p"].iloc[1]


def test_a_two_group_attribute_is_one_question():
    res = audit_predictions(_table({"F": (100, 60), "M": (100, 80)}), task_column=None, label_column="label",
                            pred_column="pred", group_columns="race", n_resamples=50, n_permutations=999,
                            metrics=("recall",), comparison="rest").gaps
    assert len(res) == 1 and res["group"].iloc[0] == "F" and res["reference"].iloc[0] == "M"
    assert res["value"].iloc[0] == pytest.approx(-0.2)


@pytest.mark.slow
def test_group_vs_rest_holds_its_level_under_the_null():
    """4 groups, no gap (recall 0.7 everywhere, binomial draws): p ≤ 0.05 in about 5% of the rows (200 tables)."""
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(200):
        tab = _table({g: (50, int(rng.binomial(50, 0.7))) for g in "ABCD"})
        res = audit_predictions(tab, task_column=None, label_column="label", pred_column="pred", group_columns="race",
                                n_resamples=1, n_permutations=199, metrics=("recall",), comparison="rest").gaps
        hits += int((res["p"] <= 0.05).sum())
    assert hits / 800 <= 0.08
