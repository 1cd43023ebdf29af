"""Bootstrap of the AUROC (P4 classifier performance and post-hoc attribute recovery).

The AUROC of a resample is the Mann–Whitney form of the area,
(R₁ − n₁(n₁ + 1)/2) / (n₁ n₀) with R₁ the rank sum of the positives (average
ranks for ties, :func:`scipy.stats.rankdata`) — the same number as
:func:`sklearn.metrics.roc_auc_score` on that resample. Resamples are drawn
within each label (:func:`clinaudit.stats.bootstrap_indices` with
``strata=y``), so every resample keeps n₁ positives and n₀ negatives and the
AUROC is always defined. Unit of resampling: the scored row (a test case).
"""

from __future__ import annotations

import numpy as np

from .core import bootstrap_indices

__all__ = ["auroc_bootstrap_resamples"]


def auroc_bootstrap_resamples(scores: np.ndarray, y: np.ndarray, n_resamples: int, seed: int,
                              max_cells: float = 2e7) -> np.ndarray:
    """AUROC on ``n_resamples`` label-stratified bootstrap resamples (1-D array).

    ``y`` holds 0/1 labels with both classes present. Resamples are drawn in
    chunks of at most ``max_cells`` indices to bound memory, all from one
    generator seeded with ``seed`` (so the result does not depend on the chunking
    of a given ``max_cells``). Take :func:`clinaudit.stats.percentile_ci` of the
    result for the CI.
    """
    from scipy.stats import rankdata

    s = np.asarray(scores, dtype=float)
    y = np.asarray(y)
    n = len(y)
    pos = y == 1
    n1, n0 = int(pos.sum()), int((~pos).sum())
    if n1 == 0 or n0 == 0:
        raise ValueError("the AUROC bootstrap needs both classes")
    rng = np.random.default_rng(seed)
    chunk = max(1, int(max_cells // max(n, 1)))
    out = []
    for start in range(0, n_resamples, chunk):
        r = min(chunk, n_resamples - start)
        idx = bootstrap_indices(n, r, strata=y, seed=rng)
        ranks = rankdata(s[idx], axis=1)
        # stratified: column positions keep their label, so the positives are the same columns
        out.append((ranks[:, pos].sum(axis=1) - n1 * (n1 + 1) / 2.0) / (n1 * n0))
    return np.concatenate(out) if out else np.empty(0)
