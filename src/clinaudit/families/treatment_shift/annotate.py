"""The judgments of the treatment part: MANAGE / VISIT / RESOURCE labels and the inferred gender.

- :func:`annotate`: every target answer annotated once (identical answers share one
  annotation), by the annotator judge (``generate``; the strict and the tolerant parser
  both applied) or by log-likelihood scoring (``loglik``); one label row per answer and
  question, unparseable annotations counted as such, never as NO;
- :func:`parser_agreement`: strict vs tolerant parser per model × question;
- :func:`infer_gender`: the patient's gender inferred from the gender-removed text (P2
  Appendix D), never from the gendered baseline unless asked;
- :func:`long_labels`: the label table the analysis reads (:mod:`.labels`).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from ...judges.base import Judge, run_judge
from ...records import Case, Judgment, ModelRequest, ModelResponse, Variant
from .judges import label_table, loglik_annotation_texts
from .params import TreatmentShiftParams
from .prompts import baseline_variant, recorded_gender, user_text, validation_label

__all__ = ["annotate", "annotate_loglik", "parser_agreement", "infer_gender", "long_labels"]


def annotate(runner: Any, annotator: Judge[str] | None, responses: list[ModelResponse], reqs: list[ModelRequest],
             params: TreatmentShiftParams, judge_model: str) -> tuple[pd.DataFrame, list[Judgment]]:
    """Annotate every target answer; returns the per-question label rows and the judgments.

    ``annotator``: the judge of ``annotator_mode: generate`` (unused in ``loglik`` mode).
    """
    ok = [(r.request_key, r.text or "") for r in responses if r.error is None]
    unique = list(dict(ok).items())
    if params.annotator_mode == "loglik":
        judgments = annotate_loglik(runner, unique, judge_model, params)
    else:
        assert annotator is not None
        judgments = run_judge(runner, annotator, unique, judge_model, max_attempts=params.judge_attempts,
                              desc="annotating MANAGE/VISIT/RESOURCE") if unique else []
    by_key = {j.item_id: j for j in judgments}
    rows = []
    for req, resp in zip(reqs, responses):
        meta = req.meta
        j = by_key.get(resp.request_key) if resp.error is None else None
        status = "target_error" if resp.error is not None else (j.status if j else "error")
        text = j.raw if j is not None else None
        for r in label_table(resp.request_key, text, params.questions, status=status):
            strict, tol = r["label_strict"], r["label_tolerant"]
            if status not in ("ok", "unparseable"):
                strict = None
            used = tol if params.parser == "tolerant" else strict
            rows.append({
                "dataset": meta["dataset"], "case_id": meta["case_id"], "variant": meta["variant"],
                "model": meta["model"], "seed": meta["seed"], "question": r["question"],
                "label": math.nan if used is None else float(used),
                "label_strict": math.nan if strict is None else float(strict),
                "label_tolerant": math.nan if tol is None else float(tol),
                "strict_explicit": r["strict_explicit"], "judge_status": status,
                "response_key": resp.request_key, "judge_key": j.request_key if j else None,
                "judge_attempts": j.attempts if j else 0,
            })
    return pd.DataFrame(rows), judgments


def annotate_loglik(runner: Any, items: list[tuple[str, str]], judge_model: str,
                    params: TreatmentShiftParams) -> list[Judgment]:
    """Scoring annotator: the likelier of "<Q> [YES]" / "<Q> [NO]" under the judge model is the label."""
    if not items:
        return []
    per = [loglik_annotation_texts(text, params.questions) for _, text in items]
    texts = [t for rows in per for _, yes, no in rows for t in (yes, no)]
    ll = runner.loglik(judge_model, texts, desc="annotator log-likelihoods")
    out, k = [], 0
    for (item_id, _), rows in zip(items, per):
        value: dict[str, Any] = {}
        margins = {}
        for q, _, _ in rows:
            yes, no = float(ll[k]), float(ll[k + 1])
            k += 2
            value[q] = int(yes > no)
            margins[q] = yes - no
        raw = "\n".join(f"{q} [{'YES' if value[q] else 'NO'}]" for q in params.questions)
        out.append(Judgment(item_id=item_id, judge="treatment_annotator_loglik", status="ok",
                            value={**value, "strict": dict(value)}, raw=raw, meta={"loglik_margin": margins}))
    return out


def parser_agreement(labels: pd.DataFrame) -> pd.DataFrame:
    """Strict vs tolerant parser per model × question: disagreement and 'NO assumed' rates."""
    rows: list[dict[str, Any]] = []
    if labels.empty:
        return pd.DataFrame(rows)
    judged = labels[labels["judge_status"].isin(["ok", "unparseable"])]
    for (model, q), g in judged.groupby(["model", "question"], sort=True):
        both = g.dropna(subset=["label_strict", "label_tolerant"])
        rows.append({
            "model": model, "question": q, "n_annotations": len(g),
            "n_tolerant_parsed": int(g["label_tolerant"].notna().sum()),
            "tolerant_parse_rate": float(g["label_tolerant"].notna().mean()) if len(g) else math.nan,
            "disagreement_rate": float((both["label_strict"] != both["label_tolerant"]).mean()) if len(both) else math.nan,
            "n_compared": len(both),
            "strict_no_without_answer_rate": float(((g["label_strict"] == 0) & ~g["strict_explicit"].astype(bool)).mean())
            if len(g) else math.nan,
        })
    return pd.DataFrame(rows)


def infer_gender(runner: Any, judge: Judge[str], models: list[str], cases: list[Case], variants: list[Variant],
                 params: TreatmentShiftParams, source_name: str) -> tuple[pd.DataFrame, list[Judgment], list[str]]:
    """Model-inferred gender from each case's ``source_name`` text (``gender_removal`` or ``baseline``).

    A case without that text (its gender_removal rewrite failed or was dropped) is not
    inferred — never read from the gendered baseline instead; its id is returned.
    """
    by_case = {c.case_id: c for c in cases}
    source: dict[str, tuple[str, str]] = {}
    if source_name == "baseline":
        source = {c.case_id: ("baseline", user_text(c, baseline_variant(c), params)) for c in cases}
    for v in variants:
        if source_name != "baseline" and v.name == source_name and v.case_id in by_case:
            source[v.case_id] = (v.name, user_text(by_case[v.case_id], v, params))
    missing = [cid for cid in by_case if cid not in source]
    rows = []
    all_js = []
    for m in models:
        items = [(cid, source[cid][1]) for cid in by_case if cid in source]
        js = run_judge(runner, judge, items, m, max_attempts=params.judge_attempts, desc="inferring gender")
        all_js += js
        for j in js:
            c = by_case[j.item_id]
            rows.append({
                "dataset": c.dataset, "case_id": j.item_id, "inference_model": m,
                "applies_to": "all" if params.gender_inference_model == "judge" else m,
                "source_variant": source[j.item_id][0], "status": j.status,
                "inferred_gender": j.value.get("gender") if j.status == "ok" else None,
                "recorded_gender": recorded_gender(c, params), "raw": j.raw, "request_key": j.request_key,
            })
    return pd.DataFrame(rows), all_js, missing


def long_labels(labels: pd.DataFrame, cases_by_id: dict[str, Case], inferred: pd.DataFrame,
                params: TreatmentShiftParams, groups: dict[str, dict[str, str | None]] | None = None) -> pd.DataFrame:
    """The label table of the analysis: labels with V, recorded and inferred gender per row, and each group
    column's group (``groups``: attribute -> case id -> group, :func:`.groups.read_groups`)."""
    lab = labels[["dataset", "case_id", "variant", "model", "seed", "question", "label"]].copy()
    lab["gender"] = lab["case_id"].map(lambda c: recorded_gender(cases_by_id[c], params))
    for attr, by_case in (groups or {}).items():
        lab[attr] = lab["case_id"].map(lambda c, m=by_case: m.get(c))
    vals = [validation_label(cases_by_id[c], params, q) for c, q in zip(lab["case_id"], lab["question"])]
    lab["validation"] = [v for v, _ in vals]
    # where V came from: an invalid clinician label is listed in `exclusions` with file, row and field
    lab["validation_field"] = [f for _, f in vals]
    lab["validation_file"] = lab["case_id"].map(lambda c: cases_by_id[c].source)
    lab["validation_row"] = lab["case_id"].map(lambda c: cases_by_id[c].source_row)
    lab["inferred_gender"] = None
    if inferred is not None and len(inferred):
        if params.gender_inference_model == "judge":
            mp = dict(zip(inferred["case_id"], inferred["inferred_gender"]))
            lab["inferred_gender"] = lab["case_id"].map(mp)
        else:
            mp2 = {(c, m): g for c, m, g in zip(inferred["case_id"], inferred["applies_to"], inferred["inferred_gender"])}
            lab["inferred_gender"] = [mp2.get((c, m)) for c, m in zip(lab["case_id"], lab["model"])]
    return lab
