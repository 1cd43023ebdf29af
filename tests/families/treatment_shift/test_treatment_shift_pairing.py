"""Pairing and noise floor of the treatment-shift analysis (issue 13), hand-computed."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from clinaudit.families.treatment_shift.analysis import analyze_labels, build_paired

CASES = ["c1", "c2", "c3", "c4", "c5", "c6"]
SEEDS = [0, 1, 2]
# MANAGE label of each case at each seed; the "noop" perturbation changes nothing, and a model whose answer is
# fixed by its sampling seed gives the same answer to the same prompt at the same seed
BY_SEED = {"c1": [0, 1, 0], "c2": [1, 1, 1], "c3": [0, 0, 1], "c4": [1, 0, 0], "c5": [0, 0, 0], "c6": [1, 0, 1]}


def _labels(variants=("baseline", "noop")) -> pd.DataFrame:
    rows = []
    for v in variants:
        for c in CASES:
            for s in SEEDS:
                rows.append({"dataset": "d", "case_id": c, "variant": v, "model": "m", "seed": s, "question": "MANAGE",
                             "label": BY_SEED[c][s], "gender": "female" if c in ("c1", "c2", "c3") else "male"})
    return pd.DataFrame(rows)


def _floor_by_hand() -> tuple[float, int]:
    """Each unordered pair of two different seeds of a case once."""
    flips = [BY_SEED[c][s] != BY_SEED[c][t] for c in CASES for s, t in itertools.combinations(SEEDS, 2)]
    return float(np.mean(flips)), len(flips)


def test_floor_counts_each_unordered_seed_pair_once():
    paired = build_paired(_labels())
    fl = paired[paired["perturbation"] == "noise_floor"]
    # 3 seeds -> 3 unordered pairs per case (was 6: both orders (s, s') and (s', s) of every pair)
    assert len(fl) == 3 * len(CASES)
    assert set(map(tuple, fl[["seed_b", "seed"]].drop_duplicates().to_numpy())) == {(0, 1), (0, 2), (1, 2)}
    a = analyze_labels(_labels(), n_resamples=100, n_permutations=999)
    m = a.metrics.set_index("metric")
    floor, n_floor = _floor_by_hand()
    assert m.loc["TSR", "noise_floor"] == pytest.approx(floor) and m.loc["TSR", "n_floor"] == n_floor == 18


def test_perturbed_pairs_across_seeds_like_the_floor():
    """A perturbation that changes nothing has zero excess only when it is paired like the floor."""
    paired = build_paired(_labels())
    noop = paired[paired["perturbation"] == "noop"]
    assert len(noop) == len(CASES) * 3 * 2 and (noop["seed"] != noop["seed_b"]).all()
    a = analyze_labels(_labels(), n_resamples=100, n_permutations=999)
    m = a.metrics.set_index("metric")
    floor, _ = _floor_by_hand()
    # cross-seed: noop at s' vs baseline at s != s' is exactly the floor comparison (both orders): excess 0.
    # Same-seed pairing (before) gave TSR 0 and an excess of -floor.
    assert m.loc["TSR", "value"] == pytest.approx(floor) and m.loc["TSR", "n"] == 36
    assert m.loc["TSR", "adjusted"] == pytest.approx(0.0, abs=1e-12)
    assert m.loc["RCR", "adjusted"] == pytest.approx(0.0, abs=1e-12)
    assert m.loc["TSR", "p"] == 1.0  # every case-level excess is 0
    assert any("s != s'" in n for n in a.notes)


def test_single_seed_keeps_same_seed_pairing():
    lab = _labels()
    lab = lab[lab["seed"] == 1]
    paired = build_paired(lab)
    assert (paired["perturbation"] == "noise_floor").sum() == 0
    assert (paired["seed"] == paired["seed_b"]).all() and len(paired) == len(CASES)


def test_gender_gap_subtracts_each_genders_floor():
    """Same raw shift for women and men, but the men's baseline is unstable: the gap of the excess is not 0."""
    rows = []
    # women f1..f4: baseline stable (0, 0); men m1..m4: baseline flips between seeds for m1, m2
    base = {"f1": [0, 0], "f2": [0, 0], "f3": [0, 0], "f4": [0, 0], "m1": [0, 1], "m2": [1, 0], "m3": [0, 0],
            "m4": [0, 0]}
    # perturbed answers vs the other seed's baseline: f1, f2 flip both times, f3, f4 never (women 4/8);
    # m1, m2 never (their perturbed answer equals the other seed's baseline), m3, m4 both times (men 4/8)
    pert = {"f1": [1, 1], "f2": [1, 1], "f3": [0, 0], "f4": [0, 0], "m1": [1, 0], "m2": [0, 1], "m3": [1, 1],
            "m4": [1, 1]}
    for variant, table in (("baseline", base), ("typo", pert)):
        for c, labs in table.items():
            for s, v in enumerate(labs):
                rows.append({"case_id": c, "variant": variant, "model": "m", "seed": s, "question": "MANAGE",
                             "label": v, "gender": "female" if c.startswith("f") else "male"})
    a = analyze_labels(pd.DataFrame(rows), n_resamples=100, n_permutations=999)
    g = a.subgroups[(a.subgroups["metric"] == "TSR_gap") & (a.subgroups["gender_source"] == "recorded")].iloc[0]
    # recomputed from the pairs with plain pandas: raw 1/2 for both; floors 0 (women) and 1/2 (m1, m2 of 4 men)
    p = build_paired(pd.DataFrame(rows))
    t = p[p["perturbation"] == "typo"]
    raw_f = (t.loc[t["gender"] == "female", "T_b"] != t.loc[t["gender"] == "female", "T_p"]).mean()
    raw_m = (t.loc[t["gender"] == "male", "T_b"] != t.loc[t["gender"] == "male", "T_p"]).mean()
    fl = p[p["perturbation"] == "noise_floor"]
    floor_f = (fl.loc[fl["gender"] == "female", "T_b"] != fl.loc[fl["gender"] == "female", "T_p"]).mean()
    floor_m = (fl.loc[fl["gender"] == "male", "T_b"] != fl.loc[fl["gender"] == "male", "T_p"]).mean()
    assert (raw_f, raw_m, floor_f, floor_m) == (0.5, 0.5, 0.0, 0.5)
    assert g["floor_female"] == pytest.approx(floor_f) and g["floor_male"] == pytest.approx(floor_m)
    assert g["value"] == pytest.approx((raw_f - floor_f) - (raw_m - floor_m))
    assert g["value"] == pytest.approx(0.5)  # the raw gap, 0, ignored the men's floor
    assert g["test"] == "studentised permutation of subgroup labels over cases" and g["n_cases_female"] == 4
