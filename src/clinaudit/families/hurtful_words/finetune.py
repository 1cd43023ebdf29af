"""Classifiers for P4's 57 tasks on a (pretrained) encoder, written as ``classifier-gaps`` predictions (P4 §4.1).

Input: the task tables of :func:`.mimic_tasks.build_mimic_tasks` (one row per ICU stay and
cohort: ``example_id``, ``split``, the protected attributes, ``sequences`` — a JSON list of
the stay's token windows — and one 0/1 column per task of the cohort).

* :func:`probe_tasks` — P4's method: the encoder stays frozen; every window is embedded
  (``hf-embed:<dir>``: the concatenated last-four-layer ``[CLS]`` vectors) through the
  runner (cached), and per task an MLP head is trained on the training windows with a grid
  search selected by validation AUPRC, window probabilities merged per stay with P4 Eq. 1
  (:mod:`.probes`, which does the work). :func:`paper_grid` is P4's grid (published code):
  2–4 layers × a width ratio of 2, 4 or 6 between layers × dropout 0 / 0.2, plus one linear
  layer; sklearn's ``MLPClassifier`` has no dropout, so an L2 penalty stands in for it.
* :func:`finetune_task` — the option P4 decided against: the whole encoder is fine-tuned
  with a classification head (transformers' ``Trainer``), one model per task.

Both give the predictions table the fairness audit reads (``case_id, task, split, label,
score`` + the attribute columns; :func:`.gap_table.audit_predictions`, ``clinaudit
classifier-gaps --score-column score --split-column split``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...errors import InputError
from ...records import Case

__all__ = ["paper_grid", "task_cases", "TaskPredictions", "probe_tasks", "finetune_task", "GROUP_COLUMNS"]

#: Protected attributes of P4 as the cohort builder names them (P4's groupings).
GROUP_COLUMNS = ["gender", "language_group", "ethnicity_group", "insurance_group"]


def paper_grid(width: int, layers: Sequence[int] = (2, 3, 4), ratios: Sequence[int] = (2, 4, 6)) -> list[list[int]]:
    """P4's MLP shapes for ``width`` input features: ``layers − 1`` hidden layers, each ``ratio`` times narrower.

    Plus ``[]`` (a single linear layer). ``paper_grid(768)`` → ``[[384], [192], [128], [384, 192], ...]``.
    """
    out: list[list[int]] = []
    for n in layers:
        for r in ratios:
            sizes, d = [], int(width)
            for _ in range(int(n) - 1):
                d = max(1, d // int(r))
                sizes.append(d)
            if sizes not in out:
                out.append(sizes)
    return out + [[]]


def task_cases(table: pd.DataFrame, tasks: Sequence[str], *, cohort: str = "",
               group_columns: Sequence[str] = GROUP_COLUMNS, source: str = "") -> list[Case]:
    """One :class:`Case` per stay of a task table: text, split, ``sequences``, attributes and the task labels."""
    need = ["example_id", "split", "sequences", *group_columns, *tasks]
    for c in need:
        if c not in table.columns:
            raise InputError(f"column '{c}' not found in the {cohort or 'task'} table; available: "
                             f"{', '.join(map(str, table.columns))}", file=source or None, field=c)
    cases = []
    for i, rec in enumerate(table.to_dict("records")):
        fields = {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in rec.items()
                  if k in need or k == "subject_id"}
        cid = f"{cohort}:{rec['example_id']}" if cohort else str(rec["example_id"])
        cases.append(Case(case_id=cid, text=str(rec.get("text", "")), fields=fields, source=source,
                          source_row=i + 1))
    return cases


@dataclass
class TaskPredictions:
    """Predictions of every task (the ``classifier-gaps`` input), the grid rows, per-cohort probe results."""

    predictions: pd.DataFrame
    grid: pd.DataFrame
    probes: dict[str, Any] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)


def probe_tasks(tables: Mapping[str, pd.DataFrame], task_columns: Mapping[str, Sequence[str]], encoder: str, *,
                runner: Any, group_columns: Sequence[str] = GROUP_COLUMNS, probe: Mapping[str, Any] | None = None,
                seed: int = 0) -> TaskPredictions:
    """Frozen-encoder probes for every task of every cohort (``tables``: cohort → task table).

    ``probe``: further :class:`~.params.ProbeParams` fields (``hidden_sizes``, ``alphas``,
    ``c_grid``, ``max_iter``, ``max_windows``); windows come from the tables' ``sequences``.
    """
    from .params import ProbeParams
    from .probes import probe_cases

    preds, grids, probes = [], [], {}
    for cohort, table in tables.items():
        tasks = list(task_columns[cohort])
        if table.empty or not tasks:
            continue
        cases = task_cases(table, tasks, cohort=cohort, group_columns=group_columns)
        params = ProbeParams.model_validate({**dict(probe or {}), "label_fields": tasks,
                                             "group_fields": list(group_columns), "split_field": "split",
                                             "windows_field": "sequences"})
        res = probe_cases(cases, params, runner=runner, encoder=encoder, seed=seed)
        probes[cohort] = res
        preds.append(res.predictions.assign(cohort=cohort))
        grids.append(res.grid.assign(cohort=cohort))
    if not preds:
        raise InputError("no task table with rows and tasks to probe")
    predictions = pd.concat(preds, ignore_index=True)
    return TaskPredictions(predictions=predictions, grid=pd.concat(grids, ignore_index=True), probes=probes,
                           info={"encoder": encoder, "tasks": int(predictions["task"].nunique()),
                                 "rows": int(len(predictions))})


def finetune_task(model_dir: str, windows: Sequence[Sequence[str]], labels: Sequence[int], split: Sequence[str], *,
                  epochs: float = 1.0, batch_size: int = 16, learning_rate: float = 5e-5, max_length: int = 128,
                  seed: int = 0, out: str | None = None, c_grid: Sequence[float] = (0.5, 1.0, 2.0, 4.0, 8.0),
                  cpu_threads: int | None = 1) -> tuple[np.ndarray, dict[str, Any]]:
    """Full fine-tuning of the encoder on one task; returns ``(score per stay, info)``.

    Every window of a training stay is a training example labelled with the stay's label (as
    in P4); window probabilities are merged per stay with P4 Eq. 1, ``c`` chosen on the
    validation stays by AUPRC.
    """
    import tempfile

    import transformers
    from sklearn.metrics import average_precision_score

    from .classifier_metrics import merge_window_probs
    from ...models.hf_runtime import require_torch
    from .pretrain import cpu_threads as _threads
    from .pretrain import resolve_device

    torch = require_torch()
    y = np.asarray(labels, dtype=np.int64)
    split_arr = np.asarray([str(s) for s in split], dtype=object)
    owner = np.asarray([i for i, ws in enumerate(windows) for _ in ws], dtype=np.intp)
    flat = [w for ws in windows for w in ws]
    train_w = np.flatnonzero(split_arr[owner] == "train")
    if len(set(y[split_arr == "train"].tolist())) < 2:
        raise InputError("fine-tuning needs both labels among the training stays")
    tok = transformers.AutoTokenizer.from_pretrained(model_dir, local_files_only=True)
    transformers.set_seed(seed)
    model = transformers.AutoModelForSequenceClassification.from_pretrained(model_dir, num_labels=2,
                                                                            local_files_only=True)
    enc = tok([flat[i] for i in train_w], truncation=True, max_length=max_length)
    data = [{"input_ids": enc["input_ids"][k], "attention_mask": enc["attention_mask"][k],
             "labels": int(y[owner[i]])} for k, i in enumerate(train_w)]
    device = resolve_device("auto")
    with tempfile.TemporaryDirectory() as tmp, _threads(cpu_threads if device == "cpu" else None):
        args = transformers.TrainingArguments(
            output_dir=out or tmp, num_train_epochs=epochs, per_device_train_batch_size=batch_size,
            learning_rate=learning_rate, seed=seed, report_to="none", disable_tqdm=True, save_strategy="no",
            logging_steps=10, use_cpu=device == "cpu")
        trainer = transformers.Trainer(model=model, args=args, train_dataset=data,
                                       data_collator=transformers.DataCollatorWithPadding(tok))
        trainer.train()
        model.eval()
        probs = np.empty(len(flat))
        with torch.no_grad():
            for s in range(0, len(flat), 32):
                b = tok(flat[s : s + 32], truncation=True, max_length=max_length, padding=True,
                        return_tensors="pt").to(model.device)
                probs[s : s + 32] = torch.softmax(model(**b).logits, -1)[:, 1].cpu().numpy()
    valid = split_arr == "valid"

    def merged(c: float) -> np.ndarray:
        return np.asarray([merge_window_probs(probs[owner == i], c) if (owner == i).sum() > 1
                           else float(probs[owner == i][0]) for i in range(len(y))])

    best_c, best_ap = float(c_grid[0]), -math.inf
    for c in c_grid:
        probs_c = merged(float(c))
        ap = average_precision_score(y[valid], probs_c[valid]) if valid.any() and y[valid].any() else math.nan
        if not math.isnan(ap) and ap > best_ap:
            best_c, best_ap = float(c), float(ap)
    return merged(best_c), {"c": best_c, "valid_auprc": best_ap, "train_windows": int(len(train_w)),
                            "log": json.dumps(trainer.state.log_history[-3:])}
