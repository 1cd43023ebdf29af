"""The result rows of a perturbation that could not be measured (issue 49 item 1).

A rewritten perturbation whose rewrites are mostly no valid counterfactual (:func:`.variants.screen_variants`,
``min_valid_share``) has no pairs, so the analysis gives it no rows: left there, it would vanish from the
results without a word. Instead it gets one row per cell the measured perturbations have (dataset × model ×
question × metric; TSR and RCR when none was measured), with no value and ``not_measured_reason`` set: its
verdict is ``not_measured`` with that reason (:func:`clinaudit.pipeline.validity.assign_verdicts`), which the
first screen, ``findings.json`` and the terminal say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

__all__ = ["unmeasured_rows", "gender_gap_unmeasured"]

_CELL_METRICS = ("TSR", "RCR", "RCER")


def unmeasured_rows(results: pd.DataFrame, unmeasured: Mapping[str, str], *, datasets: Sequence[str],
                    models: Sequence[str], questions: Sequence[str], audit: str = "treatment_shift") -> pd.DataFrame:
    """Rows with no value for each perturbation of ``unmeasured`` (name -> reason), cut like ``results``' cells."""
    from ...results import result_row, results_frame

    cols = ["dataset", "model", "question", "metric"]
    cells = pd.DataFrame(columns=cols)
    if len(results) and set(cols + ["perturbation"]) <= set(results.columns):
        is_cell = results["metric"].isin(_CELL_METRICS) & results["group"].astype(str).eq(
            results["perturbation"].astype(str))
        cells = results.loc[is_cell, cols].drop_duplicates()
    if cells.empty:
        cells = pd.DataFrame([(d, m, q, t) for d in datasets for m in models for q in questions
                              for t in ("TSR", "RCR")], columns=cols)
    rows = [result_row(audit=audit, metric=c["metric"], group=name, reference="baseline (minus noise floor)",
                       n=0, dataset=c["dataset"], model=c["model"], perturbation=name, question=c["question"],
                       n_cases=0, note=why, not_measured_reason=why)
            for name, why in unmeasured.items() for c in cells.to_dict("records")]
    return results_frame(rows)


def gender_gap_unmeasured(results: pd.DataFrame, recorded: set[str], audit: str = "treatment_shift") -> pd.DataFrame:
    """The female − male gap rows a run with a recorded gender could not give (only one of the two groups is
    recorded): one row per cell of ``results`` (dataset × model × perturbation × question) and metric, no value,
    ``not_measured_reason`` saying which groups the data has. Empty when both are recorded or none is."""
    from ...results import result_row, results_frame

    if not recorded or {"female", "male"} <= recorded:
        return results_frame([])
    why = (f"gender: the recorded gender has only {', '.join(sorted(recorded))}: no female − male gap (both are "
           "needed)")
    cols = ["dataset", "model", "perturbation", "question"]
    if not len(results) or not set(cols + ["metric"]) <= set(results.columns):
        return results_frame([])
    cells = results.loc[results["metric"].isin(("TSR", "RCR")), cols].drop_duplicates().to_dict("records")
    return results_frame([result_row(audit=audit, metric=f"{m}_gap", group="female", reference="male", n=0,
                                     gender_source="recorded", note=why, not_measured_reason=why, **c)
                          for c in cells for m in ("TSR", "RCR")])
