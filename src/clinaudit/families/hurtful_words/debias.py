"""Adversarial debiasing with a gradient-reversal layer (P4 §4.4, Fig. 3; METHODS §4.5).

On frozen features X (an encoder's embeddings, see :mod:`.probes`),
a small network learns a representation ``z = f(X)`` that feeds two heads:

* a **task head** predicting the label y (binary cross-entropy);
* an **adversary** (a three-layer ReLU network, as P4's discriminators)
  predicting the protected attribute a from ``z`` *through a gradient-reversal
  layer*: forward it is the identity, backward it multiplies the gradient by
  ``-λ``. The adversary therefore learns to recover a, while the encoder is
  pushed to make a unrecoverable (Ganin & Lempitsky's construction).

Loss = BCE(task) + CE(adversary); one optimiser; ``λ = 0`` trains the same
architecture without debiasing (the baseline). Rows with an unknown attribute
count for the task loss only.

P4's finding is that a fooled adversary does not mean the attribute is gone:
a fresh classifier trained afterwards on the learned representation can still
recover it. :func:`attribute_recovery_auc` measures exactly that (a new
logistic regression trained on the training rows' representation, AUROC on the
test rows), and :func:`debias_experiment` reports task performance, the
fairness gaps (the same gap table as every classifier audit) and the post-hoc
attribute recovery for the baseline and the debiased model side by side.

Training is full-batch Adam on one CPU thread with a fixed seed, so it is
deterministic for a given seed and data.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ...errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from .params import DebiasParams
    from .probes import ProbeResult

__all__ = [
    "DebiasConfig",
    "DebiasedModel",
    "train_adversarial",
    "grad_reverse",
    "attribute_recovery_auc",
    "DebiasReport",
    "debias_experiment",
    "debias_probe_tasks",
    "table5",
]

log = logging.getLogger("clinaudit.debias")


@dataclass(frozen=True)
class DebiasConfig:
    """Architecture and training of the adversarial model.

    ``lambda_`` is the gradient-reversal strength (0 = no debiasing);
    ``hidden`` / ``representation`` the encoder's layer sizes; the adversary
    has ``adversary_hidden`` units in each of its two hidden layers.
    ``adversary_steps`` extra adversary-only updates per epoch help the
    adversary keep up with the encoder.
    """

    lambda_: float = 1.0
    hidden: int = 64
    representation: int = 32
    adversary_hidden: int = 32
    epochs: int = 300
    lr: float = 1e-2
    weight_decay: float = 1e-4
    adversary_steps: int = 3
    seed: int = 0


def _torch() -> Any:
    try:
        import torch
    except ImportError:  # pragma: no cover
        from ...errors import MissingDependencyError

        raise MissingDependencyError("torch") from None
    return torch


def _build(d: int, n_attr: int, cfg: DebiasConfig) -> tuple[Any, Any, Any]:
    torch = _torch()
    nn = torch.nn
    encoder = nn.Sequential(nn.Linear(d, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, cfg.representation), nn.ReLU())
    task = nn.Linear(cfg.representation, 1)
    adversary = nn.Sequential(
        nn.Linear(cfg.representation, cfg.adversary_hidden), nn.ReLU(),
        nn.Linear(cfg.adversary_hidden, cfg.adversary_hidden), nn.ReLU(),
        nn.Linear(cfg.adversary_hidden, n_attr),
    )
    return encoder, task, adversary


def grad_reverse(z: Any, lam: float) -> Any:
    """Gradient reversal: identity forward, gradient × (−λ) backward (also used by :mod:`.adversarial`)."""
    torch = _torch()
    function: Any = torch.autograd.Function  # torch is imported at run time (an optional dependency)

    class _Reverse(function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:  # noqa: ANN401
            return x.view_as(x)

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:  # noqa: ANN401
            return -lam * grad

    return _Reverse.apply(z)


@dataclass
class DebiasedModel:
    """A trained encoder + task head (+ adversary). Inputs are standardised with the training mean/SD."""

    encoder: Any
    task: Any
    adversary: Any
    mean: np.ndarray
    scale: np.ndarray
    attribute_values: list[str]
    config: DebiasConfig
    history: list[dict[str, float]] = field(default_factory=list)

    def _x(self, X: np.ndarray) -> Any:
        torch = _torch()
        return torch.as_tensor((np.asarray(X, dtype=np.float32) - self.mean) / self.scale, dtype=torch.float32)

    def transform(self, X: np.ndarray) -> np.ndarray:
        """The learned representation z of each row."""
        torch = _torch()
        with torch.no_grad():
            return self.encoder(self._x(X)).numpy().astype(float)

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """Task probability P(y = 1) of each row."""
        torch = _torch()
        with torch.no_grad():
            return torch.sigmoid(self.task(self.encoder(self._x(X)))).numpy().ravel().astype(float)

    def adversary_proba(self, X: np.ndarray) -> np.ndarray:
        """The adversary's class probabilities over :attr:`attribute_values` (rows × values)."""
        torch = _torch()
        with torch.no_grad():
            return torch.softmax(self.adversary(self.encoder(self._x(X))), dim=1).numpy().astype(float)


