"""P4's whole system in one audit: ``hurtfulwords_pipeline`` (P4 Fig. 2; Tables 3–5 for two encoders).

``cases`` MIMIC-III tables (the user's copy, or synthetic ones written into the run directory
by :func:`.synth_mimic.synth_mimic`) → the three task tables and the 57 tasks
(:func:`.mimic_tasks.build_mimic_tasks`), one case per stay and cohort →
``judgments`` the two encoders: the base masked LM (a local folder, or a tiny BERT built on
the corpus) is pretrained further on the notes' sentence-packed sequences
(:func:`.mimic_corpus.pretraining_sequences`, :func:`.pretrain.pretrain`) once plainly
(**baseline**) and once with the adversarial head on ``debias.attribute`` (**debiased**);
then for each encoder the association scores of the templates (``hf-mlm:``, through the
runner) and the frozen-encoder task heads for all 57 tasks (``hf-embed:``, through the
runner; :func:`.finetune.probe_tasks`) → ``paired`` the test rows of both encoders' predictions
→ ``results`` per encoder the association tests (Table 3), the gaps with label-stratified
bootstrap CIs and BH across tasks (Table 4), the Table-5 comparison, and how well a fresh
probe recovers the debiased attribute from each encoder's features.

Encoders live in ``RUN/encoders/<name>-<hash>/`` (``model/``, checkpoints, ``loss.csv``,
``loss.png``): the hash covers the corpus and the settings, so a re-run reuses a finished
encoder, resumes an interrupted one from its last checkpoint, and never mixes encoders of
different settings in the cache.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...pipeline import Audit, Calls, StageOutput, register
from ...records import stable_hash
from .gap_table import GapAudit
from .params import HurtfulWordsPipelineParams

__all__ = ["HurtfulWordsPipeline", "ENCODERS"]

ENCODERS = ("baseline", "debiased")


def _demo(name: str) -> Path:
    from ...data import demo_path

    return demo_path(name)


@dataclass
class Mimic:
    """What the ``cases`` stage hands on: the MIMIC-III folder (the user's or the synthetic one) and its tasks."""

    folder: Path
    tasks: Any


@dataclass
class Trained:
    """What the ``judgments`` stage hands on: both encoders, their association scores and task heads."""

    base: Path
    encoders: dict[str, Path]
    pretrain_info: dict[str, Any]
    #: P4 Table 3 per encoder and the association result rows
    table3: pd.DataFrame
    assoc_rows: pd.DataFrame
    #: encoder → the task heads' predictions
    predictions: dict[str, pd.DataFrame]
    #: how well a fresh probe recovers the debiased attribute (one row per encoder and cohort)
    recovery: list[dict[str, Any]]
    #: seconds per step (encoders, association, heads)
    seconds: dict[str, float]


@register
class HurtfulWordsPipeline(Audit[HurtfulWordsPipelineParams, Mimic, None, None, "Trained | None", "dict[str, GapAudit] | None",
                                 "pd.DataFrame | None"]):
    name = "hurtfulwords_pipeline"
    summary = ("P4 end to end: MIMIC-III (or synthetic) tables -> 57 tasks -> baseline and adversarially debiased "
               "encoders by continued MLM pretraining -> association (Table 3), task-head gaps (Table 4), "
               "baseline vs debiased (Table 5)")
    params_model = HurtfulWordsPipelineParams

    # ------------------------------------------------------------------ cases: tables -> tasks
    def cases(self) -> StageOutput[Mimic]:
        from .mimic_tasks import TaskOptions, build_mimic_tasks

        p, ctx = self.params, self.ctx
        if p.synthetic is not None:
            from .synth_mimic import synth_mimic

            folder = ctx.rundir.path / "data" / "mimic"
            if not (folder / "synth_mimic.json").is_file():
                synth_mimic(folder, n_patients=p.synthetic.patients, seed=p.synthetic.seed)
        else:
            folder = ctx.resolve_path(p.mimic)  # type: ignore[assignment]
        w = p.windows
        tasks = build_mimic_tasks(folder, test_subjects=ctx.resolve_path(p.test_subjects),
                                  options=TaskOptions(window=w.window, stride=w.stride, max_windows=w.max_windows,
                                                      max_sequences=w.max_sequences, seed=ctx.spec.seed))
        ctx.write_table("task_index", tasks.tasks)
        ctx.write_table("cohort_exclusions", tasks.exclusions)
        rows = []
        for cohort, df in tasks.tables.items():
            rows.append(pd.DataFrame({"case_id": cohort + ":" + df["example_id"].astype(str), "dataset": cohort,
                                      "text": df["text"], "split": df["split"],
                                      **{g: df[g] for g in p.group_columns if g in df.columns}}))
        return StageOutput(table=pd.concat(rows, ignore_index=True), value=Mimic(folder, tasks))

    # ------------------------------------------------------------------ judgments: encoders, scores, heads
    def judgments(self, _: Calls[None]) -> StageOutput[Trained | None] | None:
        if self.dry:
            return None
        from .pretrain import cpu_threads

        mimic: Mimic = self.stages.cases
        seconds: dict[str, float] = {}

        def timed(step: Callable[..., Any], *args: Any) -> Any:
            t0 = time.perf_counter()
            out = step(*args)
            seconds[step.__name__.strip("_")] = round(time.perf_counter() - t0, 2)
            return out

        with cpu_threads(1):
            base, encoders, pretrain_info = timed(self._encoders, mimic)
            table3, assoc_rows = timed(self._association, encoders)
            predictions, recovery = timed(self._heads, mimic, encoders)
        # no judgments table: the encoders and their outputs are handed on
        return StageOutput(table=None, value=Trained(base, encoders, pretrain_info, table3, assoc_rows, predictions,
                                                     recovery, seconds))

    def _encoders(self, mimic: Mimic) -> tuple[Path, dict[str, Path], dict[str, Any]]:
        from .mimic_corpus import pretraining_sequences
        from .pretrain import build_tiny_mlm, has_checkpoint, pretrain

        p, ctx = self.params, self.ctx
        corpus = pretraining_sequences(mimic.folder, splits=mimic.tasks.splits)
        corpus = corpus[corpus["split"].isin(p.pretrain_splits)].reset_index(drop=True)
        texts = corpus["text"].astype(str).tolist()
        attr = corpus[p.debias.attribute].tolist()
        ctx.write_table("pretrain_corpus_summary", corpus.groupby(["split", p.debias.attribute], dropna=False)
                        .size().rename("sequences").reset_index())
        root = ctx.rundir.path / "encoders"
        data_key = stable_hash("corpus", *texts, length=12)
        if p.base_model == "tiny":
            base = root / f"base-{stable_hash(data_key, p.tiny.model_dump_json(), ctx.spec.seed, length=10)}"
            if not (base / "config.json").is_file():
                build_tiny_mlm(texts, base, seed=ctx.spec.seed, **p.tiny.model_dump())
        else:
            base = ctx.resolve_path(p.base_model)
        encoders: dict[str, Path] = {}
        pretrain_info: dict[str, Any] = {}
        curves = []
        for name in ENCODERS:
            cfg = p.pretrain.model_copy(update={"adversary": p.debias if name == "debiased" else None,
                                                "seed": ctx.spec.seed})
            key = stable_hash(name, data_key, str(base), cfg.model_dump_json(by_alias=True), length=10)
            out = root / f"{name}-{key}"
            if (out / "model" / "config.json").is_file() and (out / "pretrain.json").is_file():
                info = json.loads((out / "pretrain.json").read_text())["info"]
                ctx.log.info("hurtfulwords_pipeline: %s encoder already trained (%s)", name, out)
            else:
                ctx.log.info("hurtfulwords_pipeline: pretraining the %s encoder on %d sequences", name, len(texts))
                # an interrupted pretraining continues from its last checkpoint; a first one starts afresh
                info = pretrain(texts, base, out, cfg, attributes=attr if name == "debiased" else None,
                                resume=has_checkpoint(out / "checkpoints")).info
            encoders[name] = out / "model"
            pretrain_info[name] = info
            curves.append(pd.read_csv(out / "loss.csv").assign(encoder=name))
        ctx.write_table("pretrain_curves", pd.concat(curves, ignore_index=True))
        return base, encoders, pretrain_info

    def _association(self, encoders: dict[str, Path]) -> tuple[pd.DataFrame, pd.DataFrame]:
        from .scoring import analyze_scores, score_sentences_masked
        from .sentences import build_sentences, load_targets_file, select_groups

        a, ctx = self.params.association, self.ctx
        templates = ctx.resolve_path(a.templates) if a.templates else _demo("association_templates.txt")
        attributes = ctx.resolve_path(a.attributes) if a.attributes else _demo("association_attributes.csv")
        targets_file = ctx.resolve_path(a.targets) if a.targets else _demo("association_targets.yaml")
        targets = select_groups(load_targets_file(targets_file, None), None)
        groups = list(targets)
        sentences, table, _ = build_sentences(templates, attributes, targets)
        frames, tests, means, summaries = [], [], [], []
        for name, path in encoders.items():
            scores = score_sentences_masked(ctx.runner, f"hf-mlm:{path}", sentences, table, a.mask_mode)
            scores["model"] = name
            t, m, s = analyze_scores(scores, groups, tests=a.tests, correction=a.correction,
                                     alpha=a.alpha, n_bootstrap=a.n_bootstrap, seed=ctx.spec.seed)
            frames.append(scores)
            tests.append(t.assign(model=name))
            means.append(m.assign(model=name))
            summaries.append(s.assign(model=name))
        ctx.write_table("association_scores", pd.concat(frames, ignore_index=True))
        return pd.concat(summaries, ignore_index=True), pd.concat(tests + means, ignore_index=True)

    def _heads(self, mimic: Mimic, encoders: dict[str, Path]) -> tuple[dict[str, pd.DataFrame], list[dict[str, Any]]]:
        from .finetune import paper_grid, probe_tasks

        p, ctx, tasks = self.params, self.ctx, mimic.tasks
        probe = dict(p.probe)
        predictions: dict[str, pd.DataFrame] = {}
        recovery: list[dict[str, Any]] = []
        cols = {c: tasks.task_columns(c) for c in tasks.tables}
        grids = []
        for name, path in encoders.items():
            if probe.get("hidden_sizes") == "paper":
                from transformers import AutoConfig

                width = 4 * int(AutoConfig.from_pretrained(path, local_files_only=True).hidden_size)
                probe = {**probe, "hidden_sizes": paper_grid(width)}
            res = probe_tasks(tasks.tables, cols, f"hf-embed:{path}", runner=ctx.runner,
                              group_columns=p.group_columns, probe=probe, seed=ctx.spec.seed)
            predictions[name] = res.predictions.assign(model=name)
            grids.append(res.grid.assign(model=name))
            recovery += _attribute_recovery(res.probes, p.debias.attribute, name, ctx.spec.seed)
        ctx.write_table("predictions", pd.concat(predictions.values(), ignore_index=True))
        ctx.write_table("probe_grid", pd.concat(grids, ignore_index=True))
        return predictions, recovery

    # ------------------------------------------------------------------ paired: the gap tables
    def paired(self, trained: Trained | None) -> StageOutput[dict[str, GapAudit] | None] | None:
        from .gap_table import audit_predictions

        if self.dry or trained is None:
            return None
        p = self.params
        gap_results: dict[str, GapAudit] = {}
        tests = []
        for name, frame in trained.predictions.items():
            res = audit_predictions(frame, task_column="task", label_column="label", score_column="score",
                                    pred_column=None, split_column="split", group_columns=list(p.group_columns),
                                    n_resamples=p.n_resamples, seed=self.ctx.spec.seed, confidence=p.confidence,
                                    correction=p.correction, alpha=p.alpha, source=f"{name} encoder predictions")
            gap_results[name] = res
            test = (frame["split"].astype(str) == "test").to_numpy()
            ids = frame["case_id"].astype(str).to_numpy()  # "<cohort>:<example_id>"
            tests.append(res.test.assign(case_id=ids[test], model=name))
        return StageOutput(table=pd.concat(tests, ignore_index=True), value=gap_results)

    # ------------------------------------------------------------------ results: Tables 3-5
    def results(self, gap_results: dict[str, GapAudit] | None) -> pd.DataFrame | None:
        from ...results import result_row
        from .debias import table5
        from .gap_table import table4

        if self.dry:
            return None
        ctx, trained = self.ctx, self.stages.judgments
        assert trained is not None and gap_results is not None, "a run (not a dry run) trains and tests the encoders"
        gaps, t4, perf, rows = [], [], [], [trained.assoc_rows]
        for name, res in gap_results.items():
            g = res.gaps.assign(model=name)
            gaps.append(g)
            t4.append(table4(res.gaps, alpha=self.params.alpha).assign(model=name))
            if len(res.performance):
                perf.append(res.performance.assign(model=name))
            rows.append(res.results().assign(model=name))
        gaps_all = pd.concat(gaps, ignore_index=True)
        ctx.write_table("table3", trained.table3)
        ctx.write_table("gaps", gaps_all)
        ctx.write_table("table4", pd.concat(t4, ignore_index=True))
        ctx.write_table("table5", table5(gaps_all))
        if perf:
            ctx.write_table("performance", pd.concat(perf, ignore_index=True))
        rec = pd.DataFrame(trained.recovery)
        ctx.write_table("attribute_recovery", rec)
        rows.append(pd.DataFrame([result_row(audit=self.name, metric="attribute_auc", value=r["auc"], n=r["n_test"],
                                             model=r["model"], attribute=r["attribute"], cohort=r["cohort"])
                                  for r in trained.recovery]))
        return pd.concat([r for r in rows if len(r)], ignore_index=True)

    def finish(self) -> dict[str, Any]:
        if self.dry:
            return {}
        trained = self.stages.judgments
        assert trained is not None, "a run (not a dry run) trains the encoders"
        tasks = self.stages.cases.tasks
        t5 = self.ctx.rundir.read_table("table5") if self.ctx.rundir.has_table("table5") else pd.DataFrame()
        return {"encoders": {k: str(v) for k, v in trained.encoders.items()}, "base_model": str(trained.base),
                "pretraining": trained.pretrain_info, "tasks": int(tasks.tasks.shape[0]),
                "stays": {k: len(v) for k, v in tasks.tables.items()},
                "debias_attribute": self.params.debias.attribute, "table5_rows": len(t5),
                "seconds": trained.seconds}

    def estimate_notes(self) -> list[str]:
        return ["hurtfulwords_pipeline trains two encoders and the task heads; the dry run counts no calls "
                "(the embeddings and masked scores depend on the encoders it would train)"]


def _attribute_recovery(probes: dict[str, Any], attribute: str, model: str, seed: int) -> list[dict[str, Any]]:
    """A fresh logistic probe on each cohort's stay-level features: how well is the attribute recovered (test AUC)?"""
    from .debias import attribute_recovery_auc

    out = []
    for cohort, res in probes.items():
        cases = res.cases
        if attribute not in cases.columns:
            continue
        split = cases["split"].to_numpy()
        tr, te = split == "train", split == "test"
        a = cases[attribute].tolist()
        auc = attribute_recovery_auc(res.features[tr], [a[i] for i in np.flatnonzero(tr)], res.features[te],
                                     [a[i] for i in np.flatnonzero(te)], seed=seed)
        out.append({"model": model, "cohort": cohort, "attribute": attribute, "auc": auc, "n_test": int(te.sum())})
    return out
