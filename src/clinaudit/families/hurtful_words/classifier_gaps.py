"""Classifier fairness audit (P4 §4.1–4.2, Tables 2 and 4; METHODS §4.5), declared over the stages.

``cases`` the prediction rows (one per case × task: label, score or binary prediction,
protected attributes, split) from a file (``params.predictions`` or a data source with a
``path``), or the spec's cases when a probe is trained on frozen encoder features
(``params.probe``, :mod:`.probes`; the only model calls: one embedding per distinct text
window) → ``paired`` the test rows with the binary prediction used, keyed by ``case_id``
(the bootstrap resamples them within their label) → ``results`` per task × attribute ×
group the parity, recall and specificity gaps to the group each differs from most (P4
Eq. 2) with label-stratified bootstrap CIs and BH across tasks (:mod:`.gap_table`), the
Table-4 counts, and the adversarial debiasing when configured (:mod:`.debias`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...errors import SpecError
from ...pipeline import Audit, Calls, StageOutput, register
from ...records import Case
from .gap_table import GapAudit, audit_predictions, read_predictions
from .params import ClassifierGapsParams
from .scaffold_gaps import scaffold

__all__ = ["ClassifierGaps", "demo_spec"]


@dataclass
class Predictions:
    """The prediction rows the gaps are computed on (a predictions table, or the probe's predictions) and
    their case ids; ``probe``: the trained probe (``params.probe``), else None."""

    frame: pd.DataFrame
    case_ids: np.ndarray
    probe: Any = None
    #: texts embedded (dry run of a probe: the estimate's note)
    n_texts: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


@register
class ClassifierGaps(Audit[ClassifierGapsParams, "list[Case] | Predictions", None, None, Predictions, GapAudit,
                           dict[str, object]]):
    name = "classifier_gaps"
    summary = ("fairness gaps of clinical classifiers (parity/recall/specificity, P4 Table 4), probes on frozen "
               "encoders, adversarial debiasing")
    params_model = ClassifierGapsParams
    scaffold = staticmethod(scaffold)  # `clinaudit init AUDIT --data FILE`

    def cases(self) -> list[Case] | StageOutput[list[Case] | Predictions]:
        if self.params.probe is not None:
            return self.ctx.cases()
        frame = self._predictions()
        ids = frame["case_id"].astype(str) if "case_id" in frame.columns else pd.Series(
            [f"row{i}" for i in range(1, len(frame) + 1)])
        keys = pd.DataFrame({"case_id": ids.to_numpy(),
                             "dataset": frame["dataset"] if "dataset" in frame.columns else frame.attrs.get("source", ""),
                             "text": ""}, index=frame.index)
        # the cases table keeps the columns the audit reads and nothing else: a predictions file may carry a
        # note's text, a patient's name or other identifiers in columns the audit does not use (never written)
        p = self.params
        used = [c for c in dict.fromkeys([p.task_column, p.split_column, p.label_column, p.score_column,
                                          p.pred_column, *p.group_columns])
                if c is not None and c in frame.columns and c not in keys.columns]
        table = pd.concat([keys, frame[used]], axis=1)
        return StageOutput(table=table, value=Predictions(frame, keys["case_id"].to_numpy()))

    def _predictions(self) -> pd.DataFrame:
        p, ctx = self.params, self.ctx
        paths: list[Path] = []
        if p.predictions:
            paths.append(ctx.resolve_path(p.predictions))
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

    def judgments(self, _: Calls[None]) -> StageOutput[Predictions]:
        """The probe (``params.probe``): embed the cases' text windows, train a probe per task, score every text.

        No judgments table: the predictions are handed on (``self.stages.judgments``)."""
        p, ctx, cases = self.params, self.ctx, self.stages.cases
        if isinstance(cases, Predictions):  # no probe: the predictions table cases() read is handed on
            return StageOutput(table=None, value=cases)
        assert p.probe is not None  # cases() reads the spec's cases only for a probe
        from .probes import probe_cases, seeded_sample, split_windows

        if self.dry:  # count the embeddings: every distinct window of the (sampled) texts
            if p.probe.sample is not None and p.probe.sample < len(cases):
                cases = seeded_sample(cases, p.probe.sample, ctx.spec.seed)
            windows = {w for c in cases
                       for w in split_windows(c.text, p.probe.window_words, p.probe.window_stride, p.probe.max_windows)}
            ctx.runner.embed(ctx.model("encoder"), sorted(windows))
            return StageOutput(table=None, value=Predictions(pd.DataFrame(), np.array([]), n_texts=len(cases)))
        probe = probe_cases(cases, p.probe, runner=ctx.runner, encoder=ctx.model("encoder"), seed=ctx.spec.seed)
        for name, table in probe.tables().items():
            ctx.write_table(name, table)
        frame = probe.predictions
        return StageOutput(table=None, value=Predictions(frame, frame["case_id"].astype(str).to_numpy(), probe))

    def paired(self, pred: Predictions) -> StageOutput[GapAudit]:
        """Thresholds on the validation rows, the gap table on the test rows (kept as the paired table)."""
        p = self.params
        if p.probe is not None:
            kw: dict[str, Any] = {"task_column": "task", "label_column": "label", "score_column": "score",
                                  "pred_column": None, "split_column": "split",
                                  "group_columns": pred.probe.group_fields, "source": "probe predictions"}
        else:
            kw = {"task_column": p.task_column, "label_column": p.label_column, "score_column": p.score_column,
                  "pred_column": p.pred_column, "split_column": p.split_column, "group_columns": p.group_columns}
        res = audit_predictions(
            pred.frame, valid_split=p.valid_split, test_split=p.test_split, threshold=p.threshold,
            fallback_threshold=p.fallback_threshold, exclude_groups=p.exclude_groups, n_resamples=p.n_resamples,
            seed=self.ctx.spec.seed, confidence=p.confidence, correction=p.correction, alpha=p.alpha,
            n_permutations=p.n_permutations, reference_group=p.reference_group, comparison=p.comparison,
            # not set in the spec: enough relabellings that the run-level Holm can reach the verdicts' alpha
            reach_alpha=None if "n_permutations" in p.model_fields_set else self.ctx.spec.verdicts.alpha, **kw)
        split = kw["split_column"]
        test = (pred.frame[split].astype(str).str.strip() == p.test_split).to_numpy() if split else \
            np.ones(len(pred.frame), dtype=bool)
        return StageOutput(table=res.test.assign(case_id=pred.case_ids[test]), value=res)

    def results(self, res: GapAudit) -> StageOutput[dict[str, object]]:
        p, ctx, probe = self.params, self.ctx, self.stages.judgments.probe
        results = res.results()
        extra: dict[str, object] = dict(probe.info) if p.probe is not None else {}
        if p.probe is not None and p.probe.debias is not None:
            from .debias import debias_probe_tasks

            deb = debias_probe_tasks(probe, p.probe.debias, seed=ctx.spec.seed, n_resamples=p.n_resamples,
                                     confidence=p.confidence, correction=p.correction, alpha=p.alpha)
            for name, table in deb.tables().items():
                ctx.write_table(name, table)
            results = pd.concat([results, deb.results], ignore_index=True)
            extra["debias"] = deb.info
        ctx.write_table("gaps", res.gaps)
        ctx.write_table("summary", res.summary)
        ctx.write_table("thresholds", res.thresholds)
        if len(res.performance):
            ctx.write_table("performance", res.performance)
        return StageOutput(table=results, value=extra)

    def finish(self) -> dict[str, Any]:
        return {**self.stages.paired.info, **self.stages.results}

    def estimate_notes(self) -> list[str]:
        if self.params.probe is None:
            return ["classifier_gaps on a predictions table makes no model calls"]
        return [f"{self.stages.judgments.n_texts} texts; embeddings are cached per distinct text window"]


#: the relative cost of this audit's demo on the embedded model (measured): `clinaudit demo` starts the longest first
DEMO_COST = 0


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
            # the CIs' bootstrap resamples (645dadb raised them from 1,000 when p was a bootstrap p, at least
            # 2/(R + 1)); p is now a permutation p with n_permutations (9,999, raised when Holm over the run's
            # 63 effects needs more: docs/verdicts.md)
            "n_resamples": 9999,
        },
    }
