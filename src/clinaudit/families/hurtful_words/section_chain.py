"""Report section of ``hurtfulwords_pipeline``: P4 Tables 3–5 for the baseline and the debiased encoder.

Blocks, all from the run's tables: what was trained (cohorts, tasks, encoders, steps); the
pretraining loss curves of both encoders; Table 3 (association scores per category, both
encoders); Table 4 (significant gaps per attribute × group and whom they favour, both
encoders); Table 5 (baseline vs debiased, significant gaps per metric); the attribute
recovery by a fresh probe; task performance.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...report.base import Figure, Metric, Section, Table, Text, register_section

__all__ = ["build"]

AUDIT = "hurtfulwords_pipeline"


def _curves_figure(curves: pd.DataFrame) -> Figure | None:
    from matplotlib.figure import Figure as MplFigure

    if curves.empty or "step" not in curves.columns:
        return None
    fig = MplFigure(figsize=(6.5, 3.2))
    ax = fig.add_subplot(1, 1, 1)
    for (enc, col), style in zip([(e, c) for e in pd.unique(curves["encoder"]) for c in ("mlm_loss", "adversary_loss")],
                                 ["-", ":", "--", "-."]):
        sub = curves[curves["encoder"] == enc]
        if col in sub and sub[col].notna().any():
            ax.plot(sub["step"], sub[col], style, marker=".", label=f"{enc}: {col.replace('_', ' ')}")
    ax.set_xlabel("pretraining step")
    ax.set_ylabel("training loss")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return Figure(title="Pretraining loss curves", fig=fig, data=curves, name="pretrain_curves",
                  caption="MLM loss of both encoders; the debiased encoder's discriminator cross-entropy "
                          "(ln 2 ≈ 0.69 = chance for two groups).")


@register_section(AUDIT)
def build(rundir: Any) -> Section:
    sec = Section(title="Hurtful Words end to end (P4 Tables 3–5)", audit=AUDIT)
    summary = (rundir.manifest.get("summary") or {}) if hasattr(rundir, "manifest") else {}
    t3, t4, t5 = (rundir.table_or_empty(n) for n in ("table3", "table4", "table5"))
    if t4.empty:
        sec.blocks.append(Text("This run has no gap tables (it stopped before the audit finished?).", kind="warning"))
        return sec
    stays = summary.get("stays") or {}
    sec.blocks.append(Text(
        f"Cohorts: {', '.join(f'{k} ({v} stays)' for k, v in stays.items()) or 'see task_index'}; "
        f"{summary.get('tasks', '?')} tasks. Two encoders were pretrained further from the same base "
        f"({summary.get('base_model', '?')}): baseline (MLM only) and debiased (MLM + a gradient-reversed "
        f"discriminator predicting {summary.get('debias_attribute', '?')} from [CLS]). Task heads are MLPs on "
        "frozen last-4-layer [CLS] features selected by validation AUPRC; thresholds maximise validation F1; "
        "gap CIs are label-stratified bootstraps of the test stays; BH across tasks."))
    fig = _curves_figure(rundir.table_or_empty("pretrain_curves"))
    if fig is not None:
        sec.blocks.append(fig)
    rec = rundir.table_or_empty("attribute_recovery")
    for r in rec.to_dict("records"):
        sec.blocks.append(Metric(label=f"{r['attribute']} recovered from {r['model']} features ({r['cohort']}), "
                                 "test AUROC of a fresh logistic probe", value=float(r["auc"]), n=int(r["n_test"])))
    if not t3.empty:
        cols = [c for c in ["model", "category"] + [c for c in t3.columns if c not in ("model", "category")]]
        sec.blocks.append(Table(title="Association scores per category (P4 Table 3), both encoders", df=t3[cols],
                                name="table3", caption="Prior-adjusted log-probability bias scores of the templates; "
                                "p from the first test of params.association.tests, corrected per encoder."))
    show = t4[[c for c in ["model", "criterion", "attribute", "group", "comparison", "n_tasks", "recall_gap",
                           "parity_gap", "specificity_gap"] if c in t4.columns]]
    sec.blocks.append(Table(title="Significant gaps and whom they favour (P4 Table 4), both encoders", df=show,
                            name="table4", caption="Tasks with a significant gap, and the share of them in which "
                            "the group does better."))
    if not t5.empty:
        cols = [c for c in ["attribute", "group", "model", "n_tasks", "parity_gap", "recall_gap", "specificity_gap"]
                if c in t5.columns]
        sec.blocks.append(Table(title="Baseline vs debiased encoder (P4 Table 5)",
                                df=t5.sort_values(["attribute", "group", "model"])[cols], name="table5",
                                caption="Significant gap count (CI excludes 0) and % favouring the group."))
    perf = rundir.table_or_empty("performance")
    if not perf.empty:
        sec.blocks.append(Table(title="Task performance on the test stays", df=perf, name="performance"))
    return sec
