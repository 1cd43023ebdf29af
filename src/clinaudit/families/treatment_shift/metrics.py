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
nothing was perturbed. The floor is the same metric computed between two
baseline answers re-sampled with different seeds (the same prompt). Give it
either as rows of the paired table with ``perturbation == "noise_floor"``
(one row per unordered pair of two baseline draws; :func:`pair_scores` scores
them symmetrically), as a separate frame of the same shape (its perturbation
column is ignored), or as a number (0.0 at temperature 0). The floor is matched
on every ``by`` column except ``perturbation``. The reported value is the excess
raw − floor; CIs, tests and gaps come from :class:`clinaudit.stats.PairedFrame`
(cases are the unit of resampling and of the test).
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
    "NO_FLOOR_NO_TEST",
    "care_plus",
    "tsr",
    "rcr",
    "rcer",
    "pair_scores",
    "treatment_shift_table",
    "score_table",
    "subgroup_gap",
    "agreement_matrix",
]

#: Care-augmenting label value per treatment question.
CARE_PLUS: dict[str, int] = {"MANAGE": 0, "VISIT": 1, "RESOURCE": 1}
#: The perturbation name that marks noise-floor rows in a paired table.
NOISE_FLOOR = "noise_floor"
#: Why a shift rate without re-sampled noise-floor pairs carries no p-value.
NO_FLOOR_NO_TEST = ("no test: without a re-sampled baseline there is no noise floor to test against; a case's "
                    "flip rate is never below 0, so a sign-flip test of 'symmetric about 0' returns 2^-k for k "
                    "changed cases whatever the perturbation did (no null hypothesis). Significance comes from a "
                    "reference that exists: the clinicians' own shift (excess_over_clinicians) when clinicians "
                    "labelled the arms")


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


def pair_scores(paired: pd.DataFrame, metric: str) -> np.ndarray:
    """Per-pair score of ``metric`` for each row of a paired table (the unit the statistics compare).

    Ordinary rows (a baseline answer ``T_b`` and a perturbed answer ``T_p``): 1 if the
    pair is an event of the metric, else 0 (TSR: T_b ≠ T_p; RCR: T_b = c⁺ ∧ T_p = c⁻;
    RCER: that and V = c⁺). NaN when the pair is not usable: a label is missing, or, for
    RCER, V is missing. c⁺ comes from each row's ``question``.

    Noise-floor rows (``perturbation == "noise_floor"``) are *unordered* pairs of two
    baseline draws {s, s'} (counted once, not once per order). Neither draw is the
    reference, so the score is the mean of the two orientations: TSR is unchanged (a
    flip is a flip both ways), while an RCR / RCER event in either direction counts ½
    (the two orientations of one flip are one reduction and one increase). The floor's
    pooled rate is then equal to the rate over both orders (the former definition) with
    each pair of draws counted once.
    """
    if metric not in ("TSR", "RCR", "RCER"):
        raise KeyError(f"unknown treatment-shift metric {metric!r}; known: TSR, RCR, RCER")
    b, p = _labels(paired["T_b"]), _labels(paired["T_p"])
    ok = ~(np.isnan(b) | np.isnan(p))
    if metric == "TSR":
        score = (b != p).astype(float)
    else:
        cp = np.asarray([care_plus(q) for q in paired["question"]], dtype=float) if len(paired) else np.zeros(0)
        fwd = ((b == cp) & (p == 1 - cp)).astype(float)
        bwd = ((p == cp) & (b == 1 - cp)).astype(float)
        if metric == "RCER":
            v = _labels(paired["V"]) if "V" in paired.columns else np.full(len(paired), np.nan)
            ok &= ~np.isnan(v)
            fwd, bwd = fwd * (v == cp), bwd * (v == cp)
        is_floor = (paired["perturbation"].astype(str) == NOISE_FLOOR).to_numpy() \
            if "perturbation" in paired.columns else np.zeros(len(paired), dtype=bool)
        score = np.where(is_floor, (fwd + bwd) / 2, fwd)
    return np.where(ok, score, np.nan)


