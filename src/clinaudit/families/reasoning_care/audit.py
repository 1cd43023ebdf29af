"""Reasoning audit CARE / MedFair-CF (P3; METHODS §1.3–1.4, §3, §4.3).

Pipeline (one call of :func:`run`):

1. **cases** - multiple-choice vignettes (``craftmd`` format or any format whose
   cases carry ``fields["choices"]`` and ``fields["answer_letter"]`` / ``fields["answer"]``);
   specialty by keyword (:mod:`.specialty`); cases with sex-specific conditions removed
   (:func:`~clinaudit.perturb.filter_sex_specific`);
2. **variants** - the neutralized text prefixed four ways: ``[Patient is male]``,
   ``[Patient is female]``, ``[Patient ID: 001]``, ``[Patient ID: 002]``
   (:func:`~clinaudit.perturb.care_quadruplet`);
3. **answers** - every target model answers every variant with the Fig. 8 protocol
   (``<think>`` / ``<answer>``, greedy), parsed strictly and tolerantly
   (:mod:`.mcq`);
4. **paired metrics** - accuracy per arm, ΔAcc = Acc(male) − Acc(female) overall and per
   specialty, ΔLen, semantic drift δ for the male/female pair (Γ_gender) and the ID1/ID2
   pair (Γ_control) with the embedder, rethink ratios in the reasoning language; every
   gap and drift goes through the paired-statistics layer with case = vignette
   (:mod:`.stats`): drift in excess of the control floor (one-sided), Cohen's
   d beside it; signed gaps against 0 or the control pair's gap (``gap_floor``);
   case-resampled CIs, sign-flip tests over vignettes, declared families;
5. **failure-mode filter** - items with Γ_gender > ``drift_threshold`` go to the judge:
   Phase I (Fig. 9) on the full responses, Phase II (Fig. 10) on the chains of thought
   (optionally only where Phase I rated ``bias_intensity`` ≥ ``phase2_min_intensity``),
   order randomized per item and mapped back (:mod:`.judges`);
6. **direction of bias** - share of Female-/Male-leaning/Tie verdicts per dimension with
   bootstrap CIs and the sign-flip test over judged vignettes (+1 / −1 / 0: the exact sign
   test, ties excluded), bias-intensity distribution, judge parse rates.

Tables: ``cases``, ``exclusions``, ``variants``, ``responses``, ``judgments``, ``paired``, ``results``
(tidy, :data:`~clinaudit.results.RESULT_COLUMNS`) and the paper-shaped ``care_table1``,
``care_table3``, ``care_drift``, ``care_drift_values``, ``care_length``,
``care_rethink``, ``care_direction``, ``care_intensity``, ``care_items`` (per-item
export with both CoTs and the judge's quoted evidence). See ``docs/audits/reasoning_care.md``.
"""


from __future__ import annotations

import logging
import math
from typing import Any

import numpy as np
import pandas as pd

from ...records import Judgment, ModelRequest, ModelResponse, canonical_json, to_frame
from ...spec import AuditContext, Estimate, register_audit
from .cases import Prepared, exclusions_table, prepare
from .params import ARMS, AUDIT, CareParams

__all__ = ["run", "estimate", "demo_spec"]

log = logging.getLogger("clinaudit.families.reasoning_care")

# --------------------------------------------------------------------------- estimate


def estimate(ctx: AuditContext) -> Estimate:
    """Calls per model before anything runs (answers exact; embeddings and judge calls upper bounds)."""
    p: CareParams = ctx.params  # type: ignore[assignment]
    prep = prepare(ctx)
    est = Estimate()
    keys_by_model: dict[str, list[str]] = {}
    for req in prep.requests:
        keys_by_model.setdefault(req.model, []).append(ctx.runner.request_key(req))
        est.prompt_tokens[req.model] = est.prompt_tokens.get(req.model, 0) + len(req.prompt_text().split())
    cache = ctx.runner.cache
    for model, keys in keys_by_model.items():
        est.calls[model] = est.calls.get(model, 0) + len(keys)
        est.cached[model] = est.cached.get(model, 0) + (len(cache.get_many(keys)) if cache is not None else 0)
    embedder = ctx.model("embedder", "embedded-embedder")
    est.calls[embedder] = est.calls.get(embedder, 0) + len(prep.requests)
    est.notes.append(f"{embedder}: up to {len(prep.requests)} texts embedded (fewer when responses repeat; cached per text)")
    phases = int(p.phase1) + int(p.phase2)
    if phases:
        judge = ctx.model("judge")
        per_model = len(prep.items) if p.max_judged_items is None else min(len(prep.items), p.max_judged_items)
        upper = phases * per_model * len(prep.targets)
        est.calls[judge] = est.calls.get(judge, 0) + upper
        est.notes.append(
            f"{judge}: at most {upper} judge calls (only items with gender drift > {p.drift_threshold} are judged), "
            f"each retried up to {p.judge_max_attempts - 1} more time(s) when its output is malformed"
        )
    est.notes.extend(prep.notes)
    excluded = int((prep.cases_df["status"] == "excluded").sum())
    est.notes.append(f"{len(prep.items)} cases kept, {excluded} excluded by the filters")
    return est


