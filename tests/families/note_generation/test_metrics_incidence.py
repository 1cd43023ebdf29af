"""Tests of incidence disparities (METHODS §4.1) with hand-computed values."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from clinaudit.families.note_generation.metrics import abbreviate_group, incidence_summary, language_disparity_summary


def _long(table: dict[str, list[int]]) -> pd.DataFrame:
    rows = []
    for group, values in table.items():
        for d, v in enumerate(values):
            rows.append({"case_id": f"d{d}", "group": group, "incidence": v})
    return pd.DataFrame(rows)


def test_incidence_summary_hand_computed():
    df = _long({"baseline": [1, 0, 0, 0], "Asian": [1, 1, 0, 0], "Black": [1, 0, 0, 0], "White": [0, 0, 0, 0]})
    s = incidence_summary(df)
    assert s["BL%"] == 25.0
    assert s["rate"] == {"Asian": 50.0, "Black": 25.0, "White": 0.0}
    assert s["maxΔBL"] == 25.0 and s["maxΔBL_group"] == "Asian"
    assert s["ΔCF"] == 50.0
    assert s["%dlg"] == 50.0  # d0 (1,1,0) and d1 (1,0,0) vary; d2, d3 constant
    assert s["n_dialogs"] == 4 and s["n_missing"] == 0


def test_incidence_no_group_above_baseline_is_none():
    df = _long({"baseline": [1, 1], "Female": [1, 0], "Male": [1, 1]})
    s = incidence_summary(df)
    assert s["maxΔBL"] is None and s["maxΔBL_group"] is None
    assert s["ΔCF"] == 50.0 and s["%dlg"] == 50.0


def test_incidence_tied_max_groups_listed_together_and_missing_dropped():
    df = _long({"baseline": [0, 0], "A": [1, 0], "B": [0, 1], "C": [0, 0]})
    df.loc[len(df)] = {"case_id": "d0", "group": "D", "incidence": None}
    s = incidence_summary(df)
    assert s["maxΔBL"] == 50.0 and s["maxΔBL_group"] == "A/B"
    assert s["n_missing"] == 1 and "D" not in s["rate"]


def test_incidence_single_dialog_and_all_equal():
    s = incidence_summary(_long({"baseline": [1], "A": [1], "B": [1]}))
    assert s["BL%"] == 100.0 and s["ΔCF"] == 0.0 and s["%dlg"] == 0.0 and s["maxΔBL"] is None


def test_incidence_rejects_non_binary():
    with pytest.raises(ValueError):
        incidence_summary(_long({"baseline": [2], "A": [0]}))


def test_language_disparity_ties_in_majority():
    decisions = ["YES"] * 8 + ["NO", "maybe"]
    impacted = ["Asian", "Asian", "Black", "Black", "Latino", "Latino", "White", None, None, None]
    s = language_disparity_summary(pd.DataFrame({"decision": decisions, "most_impacted": impacted}))
    assert s["%Δ"] == 80.0
    assert s["Maj."] == "Asian/Black/Latino" and s["Maj._abbr"] == "A/B/L"
    assert s["Maj.%"] == 25.0
    assert s["label"] == "80.0 (A/B/L: 25)"
    assert s["n_dialogs"] == 10 and s["n_yes"] == 8


def test_language_disparity_single_majority_missing_and_no_yes():
    df = pd.DataFrame(
        {"decision": ["YES", " yes", "NO", None], "most_impacted": ["Multiracial", "Multiracial", "White", "Asian"]}
    )
    s = language_disparity_summary(df)
    assert s["%Δ"] == pytest.approx(200 / 3) and s["n_missing"] == 1
    assert s["Maj."] == "Multiracial" and s["Maj._abbr"] == "O" and s["Maj.%"] == 100.0
    s = language_disparity_summary(pd.DataFrame({"decision": ["NO"], "most_impacted": [None]}))
    assert s["%Δ"] == 0.0 and s["Maj."] is None and math.isnan(s["Maj.%"]) and s["label"] == "0.0"


def test_abbreviations():
    assert abbreviate_group("Middle Eastern") == "M" and abbreviate_group("Female") == "F"
    assert abbreviate_group("other") == "O"
    assert abbreviate_group("Black", {"Black": "Blk"}) == "Blk"


def test_incidence_table_rows_and_paired_test():
    from clinaudit.families.note_generation.metrics import incidence_table

    df = _long({"baseline": [1, 0, 0, 0], "Asian": [1, 1, 0, 0], "Black": [1, 0, 0, 0], "White": [0, 0, 0, 0]})
    t = incidence_table(df, n_resamples=100, context="Poverty")
    assert (t["context"] == "Poverty").all()
    bl = t[t["metric"] == "BL%"].iloc[0]
    assert bl["value"] == 25.0 and bl["n"] == 4
    d = t[t["metric"] == "ΔBL"].set_index("group")
    assert d.loc["Asian", "value"] == 25.0 and d.loc["White", "value"] == -25.0 and d.loc["Black", "value"] == 0.0
    # one discordant dialog: every sign flip gives |mean| = 1/4 -> p = 1 (as the exact McNemar test)
    assert d.loc["Asian", "test"] == "sign-flip permutation over cases" and d.loc["Asian", "p"] == 1.0
    assert (d.loc["Asian", "floor"], d.loc["Asian", "rate"], d.loc["Asian", "n_test_cases"]) == (25.0, 50.0, 4)
    assert d.loc["Black", "p"] == 1.0 and d.loc["Black", "n"] == 4
    assert d.loc["Asian", "ci_low"] <= 25.0 <= d.loc["Asian", "ci_high"]
    m = t.set_index("metric")
    assert m.loc["maxΔBL", "group"] == "Asian" and m.loc["ΔCF", "value"] == 50.0 and m.loc["%dlg", "value"] == 50.0


def _binary_pairs(n: int, seed: int) -> pd.DataFrame:
    import numpy as np

    rng = np.random.default_rng(seed)
    bl = rng.integers(0, 2, n)
    alt = np.where(rng.random(n) < 0.35, 1 - bl, bl)  # ~35% of dialogs flip
    alt[: n // 4] = 1  # push toward more incidence under the value
    return pd.DataFrame({"case_id": [f"d{i}" for i in range(n)] * 2, "group": ["baseline"] * n + ["X"] * n,
                         "incidence": list(bl) + list(alt)})


@pytest.mark.parametrize("n,seed", [(6, 1), (9, 2), (13, 3), (12, 5)])
def test_delta_bl_test_is_exact_mcnemar_for_few_dialogs(n, seed):
    """With one 0/1 pair per dialog, the sign-flip test enumerated over every flip IS the exact conditional
    McNemar (sign) test: only the b discordant dialogs move, and the number of +1 among them is Binomial(b, 1/2).
    Recomputed independently with scipy.stats.binomtest."""
    from scipy.stats import binomtest

    from clinaudit.families.note_generation.metrics import incidence_table

    df = _binary_pairs(n, seed)
    t = incidence_table(df, n_resamples=50).set_index("metric").loc["ΔBL"]
    bl = df[df["group"] == "baseline"]["incidence"].to_numpy()
    alt = df[df["group"] == "X"]["incidence"].to_numpy()
    up, down = int(((bl == 0) & (alt == 1)).sum()), int(((bl == 1) & (alt == 0)).sum())
    assert up + down > 0
    expected = binomtest(up, up + down, 0.5).pvalue
    assert t["test_note"].startswith("exact")
    assert t["p"] == pytest.approx(expected, abs=1e-12)
    assert t["value"] == pytest.approx(100.0 * (alt.mean() - bl.mean()))


def test_delta_bl_test_is_the_exact_mcnemar_for_many_dialogs():
    """Beyond 13 dialogs (2^n > 9999 flips) the layer used to sample sign flips; since issue 28 the p is exact
    (d ∈ {−1, 0, 1}: the binomial sign test) for any number of dialogs."""
    from scipy.stats import binomtest

    from clinaudit.families.note_generation.metrics import incidence_table

    df = _binary_pairs(60, 7)
    t = incidence_table(df, n_resamples=50, n_permutations=20000).set_index("metric").loc["ΔBL"]
    bl = df[df["group"] == "baseline"]["incidence"].to_numpy()
    alt = df[df["group"] == "X"]["incidence"].to_numpy()
    up, down = int(((bl == 0) & (alt == 1)).sum()), int(((bl == 1) & (alt == 0)).sum())
    expected = binomtest(up, up + down, 0.5).pvalue
    assert t["test_note"].startswith("exact")
    assert t["p"] == pytest.approx(expected, rel=1e-9)


def test_cochrans_q_hand_formula():
    """Q = (k−1)·(k·ΣC_j² − N²) / (k·N − ΣR_i²) on complete rows, χ²(k−1); incomplete rows dropped."""
    import numpy as np
    from scipy.stats import chi2

    from clinaudit.stats.omnibus import cochrans_q_test

    m = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0], [np.nan, 1, 0]])
    c = m[:6]
    k = 3
    C, R, N = c.sum(axis=0), c.sum(axis=1), c.sum()
    q = (k - 1) * (k * (C**2).sum() - N**2) / (k * N - (R**2).sum())
    res = cochrans_q_test(m)
    assert res.test == "cochrans_q" and res.n == 6
    assert res.statistic == pytest.approx(q, abs=1e-12) and res.p == pytest.approx(chi2.sf(q, k - 1), abs=1e-12)
    assert cochrans_q_test(np.ones((3, 2))).p == 1.0
    assert math.isnan(cochrans_q_test(np.ones((3, 1))).p)
    assert math.isnan(cochrans_q_test(np.array([[np.nan, 1.0]])).p)


def test_single_dialog_shift_does_not_crash():
    """One dialog with a discordant pair: its two sign flips give ±1, so p = 1 (scipy alone refuses one case)."""
    from clinaudit.families.note_generation.metrics import incidence_table
    from clinaudit.stats import sign_flip_test

    t = incidence_table(_long({"baseline": [0], "A": [1]}), n_resamples=20).set_index("metric").loc["ΔBL"]
    assert t["value"] == 100.0 and t["p"] == 1.0 and t["n_test_cases"] == 1
    assert sign_flip_test([1.0], "greater")[1] == 0.5 and sign_flip_test([1.0], "less")[1] == 1.0
