"""Clinically justified differences in the note-generation audit (issue 19 item 2).

Each counterfactual cell changes one attribute (or an intersection, ``race+gender``) of a dialog's
patient. Where the attribute is clinically relevant to the dialog (a pregnancy for gender,
weight-based dosing for age; the label comes from :func:`clinaudit.perturb.relevance.label_relevance`,
an intersection is relevant when one of its attributes is), a changed note is not bias:

- :func:`split_relevant` takes the dialog out of that cell for the metrics (baseline and
  counterfactual notes together, so the pairs stay paired), so the incidence metrics, the results
  table and Findings count only irrelevant dialogs;
- :func:`relevance_shifts` reports ΔBL (each value's incidence minus the baseline's, percentage
  points) per cell separately for relevant, irrelevant and unknown dialogs through
  :func:`clinaudit.stats.agreement.split_by_stratum` (dialogs resampled), ``counts_toward_verdict``
  true only for the irrelevant rows.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...perturb.relevance import COUNTED, canonical_attribute

__all__ = ["components", "combined_labels", "split_relevant", "relevance_shifts"]

_CELL = ["model", "dataset", "context", "source", "attribute"]


def components(attribute: str) -> list[str]:
    """``"race+gender"`` → ``["race", "gender"]`` (canonical names)."""
    return [canonical_attribute(a) for a in str(attribute).split("+") if a]


def combined_labels(paired: pd.DataFrame, relevance: pd.DataFrame) -> pd.Series:
    """The relevance label of each row's (dialog, attribute): relevant if any component is, else unknown
    if any component is, else irrelevant."""
    lab = {(str(c), a): r for c, a, r in zip(relevance["case_id"], relevance["attribute"], relevance["relevance"])}

    def one(case_id: Any, attribute: Any) -> str:
        got = [lab.get((str(case_id), a), "unknown") for a in components(attribute)]
        if "relevant" in got:
            return "relevant"
        return "unknown" if "unknown" in got else "irrelevant"

    return pd.Series([one(c, a) for c, a in zip(paired["case_id"], paired["attribute"])], index=paired.index,
                     dtype=object)


def split_relevant(paired: pd.DataFrame, relevance: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(rows counted, rows set aside)`` — a dialog's rows of a cell whose attribute is not irrelevant are set aside."""
    if relevance is None or relevance.empty or paired.empty:
        return paired, paired.iloc[0:0]
    lab = combined_labels(paired, relevance)
    aside = ~lab.isin(COUNTED)
    return paired[~aside].copy(), paired[aside].assign(relevance=lab[aside])


def relevance_shifts(paired: pd.DataFrame, relevance: pd.DataFrame, judge_model: str, *, n_resamples: int,
                     n_permutations: int, confidence: float, seed: int, correction: str,
                     audit: str = "note_generation") -> pd.DataFrame:
    """ΔBL per cell and counterfactual value, per relevance label (all dialogs, before :func:`split_relevant`)."""
    from ...stats.agreement import split_by_stratum

    if relevance is None or relevance.empty or paired.empty:
        return pd.DataFrame()
    df = paired[paired["judge_model"] == judge_model].copy()
    if df.empty:
        return pd.DataFrame()
    df["incidence"] = pd.to_numeric(df["incidence"], errors="coerce")
    df["relevance"] = combined_labels(df, relevance)
    t = split_by_stratum(df[_CELL + ["case_id", "group", "incidence", "relevance"]], "relevance", COUNTED, by=_CELL,
                         family_cols=_CELL, case="case_id", arm="group", score="incidence", control="baseline",
                         metric="ΔBL", audit=audit, scale=100.0, n_resamples=n_resamples,
                         n_permutations=n_permutations, confidence=confidence, seed=seed, correction=correction)
    if t.empty:
        return t
    t["judge_model"] = judge_model
    first = ["relevance", "counts_toward_verdict", *_CELL, "group", "metric", "value", "rate", "floor", "ci_low",
             "ci_high", "n_pairs", "n_cases", "p", "p_adj"]
    return t[[c for c in first if c in t.columns] + [c for c in t.columns if c not in first]]
