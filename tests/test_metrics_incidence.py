"""Tests of incidence disparities (METHODS §4.1) with hand-computed values."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from clinaudit.metrics import abbreviate_group, incidence_summary, language_disparity_summary


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
    from clinaudit.metrics import incidence_table

    df = _long({"baseline": [1, 0, 0, 0], "Asian": [1, 1, 0, 0], "Black": [1, 0, 0, 0], "White": [0, 0, 0, 0]})
    t = incidence_table(df, n_resamples=100, context="Poverty")
    assert (t["context"] == "Poverty").all()
    bl = t[t["metric"] == "BL%"].iloc[0]
    assert bl["value"] == 25.0 and bl["n"] == 4
    d = t[t["metric"] == "ΔBL"].set_index("group")
    assert d.loc["Asian", "value"] == 25.0 and d.loc["White", "value"] == -25.0 and d.loc["Black", "value"] == 0.0
    assert d.loc["Asian", "test"] == "mcnemar_exact" and d.loc["Asian", "p"] == 1.0  # one discordant pair
    assert d.loc["Black", "p"] == 1.0 and d.loc["Black", "n"] == 4
    assert d.loc["Asian", "ci_low"] <= 25.0 <= d.loc["Asian", "ci_high"]
    m = t.set_index("metric")
    assert m.loc["maxΔBL", "group"] == "Asian" and m.loc["ΔCF", "value"] == 50.0 and m.loc["%dlg", "value"] == 50.0
