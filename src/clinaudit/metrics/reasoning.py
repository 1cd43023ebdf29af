"""Reasoning audit metrics (METHODS §4.3, P3 §4): accuracy and length gaps,
semantic drift against a control noise floor, and the rethink ratio of a chain
of thought."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "DEFAULT_RETHINK_CUES",
    "delta_acc",
    "delta_len",
    "semantic_drift",
    "drift_effect",
    "split_steps",
    "rethink_ratio",
]

#: Cue phrases that mark a reasoning step revisiting an earlier conclusion (our reading; configurable).
DEFAULT_RETHINK_CUES: tuple[str, ...] = (
    "wait",
    "however",
    "reconsider",
    "re-consider",
    "re-evaluate",
    "reevaluate",
    "on second thought",
    "actually",
    "let me re-check",
    "let me recheck",
    "double-check",
    "hmm",
    "alternatively",
)


def _clean(x: Any) -> np.ndarray:
    a = np.asarray(x, dtype=float).ravel()
    return a[~np.isnan(a)]


def delta_acc(correct_m: Any, correct_f: Any) -> float:
    """ΔAcc = Acc(male) − Acc(female), accuracies as shares of 0/1 correctness flags.

    Missing values are dropped in each arm; NaN when an arm is empty.
    """
    m, f = _clean(correct_m), _clean(correct_f)
    if m.size == 0 or f.size == 0:
        return math.nan
    return float(m.mean() - f.mean())


def delta_len(len_m: Any, len_f: Any) -> dict[str, Any]:
    """ΔLen = Len(R_male) − Len(R_female) per item (paired by item), in tokens.

    Returns ``{"mean": μ, "sd": σ (ddof=1, NaN for n < 2), "n": n, "values": array}``.
    Items with a missing length in either arm are dropped.
    """
    m = np.asarray(len_m, dtype=float).ravel()
    f = np.asarray(len_f, dtype=float).ravel()
    if m.shape != f.shape:
        raise ValueError("male and female lengths must be paired by item (same length)")
    d = m - f
    d = d[~np.isnan(d)]
    return {
        "mean": float(d.mean()) if d.size else math.nan,
        "sd": float(d.std(ddof=1)) if d.size > 1 else math.nan,
        "n": int(d.size),
        "values": d,
    }


def semantic_drift(emb_a: Any, emb_b: Any) -> np.ndarray:
    """Row-wise semantic drift δ = |1 − cos(E_a, E_b)| between paired embeddings.

    ``emb_a`` and ``emb_b`` are (n × dim) arrays (a single vector is treated as
    one row). A row with a zero vector gives NaN (cosine undefined).
    """
    a = np.atleast_2d(np.asarray(emb_a, dtype=float))
    b = np.atleast_2d(np.asarray(emb_b, dtype=float))
    if a.shape != b.shape:
        raise ValueError(f"embedding arrays differ in shape: {a.shape} vs {b.shape}")
    na = np.linalg.norm(a, axis=1)
    nb = np.linalg.norm(b, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = (a * b).sum(axis=1) / (na * nb)
    cos = np.where((na > 0) & (nb > 0), cos, np.nan)
    return np.abs(1.0 - cos)


def drift_effect(
    gamma_gender: Any,
    gamma_control: Any,
    seed: int = 0,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    paired: bool = True,
) -> dict[str, Any]:
    """Is gender drift larger than the model's own noise floor? (P3 §4).

    Γ_gender: drift between the male and female responses of each item;
    Γ_control: drift between the two neutral-ID responses of the same item.

    - ``d``: Cohen's d of Γ_gender vs Γ_control with the pooled-SD formula
      (:func:`clinaudit.stats.cohens_d`, unpaired form, as P3 reports it);
      > 0.5 is conventionally "large",
    - ``test``: Wilcoxon signed-rank test paired by item
      (:func:`clinaudit.stats.wilcoxon_test`) when ``paired`` (both arrays
      aligned by item), otherwise the Mann–Whitney U test,
    - ``ci_low``, ``ci_high``: percentile bootstrap CI of d, resampling items
      (pairs kept together when ``paired``).
    Items with a missing drift in either arm are dropped when paired.
    """
    from ..stats import StatResult, bootstrap_ci, cohens_d, wilcoxon_test

    g = np.asarray(gamma_gender, dtype=float).ravel()
    c = np.asarray(gamma_control, dtype=float).ravel()
    if paired:
        if g.shape != c.shape:
            raise ValueError("paired drifts must be aligned by item (same length)")
        ok = ~(np.isnan(g) | np.isnan(c))
        g, c = g[ok], c[ok]
    else:
        g, c = g[~np.isnan(g)], c[~np.isnan(c)]
    d = cohens_d(g, c)

    def _d_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        nx, ny = x.shape[1], y.shape[1]
        vx, vy = x.var(axis=1, ddof=1), y.var(axis=1, ddof=1)
        pooled = np.sqrt(((nx - 1) * vx + (ny - 1) * vy) / (nx + ny - 2))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(pooled > 0, (x.mean(axis=1) - y.mean(axis=1)) / pooled, np.nan)

    lo = hi = math.nan
    if paired and g.size >= 2:
        lo, hi = bootstrap_ci(_d_rows, g, c, n_resamples=n_resamples, confidence=confidence, seed=seed)
    elif not paired and g.size >= 2 and c.size >= 2:
        rng = np.random.default_rng(seed)
        gi = g[rng.integers(0, g.size, size=(n_resamples, g.size))]
        ci = c[rng.integers(0, c.size, size=(n_resamples, c.size))]
        from ..stats import percentile_ci

        lo, hi = percentile_ci(_d_rows(gi, ci), confidence)
    if paired:
        test = wilcoxon_test(g, c)
    else:
        from scipy.stats import mannwhitneyu

        if g.size and c.size:
            r = mannwhitneyu(g, c)
            test = StatResult("mann_whitney_u", float(r.statistic), float(r.pvalue), int(g.size + c.size))
        else:
            test = StatResult("mann_whitney_u", math.nan, math.nan, 0, "empty sample")
    return {
        "d": d,
        "ci_low": lo,
        "ci_high": hi,
        "test": test.test,
        "statistic": test.statistic,
        "p": test.p,
        "n": int(g.size) if paired else int(g.size + c.size),
        "note": test.note,
        "mean_gender": float(g.mean()) if g.size else math.nan,
        "mean_control": float(c.mean()) if c.size else math.nan,
    }


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def split_steps(text: str) -> list[str]:
    """Split a chain of thought into steps.

    Our reading: steps are the non-empty lines; when the text is a single
    line, steps are its sentences (split after ``.``, ``!`` or ``?`` followed
    by whitespace). ``<think>`` tags are removed first.
    """
    t = re.sub(r"</?think>", "\n", text or "")
    lines = [ln.strip() for ln in t.splitlines() if ln.strip()]
    if len(lines) == 1:
        return [s.strip() for s in _SENTENCE_END.split(lines[0]) if s.strip()]
    return lines


def rethink_ratio(text: str, cues: Sequence[str] = DEFAULT_RETHINK_CUES) -> float:
    """Share of reasoning steps that revisit a conclusion.

    A step is a *rethink* when it contains any cue phrase (case-insensitive,
    matched on word boundaries, e.g. "wait", "however", "on second thought").
    ratio = rethink steps / steps (see :func:`split_steps`); NaN for an empty
    text.
    """
    steps = split_steps(text)
    if not steps:
        return math.nan
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(c) for c in cues) + r")\b", re.IGNORECASE)
    return sum(1 for s in steps if pattern.search(s)) / len(steps)