def _encode_attribute(a: Sequence[Any]) -> tuple[np.ndarray, list[str]]:
    vals = [None if (v is None or (isinstance(v, float) and math.isnan(v)) or str(v).strip() == "") else str(v)
            for v in a]
    values = sorted({v for v in vals if v is not None})
    index = {v: i for i, v in enumerate(values)}
    return np.asarray([index[v] if v is not None else -1 for v in vals], dtype=np.int64), values


def train_adversarial(
    X: np.ndarray, y: Sequence[int] | np.ndarray, a: Sequence[Any], config: DebiasConfig | None = None,
) -> DebiasedModel:
    """Train encoder, task head and gradient-reversed adversary on (X, y, a); see the module docstring.

    ``a`` holds the protected attribute per row (any labels; None/NaN/empty =
    unknown, excluded from the adversary's loss). Needs at least two known
    attribute values and both labels.
    """
    torch = _torch()
    cfg = config or DebiasConfig()
    X = np.asarray(X, dtype=np.float32)
    y_arr = np.asarray(y, dtype=np.float32).ravel()
    if X.ndim != 2 or len(X) != len(y_arr) or len(X) != len(a):
        raise InputError(f"X ({X.shape}), y ({len(y_arr)}) and a ({len(a)}) must have one row per case")
    if not np.isin(y_arr, (0.0, 1.0)).all() or y_arr.min() == y_arr.max():
        raise InputError("y must hold 0/1 labels with both classes present")
    codes, values = _encode_attribute(a)
    if len(values) < 2:
        raise InputError(f"the protected attribute needs at least two known values, got {values}")
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale == 0] = 1.0
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny full-batch model: one thread is fastest, and the result is thread-independent
    try:
        return _train(torch, X, y_arr, codes, values, mean, scale, cfg)
    finally:
        torch.set_num_threads(threads)


