"""Conversational diagnostic accuracy of the ``treatment_shift`` recipe (P2 Table 4 and Fig. 7).

Input: the recipe's ``conversations`` table (one row per consultation: ``dataset, model,
setting, perturbation, case_id, seed, correct`` (1/0, NaN = undecided) and ``gender``).
Every CI, test and correction comes from the paired-statistics layer
(:class:`clinaudit.stats.PairedFrame`); this module only arranges the pairs.

* :func:`accuracy_tables` — accuracy per dataset × model × setting × perturbation (CI:
  percentile bootstrap over cases, all seeds of a case together; no test — an accuracy is
  not compared with anything), and its **change** vs the same setting's baseline (P2
  Table 4) and vs the vignette baseline. A change pair is (baseline, perturbed) of one case
  at one seed, score = correct(perturbed) − correct(baseline); the layer reports the mean
  change, a case-clustered CI and a sign-flip permutation test over cases (H0: each case's
  mean change is symmetric about 0), corrected over the perturbations of one dataset ×
  model × comparison × setting.
* :func:`accuracy_gender_gaps` — P2 Fig. 7: per setting and perturbation, accuracy for
  female and for male patients and the gap female − male (CI: bootstrap over cases within
  each gender; test: permutation of the gender labels across cases), and the gap of the
  **change** vs the setting's baseline (does a perturbation widen or narrow the gap?).
  Corrected over the perturbations of one dataset × model × setting × metric.
* :func:`table4` — the P2 Table 4 layout of the changes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from ...results import results_frame

__all__ = ["SETTINGS", "accuracy_tables", "accuracy_gender_gaps", "table4"]

SETTINGS: tuple[str, ...] = ("vignette", "single_turn", "multi_turn", "summarized")
_AUDIT = "treatment_shift"
_SAME = "vs same-setting baseline"
_VIG = "vs vignette baseline"
_CONTROL = "vs control perturbation"


def _change_pairs(conv: pd.DataFrame, control: str | None = None) -> pd.DataFrame:
    """(reference, perturbed) pairs of one case at one seed, for both comparisons of P2 Table 4, and with a
    ``control`` perturbation also (control, perturbed) pairs of the same setting (comparison ``vs control``)."""
    cols = ["case_id", "seed", "correct"]
    extra = ["gender"] if "gender" in conv.columns else []
    parts = []
    for (ds, model), g in conv.groupby(["dataset", "model"], sort=True):
        vig = g[(g["setting"] == "vignette") & (g["perturbation"] == "baseline")]
        for (setting, pert), h in g.groupby(["setting", "perturbation"], sort=True):
            refs = []
            if pert != "baseline":
                refs.append((g[(g["setting"] == setting) & (g["perturbation"] == "baseline")], f"{setting}/baseline",
                             _SAME))
            if not (setting == "vignette" and pert == "baseline") and len(vig):
                refs.append((vig, "vignette/baseline", _VIG))
            if control and pert not in ("baseline", control):
                ctl = g[(g["setting"] == setting) & (g["perturbation"] == control)]
                if len(ctl):
                    refs.append((ctl, f"{setting}/{control}", _CONTROL))
            for ref, ref_name, comparison in refs:
                m = ref[cols].merge(h[cols + extra], on=["case_id", "seed"], suffixes=("_ref", "_alt"))
                parts.append(m.assign(dataset=ds, model=model, setting=setting, perturbation=pert,
                                      ref_arm=ref_name, comparison=comparison))
    if not parts:
        return pd.DataFrame()
    return pd.concat(parts, ignore_index=True)


def _change(ref: pd.Series, alt: pd.Series) -> pd.Series:  # the per-pair metric: +1 fixed, -1 broken, 0 same; NaN when either is undecided
    return alt.astype(float) - ref.astype(float)


def accuracy_tables(conv: pd.DataFrame, *, n_resamples: int = 1000, seed: int = 0,
                    correction: str = "bonferroni", control: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Accuracy per cell, and its change vs the same setting's baseline (P2 Table 4), vs the vignette baseline
    and, with ``control`` (e.g. ``cognitive_control``), vs that perturbation in the same setting."""
    from ...stats import PairedFrame

    if conv.empty:
        return results_frame([]), results_frame([])
    keys = ["dataset", "model", "setting"]
    d = conv.assign(correct=pd.to_numeric(conv["correct"], errors="coerce").astype(float))
    acc = PairedFrame(d, case="case_id", arm="perturbation", score="correct", by=keys).compare(
        metric="accuracy", audit=_AUDIT, null=0.0, n_resamples=n_resamples, seed=seed)
    # an accuracy level is not tested against anything: keep the value, n and its case-clustered CI
    acc = acc.assign(perturbation=acc["group"], group=acc["setting"] + "/" + acc["group"], reference="",
                     test="", statistic=math.nan, p=math.nan, null_hypothesis="", effect_size=math.nan,
                     effect_size_name="", alternative="", test_note="")
    acc = acc.drop(columns=["rate", "floor", "n_test_cases", "n_control_pairs"], errors="ignore")
    pairs = _change_pairs(d, control)
    if pairs.empty:
        return results_frame(acc), results_frame([])
    by = ["dataset", "model", "comparison", "setting", "ref_arm"]
    ch = PairedFrame.from_pairs(pairs, metric=_change, ref="correct_ref", alt="correct_alt", case="case_id",
                                arm="perturbation", by=by).compare(
        metric="accuracy_change", audit=_AUDIT, null=0.0, n_resamples=n_resamples, seed=seed,
        family="accuracy change", family_cols=["dataset", "model", "comparison", "setting"], correction=correction)
    ch = ch.assign(perturbation=ch["group"], group=ch["setting"] + "/" + ch["group"], reference=ch["ref_arm"])
    ch = ch.drop(columns=["ref_arm"])
    return results_frame(acc), results_frame(ch)


