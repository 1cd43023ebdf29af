"""Probes on frozen encoders (P4 §3.3 "whole-note embedding", §4.1; METHODS §4.5).

A probe is a small classifier trained on features the audited encoder gives a
text, with the encoder's weights left untouched. Here:

1. Each text is cut into word windows (``window_words`` words, starting every
   ``window_stride`` words, at most ``max_windows``; ``window_words=0`` keeps
   the text whole — the encoder then truncates as it does).
2. Every window is embedded through the runner (``runner.embed(spec, texts)``:
   ``hf-embed:<path>`` gives BERT's last-4-layer [CLS] concatenation,
   ``embedded-embedder`` a pooled sentence embedding, ``mock`` a hashed bag of
   words), cached per window text.
3. Optional numeric covariates (e.g. age, acuity scores) are standardised with
   the training mean and SD and appended to every window's features.
4. Per task, an sklearn ``MLPClassifier`` (features standardised inside the
   pipeline) is trained on the training windows, each window labelled with its
   text's label (as P4 does). A small grid (hidden layer sizes × L2 ``alpha``)
   is searched; window probabilities of a text are merged with P4 Eq. 1
   (:func:`clinaudit.metrics.merge_window_probs`) with ``c`` tuned on the
   validation split; the (configuration, c) with the best validation AUPRC
   (average precision) is selected.
5. The selected probe scores every text; the predictions table feeds the
   fairness audit (:func:`.gap_table.audit_predictions`):
   F1-optimal threshold on validation, gaps on test.

The split comes from a case field, or is drawn deterministically per case from
(case id, seed) so that it does not depend on the order of the input.
"""

from __future__ import annotations

import logging
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ...errors import InputError
from ...records import Case, stable_hash

if TYPE_CHECKING:  # pragma: no cover
    from .params import ProbeParams
    from ...runner import ModelCalls

__all__ = [
    "SPLITS",
    "split_windows",
    "seeded_split",
    "seeded_sample",
    "embed_windows",
    "embed_given_windows",
    "ProbeResult",
    "probe_cases",
    "probe_frame",
    "fit_probe_task",
]

log = logging.getLogger("clinaudit.probes")

#: The three split names (train / validation / test).
SPLITS: tuple[str, str, str] = ("train", "valid", "test")


# --------------------------------------------------------------------------- windows and splits


def split_windows(text: str, length: int = 0, stride: int | None = None, max_windows: int = 10) -> list[str]:
    """Cut a text into word windows: ``length`` words each, a new one every ``stride`` words.

    ``length=0`` (or a text no longer than ``length``) gives the text itself as
    the only window. ``stride`` defaults to ``length`` (no overlap). The last
    window ends at the text's end (it may overlap its predecessor more than
    ``stride`` implies, so no words are lost); at most ``max_windows`` windows,
    taken from the start. Whitespace inside a window is normalised to single
    spaces.
    """
    if length < 0 or (stride is not None and stride < 1) or max_windows < 1:
        raise ValueError("length must be >= 0, stride >= 1 and max_windows >= 1")
    words = text.split()
    if length == 0 or len(words) <= length:
        return [text]
    step = stride or length
    starts = list(range(0, len(words) - length + 1, step))
    if starts[-1] + length < len(words):
        starts.append(len(words) - length)
    return [" ".join(words[s : s + length]) for s in starts[:max_windows]]


def seeded_split(case_ids: Sequence[str], seed: int = 0,
                 fractions: tuple[float, float, float] = (0.6, 0.2, 0.2)) -> list[str]:
    """Deterministic train/valid/test assignment of each case from ``(case id, seed)``.

    A case's uniform number is a hash of its id and the seed, so its split
    does not depend on the order or the other cases in the input.
    """
    f_train, f_valid, _ = fractions
    out = []
    for cid in case_ids:
        u = int(stable_hash("probe-split", str(cid), int(seed), length=13), 16) / 16**13
        out.append("train" if u < f_train else ("valid" if u < f_train + f_valid else "test"))
    return out


def seeded_sample(cases: Sequence[Case], k: int, seed: int = 0) -> list[Case]:
    """``k`` cases chosen by a hash of (case id, seed), kept in input order (independent of input order)."""
    ranked = sorted(range(len(cases)), key=lambda i: stable_hash("probe-sample", cases[i].case_id, int(seed)))
    keep = set(ranked[:k])
    return [c for i, c in enumerate(cases) if i in keep]