def _train(torch: Any, X: np.ndarray, y_arr: np.ndarray, codes: np.ndarray, values: list[str], mean: np.ndarray,
           scale: np.ndarray, cfg: DebiasConfig) -> DebiasedModel:
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(cfg.seed)
        encoder, task, adversary = _build(X.shape[1], len(values), cfg)
        params = list(encoder.parameters()) + list(task.parameters()) + list(adversary.parameters())
        opt = torch.optim.Adam(params, lr=cfg.lr, weight_decay=cfg.weight_decay)
        adv_opt = torch.optim.Adam(adversary.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        xt = torch.as_tensor((X - mean) / scale, dtype=torch.float32)
        yt = torch.as_tensor(y_arr, dtype=torch.float32)
        known = torch.as_tensor(codes >= 0)
        at = torch.as_tensor(codes[codes >= 0], dtype=torch.long)
        bce = torch.nn.BCEWithLogitsLoss()
        ce = torch.nn.CrossEntropyLoss()
        history: list[dict[str, float]] = []
        for epoch in range(cfg.epochs):
            if cfg.lambda_ > 0:
                for _ in range(cfg.adversary_steps):  # let the adversary catch up on a fixed representation
                    adv_opt.zero_grad()
                    with torch.no_grad():
                        z_fixed = encoder(xt)[known]
                    ce(adversary(z_fixed), at).backward()
                    adv_opt.step()
            opt.zero_grad()
            z = encoder(xt)
            task_loss = bce(task(z).squeeze(1), yt)
            adv_loss = ce(adversary(grad_reverse(z[known], cfg.lambda_)), at)
            (task_loss + adv_loss).backward()
            opt.step()
            if epoch % 10 == 0 or epoch == cfg.epochs - 1:
                history.append({"epoch": epoch, "task_loss": float(task_loss.detach()),
                                "adversary_loss": float(adv_loss.detach())})
    for m in (encoder, task, adversary):
        m.eval()
    return DebiasedModel(encoder=encoder, task=task, adversary=adversary, mean=mean, scale=scale,
                         attribute_values=values, config=cfg, history=history)


def attribute_recovery_auc(
    R_train: np.ndarray, a_train: Sequence[Any], R_test: np.ndarray, a_test: Sequence[Any], seed: int = 0,
) -> float:
    """How well a fresh classifier recovers the attribute from a representation (AUROC on the test rows).

    A new logistic regression (standardised inputs) is trained on the
    training rows with a known attribute and evaluated on the test rows with a
    known attribute: binary AUROC for two values, macro one-vs-rest AUROC for
    more. 0.5 = not recoverable; NaN when a split lacks a value.
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    c_tr, values = _encode_attribute(list(a_train))
    index = {v: i for i, v in enumerate(values)}
    c_te = np.asarray([index.get(str(v), -1) if v is not None and not (isinstance(v, float) and math.isnan(v))
                       and str(v).strip() else -1 for v in a_test], dtype=np.int64)
    tr, te = c_tr >= 0, c_te >= 0
    if len(values) < 2 or len(set(c_te[te].tolist())) < len(values):
        return math.nan
    clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000, random_state=seed))
    clf.fit(np.asarray(R_train)[tr], c_tr[tr])
    proba = clf.predict_proba(np.asarray(R_test)[te])
    if len(values) == 2:
        return float(roc_auc_score(c_te[te], proba[:, 1]))
    return float(roc_auc_score(c_te[te], proba, multi_class="ovr", average="macro"))


# --------------------------------------------------------------------------- experiment


@dataclass
class DebiasReport:
    """Baseline (λ = 0) vs debiased (λ > 0) on the same data.

    ``results``: result rows (``model`` = baseline / debiased / input
    features) of ``auroc``, ``auprc`` (task, test split),
    ``attribute_auc`` (post-hoc logistic probe on the representation) and
    ``adversary_auc`` (the adversary's own recovery); ``gaps``: gap rows of
    both models; ``summary``: P4 Table 5 shape; ``thresholds``; ``history``:
    training losses.
    """

    results: pd.DataFrame
    gaps: pd.DataFrame
    summary: pd.DataFrame
    thresholds: pd.DataFrame
    history: pd.DataFrame
    info: dict[str, Any] = field(default_factory=dict)

    def tables(self) -> dict[str, pd.DataFrame]:
        """Tables for a run directory."""
        return {"debias": self.results, "debias_gaps": self.gaps, "debias_summary": self.summary,
                "debias_thresholds": self.thresholds, "debias_history": self.history}


def _attr_auc_ci(R_tr: np.ndarray, a_tr: Sequence[Any], R_te: np.ndarray, a_te: Sequence[Any], seed: int,
                 n_resamples: int, confidence: float) -> tuple[float, float, float, int]:
    """Post-hoc attribute AUC with a bootstrap CI over test rows (binary attributes; the probe held fixed)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from ...stats import percentile_ci
    from ...stats.auroc import auroc_bootstrap_resamples

    auc = attribute_recovery_auc(R_tr, a_tr, R_te, a_te, seed)
    c_tr, values = _encode_attribute(list(a_tr))
    index = {v: i for i, v in enumerate(values)}
    c_te = np.asarray([index.get(str(v), -1) if v is not None and str(v).strip() else -1 for v in a_te])
    n = int((c_te >= 0).sum())
    if len(values) != 2 or math.isnan(auc) or n_resamples < 1:
        return auc, math.nan, math.nan, n
    clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000, random_state=seed))
    clf.fit(R_tr[c_tr >= 0], c_tr[c_tr >= 0])
    s = clf.predict_proba(R_te[c_te >= 0])[:, 1]
    lo, hi = percentile_ci(auroc_bootstrap_resamples(s, c_te[c_te >= 0], n_resamples, seed), confidence)
    return auc, lo, hi, n


