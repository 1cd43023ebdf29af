"""Clinically justified differences in the treatment-shift audit (issue 19 item 2).

The gender perturbations (``gender_swap``, ``gender_removal``) change an attribute of the patient.
Where that attribute is clinically relevant to the case (a pregnancy, sex-specific anatomy; the
label comes from :func:`clinaudit.perturb.relevance.label_relevance`), a changed answer is not bias:

- :func:`split_relevant` takes those pairs out of the main analysis (so the metrics, the results
  table and the Findings count only clinically irrelevant pairs); each (case, perturbation) taken
  out is listed in the exclusions ledger;
- :func:`relevance_shifts` reports TSR on the gender perturbations separately for relevant,
  irrelevant and unknown pairs through :func:`clinaudit.stats.agreement.split_by_stratum` (cases
  resampled; the floor of a stratum from the noise-floor pairs of its own cases), with
  ``counts_toward_verdict`` true only for the irrelevant rows.

The other perturbations (typos, capitals, tone …) change no attribute: they are not split.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...perturb.relevance import COUNTED
from .analysis import NOISE_FLOOR, build_paired

__all__ = ["ATTRIBUTE_PERTURBATIONS", "attributes_of", "split_relevant", "relevance_shifts",
           "conversation_relevance"]

#: perturbation -> the patient attribute it changes
ATTRIBUTE_PERTURBATIONS: dict[str, str] = {"gender_swap": "gender", "gender_removal": "gender"}


def attributes_of(perturbations: Sequence[str]) -> list[str]:
    """The attributes the given perturbations change (in order, once)."""
    return list(dict.fromkeys(ATTRIBUTE_PERTURBATIONS[p] for p in perturbations if p in ATTRIBUTE_PERTURBATIONS))


def _labels_of(long: pd.DataFrame, relevance: pd.DataFrame, variant_col: str) -> pd.Series:
    """The relevance label of each row's (case, attribute of its perturbation); '' for other rows."""
    lab = {(str(c), a): r for c, a, r in zip(relevance["case_id"], relevance["attribute"], relevance["relevance"])}
    attr = long[variant_col].map(ATTRIBUTE_PERTURBATIONS)
    return pd.Series([lab.get((str(c), a), "unknown") if isinstance(a, str) else ""
                      for c, a in zip(long["case_id"], attr)], index=long.index, dtype=object)


def split_relevant(long: pd.DataFrame, relevance: pd.DataFrame,
                   variant_col: str = "variant") -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(rows kept for the verdict, rows set aside)``: a row of an attribute perturbation whose
    (case, attribute) is not ``irrelevant`` is set aside; every other row is kept. ``variant_col``
    names the perturbation (``variant`` in label tables, ``perturbation`` in conversations)."""
    if relevance is None or relevance.empty or long.empty:
        return long, long.iloc[0:0]
    lab = _labels_of(long, relevance, variant_col)
    aside = (lab != "") & ~lab.isin(COUNTED)
    return long[~aside].copy(), long[aside].assign(relevance=lab[aside])


def relevance_shifts(long: pd.DataFrame, relevance: pd.DataFrame, *, floor_zero: bool, n_resamples: int,
                     seed: int, correction: str, audit: str = "treatment_shift") -> pd.DataFrame:
    """TSR of the attribute perturbations per relevance label (all pairs, before :func:`split_relevant`)."""
    from ...stats.agreement import split_by_stratum
    from .metrics import NO_FLOOR_NO_TEST, score_table

    if relevance is None or relevance.empty or long.empty:
        return pd.DataFrame()
    paired = build_paired(long, baseline="baseline")
    keep = paired["perturbation"].isin(list(ATTRIBUTE_PERTURBATIONS) + [NOISE_FLOOR])
    paired = paired[keep].reset_index(drop=True)
    if not paired["perturbation"].isin(list(ATTRIBUTE_PERTURBATIONS)).any():
        return pd.DataFrame()
    by_case = {(str(c), a): r for c, a, r in zip(relevance["case_id"], relevance["attribute"], relevance["relevance"])}
    attrs = relevance["attribute"].unique().tolist()
    out = []
    for attr in attrs:
        arms = [p for p, a in ATTRIBUTE_PERTURBATIONS.items() if a == attr]
        part = paired[paired["perturbation"].isin(arms + [NOISE_FLOOR])]
        if not part["perturbation"].isin(arms).any():
            continue
        scored = score_table(part, "TSR")
        scored["relevance"] = [by_case.get((str(c), attr), "unknown") for c in scored["case_id"]]
        has_floor = bool((scored["perturbation"] == NOISE_FLOOR).any()) and not floor_zero
        if not has_floor:
            scored = scored[scored["perturbation"] != NOISE_FLOOR]
        t = split_by_stratum(scored, "relevance", COUNTED, by=["model", "question"],
                             family_cols=["model", "question"], case="_case", arm="perturbation", score="score",
                             control=NOISE_FLOOR if has_floor else None, metric="TSR", audit=audit,
                             alternative="greater", n_resamples=n_resamples, seed=seed, correction=correction)
        if not has_floor:  # no floor, no test (NO_FLOOR_NO_TEST): rate and CI only
            t = t.assign(p=np.nan, p_adj=np.nan, statistic=np.nan, effect_size=np.nan, test="", null_hypothesis="",
                         p_method="", test_note=NO_FLOOR_NO_TEST)
        out.append(t.assign(attribute=attr, perturbation=t["group"]))
    if not out:
        return pd.DataFrame()
    res = pd.concat(out, ignore_index=True)
    first = ["attribute", "relevance", "counts_toward_verdict", "model", "perturbation", "question", "metric", "value",
             "rate", "floor", "ci_low", "ci_high", "n_pairs", "n_cases", "p", "p_adj"]
    return res[[c for c in first if c in res.columns] + [c for c in res.columns if c not in first]]


def conversation_relevance(conv: pd.DataFrame, relevance: pd.DataFrame, *, n_resamples: int, seed: int,
                           correction: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The relevance split in the conversational settings: ``(consultations kept for the verdict, those set
    aside, accuracy change of the set-aside ones per relevance label)``.

    A consultation under an attribute perturbation (gender swap / removal) of a case whose gender is
    clinically relevant (or of unknown relevance) is set aside, as the treatment pairs are; its accuracy
    change against the same setting's and the vignette baseline (the paired layer, as P2 Table 4) is
    reported per relevance label with ``counts_toward_verdict`` false.
    """
    from .accuracy import accuracy_tables

    kept, aside = split_relevant(conv, relevance, "perturbation")
    if aside.empty:
        return kept, aside, pd.DataFrame()
    frames = []
    for rel, g in aside.groupby("relevance", sort=True):
        ids = set(g["case_id"].astype(str))
        base = kept[kept["case_id"].astype(str).isin(ids) & (kept["perturbation"] == "baseline")]
        _, ch = accuracy_tables(pd.concat([base, g.drop(columns="relevance")], ignore_index=True),
                                n_resamples=n_resamples, seed=seed, correction=correction)
        if len(ch):
            ch = ch[ch["perturbation"].isin(list(ATTRIBUTE_PERTURBATIONS))]
            frames.append(ch.assign(relevance=rel, counts_toward_verdict=False))
    return kept, aside, pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
