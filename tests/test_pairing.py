"""The shared baseline pairing (clinaudit.pipeline.pairing): hand-built answers, hand-listed pairs."""

from __future__ import annotations

import math

import pandas as pd

from clinaudit.pipeline.pairing import NOISE_FLOOR, pair_with_baseline


def _rows(df: pd.DataFrame) -> list[tuple]:
    return [tuple(None if isinstance(v, float) and math.isnan(v) else v for v in r)
            for r in df[["case_id", "arm", "seed", "seed_b", "alt", "ref"]].itertuples(index=False)]


def test_two_baseline_seeds_pair_across_seeds_and_give_the_floor():
    answers = pd.DataFrame([
        # case a: baseline at seeds 0, 1, 2; a change at seeds 0 and 1
        ("a", "baseline", 0, 1), ("a", "baseline", 1, 0), ("a", "baseline", 2, 1),
        ("a", "typo", 0, 0), ("a", "typo", 1, 1),
        # case b: one baseline seed: the change pairs with it, same seed or not; no floor
        ("b", "baseline", 0, 1), ("b", "typo", 0, 1), ("b", "typo", 3, 0),
        # case c: no baseline answer: kept, reference missing
        ("c", "typo", 0, 1),
    ], columns=["case_id", "arm", "seed", "value"])
    pairs = pair_with_baseline(answers, keys=["case_id"])
    assert list(pairs.columns) == ["case_id", "arm", "seed", "alt", "seed_b", "ref"]
    assert _rows(pairs) == [
        ("a", "typo", 0, 1, 0, 0), ("a", "typo", 0, 2, 0, 1),     # seed 0 vs baseline seeds 1 and 2
        ("a", "typo", 1, 0, 1, 1), ("a", "typo", 1, 2, 1, 1),     # seed 1 vs baseline seeds 0 and 2
        ("b", "typo", 0, 0, 1, 1), ("b", "typo", 3, 0, 0, 1),     # the one baseline seed
        ("c", "typo", 0, None, 1, None),                           # no baseline
        ("a", NOISE_FLOOR, 1, 0, 0, 1), ("a", NOISE_FLOOR, 2, 0, 1, 1), ("a", NOISE_FLOOR, 2, 1, 1, 0),
    ]


def test_baseline_given_as_a_mask_and_other_column_names():
    answers = pd.DataFrame({"case_id": ["x", "x", "x"], "variant": ["orig", "orig", "shout"],
                            "s": [0, 1, 1], "label": ["A", "B", "A"]})
    pairs = pair_with_baseline(answers, keys=["case_id"], baseline=answers["variant"] == "orig", arm="variant",
                               seed="s", value="label", floor="floor")
    assert pairs[["variant", "s", "seed_b", "alt", "ref"]].values.tolist() == [
        ["shout", 1, 0, "A", "A"], ["floor", 1, 0, "B", "A"]]


def test_unseeded_answers_pair_with_every_baseline_answer_and_carry_columns():
    """seed=None (clinicians' labels): a left join on the unit, the baseline's carried columns as <name>_b."""
    answers = pd.DataFrame({
        "case_id": ["a", "a", "a", "b", "c", "c"],
        "variant": ["orig", "typo", "caps", "typo", "orig", "orig"],
        "label": [1, 0, 1, 1, 0, 1],
        "rater_id": ["r1", "r2", "r3", "r4", "r5", "r6"],
    })
    pairs = pair_with_baseline(answers, keys=["case_id"], baseline=answers["variant"] == "orig", arm="variant",
                               seed=None, value="label", carry=["rater_id"])
    assert list(pairs.columns) == ["case_id", "variant", "alt", "rater_id", "ref", "rater_id_b"]
    rows = [tuple(None if isinstance(v, float) and math.isnan(v) else v for v in r)
            for r in pairs.itertuples(index=False)]
    assert rows == [("a", "typo", 0, "r2", 1, "r1"), ("a", "caps", 1, "r3", 1, "r1"),
                    ("b", "typo", 1, "r4", None, None)]  # b has no baseline; c has no change (and no floor)


def test_carry_needs_unseeded_answers():
    import pytest

    answers = pd.DataFrame({"case_id": ["a"], "arm": ["baseline"], "seed": [0], "value": [1], "x": [1]})
    with pytest.raises(ValueError, match="carry"):
        pair_with_baseline(answers, keys=["case_id"], carry=["x"])
