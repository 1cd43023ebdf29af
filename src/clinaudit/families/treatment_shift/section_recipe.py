"""Report blocks of the ``treatment_shift`` recipe's own outputs (model-calling runs only).

Called at the end of :func:`clinaudit.families.treatment_shift.section.build`:

* what was left out of the analysis (``exclusions``) and the variants that gave the target
  model exactly the baseline's text (``unchanged_variants``), and where model-inferred
  gender came from;
* P2 Table 1 — input length and sentiment per perturbation (``table1``);
* perturbations against a control perturbation (``control``: e.g. the cognitive-bias cues
  against ``cognitive_control``, :mod:`.control`);
* P2 Fig. 7 — conversational diagnostic accuracy for female vs male patients, its gap and
  the gap of the change vs the setting's baseline (``accuracy_gender_gap``).

Runs of ``clinaudit treatment-shift --labels`` have none of these tables: nothing is added.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...rundir import RunDir
from ...report.base import Figure, Table, Text

__all__ = ["recipe_blocks", "exclusion_blocks", "table1_blocks", "gender_accuracy_blocks", "control_blocks"]

_GAP_COLS = ("dataset", "model", "setting", "perturbation", "metric", "comparison", "value_a", "value_b", "value",
             "n_cases_a", "n_cases_b", "n_pairs", "ci_low", "ci_high", "test", "p", "p_adj", "p_method", "correction", "family")


def exclusion_blocks(rundir: RunDir) -> list[Any]:
    """Exclusions ledger, unchanged variants and the source of model-inferred gender."""
    summ = rundir.manifest.get("summary", {}) or {}
    blocks: list[Any] = []
    src = summ.get("gender_inference_source")
    if src == "baseline":
        blocks.append(Text("Model-inferred gender was read from the baseline text, which still carries its gender "
                           "markers: the 'model_inferred' subgroups mostly restate the recorded gender (P2 infers it "
                           "from the gender-removed text).", kind="warning"))
    elif src == "not computed":  # the advice names the cause the spec shows (issue 49: not 'add gender_removal'
        params = (rundir.manifest.get("spec") or {}).get("params") or {}  # when it is there and switched off)
        if params.get("infer_gender") is False:
            why = "params.infer_gender is false (set it to true to infer it from the gender_removal rewrites)"
        elif "gender_removal" in (params.get("perturbations") or []):
            why = "no gender-removed text was usable (see the rewrite validity and the exclusions below)"
        else:
            why = "there is no gender-removed text in this run (add gender_removal to the perturbations)"
        blocks.append(Text(f"Model-inferred gender was not computed: {why}.", kind="note"))
    ex = rundir.table_or_empty("exclusions")
    if not ex.empty:
        counts = ex.groupby(["stage", "reason"], sort=True).size().reset_index(name="n")
        text = "; ".join(f"{r.stage}: {r.n} × {r.reason}" for r in counts.itertuples())
        blocks.append(Text(f"Left out of the analysis ({len(ex)}): {text}.", kind="note"))
        blocks.append(Table("Exclusions: what was left out of the analysis, and why", ex, name="exclusions",
                            caption="stage 'cases': set aside before any model call; 'variants': a perturbed input "
                                    "not sent to the target models (a failed rewrite holds the original text and "
                                    "would only add agreeing pairs); 'gender_inference': no gender-removed text, so "
                                    "no model-inferred gender (never read from the gendered baseline)."))
    un = rundir.table_or_empty("unchanged_variants")
    if not un.empty:
        blocks.append(Table("Variants identical to the baseline input (kept)", un, name="unchanged_variants",
                            caption="The target model saw exactly the baseline's text for these variants (e.g. a "
                                    "regex perturbation with nothing to change): their answers can differ from the "
                                    "baseline's only by sampling noise."))
    return blocks


def table1_blocks(rundir: RunDir) -> list[Any]:
    """P2 Table 1 (input length and sentiment per perturbation)."""
    t1 = rundir.table_or_empty("table1")
    if t1.empty:
        return []
    return [Table("P2 Table 1: input length and sentiment per perturbation", t1, name="table1",
                  caption="Means over the inputs the target models saw (EHR context included): words "
                          "(whitespace-separated), characters, and VADER compound sentiment in [-1, 1] "
                          "(vaderSentiment 3.3.2, lexicon-based, offline). 'Average perturbation' is the "
                          "unweighted mean of the perturbation rows. Descriptive: no test.")]


def _gap_figure(gaps: pd.DataFrame) -> Figure | None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure as MplFigure
    import numpy as np

    d = gaps[(gaps["metric"] == "accuracy_gap")].dropna(subset=["value"])
    if d.empty:
        return None
    settings = list(dict.fromkeys(d["setting"]))
    fig = MplFigure(figsize=(4.2 * len(settings), 3.4))
    axes = fig.subplots(1, len(settings), squeeze=False, sharey=True)
    for ax, setting in zip(axes[0], settings):
        s = d[d["setting"] == setting].groupby("perturbation", sort=False)[["value", "ci_low", "ci_high"]].mean()
        order = (["baseline"] if "baseline" in s.index else []) + [p for p in s.index if p != "baseline"]
        s = s.reindex(order)
        x = np.arange(len(s))
        val = 100 * s["value"].to_numpy(float)
        err = np.vstack([np.nan_to_num(val - 100 * s["ci_low"].to_numpy(float)),
                         np.nan_to_num(100 * s["ci_high"].to_numpy(float) - val)])
        ax.bar(x, val, yerr=np.clip(err, 0, None), capsize=2,
               color=["#777777" if p == "baseline" else "#4a7ab5" for p in s.index])
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xticks(x)
        ax.set_xticklabels(list(s.index), rotation=45, ha="right", fontsize=8)
        ax.set_title(setting)
    axes[0][0].set_ylabel("accuracy female − male (points)")
    fig.tight_layout()
    cols = [c for c in _GAP_COLS if c in d.columns]
    return Figure(title="P2 Fig. 7: diagnostic accuracy gap between female and male patients", fig=fig,
                  data=d[cols], name="accuracy_gender_gap",
                  caption="Per conversational setting and perturbation (grey: baseline); mean over models. Whiskers: "
                          "mean of the per-cell 95% bootstrap CIs (cases resampled within each gender); see the "
                          "table for each cell's permutation test and corrected p.")


def gender_accuracy_blocks(rundir: RunDir) -> list[Any]:
    """P2 Fig. 7 and its table."""
    gaps = rundir.table_or_empty("accuracy_gender_gap")
    if gaps.empty:
        return []
    blocks: list[Any] = []
    fig = _gap_figure(gaps)
    if fig is not None:
        blocks.append(fig)
    cols = [c for c in _GAP_COLS if c in gaps.columns]
    blocks.append(Table("Diagnostic accuracy, female vs male patients (P2 Fig. 7)", gaps[cols],
                        name="accuracy_gender_gap",
                        caption="value_a / value_b: accuracy (metric accuracy_gap) or its change vs the setting's "
                                "baseline (accuracy_change_gap) for female / male patients; value = female − male. "
                                "CI: percentile bootstrap over cases within each gender; test: permutation of the "
                                "gender labels over cases; correction over the perturbations of one dataset × "
                                "model × setting × metric (family)."))
    return blocks


def recipe_blocks(rundir: RunDir) -> list[Any]:
    """Every block of this module, in report order."""
    return exclusion_blocks(rundir) + table1_blocks(rundir) + gender_accuracy_blocks(rundir)


_CONTROL_COLS = ("dataset", "model", "question", "metric", "perturbation", "reference", "raw", "control_rate", "value",
                 "n_cases", "ci_low", "ci_high", "test", "p", "p_adj", "p_method", "correction", "family")


def control_blocks(rundir: RunDir) -> list[Any]:
    """Each perturbation's shift beyond the control perturbation's (table ``control``)."""
    ctl = rundir.table_or_empty("control")
    if ctl.empty:
        return []
    ref = str(ctl["reference"].iloc[0]) if "reference" in ctl.columns else "the control"
    return [Table(f"Perturbations vs the control perturbation ({ref})", ctl[[c for c in _CONTROL_COLS if c in ctl]],
                  name="control",
                  caption=f"raw: the perturbation's shift rate vs the baseline; control_rate: the same for {ref} (for "
                          "cognitive_control, a neutral sentence of matched length at the same position); value = "
                          "raw − control_rate with a 95% bootstrap CI over cases; test: one-sided sign-flip "
                          "permutation over cases of the per-case difference, p_adj corrected over the "
                          "perturbations of one dataset × model × question × metric.")]
