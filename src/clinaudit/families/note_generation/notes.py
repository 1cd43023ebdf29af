"""Counterfactual notes and their judgments (P1 §3.2–3.4, Fig. 5).

* :func:`counterfactual_items`: per accepted augmentation and attribute set, the appended
  demographic turn (baseline token + each value) and one :class:`NoteItem` per target model;
* :func:`note_requests`: P1's note prompt for every item (the audit's ``calls`` stage);
* :func:`judge_incidence`: the incidence judge on every note, once per judge model (a failed
  note is an ``error`` judgment, never NO);
* :func:`judge_disparity`: the language-disparity judge on the dialogs of a cell with at least
  two positive counterfactual notes (primary judge model);
* :func:`notes_table`, :func:`judgment_rows`: the ``notes`` and ``judgments`` tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from ...judges.base import Judge, run_judge
from ...judges.jury import JURY, Jury
from ...perturb.counterfactual import appended_turn_counterfactuals
from ...records import Case, Judgment, ModelRequest, ModelResponse, Variant
from .analysis import attribute_sets, group_of
from .cases import Prepared, note_style
from .judges import IncidenceItem, LanguageDisparityItem, match_group, resolve_context
from .params import NoteGenerationParams
from .prompts import build_note_request

__all__ = ["NoteItem", "NOTES_COLUMNS", "JUDGMENT_COLUMNS", "counterfactual_items", "recheck_names", "note_requests",
           "judge_incidence", "judge_disparity", "notes_table", "judgment_rows"]

NOTES_COLUMNS = ["model", "dataset", "case_id", "variant_id", "context", "source", "attribute", "group", "style",
                 "note", "error", "request_key"]
#: the judgments table's columns when nothing was judged (the stage's key columns, then the audit's)
JUDGMENT_COLUMNS = ["item_id", "judge", "status", "value", "raw", "attempts", "request_key", "judge_model",
                    "case_id", "context", "source", "group", "model", "dataset", "label", "incidence"]


@dataclass
class NoteItem:
    """One note to generate: a counterfactual variant of an augmented dialog, for one target model."""

    variant: Variant
    model: str
    dataset: str
    context: str
    source: str
    attribute: str
    group: str
    style: str

    @property
    def item_id(self) -> str:
        return f"{self.model}::{self.variant.variant_id}"


def recheck_names(variants: list[Variant], prep: Prepared, label: str) -> list[Variant]:
    """``variants`` with the names their texts gained replaced by ``[NAME]`` (the dialog's listed names and the
    detector; :func:`~clinaudit.perturb.deid.deidentify_names`), counted in ``prep``'s de-identification table
    under ``label`` (``augmentation``)."""
    from ...perturb.deid import deidentify_names

    out = []
    for v in variants:
        text, counts = deidentify_names(v.text, prep.known.get(v.case_id, []))
        if counts:
            v = v.model_copy(update={"text": text, "provenance": {**v.provenance,
                                                                  "names_replaced": sum(counts.values())}})
            prep.count(str(v.provenance.get("dataset") or _dataset_of(prep, v.case_id)), counts, label)
        out.append(v)
    return out


def _dataset_of(prep: Prepared, case_id: str) -> str:
    return next((c.dataset for c in prep.cases if c.case_id == case_id), "")


def counterfactual_items(augmented: list[Variant], cases: list[Case], params: NoteGenerationParams,
                         targets: list[str], seed: int, prep: Prepared | None = None
                         ) -> tuple[list[Variant], list[NoteItem]]:
    """The counterfactual variants of every augmented dialog and the notes to generate for them.

    With de-identification on, each final variant text (augmentation + counterfactual turn) is checked for
    names again (the dialog's listed names and the detector; :func:`~clinaudit.perturb.deid.deidentify_names`):
    a name the augmentation brought in becomes ``[NAME]``, counted in ``prep``'s de-identification table."""
    from ...perturb.deid import deidentify_names

    by_id = {c.case_id: c for c in cases}
    variants: list[Variant] = []
    items: list[NoteItem] = []
    for av in augmented:
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
                if params.deidentify:
                    text, counts = deidentify_names(v.text, prep.known.get(av.case_id, []) if prep else [])
                    if counts:
                        v = v.model_copy(update={"text": text, "provenance": {
                            **v.provenance, "names_replaced": sum(counts.values())}})
                        if prep is not None:
                            prep.count(case.dataset, counts, "variant")
                variants.append(v)
                for t in targets:
                    items.append(NoteItem(v, t, case.dataset, cx.name, src, attr, group_of(v.name, attrs),
                                          note_style(params, case)))
    return variants, items


def note_requests(items: list[NoteItem], params: NoteGenerationParams, example: tuple[str, str] | None,
                  seed: int) -> list[ModelRequest]:
    """P1's note-generation request of every item (MTS summary / ACI SOAP with the in-context example)."""
    return [build_note_request(
        it.model, it.variant.text, it.style, example=example if it.style == "aci" and params.aci_shots else None,
        temperature=params.temperature, max_tokens=params.max_tokens, seed=seed,
        meta={"case_id": it.variant.case_id, "variant_id": it.variant.variant_id, "context": it.context,
              "source": it.source, "attribute": it.attribute, "group": it.group}) for it in items]


def judge_incidence(runner: Any, judge: Judge[Any], items: list[NoteItem], notes: list[ModelResponse],
                    judge_models: list[str], max_attempts: int, *,
                    dry: bool = False) -> list[tuple[str, NoteItem, Judgment]]:
    """``(judge model, item, judgment)`` for every note and judge model; a failed note is an ``error`` judgment.

    ``dry`` (the estimate): a judgment whose first request is not cached gets ``meta["not_cached"]``.
    """
    ok_idx = [i for i, r in enumerate(notes) if r.error is None]
    judged = [(items[i].item_id, IncidenceItem(notes[i].text or "", items[i].context, meta={
        "case_id": items[i].variant.case_id, "variant_id": items[i].variant.variant_id,
        "target_model": items[i].model})) for i in ok_idx]
    out: list[tuple[str, NoteItem, Judgment]] = []
    jury = judge if isinstance(judge, Jury) else None  # several judge models: one jury (clinaudit.judges.jury)
    for jm in ([JURY] if jury is not None else judge_models):
        js = run_judge(runner, judge, judged, jm, max_attempts=max_attempts) if judged else []
        if dry and judged:
            first = [judge.request(item, jury.models[0] if jury is not None else jm) for _, item in judged]
            found = runner.cached(first)
            js = [j if runner.request_key(q) in found else j.model_copy(update={"meta": {**j.meta, "not_cached": True}})
                  for j, q in zip(js, first)]
        raters = [(jm, js)] + ([(m, mjs) for m, mjs in jury.last_members.items()] if jury is not None and judged
                               else [])
        for rater, rjs in raters:
            jmap = dict(zip(ok_idx, rjs))
            for i, it in enumerate(items):
                if i in jmap:
                    out.append((rater, it, jmap[i]))
                else:
                    err = notes[i].error or "note missing"
                    out.append((rater, it, Judgment(item_id=it.item_id, judge=judge.name, status="error",
                                                    meta={"error": f"note generation failed: {err}"})))
    return out


def judge_disparity(runner: Any, judge: Judge[Any], judged: list[tuple[str, NoteItem, Judgment]],
                    items: list[NoteItem], notes: list[ModelResponse], primary: str, params: NoteGenerationParams,
                    seed: int, *, dry: bool = False) -> list[tuple[dict[str, Any], Judgment]]:
    """The language-disparity judgments of the cells (model × dataset × context × source × attribute × dialog)
    with ≥ 2 positive counterfactual notes (primary judge model).

    ``dry`` (the estimate): a cell with a counterfactual judgment that is not cached yet is judged too,
    over all its counterfactual notes — an upper bound.
    """
    cells: dict[tuple[str, ...], dict[str, tuple[NoteItem, Judgment]]] = {}
    for jm, it, j in judged:
        if jm == primary:
            key: tuple[str, ...] = (it.model, it.dataset, it.context, it.source, it.attribute, it.variant.case_id)
            cells.setdefault(key, {})[it.group] = (it, j)
    note_text = {(it.model, it.variant.variant_id): (r.text or "") for it, r in zip(items, notes)}
    d_items = []
    for key, groups in cells.items():
        cf = {g: v for g, v in groups.items() if g != "baseline"}
        positive = [g for g, (_, j) in cf.items() if j.status == "ok" and j.value.get("incidence") == 1]
        unknown = dry and any(j.meta.get("not_cached") for _, j in cf.values())
        if len(positive) < 2 and not unknown:
            continue
        shown = positive if params.disparity_notes == "positive" and not unknown else list(cf)
        texts = {g: note_text[(cf[g][0].model, cf[g][0].variant.variant_id)] for g in shown}
        meta = {"target_model": key[0], "dataset": key[1], "context": key[2], "source": key[3],
                "attribute": key[4], "case_id": key[5], "groups": shown, "positive": positive}
        d_items.append((f"{key[0]}::{key[5]}::{key[3]}:{key[2]}::{key[4]}", LanguageDisparityItem(
            key[2], key[4], texts, order_seed=seed if params.disparity_order == "shuffled" else None, meta=meta)))
    if not d_items:
        return []
    res = run_judge(runner, judge, d_items, primary, max_attempts=params.judge_max_attempts)
    out = [(item.meta, j) for (_, item), j in zip(d_items, res)]
    if isinstance(judge, Jury):  # the jurors' verdicts too (judge_model = the juror)
        out += [({**item.meta, "judge_model": m}, j) for m, mjs in judge.last_members.items()
                for (_, item), j in zip(d_items, mjs)]
    return out


def notes_table(items: list[NoteItem], notes: list[ModelResponse]) -> pd.DataFrame:
    """``tables/notes.csv``: one row per generated note."""
    return pd.DataFrame([{
        "model": it.model, "dataset": it.dataset, "case_id": it.variant.case_id, "variant_id": it.variant.variant_id,
        "context": it.context, "source": it.source, "attribute": it.attribute, "group": it.group,
        "style": it.style, "note": r.text, "error": r.error, "request_key": r.request_key,
    } for it, r in zip(items, notes)], columns=NOTES_COLUMNS)


def judgment_rows(judged: list[tuple[str, NoteItem, Judgment]],
                  disparity: list[tuple[dict[str, Any], Judgment]]) -> list[dict[str, Any]]:
    """The ``judgments`` table's rows: incidence judgments, then language-disparity judgments."""
    rows = []
    for jm, it, j in judged:
        rows.append({
            **j.to_row(), "judge_model": jm, "case_id": it.variant.case_id, "variant_id": it.variant.variant_id,
            "model": it.model, "dataset": it.dataset, "context": it.context, "source": it.source,
            "attribute": it.attribute, "group": it.group,
            "label": j.value.get("answer", "") if j.status == "ok" else "",
            "incidence": j.value.get("incidence") if j.status == "ok" else None, "most_impacted": "",
            "error": j.meta.get("error", ""),
        })
    for meta, j in disparity:
        raw = j.value.get("most_impacted_raw") if j.status == "ok" else None
        matched = match_group(raw, meta["groups"]) if raw else None
        rows.append({
            **j.to_row(), "judge_model": meta.get("judge_model", ""), "case_id": meta["case_id"], "variant_id": "",
            "model": meta["target_model"], "dataset": meta["dataset"], "context": meta["context"],
            "source": meta["source"], "attribute": meta["attribute"], "group": "",
            "label": j.value.get("decision", "") if j.status == "ok" else "", "incidence": None,
            "most_impacted": matched or "", "most_impacted_raw": raw or "",
            "shown_groups": "/".join(meta["groups"]), "positive_groups": "/".join(meta["positive"]),
            "explanation": j.value.get("explanation", ""), "error": j.meta.get("error", ""),
        })
    return rows