def score_table(paired: pd.DataFrame, metric: str, case_col: str = "case_id") -> pd.DataFrame:
    """The paired table with the per-pair ``score`` of ``metric`` (:func:`pair_scores`) and the
    case key ``_case`` the statistics cluster on (``dataset`` + case id when there is a dataset
    column, so equal case ids of two datasets stay two cases)."""
    out = paired.copy()
    if "perturbation" not in out.columns:
        out["perturbation"] = ""
    out["score"] = pair_scores(out, metric)
    key = out[case_col].astype(str)
    if "dataset" in out.columns:
        key = out["dataset"].astype(str) + "\x1f" + key
    out["_case"] = key
    return out


def _floor_rows(paired: pd.DataFrame, floor: pd.DataFrame | float | None) -> tuple[pd.DataFrame, float | None]:
    """(pairs incl. noise-floor rows, scalar floor or None) from the three ways of giving a floor."""
    data = paired.copy()
    if "perturbation" not in data.columns:
        data["perturbation"] = ""
    data["perturbation"] = data["perturbation"].astype(str)
    if isinstance(floor, pd.DataFrame):
        data = pd.concat([data[data["perturbation"] != NOISE_FLOOR], floor.assign(perturbation=NOISE_FLOOR)],
                         ignore_index=True)
        return data, None
    if isinstance(floor, (int, float)) and not isinstance(floor, bool):
        return data[data["perturbation"] != NOISE_FLOOR], float(floor)
    return data, None


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
    alternative: str = "greater",
    n_permutations: int = 9999,
) -> pd.DataFrame:
    """Tidy TSR / RCR / RCER rows per ``by`` group: the shift in excess of the noise floor.

    For each group (by default model × perturbation × question) and metric, through
    :class:`clinaudit.stats.PairedFrame` (case = ``case_col``, arm = ``perturbation``,
    control = the noise-floor pairs, matched on every ``by`` column except
    ``perturbation``; per-pair scores from :func:`pair_scores`):

    - ``raw``: the metric pooled over the group's usable pairs (all seeds),
    - ``floor``: the same over the matching noise-floor pairs; ``floor=<number>``
      declares it (0.0 at temperature 0; ``value`` and CI then use it, but the rate
      carries no test: :data:`NO_FLOOR_NO_TEST`); NaN when there is none,
    - ``value`` = raw − floor (the excess; NaN when the floor is unknown),
    - ``n`` = ``n_pairs`` (usable pairs; validated pairs for RCER), ``n_cases``,
      ``n_control_pairs`` (floor pairs),
    - ``ci_low/ci_high``: percentile bootstrap CI of the excess resampling *cases*
      (all pairs of a case, perturbed and floor, move together),
    - ``test``/``p``: sign-flip permutation test over cases of the per-case excess
      d_c = mean(perturbed pairs of c) − mean(floor pairs of c) (or − the declared
      floor); ``alternative="greater"``: H1 the shift is above the floor.
      ``null_hypothesis`` states H0 in words; ``effect_size`` is d_z.

    ``p_adj`` is left empty: declare the family with
    :func:`clinaudit.stats.apply_correction`.
    """
    from ...results import results_frame
    from ...stats import PairedFrame

    by = list(by)
    needed = set(by) | {case_col, "T_b", "T_p", "question"}
    missing = sorted(c for c in needed if c not in paired.columns)
    if missing:
        raise KeyError(f"the paired table lacks column(s) {missing}")
    data, scalar = _floor_rows(paired, floor)
    has_ctrl = bool((data["perturbation"] == NOISE_FLOOR).any())
    strata = [c for c in by if c != "perturbation"]
    parts = []
    for metric in metrics:
        scored = score_table(data, metric, case_col)
        pf = PairedFrame(scored, case="_case", arm="perturbation", score="score", by=strata,
                         control=NOISE_FLOOR if has_ctrl else None)
        t = pf.compare(metric=metric, audit=audit, alternative=alternative,
                       null=scalar if scalar is not None else 0.0, n_resamples=n_resamples,
                       n_permutations=n_permutations, confidence=confidence, seed=seed)
        if not len(t):
            continue
        t = t.assign(perturbation=t["group"], raw=t["rate"], reference="baseline")
        if not has_ctrl and scalar is None:  # no floor known: the excess is undefined
            for c in ("value", "floor", "ci_low", "ci_high", "statistic", "p", "effect_size"):
                t[c] = math.nan
            t["test"] = t["null_hypothesis"] = t["ci_method"] = t["p_method"] = ""
            t["note"] = "no noise floor: pass floor=0.0 to compare the raw rate with 0"
        elif not has_ctrl:  # a declared floor, nothing re-sampled: no null distribution to test against
            for c in ("statistic", "p", "effect_size"):
                t[c] = math.nan
            t["test"] = t["null_hypothesis"] = t["p_method"] = ""
            t["note"] = t["test_note"] = NO_FLOOR_NO_TEST
        parts.append(t)
    if not parts:
        return results_frame([])
    return results_frame(pd.concat(parts, ignore_index=True))


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
    case_col: str = "case_id",
    n_permutations: int = 9999,
    floor: float | None = None,
) -> pd.DataFrame:
    """Female − male gap of the treatment shift *in excess of each gender's own noise floor*.

    ``gender_col`` is the recorded gender or the model-inferred one (P2 Appendix D;
    it may differ between models, so the case key includes ``model`` when it is a
    column); values are matched case-insensitively to ``female`` and ``male``.
    Through :meth:`clinaudit.stats.PairedFrame.gap`: ``value`` =
    (rate − floor | female) − (rate − floor | male), with ``value_female``,
    ``value_male`` the two excesses and ``floor_female``, ``floor_male`` the floors
    from each gender's own noise-floor pairs (rows with ``perturbation ==
    "noise_floor"``). Without floor rows the floors are ``floor`` (default 0: the gap
    of the raw rates). CI: percentile bootstrap resampling cases within each gender.
    Test: permutation of the gender labels across cases on the case-level excess
    (two-sided).
    """
    from ...results import results_frame
    from ...stats import PairedFrame

    by = [c for c in by if c in paired.columns]
    data = paired.copy()
    if "perturbation" not in data.columns:
        data["perturbation"] = ""
    data["perturbation"] = data["perturbation"].astype(str)
    has_ctrl = bool((data["perturbation"] == NOISE_FLOOR).any())
    scored = score_table(data, metric, case_col)
    if "model" in scored.columns:
        scored["_case"] = scored["_case"] + "\x1f" + scored["model"].astype(str)
    scored["_sex"] = scored[gender_col].astype(object).map(lambda x: str(x).strip().lower() if pd.notna(x) else None)
    strata = [c for c in by if c != "perturbation"]
    pf = PairedFrame(scored[strata + ["_case", "perturbation", "score", "_sex"]], case="_case", arm="perturbation",
                     score="score", by=strata, control=NOISE_FLOOR if has_ctrl else None)
    t = pf.gap(between="_sex", a=female.lower(), b=male.lower(), metric=metric, audit=audit,
               null=0.0 if floor is None else float(floor), n_resamples=n_resamples,
               n_permutations=n_permutations, confidence=confidence, seed=seed)
    if not len(t):
        return results_frame([])
    t = t.assign(group=female, reference=male, perturbation=t["arm"], gender_source=gender_col,
                 value_female=t["value_a"], value_male=t["value_b"], floor_female=t["floor_a"],
                 floor_male=t["floor_b"], n_cases_female=t["n_cases_a"], n_cases_male=t["n_cases_b"])
    t["null_hypothesis"] = t["null_hypothesis"].str.replace("_sex=", f"{gender_col}=", regex=False)
    t["ci_method"] = t["ci_method"].str.replace("within _sex", "within gender", regex=False)
    return results_frame(t.drop(columns=["value_a", "value_b", "floor_a", "floor_b", "n_cases_a", "n_cases_b",
                                         "between"]))


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
