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
