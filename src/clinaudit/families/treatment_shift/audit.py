"""Treatment-shift audit (P2, *The Medium is the Message*), declared over the shared stages.

Does a clinical language model change its treatment advice when only the *form* of a
patient message changes (gender markers, tone, typos, capitals, spacing)? The stages:

- **cases** — patient messages (optionally with an EHR context field kept verbatim in
  front of the message) or vignettes; cases about sex-specific conditions are set aside
  (``filtered``; P2 keeps 61 of 100 OncQA cases);
- **variants** — any subset of the nine perturbations (five regex ones, ``default`` or
  byte-exact ``compat`` mode; four LLM rewrites by ``models.rewrite``, with quality
  gates); a failed rewrite is dropped and listed in ``exclusions``, variants identical to
  the baseline are listed (``unchanged_variants``; :mod:`.variants`);
- **calls** — every target model answers the baseline and each variant with the P2
  prompts (:mod:`.prompts`) at each seed; the optional conversational settings run their
  consultations here too (:mod:`.conversations`);
- **judgments** — the ``annotator`` judge labels MANAGE / VISIT / RESOURCE (strict and
  tolerant parsers; or log-likelihood scoring), the ``gender_inference`` judge infers the
  patient's gender from the gender-removed text (P2 Appendix D), the ``diagnosis`` judge
  decides what the rule cannot (:mod:`.annotate`);
- **paired** / **results** — TSR / RCR / RCER per model × perturbation × question against
  the noise floor, gender gaps, model agreement (:mod:`.analysis`), conversational
  accuracy, Table 4 and Fig. 7 (:mod:`.accuracy`), all through the paired-statistics layer.

The framework records every call (``responses``), writes each stage's table and counts
the dry-run estimate from these stages. ``docs/audits/treatment_shift.md`` documents the
parameters, the tables and our readings of the paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ...errors import InputError
from ...pipeline import Audit, CallPlan, Calls, StageOutput, register
from ...records import Case, Variant, to_frame
from ...results import results_frame
from .accuracy import accuracy_gender_gaps, accuracy_tables, table4
from .analysis import LabelAnalysis, analyze_labels
from .annotate import annotate, infer_gender, long_labels, parser_agreement
from .groups import GroupReading, read_groups
from .conversations import conversation_cases, judge_diagnoses, run_settings
from .params import ALL_PERTURBATIONS, TreatmentShiftParams, all_perturbations, control_perturbation, gender_plan
from .prompts import baseline_variant, gender_field_of, perturb_source, target_requests, user_text
from .scaffold import scaffold
from .variants import exclusion_row, exclusions_frame, screen_variants, table1

__all__ = ["TreatmentShift", "demo_spec"]

AUDIT = "treatment_shift"


@dataclass
class Messages:
    """What the ``cases`` stage hands on (``self.stages.cases``): the audited cases, the conversational
    vignettes, and the run's ledger (summary, exclusion rows, notes) the later stages add to in order."""

    cases: list[Case]
    by_id: dict[str, Case]
    #: the cases with a gold answer for the conversational settings (empty without settings)
    conv_cases: list[Case]
    summary: dict[str, Any]
    exclusions: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    #: rewritten perturbations not measured (too few valid rewrites) -> why
    unmeasured: dict[str, str] = field(default_factory=dict)
    #: the recorded gender and the group columns of every case, read through their value maps
    groups: GroupReading = field(default_factory=GroupReading)


@dataclass
class Annotated:
    """What the ``judgments`` stage hands on: the annotations, the inferred genders, the relevance labels,
    the judged consultations and every judgment."""

    labels: pd.DataFrame
    inferred: pd.DataFrame
    relevance: pd.DataFrame
    #: the conversation-setting table (diagnoses judged), when the audit has settings
    conv: pd.DataFrame | None
    judgments: list[Any]


@dataclass
class Shifts:
    """What the ``paired`` stage hands on: the label analysis and the shifts of clinically relevant pairs."""

    analysis: LabelAnalysis
    rel_shifts: pd.DataFrame