def embed_windows(
    runner: "ModelCalls", encoder: str, texts: Sequence[str], length: int = 0, stride: int | None = None,
    max_windows: int = 10,
) -> tuple[np.ndarray, np.ndarray]:
    """Embed every window of every text → ``(features (windows × d), owner (windows,))``.

    ``owner[k]`` is the index of the text window ``k`` came from. Embeddings
    go through ``runner.embed`` (batched, cached per window text).
    """
    windows: list[str] = []
    owner: list[int] = []
    for i, t in enumerate(texts):
        w = split_windows(t, length, stride, max_windows)
        windows.extend(w)
        owner.extend([i] * len(w))
    X = runner.embed(encoder, windows, desc="probe embeddings")
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] != len(windows):
        raise InputError(f"encoder '{encoder}' returned features of shape {X.shape} for {len(windows)} windows")
    return X, np.asarray(owner, dtype=np.intp)


def embed_given_windows(runner: "ModelCalls", encoder: str, windows: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`embed_windows` for texts already cut into windows (one list of window texts per text)."""
    flat = [w for ws in windows for w in ws]
    owner = np.asarray([i for i, ws in enumerate(windows) for _ in ws], dtype=np.intp)
    X = np.asarray(runner.embed(encoder, flat, desc="probe embeddings"), dtype=float)
    if X.ndim != 2 or X.shape[0] != len(flat):
        raise InputError(f"encoder '{encoder}' returned features of shape {X.shape} for {len(flat)} windows")
    return X, owner


def _windows(case: Case, fieldname: str, max_windows: int) -> list[str]:
    import json

    v = case.fields.get(fieldname)
    try:
        ws = json.loads(v) if isinstance(v, str) else v
    except ValueError:
        ws = None
    if not isinstance(ws, list) or not ws or not all(isinstance(w, str) for w in ws):
        file, row = _case_where(case)
        raise InputError(f"expected a non-empty JSON list of window texts (case {case.case_id})", file=file, row=row,
                         field=fieldname)
    return ws[:max_windows]


# --------------------------------------------------------------------------- probe training


def _merge(p_windows: np.ndarray, owner: np.ndarray, n_texts: int, c: float) -> np.ndarray:
    """Per-text P4 Eq. 1 merge of window probabilities (NaN c: one window per text, the value itself)."""
    from .classifier_metrics import merge_window_probs

    out = np.full(n_texts, np.nan)
    order = np.argsort(owner, kind="stable")
    bounds = np.searchsorted(owner[order], np.arange(n_texts + 1))
    for i in range(n_texts):
        ps = p_windows[order[bounds[i] : bounds[i + 1]]]
        if ps.size == 0:
            continue
        out[i] = float(ps[0]) if (ps.size == 1 or math.isnan(c)) else merge_window_probs(ps, c)
    return out


def _auprc(y: np.ndarray, s: np.ndarray) -> float:
    from sklearn.metrics import average_precision_score

    return float(average_precision_score(y, s)) if 0 < y.sum() else math.nan


def _auroc(y: np.ndarray, s: np.ndarray) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, s)) if 0 < y.sum() < len(y) else math.nan


def _make_mlp(hidden: Sequence[int], alpha: float, seed: int, max_iter: int) -> Any:
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(
        StandardScaler(),
        MLPClassifier(hidden_layer_sizes=tuple(int(h) for h in hidden), alpha=float(alpha), random_state=int(seed),
                      max_iter=int(max_iter)),
    )


def fit_probe_task(
    X: np.ndarray,
    owner: np.ndarray,
    y: np.ndarray,
    split: np.ndarray,
    *,
    hidden_sizes: Sequence[Sequence[int]] = ((64,), (128, 64)),
    alphas: Sequence[float] = (1e-4, 1e-2),
    c_grid: Sequence[float] = (0.5, 1.0, 2.0, 4.0, 8.0),
    seed: int = 0,
    max_iter: int = 300,
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Grid-search an MLP probe for one task; return ``(scores per text, grid rows)``.

    ``X`` holds window features, ``owner`` the text of each window, ``y`` and
    ``split`` one value per text. Models are trained on the windows of
    ``train`` texts (window label = text label), evaluated on ``valid`` texts
    after the Eq. 1 merge for every ``c`` in ``c_grid`` (only when some text
    has several windows), and the (config, c) with the best validation AUPRC
    is chosen (ties: first in grid order; all NaN: the first config). Grid rows
    carry ``hidden, alpha, c, valid_auprc, valid_auroc, selected``.
    """
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):  # small dense models: one BLAS thread is fastest and reproducible
        return _fit_probe_task(X, owner, y, split, hidden_sizes, alphas, c_grid, seed, max_iter)


