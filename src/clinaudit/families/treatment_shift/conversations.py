"""The conversational part: consultations per setting and perturbation, and their diagnoses judged.

:func:`run_settings` runs every target model through every setting (vignette,
single-turn, multi-turn, summarized; :func:`clinaudit.perturb.run_conversations`) on the
baseline and perturbed vignettes; :func:`judge_diagnoses` decides each final diagnosis
against the gold answer by rule and, for what the rule cannot decide, by the diagnosis
judge (an empty answer is unparseable, never wrong).
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from ...judges.base import Judge, run_judge
from ...pipeline import is_placeholder
from ...records import Case, Judgment, Variant
from .judges import match_diagnosis
from .params import TreatmentShiftParams
from .prompts import answer_choices, baseline_variant, gold_answer, recorded_gender

__all__ = ["conversation_cases", "run_settings", "judge_diagnoses"]

def _final_unless_placeholder(message: str) -> bool:
    """Dry run: an answer not cached yet never ends a consultation, so its later turns are counted (upper bound)."""
    from ...perturb.conversation import is_final_diagnosis

    return not is_placeholder(message) and is_final_diagnosis(message)


def conversation_cases(cases: list[Case], params: TreatmentShiftParams) -> list[Case]:
    """The cases with a gold answer (the only ones the conversational settings can score)."""
    return [c for c in cases if gold_answer(c, params)]


def run_settings(runner: Any, cases: list[Case], variants: list[Variant], params: TreatmentShiftParams, *,
                 targets: list[str], patient: str, dry: bool = False) -> pd.DataFrame:
    """One row per target model × setting × variant × case × conversation seed (``dry``: counting calls)."""
    from ...perturb import run_conversations
    from ...perturb.conversation import is_final_diagnosis

    seeds = params.conversation_seeds or [params.seeds[0]]
    by_name: dict[str, list[Variant]] = {"baseline": [baseline_variant(c) for c in cases]}
    for v in variants:
        by_name.setdefault(v.name, []).append(v)
    case_by_id = {c.case_id: c for c in cases}
    rows = []
    for model in targets:
        for setting in params.settings:
            for name, vs in by_name.items():
                vcases = [case_by_id[v.case_id].model_copy(update={"text": v.text}) for v in vs]
                for s in seeds:
                    convs = run_conversations(vcases, setting, runner=runner, doctor_model=model,
                                              patient_model=patient, max_turns=params.max_turns, seed=s,
                                              temperature=params.temperature,
                                              doctor_max_tokens=params.conversation_max_tokens,
                                              patient_max_tokens=params.conversation_max_tokens,
                                              is_final=_final_unless_placeholder if dry else is_final_diagnosis)
                    for c, conv in zip(vcases, convs):
                        rows.append({
                            "dataset": c.dataset, "case_id": c.case_id, "model": model, "setting": setting,
                            "perturbation": name, "seed": s, "diagnosis": conv.diagnosis,
                            "gold": gold_answer(c, params), "choices": json.dumps(answer_choices(c)),
                            "turns": conv.turns, "finished": conv.finished, "transcript": conv.transcript_text(),
                            "summary": conv.summary, "errors": "; ".join(conv.errors),
                            "calls": json.dumps(conv.calls), "gender": recorded_gender(c, params),
                        })
    return pd.DataFrame(rows)


def judge_diagnoses(runner: Any, judge: Judge[tuple[str, str]], judge_model: str, conv: pd.DataFrame,
                    params: TreatmentShiftParams) -> tuple[pd.DataFrame, list[Judgment]]:
    """``conv`` with ``correct`` (1 / 0 / NaN = undecided), ``match_method`` and ``judge_status``."""
    conv = conv.copy()
    correct, method = [], []
    for ans, gold, ch in zip(conv["diagnosis"], conv["gold"], conv["choices"]):
        choices = json.loads(ch) if isinstance(ch, str) and ch not in ("", "null") else None
        if params.diagnosis_judge == "llm":
            v, mth = (None, "empty") if not str(ans or "").strip() else (None, "llm")
        else:
            v, mth = match_diagnosis(ans, gold, choices)
        correct.append(v)
        method.append(mth)
    conv["correct"] = correct
    conv["match_method"] = method
    conv["judge_status"] = ["ok" if v is not None else ("unparseable" if m == "empty" else "undecided")
                            for v, m in zip(correct, method)]
    js: list[Judgment] = []
    if params.diagnosis_judge != "rule":
        todo = [i for i, (v, m) in enumerate(zip(correct, method)) if v is None and m != "empty"]
        if todo:
            items = [(str(i), (str(conv.at[i, "diagnosis"]), str(conv.at[i, "gold"]))) for i in todo]
            js = run_judge(runner, judge, items, judge_model, max_attempts=params.judge_attempts,
                           desc="judging diagnoses")
            for j in js:
                i = int(j.item_id)
                conv.at[i, "judge_status"] = j.status
                if j.status == "ok":
                    conv.at[i, "correct"] = j.value["match"]
                    conv.at[i, "match_method"] = "llm_judge"
    conv["correct"] = pd.to_numeric(conv["correct"], errors="coerce").astype(float)
    return conv, js
