"""Perturbations measured against a control perturbation (e.g. cognitive-bias cues vs ``cognitive_control``).

A cue adds a sentence; *any* added sentence may change an answer. The control
perturbation (:data:`clinaudit.perturb.cognitive.COGNITIVE_CONTROL`: a neutral sentence of
matched length at the same position) measures that. :func:`control_comparison` takes the
paired table of :func:`~.analysis.build_paired` (perturbed vs baseline answers) and asks,
per dataset × model × question × metric, whether each perturbation shifts answers more
often than the control does:

- the control's pairs play the role of the noise floor in :func:`~.metrics.treatment_shift_table`
  (the paired-statistics layer): ``value`` = shift rate of the perturbation − shift rate of
  the control, a percentile bootstrap CI resampling **cases** (a case's cue and control
  pairs move together), and a one-sided sign-flip test over cases of the per-case difference
  (H0: the perturbation shifts answers no more often than the control);
- corrected over the perturbations compared with the control within one dataset × model ×
  question × metric (``family``).

The re-sampled-baseline noise floor is not used here: both the cue and the control are
paired with the same baseline answers, so the floor cancels in the difference.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["CONTROL_COMPARISON", "control_comparison"]

#: ``comparison`` label of the rows :func:`control_comparison` writes.
CONTROL_COMPARISON = "vs control perturbation"


def control_comparison(paired: pd.DataFrame, control: str, *, by: list[str], floor_label: str,
                       n_resamples: int, n_permutations: int, seed: int, correction: str,
                       audit: str = "treatment_shift") -> pd.DataFrame:
    """Result rows (the project's result table) of every perturbation against ``control``.

    ``paired``: the paired table (its ``perturbation`` column names the arms; ``floor_label``
    marks the noise-floor rows, which are left out). Empty when ``control`` has no pairs.
    """
    from ...results import results_frame
    from ...stats import apply_correction
    from .metrics import treatment_shift_table

    data = paired[paired["perturbation"] != floor_label]
    if data.empty or not (data["perturbation"] == control).any() or data["perturbation"].nunique() < 2:
        return results_frame([])
    # the control's pairs become the "floor" arm of the layer: excess = rate(cue) - rate(control)
    data = data.assign(perturbation=data["perturbation"].where(data["perturbation"] != control, floor_label))
    t = treatment_shift_table(data, by=by, n_resamples=n_resamples, n_permutations=n_permutations, seed=seed,
                              audit=audit, alternative="greater")
    t = t[t["n"] > 0]  # e.g. RCER without clinician labels: nothing to compare
    if t.empty:
        return results_frame([])
    strata = [c for c in by if c != "perturbation"]
    t = t.assign(reference=control, comparison=CONTROL_COMPARISON, control_rate=t["floor"],
                 ci_method="percentile bootstrap over cases",
                 null_hypothesis=f"the perturbation shifts answers no more often than {control} (per-case "
                 "difference symmetric about 0)",
                 note=f"shift rate minus the shift rate of {control} (a neutral sentence of matched length); "
                 "both paired with the same baseline answers")
    t["family"] = f"perturbations vs {control} within " + t[strata + ["metric"]].astype(str).agg("|".join, axis=1)
    t = apply_correction(t, family_cols=["family"], method=correction)
    return results_frame(t.drop(columns=["floor"], errors="ignore"))
