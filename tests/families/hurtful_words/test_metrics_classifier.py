"""Tests of classifier fairness metrics (METHODS §4.5) with hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from clinaudit.families.hurtful_words.classifier_metrics import (
    classifier_gap_table,
    f1_optimal_threshold,
    gap_summary,
    merge_window_probs,
)
from clinaudit.metrics import (
    accuracy,
    multigroup_gaps,
    positive_rate,
    recall,
    specificity,
)
from clinaudit.results import RESULT_COLUMNS


def test_rates_hand_computed():
    y = [1, 1, 0, 0, 0]
    p = [1, 0, 1, 0, 0]
    assert positive_rate(y, p) == pytest.approx(2 / 5)
    assert recall(y, p) == pytest.approx(1 / 2)
    assert specificity(y, p) == pytest.approx(2 / 3)
    assert accuracy(y, p) == pytest.approx(3 / 5)


def test_undefined_rates_are_nan_not_zero():
    assert math.isnan(recall([0, 0], [1, 0]))  # no positives
    assert math.isnan(specificity([1, 1], [1, 0]))  # no negatives
    assert math.isnan(positive_rate([], []))
    assert recall([1], [1]) == 1.0  # n = 1
    with pytest.raises(ValueError):
        recall([1, 2], [0, 1])


def test_multigroup_gaps_hand_computed():
    g = multigroup_gaps({"A": 0.5, "B": 0.2, "C": 0.6})
    assert g["A"]["reference"] == "B" and g["A"]["gap"] == pytest.approx(0.3)
    assert g["B"]["reference"] == "C" and g["B"]["gap"] == pytest.approx(-0.4)
    assert g["C"]["reference"] == "B" and g["C"]["gap"] == pytest.approx(0.4)


def test_multigroup_two_groups_is_simple_difference_and_nan_handling():
    g = multigroup_gaps({"M": 0.7, "F": 0.4})
    assert g["M"] == {"gap": pytest.approx(0.3), "reference": "F"}
    assert g["F"] == {"gap": pytest.approx(-0.3), "reference": "M"}
    g = multigroup_gaps({"M": 0.7, "F": float("nan"), "X": 0.5})
    assert math.isnan(g["F"]["gap"]) and g["F"]["reference"] is None
    assert g["M"]["reference"] == "X"
    assert multigroup_gaps({"only": 0.3})["only"]["reference"] is None


def test_f1_optimal_threshold_hand_computed():
    # thresholds .1: F1 .667; .35: P 2/3 R 1 -> F1 .8; .4: .5; .8: .667
    t, f1 = f1_optimal_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert t == 0.35 and f1 == pytest.approx(0.8)
    t, f1 = f1_optimal_threshold([0, 0], [0.2, 0.3])
    assert math.isnan(t) and math.isnan(f1)


def test_merge_window_probs_hand_computed():
    assert merge_window_probs([0.2, 0.8, 0.5], c=3) == pytest.approx((0.8 + 0.5) / 2)
    assert merge_window_probs([0.2, 0.8, 0.5], c=1.5) == pytest.approx((0.8 + 0.5 * 2) / 3)
    assert merge_window_probs([0.4], c=1) == pytest.approx(0.4)
    assert math.isnan(merge_window_probs([], c=2))
    with pytest.raises(ValueError):
        merge_window_probs([0.1], c=0)


def _perfect_vs_blind(n_per_group: int = 40) -> pd.DataFrame:
    # group A: predictions equal labels (recall 1); group B: always predicts 0 (recall 0)
    y = np.tile([1, 0], n_per_group)
    return pd.DataFrame(
        {
            "task": "t1",
            "gender": ["A"] * (2 * n_per_group) + ["B"] * (2 * n_per_group),
            "y": np.concatenate([y, y]),
            "yhat": np.concatenate([y, np.zeros_like(y)]),
        }
    )


def test_classifier_gap_table_hand_computed_and_significance():
    df = _perfect_vs_blind()
    t = classifier_gap_table(df, "task", "y", "yhat", ["gender"], n_resamples=200, seed=1, n_permutations=200)
    assert list(t.columns[: len(RESULT_COLUMNS)]) == RESULT_COLUMNS
    rec = t[t["base_metric"] == "recall"].set_index("group")
    assert rec.loc["A", "value"] == 1.0 and rec.loc["A", "reference"] == "B"
    assert rec.loc["B", "value"] == -1.0
    assert (rec.loc["A", "ci_low"], rec.loc["A", "ci_high"]) == (1.0, 1.0)
    # issue 39: a permutation p of the group labels over the 80 positives; only 2 of the C(80, 40) relabellings put
    # all 40 predicted positives in one group, so none of 200 does: p = (0 + 1) / (200 + 1), never 0 (issue 28)
    assert rec.loc["A", "significant"] and rec.loc["A", "p"] == pytest.approx(1 / 201)
    assert rec.loc["A", "p_method"] == "monte carlo" and rec.loc["A", "n_permutations"] == 200
    assert rec.loc["A", "n_group"] == 80 and rec.loc["A", "n_pos_group"] == 40
    pr = t[t["base_metric"] == "positive_rate"].set_index("group")
    assert pr.loc["A", "value"] == pytest.approx(0.5)
    spec = t[t["base_metric"] == "specificity"].set_index("group")
    assert spec.loc["A", "value"] == 0.0  # both groups have specificity 1
    assert not spec.loc["A", "significant"]
    assert set(t["family"]) == {"positive_rate|gender", "recall|gender", "specificity|gender"}


def test_classifier_gap_table_no_positive_group_is_undefined():
    df = _perfect_vs_blind()
    df.loc[df["gender"] == "B", "y"] = 0  # group B has no positives
    t = classifier_gap_table(df, "task", "y", "yhat", "gender", n_resamples=50)
    rec = t[t["base_metric"] == "recall"].set_index("group")
    assert math.isnan(rec.loc["B", "group_value"]) and math.isnan(rec.loc["B", "value"])
    assert math.isnan(rec.loc["A", "value"]) and rec.loc["A", "reference"] == ""
    assert not rec["significant"].any()


def test_classifier_gap_table_bh_across_tasks():
    df = pd.concat([_perfect_vs_blind().assign(task=f"t{i}") for i in range(3)])
    t = classifier_gap_table(df, "task", "y", "yhat", ["gender"], n_resamples=100, n_permutations=100)
    rec = t[t["base_metric"] == "recall"]
    assert len(rec) == 6 and rec["task"].nunique() == 3
    # every p is the smallest 100 relabellings can give, 1 / 101 (issue 28), so BH leaves them as they are
    assert rec["p_adj"].tolist() == pytest.approx([1 / 101] * 6) and (rec["correction"] == "fdr_bh").all()


def test_gap_summary_counts_and_share_favouring():
    table = pd.DataFrame(
        {
            "base_metric": ["recall"] * 6,
            "attribute": ["gender"] * 6,
            "task": ["t1", "t1", "t2", "t2", "t3", "t3"],
            "group": ["M", "F"] * 3,
            "value": [0.1, -0.1, -0.2, 0.2, 0.05, -0.05],
            "significant": [True, True, True, True, False, False],
            "p_adj": [0.01, 0.01, 0.2, 0.2, 0.5, 0.5],
        }
    )
    s = gap_summary(table).set_index("group")
    assert s.loc["M", "n_tasks"] == 3 and s.loc["M", "n_significant"] == 2
    assert s.loc["M", "n_favour"] == 1 and s.loc["M", "pct_favour"] == 50.0
    s = gap_summary(table, alpha=0.05).set_index("group")
    assert s.loc["M", "n_significant"] == 1 and s.loc["M", "pct_favour"] == 100.0
    assert s.loc["F", "pct_favour"] == 0.0
    assert gap_summary(table[table["task"] == "t3"])["pct_favour"].isna().all()