def debias_experiment(
    X: np.ndarray,
    y: Sequence[int] | np.ndarray,
    attribute: Sequence[Any],
    split: Sequence[str],
    *,
    groups: Mapping[str, Sequence[Any]] | None = None,
    config: DebiasConfig | None = None,
    task: str = "task",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    correction: str = "fdr_bh",
    alpha: float = 0.05,
    attribute_name: str = "attribute",
) -> DebiasReport:
    """Train the baseline (λ = 0) and the debiased model (λ = ``config.lambda_``) and compare them.

    Both are trained on the ``train`` rows; thresholds are the best F1 on
    ``valid``; AUROC/AUPRC, the gaps (by every attribute in ``groups``,
    default the protected attribute itself) and the attribute recovery are
    measured on ``test``. The input features' own attribute recovery is
    reported too (``model = "input features"``).
    """
    from .gap_table import audit_predictions
    from ...results import result_row, results_frame

    cfg = config or DebiasConfig()
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=np.int64).ravel()
    attr = list(attribute)
    split_arr = np.asarray([str(s) for s in split], dtype=object)
    tr, te = split_arr == "train", split_arr == "test"
    if not tr.any() or not te.any() or not (split_arr == "valid").any():
        raise InputError("debiasing needs train, valid and test rows", field="split")
    groups = dict(groups) if groups else {attribute_name: attr}
    a_tr = [attr[i] for i in np.flatnonzero(tr)]
    a_te = [attr[i] for i in np.flatnonzero(te)]
    ci_method = f"percentile bootstrap ({n_resamples} resamples, stratified by attribute; probe fixed)"

    rows: list[dict[str, Any]] = []
    auc, lo, hi, n = _attr_auc_ci(X[tr], a_tr, X[te], a_te, cfg.seed, n_resamples, confidence)
    rows.append(result_row(audit="classifier_gaps", metric="attribute_auc", value=auc, n=n, ci_low=lo, ci_high=hi,
                           ci_method=ci_method if not math.isnan(lo) else "", task=task, model="input features",
                           attribute=attribute_name, lambda_=0.0))
    gap_frames, thr_frames, hist_frames = [], [], []
    for name, lam in (("baseline", 0.0), ("debiased", float(cfg.lambda_))):
        mcfg = DebiasConfig(**{**cfg.__dict__, "lambda_": lam})
        model = train_adversarial(X[tr], y[tr], a_tr, mcfg)
        score = model.predict_proba(X)
        frame = pd.DataFrame({"task": task, "label": y, "score": score, "split": split_arr})
        for g, vals in groups.items():
            frame[g] = pd.Series(list(vals), dtype=object)
        res = audit_predictions(frame, task_column="task", label_column="label", score_column="score",
                                split_column="split", group_columns=list(groups), n_resamples=n_resamples,
                                seed=cfg.seed, confidence=confidence, correction=correction, alpha=alpha,
                                source=f"debias {name}")
        perf = res.performance.copy()
        perf["model"], perf["lambda_"] = name, lam
        rows.extend(perf.to_dict("records"))
        R = model.transform(X)
        auc, lo, hi, n = _attr_auc_ci(R[tr], a_tr, R[te], a_te, cfg.seed, n_resamples, confidence)
        rows.append(result_row(audit="classifier_gaps", metric="attribute_auc", value=auc, n=n, ci_low=lo,
                               ci_high=hi, ci_method=ci_method if not math.isnan(lo) else "", task=task, model=name,
                               attribute=attribute_name, lambda_=lam))
        adv_auc = math.nan
        if len(model.attribute_values) == 2:
            from sklearn.metrics import roc_auc_score

            idx = {v: i for i, v in enumerate(model.attribute_values)}
            known = [(i, idx[str(v)]) for i, v in zip(np.flatnonzero(te), a_te)
                     if v is not None and str(v) in idx]
            if known and len({c for _, c in known}) == 2:
                pr = model.adversary_proba(X[[i for i, _ in known]])[:, 1]
                adv_auc = float(roc_auc_score([c for _, c in known], pr))
        rows.append(result_row(audit="classifier_gaps", metric="adversary_auc", value=adv_auc,
                               n=sum(1 for v in a_te if v is not None and str(v).strip()), task=task, model=name,
                               attribute=attribute_name, lambda_=lam))
        g = res.gaps.copy()
        g["model"], g["lambda_"] = name, lam
        gap_frames.append(g)
        t = res.thresholds.copy()
        t["model"] = name
        thr_frames.append(t)
        h = pd.DataFrame(model.history)
        h["model"], h["task"] = name, task
        hist_frames.append(h)
    results = results_frame(rows)
    gaps = pd.concat(gap_frames, ignore_index=True)
    summary = table5(gaps)
    get = {(r["model"], r["metric"]): r["value"] for r in results.to_dict("records")}
    info = {
        "task": task,
        "lambda": float(cfg.lambda_),
        "attribute_auc": {m: get.get((m, "attribute_auc")) for m in ("input features", "baseline", "debiased")},
        "task_auroc": {m: get.get((m, "auroc")) for m in ("baseline", "debiased")},
    }
    return DebiasReport(results=results, gaps=gaps, summary=summary, thresholds=pd.concat(thr_frames, ignore_index=True),
                        history=pd.concat(hist_frames, ignore_index=True), info=info)


