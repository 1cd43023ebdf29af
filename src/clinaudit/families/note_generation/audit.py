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
  replaced and kept by default, excluded with the spec's ``deid.exclude_residual: true``, each listed with the terms;
* every inference comes from :mod:`clinaudit.stats` (see :mod:`.analysis`);
* unparseable judge outputs and failed calls are missing values (never NO); they are
  counted (``n_missing``) and excluded from rates.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ...errors import SpecError
from ...judges.base import parse_rate
from ...judges.jury import JURY, Jury
from ...perturb.augment import augment_context
from ...pipeline import Audit, Calls, StageOutput, register
from ...records import ModelRequest, Variant, to_frame
from .analysis import attribute_sets, disparity_metrics, incidence_metrics, results_table
from .augment import augment_mode
from .cases import Prepared, prepare
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


@dataclass
class Dialogs:
    """What the ``cases`` stage hands on (``self.stages.cases``): the prepared dialogs and the residual-identifier
    counts (by action: excluded / kept)."""

    prep: Prepared
    n_resid: Counter


@dataclass
class NoteVariants:
    """What the ``variants`` stage hands on: the accepted augmentations, the gate's rejections, the
    counterfactual variants and the notes to generate (:class:`.notes.NoteItem`)."""

    augmented: list[Variant]
    rejections: list[Any]
    counterfactuals: list[Variant]
    items: list[NoteItem]


@dataclass
class NoteJudgments:
    """What the ``judgments`` stage hands on: its table and the judgments and judges behind it."""

    table: pd.DataFrame
    #: ``(judge model, item, judgment)`` of every note's incidence judgment
    judged: list[tuple[str, NoteItem, Any]]
    #: ``(meta, judgment)`` of every language-disparity judgment
    disparity: list[tuple[dict[str, Any], Any]]
    #: clinical relevance per (dialog, attribute)
    relevance: pd.DataFrame
    #: the judge model whose decisions drive the metrics (``jury`` for a jury)
    primary: str
    incidence_judge: Any
    disparity_judge: Any


@dataclass
class NoteResults:
    """What the ``results`` stage hands on for :meth:`NoteGeneration.finish` (the paper-shaped exports)."""

    table: pd.DataFrame
    incidence: pd.DataFrame
    language_disparity: pd.DataFrame
    inc_rel: str
    dis_rel: str


