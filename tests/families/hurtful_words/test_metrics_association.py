"""Tests of log-probability bias score aggregation (METHODS §4.4)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from clinaudit.families.hurtful_words.association_stats import bias_score_summary


def _scores() -> pd.DataFrame:
    rows = []
    male_c1 = [1.0, 2.0, 3.0, 4.0, 5.0]
    female_c1 = [0.0, 0.5, 1.0, 1.5, 2.0]
    for i, (m, f) in enumerate(zip(male_c1, female_c1)):
        rows.append(dict(category="CVD", template=f"t{i}", attribute="chest pain", target_index=0, group="male", score=m))
        rows.append(dict(category="CVD", template=f"t{i}", attribute="chest pain", target_index=0, group="female", score=f))
    for i, s in enumerate([1.0, 2.0]):
        for g in ("male", "female"):
            rows.append(dict(category="PULM", template="t0", attribute=f"a{i}", target_index=1, group=g, score=s))
    rows.append(dict(category="PULM", template="t9", attribute="a9", target_index=2, group="male", score=9.0))  # unpaired
    return pd.DataFrame(rows)


def test_bias_score_summary_hand_computed_bonferroni():
    t = bias_score_summary(_scores()).set_index("category")
    cvd, pulm = t.loc["CVD"], t.loc["PULM"]
    assert cvd["mean_male"] == 3.0 and cvd["mean_female"] == 1.0
    assert cvd["value"] == -2.0 and cvd["n"] == 5  # female - male (sorted group order) and cvd["n_sentences"] == 10
    assert cvd["test"] == "wilcoxon" and cvd["p"] == pytest.approx(2 / 32)  # exact, all 5 differences > 0
    assert cvd["p_adj"] == pytest.approx(4 / 32) and cvd["family"] == "categories"
    assert pulm["p"] == 1.0 and pulm["n"] == 2 and pulm["n_sentences"] == 5  # all differences zero
    assert pulm["mean_male"] == pytest.approx(4.0)  # includes the unpaired sentence
    assert cvd["group"] == "female" and cvd["reference"] == "male"  # sorted group order by default
    assert not cvd["flag"]


def test_bias_score_summary_group_order_bh_and_flag():
    t = bias_score_summary(_scores(), groups=["male", "female"], correction="fdr_bh", alpha=0.1).set_index("category")
    assert t.loc["CVD", "group"] == "male" and t.loc["CVD", "value"] == 2.0
    assert t.loc["CVD", "p_adj"] == pytest.approx(2 / 32 * 2)  # BH with 2 tests, rank 1
    assert t.loc["CVD", "flag"] and not t.loc["CVD", "flag_adj"]
    assert (t["correction"] == "fdr_bh").all()


def test_bias_score_summary_needs_two_groups():
    s = _scores()
    with pytest.raises(ValueError):
        bias_score_summary(s[s["group"] == "male"])
    one = bias_score_summary(s[s["category"] == "PULM"])
    assert one["n"].iloc[0] == 2 and one["p"].iloc[0] == 1.0 and one["p_adj"].iloc[0] == 1.0
    assert one["value"].iloc[0] == 0.0
    empty = bias_score_summary(s[(s["category"] == "PULM") & (s["target_index"] == 2)].assign(group=["female"]), groups=["male", "female"])
    assert math.isnan(empty["p"].iloc[0]) and math.isnan(empty["value"].iloc[0])