# --------------------------------------------------------------------------- helpers


def _length_fn(ctx: AuditContext, model: str, unit: str, language: str = "en") -> tuple[Any, str]:
    from .metrics import CJK_LANGUAGES, normalize_language
    from ...models.base import Backend

    cjk = normalize_language(language)[0] in CJK_LANGUAGES
    # CJK text has no spaces between words: count non-space characters instead of whitespace words
    words, words_label = ((lambda t: len("".join(t.split()))), "characters (CJK, no spaces between words)") if cjk \
        else ((lambda t: len(t.split())), "whitespace words")
    if unit == "words":
        return words, words_label
    backend = ctx.runner.backend(model)
    if type(backend).count_tokens is Backend.count_tokens:
        return words, f"{words_label} ({backend.name} backend has no tokenizer)"
    return backend.count_tokens, f"tokens ({backend.name} tokenizer)"


def _response_row(stage: str, req: ModelRequest, resp: ModelResponse | None, key: str, **extra: Any) -> dict[str, Any]:
    return {
        "stage": stage,
        "request_key": key,
        "model": req.model,
        **extra,
        "messages": canonical_json([m.model_dump() for m in req.messages]),
        "prompt": req.prompt_text(),
        "temperature": req.temperature,
        "max_tokens": req.max_tokens,
        "seed": req.seed,
        "extra": canonical_json(req.extra),
        "text": None if resp is None else resp.text,
        "error": None if resp is None else resp.error,
        "prompt_tokens": None if resp is None else resp.prompt_tokens,
        "completion_tokens": None if resp is None else resp.completion_tokens,
        "finish_reason": None if resp is None else resp.finish_reason,
        "cached": None if resp is None else resp.cached,
        "latency_s": None if resp is None else resp.latency_s,
    }


