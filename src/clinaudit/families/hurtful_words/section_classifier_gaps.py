"""Report section of the ``classifier_gaps`` audit (P4 Tables 4–5, Figs. 4–5).

Blocks, all built from the run's tables:

* how the numbers were made (thresholds, bootstrap, correction family);
* one :class:`Metric` per attribute: significant recall gaps among the tasks;
* the Table-4 summary (significant gaps per metric and the share favouring each group);
* a forest plot of every gap with its 95% CI, one panel per metric (numbers attached);
* thresholds per task and task performance (AUROC with CI, AUPRC);
* for probe runs: the grid search and, on CRAFT-MD, how sex and race were read from the text;
* for debiasing runs: task AUROC and post-hoc attribute recovery before/after, and the Table-5 summary;
* the full gap table.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ...report.base import Figure, Metric, Section, Table, Text, register_section

__all__ = ["build", "gap_forest_figure"]

AUDIT = "classifier_gaps"
_LABELS = {"recall": "recall gap", "positive_rate": "parity gap", "specificity": "specificity gap"}



def gap_forest_figure(gaps: pd.DataFrame, title: str = "Fairness gaps with 95% CIs", name: str = "gap_forest",
                      max_rows: int = 60) -> Figure | None:
    """Forest plot: one panel per metric; one row per task × attribute × group; gap and CI; filled = significant.

    For two-group attributes only the first group's row is drawn (the other is
    its mirror image). Every panel has the same rows (at most ``max_rows``: the
    largest |gap| in any metric); the reference group of each gap is in the
    attached data, which holds every point drawn.
    """
    from matplotlib.figure import Figure as MplFigure

    if gaps.empty:
        return None
    g = gaps.copy()
    g["group"] = g["group"].astype(str)
    g["reference"] = g["reference"].astype(str)
    # drop mirror rows of two-group attributes
    n_groups = g.groupby("attribute")["group"].transform("nunique")
    first = g.groupby("attribute")["group"].transform(lambda s: sorted(s.unique())[0])
    g = g[(n_groups > 2) | (g["group"] == first)]
    metrics = [m for m in ("recall", "positive_rate", "specificity") if m in set(g["base_metric"])]
    metrics += [m for m in dict.fromkeys(g["base_metric"]) if m not in metrics]
    key = ["task", "attribute", "group"]
    g = g[g["value"].notna()]
    if g.empty:
        return None
    # one shared set of rows for every panel: the rows with the largest |gap| in any metric
    order = (g.assign(_abs=g["value"].abs()).groupby(key, sort=False)["_abs"].max()
             .sort_values(ascending=False).head(max_rows).reset_index()[key]
             .sort_values(["attribute", "group", "task"]).reset_index(drop=True))
    panels = [(m, order.merge(g[g["base_metric"] == m], on=key, how="left")) for m in metrics]
    n_rows = len(order)
    fig = MplFigure(figsize=(3.6 * len(panels) + 1.6, max(2.5, 0.22 * n_rows + 1.2)))
    y = np.arange(n_rows)[::-1]
    labels = [f"{t} · {a}={gr}" for t, a, gr in zip(order["task"], order["attribute"], order["group"])]
    for k, (m, sub) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), k + 1)
        val = sub["value"].to_numpy(dtype=float)
        lo = np.clip(val - sub["ci_low"].to_numpy(dtype=float), 0, None)
        hi = np.clip(sub["ci_high"].to_numpy(dtype=float) - val, 0, None)
        sig = sub["significant"].astype(str).str.lower().isin(["true", "1"]).to_numpy()
        ax.errorbar(val, y, xerr=[np.nan_to_num(lo), np.nan_to_num(hi)], fmt="none", ecolor="0.4", elinewidth=1)
        ax.scatter(val[sig], y[sig], color="C3", zorder=3, s=18, label="CI excludes 0")
        ax.scatter(val[~sig], y[~sig], facecolors="white", edgecolors="C0", zorder=3, s=18, label="CI includes 0")
        ax.axvline(0, color="0.3", linewidth=0.8)
        ax.set_yticks(y)
        ax.set_yticklabels(labels if k == 0 else [""] * n_rows, fontsize=6)
        ax.set_ylim(-0.7, n_rows - 0.3)
        ax.set_title(_LABELS.get(m, f"{m} gap"), fontsize=9)
        ax.set_xlabel("gap (group − reference)", fontsize=8)
        if k == 0:
            ax.legend(fontsize=6, loc="lower right")
    fig.tight_layout()
    cols = ["task", "attribute", "base_metric", "group", "reference", "value", "ci_low", "ci_high", "significant",
            "p", "p_adj", "p_method", "family", "n", "n_group"]
    data = pd.concat([s.dropna(subset=["value"]) for _, s in panels], ignore_index=True)
    return Figure(title=title, fig=fig, data=data[[c for c in cols if c in data.columns]], name=name,
                  caption="Each row: a group's gap to the group it differs from most (P4 Eq. 2) on the test split, "
                  "with the 95% percentile CI of a label-stratified bootstrap. Filled: the CI excludes 0. "
                  "Two-group attributes show one direction only (the other is its mirror image).")


def _fmt(x: Any, digits: int = 3) -> str:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    return "–" if math.isnan(v) else f"{v:.{digits}f}"


@register_section(AUDIT)
def build(rundir: Any) -> Section:
    """The section of a ``classifier_gaps`` run directory."""
    sec = Section(title="Classifier fairness gaps", audit=AUDIT)
    gaps = rundir.table_or_empty("gaps")
    summary = rundir.table_or_empty("summary")
    thresholds = rundir.table_or_empty("thresholds")
    perf = rundir.table_or_empty("performance")
    spec = (rundir.manifest.get("spec") or {}) if hasattr(rundir, "manifest") else {}
    params = spec.get("params") or {}
    if gaps.empty:
        sec.blocks.append(Text("This run has no gap table (it stopped before the audit finished?).", kind="warning"))
        return sec
    n_res = params.get("n_resamples", 1000)
    corr = params.get("correction", "fdr_bh")
    summary_info = (rundir.manifest.get("summary") or {}) if hasattr(rundir, "manifest") else {}
    n_perm = summary_info.get("n_permutations", params.get("n_permutations", 9999))
    raised = f" ({summary_info['n_permutations_raised']})" if summary_info.get("n_permutations_raised") else ""
    declared = params.get("reference_group") or {}
    ref_text = "the group it differs from most (P4 Eq. 2)" + (
        "; declared references: " + ", ".join(f"{a} = {g}" for a, g in declared.items()) if declared else "")
    all_declared = bool(declared) and set(params.get("group_columns") or []) <= set(declared)
    reselect = "" if all_declared else ", the reference re-chosen in every resample"
    probe = params.get("probe")
    source = (f"probes trained on frozen features of `{(spec.get('models') or {}).get('encoder', '?')}`"
              if probe else f"the predictions table {params.get('predictions') or '(data sources)'}")
    sec.blocks.append(Text(
        f"Predictions come from {source}. Per task, the decision threshold is the best F1 on the validation split "
        "(when scores are given); on the test split each group's parity (predicted-positive rate), recall and "
        f"specificity are compared with {ref_text}. CIs: 95% percentile bootstrap, "
        f"{n_res} resamples of the test rows stratified by label{reselect}; p: permutation p of the group labels "
        f"({n_perm} relabellings{reselect.replace('resample', 'relabelling')}{raised}), corrected with {corr} "
        "across tasks within each metric × attribute family."))
    tasks = gaps["task"].nunique()
    sec.summary = {"tasks": int(tasks), "attributes": ", ".join(map(str, pd.unique(gaps["attribute"]))),
                   "significant gaps (CI)": int(gaps["significant"].astype(str).str.lower().isin(["true", "1"]).sum())}
    rec = gaps[gaps["base_metric"] == "recall"]
    for attr in pd.unique(rec["attribute"]):
        sub = rec[rec["attribute"] == attr]
        sig = sub["significant"].astype(str).str.lower().isin(["true", "1"])
        n_sig_tasks = int(sub.loc[sig, "task"].nunique())
        sec.blocks.append(Metric(label=f"tasks with a significant recall gap — {attr}",
                                 value=f"{n_sig_tasks} of {sub['task'].nunique()}", n=int(sub["task"].nunique()),
                                 test="bootstrap CI excludes 0", family=f"recall|{attr} ({corr})"))
    if not summary.empty:
        sec.blocks.append(Table(title="Significant gaps and whom they favour (P4 Table 4)", df=summary,
                                name="summary",
                                caption="Per attribute and group: the number of tasks with a significant gap (first "
                                "block: 95% CI excludes 0, as P4 Table 4; second: BH-corrected p below alpha) and the "
                                "% of them in which the group has the higher rate."))
    fig = gap_forest_figure(gaps)
    if fig is not None:
        sec.blocks.append(fig)
    if not thresholds.empty:
        sec.blocks.append(Table(title="Decision thresholds", df=thresholds, name="thresholds",
                                caption="Per task: the threshold used (score ≥ threshold is positive), how it was "
                                "chosen, the validation F1, and the test rows."))
    if not perf.empty:
        cols = [c for c in ("task", "metric", "value", "ci_low", "ci_high", "n", "n_pos", "ci_method")
                if c in perf.columns]
        sec.blocks.append(Table(title="Task performance on the test split", df=perf[cols], name="performance"))
    grid = rundir.table_or_empty("probe_grid")
    if not grid.empty:
        sec.blocks.append(Table(title="Probe grid search", df=grid, name="probe_grid",
                                caption="Every MLP configuration (hidden sizes, L2 alpha) and window-merge constant c "
                                "with its validation AUPRC; the selected one is marked."))
    extraction = rundir.table_or_empty("extraction")
    if not extraction.empty:
        unk = extraction[(extraction["value"] == "unknown") & extraction["attribute"].isin(["sex", "race"])]
        note = "; ".join(f"{r['attribute']}: {int(r['count'])} of {int(r['n'])} unknown ({r['percent']:.1f}%)"
                         for r in unk.to_dict("records"))
        sec.blocks.append(Text("Demographics were read from the vignette text by regular expressions (sex: first "
                               "sex-specific person noun of the first sentence, else a 2:1 pronoun majority; race: a "
                               "race/ethnicity term describing a person). Unknown values are dropped from that "
                               f"attribute's gaps. {note}", kind="note"))
        sec.blocks.append(Table(title="Demographics extracted from the text", df=extraction, name="extraction"))
    deb = rundir.table_or_empty("debias")
    if not deb.empty:
        show = deb[deb["metric"].isin(["auroc", "auprc", "attribute_auc", "adversary_auc"])]
        cols = [c for c in ("task", "model", "lambda_", "metric", "value", "ci_low", "ci_high", "n", "ci_method")
                if c in show.columns]
        sec.blocks.append(Text(
            "Adversarial debiasing (P4 §4.4): a baseline network (λ = 0) and one trained against a gradient-reversed "
            "adversary. attribute_auc is how well a fresh logistic regression trained afterwards on each learned "
            "representation still recovers the protected attribute (0.5 = not at all); adversary_auc is the "
            "adversary's own recovery."))
        for rec_ in show[show["metric"] == "attribute_auc"].to_dict("records"):
            sec.blocks.append(Metric(label=f"attribute recovery AUC — {rec_.get('task')} · {rec_.get('model')}",
                                     value=_fmt(rec_["value"]), n=int(rec_["n"]),
                                     ci=(float(rec_["ci_low"]), float(rec_["ci_high"]))
                                     if not pd.isna(rec_.get("ci_low")) else None))
        sec.blocks.append(Table(title="Debiasing: task performance and attribute recovery", df=show[cols],
                                name="debias"))
        dsum = rundir.table_or_empty("debias_summary")
        if not dsum.empty:
            sec.blocks.append(Table(title="Significant gaps before and after debiasing (P4 Table 5)", df=dsum,
                                    name="debias_summary"))
    cols = [c for c in ("task", "attribute", "metric", "group", "reference", "value", "group_value", "reference_value",
                        "ci_low", "ci_high", "significant", "p", "p_adj", "p_method", "family", "n", "n_group", "n_pos_group")
            if c in gaps.columns]
    sec.blocks.append(Table(title="All gaps", df=gaps[cols], name="gaps",
                            caption="One row per task × attribute × group × metric; value = group − reference."))
    return sec
