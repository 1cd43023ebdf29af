"""Note-generation audit (P1, *What If The Patient Were Different?*; METHODS §1.3–1.5, §3, §4.1).

Recipe, one stage table each (``RUN_DIR/tables/<name>.csv``)::

    dialogs ──de-identify, min-turn filter, residual-identifier check──▶ cases (+ excluded, residual_identifiers)
      ──stereotype-context augmentation (models.augmenter; additions-only gate)──▶ variants (+ rejections)
      ──appended demographic turn: baseline token + counterfactual values──▶ variants
      ──note generation (models.target; MTS zero-shot summary / ACI one-shot SOAP)──▶ notes, responses
      ──incidence judge per context (models.judge)──▶ judgments, paired
      ──BL%, rate(g), maxΔBL (+group), ΔCF, %dlg per model × dataset × context × source × attribute;
        ΔBL per value through the paired layer (clinaudit.stats)──▶ incidence, incidence_shifts, results
      ──language-disparity judge on dialogs with ≥2 positive counterfactuals──▶ %Δ, Maj.% (language_disparity)
      ──paper-shaped tables (CSV / Markdown / LaTeX in RUN_DIR/exports/)

Our readings (documented in ``docs/audits/note_generation.md``):

* a context is studied with its own attributes (P1 Table 9: race contexts with race,
  age contexts with age, gender contexts with gender, Mental Health with age and
  gender, Toxicity with all three); ``params.attributes`` restricts them;
* dialogs in which identifiers or gendered terms remain after de-identification are
  excluded by default (``params.keep_residual_identifiers``), each listed with the terms;
* every inference comes from :mod:`clinaudit.stats`: ``ΔBL`` (each value vs the
  baseline) from :class:`~clinaudit.stats.PairedFrame` (case = dialog, the baseline as
  the control arm; sign-flip test over dialogs; family = the values of one model ×
  dataset × context × source × attribute, declared once); ``maxΔBL`` carries its
  group's test and corrected p; ``ΔCF`` is tested with Cochran's Q
  (:mod:`clinaudit.stats.omnibus`), corrected over the contexts × sources of one
  model × dataset × attribute; descriptive CIs resample dialogs (the same resamples
  for every number of a cell; the CI of ``maxΔBL`` is that of max_g(rate(g) − BL%),
  which may be negative in resamples);
* unparseable judge outputs and failed calls are missing values (never NO); they are
  counted (``n_missing``) and excluded from rates.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ...errors import SpecError
from ...records import Judgment, ModelRequest, ModelResponse, Variant
from ...spec import AuditContext, Estimate, register_audit
from .analysis import attribute_sets, disparity_metrics, group_of, incidence_metrics, n_values
from .augment import insert_augment
from .cases import Prepared, note_style, prepare
from .params import AUDIT, NoteGenerationParams
from .prompts import build_note_request
from .tables import (
    DISPARITY_COLUMNS,
    INCIDENCE_COLUMNS,
    RATE_COLUMNS,
    RELIABILITY_COLUMNS,
    SHIFT_COLUMNS,
    SHIFT_RENAME,
    flat,
    human_labels_path,
    judge_reliability,
    or_empty,
    paper_tables,
)

__all__ = ["run", "estimate", "demo_spec"]

log = logging.getLogger("clinaudit.families.note_generation")

_NOT_CACHED = "__clinaudit_estimate_not_cached__"


# --------------------------------------------------------------------------- runner proxy


class _Recorder:
    """Runner proxy: records every (request, response); in ``dry`` mode answers from the cache only."""

    def __init__(self, runner: Any, dry: bool = False):
        self.inner = runner
        self.dry = dry
        self.records: list[tuple[ModelRequest, ModelResponse]] = []
        self.first_keys: dict[str, set[str]] = {}
        self.hit_keys: dict[str, set[str]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def request_key(self, request: ModelRequest) -> str:
        return self.inner.request_key(request)

    def generate(self, requests: Sequence[ModelRequest], desc: str = "model calls") -> list[ModelResponse]:
        if not self.dry:
            resps = self.inner.generate(requests, desc=desc)
            self.records.extend(zip(requests, resps))
            return resps
        keys = [self.inner.request_key(r) for r in requests]
        cache = getattr(self.inner, "cache", None)
        found = cache.get_many(keys) if cache is not None else {}
        out = []
        for req, key in zip(requests, keys):
            if key in found:
                self.hit_keys.setdefault(req.model, set()).add(key)
                self.first_keys.setdefault(req.model, set()).add(key)
                out.append(found[key].model_copy(update={"request_key": key, "meta": dict(req.meta)}))
            else:
                if not req.extra.get("attempt"):
                    self.first_keys.setdefault(req.model, set()).add(key)
                out.append(ModelResponse(request_key=key, model=req.model, error=_NOT_CACHED))
        return out




@dataclass
class _NoteItem:
    variant: Variant
    model: str
    dataset: str
    context: str
    source: str
    attribute: str
    group: str
    style: str


@dataclass
class _Stages:
    """Everything one pass of the pipeline produced (also used by the estimate)."""

    prepared: Prepared
    aug_variants: list[Variant] = field(default_factory=list)
    rejections: list[Any] = field(default_factory=list)
    cf_variants: list[Variant] = field(default_factory=list)
    note_items: list[_NoteItem] = field(default_factory=list)
    note_resps: list[ModelResponse] = field(default_factory=list)
    judgments: list[tuple[str, _NoteItem, Judgment]] = field(default_factory=list)  # (judge model, item, j)
    disparity: list[tuple[dict[str, Any], Judgment]] = field(default_factory=list)
    unknown: Counter = field(default_factory=Counter)  # estimate: calls that depend on uncached outputs


def _pipeline(ctx: AuditContext, params: NoteGenerationParams, runner: _Recorder) -> _Stages:
    from ...judges.base import run_judge
    from .judges import (
        IncidenceItem,
        IncidenceJudge,
        LanguageDisparityItem,
        LanguageDisparityJudge,
        resolve_context,
    )
    from ...perturb.augment import augment_context
    from ...perturb.counterfactual import appended_turn_counterfactuals

    seed = ctx.spec.seed
    targets = ctx.models("target")
    augmenter = ctx.model("augmenter", default=targets[0])
    judges = ctx.models("judge", default=[targets[0]])
    contexts = [resolve_context(c) for c in params.contexts]
    for cx in contexts:
        if not attribute_sets(cx, params):
            raise SpecError(f"field 'params.attributes': context {cx.name!r} is studied with "
                            f"{', '.join(cx.attributes)}, none of which is in {params.attributes}")
    prepared = prepare(ctx, params)
    st = _Stages(prepared)
    if not prepared.cases:
        return st
    # 1. augmentation
    if params.augmentation == "rewrite":
        st.aug_variants, st.rejections = augment_context(
            prepared.cases, [c.name for c in contexts], params.sources, runner=runner, model=augmenter,
            max_attempts=params.augment_max_attempts, seed=seed, temperature=params.augment_temperature,
            max_tokens=params.augment_max_tokens)
    else:
        st.aug_variants, st.rejections = insert_augment(prepared.cases, contexts, params.sources, runner=runner,
                                                         model=augmenter, params=params, seed=seed)
    by_id = {c.case_id: c for c in prepared.cases}
    if runner.dry:
        for r in st.rejections:
            if r.detail == _NOT_CACHED:
                cx = resolve_context(r.context)
                for attrs in attribute_sets(cx, params):
                    n_notes = (1 + n_values(attrs, params)) * len(targets)
                    for t in targets:
                        st.unknown[("note", t)] += 1 + n_values(attrs, params)
                    for jm in judges:
                        st.unknown[("judge", jm)] += n_notes
                    if params.language_disparity:
                        st.unknown[("disparity", judges[0])] += len(targets)
        st.rejections = [r for r in st.rejections if r.detail != _NOT_CACHED]
    # 2. counterfactuals
    for av in st.aug_variants:
        cx = resolve_context(av.provenance["context"])
        src = av.provenance["source"]
        case = by_id[av.case_id]
        base_case = case.model_copy(update={"text": av.text})
        for attrs in attribute_sets(cx, params):
            vals = {a: params.values[a] for a in attrs if a in params.values}
            for v in appended_turn_counterfactuals(base_case, attrs, seed=seed, values=vals or None):
                attr = "+".join(attrs)
                v = v.model_copy(update={
                    "variant_id": Variant.make_id(av.case_id, f"{src}:{cx.name}|counterfactual:{attr}", v.name, seed),
                    "provenance": {**v.provenance, "context": cx.name, "source": src, "attribute": attr,
                                   "augmentation_variant_id": av.variant_id},
                })
                st.cf_variants.append(v)
                for t in targets:
                    st.note_items.append(_NoteItem(v, t, case.dataset, cx.name, src, attr,
                                                   group_of(v.name, attrs), note_style(params, case)))
    # 3. notes
    reqs = []
    for it in st.note_items:
        reqs.append(build_note_request(
            it.model, it.variant.text, it.style, example=prepared.example if it.style == "aci" and
            params.aci_shots else None, temperature=params.temperature, max_tokens=params.max_tokens, seed=seed,
            meta={"case_id": it.variant.case_id, "variant_id": it.variant.variant_id, "context": it.context,
                  "source": it.source, "attribute": it.attribute, "group": it.group}))
    st.note_resps = runner.generate(reqs, desc="note generation") if reqs else []
    # 4. incidence judge
    ok_idx = [i for i, r in enumerate(st.note_resps) if r.error is None]
    if runner.dry:
        missing = [i for i, r in enumerate(st.note_resps) if r.error == _NOT_CACHED]
        for jm in judges:
            st.unknown[("judge", jm)] += len(missing)
    items = [(f"{st.note_items[i].model}::{st.note_items[i].variant.variant_id}",
              IncidenceItem(st.note_resps[i].text or "", st.note_items[i].context,
                            meta={"case_id": st.note_items[i].variant.case_id,
                                  "variant_id": st.note_items[i].variant.variant_id,
                                  "target_model": st.note_items[i].model})) for i in ok_idx]
    judge = IncidenceJudge(max_tokens=params.judge_max_tokens, seed=seed)
    for jm in judges:
        js = run_judge(runner, judge, items, jm, max_attempts=params.judge_max_attempts) if items else []
        jmap = dict(zip(ok_idx, js))
        for i, it in enumerate(st.note_items):
            if i in jmap:
                st.judgments.append((jm, it, jmap[i]))
            else:
                err = st.note_resps[i].error or "note missing"
                st.judgments.append((jm, it, Judgment(
                    item_id=f"{it.model}::{it.variant.variant_id}", judge="incidence", status="error",
                    meta={"error": f"note generation failed: {err}"})))
    # 5. language disparity (primary judge)
    if params.language_disparity:
        primary = judges[0]
        cells: dict[tuple[str, ...], dict[str, tuple[_NoteItem, str, Judgment]]] = {}
        for jm, it, j in st.judgments:
            if jm != primary:
                continue
            key = (it.model, it.dataset, it.context, it.source, it.attribute, it.variant.case_id)
            cells.setdefault(key, {})[it.group] = (it, "", j)
        note_text = {(it.model, it.variant.variant_id): (r.text or "") for it, r in zip(st.note_items, st.note_resps)}
        d_items = []
        for key, groups in cells.items():
            cf = {g: v for g, v in groups.items() if g != "baseline"}
            unknown = any(j.meta.get("error", "").endswith(_NOT_CACHED) or j.meta.get("error") == _NOT_CACHED
                          for _, _, j in cf.values() if j.status != "ok")
            positive = [g for g, (_, _, j) in cf.items() if j.status == "ok" and j.value.get("incidence") == 1]
            if runner.dry and unknown:
                st.unknown[("disparity", primary)] += 1
                continue
            if len(positive) < 2:
                continue
            shown = positive if params.disparity_notes == "positive" else [g for g in cf]
            notes = {g: note_text[(cf[g][0].model, cf[g][0].variant.variant_id)] for g in shown}
            meta = {"target_model": key[0], "dataset": key[1], "context": key[2], "source": key[3],
                    "attribute": key[4], "case_id": key[5], "groups": shown, "positive": positive}
            d_items.append((f"{key[0]}::{key[5]}::{key[3]}:{key[2]}::{key[4]}",
                            LanguageDisparityItem(key[2], key[4], notes,
                                                  order_seed=seed if params.disparity_order == "shuffled" else None,
                                                  meta=meta)))
        if d_items:
            dj = LanguageDisparityJudge(max_tokens=params.disparity_max_tokens, seed=seed)
            res = run_judge(runner, dj, d_items, primary, max_attempts=params.judge_max_attempts)
            st.disparity = [(item.meta, j) for (_, item), j in zip(d_items, res)]
    return st



# --------------------------------------------------------------------------- tables


def _responses_frame(records: list[tuple[ModelRequest, ModelResponse]]) -> pd.DataFrame:
    rows = []
    for req, resp in records:
        rows.append({
            "request_key": resp.request_key, "model": req.model, "stage": req.meta.get("stage", ""),
            "case_id": req.meta.get("case_id", ""), "variant_id": req.meta.get("variant_id", ""),
            "kind": req.kind, "messages": json.dumps([m.model_dump() for m in req.messages], ensure_ascii=False),
            "prompt": req.prompt, "temperature": req.temperature, "max_tokens": req.max_tokens, "seed": req.seed,
            "top_p": req.top_p, "extra": json.dumps(req.extra, sort_keys=True), "text": resp.text,
            "error": resp.error, "cached": resp.cached, "attempts": resp.attempts,
            "prompt_tokens": resp.prompt_tokens, "completion_tokens": resp.completion_tokens,
            "finish_reason": resp.finish_reason, "latency_s": resp.latency_s,
        })
    cols = ["request_key", "model", "stage", "case_id", "variant_id", "kind", "messages", "prompt", "temperature",
            "max_tokens", "seed", "top_p", "extra", "text", "error", "cached", "attempts", "prompt_tokens",
            "completion_tokens", "finish_reason", "latency_s"]
    return pd.DataFrame(rows, columns=cols).drop_duplicates(subset=["request_key"], keep="first")


def _judgment_rows(st: _Stages) -> list[dict[str, Any]]:
    from .judges import match_group

    rows = []
    for jm, it, j in st.judgments:
        rows.append({
            **j.to_row(), "judge_model": jm, "case_id": it.variant.case_id, "variant_id": it.variant.variant_id,
            "model": it.model, "dataset": it.dataset, "context": it.context, "source": it.source,
            "attribute": it.attribute, "group": it.group,
            "label": j.value.get("answer", "") if j.status == "ok" else "",
            "incidence": j.value.get("incidence") if j.status == "ok" else None, "most_impacted": "",
            "error": j.meta.get("error", ""),
        })
    for meta, j in st.disparity:
        raw = j.value.get("most_impacted_raw") if j.status == "ok" else None
        matched = match_group(raw, meta["groups"]) if raw else None
        rows.append({
            **j.to_row(), "judge_model": "", "case_id": meta["case_id"], "variant_id": "",
            "model": meta["target_model"], "dataset": meta["dataset"], "context": meta["context"],
            "source": meta["source"], "attribute": meta["attribute"], "group": "",
            "label": j.value.get("decision", "") if j.status == "ok" else "", "incidence": None,
            "most_impacted": matched or "", "most_impacted_raw": raw or "",
            "shown_groups": "/".join(meta["groups"]), "positive_groups": "/".join(meta["positive"]),
            "explanation": j.value.get("explanation", ""), "error": j.meta.get("error", ""),
        })
    return rows


# --------------------------------------------------------------------------- run


@register_audit(AUDIT, summary="P1 note generation: stereotype contexts × demographic counterfactuals → "
                "incidence disparities (BL%, maxΔBL, ΔCF, %dlg) and language disparities (%Δ, Maj.%)",
                params_model=NoteGenerationParams, estimate=lambda ctx: estimate(ctx))
def run(ctx: AuditContext) -> dict[str, Any]:
    """Run the audit; writes the stage tables and exports, returns the run summary."""
    from .agreement import judge_agreement, load_human_labels
    from ...judges.base import parse_rate
    from ...records import to_frame
    from ...results import results_frame
    from ...stats import apply_correction

    params: NoteGenerationParams = ctx.params  # type: ignore[assignment]
    seed = ctx.spec.seed
    rec = _Recorder(ctx.runner)
    st = _pipeline(ctx, params, rec)
    prep = st.prepared
    judges = ctx.models("judge", default=[ctx.models("target")[0]])
    primary = judges[0]

    ctx.write_table("cases", to_frame(prep.cases, columns=["case_id", "text", "dataset", "fields", "source",
                                                            "source_row"]))
    ctx.write_table("excluded", pd.DataFrame(prep.excluded, columns=["case_id", "dataset", "rule", "reason"]))
    # the same rows in the run's one exclusions ledger (tables/exclusions.csv)
    ctx.write_table("exclusions", pd.DataFrame(
        [{"stage": "cases", "case_id": e["case_id"], "reason": e["rule"], "detail": e["reason"],
          "dataset": e["dataset"]} for e in prep.excluded], columns=["stage", "case_id", "reason", "detail", "dataset"]))
    ctx.write_table("residual_identifiers", pd.DataFrame(
        prep.residuals, columns=["case_id", "dataset", "kind", "text", "start", "action"]))
    n_resid = Counter(r["action"] for r in {(r["case_id"], r["action"]): r for r in prep.residuals}.values())
    if n_resid:
        log.warning("%d dialog(s) with identifiers or gendered terms left after de-identification %s "
                    "(table residual_identifiers)", sum(n_resid.values()),
                    "kept (params.keep_residual_identifiers)" if n_resid.get("kept") else "excluded")
    ctx.write_table("variants", to_frame(prep.deid_variants + st.aug_variants + st.cf_variants,
                                         columns=list(Variant.model_fields)))
    rej = pd.DataFrame([r.to_row() for r in st.rejections],
                       columns=["case_id", "context", "source", "reason", "attempts", "detail", "last_output"])
    ctx.write_table("rejections", rej)
    if len(rej):
        log.warning("%d augmentation(s) failed the additions-only gate and were not used: %s", len(rej),
                    dict(Counter(rej["reason"])))
    ctx.write_table("responses", _responses_frame(rec.records))
    notes = pd.DataFrame([{
        "model": it.model, "dataset": it.dataset, "case_id": it.variant.case_id, "variant_id": it.variant.variant_id,
        "context": it.context, "source": it.source, "attribute": it.attribute, "group": it.group,
        "style": it.style, "note": r.text, "error": r.error, "request_key": r.request_key,
    } for it, r in zip(st.note_items, st.note_resps)],
        columns=["model", "dataset", "case_id", "variant_id", "context", "source", "attribute", "group", "style",
                 "note", "error", "request_key"])
    ctx.write_table("notes", notes)
    jrows = _judgment_rows(st)
    judgments = pd.DataFrame(jrows)
    if judgments.empty:
        judgments = pd.DataFrame(columns=["item_id", "judge", "status", "judge_model", "case_id", "context",
                                          "source", "group", "model", "dataset", "label", "incidence"])
    judgments["judge_model"] = [jm if jm else primary for jm in judgments["judge_model"]] if len(judgments) else []
    ctx.write_table("judgments", judgments)

    paired = judgments[judgments["judge"] == "incidence"][
        ["model", "judge_model", "dataset", "context", "source", "attribute", "case_id", "group", "variant_id",
         "status", "incidence"]].copy() if len(judgments) else pd.DataFrame(
        columns=["model", "judge_model", "dataset", "context", "source", "attribute", "case_id", "group",
                 "variant_id", "status", "incidence"])
    paired["incidence"] = pd.to_numeric(paired["incidence"], errors="coerce")
    ctx.write_table("paired", paired)

    agreement = None
    if params.human_labels:
        path = human_labels_path(params.human_labels, ctx.base_dir)
        agreement = judge_agreement(judgments, load_human_labels(path))
        ctx.write_table("judge_agreement", agreement)
    reliability, rel_text = judge_reliability(judgments, agreement) if len(judgments) else (pd.DataFrame(), {})
    ctx.write_table("judge_reliability", or_empty(reliability, RELIABILITY_COLUMNS))

    inc_rel = rel_text.get(f"incidence|{primary}", "reliability unknown (no human labels)")
    incidence, rates, rows = incidence_metrics(paired, params, seed, primary, inc_rel) if len(paired) else (
        pd.DataFrame(), pd.DataFrame(), [])
    ctx.write_table("incidence", or_empty(incidence, INCIDENCE_COLUMNS))
    ctx.write_table("incidence_rates", or_empty(rates, RATE_COLUMNS))
    disp_df = judgments[judgments["judge"] == "language_disparity"].rename(columns={"label": "decision"}) \
        if len(judgments) else pd.DataFrame()
    dis_rel = rel_text.get(f"language_disparity|{primary}", "reliability unknown (no human labels)")
    disparity, drows = disparity_metrics(disp_df, params, seed, primary, dis_rel)
    ctx.write_table("language_disparity", or_empty(disparity, DISPARITY_COLUMNS))

    res = results_frame(rows + drows)
    if len(res) and (res["metric"] == "ΔCF").any():
        # ΔBL rows come corrected from the paired layer (family: the values of one cell); ΔCF's family
        # is the contexts × sources of one model × dataset × attribute
        dcf = res["metric"] == "ΔCF"
        corrected = apply_correction(res[dcf], family_cols=["model", "dataset", "attribute"], family="ΔCF",
                                     method=params.correction)
        res.loc[dcf, ["p_adj", "correction", "family"]] = corrected[["p_adj", "correction", "family"]].to_numpy()
    jr = []
    for r in reliability.to_dict("records") if len(reliability) else []:
        jr.append(dict(audit=AUDIT, metric="judge_parse_rate%", group=r["judge"], value=r["parse_rate%"], n=r["n"],
                       test="descriptive", judge_model=r["judge_model"], judge_reliability=r["reliability"]))
    if agreement is not None:
        for r in agreement.to_dict("records"):
            jr.append(dict(audit=AUDIT, metric="judge_agreement%", group=f"{r['judge']}:{r['field']}",
                           value=r["percent_agreement"], n=r["n"], test="percent agreement vs human labels",
                           judge_model=r["judge_model"], judge_reliability=r["reliability"]))
            jr.append(dict(audit=AUDIT, metric="judge_kappa", group=f"{r['judge']}:{r['field']}", value=r["kappa"],
                           n=r["n"], test="cohens_kappa", statistic=r["kappa"], note=r["kappa_note"],
                           judge_model=r["judge_model"], judge_reliability=r["reliability"]))
    if jr:
        res = results_frame(list(res.to_dict("records")) + jr)
    ctx.write_table("results", res)
    shifts = res[res["metric"] == "ΔBL"].rename(columns=SHIFT_RENAME) if len(res) else pd.DataFrame()
    ctx.write_table("incidence_shifts", shifts.reindex(columns=SHIFT_COLUMNS) if len(shifts) else
                    pd.DataFrame(columns=SHIFT_COLUMNS))

    exports: dict[str, list[str]] = {}
    paper = paper_tables(incidence, disparity, params, list(params.contexts))
    from ...export import write_exports

    for name, (table, caption) in paper.items():
        rel = dis_rel if "language_disparity" in name else inc_rel
        cap = f"{caption}. Judge {primary}: {rel}."
        ctx.write_table(name, table.reset_index().pipe(flat))
        paths = write_exports(table, ctx.rundir.path / "exports", name, formats=params.export_formats,
                              caption=cap, label=f"tab:{name}", index=True)
        exports[name] = [str(p.relative_to(ctx.rundir.path)) for p in paths.values()]

    rates_parse = {p.judge: f"{100 * p.rate:.0f}% (n={p.n})" for p in parse_rate([j for _, _, j in st.judgments]
                                                                                  + [j for _, j in st.disparity])}
    return {
        "dialogs_loaded": len(prep.cases) + len(prep.excluded),
        "dialogs_excluded": len(prep.excluded),
        "dialogs_excluded_by_rule": dict(Counter(e["rule"] for e in prep.excluded)),
        "dialogs_excluded_residual_identifiers": int(n_resid.get("excluded", 0)),
        "dialogs_kept_with_residual_identifiers": int(n_resid.get("kept", 0)),
        "dialogs_audited": len(prep.cases),
        "in_context_example": prep.example_id,
        "augmentations_accepted": len(st.aug_variants),
        "augmentations_rejected": len(st.rejections),
        "rejection_reasons": dict(Counter(r.reason for r in st.rejections)),
        "counterfactual_variants": len(st.cf_variants),
        "notes": len(st.note_resps),
        "note_errors": int(sum(r.error is not None for r in st.note_resps)),
        "judge_parse_rate": rates_parse,
        "judge_reliability": inc_rel,
        "language_disparity_judged": len(st.disparity),
        "exports": exports,
    }



# --------------------------------------------------------------------------- estimate


def estimate(ctx: AuditContext) -> Estimate:
    """Calls per model before running (no model calls; cached calls found in the run's cache).

    Exact for augmentation (first attempts). Notes, incidence judgments and the
    language-disparity judge depend on earlier outputs: where those are cached the
    count is exact, otherwise it is an upper bound (every augmentation accepted, every
    dialog judged for language disparity). Retries of unparseable outputs come on top.
    """
    params: NoteGenerationParams = ctx.params  # type: ignore[assignment]
    rec = _Recorder(ctx.runner, dry=True)
    st = _pipeline(ctx, params, rec)
    est = Estimate()
    for model, keys in rec.first_keys.items():
        est.calls[model] = est.calls.get(model, 0) + len(keys)
    for model, keys in rec.hit_keys.items():
        est.cached[model] = len(keys)
    for key, n in st.unknown.items():
        if len(key) == 2:
            est.calls[key[1]] = est.calls.get(key[1], 0) + n
    est.notes.append(
        f"{len(st.prepared.cases)} dialogs after de-identification, the turn filter and the residual-identifier "
        f"check ({len(st.prepared.excluded)} excluded); augmentation calls exact (first attempts), later stages exact "
        "where earlier outputs are cached, else upper bounds (all augmentations accepted, every dialog judged for "
        "language disparity); judge/augmentation retries come on top.")
    return est


# --------------------------------------------------------------------------- demo


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
