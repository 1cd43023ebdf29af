"""A synthetic treatment-shift-shaped run directory of any size, for the viewer's benchmark and tests.

``cases × (1 baseline + perturbations) × seeds × models`` target answers in ``tables/responses.csv``, three
questions' labels per answer in ``tables/labels.csv`` (a share of perturbed answers flipped), ``judgments``,
``variants``, ``cases``, ``exclusions`` and ``results`` with verdicts, written through the run store
(:meth:`clinaudit.rundir.RunDir.write_table`, so formula-like texts are stored encoded). ``payloads`` are
put into case ids, texts and answers (script and formula payloads for the escaping tests).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["make_run", "QUESTIONS"]

QUESTIONS = ("MANAGE", "VISIT", "RESOURCE")
_WORDS = ("patient reports chest pain since yesterday evening the plan is rest fluids and review in clinic if "
          "symptoms persist advise emergency care for shortness of breath").split()


def make_run(path: str | Path, *, cases: int = 100, perturbations: int = 4, seeds: int = 2, models: int = 1,
             flip_rate: float = 0.1, payloads: tuple[str, ...] = (), seed: int = 0, words: int = 40,
             answer_chars: int = 0) -> Path:
    """Write the run directory ``path``; returns it. Rows: ``cases * (perturbations + 1) * seeds * models``.
    ``words``: the length of a case's text (40 words ~ 250 characters; 3,300 ~ 20 kB); ``answer_chars``: pad each
    answer to about that many characters (0: the short mock answers)."""
    from ..rundir import RunDir

    rng = np.random.default_rng(seed)
    rd = RunDir(path)
    rd.start(spec={"audit": "treatment_shift", "name": "synthetic"}, models=[], seeds=list(range(seeds)),
             command="clinaudit.viewer.synthetic")
    case_ids = [f"c{i:06d}" for i in range(cases)]
    for j, p in enumerate(payloads):
        if j < cases:
            case_ids[j] = p
    texts = [" ".join(rng.choice(_WORDS, size=words)) for _ in range(cases)]
    for j, p in enumerate(payloads):
        if j < cases:
            texts[j] = f"{texts[j]} {p}"
    genders = rng.choice(["female", "male"], size=cases)
    rd.write_table("cases", pd.DataFrame({
        "case_id": case_ids, "dataset": "synthetic", "text": texts,
        "fields": [json.dumps({"recorded_gender": g}) for g in genders]}))
    pert = [f"pert{k}" for k in range(perturbations)]
    vrows = []
    for cid, text in zip(case_ids, texts):
        vrows.append({"variant_id": f"{cid}::baseline::baseline", "case_id": cid, "family": "baseline",
                      "name": "baseline", "text": text, "description": "the unchanged case"})
        for k, name in enumerate(pert):
            vrows.append({"variant_id": f"{cid}::perturbation::{name}::s0", "case_id": cid, "family": "perturbation",
                          "name": name, "text": text.replace(" the ", f" the{'!' * (k + 1)} ", 1).upper()
                          if k % 2 else text + "!" * (k + 1), "description": name})
    variants = pd.DataFrame(vrows)
    rd.write_table("variants", variants)
    model_names = [f"mock:m{m}" for m in range(models)]
    n_var = len(variants)
    rows = n_var * seeds * models
    vi = np.tile(np.repeat(np.arange(n_var), seeds), models)
    seed_col = np.tile(np.arange(seeds), n_var * models)
    model_col = np.repeat(np.array(model_names, dtype=object), n_var * seeds)
    keys = np.array([f"{i:064x}" for i in range(rows)], dtype=object)
    is_base = (variants["family"].to_numpy() == "baseline")[vi]
    base_label = rng.integers(0, 2, size=(cases, len(QUESTIONS)))
    case_idx = vi // (perturbations + 1)
    labels = base_label[case_idx].copy()
    flip = (~is_base) & (rng.random(rows) < flip_rate)
    labels[flip, 0] = 1 - labels[flip, 0]
    answers = np.where(labels[:, 0] == 1, "You can manage this at home with rest and fluids.",
                       "Please come to the clinic today so we can examine you.").astype(object)
    if answer_chars:
        pad = " ".join(rng.choice(_WORDS, size=answer_chars // 6))[:answer_chars]
        answers = np.array([f"{a} {pad}" for a in answers], dtype=object)
    for j, p in enumerate(payloads):
        if j < rows:
            answers[j] = f"{answers[j]} {p}"
    resp = pd.DataFrame({
        "request_key": keys, "stage": "target", "model": model_col,
        "case_id": np.array(case_ids, dtype=object)[case_idx], "variant_id": variants["variant_id"].to_numpy()[vi],
        "item_id": None, "attempt": 0, "kind": "chat", "messages": "[]", "prompt": "", "temperature": 0.7,
        "max_tokens": 512, "seed": seed_col, "top_p": np.nan, "extra": "{}", "text": answers, "error": None,
        "cached": False, "attempts": 1, "prompt_tokens": rng.integers(100, 300, size=rows),
        "completion_tokens": rng.integers(10, 60, size=rows), "finish_reason": "stop",
        "latency_s": rng.random(rows), "meta": "{}"})
    rd.write_table("responses", resp)
    long = pd.DataFrame({
        "dataset": "synthetic", "case_id": np.repeat(resp["case_id"].to_numpy(), len(QUESTIONS)),
        "variant": np.repeat(variants["name"].to_numpy()[vi], len(QUESTIONS)),
        "model": np.repeat(model_col, len(QUESTIONS)), "seed": np.repeat(seed_col, len(QUESTIONS)),
        "question": np.tile(np.array(QUESTIONS, dtype=object), rows), "label": labels.reshape(-1).astype(float),
        "judge_status": "ok", "response_key": np.repeat(keys, len(QUESTIONS))})
    unparseable = rng.random(len(long)) < 0.01
    long.loc[unparseable, "judge_status"] = "unparseable"
    long.loc[unparseable, "label"] = np.nan
    rd.write_table("labels", long)
    rd.write_table("judgments", pd.DataFrame({
        "item_id": keys, "judge": "treatment_annotator", "status": "ok", "value": "{}", "raw": answers,
        "attempts": 1, "request_key": [f"j{i:063x}" for i in range(rows)], "meta": "{}"}))
    excl = case_ids[-max(1, cases // 100):]
    rd.write_table("exclusions", pd.DataFrame({"stage": "cases", "case_id": excl, "reason": "too_long",
                                               "detail": "over the token limit", "item": None, "source": None,
                                               "row": None}))
    res = [{"audit": "treatment_shift", "metric": "TSR", "group": p, "model": m, "perturbation": p,
            "question": q, "value": 0.1, "n": cases, "verdict": "bias" if k == 0 else "inconclusive"}
           for m in model_names for k, p in enumerate(pert) for q in QUESTIONS]
    rd.write_table("results", pd.DataFrame(res))
    rd.finish(usage={}, audit="treatment_shift", status="complete", summary={})
    rd.close()
    return Path(path)
