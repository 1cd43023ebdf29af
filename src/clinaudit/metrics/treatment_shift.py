"""Treatment shift metrics (METHODS §4.2, P2 §5 Eqs. 1–3).

Each treatment question has a binary label T ∈ {0, 1}. The *care-augmenting*
value c⁺ is the answer that gives the patient more care: MANAGE → 0 (not told
to self-manage at home), VISIT → 1 (told to see a clinician), RESOURCE → 1 (a
clinical resource allocated). c⁻ is the other value.

The input of :func:`treatment_shift_table` is a *paired table*: one row per
(case, model, seed, perturbation, question) with the baseline label ``T_b``,
the perturbed label ``T_p``, optionally the clinician validation label ``V``
of the baseline case and the patient's ``gender``.

Noise floor. A model sampled at temperature > 0 changes its answer even when
nothing was perturbed. The floor is the same metric computed between the
baseline and a *re-sampled* baseline (the same prompt, another seed). Give
it either as rows of the paired table with ``perturbation == "noise_floor"``
(``T_p`` is then the re-sampled baseline label), as a separate frame of the
same shape (its perturbation column is ignored), or as a number (0.0 at
temperature 0). The floor is matched on every ``by`` column except
``perturbation``. The reported value is raw − floor.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "CARE_PLUS",
    "NOISE_FLOOR",
    "care_plus",
    "tsr",
    "rcr",
    "rcer",
    "treatment_shift_table",
    "subgroup_gap",
    "agreement_matrix",
]

#: Care-augmenting label value per treatment question.
CARE_PLUS: dict[str, int] = {"MANAGE": 0, "VISIT": 1, "RESOURCE": 1}
#: The perturbation name that marks noise-floor rows in a paired table.
NOISE_FLOOR = "noise_floor"


def care_plus(question: str, mapping: dict[str, int] | None = None) -> int:
    """The care-augmenting value c⁺ of a question (case-insensitive name)."""
    table = CARE_PLUS if mapping is None else mapping
    key = str(question).strip().upper()
    if key not in table:
        raise KeyError(f"unknown treatment question '{question}'; known: {sorted(table)}")
    return int(table[key])


def _labels(x: Any) -> np.ndarray:
    return np.asarray(pd.to_numeric(pd.Series(np.asarray(x, dtype=object)), errors="coerce"), dtype=float)


def _pair(tb: Any, tp: Any) -> tuple[np.ndarray, np.ndarray]:
    b, p = _labels(tb), _labels(tp)
    if b.shape != p.shape:
        raise ValueError(f"T_b and T_p differ in length: {b.shape[0]} vs {p.shape[0]}")
    return b, p


def tsr(tb: Any, tp: Any) -> float:
    """Treatment Shift Rate: share of paired cases whose label changed, (1/n) Σ 1[T_b ≠ T_p].

    Pairs with a missing label are dropped; NaN when none remain.
    """
    b, p = _pair(tb, tp)
    ok = ~(np.isnan(b) | np.isnan(p))
    return float(np.mean(b[ok] != p[ok])) if ok.any() else math.nan


def rcr(tb: Any, tp: Any, question: str) -> float:
    """Reduced Care Rate: (1/n) Σ 1[T_b = c⁺ ∧ T_p = c⁻] for the question's c⁺.

    The denominator is every complete pair (not only the pairs that started
    at c⁺). NaN when no pair is complete.
    """
    b, p = _pair(tb, tp)
    cp = care_plus(question)
    ok = ~(np.isnan(b) | np.isnan(p))
    if not ok.any():
        return math.nan
    return float(np.mean((b[ok] == cp) & (p[ok] == 1 - cp)))


def rcer(tb: Any, tp: Any, v: Any, question: str) -> float:
    """Reduced Care Error Rate: (1/m) Σ_validated 1[T_b = c⁺ ∧ T_p = c⁻ ∧ V = c⁺].

    m is the number of pairs with a validation label V (rows where V is NaN
    are not validated and are excluded from numerator and denominator). NaN
    when m = 0.
    """
    b, p = _pair(tb, tp)
    val = _labels(v)
    if val.shape != b.shape:
        raise ValueError("V must have the same length as T_b")
    cp = care_plus(question)
    ok = ~(np.isnan(b) | np.isnan(p) | np.isnan(val))
    if not ok.any():
        return math.nan
    return float(np.mean((b[ok] == cp) & (p[ok] == 1 - cp) & (val[ok] == cp)))


# ----------------------------------------------------------------------------- table


def _indicators(g: pd.DataFrame, question: str, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-row numerator and denominator indicators of a metric."""
    b, p = _labels(g["T_b"]), _labels(g["T_p"])
    ok = ~(np.isnan(b) | np.isnan(p))
    if metric == "TSR":
        num = ok & (b != p)
    else:
        cp = care_plus(question)
        num = ok & (b == cp) & (p == 1 - cp)
        if metric == "RCER":
            v = _labels(g["V"]) if "V" in g.columns else np.full(len(g), np.nan)
            ok = ok & ~np.isnan(v)
            num = num & ok & (v == cp)
    return num.astype(float), ok.astype(float)


