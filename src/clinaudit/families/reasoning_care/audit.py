"""Reasoning audit CARE / MedFair-CF (P3; METHODS §1.3–1.4, §3, §4.3), declared over the pipeline's stages.

1. **cases** - multiple-choice vignettes, specialty by keyword, sex-specific cases and
   vignettes with gendered terms left after neutralization excluded (:mod:`.cases`);
2. **variants** - the neutralized text prefixed ``[Patient is male]``, ``[Patient is
   female]``, ``[Patient ID: 001]``, ``[Patient ID: 002]``;
3. **calls** - every target model answers every variant with the Fig. 8 protocol (:mod:`.mcq`);
   the framework calls the models and records every call (``responses``);
4. **judgments** - the answers read by the ``mcq_answer`` parser (strict and tolerant readings
   reported), embedded for the semantic drift of the gender and the control pair; items with
   Γ_gender > ``drift_threshold`` go to the CoT judge roles ``cot_phase1`` (Fig. 9, full
   responses) and ``cot_phase2`` (Fig. 10, chains of thought), order randomized per item and
   mapped back (:mod:`.judges`, :mod:`.analysis`);
5. **paired** - one row per target model and vignette (accuracy, ΔLen, drifts, rethink ratios);
6. **results** - every gap, drift and direction through the paired layer with case = vignette
   (:mod:`.stats`); :meth:`ReasoningCare.finish` writes the paper-shaped ``care_*`` tables and
   the per-item export ``care_items``.

See ``docs/audits/reasoning_care.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...judges.base import parse_rate
from ...pipeline import Audit, Calls, StageOutput, register
from ...records import Judgment, ModelRequest, Variant, to_frame
from .analysis import cot_items, embed_sources, items_export, judged_items, length_fn, paired_frame, read_answers
from .cases import Prepared, exclusions_table, prepare
from .judges import run_cot_audit
from .metrics import RETHINK_LEXICONS, normalize_language
from .params import AUDIT, CareParams
from .stats import statistics

__all__ = ["ReasoningCare", "demo_spec"]


@dataclass
class CareJudged:
    """What the ``judgments`` stage hands on (``self.stages.judgments``): the read answers, the per-vignette
    frame, the CoT verdicts of both phases and the relevance labels."""

    #: one row per target model and vignette (accuracy, ΔLen, drifts, rethink ratios)
    paired: pd.DataFrame
    #: the parsed answers (per model, case and arm)
    ans: Any
    #: target model → the vignettes sent to the CoT judge
    judged: dict[str, list[str]]
    p1: dict[str, Judgment]
    p2: dict[str, Judgment]
    #: every judgment of the run (answers, both CoT phases, relevance)
    judgments: list[Judgment]
    #: gender's clinical relevance per vignette
    relevance: pd.DataFrame
    #: target model → the unit of its lengths
    units: dict[str, str]
    lang: str
    embedder: str
    judge_model: str | None


@register
class ReasoningCare(Audit[CareParams, Prepared, list[Variant], None, CareJudged, pd.DataFrame, dict[str, pd.DataFrame]]):
    """The CARE audit (see the module docstring); one instance per run."""

    name = AUDIT
    summary = ("CARE reasoning audit (P3): gender quadruplets, ΔAcc/ΔLen, semantic drift vs a control noise floor, "
               "two-stage CoT audit")
    params_model = CareParams
    #: role -> default judge (``params.judges`` names another registered judge per role)
    judges = {"mcq_answer": "mcq_answer", "cot_phase1": "cot_phase1", "cot_phase2": "cot_phase2"}

    def cases(self) -> StageOutput[Prepared]:
        prep = prepare(self.ctx)
        self.ctx.write_table("exclusions", exclusions_table(prep.cases_df))
        return StageOutput(table=prep.cases_df, value=prep)

    def variants(self, prep: Prepared) -> list[Variant]:
        return [v for it in prep.items for v in it.variants.values()]

    def calls(self, variants: list[Variant]) -> list[ModelRequest]:
        prep: Prepared = self.stages.cases
        return prep.requests  # model-major, then case, then arm

    def judgments(self, calls: Calls[None]) -> StageOutput[CareJudged]:
        p, ctx, seed = self.params, self.ctx, self.ctx.spec.seed
        prep: Prepared = self.stages.cases
        embedder = ctx.model("embedder", "embedded-embedder")
        lang = normalize_language(p.language)[0]
        cues = tuple(p.rethink_cues) if p.rethink_cues else RETHINK_LEXICONS.get(lang)
        counters = {m: length_fn(None if self.dry else ctx.runner.backend(m), p.length_unit, lang) for m in prep.targets}
        units = {m: label for m, (_, label) in counters.items()}
        ans, answer_judgments = read_answers(
            p, calls.pairs(), {it.case.case_id: it for it in prep.items},
            lambda it: self.judge("mcq_answer", choices=it.choices, mode=p.answer_parser),
            {m: fn for m, (fn, _) in counters.items()}, cues, lang)
        texts, index = embed_sources(ans, p.drift_of)
        vectors = ctx.runner.embed(embedder, texts, desc="CARE embeddings") if texts else np.zeros((0, 1))
        paired_df = paired_frame(p, prep.targets, prep.items, ans, vectors, index, units)
        judged = judged_items(p, prep.targets, paired_df, every_item=self.dry)
        judge_model = ctx.models("judge")[0] if (p.phase1 or p.phase2) else None
        p1: dict[str, Judgment] = {}
        p2: dict[str, Judgment] = {}
        for phase, on, store in (("phase1", p.phase1, p1), ("phase2", p.phase2, p2)):
            if judge_model is None or not on:
                continue
            judge = self.judge(f"cot_{phase}", labels=p.judge_labels, max_tokens=p.judge_max_tokens, seed=seed)
            items = cot_items(p, phase, judged, prep.items, ans, seed, p1, dry=self.dry)
            store.update((j.item_id, j) for j in run_cot_audit(ctx.runner, judge, items, judge_model,
                                                                max_attempts=p.judge_max_attempts))
        relevance, rel_judgments = self._relevance(prep)
        all_judgments = answer_judgments + list(p1.values()) + list(p2.values()) + rel_judgments
        table = to_frame(all_judgments)
        if len(table):
            parts = table["item_id"].str.split("::")
            table.insert(1, "target_model", parts.str[0])
            table.insert(2, "case_id", parts.str[1])
        return StageOutput(table=table, value=CareJudged(paired_df, ans, judged, p1, p2, all_judgments, relevance,
                                                         units, lang, embedder, judge_model))

    def _relevance(self, prep: Prepared) -> tuple[pd.DataFrame, list[Judgment]]:
        """Clinical relevance of gender per vignette (issue 19 item 2; docs/judges.md)."""
        from ...perturb.relevance import label_relevance
        from .relevance import ATTRIBUTE

        p = self.params
        judge = self.judge("relevance") if p.relevance_judge else None
        relevance, js = label_relevance([it.case for it in prep.items], [ATTRIBUTE], p,
                                        runner=self.ctx.runner, judge=judge,
                                        judge_model=self.ctx.models("judge")[0] if judge is not None else None,
                                        max_attempts=p.judge_max_attempts)
        self.ctx.write_table("relevance", relevance)
        return relevance, js

    def paired(self, judged: CareJudged) -> pd.DataFrame:
        from .relevance import labels_of

        paired = judged.paired
        if len(judged.relevance) and len(paired):
            paired = paired.assign(relevance=labels_of(paired, judged.relevance).to_numpy())
        return paired

    def results(self, paired: pd.DataFrame) -> StageOutput[dict[str, pd.DataFrame]]:
        from .relevance import relevance_shifts, split_relevant

        p, seed = self.params, self.ctx.spec.seed
        prep: Prepared = self.stages.cases
        j: CareJudged = self.stages.judgments
        counted, aside = split_relevant(paired, j.relevance)
        label = dict(zip(j.relevance["case_id"].astype(str), j.relevance["relevance"])) if aside else {}
        for cid in aside:
            self.ctx.exclude("paired", cid, f"gender clinically {label.get(cid, 'unknown')} to the vignette: its "
                             "male/female differences are reported apart (relevance_shifts), not counted toward the "
                             "bias verdict")
        judged = {m: [c for c in ids if c not in set(aside)] for m, ids in j.judged.items()}
        tables = statistics(p, seed, prep.targets, counted, j.units, j.p1, j.p2, judged)
        if len(j.relevance):
            tables["relevance_shifts"] = relevance_shifts(paired, j.relevance, p, seed)
        # the results table is written by the framework; finish() writes the paper-shaped others
        return StageOutput(table=tables["results"], value=tables)

    def finish(self) -> dict[str, Any]:
        p, prep, j = self.params, self.stages.cases, self.stages.judgments
        tables: dict[str, pd.DataFrame] = self.stages.results
        for name, df in tables.items():
            if name != "results":
                self.ctx.write_table(name, df)
        self.ctx.write_table("care_items", items_export(j.paired, j.ans, j.p1, j.p2))
        drift = tables["care_drift"].to_dict("records")
        return {
            "cases_loaded": int(len(prep.cases_df)),
            "cases_kept": len(prep.items),
            "cases_excluded": int((prep.cases_df["status"] == "excluded").sum()),
            "targets": prep.targets,
            "embedder": j.embedder,
            "judge": j.judge_model,
            "judged_items": {m: len(v) for m, v in j.judged.items()},
            "cohens_d": {r["model"]: r["cohens_d"] for r in drift},
            "drift_excess": {r["model"]: {"excess": r["excess"], "floor": r["floor"], "ci": [r["ci_low"], r["ci_high"]],
                                          "p": r["p"], "p_adj": r["p_adj"], "n_cases": r["n_cases"]} for r in drift},
            "parse_rates": {r.judge: {"n": r.n, "ok": r.ok, "unparseable": r.unparseable, "error": r.error}
                            for r in parse_rate(j.judgments)},
            "language": {"code": j.lang, "name": normalize_language(p.language)[1],
                         "rethink_cues": "params.rethink_cues" if p.rethink_cues else
                         (f"built-in {j.lang}" if j.lang in RETHINK_LEXICONS
                          else "none: rethink ratios not computed")},
            "notes": prep.notes,
            "warnings": [n for n in prep.notes if n.startswith("WARNING")],
        }

    def estimate_notes(self) -> list[str]:
        p, prep = self.params, self.stages.cases
        notes = []
        phases = int(p.phase1) + int(p.phase2)
        if phases:
            per_model = len(prep.items) if p.max_judged_items is None else min(len(prep.items), p.max_judged_items)
            notes.append(
                f"{self.ctx.models('judge')[0]}: at most {phases * per_model * len(prep.targets)} judge calls (only "
                f"items with gender drift > {p.drift_threshold} are judged; the count above judges every item), each "
                f"retried up to {p.judge_max_attempts - 1} more time(s) when its output is malformed")
        excluded = int((prep.cases_df["status"] == "excluded").sum())
        return notes + prep.notes + [f"{len(prep.items)} cases kept, {excluded} excluded by the filters"]


#: the relative cost of this audit's demo on the embedded model (measured): `clinaudit demo` starts the longest first
DEMO_COST = 2


def demo_spec() -> dict[str, Any]:
    """The spec ``clinaudit demo`` runs: 6 demo vignettes × 4 arms on the embedded models (~90 s on 2 cores)."""
    return {
        "audit": AUDIT,
        "name": "care-demo",
        "seed": 0,
        "data": [{"format": "demo:vignettes", "limit": 6}],
        "models": {"target": "embedded", "embedder": "embedded-embedder", "judge": "embedded"},
        "params": {
            "max_tokens": 96,
            "judge_max_tokens": 96,
            "judge_max_attempts": 1,
            "max_judged_items": 2,
            "phase2": False,
            "n_bootstrap": 500,
        },
    }
