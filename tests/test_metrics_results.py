"""Tests of the tidy result schema (clinaudit.results)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from clinaudit.results import RESULT_COLUMNS, apply_correction, result_row, results_frame


def test_result_row_defaults_and_extras():
    r = result_row(metric="TSR", value=0.25, n=8, model="m1", p=None)
    assert list(r)[: len(RESULT_COLUMNS)] == RESULT_COLUMNS
    assert r["value"] == 0.25 and r["n"] == 8 and r["model"] == "m1"
    assert math.isnan(r["p"]) and math.isnan(r["ci_low"]) and r["family"] == ""


def test_results_frame_orders_columns_and_fills():
    df = results_frame([{"task": "sepsis", "value": 1, "metric": "recall"}, {"metric": "x", "dataset": "d"}])
    assert list(df.columns) == RESULT_COLUMNS + ["task", "dataset"]
    assert df["value"].dtype == np.float64 and df["n"].dtype == np.int64
    empty = results_frame([])
    assert list(empty.columns) == RESULT_COLUMNS and len(empty) == 0


def test_apply_correction_by_family_columns():
    df = results_frame(
        [
            result_row(metric="recall_gap", attribute="gender", p=0.01),
            result_row(metric="recall_gap", attribute="gender", p=0.04),
            result_row(metric="recall_gap", attribute="language", p=0.02),
            result_row(metric="recall_gap", attribute="language", p=np.nan),
        ]
    )
    out = apply_correction(df, family_cols=["metric", "attribute"], method="bonferroni")
    assert out["p_adj"].tolist()[:3] == pytest.approx([0.02, 0.08, 0.02])  # NaN does not count
    assert math.isnan(out["p_adj"].iloc[3])
    assert out["family"].tolist() == ["recall_gap|gender"] * 2 + ["recall_gap|language"] * 2
    assert (out["correction"] == "bonferroni").all()
    assert math.isnan(df["p_adj"].iloc[0])  # input untouched


def test_apply_correction_named_family_bh():
    df = results_frame([result_row(p=p) for p in (0.01, 0.04, 0.03)])
    out = apply_correction(df, family="perturbations")
    assert out["p_adj"].tolist() == pytest.approx([0.03, 0.04, 0.04])
    assert set(out["family"]) == {"perturbations"} and set(out["correction"]) == {"fdr_bh"}


def test_apply_correction_requires_a_declared_family():
    df = results_frame([result_row(p=0.1)])
    with pytest.raises(ValueError):
        apply_correction(df)
    with pytest.raises(KeyError):
        apply_correction(df, family_cols=["nope"])


def test_apply_correction_accepts_plain_frame():
    out = apply_correction(pd.DataFrame({"p": [0.2, 0.4], "metric": ["a", "b"]}), family="f", method="bonferroni")
    assert list(out.columns[: len(RESULT_COLUMNS)]) == RESULT_COLUMNS
    assert out["p_adj"].tolist() == pytest.approx([0.4, 0.8])