def _fit_probe_task(
    X: np.ndarray, owner: np.ndarray, y: np.ndarray, split: np.ndarray, hidden_sizes: Sequence[Sequence[int]],
    alphas: Sequence[float], c_grid: Sequence[float], seed: int, max_iter: int,
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    from sklearn.exceptions import ConvergenceWarning

    n = len(y)
    counts = np.bincount(owner, minlength=n)
    multi = bool((counts > 1).any())
    cs = [float(c) for c in c_grid] if multi else [math.nan]
    train_w = np.isin(owner, np.flatnonzero(split == "train"))
    valid_t = split == "valid"
    y_w = y[owner]
    rows: list[dict[str, Any]] = []
    best: tuple[float, int] | None = None
    models = []
    for hidden in hidden_sizes:
        for alpha in alphas:
            model = _make_mlp(hidden, alpha, seed, max_iter)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                model.fit(X[train_w], y_w[train_w])
            models.append(model)
            p_w = model.predict_proba(X)[:, 1]
            for c in cs:
                merged = _merge(p_w, owner, n, c)
                ap = _auprc(y[valid_t], merged[valid_t]) if valid_t.any() else math.nan
                au = _auroc(y[valid_t], merged[valid_t]) if valid_t.any() else math.nan
                rows.append({"hidden": "x".join(map(str, hidden)), "alpha": float(alpha), "c": c,
                             "valid_auprc": ap, "valid_auroc": au, "selected": False,
                             "_model": len(models) - 1})
                key = -math.inf if math.isnan(ap) else ap
                if best is None or key > best[0]:
                    best = (key, len(rows) - 1)
    assert best is not None
    chosen = rows[best[1]]
    chosen["selected"] = True
    p_w = models[chosen["_model"]].predict_proba(X)[:, 1]
    scores = _merge(p_w, owner, n, chosen["c"])
    for r in rows:
        r.pop("_model")
    return scores, rows


# --------------------------------------------------------------------------- cases → predictions


@dataclass
class ProbeResult:
    """What :func:`probe_cases` produces.

    ``predictions``: one row per text × task (``case_id, task, split, label,
    score, n_windows`` + the group fields) — the input of the fairness audit;
    ``grid``: every grid configuration per task with its validation AUPRC;
    ``cases``: one row per text (split, groups, labels, covariates, windows);
    ``features``: text-level features (mean over the text's windows, then the
    standardised covariates), rows aligned with ``cases``; ``extraction``:
    how demographics were read from text (CRAFT-MD preset), else empty.
    """

    predictions: pd.DataFrame
    grid: pd.DataFrame
    cases: pd.DataFrame
    features: np.ndarray
    group_fields: list[str]
    tasks: list[str]
    extraction: pd.DataFrame = field(default_factory=pd.DataFrame)
    demographics: pd.DataFrame = field(default_factory=pd.DataFrame)
    info: dict[str, Any] = field(default_factory=dict)

    def tables(self) -> dict[str, pd.DataFrame]:
        """Tables for the run directory (name → frame)."""
        out = {"predictions": self.predictions, "probe_grid": self.grid, "probe_cases": self.cases}
        if len(self.extraction):
            out["extraction"] = self.extraction
        if len(self.demographics):
            out["demographics"] = self.demographics
        return out


def _case_where(case: Case) -> tuple[str | None, int | None]:
    return (case.source or None, case.source_row)


def _label(case: Case, fieldname: str) -> int:
    v = case.fields.get(fieldname)
    f: float
    if isinstance(v, bool):
        f = float(v)
    else:
        try:
            f = float(str(v).strip()) if v is not None else math.nan
        except ValueError:
            f = math.nan
    if f not in (0.0, 1.0):
        file, row = _case_where(case)
        raise InputError(f"expected a 0/1 label, got {v!r} (case {case.case_id})", file=file, row=row, field=fieldname)
    return int(f)


def _number(case: Case, fieldname: str) -> float:
    v = case.fields.get(fieldname)
    try:
        f = float(str(v).strip()) if v is not None and not isinstance(v, bool) else math.nan
    except ValueError:
        f = math.nan
    if not math.isfinite(f):
        file, row = _case_where(case)
        raise InputError(f"expected a number for covariate, got {v!r} (case {case.case_id})", file=file, row=row,
                         field=fieldname)
    return f


def _group(case: Case, fieldname: str) -> str | None:
    if fieldname not in case.fields:
        file, row = _case_where(case)
        raise InputError(f"case {case.case_id} has no field '{fieldname}' (protected attribute); fields: "
                         f"{', '.join(sorted(case.fields))}", file=file, row=row, field=fieldname)
    v = case.fields[fieldname]
    if v is None:
        return None
    s = str(v).strip()
    return s or None


def probe_cases(
    cases: Sequence[Case],
    params: "ProbeParams | Mapping[str, Any] | None" = None,
    *,
    runner: "ModelCalls | None" = None,
    encoder: str = "mock",
    seed: int = 0,
) -> ProbeResult:
    """Embed the cases with ``encoder``, train one probe per task and score every case.

    ``params`` is a :class:`~.params.ProbeParams` (or
    a mapping of its fields). With ``preset: craftmd`` the tasks (one-vs-rest
    specialty ``category``) and the ``sex`` / ``race`` groups are built from
    CRAFT-MD cases (:mod:`.craftmd_tasks`). Raises
    :class:`InputError` naming the source file, row and field of a bad value.
    """
    from .params import ProbeParams
    from ...runner import Runner

    p = params if isinstance(params, ProbeParams) else ProbeParams.model_validate(dict(params or {}))
    runner = runner or Runner()
    cases = list(cases)
    if not cases:
        raise InputError("no cases to probe")
    if p.sample is not None and p.sample < len(cases):
        cases = seeded_sample(cases, p.sample, seed)
    label_fields = list(p.label_fields)
    group_fields = list(p.group_fields)
    extraction = demographics = pd.DataFrame()
    if p.preset == "craftmd":
        from .craftmd_tasks import craftmd_tasks

        ct = craftmd_tasks(cases, top_k=p.top_k)
        cases = ct.cases
        label_fields = label_fields or ct.tasks
        group_fields = group_fields or ["sex", "race"]
        extraction, demographics = ct.extraction, ct.demographics
    if not group_fields:
        raise InputError("the probe needs at least one protected attribute (group_fields)", field="group_fields")

    ids = [c.case_id for c in cases]
    if p.split_field:
        split = []
        for c in cases:
            v = str(c.fields.get(p.split_field, "")).strip()
            if v not in SPLITS:
                file, row = _case_where(c)
                raise InputError(f"expected one of {', '.join(SPLITS)}, got {v!r} (case {c.case_id})", file=file,
                                 row=row, field=p.split_field)
            split.append(v)
    else:
        split = seeded_split(ids, seed, p.fractions)
    split_arr = np.asarray(split, dtype=object)
    if not (split_arr == "train").any():
        raise InputError("no training cases (check the split field or fractions)", field=p.split_field or "fractions")

    labels = {f: np.asarray([_label(c, f) for c in cases], dtype=np.int64) for f in label_fields}
    groups = {g: [_group(c, g) for c in cases] for g in group_fields}
    cov = np.asarray([[_number(c, f) for f in p.covariates] for c in cases], dtype=float).reshape(len(cases), -1)

    if p.windows_field:  # windows made upstream (e.g. mimic_tasks' token windows): a JSON list per case
        X_w, owner = embed_given_windows(runner, encoder, [_windows(c, p.windows_field, p.max_windows)
                                                           for c in cases])
    else:
        X_w, owner = embed_windows(runner, encoder, [c.text for c in cases], p.window_words, p.window_stride,
                                   p.max_windows)
    if cov.shape[1]:
        tr = split_arr == "train"
        mu, sd = cov[tr].mean(axis=0), cov[tr].std(axis=0)
        sd[sd == 0] = 1.0
        cov_z = (cov - mu) / sd
        X_w = np.hstack([X_w, cov_z[owner]])
    log.info("probe: embedded %d window(s) of %d text(s) with %s (%d features)", len(owner), len(cases), encoder,
             X_w.shape[1])
    n_windows = np.bincount(owner, minlength=len(cases))
    # text-level features: mean over windows (covariates are equal across a text's windows)
    sums = np.zeros((len(cases), X_w.shape[1]))
    np.add.at(sums, owner, X_w)
    features = sums / n_windows[:, None]

    pred_rows: list[pd.DataFrame] = []
    grid_rows: list[dict[str, Any]] = []
    tasks_done: list[str] = []
    for task in label_fields:
        y = labels[task]
        tr = split_arr == "train"
        if y[tr].min() == y[tr].max():
            grid_rows.append({"task": task, "hidden": "", "alpha": math.nan, "c": math.nan, "valid_auprc": math.nan,
                              "valid_auroc": math.nan, "selected": False,
                              "note": "skipped: one class only in the training split"})
            log.warning("probe: task %s skipped (one class only in training)", task)
            continue
        scores, rows = fit_probe_task(X_w, owner, y, split_arr, hidden_sizes=p.hidden_sizes, alphas=p.alphas,
                                      c_grid=p.c_grid, seed=seed, max_iter=p.max_iter)
        grid_rows.extend({"task": task, **r, "note": ""} for r in rows)
        log.info("probe: task %s trained (%d grid configuration(s))", task, len(rows))
        frame = pd.DataFrame({"case_id": ids, "task": task, "split": split, "label": y, "score": scores,
                              "n_windows": n_windows})
        for g in group_fields:
            frame[g] = pd.Series(groups[g], dtype=object)
        pred_rows.append(frame)
        tasks_done.append(task)
    if not pred_rows:
        raise InputError("no task could be trained (every task has one class only in the training split)")
    predictions = pd.concat(pred_rows, ignore_index=True)
    case_table = pd.DataFrame({"case_id": ids, "split": split, "n_windows": n_windows})
    for g in group_fields:
        case_table[g] = pd.Series(groups[g], dtype=object)
    for f in label_fields:
        case_table[f] = labels[f]
    for j, f in enumerate(p.covariates):
        case_table[f] = cov[:, j]
    info = {
        "encoder": encoder,
        "cases": len(cases),
        "split_counts": {s: int((split_arr == s).sum()) for s in SPLITS},
        "tasks_probed": tasks_done,
        "feature_dim": int(X_w.shape[1]),
        "windows": int(len(owner)),
        "group_fields": group_fields,
    }
    return ProbeResult(predictions=predictions, grid=pd.DataFrame(grid_rows), cases=case_table, features=features,
                       group_fields=group_fields, tasks=tasks_done, extraction=extraction,
                       demographics=demographics, info=info)


def probe_frame(
    df: pd.DataFrame,
    *,
    text_column: str,
    label_columns: Sequence[str] | str,
    group_columns: Sequence[str] | str,
    encoder: str = "mock",
    runner: "ModelCalls | None" = None,
    id_column: str | None = None,
    split_column: str | None = None,
    covariates: Sequence[str] = (),
    seed: int = 0,
    source: str = "<frame>",
    **options: Any,
) -> ProbeResult:
    """:func:`probe_cases` on a DataFrame (one row per text). ``options`` are further ProbeParams fields."""
    labels = [label_columns] if isinstance(label_columns, str) else list(label_columns)
    groups = [group_columns] if isinstance(group_columns, str) else list(group_columns)
    needed = [text_column, *labels, *groups, *covariates] + [c for c in (id_column, split_column) if c]
    for c in needed:
        if c not in df.columns:
            raise InputError(f"column '{c}' not found; available columns: {', '.join(map(str, df.columns))}",
                             file=source, field=c)
    cases = []
    for i, rec in enumerate(df.to_dict("records")):
        cid = str(rec[id_column]) if id_column else str(i + 1)
        fields = {k: (None if (isinstance(v, float) and math.isnan(v)) else v) for k, v in rec.items()
                  if k != text_column}
        cases.append(Case(case_id=cid, text=str(rec[text_column]), fields=fields, source=source, source_row=i + 1))
    params = {"label_fields": labels, "group_fields": groups, "split_field": split_column,
              "covariates": list(covariates), **options}
    return probe_cases(cases, params, runner=runner, encoder=encoder, seed=seed)
