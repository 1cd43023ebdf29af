"""Clinically justified differences in the CARE audit (issue 19 item 2).

The demographic arms change the patient's gender (``[Patient is male]`` / ``[Patient is female]``).
Where gender is clinically relevant to the vignette (the label comes from
:func:`clinaudit.perturb.relevance.label_relevance`; with ``filter_sex_specific`` on, most such
vignettes are excluded before), a male/female difference is not bias:

- the vignette leaves the statistics (ΔAcc, ΔLen, drift, CoT audits: :func:`split_relevant`), so
  the results table and Findings count only irrelevant vignettes; it stays in ``care_items``;
- :func:`relevance_shifts` reports ΔAcc (male − female correct) and the semantic drift between the
  male and female answers per relevance label, each against the ID1/ID2 control pair of the same
  vignettes (``params.gap_floor: control``; else against 0), through
  :func:`clinaudit.stats.agreement.split_by_stratum` (vignettes resampled), ``counts_toward_verdict``
  true only for irrelevant rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ...perturb.relevance import COUNTED

__all__ = ["ATTRIBUTE", "labels_of", "split_relevant", "relevance_shifts"]

#: the attribute the CARE arms change
ATTRIBUTE = "gender"
_CONTROL = "id1 − id2 (control pair)"


def labels_of(paired: pd.DataFrame, relevance: pd.DataFrame) -> pd.Series:
    lab = {str(c): r for c, a, r in zip(relevance["case_id"], relevance["attribute"], relevance["relevance"])
           if a == ATTRIBUTE}
    return pd.Series([lab.get(str(c), "unknown") for c in paired["case_id"]], index=paired.index, dtype=object)


def split_relevant(paired: pd.DataFrame, relevance: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """``(rows of the vignettes that count, case ids set aside)``."""
    if relevance is None or relevance.empty or paired.empty:
        return paired, []
    lab = labels_of(paired, relevance)
    keep = lab.isin(COUNTED)
    return paired[keep].reset_index(drop=True), sorted(set(paired.loc[~keep, "case_id"].astype(str)))


def relevance_shifts(paired: pd.DataFrame, relevance: pd.DataFrame, p: Any, seed: int) -> pd.DataFrame:
    """ΔAcc and gender drift per model and relevance label (all vignettes, before :func:`split_relevant`)."""
    from ...stats.agreement import split_by_stratum

    if relevance is None or relevance.empty or paired.empty:
        return pd.DataFrame()
    use_control = p.gap_floor == "control"
    base = paired[["model", "case_id"]].assign(relevance=labels_of(paired, relevance).to_numpy())
    f = lambda c: paired[c].to_numpy(dtype=float)  # noqa: E731
    out = []
    for metric, arm, gender, control in (
            ("ΔAcc", "male − female", f("correct_male") - f("correct_female"), f("correct_id1") - f("correct_id2")),
            ("drift", "male vs female", f("drift_gender"), f("drift_control"))):
        ctrl = use_control or metric == "drift"  # the drift is always read against the control pair's drift
        parts = [base.assign(arm=arm, score=gender)] + ([base.assign(arm=_CONTROL, score=control)] if ctrl else [])
        t = split_by_stratum(pd.concat(parts, ignore_index=True), "relevance", COUNTED, by=["model"],
                             family_cols=["model"], case="case_id", arm="arm", score="score",
                             control=_CONTROL if ctrl else None, metric=metric, audit="reasoning_care",
                             alternative="two-sided" if metric == "ΔAcc" else "greater",
                             n_resamples=p.n_bootstrap, confidence=p.confidence, seed=seed,
                             correction=getattr(p, "correction", "holm"))
        out.append(t.assign(attribute=ATTRIBUTE))
    res = pd.concat(out, ignore_index=True)
    first = ["attribute", "relevance", "counts_toward_verdict", "model", "metric", "group", "reference", "value",
             "rate", "floor", "ci_low", "ci_high", "n_pairs", "n_cases", "p", "p_adj"]
    res = res.replace({np.inf: np.nan})
    return res[[c for c in first if c in res.columns] + [c for c in res.columns if c not in first]]