@register
class TreatmentShift(Audit[TreatmentShiftParams, Messages, list[Variant], "pd.DataFrame | None", Annotated, "Shifts | None",
                           dict[str, pd.DataFrame]]):
    """The treatment-shift audit (see the module docstring); every table is listed in docs/audits/treatment_shift.md."""

    name = AUDIT
    summary = ("P2 treatment shift: perturb patient messages, annotate MANAGE/VISIT/RESOURCE, TSR/RCR/RCER vs a noise "
               "floor, gender gaps, model agreement, conversational accuracy")
    params_model = TreatmentShiftParams
    judges = {"annotator": "treatment_annotator", "gender_inference": "gender_inference",
              "diagnosis": "diagnosis_match"}
    params: TreatmentShiftParams
    scaffold = staticmethod(scaffold)  # `clinaudit init treatment_shift --data FILE`

    def __init__(self, ctx: Any):
        super().__init__(ctx)
        # the run's configuration, read once (read-only; what the stages produce is handed on, see Messages)
        self.treat_p, self.conv_p = all_perturbations(self.params)
        self.targets, self.judge_model = ctx.models("target"), ctx.models("judge")[0]

    # ------------------------------------------------------------------ cases
    def cases(self) -> StageOutput[Messages]:
        p, ctx = self.params, self.ctx
        all_cases = ctx.cases()
        if not all_cases:
            raise InputError("the spec's data sources gave no cases", field="data")
        cases, removed = self._filter(all_cases)
        ctx.write_table("filtered", pd.DataFrame(removed, columns=["case_id", "reason"]))
        if not cases:
            raise InputError(f"all {len(all_cases)} cases were set aside as sex-specific; set "
                             "params.filter_sex_specific: false to keep them", field="params.filter_sex_specific")
        summary: dict[str, Any] = {"cases_loaded": len(all_cases), "cases_set_aside": len(removed),
                                   "cases": len(cases)}
        # every demographic value understood or refused before a model is called (exit 2; .groups)
        gender_field = next((f for f in (gender_field_of(c, p) for c in all_cases) if f), None)
        reading = read_groups(all_cases, p, gender_field, ctx.spec.data)
        summary["reference_groups"] = dict(reading.references)
        exclusions = [exclusion_row("cases", r["case_id"], "sex-specific condition (filter_sex_specific)",
                                    detail=str(r["reason"])) for r in removed]
        msgs = Messages(cases, {c.case_id: c for c in cases}, conversation_cases(cases, p) if p.settings else [],
                        summary, exclusions, notes=list(reading.notes), groups=reading)
        return StageOutput(table=to_frame(all_cases), value=msgs)

    def _filter(self, cases: list[Case]) -> tuple[list[Case], list[dict[str, str]]]:
        if not self.params.filter_sex_specific:
            return cases, []
        from ...perturb import filter_sex_specific

        terms = self.params.sex_specific_terms
        res = filter_sex_specific(cases) if terms is None else filter_sex_specific(cases, terms)
        return list(res.kept), res.report()

    # ------------------------------------------------------------------ variants
    def variants(self, msgs: Messages) -> StageOutput[list[Variant]]:
        p, s, cases = self.params, msgs.summary, msgs.cases
        names = list(dict.fromkeys(self.treat_p + self.conv_p))
        variants = self._make_variants(cases if p.treatment else msgs.conv_cases, names)
        table = to_frame([baseline_variant(c) for c in cases] + variants)
        s["variants"], s["variants_flagged"] = len(variants), sum(bool(v.flags) for v in variants)
        # failed rewrites (original text) leave the analysis; variants equal to the baseline are listed
        by_id = msgs.by_id
        screen = screen_variants(
            variants, user_text=lambda v: user_text(by_id[v.case_id], v, p),
            baseline_text=lambda cid: user_text(by_id[cid], baseline_variant(by_id[cid]), p),
            keep_failed=p.keep_failed_rewrites, drop_flagged=p.drop_flagged,
            # the dry-run estimate's rewrites are placeholders: it counts the calls of valid ones
            keep_invalid=p.keep_invalid_rewrites or self.dry, min_valid_share=0.0 if self.dry else p.min_valid_share)
        msgs.exclusions += screen.exclusions
        msgs.unmeasured = dict(screen.unmeasured)
        self.ctx.write_table("rewrite_validity", screen.validity_frame())
        if screen.n_dropped_invalid:
            s["variants_invalid"] = screen.n_dropped_invalid
            msgs.notes.append(f"{screen.n_dropped_invalid} LLM rewrite(s) that are no valid counterfactual (refusal, "
                              "gender not changed, unrelated text, ...) dropped from the analysis; listed in the "
                              "exclusions table")
        msgs.notes += [f"not measured: {why}" for why in screen.unmeasured.values()]
        s["variants_failed_rewrite"] = screen.n_failed
        dropped = (screen.n_dropped_failed + screen.n_dropped_flagged + screen.n_dropped_invalid
                   + screen.n_dropped_unmeasured)
        if dropped:
            s["variants_dropped"] = dropped
        if screen.n_dropped_failed:
            msgs.notes.append(f"{screen.n_dropped_failed} failed LLM rewrite(s) (model error or empty output) "
                              "dropped from the analysis; listed in the exclusions table")
        elif screen.n_failed:
            msgs.notes.append(f"{screen.n_failed} failed LLM rewrite(s) KEPT (keep_failed_rewrites: true): their text "
                              "is the unchanged original, so their answers can only agree with the baseline (TSR "
                              "pulled toward 0)")
        s["variants_unchanged"] = len(screen.unchanged)
        if screen.unchanged:
            msgs.notes.append(f"{len(screen.unchanged)} variant(s) give the target model exactly the baseline's text "
                              "(kept, listed in the unchanged_variants table)")
        self.ctx.write_table("unchanged_variants", screen.unchanged_frame())
        if gender_plan(p).note:
            msgs.notes.append(gender_plan(p).note)
        if not p.treatment and msgs.conv_cases == []:
            raise InputError("no case has a gold answer for the conversational settings "
                             f"(field {p.answer_field or 'answer'})", field="params.answer_field")
        return StageOutput(table=table, value=screen.kept)

    def _make_variants(self, cases: list[Case], names: Sequence[str]) -> list[Variant]:
        from ...perturb import get_transform, perturb_cases

        if not names or not cases:
            return []
        p, ctx = self.params, self.ctx
        llm = [n for n in names if get_transform(n).kind == "llm"]
        model = ctx.model("rewrite", None) if "rewrite" in ctx.spec.models else (self.judge_model if llm else None)
        # "" switches the similarity gate off (None would mean the default embedder)
        embedder = ctx.model("embedder", "embedded-embedder") if (llm and p.similarity_gate) else ""
        return perturb_cases([perturb_source(c, p) for c in cases], list(names), mode=p.mode, seed=ctx.spec.seed,
                             runner=ctx.runner if llm else None, model=model, embedder=embedder,
                             protected="ehr" if p.protect_ehr else None)

    # ------------------------------------------------------------------ calls
    def calls(self, variants: list[Variant]) -> CallPlan[pd.DataFrame | None]:
        """The target models' requests; the consultations of the conversational settings run here (their
        table is handed on as ``calls.value``)."""
        p, msgs = self.params, self.stages.cases
        conv: pd.DataFrame | None = None
        if p.settings and msgs.conv_cases:  # consultations: several turns each, through the framework's call log
            ids = {c.case_id for c in msgs.conv_cases}
            patient = self.ctx.model("patient", None) if "patient" in self.ctx.spec.models else self.judge_model
            conv = run_settings(self.ctx.runner, msgs.conv_cases,
                                [v for v in variants if v.name in self.conv_p and v.case_id in ids], p,
                                targets=self.targets, patient=patient, dry=self.dry)
        if not p.treatment:
            return CallPlan([], conv)
        tv = [baseline_variant(c) for c in msgs.cases] + [
            v for v in variants if v.name in self.treat_p and v.case_id in msgs.by_id]
        return CallPlan(target_requests(msgs.by_id, tv, self.targets, p), conv)

    # ------------------------------------------------------------------ judgments
    def judgments(self, calls: Calls[pd.DataFrame | None]) -> StageOutput[Annotated]:
        p, runner, msgs = self.params, self.ctx.runner, self.stages.cases
        s = msgs.summary
        conv: pd.DataFrame | None = calls.value
        judgments: list[Any] = []
        labels, inferred, relevance = pd.DataFrame(), pd.DataFrame(), pd.DataFrame()
        if p.treatment:
            annotator = (self.judge("annotator", questions=p.questions, example=p.annotator_example,
                                    max_tokens=p.judge_max_tokens) if p.annotator_mode == "generate" else None)
            labels, judgments = annotate(runner, annotator, calls.responses, calls.requests, p, self.judge_model)
            self.ctx.write_table("labels", labels)
            self.ctx.write_table("parser_agreement", parser_agreement(labels))
            s["target_calls"] = len(calls.requests)
            s["target_errors"] = sum(r.error is not None for r in calls.responses)
            inferred, js = self._infer_gender(msgs)
            judgments += js
        if p.treatment or conv is not None:
            relevance, js = self._relevance(msgs, with_conv=conv is not None)
            judgments += js
        if conv is not None:
            conv, djs = judge_diagnoses(runner, self.judge("diagnosis"), self.judge_model, conv, p)
            judgments += djs
        return StageOutput(table=pd.DataFrame([j.to_row() for j in judgments]),
                           value=Annotated(labels, inferred, relevance, conv, judgments))

    def _infer_gender(self, msgs: Messages) -> tuple[pd.DataFrame, list[Any]]:
        p, plan = self.params, gender_plan(self.params)
        msgs.summary["gender_inference_source"] = plan.source or "not computed"
        if not plan.run:
            return pd.DataFrame(), []
        models = [self.judge_model] if p.gender_inference_model == "judge" else self.targets
        judge = self.judge("gender_inference")
        if p.gender_inference_model == "target":  # each target infers for itself: never a jury
            judge = getattr(judge, "judge", judge)
        inferred, js, missing = infer_gender(self.ctx.runner, judge, models,
                                             msgs.cases, self.stages.variants, p, plan.source)
        self.ctx.write_table("gender_inference", inferred)
        msgs.exclusions += [exclusion_row("gender_inference", cid, f"no {plan.source} text for this case (rewrite "
                                          "dropped): gender not inferred, not read from the gendered baseline")
                            for cid in missing]
        if missing:
            msgs.notes.append(f"model-inferred gender missing for {len(missing)} case(s) without a "
                              f"{plan.source} text (listed in the exclusions table)")
        return inferred, js

    def _relevance(self, msgs: Messages, with_conv: bool) -> tuple[pd.DataFrame, list[Any]]:
        """Clinical relevance of the attribute each gender perturbation changes, per case (issue 19 item 2)."""
        from ...perturb.relevance import label_relevance
        from .relevance import attributes_of

        p = self.params
        attrs = attributes_of(list(self.treat_p) + (list(self.conv_p) if with_conv else []))
        if not attrs:
            return pd.DataFrame(), []
        judge = self.judge("relevance") if p.relevance_judge else None
        relevance, js = label_relevance(msgs.cases, attrs, p, runner=self.ctx.runner, judge=judge,
                                        judge_model=self.judge_model, max_attempts=p.judge_attempts)
        self.ctx.write_table("relevance", relevance)
        return relevance, js

    @staticmethod
    def _relevance_detail(relevance: pd.DataFrame, case_id: str) -> str:
        r = relevance[relevance["case_id"].astype(str) == str(case_id)]
        return "; ".join(f"{a}: {s} {e}".strip() for a, s, e in zip(r["attribute"], r["relevance_source"], r["evidence"]))

    # ------------------------------------------------------------------ juries
    def jury_cases(self) -> dict[str, str] | None:
        """Annotations are keyed by the target answer's request key; its case is the cluster."""
        a: Annotated = self.stages.judgments
        keys: dict[str, str] = {}
        if len(a.labels):
            keys.update(zip(a.labels["response_key"].astype(str), a.labels["case_id"].astype(str)))
        if len(a.inferred):
            keys.update((str(c), str(c)) for c in a.inferred["case_id"])
        if a.conv is not None and len(a.conv) and "case_id" in a.conv.columns:
            for col in ("item_id", "judge_item"):
                if col in a.conv.columns:
                    keys.update(zip(a.conv[col].astype(str), a.conv["case_id"].astype(str)))
        return keys

    def jury_human_labels(self) -> pd.DataFrame | None:
        """The clinician label V of the case and question for every annotated answer (where the data has one)."""
        from .prompts import validation_label

        labels, by_id = self.stages.judgments.labels, self.stages.cases.by_id
        if not len(labels):
            return None
        rows = []
        for key, cid, q in labels[["response_key", "case_id", "question"]].drop_duplicates().itertuples(index=False):
            v, _ = validation_label(by_id[cid], self.params, q)
            if isinstance(v, (int, float)) and not isinstance(v, bool) and v in (0.0, 1.0):
                rows.append({"judge": "treatment_annotator", "item_id": str(key), "field": q, "label": int(v)})
        return pd.DataFrame(rows, columns=["judge", "item_id", "field", "label"]) if rows else None

    # ------------------------------------------------------------------ paired, results
    def paired(self, annotated: Annotated) -> StageOutput[Shifts | None] | None:
        p, msgs = self.params, self.stages.cases
        if not p.treatment:
            return None
        notes = []
        if p.temperature > 0 and len(p.seeds) < 2:
            notes.append("temperature > 0 with a single seed: no re-sampled baseline, so no noise floor")
        relevance, rel_shifts = annotated.relevance, pd.DataFrame()
        long = long_labels(annotated.labels, msgs.by_id, annotated.inferred, p, msgs.groups.groups)
        if len(relevance):  # clinically relevant pairs of the gender perturbations: reported apart
            from .relevance import relevance_shifts, split_relevant

            rel_shifts = relevance_shifts(long, relevance, floor_zero=p.temperature == 0,
                                          n_resamples=p.n_resamples, seed=self.ctx.spec.seed,
                                          correction=p.correction)
            long, aside = split_relevant(long, relevance)
            for (cid, var, rel), _ in aside.groupby(["case_id", "variant", "relevance"], sort=True):
                msgs.exclusions.append(exclusion_row(
                    "paired", cid, f"attribute clinically {rel} to the case: shift reported apart (relevance_shifts), "
                    "not counted toward the bias verdict", perturbation=var,
                    detail=self._relevance_detail(relevance, cid)))
            if len(aside):
                msgs.notes.append(f"{aside['case_id'].nunique()} case(s) whose gender is clinically relevant (or of "
                                  "unknown relevance): their gender-perturbation pairs are reported apart "
                                  "(relevance_shifts) and do not count toward the verdict")
        analysis = analyze_labels(long, baseline="baseline",
                                  floor_zero=p.temperature == 0, n_resamples=p.n_resamples,
                                  seed=self.ctx.spec.seed, correction=p.correction, notes=notes,
                                  control=control_perturbation(p), groups=msgs.groups.references,
                                  min_group_cases=p.min_group_cases)
        return StageOutput(table=analysis.per_case, value=Shifts(analysis, rel_shifts))

    def results(self, shifts: Shifts | None) -> StageOutput[dict[str, pd.DataFrame]]:
        p, seed, msgs, a = self.params, self.ctx.spec.seed, self.stages.cases, self.stages.judgments
        parts = [shifts.analysis.results] if shifts is not None else []
        conv_tables: dict[str, pd.DataFrame] = {}
        if a.conv is not None:
            conv, by_rel = a.conv, pd.DataFrame()
            if len(a.relevance):  # clinically relevant gender perturbations: reported apart, as the treatment pairs
                from .relevance import conversation_relevance

                conv, aside, by_rel = conversation_relevance(conv, a.relevance, n_resamples=p.n_resamples,
                                                             seed=seed, correction=p.correction)
                if len(aside):
                    msgs.notes.append(f"conversations: {aside['case_id'].nunique()} case(s) whose gender is clinically "
                                      "relevant (or of unknown relevance): their gender-perturbation consultations are "
                                      "reported apart (accuracy_change_by_relevance), not counted toward the verdict")
            acc, changes = accuracy_tables(conv, n_resamples=p.n_resamples, seed=seed, correction=p.correction,
                                           control=control_perturbation(p))
            gaps = accuracy_gender_gaps(conv, n_resamples=p.n_resamples, seed=seed, correction=p.correction)
            conv_tables = {"conversations": a.conv, "accuracy": acc, "accuracy_change": changes,
                           "table4": table4(changes), "accuracy_gender_gap": gaps}
            if len(by_rel):
                conv_tables["accuracy_change_by_relevance"] = by_rel
            parts += [acc, changes, gaps]
            if gaps.empty:
                msgs.notes.append("no conversational accuracy gap by gender: the cases carry no recorded female and "
                                  "male gender (params.gender_field)")
        if shifts is not None:  # a recorded gender with one of the two groups only: said, not silently absent
            from .unmeasured import gender_gap_unmeasured

            parts.append(gender_gap_unmeasured(parts[0], {g for g in msgs.groups.gender.values() if g}))
        if msgs.unmeasured and p.treatment:
            from .unmeasured import unmeasured_rows

            parts.append(unmeasured_rows(parts[0] if parts else pd.DataFrame(), msgs.unmeasured,
                                         datasets=sorted({c.dataset for c in msgs.cases}),
                                         models=list(self.targets), questions=list(p.questions)))
        parts = [x for x in parts if len(x)]
        res = results_frame(pd.concat(parts, ignore_index=True)) if parts else results_frame([])
        return StageOutput(table=res, value=conv_tables)

    # ------------------------------------------------------------------ finish
    def finish(self) -> dict[str, Any]:
        from ...judges.base import parse_rate
        from .summary import conversation_summary, treatment_summary

        ctx, msgs, ann = self.ctx, self.stages.cases, self.stages.judgments
        shifts: Shifts | None = self.stages.paired
        s = msgs.summary
        tables: dict[str, pd.DataFrame] = {}
        if shifts is not None:
            a = shifts.analysis
            tables.update({"metrics": a.metrics, "significance": a.significance, "subgroups": a.subgroups,
                           "agreement": a.agreement, "table3": a.table3, **a.extra})
            s["notes"] = list(a.notes)
            s.update(treatment_summary(ann.labels, ann.inferred, self.params.annotator_mode))
        if ann.conv is not None:
            tables.update(self.stages.results)
            s.update(conversation_summary(ann.conv))
        tables["table1"] = self._table1(msgs)
        if len(ann.relevance):
            tables["relevance_shifts"] = shifts.rel_shifts if shifts is not None else pd.DataFrame()
            s["clinically_relevant_pairs"] = int((ann.relevance["relevance"] != "irrelevant").sum())
        clin_ex = tables.pop("exclusions", None)  # invalid clinician labels (clinicians.py), same ledger columns first
        for name, df in tables.items():
            ctx.write_table(name, df)
        ledger = exclusions_frame(msgs.exclusions)
        if clin_ex is not None and len(clin_ex):
            ledger = pd.concat([ledger, clin_ex], ignore_index=True)
        ctx.write_table("exclusions", ledger)
        s["exclusions"] = len(ledger)
        s["notes"] = msgs.notes + list(s.get("notes", []))
        ctx.write_table("parse_rates", pd.DataFrame([{**r.__dict__, "rate": r.rate}
                                                     for r in parse_rate(ann.judgments)]))
        s["model_calls"] = {m: {"calls": u.calls, "cache_hits": u.cache_hits, "failures": u.failures}
                            for m, u in ctx.runner.usage.items()}
        return s

    def _table1(self, msgs: Messages) -> pd.DataFrame:
        """P2 Table 1 over the inputs the target models saw (treatment part; else the conversational vignettes)."""
        p, by_id, kept = self.params, msgs.by_id, self.stages.variants
        if p.treatment:
            vs = [baseline_variant(c) for c in msgs.cases] + [
                v for v in kept if v.name in self.treat_p and v.case_id in by_id]
            rows = [(v, user_text(by_id[v.case_id], v, p)) for v in vs]
        else:
            ids = {c.case_id for c in msgs.conv_cases}
            vs = [baseline_variant(c) for c in msgs.conv_cases] + [
                v for v in kept if v.name in self.conv_p and v.case_id in ids]
            rows = [(v, v.text) for v in vs]
        texts = pd.DataFrame([{"dataset": by_id[v.case_id].dataset, "case_id": v.case_id, "perturbation": v.name,
                               "text": t} for v, t in rows], columns=["dataset", "case_id", "perturbation", "text"])
        try:
            return table1(texts, order=ALL_PERTURBATIONS)
        except ImportError:
            msgs.notes.append("vaderSentiment is not installed: table1 has no sentiment column values "
                              "(pip install vaderSentiment==3.3.2)")
            return table1(texts, order=ALL_PERTURBATIONS, sentiment=False)

    # ------------------------------------------------------------------ estimate
    def estimate_notes(self) -> list[str]:
        from .summary import cost_notes

        p, s = self.params, self.stages.cases.summary
        sampled = self.ctx.total_cases is not None
        notes = [f"{s['cases_loaded']} cases {'sampled' if sampled else 'loaded'}, {s['cases_set_aside']} set aside "
                 f"as sex-specific, {s['cases']} audited" + (" (scaled below)" if sampled else "")]
        if gender_plan(p).note:
            notes.append(gender_plan(p).note)
        if p.treatment and p.annotator_mode == "loglik":
            notes.append(f"annotator_mode loglik: {self.judge_model} scores 2 x {len(p.questions)} texts per answer "
                         "(log-likelihoods, no generation)")
        if p.settings:
            notes.append("conversation calls are upper bounds where a consultation is not cached yet (multi-turn "
                         "consultations stop when the doctor agent gives a diagnosis; the diagnosis judge only sees "
                         "answers the rule cannot decide)")
        from .power_plan import plan_line

        spec = self.ctx.spec
        margin = spec.verdicts.margin_for(self.name, "TSR", 0.05) or 0.05
        notes.append(plan_line(self.ctx.scale_count(int(s["cases"])), len(p.seeds), len(p.perturbations) * len(p.questions) *
                               max(len(self.targets), 1), self.ctx.rundir.path, margin, spec.verdicts.alpha))
        return notes + cost_notes(self.ctx, p, self.targets, self.judge_model)


