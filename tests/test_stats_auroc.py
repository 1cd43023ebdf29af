"""The AUROC bootstrap of the classifier audit and debiasing (clinaudit.stats.auroc)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from clinaudit.stats import percentile_ci
from clinaudit.stats.auroc import auroc_bootstrap_resamples


def test_each_resample_equals_sklearn_on_the_same_stratified_draw() -> None:
    rng = np.random.default_rng(3)
    y = np.array([0] * 25 + [1] * 15)
    s = np.round(rng.normal(size=40) + y, 1)  # rounded: ties, average ranks
    vals = auroc_bootstrap_resamples(s, y, 60, seed=9, max_cells=40 * 7)  # several chunks, one generator
    # independent: label-stratified index draws from one generator, chunk by chunk, then sklearn per resample
    g = np.random.default_rng(9)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    expect = []
    for start in range(0, 60, 7):
        r = min(7, 60 - start)
        idx = np.empty((r, 40), dtype=int)
        idx[:, neg] = neg[g.integers(0, len(neg), size=(r, len(neg)))]
        idx[:, pos] = pos[g.integers(0, len(pos), size=(r, len(pos)))]
        expect += [roc_auc_score(y[i], s[i]) for i in idx]
    assert vals == pytest.approx(np.array(expect), abs=1e-12)
    lo, hi = percentile_ci(vals)
    assert lo <= roc_auc_score(y, s) <= hi
    with pytest.raises(ValueError):
        auroc_bootstrap_resamples(s, np.zeros(40), 10, seed=0)