@register
class NoteGeneration(Audit[NoteGenerationParams, Dialogs, NoteVariants, None, NoteJudgments, pd.DataFrame, NoteResults]):
    """P1's note-generation audit, declared over the shared stages."""

    name = AUDIT
    summary = ("P1 note generation: stereotype contexts × demographic counterfactuals → incidence disparities "
               "(BL%, maxΔBL, ΔCF, %dlg) and language disparities (%Δ, Maj.%)")
    params_model = NoteGenerationParams
    #: the cases stage de-identifies the dialogs itself (listed names and the detector, counted by source)
    deidentifies_cases = True
    scaffold = staticmethod(scaffold)  # `clinaudit init AUDIT --data FILE`
    judges = {"incidence": "incidence", "language_disparity": "language_disparity"}

    def __init__(self, ctx: Any):
        super().__init__(ctx)
        # the run's configuration, read once from the spec (read-only; the stages hand their data on)
        p = self.params
        self.seed = ctx.spec.seed
        self.targets = ctx.models("target")
        self.augmenter = ctx.model("augmenter", default=self.targets[0])
        self.judge_models = ctx.models("judge", default=[self.targets[0]])
        self.contexts = [resolve_context(c) for c in p.contexts]
        for cx in self.contexts:
            if not attribute_sets(cx, p):
                raise SpecError(f"field 'params.attributes': context {cx.name!r} is studied with "
                                f"{', '.join(cx.attributes)}, none of which is in {p.attributes}")

    def cases(self) -> StageOutput[Dialogs]:
        prep = prepare(self.ctx, self.params)
        n_resid = write_case_tables(self.ctx, prep)
        return StageOutput(table=to_frame(prep.cases, columns=["case_id", "text", "dataset", "fields", "source",
                                                               "source_row"]), value=Dialogs(prep, n_resid))

    def variants(self, dialogs: Dialogs) -> StageOutput[NoteVariants]:
        p, prep = self.params, dialogs.prep
        cases = prep.cases
        augmented: list[Variant] = []
        rejections: list[Any] = []
        if cases:
            mode = augment_mode(p.augmentation, p.insert_max_sentences, dry=self.dry)
            augmented, rejections = augment_context(
                cases, self.contexts, p.sources, runner=self.ctx.runner, model=self.augmenter,
                max_attempts=p.augment_max_attempts, seed=self.seed, temperature=p.augment_temperature,
                max_tokens=p.augment_max_tokens, mode=mode)
            if p.deidentify:  # an augmentation may bring in a name: checked here and again on the final texts
                augmented = recheck_names(augmented, prep, "augmentation")
        counterfactuals, items = counterfactual_items(augmented, cases, p, self.targets, self.seed, prep)
        if not self.dry:
            self.ctx.write_table("deidentification", deid_table(prep))
            rej = pd.DataFrame([r.to_row() for r in rejections], columns=REJECTION_COLUMNS)
            self.ctx.write_table("rejections", rej)
            if len(rej):
                log.warning("%d augmentation(s) failed the additions-only gate and were not used: %s", len(rej),
                            dict(Counter(rej["reason"])))
        # de-identified texts of the audited dialogs only: nothing of an excluded dialog is written
        kept = {c.case_id for c in cases}
        deid = [v for v in prep.deid_variants if v.case_id in kept]
        table = to_frame(deid + augmented + counterfactuals, columns=list(Variant.model_fields))
        return StageOutput(table=table, value=NoteVariants(augmented, rejections, counterfactuals, items))

    def calls(self, variants: NoteVariants) -> list[ModelRequest]:
        return note_requests(variants.items, self.params, self.stages.cases.prep.example, self.seed)

    def judgments(self, calls: Calls[None]) -> StageOutput[NoteJudgments]:
        p, runner = self.params, self.ctx.runner
        items: list[NoteItem] = self.stages.variants.items
        notes = calls.responses
        if not self.dry:
            self.ctx.write_table("notes", notes_table(items, notes))
        incidence_judge = self.judge("incidence", max_tokens=p.judge_max_tokens, seed=self.seed)
        # several judge models are a jury (clinaudit.judges.jury): its majority decisions drive the metrics
        primary = JURY if getattr(incidence_judge, "is_jury", False) else self.judge_models[0]
        judged = judge_incidence(runner, incidence_judge, items, notes, self.judge_models,
                                 p.judge_max_attempts, dry=self.dry)
        disparity_judge = self.judge("language_disparity", max_tokens=p.disparity_max_tokens, seed=self.seed)
        disparity = judge_disparity(runner, disparity_judge, judged, items, notes, primary, p,
                                    self.seed, dry=self.dry) if p.language_disparity else []
        judgments = pd.DataFrame(judgment_rows(judged, disparity))
        relevance, rel_rows = self._relevance(primary, items)
        if judgments.empty and not rel_rows:
            judgments = pd.DataFrame(columns=JUDGMENT_COLUMNS)
        else:
            if rel_rows:
                judgments = pd.concat([judgments, pd.DataFrame(rel_rows)], ignore_index=True)
            judgments["judge_model"] = [jm if jm else primary for jm in judgments["judge_model"]]
            if primary == JURY:  # jurors' rows and decision rows, keyed like the core's (pipeline.audit)
                judgments["jury"] = ["decision" if m == JURY else "member" for m in judgments["judge_model"]]
        return StageOutput(table=judgments, value=NoteJudgments(judgments, judged, disparity, relevance, primary,
                                                                incidence_judge, disparity_judge))

    def _relevance(self, primary: str, items: list[NoteItem]) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
        """Clinical relevance of each (dialog, counterfactual attribute) (issue 19 item 2; docs/judges.md)."""
        from ...perturb.relevance import label_relevance
        from .relevance import components

        p = self.params
        attrs = sorted({a for it in items for a in components(it.attribute)})
        if not attrs:
            return pd.DataFrame(), []
        judge = self.judge("relevance") if p.relevance_judge else None
        jm = self.judge_models[0]
        relevance, js = label_relevance(self.stages.cases.prep.cases, attrs, p, runner=self.ctx.runner, judge=judge,
                                        judge_model=jm, max_attempts=p.judge_max_attempts)
        self.ctx.write_table("relevance", relevance)
        jury = judge if isinstance(judge, Jury) else None
        raters = [(JURY if jury is not None else jm, "decision", js)] + (
            [(m, "member", mjs) for m, mjs in jury.last_members.items()] if jury is not None and js else [])
        return relevance, [{**j.to_row(), "judge_model": m, "case_id": j.item_id.split("::")[0],
                            "attribute": j.item_id.split("::")[-1], **({"jury": role} if primary == JURY else {})}
                           for m, role, rjs in raters for j in rjs]

    def paired(self, judged: NoteJudgments) -> pd.DataFrame:
        from .relevance import combined_labels

        judgments = judged.table
        if not len(judgments):
            return pd.DataFrame(columns=PAIRED_COLUMNS)
        paired = judgments[judgments["judge"] == judged.incidence_judge.name][PAIRED_COLUMNS].copy()
        paired["incidence"] = pd.to_numeric(paired["incidence"], errors="coerce")
        if len(judged.relevance):  # clinically relevant (dialog, attribute) pairs: reported apart, not counted
            paired["relevance"] = combined_labels(paired, judged.relevance).to_numpy()
        return paired

    def results(self, paired: pd.DataFrame) -> StageOutput[NoteResults]:
        from .agreement import judge_agreement, load_human_labels

        p, ctx, j = self.params, self.ctx, self.stages.judgments
        judgments, primary, relevance = j.table, j.primary, j.relevance
        agreement = None
        if p.human_labels:
            agreement = judge_agreement(judgments, load_human_labels(human_labels_path(p.human_labels, ctx.base_dir)))
            ctx.write_table("judge_agreement", agreement)
        reliability, rel_text = judge_reliability(judgments, agreement) if len(judgments) else (pd.DataFrame(), {})
        ctx.write_table("judge_reliability", or_empty(reliability, RELIABILITY_COLUMNS))
        inc_rel = rel_text.get(f"{j.incidence_judge.name}|{primary}", _UNKNOWN)
        paired = self._split_relevant(paired, primary, relevance)
        incidence, rates, rows = incidence_metrics(paired, p, self.seed, primary, inc_rel) \
            if len(paired) else (pd.DataFrame(), pd.DataFrame(), [])
        ctx.write_table("incidence", or_empty(incidence, INCIDENCE_COLUMNS))
        ctx.write_table("incidence_rates", or_empty(rates, RATE_COLUMNS))
        disp = judgments[judgments["judge"] == j.disparity_judge.name].rename(columns={"label": "decision"}) \
            if len(judgments) else pd.DataFrame()
        if len(disp) and len(relevance):  # language disparity of relevant (dialog, attribute): not counted
            from .relevance import split_relevant

            disp = split_relevant(disp, relevance)[0]
        dis_rel = rel_text.get(f"{j.disparity_judge.name}|{primary}", _UNKNOWN)
        language_disparity, drows = disparity_metrics(disp, p, self.seed, primary, dis_rel)
        ctx.write_table("language_disparity", or_empty(language_disparity, DISPARITY_COLUMNS))
        res = results_table(rows + drows, reliability, agreement, p)
        ctx.write_table("incidence_shifts", shifts_table(res))
        return StageOutput(table=res, value=NoteResults(res, incidence, language_disparity, inc_rel, dis_rel))

    def _split_relevant(self, paired: pd.DataFrame, primary: str, relevance: pd.DataFrame) -> pd.DataFrame:
        """The pairs that count toward the verdict; the relevance-split ΔBL table; the ledger rows."""
        from .relevance import relevance_shifts, split_relevant

        if not len(relevance) or not len(paired):
            return paired
        p = self.params
        self.ctx.write_table("relevance_shifts", relevance_shifts(
            paired, relevance, primary, n_resamples=p.n_bootstrap, n_permutations=p.n_permutations,
            confidence=p.confidence, seed=self.seed, correction=p.correction))
        kept, aside = split_relevant(paired, relevance)
        for (cid, attr, rel), _ in aside.groupby(["case_id", "attribute", "relevance"], sort=True):
            self.ctx.exclude("paired", cid, f"attribute {attr} clinically {rel} to the dialog: its notes are reported "
                             "apart (relevance_shifts), not counted toward the bias verdict", item=attr)
        return kept

    def finish(self) -> dict[str, Any]:
        st = self.stages
        dialogs: Dialogs = st.cases
        v: NoteVariants = st.variants
        j: NoteJudgments = st.judgments
        r: NoteResults = st.results
        notes: Calls[None] = st.calls
        prep, primary, n_resid = dialogs.prep, j.primary, dialogs.n_resid
        exports = write_paper_tables(self.ctx, r.incidence, r.language_disparity, self.params,
                                     judge=primary, incidence_reliability=r.inc_rel,
                                     disparity_reliability=r.dis_rel)
        # the decisions (a jury's jurors are in the jury tables)
        judged = [x for jm, _, x in j.judged if jm == primary or primary != JURY] + [
            x for m, x in j.disparity if m.get("judge_model", primary) == primary]
        return {
            "dialogs_loaded": len(prep.cases) + len(prep.excluded),
            "dialogs_excluded": len(prep.excluded),
            "dialogs_excluded_by_rule": dict(Counter(e["rule"] for e in prep.excluded)),
            "dialogs_excluded_residual_identifiers": int(n_resid.get("excluded", 0)),
            "dialogs_kept_with_residual_identifiers": int(n_resid.get("kept", 0)),
            "dialogs_with_residual_names_replaced": int(n_resid.get("replaced", 0)),
            "dialogs_audited": len(prep.cases),
            "deidentification": deid_summary(prep),
            "in_context_example": prep.example_id,
            "augmentations_accepted": len(v.augmented),
            "augmentations_rejected": len(v.rejections),
            "rejection_reasons": dict(Counter(x.reason for x in v.rejections)),
            "counterfactual_variants": len(v.counterfactuals),
            "notes": len(v.items),
            "note_errors": int(sum(x.error is not None for x in notes.responses)),
            "judge_parse_rate": {x.judge: f"{100 * x.rate:.0f}% (n={x.n})" for x in parse_rate(judged)},
            "judge_reliability": r.inc_rel,
            "language_disparity_judged": len(j.disparity),
            "exports": exports,
        }

    def estimate_notes(self) -> list[str]:
        prep = self.stages.cases.prep
        return [f"{len(prep.cases)} dialogs after de-identification, the turn filter and the residual-identifier "
                f"check ({len(prep.excluded)} excluded); augmentation calls exact (first attempts), later "
                "stages exact where earlier outputs are cached, else upper bounds (all augmentations accepted, "
                "every dialog judged for language disparity)"]


#: the relative cost of this audit's demo on the embedded model (measured): `clinaudit demo` starts the longest first
DEMO_COST = 4


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
