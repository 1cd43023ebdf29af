"""Note-generation audit (P1, *What If The Patient Were Different?*; METHODS §1.3–1.5, §3, §4.1).

A declaration over the shared stages (:mod:`clinaudit.pipeline`); each stage's table in
``RUN_DIR/tables/<name>.csv`` (docs/audits/note_generation.md)::

    cases      dialogs: de-identified, min-turn filter, residual-identifier check   (+ excluded, residual_identifiers)
    variants   stereotype-context augmentation (models.augmenter; additions-only gate; rewrite or insert mode)
               + appended demographic turn: baseline token + counterfactual values     (+ rejections)
    calls      note generation (models.target; MTS zero-shot summary / ACI one-shot SOAP)   → responses, notes
    judgments  incidence judge per note (models.judge; role ``incidence``), language-disparity judge on dialogs
               with ≥ 2 positive counterfactuals (role ``language_disparity``)
    paired     one row per dialog × counterfactual value × cell (case = dialog)
    results    BL%, rate(g), ΔBL (paired layer), maxΔBL, ΔCF (Cochran's Q), %dlg, %Δ, Maj.%, judge reliability
               (+ incidence, incidence_rates, incidence_shifts, language_disparity, judge_reliability, judge_agreement)
    finish     paper-shaped tables (CSV / Markdown / LaTeX in RUN_DIR/exports/)

Our readings (documented in ``docs/audits/note_generation.md``):

* a context is studied with its own attributes (P1 Table 9: race contexts with race,
  age contexts with age, gender contexts with gender, Mental Health with age and
  gender, Toxicity with all three); ``params.attributes`` restricts them;
* dialogs in which identifiers or gendered terms remain after de-identification are
  excluded by default (``params.keep_residual_identifiers``), each listed with the terms;
* every inference comes from :mod:`clinaudit.stats` (see :mod:`.analysis`);
* unparseable judge outputs and failed calls are missing values (never NO); they are
  counted (``n_missing``) and excluded from rates.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

import pandas as pd

from ...errors import SpecError
from ...judges.base import parse_rate
from ...judges.jury import JURY, Jury
from ...perturb.augment import augment_context
from ...pipeline import Audit, Calls, StageOutput, register
from ...records import Case, ModelRequest, Variant, to_frame
from .analysis import attribute_sets, disparity_metrics, incidence_metrics, results_table
from .augment import augment_mode
from .cases import prepare
from .judges import resolve_context
from .notes import (
    JUDGMENT_COLUMNS,
    NoteItem,
    counterfactual_items,
    judge_disparity,
    judge_incidence,
    judgment_rows,
    note_requests,
    notes_table,
    recheck_names,
)
from .params import AUDIT, NoteGenerationParams
from .scaffold import scaffold
from .tables import (
    DISPARITY_COLUMNS,
    INCIDENCE_COLUMNS,
    PAIRED_COLUMNS,
    RATE_COLUMNS,
    RELIABILITY_COLUMNS,
    REJECTION_COLUMNS,
    deid_summary,
    deid_table,
    human_labels_path,
    judge_reliability,
    or_empty,
    shifts_table,
    write_paper_tables,
    write_case_tables,
)

__all__ = ["NoteGeneration", "demo_spec"]

log = logging.getLogger("clinaudit.families.note_generation")

_UNKNOWN = "reliability unknown (no human labels)"


@register
class NoteGeneration(Audit[NoteGenerationParams]):
    """P1's note-generation audit, declared over the shared stages."""

    name = AUDIT
    summary = ("P1 note generation: stereotype contexts × demographic counterfactuals → incidence disparities "
               "(BL%, maxΔBL, ΔCF, %dlg) and language disparities (%Δ, Maj.%)")
    params_model = NoteGenerationParams
    scaffold = staticmethod(scaffold)  # `clinaudit init AUDIT --data FILE`
    judges = {"incidence": "incidence", "language_disparity": "language_disparity"}

    def cases(self) -> StageOutput:
        p, ctx = self.params, self.ctx
        self.seed = ctx.spec.seed
        self.targets = ctx.models("target")
        self.augmenter = ctx.model("augmenter", default=self.targets[0])
        self.judge_models = ctx.models("judge", default=[self.targets[0]])
        self.contexts = [resolve_context(c) for c in p.contexts]
        for cx in self.contexts:
            if not attribute_sets(cx, p):
                raise SpecError(f"field 'params.attributes': context {cx.name!r} is studied with "
                                f"{', '.join(cx.attributes)}, none of which is in {p.attributes}")
        self.prep = prepare(ctx, p)
        self.n_resid = write_case_tables(ctx, self.prep)
        return StageOutput(table=to_frame(self.prep.cases, columns=["case_id", "text", "dataset", "fields", "source",
                                                                    "source_row"]), value=self.prep.cases)

    def variants(self, cases: list[Case]) -> StageOutput:
        p = self.params
        self.augmented: list[Variant] = []
        self.rejections: list[Any] = []
        if cases:
            mode = augment_mode(p.augmentation, p.insert_max_sentences, dry=self.dry)
            self.augmented, self.rejections = augment_context(
                cases, self.contexts, p.sources, runner=self.ctx.runner, model=self.augmenter,
                max_attempts=p.augment_max_attempts, seed=self.seed, temperature=p.augment_temperature,
                max_tokens=p.augment_max_tokens, mode=mode)
            if p.deidentify:  # an augmentation may bring in a name: checked here and again on the final texts
                self.augmented = recheck_names(self.augmented, self.prep, "augmentation")
        self.counterfactuals, self.items = counterfactual_items(self.augmented, cases, p, self.targets, self.seed,
                                                                self.prep)
        if not self.dry:
            self.ctx.write_table("deidentification", deid_table(self.prep))
            rej = pd.DataFrame([r.to_row() for r in self.rejections], columns=REJECTION_COLUMNS)
            self.ctx.write_table("rejections", rej)
            if len(rej):
                log.warning("%d augmentation(s) failed the additions-only gate and were not used: %s", len(rej),
                            dict(Counter(rej["reason"])))
        table = to_frame(self.prep.deid_variants + self.augmented + self.counterfactuals,
                         columns=list(Variant.model_fields))
        return StageOutput(table=table, value=self.items)

    def calls(self, items: list[NoteItem]) -> list[ModelRequest]:
        return note_requests(items, self.params, self.prep.example, self.seed)

    def judgments(self, calls: Calls) -> pd.DataFrame:
        p, runner = self.params, self.ctx.runner
        notes = self.note_responses = calls.responses
        if not self.dry:
            self.ctx.write_table("notes", notes_table(self.items, notes))
        self.incidence_judge = self.judge("incidence", max_tokens=p.judge_max_tokens, seed=self.seed)
        # several judge models are a jury (clinaudit.judges.jury): its majority decisions drive the metrics
        primary = self.primary = JURY if getattr(self.incidence_judge, "is_jury", False) else self.judge_models[0]
        self.judged = judge_incidence(runner, self.incidence_judge, self.items, notes, self.judge_models,
                                      p.judge_max_attempts, dry=self.dry)
        self.disparity_judge = self.judge("language_disparity", max_tokens=p.disparity_max_tokens, seed=self.seed)
        self.disparity = judge_disparity(runner, self.disparity_judge, self.judged, self.items, notes, primary, p,
                                         self.seed, dry=self.dry) if p.language_disparity else []
        judgments = pd.DataFrame(judgment_rows(self.judged, self.disparity))
        rel_rows = self._relevance(primary)
        if judgments.empty and not rel_rows:
            return pd.DataFrame(columns=JUDGMENT_COLUMNS)
        if rel_rows:
            judgments = pd.concat([judgments, pd.DataFrame(rel_rows)], ignore_index=True)
        judgments["judge_model"] = [jm if jm else primary for jm in judgments["judge_model"]]
        if primary == JURY:  # jurors' rows and decision rows, keyed like the core's (pipeline.audit)
            judgments["jury"] = ["decision" if m == JURY else "member" for m in judgments["judge_model"]]
        return judgments

    def _relevance(self, primary: str) -> list[dict[str, Any]]:
        """Clinical relevance of each (dialog, counterfactual attribute) (issue 19 item 2; docs/judges.md)."""
        from ...perturb.relevance import label_relevance
        from .relevance import components

        p = self.params
        attrs = sorted({a for it in self.items for a in components(it.attribute)})
        self.relevance = pd.DataFrame()
        if not attrs:
            return []
        judge = self.judge("relevance") if p.relevance_judge else None
        jm = self.judge_models[0]
        self.relevance, js = label_relevance(self.prep.cases, attrs, p, runner=self.ctx.runner, judge=judge,
                                             judge_model=jm, max_attempts=p.judge_max_attempts)
        self.ctx.write_table("relevance", self.relevance)
        jury = judge if isinstance(judge, Jury) else None
        raters = [(JURY if jury is not None else jm, "decision", js)] + (
            [(m, "member", mjs) for m, mjs in jury.last_members.items()] if jury is not None and js else [])
        return [{**j.to_row(), "judge_model": m, "case_id": j.item_id.split("::")[0],
                 "attribute": j.item_id.split("::")[-1], **({"jury": role} if primary == JURY else {})}
                for m, role, rjs in raters for j in rjs]

    def paired(self, judgments: pd.DataFrame) -> pd.DataFrame:
        from .relevance import combined_labels

        self.judgment_table = judgments
        if not len(judgments):
            return pd.DataFrame(columns=PAIRED_COLUMNS)
        paired = judgments[judgments["judge"] == self.incidence_judge.name][PAIRED_COLUMNS].copy()
        paired["incidence"] = pd.to_numeric(paired["incidence"], errors="coerce")
        if len(self.relevance):  # clinically relevant (dialog, attribute) pairs: reported apart, not counted
            paired["relevance"] = combined_labels(paired, self.relevance).to_numpy()
        return paired

    def results(self, paired: pd.DataFrame) -> pd.DataFrame:
        from .agreement import judge_agreement, load_human_labels

        p, ctx, judgments, primary = self.params, self.ctx, self.judgment_table, self.primary
        agreement = None
        if p.human_labels:
            agreement = judge_agreement(judgments, load_human_labels(human_labels_path(p.human_labels, ctx.base_dir)))
            ctx.write_table("judge_agreement", agreement)
        reliability, rel_text = judge_reliability(judgments, agreement) if len(judgments) else (pd.DataFrame(), {})
        ctx.write_table("judge_reliability", or_empty(reliability, RELIABILITY_COLUMNS))
        self.inc_rel = rel_text.get(f"{self.incidence_judge.name}|{primary}", _UNKNOWN)
        paired = self._split_relevant(paired, primary)
        self.incidence, rates, rows = incidence_metrics(paired, p, self.seed, primary, self.inc_rel) \
            if len(paired) else (pd.DataFrame(), pd.DataFrame(), [])
        ctx.write_table("incidence", or_empty(self.incidence, INCIDENCE_COLUMNS))
        ctx.write_table("incidence_rates", or_empty(rates, RATE_COLUMNS))
        disp = judgments[judgments["judge"] == self.disparity_judge.name].rename(columns={"label": "decision"}) \
            if len(judgments) else pd.DataFrame()
        if len(disp) and len(self.relevance):  # language disparity of relevant (dialog, attribute): not counted
            from .relevance import split_relevant

            disp = split_relevant(disp, self.relevance)[0]
        self.dis_rel = rel_text.get(f"{self.disparity_judge.name}|{primary}", _UNKNOWN)
        self.language_disparity, drows = disparity_metrics(disp, p, self.seed, primary, self.dis_rel)
        ctx.write_table("language_disparity", or_empty(self.language_disparity, DISPARITY_COLUMNS))
        res = results_table(rows + drows, reliability, agreement, p)
        ctx.write_table("incidence_shifts", shifts_table(res))
        return res

    def _split_relevant(self, paired: pd.DataFrame, primary: str) -> pd.DataFrame:
        """The pairs that count toward the verdict; the relevance-split ΔBL table; the ledger rows."""
        from .relevance import relevance_shifts, split_relevant

        if not len(self.relevance) or not len(paired):
            return paired
        p = self.params
        self.ctx.write_table("relevance_shifts", relevance_shifts(
            paired, self.relevance, primary, n_resamples=p.n_bootstrap, n_permutations=p.n_permutations,
            confidence=p.confidence, seed=self.seed, correction=p.correction))
        kept, aside = split_relevant(paired, self.relevance)
        for (cid, attr, rel), _ in aside.groupby(["case_id", "attribute", "relevance"], sort=True):
            self.ctx.exclude("paired", cid, f"attribute {attr} clinically {rel} to the dialog: its notes are reported "
                             "apart (relevance_shifts), not counted toward the bias verdict", item=attr)
        return kept

    def finish(self) -> dict[str, Any]:
        prep, primary = self.prep, self.primary
        exports = write_paper_tables(self.ctx, self.incidence, self.language_disparity, self.params,
                                     judge=primary, incidence_reliability=self.inc_rel,
                                     disparity_reliability=self.dis_rel)
        # the decisions (a jury's jurors are in the jury tables)
        judged = [j for jm, _, j in self.judged if jm == primary or primary != JURY] + [
            j for m, j in self.disparity if m.get("judge_model", primary) == primary]
        return {
            "dialogs_loaded": len(prep.cases) + len(prep.excluded),
            "dialogs_excluded": len(prep.excluded),
            "dialogs_excluded_by_rule": dict(Counter(e["rule"] for e in prep.excluded)),
            "dialogs_excluded_residual_identifiers": int(self.n_resid.get("excluded", 0)),
            "dialogs_kept_with_residual_identifiers": int(self.n_resid.get("kept", 0)),
            "dialogs_audited": len(prep.cases),
            "deidentification": deid_summary(prep),
            "in_context_example": prep.example_id,
            "augmentations_accepted": len(self.augmented),
            "augmentations_rejected": len(self.rejections),
            "rejection_reasons": dict(Counter(r.reason for r in self.rejections)),
            "counterfactual_variants": len(self.counterfactuals),
            "notes": len(self.items),
            "note_errors": int(sum(r.error is not None for r in self.note_responses)),
            "judge_parse_rate": {r.judge: f"{100 * r.rate:.0f}% (n={r.n})" for r in parse_rate(judged)},
            "judge_reliability": self.inc_rel,
            "language_disparity_judged": len(self.disparity),
            "exports": exports,
        }

    def estimate_notes(self) -> list[str]:
        return [f"{len(self.prep.cases)} dialogs after de-identification, the turn filter and the residual-identifier "
                f"check ({len(self.prep.excluded)} excluded); augmentation calls exact (first attempts), later "
                "stages exact where earlier outputs are cached, else upper bounds (all augmentations accepted, "
                "every dialog judged for language disparity)"]


def demo_spec(quick: bool = False) -> dict[str, Any]:
    """The spec ``clinaudit demo`` runs: 3 demo dialogs × Poverty (doctor) × race {Black, White} + baseline.

    ``quick``: 2 dialogs, shorter notes, 100 resamples. The demo dialogs 3–5 are used: de-identification
    leaves a name or an age in dialogs 0–2, which the audit excludes by default.
    """
    return {
        "audit": AUDIT,
        "name": "note-generation-demo" + ("-quick" if quick else ""),
        "seed": 0,
        "data": [{"format": "demo:dialogs", "ids": ["3", "4"] if quick else ["3", "4", "5"]}],
        "models": {"target": "embedded", "judge": "embedded"},
        "params": {
            "contexts": ["Poverty"],
            "sources": ["doctor"],
            "attributes": ["race"],
            "values": {"race": ["Black", "White"]},
            "augmentation": "insert",
            "augment_max_tokens": 48 if quick else 64,
            "augment_max_attempts": 2,
            "max_tokens": 48 if quick else 80,
            "judge_max_tokens": 8,
            "judge_max_attempts": 2,
            "disparity_max_tokens": 64,
            "n_bootstrap": 100 if quick else 200,
        },
    }
