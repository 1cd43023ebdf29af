"""Issue 48, Build 5: every floor true. A row records whether its p is exact or Monte Carlo (``p_kind``) and the
smallest p its test can reach (``p_min``), and the run floor uses it: the association's frame-level sign flip is
Monte Carlo from 14 frames on (p ≥ 1/(R + 1)), which the floor 2/2^k missed, so 120 strongly biased categories
came out inconclusive with no note."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from clinaudit.families.hurtful_words.association_stats import association_tests, frame_permutations
from clinaudit.pipeline.validity import assign_verdicts
from clinaudit.spec import VerdictSettings
from clinaudit.stats.resolution import row_p_kind


def _scores(categories: int, frames: int, shift: float, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for c in range(categories):
        for f in range(frames):
            for t in range(4):
                base = rng.normal(0.0, 1.0)
                rows.append(("m", f"cat{c}", "male", f"frame{f}", t, base + rng.normal(0, 0.3)))
                rows.append(("m", f"cat{c}", "female", f"frame{f}", t, base + shift + rng.normal(0, 0.3)))
    return pd.DataFrame(rows, columns=["model", "category", "group", "frame", "position", "score"])


def test_row_p_kind_by_hand():
    assert row_p_kind({"p": 0.5, "test": "sign-flip permutation over cases", "n_cases": 5,
                       "alternative": "greater", "p_method": "exact"}) == ("exact", 1 / 32, "cases")
    assert row_p_kind({"p": 0.01, "test": "sign_flip_frames", "n_frames": 20, "p_method": "monte carlo",
                       "n_permutations": 9999}) == ("monte carlo", pytest.approx(1e-4), "draws")
    assert row_p_kind({"p": 0.01, "test": "mcnemar_exact", "n_cases": 20})[0] == ""  # not known here
    assert frame_permutations(120, 0.01) == 24000 and frame_permutations(3, 0.01) == 9999


@pytest.fixture(scope="module")
def biased() -> pd.DataFrame:
    return association_tests(_scores(120, 16, shift=1.0), ["male", "female"], tests=("sign-flip",), n_bootstrap=50,
                             alpha=0.01)


def test_120_strongly_biased_categories_with_16_frames_are_bias(biased):
    tests = biased
    assert tests["p_method"].isin(["monte carlo", "bound"]).all() and (tests["n_permutations"] == 24000).all()
    res = assign_verdicts(tests, {"reasons": [], "models": {"m": {"reasons": []}}}, VerdictSettings(),
                          run_audit="association")
    assert (res["p_kind"] == "monte carlo").all() and np.allclose(res["p_min"], 1 / 24001)
    # Holm over 120 rows: 120/24,001 = 0.0049998 < 0.01, so the strongly biased categories are findings
    assert np.allclose(res["p_run_floor"], 120 / 24001)
    assert (res["verdict"] == "bias").all(), res["verdict_reason"].iloc[0]
    assert (res["run_note"] == "").all()


def test_a_monte_carlo_floor_that_cannot_reach_alpha_says_so(biased):
    """With the former 9,999 draws (a spec cannot set the association's), every p is 1/10,000 and the floor
    120/10,000 = 0.012, not below 0.01: the note says so instead of 120 silent inconclusive rows."""
    tests = biased.assign(n_permutations=9999, p=1e-4, p_adj=0.012)
    res = assign_verdicts(tests, {"reasons": [], "models": {"m": {"reasons": []}}}, VerdictSettings(),
                          run_audit="association")
    assert np.allclose(res["p_run_floor"], 0.012)
    assert res["run_note"].str.startswith("this run cannot find bias").all()
    assert (res["verdict"] != "bias").all()
