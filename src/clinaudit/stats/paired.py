"""The paired-statistics layer: every audit's comparisons, CIs, tests and families.

An audit reduces its data to **pairs**: one row per compared unit (a baseline
answer and a perturbed answer of one case, seed and question; the male and
female reasoning of one vignette; a dialog's note under the baseline and under
a counterfactual value). Each pair carries a **score** computed by a plain
metric function ``f(ref, alt)`` (0/1 "the answer changed", alt − ref, a
semantic drift …; NaN when the pair is not usable, e.g. an unparseable judge
answer), the **case** it belongs to, and its **arm** (the perturbation or
counterfactual value). Optionally one arm is the **control**: pairs that differ
only by chance (two re-sampled baseline seeds, the ID1/ID2 control pair), whose
score is the noise floor.

:class:`PairedFrame` then computes, per stratum (``by``) and arm:

``rate``
    the arm's score pooled over its usable pairs, Σ score / n;
``floor``
    the same over the control arm's pairs of the stratum (or the declared
    ``null`` when there is no control arm);
``value``
    the **excess** ``rate − floor`` (times ``scale``);
``ci_low``, ``ci_high``
    a percentile bootstrap CI of the excess that resamples **cases**: all pairs
    of a resampled case (every seed, question, the control pairs) move together,
    so the dependence between the pairs of one case is respected;
``p``
    a case-level paired test of the excess: per case the difference
    d_c = mean(arm pairs of c) − mean(control pairs of c) (or − ``null``), and a
    sign-flip permutation test of mean(d_c) (``scipy.stats.permutation_test``,
    exact when 2^n_cases ≤ ``n_permutations``). H0: within each case the arm's
    and the control's pairs are exchangeable, so d_c is symmetric about 0;
``effect_size``
    d_z = mean(d_c) / sd(d_c), the standardised mean case-level excess;
``p_adj``, ``family``, ``correction``
    filled when a correction family is declared (``family`` / ``family_cols``)
    through :func:`clinaudit.results.apply_correction`.

:meth:`PairedFrame.gap` compares two disjoint subgroups of cases (female vs male
patients), each against its own floor. No audit computes a bootstrap, a test or
a correction itself; they call this layer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .core import ZERO_ATOL, bootstrap_indices, percentile_ci
from .resolution import SIGN_FLIP_TEST, SUBGROUP_TEST
from .permutation import (
    ALTERNATIVES,
    check_alternative,
    sign_flip_test,
    studentised_permutation_test,
    two_sample_permutation_test,
)

__all__ = ["PairedFrame", "paired_spread", "welch_spread", "sign_flip_test", "two_sample_permutation_test", "studentised_permutation_test",
           "ALTERNATIVES"]

_H1 = {"two-sided": "≠", "greater": ">", "less": "<"}


class _Cell:
    """Per-case sums of one arm and its control within one stratum, aligned on one case index."""

    def __init__(self, cases: pd.Index, arm: pd.DataFrame, ctrl: pd.DataFrame | None, case: str, score: str):
        self.cases = cases
        self.a_sum, self.a_n = self._sums(arm, case, score)
        self.c_sum: np.ndarray | None
        self.c_n: np.ndarray | None
        if ctrl is not None:
            self.c_sum, self.c_n = self._sums(ctrl, case, score)
        else:
            self.c_sum = self.c_n = None

    def _sums(self, df: pd.DataFrame, case: str, score: str) -> tuple[np.ndarray, np.ndarray]:
        codes = self.cases.get_indexer(df[case])
        s = df[score].to_numpy(dtype=float)
        ok = ~np.isnan(s)
        k = len(self.cases)
        return (np.bincount(codes[ok], weights=s[ok], minlength=k), np.bincount(codes[ok], minlength=k).astype(float))

    @property
    def n_pairs(self) -> int:
        return int(self.a_n.sum())

    @property
    def n_control_pairs(self) -> int:
        return int(self.c_n.sum()) if self.c_n is not None else 0

    def rate(self) -> float:
        return float(self.a_sum.sum() / self.a_n.sum()) if self.a_n.sum() else math.nan

    def floor(self, null: float) -> float:
        if self.c_n is None or self.c_sum is None:
            return null
        return float(self.c_sum.sum() / self.c_n.sum()) if self.c_n.sum() else math.nan

    def boot_excess(self, idx: np.ndarray, null: float) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            r = self.a_sum[idx].sum(axis=1) / self.a_n[idx].sum(axis=1)
            if self.c_n is not None and self.c_sum is not None:
                r = r - self.c_sum[idx].sum(axis=1) / self.c_n[idx].sum(axis=1)
            else:
                r = r - null
        return np.asarray(r)

    def case_diffs(self, null: float) -> np.ndarray:
        """d_c for the cases that have a usable pair in the arm (and in the control, if any)."""
        ok = self.a_n > 0
        with np.errstate(invalid="ignore", divide="ignore"):
            a_mean = self.a_sum / self.a_n
            if self.c_n is not None:
                ok &= self.c_n > 0
                d = a_mean - self.c_sum / self.c_n
            else:
                d = a_mean - null
        return np.asarray(d[ok])


def _moving(d: np.ndarray) -> int:
    """How many per-case differences are not 0 (within rounding)."""
    return int((np.abs(d) > ZERO_ATOL).sum())


def paired_spread(d: np.ndarray, scale: float = 1.0) -> dict[str, float]:
    """The per-case differences ``d`` summarised for the paired equivalence interval and the power of the row
    (:func:`clinaudit.stats.verdicts.paired_interval`, :func:`clinaudit.stats.power.row_mde`): ``eq_mean``
    (mean d, as statsmodels ``ttost_paired`` centres it), ``eq_se`` (its standard error), ``eq_df`` (n − 1),
    ``eq_moving`` (cases whose d is not 0) and ``eq_n`` (cases), from statsmodels ``DescrStatsW``; NaN with
    fewer than 2 cases."""
    from statsmodels.stats.weightstats import DescrStatsW

    d = np.asarray(d, dtype=float)
    d = d[~np.isnan(d)]
    if d.size < 2:
        return {"eq_mean": math.nan, "eq_se": math.nan, "eq_df": math.nan, "eq_moving": _moving(d),
                "eq_n": float(d.size)}
    ds = DescrStatsW(d)
    return {"eq_mean": float(ds.mean) * scale, "eq_se": float(ds.std_mean) * abs(scale), "eq_df": float(d.size - 1),
            "eq_moving": _moving(d), "eq_n": float(d.size)}


def welch_spread(da: np.ndarray, db: np.ndarray, scale: float = 1.0) -> dict[str, float]:
    """As :func:`paired_spread` for a gap between two disjoint groups of cases: mean(da) − mean(db), Welch's
    standard error and Satterthwaite's degrees of freedom (statsmodels ``CompareMeans``); ``eq_moving`` is the
    smaller group's count of cases whose d is not 0, ``eq_n`` its cases."""
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    da, db = (np.asarray(x, dtype=float) for x in (da, db))
    da, db = da[~np.isnan(da)], db[~np.isnan(db)]
    moving = min(_moving(da), _moving(db))
    if da.size < 2 or db.size < 2:
        return {"eq_mean": math.nan, "eq_se": math.nan, "eq_df": math.nan, "eq_moving": moving,
                "eq_n": float(min(da.size, db.size))}
    cm = CompareMeans(DescrStatsW(da), DescrStatsW(db))
    se = float(cm.std_meandiff_separatevar)
    df = float(cm.dof_satt()) if se > 0 else float(da.size + db.size - 2)
    return {"eq_mean": float(da.mean() - db.mean()) * scale, "eq_se": se * abs(scale), "eq_df": df,
            "eq_moving": moving, "eq_n": float(min(da.size, db.size))}


