"""Tests of the disaggregation frame, incl. agreement with fairlearn's MetricFrame."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from clinaudit.metrics import Disaggregate, positive_rate, recall, specificity
from clinaudit.results import RESULT_COLUMNS

fairlearn = pytest.importorskip("fairlearn")
from fairlearn.metrics import (  # noqa: E402
    MetricFrame,
    demographic_parity_difference,
    selection_rate,
    true_negative_rate,
    true_positive_rate,
)

METRICS = {"positive_rate": positive_rate, "recall": recall, "specificity": specificity}
FL_METRICS = {"positive_rate": selection_rate, "recall": true_positive_rate, "specificity": true_negative_rate}


def _data(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "y": rng.integers(0, 2, n),
            "yhat": rng.integers(0, 2, n),
            "race": rng.choice(["Asian", "Black", "Latino", "White"], n),
            "sex": rng.choice(["F", "M"], n),
            "task": rng.choice(["t1", "t2"], n),
        }
    )


def test_hand_computed_by_group_and_differences():
    y = [1, 1, 0, 0, 1, 0, 0]
    p = [1, 0, 1, 0, 1, 1, 1]
    g = ["a", "a", "a", "a", "b", "b", "b"]
    d = Disaggregate(METRICS, y, p, pd.Series(g, name="grp"))
    assert d.by_group.loc["a"].tolist() == [0.5, 0.5, 0.5]
    assert d.by_group.loc["b"].tolist() == [1.0, 1.0, 0.0]
    assert d.overall.tolist() == pytest.approx([5 / 7, 2 / 3, 1 / 4])
    assert d.difference().tolist() == [0.5, 0.5, 0.5]
    to_a = d.difference("to_reference", reference="a")
    assert to_a.loc["b"].tolist() == [0.5, 0.5, -0.5] and to_a.loc["a"].tolist() == [0, 0, 0]
    gaps = d.max_gap().set_index(["metric", "group"])
    assert gaps.loc[("specificity", "b"), "gap"] == -0.5 and gaps.loc[("specificity", "b"), "reference"] == "a"
    assert d.group_sizes.tolist() == [4, 3]


def test_group_without_positives_is_undefined_not_zero():
    d = Disaggregate(recall, [1, 0, 0, 0], [1, 0, 1, 0], ["a", "a", "b", "b"])
    assert d.by_group.loc["a", "recall"] == 1.0
    assert math.isnan(d.by_group.loc["b", "recall"])
    rows = d.to_results(audit="x")
    assert math.isnan(rows.loc[rows["group"] == "b", "value"].iloc[0])
    ci = d.with_ci(n_resamples=50)
    assert math.isnan(ci.query("kind == 'group' and group == 'b'")["ci_low"].iloc[0])


def test_n1_group():
    d = Disaggregate(positive_rate, [1, 0, 1], [1, 0, 0], ["a", "b", "b"])
    assert d.by_group.loc["a", "positive_rate"] == 1.0
    assert d.to_results().query("group == 'a' and metric == 'positive_rate'")["n"].iloc[0] == 1


@pytest.mark.parametrize("features", [["race"], ["race", "sex"]])
def test_agrees_with_fairlearn_metricframe(features):
    df = _data()
    sf = df[features] if len(features) > 1 else df[features[0]]
    ours = Disaggregate(METRICS, df["y"], df["yhat"], sf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mf = MetricFrame(metrics=FL_METRICS, y_true=df["y"], y_pred=df["yhat"], sensitive_features=sf)
    np.testing.assert_allclose(ours.by_group.to_numpy(), mf.by_group[list(METRICS)].to_numpy())
    np.testing.assert_allclose(ours.overall.to_numpy(), mf.overall[list(METRICS)].to_numpy())
    np.testing.assert_allclose(
        ours.difference("between_groups").to_numpy(), mf.difference(method="between_groups")[list(METRICS)].to_numpy()
    )
    assert ours.difference()["positive_rate"] == pytest.approx(
        demographic_parity_difference(df["y"], df["yhat"], sensitive_features=sf)
    )


def test_agrees_with_fairlearn_control_features():
    df = _data(seed=3)
    ours = Disaggregate(METRICS, df["y"], df["yhat"], df["race"], control_features=df["task"])
    mf = MetricFrame(
        metrics=FL_METRICS, y_true=df["y"], y_pred=df["yhat"], sensitive_features=df["race"], control_features=df["task"]
    )
    np.testing.assert_allclose(ours.by_group.to_numpy(), mf.by_group[list(METRICS)].to_numpy())
    np.testing.assert_allclose(ours.overall.to_numpy(), mf.overall[list(METRICS)].to_numpy())
    np.testing.assert_allclose(ours.difference().to_numpy(), mf.difference()[list(METRICS)].to_numpy())


def _generic(f):
    """``f`` wrapped in a plain function, so that Disaggregate takes its generic (not vectorised) path."""
    return lambda a, b: f(a, b)


def test_with_ci_reproducible_and_fast_path_matches_generic_path():
    df = _data(200, seed=5)
    fast = Disaggregate(METRICS, df["y"], df["yhat"], df["race"])
    slow = Disaggregate(
        {k: _generic(f) for k, f in METRICS.items()}, df["y"], df["yhat"], df["race"]
    )
    a = fast.with_ci(n_resamples=40, seed=9, strata="label")
    b = slow.with_ci(n_resamples=40, seed=9, strata="label")
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, fast.with_ci(n_resamples=40, seed=9, strata="label"))
    grp = a[a["kind"] == "group"]
    assert ((grp["ci_low"] <= grp["value"]) & (grp["value"] <= grp["ci_high"])).all()


def test_with_ci_equals_straightforward_loop():
    df = _data(120, seed=8)
    d = Disaggregate({"positive_rate": positive_rate}, df["y"], df["yhat"], df["sex"])
    ci = d.with_ci(n_resamples=60, seed=2, reference="M").set_index(["kind", "group"])
    rng = np.random.default_rng(2)
    diffs = []
    for _ in range(60):
        s = df.iloc[rng.integers(0, len(df), len(df))]
        rate = s.groupby("sex")["yhat"].mean()
        diffs.append(rate["F"] - rate["M"])
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    assert ci.loc[("to_reference", "F"), "ci_low"] == pytest.approx(lo)
    assert ci.loc[("to_reference", "F"), "ci_high"] == pytest.approx(hi)
    # with two groups the max gap of F is the same difference
    assert ci.loc[("max_gap", "F"), "ci_low"] == pytest.approx(lo)


def test_to_results_schema_intersections_and_controls():
    df = _data(100, seed=1)
    d = Disaggregate(METRICS, df["y"], df["yhat"], df[["race", "sex"]], control_features=df["task"])
    rows = d.to_results(audit="classifier", dataset="demo")
    assert list(rows.columns[: len(RESULT_COLUMNS)]) == RESULT_COLUMNS
    assert {"task", "dataset"} <= set(rows.columns)
    assert "Asian|F" in set(rows["group"])
    assert set(rows["metric"]) >= {"recall", "recall_difference", "recall_max_gap"}
    grp = rows[rows["metric"] == "recall"]
    assert grp["n"].sum() == 100
    d.with_ci(n_resamples=20)
    rows = d.to_results()
    assert rows["ci_method"].str.startswith("percentile bootstrap").all()


def test_missing_features_dropped_and_strata_aligned():
    y = [1, 0, 1, 0, 1]
    p = [1, 0, 0, 0, 1]
    g = ["a", "a", None, "b", "b"]
    d = Disaggregate(positive_rate, y, p, g)
    assert d.group_sizes.tolist() == [2, 2]
    ci = d.with_ci(n_resamples=20, strata=y)  # strata given for the 5 original rows
    assert len(ci) > 0
    with pytest.raises(ValueError):
        d.with_ci(n_resamples=5, strata=[1, 0, 1])
