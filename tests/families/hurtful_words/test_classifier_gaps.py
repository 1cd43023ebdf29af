"""Tests of the classifier-fairness audit (P4 §4.1–4.2, Table 4; METHODS §4.5).

Gap point estimates are checked against hand-computed values and against
fairlearn's MetricFrame; CIs against a re-run with the same seed.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import hypergeom

from clinaudit.families.hurtful_words.classifier_gaps import demo_spec
from clinaudit.families.hurtful_words.classifier_metrics import GAP_TEST
from clinaudit.families.hurtful_words.params import ClassifierGapsParams
from clinaudit.families.hurtful_words.gap_table import audit_predictions, choose_thresholds, read_predictions, table4
from clinaudit.data import demo_path
from clinaudit.errors import InputError
from clinaudit.results import RESULT_COLUMNS


def _hand_frame() -> pd.DataFrame:
    # group A: labels 1,1,0,0 preds 1,0,1,0 -> parity 2/4, recall 1/2, specificity 1/2
    # group B: labels 1,0,0,0 preds 1,0,0,0 -> parity 1/4, recall 1,   specificity 1
    # group C: labels 1,0     preds 0,0     -> parity 0,   recall 0,   specificity 1
    rows = [("A", 1, 1), ("A", 1, 0), ("A", 0, 1), ("A", 0, 0),
            ("B", 1, 1), ("B", 0, 0), ("B", 0, 0), ("B", 0, 0),
            ("C", 1, 0), ("C", 0, 0)]
    return pd.DataFrame([{"task": "t1", "grp": g, "label": y, "pred": p} for g, y, p in rows])


def _row(gaps: pd.DataFrame, metric: str, group: str) -> dict:
    hit = gaps[(gaps["base_metric"] == metric) & (gaps["group"] == group)]
    assert len(hit) == 1
    return hit.iloc[0].to_dict()


def test_gaps_hand_computed_multigroup():
    res = audit_predictions(_hand_frame(), task_column="task", label_column="label", pred_column="pred",
                            group_columns="grp", n_resamples=50, seed=0)
    g = res.gaps
    assert list(g.columns[: len(RESULT_COLUMNS)]) == RESULT_COLUMNS
    # parity: A .5, B .25, C 0 -> A vs C = .5; B: tie |.25-.5| = |.25-0|, first in order (A) -> -.25; C vs A = -.5
    assert _row(g, "positive_rate", "A")["value"] == pytest.approx(0.5)
    assert _row(g, "positive_rate", "A")["reference"] == "C"
    assert _row(g, "positive_rate", "B")["value"] == pytest.approx(-0.25)
    assert _row(g, "positive_rate", "B")["reference"] == "A"
    assert _row(g, "positive_rate", "C")["value"] == pytest.approx(-0.5)
    # recall: A .5, B 1, C 0 -> A: |.5-1| = |.5-0| tie -> B first -> -.5; B vs C = 1; C vs B = -1
    assert _row(g, "recall", "A")["value"] == pytest.approx(-0.5)
    assert _row(g, "recall", "B")["value"] == pytest.approx(1.0)
    assert _row(g, "recall", "C")["reference"] == "B"
    # specificity: A .5, B 1, C 1 -> A vs B = -.5; B vs A = .5; C vs A = .5
    assert _row(g, "specificity", "A")["value"] == pytest.approx(-0.5)
    assert _row(g, "specificity", "C")["value"] == pytest.approx(0.5)
    assert _row(g, "specificity", "C")["group_value"] == pytest.approx(1.0)
    assert _row(g, "recall", "A")["n_group"] == 4 and _row(g, "recall", "A")["n_pos_group"] == 2
    assert set(g["n"]) == {10}
    assert set(g["family"]) == {"recall|grp", "positive_rate|grp", "specificity|grp"}
    assert set(g["correction"]) == {"fdr_bh"}
    assert set(g["metric_label"]) == {"recall_gap", "parity_gap", "specificity_gap"}
    # binary predictions given: no thresholds were tuned, no AUROC
    assert res.thresholds["source"].tolist() == ["binary predictions given"]
    assert res.performance.empty


def test_two_groups_equal_fairlearn_metricframe_on_demo_predictions():
    fairlearn_metrics = pytest.importorskip("fairlearn.metrics")
    df = read_predictions(demo_path("classifier_predictions.csv"))
    res = audit_predictions(df, task_column="task", label_column="label", score_column="score",
                            group_columns=["gender", "race"], split_column="split", n_resamples=20, seed=0)
    test = res.test
    fl = {"positive_rate": fairlearn_metrics.selection_rate, "recall": fairlearn_metrics.true_positive_rate,
          "specificity": fairlearn_metrics.true_negative_rate}
    checked = 0
    for task in test["task"].unique():
        sub = test[test["task"] == task]
        for attr in ("gender", "race"):
            mf = fairlearn_metrics.MetricFrame(metrics=fl, y_true=sub["label"], y_pred=sub["pred"],
                                               sensitive_features=sub[attr])
            for metric in fl:
                rows = res.gaps[(res.gaps["task"] == task) & (res.gaps["attribute"] == attr)
                                & (res.gaps["base_metric"] == metric)]
                for r in rows.to_dict("records"):
                    assert r["group_value"] == pytest.approx(mf.by_group.loc[r["group"], metric], abs=1e-12)
                    expected = mf.by_group.loc[r["group"], metric] - mf.by_group.loc[r["reference"], metric]
                    assert r["value"] == pytest.approx(expected, abs=1e-12)
                    checked += 1
                if attr == "gender":  # two groups: the gap's size is fairlearn's between-groups difference
                    assert rows["value"].abs().max() == pytest.approx(mf.difference()[metric], abs=1e-12)
                else:  # the largest multi-group gap is fairlearn's max - min
                    assert rows["value"].abs().max() == pytest.approx(mf.difference()[metric], abs=1e-12)
    assert checked == 3 * 3 * (2 + 5)


def test_thresholds_best_f1_on_validation_hand_computed():
    # valid scores .9 .8 .4 .3 with labels 1 0 1 0: F1 at t=.9: 2/3, t=.8: 1/2, t=.4: 4/5, t=.3: 2/3 -> t = .4
    df = pd.DataFrame({"task": ["t"] * 8, "label": [1, 0, 1, 0, 1, 0, 1, 0],
                       "score": [0.9, 0.8, 0.4, 0.3, 0.5, 0.45, 0.39, 0.1],
                       "split": ["valid"] * 4 + ["test"] * 4, "g": ["a", "b"] * 4})
    res = audit_predictions(df, task_column="task", label_column="label", score_column="score", group_columns="g",
                            split_column="split", n_resamples=10)
    t = res.thresholds.iloc[0]
    assert t["threshold"] == pytest.approx(0.4)
    assert t["f1_valid"] == pytest.approx(0.8)
    assert (t["n_valid"], t["n_pos_valid"], t["n_test"], t["n_pos_test"]) == (4, 2, 4, 2)
    assert res.test["pred"].tolist() == [1, 1, 0, 0]  # .5 .45 .39 .1 >= .4
    assert t["test_positive_rate"] == pytest.approx(0.5)
    # AUROC on test: scores .5 .45 .39 .1, labels 1 0 1 0 -> pairs (.5>.45, .5>.1, .39<.45, .39>.1) = 3/4
    auroc = res.performance[res.performance["metric"] == "auroc"].iloc[0]
    assert auroc["value"] == pytest.approx(0.75)
    assert auroc["n"] == 4


def test_threshold_fallbacks_and_fixed():
    df = pd.DataFrame({"task": ["t", "t", "u", "u"], "label": [0, 1, 0, 1], "score": [0.2, 0.7, 0.3, 0.6],
                       "split": ["valid", "test", "test", "test"]})
    th = choose_thresholds(df, "task", "label", "score", (df["split"] == "valid").to_numpy(), fallback=0.5)
    assert th.set_index("task").loc["t", "source"] == "fallback (no validation positives)"
    assert th.set_index("task").loc["u", "source"] == "fallback (no validation rows)"
    assert th["threshold"].tolist() == [0.5, 0.5]
    th = choose_thresholds(df, "task", "label", "score", None, threshold=0.65)
    assert th["source"].tolist() == ["fixed", "fixed"] and th["threshold"].tolist() == [0.65, 0.65]


def test_cis_reproducible_with_seed_and_change_with_seed():
    df = read_predictions(demo_path("classifier_predictions.csv"))
    kw = dict(task_column="task", label_column="label", score_column="score", group_columns=["gender"],
              split_column="split", n_resamples=300)
    a = audit_predictions(df, seed=7, **kw).gaps
    b = audit_predictions(df, seed=7, **kw).gaps
    c = audit_predictions(df, seed=8, **kw).gaps
    pd.testing.assert_frame_equal(a, b)
    assert not np.allclose(a["ci_low"].to_numpy(), c["ci_low"].to_numpy())
    assert np.allclose(a["value"].to_numpy(), c["value"].to_numpy())  # point estimates do not depend on the seed


def test_significance_and_table4_counts():
    # two tasks; in "strong" group M has recall 1, F recall 0 (large n): significant, favouring M
    rng = np.random.default_rng(0)
    rows = []
    for task, effect in (("strong", True), ("null", False)):
        for i in range(400):
            g = "M" if i % 2 else "F"
            y = int(i % 4 < 2)
            if effect:
                p = y if g == "M" else 0
            else:
                p = int(rng.random() < 0.5)
            rows.append({"task": task, "g": g, "y": y, "p": p})
    res = audit_predictions(pd.DataFrame(rows), task_column="task", label_column="y", pred_column="p",
                            group_columns="g", n_resamples=500, seed=1, n_permutations=999)
    rec = res.gaps[(res.gaps["base_metric"] == "recall")].set_index(["task", "group"])
    assert bool(rec.loc[("strong", "M"), "significant"]) and rec.loc[("strong", "M"), "value"] == pytest.approx(1.0)
    # issue 39: p is a permutation p of the group labels over the label-positive rows (999 relabellings here):
    # no relabelling of 100 M and 100 F positives reaches |recall gap| = 1, so p = (0 + 1)/(999 + 1)
    assert rec.loc[("strong", "M"), "p"] == pytest.approx(1 / 1000)
    assert rec.loc[("strong", "M"), "test"] == GAP_TEST and rec.loc[("strong", "M"), "n_permutations"] == 999
    assert not bool(rec.loc[("null", "M"), "significant"])
    # two groups: M's predicted positives among the 200 positives are hypergeometric under H0, so the exact
    # p is P(|2X − K| ≥ |2x − K|), X ~ hypergeom(200, K, 100); the Monte Carlo p lies within its error of it
    pos = pd.DataFrame(rows).query("task == 'null' and y == 1")
    x, k = int(pos.loc[pos["g"] == "M", "p"].sum()), int(pos["p"].sum())
    support = np.arange(0, 101)
    pmf = hypergeom(200, k, 100).pmf(support)
    exact = float(pmf[np.abs(2 * support - k) >= abs(2 * x - k) - 1e-9].sum())
    p_null = rec.loc[("null", "M"), "p"]
    assert abs(p_null - exact) < 4 * math.sqrt(exact * (1 - exact) / 999) + 1 / 1000
    assert rec.loc[("null", "F"), "p"] == pytest.approx(p_null)  # one statistic for both groups of two
    # BH over the two tasks of the recall|g family: p = (1/1000, p_null) -> p_adj = (2/1000, p_null)
    assert rec.loc[("strong", "M"), "p_adj"] == pytest.approx(2 / 1000)
    assert rec.loc[("null", "M"), "p_adj"] == pytest.approx(p_null)
    assert rec.loc[("null", "M"), "family"] == "recall|g"
    s = res.summary
    ci = s[(s["criterion"] == "CI excludes 0")].set_index("group")
    assert ci.loc["M", "comparison"] == "M vs. F"
    assert ci.loc["M", "recall_gap"] == "1 (100%)" and ci.loc["F", "recall_gap"] == "1 (0%)"
    assert ci.loc["M", "parity_gap"] == "1 (100%)" and ci.loc["M", "specificity_gap"] == "0 (–)"
    assert ci.loc["M", "n_tasks"] == 2
    bh = s[(s["criterion"] == "BH p_adj < 0.05")].set_index("group")
    assert bh.loc["M", "recall_gap_n_significant"] == 1
    assert set(s["criterion"]) == {"CI excludes 0", "BH p_adj < 0.05"}


def test_table4_hand_built():
    gaps = pd.DataFrame({
        "task": ["a", "a", "b", "b", "c", "c"],
        "attribute": ["sex"] * 6,
        "group": ["F", "M"] * 3,
        "base_metric": ["recall"] * 6,
        "value": [0.2, -0.2, -0.1, 0.1, 0.05, -0.05],
        "significant": [True, True, True, True, False, False],
        "p_adj": [0.01, 0.01, 0.2, 0.2, 0.9, 0.9],
    })
    t = table4(gaps, alpha=0.05, metrics=("recall",)).set_index(["criterion", "group"])
    assert t.loc[("CI excludes 0", "F"), "recall_gap"] == "2 (50%)"
    assert t.loc[("CI excludes 0", "M"), "recall_gap_pct_favour"] == pytest.approx(50.0)
    assert t.loc[("BH p_adj < 0.05", "F"), "recall_gap"] == "1 (100%)"
    assert t.loc[("BH p_adj < 0.05", "M"), "recall_gap"] == "1 (0%)"
    assert t.loc[("CI excludes 0", "F"), "n_tasks"] == 3


def test_missing_and_excluded_groups_are_dropped():
    df = _hand_frame()
    df.loc[0, "grp"] = None
    df.loc[9, "grp"] = "UNKNOWN"
    res = audit_predictions(df, task_column="task", label_column="label", pred_column="pred", group_columns="grp",
                            exclude_groups=["UNKNOWN"], n_resamples=10)
    assert set(res.gaps["group"]) == {"A", "B", "C"}
    assert _row(res.gaps, "positive_rate", "A")["n_group"] == 3
    assert _row(res.gaps, "positive_rate", "C")["n_group"] == 1
    assert set(res.gaps["n"]) == {8}


@pytest.mark.parametrize(
    ("mutate", "kw", "field", "row"),
    [
        (lambda d: d.assign(label=[1, 2] + [0] * 8), {}, "label", 2),
        (lambda d: d.assign(pred=["1", "yes"] + ["0"] * 8), {}, "pred", 2),
        (lambda d: d, {"group_columns": "missing"}, "missing", None),
    ],
)
def test_bad_input_names_file_row_field(mutate, kw, field, row):
    df = mutate(_hand_frame())
    args = dict(task_column="task", label_column="label", pred_column="pred", group_columns="grp", n_resamples=5,
                source="preds.csv")
    args.update(kw)
    with pytest.raises(InputError) as ei:
        audit_predictions(df, **args)
    assert ei.value.file == "preds.csv" and ei.value.field == field and ei.value.row == row


def test_scores_need_a_split_or_threshold_and_test_rows():
    df = pd.DataFrame({"task": ["t"] * 4, "y": [0, 1, 0, 1], "s": [0.1, 0.9, 0.4, 0.6], "g": ["a", "a", "b", "b"],
                       "split": ["valid"] * 4})
    with pytest.raises(InputError, match="validation split"):
        audit_predictions(df, task_column="task", label_column="y", score_column="s", group_columns="g")
    with pytest.raises(InputError, match="no test rows"):
        audit_predictions(df, task_column="task", label_column="y", score_column="s", group_columns="g",
                          split_column="split")
    df2 = df.assign(s=[0.1, "x", 0.4, 0.6])
    with pytest.raises(InputError) as ei:
        audit_predictions(df2, task_column="task", label_column="y", score_column="s", group_columns="g",
                          threshold=0.5)
    assert ei.value.row == 2 and ei.value.field == "s"
    res = audit_predictions(df, task_column="task", label_column="y", score_column="s", group_columns="g",
                            threshold=0.5, n_resamples=5)
    assert res.test["pred"].tolist() == [0, 1, 0, 1]


def test_params_validation():
    with pytest.raises(ValueError, match="exactly one"):
        ClassifierGapsParams(predictions="x.csv", group_columns=["g"])
    with pytest.raises(ValueError, match="group_columns"):
        ClassifierGapsParams(predictions="x.csv", score_column="s")
    p = ClassifierGapsParams.model_validate(demo_spec()["params"])
    assert p.n_resamples == 9999 and p.group_columns == ["gender", "race"]


def test_task_column_none_is_one_task():
    df = _hand_frame().drop(columns="task")
    res = audit_predictions(df, task_column=None, label_column="label", pred_column="pred", group_columns="grp",
                            n_resamples=5)
    assert set(res.gaps["task"]) == {"all"}
    assert math.isclose(_row(res.gaps, "positive_rate", "A")["value"], 0.5)