def _effect_dz(d: np.ndarray) -> float:
    """d_z = mean / sd of the case-level differences; NaN when undefined (n < 2, or no spread beyond rounding)."""
    if d.size < 2:
        return math.nan
    sd = float(np.std(d, ddof=1))
    if sd <= ZERO_ATOL * max(1.0, float(np.max(np.abs(d)))):
        return math.nan
    return float(d.mean() / sd)


class PairedFrame:
    """Paired comparisons keyed by case, with case-clustered CIs and case-level tests.

    Parameters
    ----------
    scores:
        One row per pair with the columns named below (other columns ignored).
    case:
        The unit of resampling and of the test; every pair of a case moves together.
    arm:
        Which comparison a pair belongs to (perturbation, counterfactual value …).
    score:
        The pair's score (0/1 or real). NaN = pair not usable; counted in
        ``n_unusable`` and left out of every number.
    by:
        Strata reported separately (model, question, dataset …).
    control:
        Name of the arm whose pairs form the noise floor, matched to the other
        arms on the ``by`` columns. ``None``: compare with ``null``.
    """

    def __init__(
        self,
        scores: pd.DataFrame,
        case: str = "case_id",
        arm: str = "arm",
        score: str = "score",
        by: Sequence[str] = (),
        control: str | None = None,
    ):
        self.case, self.arm, self.score = case, arm, score
        self.by = list(by)
        self.control = control
        needed = self.by + [case, arm, score]
        missing = [c for c in needed if c not in scores.columns]
        if missing:
            raise KeyError(f"the paired table lacks column(s) {missing}")
        d = scores[needed].copy()
        d[case] = d[case].astype(str)
        d[arm] = d[arm].astype(str)
        d[score] = pd.to_numeric(d[score], errors="coerce").astype(float)
        self.data = d.reset_index(drop=True)
        # the input, for case-level attributes (e.g. gender) that gap() reads only when asked
        self._source = scores

    @classmethod
    def from_pairs(
        cls,
        pairs: pd.DataFrame,
        metric: Callable[..., Any],
        ref: str = "ref",
        alt: str = "alt",
        extra: Sequence[str] = (),
        score: str = "score",
        **kw: Any,
    ) -> "PairedFrame":
        """Score each pair with ``metric(ref_values, alt_values, *extra_values)`` (elementwise)."""
        args = [pairs[c].to_numpy() for c in (ref, alt, *extra)]
        s = np.asarray(metric(*args), dtype=float)
        if s.shape != (len(pairs),):
            raise ValueError(f"metric must return one score per pair ({len(pairs)}), got shape {s.shape}")
        return cls(pairs.assign(**{score: s}), score=score, **kw)

    # ------------------------------------------------------------------ helpers

    def _strata(self) -> list[tuple[dict[str, Any], pd.DataFrame]]:
        if not self.by:
            return [({}, self.data)]
        out = []
        for key, g in self.data.groupby(self.by, sort=True, dropna=False):
            key_t = key if isinstance(key, tuple) else (key,)
            out.append((dict(zip(self.by, key_t)), g))
        return out

    def _arms(self, g: pd.DataFrame) -> tuple[pd.DataFrame | None, list[tuple[str, pd.DataFrame]]]:
        if self.control is None:
            return None, [(str(k), a) for k, a in g.groupby(self.arm, sort=True)]
        is_ctrl = g[self.arm] == self.control
        ctrl = g[is_ctrl]
        return ctrl, [(str(k), a) for k, a in g[~is_ctrl].groupby(self.arm, sort=True)]

    def _null_text(self, metric: str, arm: str, alternative: str, null: float) -> str:
        h1 = _H1[alternative]
        if self.control is None:
            return (f"H0: the case-level mean {metric} of '{arm}' pairs is symmetric about {null:g} "
                    f"(sign flips of each case's difference are equally likely); H1: mean {h1} {null:g}")
        return (f"H0: within each case, '{arm}' pairs and '{self.control}' pairs are exchangeable "
                f"(the case-level excess of {metric} over the floor is symmetric about 0); H1: excess {h1} 0")

    def case_table(self) -> pd.DataFrame:
        """Per (by…, arm, case): ``sum`` and ``n`` of usable scores and their ``mean``."""
        d = self.data.dropna(subset=[self.score])
        g = d.groupby(self.by + [self.arm, self.case], sort=True)[self.score]
        out = pd.DataFrame({"sum": g.sum(), "n": g.size()}).reset_index()
        out["mean"] = out["sum"] / out["n"]
        return out

    # ------------------------------------------------------------------ comparisons

    def compare(
        self,
        metric: str = "score",
        audit: str = "",
        alternative: str = "two-sided",
        null: float = 0.0,
        scale: float = 1.0,
        n_resamples: int = 1000,
        n_permutations: int = 9999,
        confidence: float = 0.95,
        seed: int = 0,
        family: str | None = None,
        family_cols: Sequence[str] | None = None,
        correction: str = "holm",
    ) -> pd.DataFrame:
        """One result row per (stratum, arm ≠ control): excess over the floor, CI, test (see module doc)."""
        from .results import apply_correction, result_row, results_frame

        check_alternative(alternative)
        rng = np.random.default_rng(seed)
        rows: list[dict[str, Any]] = []
        for labels, g in self._strata():
            ctrl, arms = self._arms(g)
            for arm_name, a in arms:
                cases = pd.Index(pd.unique(pd.concat([a[self.case], ctrl[self.case]] if ctrl is not None else [a[self.case]])))
                cell = _Cell(cases, a, ctrl, self.case, self.score)
                rate, floor = cell.rate(), cell.floor(null)
                value = (rate - floor) * scale
                lo = hi = math.nan
                if cell.n_pairs and not math.isnan(value) and n_resamples > 0:
                    idx = bootstrap_indices(len(cases), n_resamples, seed=rng)
                    lo, hi = percentile_ci(cell.boot_excess(idx, null) * scale, confidence)
                d = cell.case_diffs(null)
                res = sign_flip_test(d, alternative, n_permutations, rng)
                stat, p, note = res
                rows.append(
                    result_row(
                        audit=audit,
                        metric=metric,
                        group=arm_name,
                        reference=self.control if self.control is not None else f"{null:g}",
                        value=value,
                        n=cell.n_pairs,
                        ci_low=lo,
                        ci_high=hi,
                        ci_method=f"percentile bootstrap over cases ({n_resamples} resamples)" if cell.n_pairs else "",
                        test=SIGN_FLIP_TEST if d.size else "",
                        statistic=stat * scale if not math.isnan(stat) else math.nan,
                        p=p,
                        alternative=alternative,
                        null_hypothesis=self._null_text(metric, arm_name, alternative, null),
                        rate=rate * scale,
                        floor=floor * scale,
                        n_cases=int((cell.a_n > 0).sum()),
                        n_test_cases=int(d.size),
                        n_pairs=cell.n_pairs,
                        n_control_pairs=cell.n_control_pairs,
                        n_unusable=int(a[self.score].isna().sum()),
                        effect_size=_effect_dz(d),
                        effect_size_name="d_z (mean / sd of case-level excess)",
                        test_note=note,
                        p_method=res.method if d.size else "",
                        n_permutations=res.n_permutations,
                        eq_kind="paired" if self.control is not None else "",
                        **paired_spread(d, scale),
                        **labels,
                    )
                )
        table = results_frame(rows)
        if family is not None or family_cols is not None:
            table = apply_correction(table, family_cols=family_cols, family=family, method=correction)
        return table

    def gap(
        self,
        between: str,
        a: Any,
        b: Any,
        cases: pd.DataFrame | pd.Series | None = None,
        metric: str = "score",
        audit: str = "",
        alternative: str = "two-sided",
        null: float = 0.0,
        scale: float = 1.0,
        n_resamples: int = 1000,
        n_permutations: int = 9999,
        confidence: float = 0.95,
        seed: int = 0,
        family: str | None = None,
        family_cols: Sequence[str] | None = None,
        correction: str = "holm",
    ) -> pd.DataFrame:
        """Gap of the excess between two disjoint subgroups of cases: (excess | a) − (excess | b).

        ``between`` names a case-level attribute: a column of the scores table
        (constant within a case) or, with ``cases``, a Series / frame mapping
        case id → attribute. Each subgroup has its own floor (its own control
        pairs). CI: bootstrap resampling cases within each subgroup. Test:
        permutation of the subgroup labels across cases on the case-level excess
        d_c (H0: both subgroups' d_c come from one distribution).
        """
        from .results import apply_correction, result_row, results_frame

        check_alternative(alternative)
        attr = self._case_attribute(between, cases)
        rng = np.random.default_rng(seed)
        rows: list[dict[str, Any]] = []
        for labels, g in self._strata():
            ctrl, arms = self._arms(g)
            for arm_name, arm_df in arms:
                parts = {}
                for side, val in (("a", a), ("b", b)):
                    ids = attr.index[attr == val]
                    ad = arm_df[arm_df[self.case].isin(ids)]
                    cd = ctrl[ctrl[self.case].isin(ids)] if ctrl is not None else None
                    cs = pd.Index(pd.unique(pd.concat([ad[self.case], cd[self.case]] if cd is not None else [ad[self.case]])))
                    parts[side] = _Cell(cs, ad, cd, self.case, self.score)
                ca, cb = parts["a"], parts["b"]
                ea = (ca.rate() - ca.floor(null)) * scale
                eb = (cb.rate() - cb.floor(null)) * scale
                value = ea - eb
                lo = hi = math.nan
                if ca.n_pairs and cb.n_pairs and not math.isnan(value) and n_resamples > 0:
                    ia = bootstrap_indices(len(ca.cases), n_resamples, seed=rng)
                    ib = bootstrap_indices(len(cb.cases), n_resamples, seed=rng)
                    lo, hi = percentile_ci((ca.boot_excess(ia, null) - cb.boot_excess(ib, null)) * scale, confidence)
                da, db = ca.case_diffs(null), cb.case_diffs(null)
                res = studentised_permutation_test(da, db, alternative, n_permutations, rng)
                stat, p, note = res
                rows.append(
                    result_row(
                        audit=audit,
                        metric=f"{metric}_gap",
                        group=str(a),
                        reference=str(b),
                        value=value,
                        n=ca.n_pairs + cb.n_pairs,
                        ci_low=lo,
                        ci_high=hi,
                        ci_method=(f"percentile bootstrap over cases within {between} ({n_resamples} resamples)"
                                   if ca.n_pairs and cb.n_pairs else ""),
                        test=SUBGROUP_TEST if da.size and db.size else "",
                        statistic=stat,
                        p=p,
                        alternative=alternative,
                        null_hypothesis=(f"H0: the case-level excess of {metric} ('{arm_name}' over its floor) has the "
                                         f"same distribution for {between}={a} and {between}={b}; H1: gap {_H1[alternative]} 0"),
                        arm=arm_name,
                        value_a=ea,
                        value_b=eb,
                        floor_a=ca.floor(null) * scale,
                        floor_b=cb.floor(null) * scale,
                        n_cases_a=int((ca.a_n > 0).sum()),
                        n_cases_b=int((cb.a_n > 0).sum()),
                        n_pairs=ca.n_pairs + cb.n_pairs,
                        n_control_pairs=ca.n_control_pairs + cb.n_control_pairs,
                        between=between,
                        test_note=note,
                        p_method=res.method if da.size and db.size else "",
                        n_permutations=res.n_permutations,
                        eq_kind="welch" if self.control is not None else "",
                        **welch_spread(da, db, scale),
                        **labels,
                    )
                )
        table = results_frame(rows)
        if family is not None or family_cols is not None:
            table = apply_correction(table, family_cols=family_cols, family=family, method=correction)
        return table

    def _case_attribute(self, between: str, cases: pd.DataFrame | pd.Series | None) -> pd.Series:
        if cases is not None:
            s = cases if isinstance(cases, pd.Series) else cases.set_index(self.case)[between]
            s = s.copy()
            s.index = s.index.astype(str)
            return s
        if between not in self._source.columns or between in (*self.by, self.case, self.arm, self.score):
            raise KeyError(f"{between!r} is not a column of the paired table; pass cases=")
        attrs = pd.DataFrame({self.case: self.data[self.case].to_numpy(),
                              between: self._source[between].to_numpy()})
        per_case = attrs.groupby(self.case)[between].nunique(dropna=True)
        bad = per_case[per_case > 1]
        if len(bad):
            raise ValueError(f"{between!r} varies within case(s) {list(bad.index[:5])}: it must be a case attribute")
        return attrs.dropna(subset=[between]).groupby(self.case)[between].first()
