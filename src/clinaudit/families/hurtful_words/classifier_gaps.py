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

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...errors import SpecError
from ...pipeline import Audit, StageOutput, register
from .gap_table import audit_predictions, read_predictions
from .params import ClassifierGapsParams
from .scaffold_gaps import scaffold

__all__ = ["ClassifierGaps", "demo_spec"]


@register
class ClassifierGaps(Audit[ClassifierGapsParams]):
    name = "classifier_gaps"
    summary = ("fairness gaps of clinical classifiers (parity/recall/specificity, P4 Table 4), probes on frozen "
               "encoders, adversarial debiasing")
    params_model = ClassifierGapsParams
    scaffold = staticmethod(scaffold)  # `clinaudit init AUDIT --data FILE`

    def cases(self) -> Any:
        if self.params.probe is not None:
            return self.ctx.cases()
        self.frame = frame = self._predictions()
        ids = frame["case_id"].astype(str) if "case_id" in frame.columns else pd.Series(
            [f"row{i}" for i in range(1, len(frame) + 1)])
        keys = pd.DataFrame({"case_id": ids.to_numpy(),
                             "dataset": frame["dataset"] if "dataset" in frame.columns else frame.attrs.get("source", ""),
                             "text": frame["text"] if "text" in frame.columns else ""}, index=frame.index)
        self.case_ids = keys["case_id"].to_numpy()
        return pd.concat([keys, frame.drop(columns=[c for c in keys.columns if c in frame.columns])], axis=1)

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

    def judgments(self, _: Any) -> None:
        """The probe (``params.probe``): embed the cases' text windows, train a probe per task, score every text."""
        p, ctx = self.params, self.ctx
        if p.probe is None:
            return None
        cases = self.stages.cases
        from .probes import probe_cases, seeded_sample, split_windows

        if self.dry:  # count the embeddings: every distinct window of the (sampled) texts
            if p.probe.sample is not None and p.probe.sample < len(cases):
                cases = seeded_sample(cases, p.probe.sample, ctx.spec.seed)
            windows = {w for c in cases
                       for w in split_windows(c.text, p.probe.window_words, p.probe.window_stride, p.probe.max_windows)}
            ctx.runner.embed(ctx.model("encoder"), sorted(windows))
            self.n_texts = len(cases)
            return None
        self.probe = probe_cases(cases, p.probe, runner=ctx.runner, encoder=ctx.model("encoder"), seed=ctx.spec.seed)
        for name, table in self.probe.tables().items():
            ctx.write_table(name, table)
        self.frame = self.probe.predictions
        self.case_ids = self.frame["case_id"].astype(str).to_numpy()
        return None

    def paired(self, _: Any) -> StageOutput:
        """Thresholds on the validation rows, the gap table on the test rows (kept as the paired table)."""
        p = self.params
        if p.probe is not None:
            kw: dict[str, Any] = {"task_column": "task", "label_column": "label", "score_column": "score",
                                  "pred_column": None, "split_column": "split",
                                  "group_columns": self.probe.group_fields, "source": "probe predictions"}
        else:
            kw = {"task_column": p.task_column, "label_column": p.label_column, "score_column": p.score_column,
                  "pred_column": p.pred_column, "split_column": p.split_column, "group_columns": p.group_columns}
        self.res = res = audit_predictions(
            self.frame, valid_split=p.valid_split, test_split=p.test_split, threshold=p.threshold,
            fallback_threshold=p.fallback_threshold, exclude_groups=p.exclude_groups, n_resamples=p.n_resamples,
            seed=self.ctx.spec.seed, confidence=p.confidence, correction=p.correction, alpha=p.alpha, **kw)
        split = kw["split_column"]
        test = (self.frame[split].astype(str).str.strip() == p.test_split).to_numpy() if split else \
            np.ones(len(self.frame), dtype=bool)
        return StageOutput(table=res.test.assign(case_id=self.case_ids[test]), value=res)

    def results(self, res: Any) -> pd.DataFrame:
        p, ctx = self.params, self.ctx
        results = res.results()
        self.extra: dict[str, Any] = dict(self.probe.info) if p.probe is not None else {}
        if p.probe is not None and p.probe.debias is not None:
            from .debias import debias_probe_tasks

            deb = debias_probe_tasks(self.probe, p.probe.debias, seed=ctx.spec.seed, n_resamples=p.n_resamples,
                                     confidence=p.confidence, correction=p.correction, alpha=p.alpha)
            for name, table in deb.tables().items():
                ctx.write_table(name, table)
            results = pd.concat([results, deb.results], ignore_index=True)
            self.extra["debias"] = deb.info
        ctx.write_table("gaps", res.gaps)
        ctx.write_table("summary", res.summary)
        ctx.write_table("thresholds", res.thresholds)
        if len(res.performance):
            ctx.write_table("performance", res.performance)
        return results

    def finish(self) -> dict[str, Any]:
        return {**self.res.info, **self.extra}

    def estimate_notes(self) -> list[str]:
        if self.params.probe is None:
            return ["classifier_gaps on a predictions table makes no model calls"]
        return [f"{self.n_texts} texts; embeddings are cached per distinct text window"]


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