def _judge_response_rows(ctx: AuditContext, judge: Any, items: list[tuple[str, Any]], judgments: list[Judgment],
                         model: str, meta: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One ``responses`` row per judge call actually made (every attempt), rebuilt from the requests."""
    from ...judges.base import retry_request

    rows = []
    reqs: list[tuple[int, str, ModelRequest]] = []
    for (item_id, item), j in zip(items, judgments):
        base = judge.build(item, model)
        for attempt in range(j.attempts):
            reqs.append((attempt, item_id, retry_request(base, attempt)))
    keys = [ctx.runner.request_key(r) for _, _, r in reqs]
    found = ctx.runner.cache.get_many(keys) if ctx.runner.cache is not None else {}
    by_item = {j.item_id: j for j in judgments}
    for (attempt, item_id, req), key in zip(reqs, keys):
        resp = found.get(key)
        j = by_item[item_id]
        if resp is None and attempt == j.attempts - 1:  # failed call (never cached): keep what the judgment saw
            resp = ModelResponse(request_key=key, model=model, text=j.raw, error=j.meta.get("error") or None)
        rows.append(_response_row(f"judge:{judge.phase}", req, resp, key, item_id=item_id, attempt=attempt,
                                  **meta[item_id]))
    return rows


# --------------------------------------------------------------------------- run


@register_audit(AUDIT, summary="CARE reasoning audit (P3): gender quadruplets, ΔAcc/ΔLen, semantic drift vs a "
                "control noise floor, two-stage CoT audit", params_model=CareParams, estimate=estimate)
def run(ctx: AuditContext) -> dict[str, Any]:
    """Run the whole audit and write its tables (see the module docstring)."""
    from ...judges.base import apply_parser, parse_rate
    from .judges import CoTPair, PhaseIIJudge, PhaseIJudge, male_first, run_cot_audit
    from .mcq import MCQAnswerParser, format_options, parse_mcq
    from .metrics import RETHINK_LEXICONS, normalize_language, rethink_ratio, semantic_drift

    p: CareParams = ctx.params  # type: ignore[assignment]
    seed = ctx.spec.seed
    prep = prepare(ctx)
    embedder = ctx.model("embedder", "embedded-embedder")
    lang = normalize_language(p.language)[0]
    cues: tuple[str, ...] | None = tuple(p.rethink_cues) if p.rethink_cues else RETHINK_LEXICONS.get(lang)
    ctx.write_table("cases", prep.cases_df)
    ctx.write_table("exclusions", exclusions_table(prep.cases_df))
    ctx.write_table("variants", to_frame([v for it in prep.items for v in it.variants.values()]))

    # ---- answers ---------------------------------------------------------------------------
    resps = ctx.runner.generate(prep.requests, desc="CARE answers")
    response_rows: list[dict[str, Any]] = []
    answer_judgments: list[Judgment] = []
    ans: dict[tuple[str, str, str], dict[str, Any]] = {}
    units: dict[str, str] = {}
    item_by_id = {it.case.case_id: it for it in prep.items}
    length_fns = {}
    for m in prep.targets:
        length_fns[m], units[m] = _length_fn(ctx, m, p.length_unit, lang)
    for req, resp in zip(prep.requests, resps):
        cid, arm = req.meta["case_id"], req.meta["arm"]
        it = item_by_id[cid]
        response_rows.append(_response_row("answer", req, resp, resp.request_key, case_id=cid, arm=arm,
                                           variant_id=req.meta["variant_id"]))
        text = resp.text if resp.error is None else None
        parsed = parse_mcq(text, it.choices) if text is not None else None
        letter = None if parsed is None else (parsed.strict_letter if p.answer_parser == "strict" else parsed.letter)
        if text is None or it.gold is None:
            correct = math.nan
        elif letter is None:
            correct = 0.0 if p.unparseable_as_wrong else math.nan
        else:
            correct = float(letter == it.gold)
        think = parsed.think if parsed is not None else None
        len_src = think if p.length_of == "think" else text
        ans[(req.model, cid, arm)] = {
            "text": text, "letter": letter, "strict": None if parsed is None else parsed.strict_letter,
            "tolerant": None if parsed is None else parsed.letter, "method": "error" if parsed is None else parsed.method,
            "correct": correct, "think": think,
            "length": float(length_fns[req.model](len_src)) if len_src is not None else math.nan,
            "rethink": rethink_ratio(think, cues, lang) if think is not None and cues is not None else math.nan,
            "error": resp.error,
        }
        item_id = f"{req.model}::{cid}::{arm}"
        if text is None:
            answer_judgments.append(Judgment(item_id=item_id, judge=f"mcq_answer:{arm}", status="error",
                                             request_key=resp.request_key, meta={"error": resp.error or ""}))
        else:
            j = apply_parser(MCQAnswerParser(it.choices, p.answer_parser), [(item_id, text)])[0]
            j = j.model_copy(update={"judge": f"mcq_answer:{arm}", "request_key": resp.request_key})
            answer_judgments.append(j)

    # ---- embeddings and drift ---------------------------------------------------------------
    emb_texts: list[str] = []
    emb_index: dict[tuple[str, str, str], int] = {}
    for key, a in ans.items():
        src = a["think"] if p.drift_of == "think" else a["text"]
        if src is not None:
            emb_index[key] = len(emb_texts)
            emb_texts.append(src)
    vectors = ctx.runner.embed(embedder, emb_texts, desc="CARE embeddings") if emb_texts else np.zeros((0, 1))

    def drift(m: str, cid: str, a1: str, a2: str) -> float:
        i, j = emb_index.get((m, cid, a1)), emb_index.get((m, cid, a2))
        if i is None or j is None:
            return math.nan
        return float(semantic_drift(vectors[i], vectors[j])[0])

    # ---- paired table -------------------------------------------------------------------------
    paired_rows = []
    for m in prep.targets:
        for it in prep.items:
            cid = it.case.case_id
            row: dict[str, Any] = {"model": m, "case_id": cid, "specialty": it.specialty, "gold": it.gold}
            for arm in ARMS:
                a = ans[(m, cid, arm)]
                row[f"answer_{arm}"] = a["letter"]
                row[f"strict_{arm}"] = a["strict"]
                row[f"tolerant_{arm}"] = a["tolerant"]
                row[f"method_{arm}"] = a["method"]
                row[f"correct_{arm}"] = a["correct"]
                row[f"len_{arm}"] = a["length"]
            row["delta_len"] = row["len_male"] - row["len_female"]
            row["delta_len_control"] = row["len_id1"] - row["len_id2"]
            row["drift_gender"] = drift(m, cid, "male", "female")
            row["drift_control"] = drift(m, cid, "id1", "id2")
            for arm in ARMS:
                row[f"rethink_{arm}"] = ans[(m, cid, arm)]["rethink"]
            row["failure_mode"] = bool(row["drift_gender"] > p.drift_threshold) if not math.isnan(
                row["drift_gender"]) else False
            row["length_unit"] = units[m]
            paired_rows.append(row)
    paired = pd.DataFrame(paired_rows)

    # ---- CoT audit on the failure-mode items ----------------------------------------------------
    judge_model = ctx.model("judge") if (p.phase1 or p.phase2) else None
    judge_kw = {"max_tokens": p.judge_max_tokens, "seed": seed}
    cot_judgments: list[Judgment] = []
    p1: dict[str, Judgment] = {}
    p2: dict[str, Judgment] = {}
    judged_ids: dict[str, list[str]] = {}
    for m in prep.targets:
        sub = paired[(paired["model"] == m) & paired["failure_mode"]].sort_values(
            ["drift_gender", "case_id"], ascending=[False, True], kind="mergesort")
        ids = list(sub["case_id"])
        if p.max_judged_items is not None:
            ids = ids[: p.max_judged_items]
        judged_ids[m] = ids
    if judge_model is not None:
        case_info = {it.case.case_id: f"{it.body}\n{format_options(it.choices)}" for it in prep.items}

        def order(item_id: str, phase: str) -> bool:
            return male_first(item_id, seed, phase) if p.randomize_order else True

        def meta_of(item_id: str) -> dict[str, Any]:
            tm, _, cid = item_id.partition("::")
            return {"target_model": tm, "case_id": cid}

        if p.phase1:
            judge1 = PhaseIJudge(p.judge_labels, **judge_kw)
            items1 = []
            for m in prep.targets:
                for cid in judged_ids[m]:
                    iid = f"{m}::{cid}"
                    items1.append((iid, CoTPair(case_info[cid], ans[(m, cid, "male")]["text"] or "",
                                                ans[(m, cid, "female")]["text"] or "", order(iid, "phase1"))))
            js = run_cot_audit(ctx.runner, judge1, items1, judge_model, max_attempts=p.judge_max_attempts)
            p1 = {j.item_id: j for j in js}
            cot_judgments.extend(js)
            response_rows.extend(_judge_response_rows(ctx, judge1, items1, js, judge_model,
                                                      {iid: meta_of(iid) for iid, _ in items1}))
        if p.phase2:
            judge2 = PhaseIIJudge(p.judge_labels, **judge_kw)
            items2 = []
            for m in prep.targets:
                for cid in judged_ids[m]:
                    iid = f"{m}::{cid}"
                    if p.phase2_min_intensity is not None:
                        j1 = p1.get(iid)
                        if j1 is None or j1.status != "ok" or j1.value["bias_intensity"] < p.phase2_min_intensity:
                            continue
                    items2.append((iid, CoTPair(case_info[cid], ans[(m, cid, "male")]["think"] or "",
                                                ans[(m, cid, "female")]["think"] or "", order(iid, "phase2"))))
            js = run_cot_audit(ctx.runner, judge2, items2, judge_model, max_attempts=p.judge_max_attempts)
            p2 = {j.item_id: j for j in js}
            cot_judgments.extend(js)
            response_rows.extend(_judge_response_rows(ctx, judge2, items2, js, judge_model,
                                                      {iid: meta_of(iid) for iid, _ in items2}))

    # ---- stage tables ---------------------------------------------------------------------------
    ctx.write_table("responses", pd.DataFrame(response_rows))
    jdf = to_frame(answer_judgments + cot_judgments)
    if len(jdf):
        parts = jdf["item_id"].str.split("::")
        jdf.insert(1, "target_model", parts.str[0])
        jdf.insert(2, "case_id", parts.str[1])
    ctx.write_table("judgments", jdf)
    ctx.write_table("paired", paired)

    # ---- statistics -------------------------------------------------------------------------------
    from .stats import statistics

    tables = statistics(p, seed, prep.targets, paired, units, p1, p2, judged_ids)
    for name, df in tables.items():
        ctx.write_table(name, df)

    # ---- per-item export ---------------------------------------------------------------------------
    ctx.write_table("care_items", _items_export(prep, paired, ans, p1, p2))

    rates = {r.judge: {"n": r.n, "ok": r.ok, "unparseable": r.unparseable, "error": r.error}
             for r in parse_rate(answer_judgments + cot_judgments)}
    drift_tab = tables["care_drift"]
    summary = {
        "cases_loaded": int(len(prep.cases_df)),
        "cases_kept": len(prep.items),
        "cases_excluded": int((prep.cases_df["status"] == "excluded").sum()),
        "targets": prep.targets,
        "embedder": embedder,
        "judge": judge_model,
        "judged_items": {m: len(v) for m, v in judged_ids.items()},
        "cohens_d": {r["model"]: r["cohens_d"] for r in drift_tab.to_dict("records")},
        "drift_excess": {r["model"]: {"excess": r["excess"], "floor": r["floor"], "ci": [r["ci_low"], r["ci_high"]],
                                      "p": r["p"], "p_adj": r["p_adj"], "n_cases": r["n_cases"]}
                         for r in drift_tab.to_dict("records")},
        "parse_rates": rates,
        "language": {"code": lang, "name": normalize_language(p.language)[1],
                     "rethink_cues": "params.rethink_cues" if p.rethink_cues else
                     (f"built-in {lang}" if lang in RETHINK_LEXICONS else "none: rethink ratios not computed")},
        "notes": prep.notes,
        "warnings": [n for n in prep.notes if n.startswith("WARNING")],
    }
    return summary


def _items_export(prep: Prepared, paired: pd.DataFrame, ans: dict[tuple[str, str, str], dict[str, Any]],
                  p1: dict[str, Judgment], p2: dict[str, Judgment]) -> pd.DataFrame:
    from .judges import PHASE1_DIMENSIONS, PHASE2_DIMENSIONS

    rows = []
    for rec in paired.to_dict("records"):
        m, cid = rec["model"], rec["case_id"]
        iid = f"{m}::{cid}"
        row: dict[str, Any] = {k: rec[k] for k in ("model", "case_id", "specialty", "gold", "drift_gender",
                                                   "drift_control", "failure_mode", "delta_len")}
        for arm in ARMS:
            row[f"answer_{arm}"] = rec[f"answer_{arm}"]
            row[f"correct_{arm}"] = rec[f"correct_{arm}"]
        for arm in ("male", "female"):
            row[f"response_{arm}"] = ans[(m, cid, arm)]["text"]
            row[f"cot_{arm}"] = ans[(m, cid, arm)]["think"]
        j1, j2 = p1.get(iid), p2.get(iid)
        row["phase1_status"] = j1.status if j1 else "not judged"
        row["phase1_order"] = j1.meta.get("order") if j1 else None
        for dim in PHASE1_DIMENSIONS:
            row[dim] = j1.value.get(dim) if j1 and j1.status == "ok" else None
        row["bias_intensity"] = j1.value.get("bias_intensity") if j1 and j1.status == "ok" else None
        row["phase1_explanation"] = j1.value.get("explanation") if j1 and j1.status == "ok" else None
        row["phase1_raw"] = j1.raw if j1 else None
        row["phase2_status"] = j2.status if j2 else "not judged"
        row["phase2_order"] = j2.meta.get("order") if j2 else None
        for dim in PHASE2_DIMENSIONS:
            row[dim] = j2.value.get(dim) if j2 and j2.status == "ok" else None
            row[f"{dim}_evidence"] = j2.value.get(f"{dim}_evidence") if j2 and j2.status == "ok" else None
        row["phase2_raw"] = j2.raw if j2 else None
        rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- demo


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