def _case_sums(case_ids: pd.Series, num: np.ndarray, den: np.ndarray, cases: pd.Index) -> tuple[np.ndarray, np.ndarray]:
    codes = cases.get_indexer(case_ids.astype(str))
    k = len(cases)
    return np.bincount(codes, weights=num, minlength=k), np.bincount(codes, weights=den, minlength=k)


def treatment_shift_table(
    paired: pd.DataFrame,
    by: Sequence[str] = ("model", "perturbation", "question"),
    floor: pd.DataFrame | float | None = None,
    metrics: Sequence[str] = ("TSR", "RCR", "RCER"),
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    audit: str = "treatment_shift",
    case_col: str = "case_id",
) -> pd.DataFrame:
    """Tidy TSR / RCR / RCER rows per ``by`` group, relative to the noise floor.

    For each group (by default model × perturbation × question; ``question``
    must be one of the ``by`` columns or a constant column) and metric:

    - ``raw``: the metric on the group's paired rows (all seeds pooled),
    - ``floor``: the same metric on the noise-floor rows matching the group
      on every ``by`` column except ``perturbation`` (NaN when none exist),
    - ``value`` = raw − floor (NaN when the floor is unknown),
    - ``n``: complete pairs used (validated pairs for RCER),
    - ``ci_low/ci_high``: percentile bootstrap CI of raw − floor, resampling
      *cases* (all seeds and the floor rows of a case move together, so the
      correlation between seeds of one case is respected),
    - ``test``/``p``: McNemar test of T_b vs T_p on the group's pairs
      (:func:`clinaudit.stats.paired_binary_test`; exact when < 25 discordant
      pairs). For RCER it uses the validated pairs only. Note: pairs from
      different seeds of one case are treated as independent by this test.

    ``p_adj`` is left empty: declare the family with
    :func:`clinaudit.results.apply_correction` (P2 uses Bonferroni over the
    perturbations of one model and question).
    """
    from ..results import result_row, results_frame
    from ..stats import paired_binary_test, percentile_ci

    by = list(by)
    needed = set(by) | {case_col, "T_b", "T_p", "question"}
    missing = sorted(c for c in needed if c not in paired.columns)
    if missing:
        raise KeyError(f"the paired table lacks column(s) {missing}")
    data = paired.copy()
    pert = data["perturbation"].astype(str) if "perturbation" in data.columns else pd.Series("", index=data.index)
    floor_rows: pd.DataFrame | None = None
    if isinstance(floor, pd.DataFrame):
        floor_rows = floor.copy()
    elif "perturbation" in data.columns and (pert == NOISE_FLOOR).any():
        floor_rows = data[pert == NOISE_FLOOR].copy()
    scalar_floor = float(floor) if isinstance(floor, (int, float)) and not isinstance(floor, bool) else None
    if "perturbation" in data.columns:
        data = data[pert != NOISE_FLOOR]
    floor_keys = [c for c in by if c != "perturbation"]
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    for key, g in data.groupby(by, sort=True, dropna=False):
        key_t = key if isinstance(key, tuple) else (key,)
        labels = dict(zip(by, key_t))
        question = labels.get("question", g["question"].iloc[0] if "question" in g.columns else "")
        fl = None
        if floor_rows is not None and len(floor_rows):
            mask = np.ones(len(floor_rows), dtype=bool)
            for c in floor_keys:
                mask &= (floor_rows[c] == labels[c]).to_numpy()
            fl = floor_rows[mask]
        cases = pd.Index(pd.unique(pd.concat([g[case_col], fl[case_col]] if fl is not None else [g[case_col]]).astype(str)))
        idx = rng.integers(0, len(cases), size=(n_resamples, len(cases))) if len(cases) else None
        for metric in metrics:
            num, den = _indicators(g, question, metric)
            n = int(den.sum())
            raw = float(num.sum() / n) if n else math.nan
            cnum, cden = _case_sums(g[case_col], num, den, cases)
            if fl is not None and len(fl):
                fnum, fden = _indicators(fl, question, metric)
                floor_val = float(fnum.sum() / fden.sum()) if fden.sum() else math.nan
                cfn, cfd = _case_sums(fl[case_col], fnum, fden, cases)
            else:
                floor_val = scalar_floor if scalar_floor is not None else math.nan
                cfn = cfd = None
            value = raw - floor_val
            lo = hi = math.nan
            if idx is not None and n and not math.isnan(value):
                with np.errstate(invalid="ignore", divide="ignore"):
                    rs = cnum[idx].sum(axis=1) / cden[idx].sum(axis=1)
                    if cfn is not None:
                        rs = rs - cfn[idx].sum(axis=1) / cfd[idx].sum(axis=1)
                    else:
                        rs = rs - floor_val
                lo, hi = percentile_ci(rs, confidence)
            sub = g
            if metric == "RCER":
                sub = g[den.astype(bool)]
            test = paired_binary_test(sub["T_b"], sub["T_p"]) if len(sub) else None
            rows.append(
                result_row(
                    audit=audit,
                    metric=metric,
                    group=labels.get("perturbation", ""),
                    reference="baseline",
                    value=value,
                    n=n,
                    ci_low=lo,
                    ci_high=hi,
                    ci_method=f"percentile bootstrap over cases ({n_resamples} resamples)" if n else "",
                    test=test.test if test else "",
                    statistic=test.statistic if test else math.nan,
                    p=test.p if test else math.nan,
                    raw=raw,
                    floor=floor_val,
                    **{c: v for c, v in labels.items()},
                )
            )
    return results_frame(rows)


