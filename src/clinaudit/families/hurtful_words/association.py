"""Language-model association audit (P4 §4.3, Algorithm 1, Table 3; METHODS §1.7, §4.4), declared over the stages.

``cases`` one per sentence frame (template × attribute, the unit of resampling) →
``variants`` one sentence per frame and target word (:mod:`.sentences`) →
``judgments`` one prior-adjusted log-probability score per sentence and model, scored
through ``ctx.runner.loglik`` / ``masked_logprobs`` (:mod:`.scoring`; the framework's call
log records every call) → ``paired`` the scores keyed by frame → ``results`` per-category
means per group and the chosen tests (:mod:`.association_stats`), written as ``tests`` and
``summary`` shaped like P4 Table 3.

With ``params.scores`` no model is called: per-sentence scores that already exist (a tidy
table, or the TSV of HurtfulWords' scoring script; :mod:`.existing_scores`) are the cases'
scores. Groups: words are paired across groups by their index in the lists (man↔woman,
he↔she, ...); the first group is the reference every other group is compared against.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...models.options import options_model_for
from ...pipeline import Audit, Calls, StageOutput, register
from ...records import Variant
from .association_stats import add_pairing_columns, tests_table
from .params import AssociationParams
from .scoring import analyze_scores, score_sentences_causal, score_sentences_masked, scoring_method
from .sentences import build_sentences, load_targets_file, select_groups

__all__ = ["Association", "demo_spec"]



@dataclass
class Frames:
    """What the ``cases`` stage hands on (``self.stages.cases``): the groups and either the filled sentences
    (templates) or the existing scores (``params.scores``)."""

    groups: list[str]
    # existing scores (params.scores)
    scores: pd.DataFrame | None = None
    excluded: pd.DataFrame | None = None
    methods: dict[str, str] = field(default_factory=dict)
    # templates
    sentences: list[Any] = field(default_factory=list)
    table: pd.DataFrame | None = None
    skipped: list[Any] = field(default_factory=list)
    frame_ids: Any = None


@dataclass
class Scored:
    """What the ``judgments`` stage hands on: every sentence's score and each model's scoring method."""

    scores: pd.DataFrame | None
    methods: dict[str, str]
    #: dry run: a masked LM's calls were counted without loading it
    masked_counted: bool = False


@register
class Association(Audit[AssociationParams, Frames, "list[str] | None", None, Scored, pd.DataFrame, pd.DataFrame]):
    name = "association"
    summary = ("LM association (P4 Table 3): prior-adjusted log-probability bias scores per category and group "
               "(masked LMs as published, causal LMs by sentence likelihood, or existing scores), a sign-flip "
               "test over template frames (the default, the frame is the unit) beside P4's sentence-level "
               "Wilcoxon signed-rank, or the published unpaired rank-sum / KS / t tests")
    params_model = AssociationParams

    def cases(self) -> StageOutput[Frames]:
        p, ctx = self.params, self.ctx
        if p.scores is not None:  # scores that already exist: their frames are the cases
            from .existing_scores import load_scores

            scores, excluded, groups = load_scores(
                [ctx.resolve_path(f.path) for f in p.scores], p.scores_format, [f.model for f in p.scores],
                tests=p.tests, categories=p.categories, groups=p.groups)
            ctx.write_table("exclusions", excluded)
            methods = {str(m): f"existing scores ({p.scores_format})" for m in pd.unique(scores["model"])}
            frames = add_pairing_columns(scores).drop_duplicates("frame")
            text = frames["template"] if "template" in frames.columns else ""
            cases = pd.DataFrame({"case_id": frames["frame"], "dataset": f"scores ({p.scores_format})",
                                  "text": text}).reset_index(drop=True)
            return StageOutput(table=cases, value=Frames(groups, scores=scores, excluded=excluded,
                                                         methods=methods))
        targets = select_groups(load_targets_file(ctx.resolve_path(p.targets), p.target_set), p.groups)
        sentences, table, skipped = build_sentences(
            ctx.resolve_path(p.templates), ctx.resolve_path(p.attributes), targets,  # type: ignore[arg-type]
            categories=p.categories, max_templates_per_category=p.max_templates_per_category)
        ctx.write_table("template_report", pd.DataFrame(
            [{"line": s.line, "text": s.text, "reason": s.reason} for s in skipped],
            columns=["line", "text", "reason"]))
        frame_ids = add_pairing_columns(table)["frame"].to_numpy()
        first = table.assign(case_id=frame_ids).drop_duplicates("case_id")
        cases = pd.DataFrame({"case_id": first["case_id"], "dataset": "templates", "text": first["template"],
                              **{c: first[c] for c in ("template_id", "category", "attribute", "subgroup")}})
        return StageOutput(table=cases, value=Frames(list(targets), sentences=sentences, table=table,
                                                     skipped=skipped, frame_ids=frame_ids))

    def variants(self, frames: Frames) -> StageOutput[list[str] | None] | None:
        if self.params.scores is not None:
            return None
        t = frames.table
        assert t is not None  # the templates path
        self.ctx.write_table("sentences", t)
        variant_ids = [Variant.make_id(c, "target", f"{g}:{i}")
                       for c, g, i in zip(frames.frame_ids, t["group"], t["target_index"])]
        table = pd.DataFrame({"variant_id": variant_ids, "case_id": frames.frame_ids, "family": "target",
                              "name": t["group"], "text": t["sentence"]})
        return StageOutput(table=pd.concat([table, t.drop(columns=["sentence"])], axis=1), value=variant_ids)

    def judgments(self, _: Calls[None]) -> StageOutput[Scored]:
        """Score every sentence with every ``models.target`` model: one judgment (the score) per sentence."""
        p, ctx, frames = self.params, self.ctx, self.stages.cases
        if p.scores is not None:
            return StageOutput(table=None, value=Scored(frames.scores, dict(frames.methods)))
        variant_ids = self.stages.variants
        models = ctx.models("target")
        for m in models if p.batch_size is not None else []:
            options = options_model_for(m.partition(":")[0])  # a backend whose options take a batch size
            if options is not None and "batch_size" in options.model_fields:
                ctx.runner.backend_options[m] = {"batch_size": p.batch_size, **ctx.runner.backend_options.get(m, {})}
        frames_, rows = [], []
        methods: dict[str, str] = {}
        masked_counted = False
        for m in models:
            if self.dry and self._count_masked(m, frames.sentences):
                masked_counted = True
                continue
            methods[m] = method = scoring_method(ctx.runner.backend(m), p.method)
            ctx.log.info("association: scoring %d sentences with %s (%s)", len(frames.sentences), m, method)
            keys: list[str] = []
            if method == "masked":
                df = score_sentences_masked(ctx.runner, m, frames.sentences, frames.table, p.mask_mode, keys=keys)
            else:
                df = score_sentences_causal(ctx.runner, m, frames.sentences, frames.table, p.placeholders,
                                            p.default_placeholder, keys=keys)
            frames_.append(df)
            rows.append(pd.DataFrame({
                "item_id": variant_ids, "judge": df["method"], "value": df["score"],
                "status": np.where(np.isfinite(df["score"].to_numpy(float)), "ok", "error"), "raw": "",
                "attempts": 1, "request_key": keys, "case_id": frames.frame_ids, "variant_id": variant_ids,
                "judge_model": m}))
        scores = pd.concat(frames_, ignore_index=True) if frames_ else None
        return StageOutput(table=pd.concat(rows, ignore_index=True) if rows else None,
                           value=Scored(scores, methods, masked_counted))

    def _count_masked(self, model: str, sentences: list[Any]) -> bool:
        """Dry run: count a masked LM's calls (each sentence and its prior) without loading the model.

        The masked items depend on the model's tokenizer, which means loading the model; the
        estimate counts one call per sentence and one per prior sentence instead.
        """
        p = self.params
        if not (p.method == "masked" or (p.method == "auto" and model.partition(":")[0] == "hf-mlm")):
            return False
        for s in sentences:
            for part in ("target", "prior"):
                self.ctx.runner.count.add(model, f"masked/{p.mask_mode}/{part}/{s.sentence}", hit=False, retry=False,
                                          words=len(s.sentence.split()))
        return True

    def paired(self, scored: Scored) -> StageOutput[pd.DataFrame]:
        """The per-sentence scores keyed by their frame (``case_id``; frames are resampled)."""
        self.ctx.write_table("scores", scored.scores)
        keyed = add_pairing_columns(scored.scores)
        return StageOutput(table=keyed.assign(case_id=keyed["frame"]), value=scored.scores)

    def results(self, scores: pd.DataFrame) -> StageOutput[pd.DataFrame]:
        p, ctx, groups = self.params, self.ctx, self.stages.cases.groups
        prevalence = prevalence_rows = None
        if p.prevalence is not None:
            from .prevalence import attributes_by_category, category_prevalence, load_notes, prevalence_results

            src = p.prevalence
            assert p.attributes is not None  # AssociationParams' validator: prevalence needs attributes
            notes = load_notes(ctx.resolve_path(src.notes), src.text_column, src.group_column,
                               src.patient_column)
            attrs = attributes_by_category(ctx.resolve_path(p.attributes),
                                           set(scores["category"]))
            prevalence = category_prevalence(notes, attrs, patient_col="patient" if src.patient_column else None,
                                             groups=list(groups))
            ctx.write_table("prevalence", prevalence)
            prevalence_rows = prevalence_results(prevalence, audit="association")
        tests, means, summary_table = analyze_scores(
            scores, groups, tests=p.tests, correction=p.correction, alpha=p.alpha, n_bootstrap=p.n_bootstrap,
            seed=ctx.spec.seed, prevalence=prevalence)
        ctx.write_table("tests", tests_table(tests))
        ctx.write_table("summary", summary_table)
        return StageOutput(table=pd.concat([tests, means] + ([prevalence_rows] if prevalence_rows is not None else []),
                                           ignore_index=True), value=summary_table)

    def finish(self) -> dict[str, Any]:
        p, summary, frames, scored = self.params, self.stages.results, self.stages.cases, self.stages.judgments
        scores, methods = scored.scores, scored.methods
        assert scores is not None, "finish() runs after the judgments stage, which always hands scores on"
        out: dict[str, Any] = {
            "sentences": int(len(scores) / max(1, len(methods))) if p.scores is not None
            else len(frames.sentences),
            "categories": sorted(scores["category"].astype(str).unique().tolist()),
            "groups": frames.groups,
            "models": methods,
            "tests": list(p.tests),
            "significant_categories": {m: int(summary.loc[summary["model"] == m, "significant_adj"].sum())
                                       for m in methods},
        }
        if p.scores is not None:
            out["excluded_sentences"] = int(len(frames.excluded)) if frames.excluded is not None else 0
            excluded = frames.excluded  # those of the categories analysed: the share of the rows read that was left out
            if p.categories is not None and excluded is not None and len(excluded):
                excluded = excluded[excluded["category"].astype(str).isin([str(c) for c in p.categories])]
            out["score_rows_read"] = int(len(scores)) + int(len(excluded) if excluded is not None else 0)
            out["score_rows_excluded"] = int(len(excluded) if excluded is not None else 0)
            out["scores_format"] = p.scores_format
        else:
            out["mask_mode"] = p.mask_mode
            out["template_lines_reported"] = len(frames.skipped)  # skipped or repaired on load
        return out

    def estimate_notes(self) -> list[str]:
        p, frames = self.params, self.stages.cases
        if p.scores is not None:
            return [f"{len(p.scores)} existing score file(s): no model calls"]
        assert frames.table is not None  # the templates path (no params.scores) always builds the sentence table
        notes = [f"{len(frames.sentences)} filled sentences over {frames.table['category'].nunique()} categories, "
                 f"{len(frames.groups)} groups"]
        if frames.skipped:
            notes.append(f"{len(frames.skipped)} template line(s) skipped or repaired (see tables/template_report.csv)")
        if self.stages.judgments is not None and self.stages.judgments.masked_counted:
            notes.append("masked LMs: one call per sentence and per prior sentence, counted without loading the "
                         "model (so none is counted as cached)")
        return notes


#: the relative cost of this audit's demo on the embedded model (measured): `clinaudit demo` starts the longest first
DEMO_COST = 2


def demo_spec() -> dict[str, Any]:
    """The spec ``clinaudit demo`` runs: the project's demo templates with ``embedded`` (causal scoring)."""
    from ...data import demo_path

    return {
        "audit": "association",
        "name": "association-demo",
        "models": {"target": "embedded"},
        "params": {
            "templates": str(demo_path("association_templates.txt")),
            "attributes": str(demo_path("association_attributes.csv")),
            "targets": str(demo_path("association_targets.yaml")),
            "placeholders": {"PAINMED": "a medication", "PSYCH": "a condition", "CARDIO": "a condition"},
            "batch_size": 64,
            "n_bootstrap": 200,
        },
    }