def table5(gaps: pd.DataFrame, criterion: str = "ci") -> pd.DataFrame:
    """P4 Table 5: per model × attribute × group, significant gaps per metric and % favouring the group.

    ``criterion="ci"``: the CI excludes 0 (P4); ``"bh"``: BH ``p_adj < 0.05``.
    One row per model × attribute × group; cells like ``"9 (56%)"``.
    """
    from .gap_table import GAP_METRICS, METRIC_LABELS

    rows: list[dict[str, Any]] = []
    if len(gaps) == 0:
        return pd.DataFrame(rows)
    sig = gaps["significant"].astype(bool) if criterion == "ci" else gaps["p_adj"] < 0.05
    g = gaps.assign(_sig=sig.to_numpy(), _fav=(sig & (gaps["value"] > 0)).to_numpy())
    for (model, attr, grp), sub in g.groupby(["model", "attribute", "group"], sort=False):
        row: dict[str, Any] = {"model": model, "attribute": attr, "group": grp, "n_tasks": sub["task"].nunique()}
        for m in GAP_METRICS:
            lab = METRIC_LABELS[m]
            s = sub[sub["base_metric"] == m]
            n_sig, n_fav = int(s["_sig"].sum()), int(s["_fav"].sum())
            row[f"{lab}_n_significant"] = n_sig
            row[f"{lab}_pct_favour"] = 100.0 * n_fav / n_sig if n_sig else math.nan
            row[lab] = f"{n_sig} ({100.0 * n_fav / n_sig:.0f}%)" if n_sig else "0 (–)"
        rows.append(row)
    return pd.DataFrame(rows)


def debias_probe_tasks(
    probe: "ProbeResult",
    params: "DebiasParams",
    *,
    seed: int = 0,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    correction: str = "fdr_bh",
    alpha: float = 0.05,
) -> DebiasReport:
    """:func:`debias_experiment` for every task of a probe run, on its text-level features.

    BH is applied across tasks afterwards (one family per model × metric ×
    attribute), as in the main gap table.
    """
    from ...results import results_frame
    from ...stats import apply_correction

    if params.attribute not in probe.cases.columns:
        raise InputError(f"debias attribute '{params.attribute}' is not a probe group field "
                         f"({', '.join(probe.group_fields)})", field="params.probe.debias.attribute")
    cfg = DebiasConfig(lambda_=params.lambda_, hidden=params.hidden, representation=params.representation,
                       epochs=params.epochs, lr=params.lr, weight_decay=params.weight_decay,
                       adversary_steps=params.adversary_steps, seed=seed)
    cases = probe.cases
    groups = {g: cases[g].tolist() for g in probe.group_fields}
    reports = []
    for task in probe.tasks:
        reports.append(debias_experiment(
            probe.features, cases[task].to_numpy(), cases[params.attribute].tolist(), cases["split"].tolist(),
            groups=groups, config=cfg, task=task, n_resamples=n_resamples, confidence=confidence,
            correction=correction, alpha=alpha, attribute_name=params.attribute))
    gaps = pd.concat([r.gaps for r in reports], ignore_index=True)
    if len(gaps):
        gaps = apply_correction(gaps, family_cols=["model", "base_metric", "attribute"], method=correction)
    results = results_frame(pd.concat([r.results for r in reports], ignore_index=True))
    info = {"lambda": params.lambda_, "attribute": params.attribute,
            "tasks": {r.info["task"]: {"attribute_auc": r.info["attribute_auc"], "task_auroc": r.info["task_auroc"]}
                      for r in reports}}
    return DebiasReport(results=results, gaps=gaps, summary=table5(gaps),
                        thresholds=pd.concat([r.thresholds for r in reports], ignore_index=True),
                        history=pd.concat([r.history for r in reports], ignore_index=True), info=info)