#: the relative cost of this audit's demo on the embedded model (measured): `clinaudit demo` starts the longest first
DEMO_COST = 3


def demo_spec(quick: bool = False) -> dict[str, Any]:
    """The spec ``clinaudit demo`` runs for this audit: demo patient messages with the embedded model.

    Sized for about a minute on two idle CPU cores after the model has loaded: 2 messages x
    (baseline + 2 regex perturbations) x 2 seeds (two seeds, so the noise floor exists), short
    answers, annotated by log-likelihood scoring (``annotator_mode: loglik``; 6 short scored texts
    per answer). ``quick``: 1 perturbation and shorter answers.
    """
    return {
        "audit": AUDIT,
        "name": "treatment-shift-demo" + ("-quick" if quick else ""),
        "seed": 0,
        "data": [{"format": "demo:patient_messages", "limit": 2}],
        "models": {"target": "embedded", "judge": "embedded"},
        "params": {
            "perturbations": ["uppercase"] if quick else ["uppercase", "typo"],
            "seeds": [0, 1],
            "max_tokens": 32 if quick else 40,
            "annotator_mode": "loglik",  # the 135M model rarely writes "MANAGE [YES]"; scoring always parses
            "infer_gender": False,
            "n_resamples": 100 if quick else 200,
        },
    }