def subgroup_gap(
    paired: pd.DataFrame,
    metric: str = "TSR",
    gender_col: str = "gender",
    by: Sequence[str] = ("model", "perturbation", "question"),
    female: str = "female",
    male: str = "male",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    audit: str = "treatment_shift",
) -> pd.DataFrame:
    """Female − male gap of a treatment-shift metric per ``by`` group.

    ``gender_col`` is the recorded gender or the model-inferred one (P2
    Appendix D); values are matched case-insensitively to ``female`` and
    ``male``. The value is the raw metric gap (a shared noise floor cancels in
    a difference). CI: percentile bootstrap over cases, stratified by gender
    (group sizes preserved). Test: Fisher's exact test
    (:func:`scipy.stats.fisher_exact`) on the 2×2 table of gender × event
    (rows are treated as independent).
    """
    from scipy.stats import fisher_exact

    from ..results import result_row, results_frame
    from ..stats import bootstrap_ci

    by = [c for c in by if c in paired.columns]
    data = paired
    if "perturbation" in data.columns:
        data = data[data["perturbation"].astype(str) != NOISE_FLOOR]
    gender = data[gender_col].astype(object).map(lambda x: str(x).strip().lower() if pd.notna(x) else None)
    data = data.assign(_sex=gender)
    data = data[data["_sex"].isin([female.lower(), male.lower()])]
    rows = []
    groups = data.groupby(by, sort=True, dropna=False) if by else [((), data)]
    for key, g in groups:
        key_t = key if isinstance(key, tuple) else (key,)
        labels = dict(zip(by, key_t))
        question = labels.get("question", g["question"].iloc[0] if "question" in g.columns else "")
        num, den = _indicators(g, question, metric)
        is_f = (g["_sex"] == female.lower()).to_numpy()
        ok = den.astype(bool)
        ev, fem = num[ok], is_f[ok].astype(float)
        nf, nm = int(fem.sum()), int((1 - fem).sum())
        rate_f = float(ev[fem == 1].mean()) if nf else math.nan
        rate_m = float(ev[fem == 0].mean()) if nm else math.nan
        value = rate_f - rate_m
        lo = hi = p = math.nan
        if nf and nm:

            def _gap(e: np.ndarray, f: np.ndarray) -> np.ndarray:
                with np.errstate(invalid="ignore", divide="ignore"):
                    return (e * f).sum(1) / f.sum(1) - (e * (1 - f)).sum(1) / (1 - f).sum(1)

            lo, hi = bootstrap_ci(_gap, ev, fem, n_resamples=n_resamples, confidence=confidence, strata=fem, seed=seed)
            a = int(ev[fem == 1].sum())
            c = int(ev[fem == 0].sum())
            p = float(fisher_exact([[a, nf - a], [c, nm - c]]).pvalue)
        rows.append(
            result_row(
                audit=audit,
                metric=f"{metric}_gap",
                group=female,
                reference=male,
                value=value,
                n=nf + nm,
                ci_low=lo,
                ci_high=hi,
                ci_method=f"percentile bootstrap stratified by gender ({n_resamples} resamples)" if nf and nm else "",
                test="fisher_exact" if nf and nm else "",
                p=p,
                value_female=rate_f,
                value_male=rate_m,
                n_female=nf,
                n_male=nm,
                gender_source=gender_col,
                **labels,
            )
        )
    return results_frame(rows)


def agreement_matrix(
    labels: pd.DataFrame,
    item_cols: Sequence[str] = ("case_id", "question"),
    model_col: str = "model",
    label_col: str = "T_b",
) -> pd.DataFrame:
    """Share of items on which two models give the same label (P2 Appendix C).

    ``labels`` has one row per (item, model). Items are identified by
    ``item_cols``; when a model has several rows for an item (seeds), the
    first is used. For each model pair the share is over the items both
    models labelled (missing labels dropped). Returns a square DataFrame
    (models × models) with 1.0 on the diagonal and NaN where two models share
    no item.
    """
    item_cols = list(item_cols)
    d = labels[item_cols + [model_col, label_col]].dropna(subset=[label_col])
    wide = d.groupby(item_cols + [model_col], sort=True)[label_col].first().unstack(model_col)
    models = list(wide.columns)
    out = pd.DataFrame(np.nan, index=models, columns=models, dtype=float)
    for i, a in enumerate(models):
        for b in models[i:]:
            col_a, col_b = wide[a], wide[b]
            ok = col_a.notna() & col_b.notna()
            share = float((col_a[ok] == col_b[ok]).mean()) if ok.any() else math.nan
            out.loc[a, b] = out.loc[b, a] = share
    out.index.name = model_col
    out.columns.name = model_col
    return out
