"""Classifier fairness audit (P4 §4.1–4.2, Tables 2 and 4; METHODS §4.5).

Pipeline: a predictions table (one row per case × task: label, score or
binary prediction, protected attributes, split) → per task a decision
threshold with the best F1 on the validation split (when scores are given) →
binary predictions on the test split → per task × attribute × group the
parity (predicted-positive rate), recall and specificity, each group's gap to
the group it differs from most (P4 Eq. 2), a 95% percentile CI from a
label-stratified bootstrap of the test rows, a bootstrap p-value corrected with
Benjamini–Hochberg across tasks (one family per metric × attribute) → counts of
significant gaps and the share favouring each group (P4 Table 4).

Metrics live in :mod:`clinaudit.metrics.classifier`; every bootstrap, test and
correction in :mod:`clinaudit.stats` (the AUROC bootstrap in
:mod:`clinaudit.stats.auroc`); this module validates input, chooses thresholds,
and shapes the outputs.

The predictions may come from a file (``params.predictions`` or a data source
with a ``path``) or from a probe trained on frozen encoder features of the
spec's cases (``params.probe``, see :mod:`clinaudit.probes`).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...errors import SpecError
from ...spec import AuditContext, Estimate, register_audit
from .gap_table import (  # the table this recipe shapes; re-exported
    GAP_METRICS,
    METRIC_LABELS,
    DebiasParams,
    GapAudit,
    ProbeParams,
    audit_predictions,
    choose_thresholds,
    performance_rows,
    read_predictions,
    table4,
)

__all__ = [
    "ClassifierGapsParams",
    "ProbeParams",
    "DebiasParams",
    "GapAudit",
    "GAP_METRICS",
    "METRIC_LABELS",
    "read_predictions",
    "choose_thresholds",
    "audit_predictions",
    "performance_rows",
    "table4",
    "run",
    "estimate",
    "demo_spec",
]

log = logging.getLogger("clinaudit.audits.classifier_gaps")


class ClassifierGapsParams(BaseModel):
    """Parameters of the ``classifier_gaps`` recipe (paths relative to the spec file)."""

    model_config = ConfigDict(extra="forbid")

    predictions: str | None = Field(default=None, description="predictions CSV (else the data sources' paths)")
    task_column: str | None = Field(default="task", description="task column (None: one task)")
    label_column: str = "label"
    score_column: str | None = Field(default=None, description="scores in [0, 1] (thresholded per task)")
    pred_column: str | None = Field(default=None, description="binary predictions (used as given)")
    group_columns: list[str] = Field(default_factory=list, description="protected attributes")
    split_column: str | None = Field(default=None, description="split column (validation / test rows)")
    valid_split: str = "valid"
    test_split: str = "test"
    threshold: float | None = Field(default=None, description="fixed threshold for every task (no tuning)")
    fallback_threshold: float = Field(default=0.5, description="used when a task's validation has no positives")
    exclude_groups: list[str] = Field(default_factory=list, description="group values dropped (e.g. UNKNOWN)")
    n_resamples: int = Field(default=1000, ge=1)
    confidence: float = Field(default=0.95, gt=0, lt=1)
    correction: str = "fdr_bh"
    alpha: float = Field(default=0.05, gt=0, lt=1, description="level for the BH-corrected counts")
    probe: ProbeParams | None = None

    @model_validator(mode="after")
    def _check(self) -> "ClassifierGapsParams":
        if self.probe is None:
            if (self.score_column is None) == (self.pred_column is None):
                raise ValueError("give exactly one of score_column or pred_column")
            if not self.group_columns:
                raise ValueError("group_columns must name at least one protected attribute")
        return self


# --------------------------------------------------------------------------- recipe


def _load_frame(ctx: AuditContext) -> pd.DataFrame:
    p: ClassifierGapsParams = ctx.params  # type: ignore[assignment]
    paths: list[Path] = []
    if p.predictions:
        paths.append(ctx.resolve_path(p.predictions))  # type: ignore[arg-type]
    else:
        for src in ctx.spec.data:
            rp = src.resolved_path(ctx.base_dir)
            if rp is None:
                raise SpecError(f"data source '{src.format}' has no path; classifier_gaps reads predictions "
                                "tables (give params.predictions or a data source with a path)")
            paths.append(rp)
    if not paths:
        raise SpecError("classifier_gaps needs a predictions table: params.predictions or a data source")
    frames = [read_predictions(x) for x in paths]
    if len(frames) == 1:
        return frames[0]
    df = pd.concat(frames, ignore_index=True)
    df.attrs["source"] = ", ".join(map(str, paths))
    return df


def estimate(ctx: AuditContext) -> Estimate:
    """No model calls unless a probe embeds the cases (one embedding per text window)."""
    p: ClassifierGapsParams = ctx.params  # type: ignore[assignment]
    est = Estimate()
    if p.probe is not None:
        enc = ctx.model("encoder")
        from .probes import seeded_sample, split_windows

        cases = ctx.cases()
        if p.probe.sample is not None and p.probe.sample < len(cases):
            cases = seeded_sample(cases, p.probe.sample, ctx.spec.seed)
        windows = {w for c in cases
                   for w in split_windows(c.text, p.probe.window_words, p.probe.window_stride, p.probe.max_windows)}
        est.calls[enc] = len(windows)
        est.notes.append(f"{len(cases)} texts; embeddings are cached per distinct text window")
    else:
        est.notes.append("classifier_gaps on a predictions table makes no model calls")
    return est


@register_audit(
    "classifier_gaps",
    summary="fairness gaps of clinical classifiers (parity/recall/specificity, P4 Table 4), probes on frozen "
    "encoders, adversarial debiasing",
    params_model=ClassifierGapsParams,
    estimate=estimate,
)
def run(ctx: AuditContext) -> dict[str, Any]:
    """The recipe: predictions (file or probe) → thresholds → gaps → Table 4; tables into the run dir."""
    p: ClassifierGapsParams = ctx.params  # type: ignore[assignment]
    seed = ctx.spec.seed
    extra: dict[str, Any] = {}
    if p.probe is not None:
        from .probes import probe_cases

        probe = probe_cases(ctx.cases(), p.probe, runner=ctx.runner, encoder=ctx.model("encoder"), seed=seed)
        for name, table in probe.tables().items():
            ctx.write_table(name, table)
        frame = probe.predictions
        kw: dict[str, Any] = {"task_column": "task", "label_column": "label", "score_column": "score",
                              "pred_column": None, "split_column": "split", "group_columns": probe.group_fields,
                              "source": "probe predictions"}
        extra = probe.info
    else:
        frame = _load_frame(ctx)
        kw = {"task_column": p.task_column, "label_column": p.label_column, "score_column": p.score_column,
              "pred_column": p.pred_column, "split_column": p.split_column, "group_columns": p.group_columns}
    res = audit_predictions(
        frame, valid_split=p.valid_split, test_split=p.test_split, threshold=p.threshold,
        fallback_threshold=p.fallback_threshold, exclude_groups=p.exclude_groups, n_resamples=p.n_resamples,
        seed=seed, confidence=p.confidence, correction=p.correction, alpha=p.alpha, **kw,
    )
    results = res.results()
    if p.probe is not None and p.probe.debias is not None:
        from .debias import debias_probe_tasks

        deb = debias_probe_tasks(probe, p.probe.debias, seed=seed, n_resamples=p.n_resamples,
                                 confidence=p.confidence, correction=p.correction, alpha=p.alpha)
        for name, table in deb.tables().items():
            ctx.write_table(name, table)
        results = pd.concat([results, deb.results], ignore_index=True)
        extra["debias"] = deb.info
    from ...results import results_frame

    ctx.write_table("results", results_frame(results))
    ctx.write_table("gaps", res.gaps)
    ctx.write_table("summary", res.summary)
    ctx.write_table("thresholds", res.thresholds)
    if len(res.performance):
        ctx.write_table("performance", res.performance)
    return {**res.info, **extra}


def demo_spec() -> dict[str, Any]:
    """The spec ``clinaudit demo`` runs: the demo predictions file (synthetic; no model calls)."""
    from ...data import demo_path

    return {
        "audit": "classifier_gaps",
        "name": "classifier_gaps-demo",
        "params": {
            "predictions": str(demo_path("classifier_predictions.csv")),
            "task_column": "task",
            "label_column": "label",
            "score_column": "score",
            "group_columns": ["gender", "race"],
            "split_column": "split",
            "n_resamples": 1000,
        },
    }
