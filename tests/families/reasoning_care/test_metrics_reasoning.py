"""Tests of reasoning-audit metrics (METHODS §4.3) with hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clinaudit.families.reasoning_care.metrics import (
    delta_acc,
    delta_len,
    drift_effect,
    rethink_ratio,
    semantic_drift,
    split_steps,
)


def test_delta_acc():
    assert delta_acc([1, 1, 0, 1], [1, 0, 0, 0]) == pytest.approx(0.5)
    assert delta_acc([1], [0]) == 1.0  # n = 1
    assert math.isnan(delta_acc([], [1]))
    assert delta_acc([1, np.nan], [0, 0]) == 1.0


def test_delta_len_hand_computed():
    r = delta_len([10, 20, 30], [8, 20, 25])  # d = [2, 0, 5]
    assert r["mean"] == pytest.approx(7 / 3)
    assert r["sd"] == pytest.approx(math.sqrt(57) / 3)
    assert r["n"] == 3 and r["values"].tolist() == [2, 0, 5]
    one = delta_len([4], [1])
    assert one["mean"] == 3 and math.isnan(one["sd"])
    with pytest.raises(ValueError):
        delta_len([1, 2], [1])


def test_semantic_drift_hand_computed():
    a = np.array([[1, 0], [1, 0], [1, 0], [3, 4], [0, 0]])
    b = np.array([[0, 1], [1, 0], [-1, 0], [4, 3], [1, 0]])
    d = semantic_drift(a, b)
    assert d[:4] == pytest.approx([1.0, 0.0, 2.0, 1 - 24 / 25])
    assert math.isnan(d[4])  # zero vector: cosine undefined
    assert semantic_drift([1, 0], [1, 0]).shape == (1,)


def test_drift_effect_hand_computed():
    r = drift_effect([0.3, 0.4, 0.5], [0.1, 0.2, 0.3], n_resamples=200)
    assert r["d"] == pytest.approx(2.0)  # mean difference 0.2 over pooled sd 0.1
    # through the paired layer: excess over the control floor, one-sided sign-flip test over the 3 items
    assert r["excess"] == pytest.approx(0.2) and r["floor"] == pytest.approx(0.2) and r["rate"] == pytest.approx(0.4)
    assert r["test"] == "sign-flip permutation over cases" and r["statistic"] == pytest.approx(0.2)
    assert r["p"] == pytest.approx(0.125)  # exact, every per-item excess is +0.2: only the identity flip reaches it, 1/8
    assert r["alternative"] == "greater" and "exchangeable" in r["null_hypothesis"]
    assert r["n"] == 3 and r["n_cases"] == 3 and r["n_pairs"] == 3
    assert r["mean_gender"] == pytest.approx(0.4) and r["mean_control"] == pytest.approx(0.2)
    assert r["ci_low"] == pytest.approx(0.2) and r["ci_high"] == pytest.approx(0.2)  # every resample has excess 0.2
    two = drift_effect([0.3, 0.4, 0.5], [0.1, 0.2, 0.3], alternative="two-sided")
    assert two["p"] == pytest.approx(0.25) and two["d"] == pytest.approx(2.0)


def test_drift_effect_reproducible_and_degenerate():
    g = np.linspace(0.1, 0.5, 12)
    c = np.linspace(0.05, 0.2, 12)[::-1]
    a, b = drift_effect(g, c, seed=2), drift_effect(g, c, seed=2)
    assert (a["ci_low"], a["ci_high"]) == (b["ci_low"], b["ci_high"])
    same = drift_effect([0.1, 0.1], [0.1, 0.1])
    assert math.isnan(same["d"]) and same["p"] == 1.0
    u = drift_effect([0.3, 0.4, 0.5], [0.1, 0.2], paired=False, n_resamples=50)
    # independent samples: label permutation, C(5, 3) = 10 relabellings, the observed split is the most extreme
    assert u["test"] == "studentised permutation of subgroup labels over cases" and u["n"] == 5
    assert u["excess"] == pytest.approx(0.25) and u["p"] == pytest.approx(0.1)
    # missing drifts: the item is dropped from both pairs
    m = drift_effect([0.3, np.nan, 0.5], [0.1, 0.2, 0.3])
    assert m["n"] == 2 and m["floor"] == pytest.approx(0.2) and m["rate"] == pytest.approx(0.4)


def test_rethink_ratio_lines():
    cot = "First, chest pain.\n\nWait, the ECG is normal.\nHowever, troponin is high.\nSo ACS."
    assert split_steps(cot) == ["First, chest pain.", "Wait, the ECG is normal.", "However, troponin is high.", "So ACS."]
    assert rethink_ratio(cot) == 0.5


def test_rethink_ratio_single_line_sentences_and_word_boundaries():
    assert rethink_ratio("It is A. Wait, maybe B. Final answer B.") == pytest.approx(1 / 3)
    assert rethink_ratio("Awaiting results. Lab is normal.") == 0.0  # 'wait' inside a word
    assert rethink_ratio("<think>On second thought, reconsider.</think>") == 1.0
    assert math.isnan(rethink_ratio(""))
    assert rethink_ratio("Hmm. Okay.", cues=("okay",)) == 0.5


# --------------------------------------------------------------------------- language mode (issue 13 item 6)


def test_normalize_language_codes_and_names():
    from clinaudit.families.reasoning_care.metrics import has_rethink_lexicon, normalize_language

    assert normalize_language("en") == ("en", "English")
    assert normalize_language("English") == normalize_language("en-US") == ("en", "English")
    assert normalize_language("zh") == normalize_language("zh-CN") == normalize_language("Chinese") == ("zh", "Chinese")
    assert normalize_language("中文") == ("zh", "Chinese")
    assert normalize_language("Klingon") == ("klingon", "Klingon")  # unknown: passed through
    assert has_rethink_lexicon("zh") and has_rethink_lexicon("English") and not has_rethink_lexicon("fr")


def test_split_steps_chinese_sentences_and_lines():
    cot = "<think>患者胸痛三天。等等，心电图正常！其实肌钙蛋白升高？所以是心梗。\n剂量3.5 mg。“需要复查。”然后出院</think>"
    assert split_steps(cot, "zh") == ["患者胸痛三天。", "等等，心电图正常！", "其实肌钙蛋白升高？", "所以是心梗。",
                                      "剂量3.5 mg。", "“需要复查。”", "然后出院"]
    # the English rule keeps one line as one sentence here (no '. ' in it)
    assert split_steps("患者胸痛三天。等等，心电图正常！", "en") == ["患者胸痛三天。等等，心电图正常！"]
    assert split_steps("", "zh") == []


def test_rethink_ratio_chinese_hand_computed():
    from clinaudit.families.reasoning_care.metrics import CHINESE_RETHINK_CUES

    # 4 steps, cues in steps 2 (等等，) and 3 (其实): 2/4
    assert rethink_ratio("患者胸痛三天。等等，心电图正常！其实肌钙蛋白升高？所以是心梗。", language="zh") == 0.5
    # '等等' meaning "etc." and '不对称' (asymmetric) and '不过敏' (not allergic) are not cues: 0/3
    assert rethink_ratio("发热、咳嗽等等症状。双侧瞳孔不对称。对青霉素不过敏。", language="zh") == 0.0
    # 3 steps; 重新评估 in step 2, 嗯 in step 3: 2/3
    assert rethink_ratio("发热。需要重新评估。\n嗯，可能是肺炎", language="Chinese") == pytest.approx(2 / 3)
    assert "其实" in CHINESE_RETHINK_CUES and "等等，" in CHINESE_RETHINK_CUES
    # the English lexicon does not see Chinese cues (and vice versa)
    assert rethink_ratio("等等，心电图正常。", language="en") == 0.0
    assert rethink_ratio("Wait, the ECG is normal.", language="zh") == 0.0
    # explicit cues work for any language; no lexicon and no cues is an error
    assert rethink_ratio("Attendez, l'ECG est normal. Donc SCA.", cues=("attendez",), language="fr") == 0.5
    with pytest.raises(ValueError, match="no built-in rethink-cue lexicon"):
        rethink_ratio("Attendez.", language="fr")


def test_drift_effect_agrees_with_an_independent_recomputation():
    # plain numpy, written separately from the layer: exact sign-flip p by enumeration and an
    # item-resampled percentile bootstrap of the excess
    import itertools

    rng = np.random.default_rng(7)
    c = rng.uniform(0.0, 0.1, 12)
    g = c + rng.normal(0.03, 0.05, 12)
    r = drift_effect(g, c, n_resamples=20000, seed=3)
    d = g - c
    flips = np.array(list(itertools.product([1.0, -1.0], repeat=d.size)))
    null = (flips * d).mean(axis=1)
    p_exact = float(np.mean(null >= d.mean() - 1e-12))
    assert r["p"] == pytest.approx(p_exact, abs=1e-12) and r["note"].startswith("exact")
    idx = np.random.default_rng(11).integers(0, d.size, size=(20000, d.size))
    boot = g[idx].mean(axis=1) - c[idx].mean(axis=1)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    assert r["excess"] == pytest.approx(g.mean() - c.mean())
    assert r["ci_low"] == pytest.approx(lo, abs=0.001) and r["ci_high"] == pytest.approx(hi, abs=0.001)
    # Cohen's d with the pooled SD, by hand
    pooled = np.sqrt(((g.size - 1) * g.var(ddof=1) + (c.size - 1) * c.var(ddof=1)) / (g.size + c.size - 2))
    assert r["d"] == pytest.approx((g.mean() - c.mean()) / pooled)