def accuracy_gender_gaps(conv: pd.DataFrame, *, n_resamples: int = 1000, seed: int = 0,
                         correction: str = "bonferroni", groups: Sequence[str] = ("female", "male")
                         ) -> pd.DataFrame:
    """P2 Fig. 7: accuracy female vs male per setting × perturbation, the gap, and the gap of the change.

    Rows ``metric = accuracy_gap`` (``value`` = accuracy(female) − accuracy(male), ``value_a`` /
    ``value_b`` the two accuracies, ``n_cases_a`` / ``n_cases_b``) and ``accuracy_change_gap``
    (the same for the change vs the setting's baseline). Empty when no case of a setting has
    a recorded female and a recorded male patient.
    """
    from ...stats import PairedFrame

    a, b = groups
    if conv.empty or "gender" not in conv.columns:
        return results_frame([])
    d = conv.assign(correct=pd.to_numeric(conv["correct"], errors="coerce").astype(float))
    d = d[d["gender"].isin([a, b])]
    if d.empty or d["gender"].nunique() < 2:
        return results_frame([])
    fam = ["dataset", "model", "setting", "metric"]
    level = PairedFrame(d, case="case_id", arm="perturbation", score="correct",
                        by=["dataset", "model", "setting"]).gap(
        between="gender", a=a, b=b, metric="accuracy", audit=_AUDIT, null=0.0, n_resamples=n_resamples, seed=seed,
        family="accuracy gender gap", family_cols=fam, correction=correction)
    parts = [level.assign(comparison="", ref_arm="")]
    pairs = _change_pairs(d)
    if not pairs.empty:
        pairs = pairs[pairs["comparison"] == _SAME]
    if not pairs.empty:
        change = PairedFrame.from_pairs(pairs, metric=_change, ref="correct_ref", alt="correct_alt", case="case_id",
                                        arm="perturbation", by=["dataset", "model", "setting", "ref_arm"]).gap(
            between="gender", a=a, b=b, metric="accuracy_change", audit=_AUDIT, null=0.0, n_resamples=n_resamples,
            seed=seed, family="accuracy gender gap", family_cols=fam, correction=correction)
        parts.append(change.assign(comparison=_SAME))
    out = pd.concat([p for p in parts if len(p)], ignore_index=True)
    out = out.assign(perturbation=out["arm"], group=out["setting"] + "/" + out["arm"] + ": " + f"{a}")
    return results_frame(out.drop(columns=["arm"]))


def table4(changes: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """P2 Table 4 layout: perturbation rows × setting columns, change in accuracy (points) vs the setting's baseline.

    ``*`` marks a corrected p below ``alpha``.
    """
    if changes.empty:
        return pd.DataFrame()
    c = changes[changes["comparison"] == _SAME]
    if c.empty:
        return pd.DataFrame()
    cell = [f"{100 * v:+.1f}" + ("*" if (not math.isnan(p) and p < alpha) else "") if not math.isnan(v) else ""
            for v, p in zip(c["value"].astype(float), c["p_adj"].astype(float))]
    c = c.assign(cell=cell)
    wide = c.pivot_table(index=["dataset", "model", "perturbation"], columns="setting", values="cell", aggfunc="first")
    wide = wide[[s for s in SETTINGS if s in wide.columns]].reset_index()
    wide.columns.name = None
    return wide
