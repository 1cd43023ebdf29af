"""Tests of probes on frozen encoders (windows, splits, the MLP grid, the Eq. 1 merge) with the mock encoder."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from clinaudit.errors import InputError
from clinaudit.families.hurtful_words.probes import _merge, probe_frame, seeded_sample, seeded_split, split_windows
from clinaudit.records import Case
from clinaudit.runner import Runner


def test_split_windows_hand_computed():
    text = " ".join(f"w{i}" for i in range(10))
    assert split_windows(text, 0) == [text]
    assert split_windows(text, 10) == [text]
    assert split_windows(text, 4, 3) == ["w0 w1 w2 w3", "w3 w4 w5 w6", "w6 w7 w8 w9"]
    # stride = length: the last window is pulled back to end at the text's end
    assert split_windows(text, 4) == ["w0 w1 w2 w3", "w4 w5 w6 w7", "w6 w7 w8 w9"]
    assert split_windows(text, 4, 2, max_windows=2) == ["w0 w1 w2 w3", "w2 w3 w4 w5"]
    with pytest.raises(ValueError):
        split_windows(text, 4, 0)


def test_seeded_split_and_sample_are_order_independent():
    ids = [f"c{i}" for i in range(500)]
    a = dict(zip(ids, seeded_split(ids, seed=3)))
    b = dict(zip(ids[::-1], seeded_split(ids[::-1], seed=3)))
    assert a == b
    counts = pd.Series(a).value_counts()
    assert set(counts.index) == {"train", "valid", "test"}
    assert 250 < counts["train"] < 350 and 70 < counts["valid"] < 130
    assert seeded_split(ids, seed=4) != seeded_split(ids, seed=3)
    cases = [Case(case_id=i, text="x") for i in ids]
    s1 = {c.case_id for c in seeded_sample(cases, 50, seed=1)}
    s2 = {c.case_id for c in seeded_sample(cases[::-1], 50, seed=1)}
    assert s1 == s2 and len(s1) == 50


def test_merge_is_p4_eq1():
    p = np.array([0.2, 0.8, 0.5])
    owner = np.array([0, 0, 1])
    out = _merge(p, owner, 2, c=2.0)
    # text 0: n = 2, n/c = 1: (0.8 + 0.5 * 1) / 2 = 0.65; text 1 has one window: its probability
    assert out[0] == pytest.approx(0.65)
    assert out[1] == pytest.approx(0.5)


def _synthetic(n: int = 240, seed: int = 0, long: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    filler = ["patient", "reports", "mild", "pain", "since", "yesterday", "denies", "cough", "vitals", "stable",
              "exam", "normal", "history", "noted", "plan", "follow"]
    rows = []
    for i in range(n):
        y = int(rng.random() < 0.4)
        g = "F" if rng.random() < 0.5 else "M"
        words = list(rng.choice(filler, size=12))
        if y:
            words.insert(int(rng.integers(0, len(words))), "fever")
            words.insert(int(rng.integers(0, len(words))), "chills")
        if long:
            words = words + list(rng.choice(filler, size=30))
        rows.append({"id": f"n{i}", "text": " ".join(words), "y": y, "sex": g, "age": float(rng.integers(20, 90))})
    return pd.DataFrame(rows)


def test_probe_frame_with_mock_learns_the_task_and_is_deterministic():
    df = _synthetic()
    kw = dict(text_column="text", label_columns="y", group_columns="sex", encoder="mock", id_column="id", seed=0,
              hidden_sizes=[[16]], alphas=[1e-3, 1e-1])
    r1 = probe_frame(df, runner=Runner(), **kw)
    r2 = probe_frame(df, runner=Runner(), **kw)
    pd.testing.assert_frame_equal(r1.predictions, r2.predictions)
    pred = r1.predictions
    assert len(pred) == len(df) and set(pred["split"]) == {"train", "valid", "test"}
    assert list(pred.columns) == ["case_id", "task", "split", "label", "score", "n_windows", "sex"]
    grid = r1.grid
    assert len(grid) == 2 and grid["selected"].sum() == 1 and grid["c"].isna().all()  # one window per text: no c
    assert grid.loc[grid["selected"], "valid_auprc"].iloc[0] == grid["valid_auprc"].max()
    from sklearn.metrics import roc_auc_score

    test = pred[pred["split"] == "test"]
    assert roc_auc_score(test["label"], test["score"]) > 0.95
    assert r1.features.shape == (len(df), 64) and r1.info["feature_dim"] == 64


def test_probe_windows_tune_c_and_covariates():
    df = _synthetic(n=200, long=True)
    r = probe_frame(df, text_column="text", label_columns="y", group_columns="sex", encoder="mock", id_column="id",
                    covariates=["age"], window_words=15, window_stride=10, hidden_sizes=[[16]], alphas=[1e-2],
                    c_grid=[0.5, 4.0])
    assert (r.predictions["n_windows"] > 1).all()
    assert sorted(r.grid["c"].tolist()) == [0.5, 4.0] and r.grid["selected"].sum() == 1
    assert r.features.shape[1] == 65  # 64 mock dims + 1 standardised covariate
    train = r.cases["split"] == "train"
    z = r.features[train.to_numpy(), -1]
    assert z.mean() == pytest.approx(0.0, abs=1e-9) and z.std() == pytest.approx(1.0, abs=1e-9)


def test_probe_input_errors_name_row_and_field():
    df = _synthetic(n=30)
    df.loc[4, "y"] = 2
    with pytest.raises(InputError) as ei:
        probe_frame(df, text_column="text", label_columns="y", group_columns="sex", source="notes.csv")
    assert (ei.value.file, ei.value.row, ei.value.field) == ("notes.csv", 5, "y")
    df = _synthetic(n=30).astype({"age": object})
    df.loc[2, "age"] = "old"
    with pytest.raises(InputError) as ei:
        probe_frame(df, text_column="text", label_columns="y", group_columns="sex", covariates=["age"],
                    source="notes.csv")
    assert (ei.value.row, ei.value.field) == (3, "age")
    with pytest.raises(InputError) as ei:
        probe_frame(_synthetic(n=30), text_column="text", label_columns="nope", group_columns="sex")
    assert ei.value.field == "nope"
    bad_split = _synthetic(n=30).assign(split="dev")
    with pytest.raises(InputError) as ei:
        probe_frame(bad_split, text_column="text", label_columns="y", group_columns="sex", split_column="split")
    assert ei.value.field == "split" and ei.value.row == 1


def test_probe_skips_one_class_tasks():
    df = _synthetic(n=80).assign(z=0)
    r = probe_frame(df, text_column="text", label_columns=["y", "z"], group_columns="sex", hidden_sizes=[[8]],
                    alphas=[1e-2])
    assert r.tasks == ["y"]
    assert r.grid.loc[r.grid["task"] == "z", "note"].iloc[0].startswith("skipped")
