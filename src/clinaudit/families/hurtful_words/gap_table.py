"""The classifier-gap table of P4 (§4.1–4.2, Tables 2 and 4): thresholds, gaps, CIs, Table 4.

Shared by the ``classifier_gaps`` recipe (:mod:`.classifier_gaps`), the probes
(:mod:`.probes`) and the adversarial debiasing (:mod:`.debias`),
which import it from here, so none of them imports another's recipe.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...errors import InputError

__all__ = [
    "GapAudit",
    "GAP_METRICS",
    "METRIC_LABELS",
    "read_predictions",
    "choose_thresholds",
    "audit_predictions",
    "performance_rows",
    "table4",
]

log = logging.getLogger("clinaudit.families.hurtful_words.classifier_gaps")

#: Base metrics of the gaps, in P4 Table 4 order (recall first).
GAP_METRICS: tuple[str, ...] = ("recall", "positive_rate", "specificity")
#: Column names of the Table-4 summary per base metric.
METRIC_LABELS: dict[str, str] = {"recall": "recall_gap", "positive_rate": "parity_gap",
                                 "specificity": "specificity_gap"}


# --------------------------------------------------------------------------- reading and checking


def read_predictions(path: str | Path) -> pd.DataFrame:
    """Read a predictions CSV (all columns as read by pandas; empty cells are missing)."""
    p = Path(path)
    if not p.is_file():
        raise InputError("file not found", file=str(p))
    from ...loaders.formats import read_csv_table

    read_csv_table(p)  # strict check first: an unterminated quote names its row instead of swallowing rows
    try:
        df = pd.read_csv(p, keep_default_na=False, na_values=[""], low_memory=False)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise InputError(f"cannot read the predictions CSV: {exc}", file=str(p)) from None
    df.attrs["source"] = str(p)
    return df


def _need_columns(df: pd.DataFrame, cols: Sequence[str | None], source: str) -> None:
    for c in cols:
        if c is not None and c not in df.columns:
            raise InputError(f"column '{c}' not found; available columns: {', '.join(map(str, df.columns))}",
                             file=source, field=c)


def _binary_column(df: pd.DataFrame, col: str, source: str) -> np.ndarray:
    raw = df[col]
    num = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    bad = np.flatnonzero(~np.isin(num, (0.0, 1.0)))
    if bad.size:
        i = int(bad[0])
        raise InputError(f"expected a 0/1 value, got {raw.iloc[i]!r} ({bad.size} such row(s))", file=source,
                         row=i + 1, field=col)
    return num.astype(np.int64)


def _score_column(df: pd.DataFrame, col: str, source: str) -> np.ndarray:
    raw = df[col]
    num = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    bad = np.flatnonzero(~np.isfinite(num))
    if bad.size:
        i = int(bad[0])
        raise InputError(f"expected a number, got {raw.iloc[i]!r} ({bad.size} such row(s))", file=source,
                         row=i + 1, field=col)
    return num


def _group_exclusions(df: pd.DataFrame, groups: list[str], exclude: set[str], test_mask: np.ndarray,
                      src: str) -> dict[str, dict[str, int]]:
    """Test rows left out of each attribute's gaps: blank group cells and values in ``exclude_groups``."""
    out: dict[str, dict[str, int]] = {}
    for g in groups:
        vals = _group_column(df[g], set())[test_mask]
        n_blank = int(vals.isna().sum())
        n_excl = int(vals.isin(exclude).sum()) if exclude else 0
        out[g] = {"blank group": n_blank, "excluded_groups": n_excl}
        if n_blank:
            log.warning("%s: %d of %d test row(s) have a blank '%s' and are left out of its gaps", src, n_blank,
                        len(vals), g)
    return out


def _group_column(s: pd.Series, exclude: set[str]) -> pd.Series:
    vals = s.astype(object)
    out = vals.where(vals.notna(), None).map(lambda v: None if v is None else str(v).strip())
    out = out.map(lambda v: None if (v is None or v == "" or v in exclude) else v)
    return out.astype(object)


# --------------------------------------------------------------------------- thresholds


def choose_thresholds(
    df: pd.DataFrame,
    task_col: str,
    label_col: str,
    score_col: str,
    valid_mask: np.ndarray | None,
    *,
    threshold: float | None = None,
    fallback: float = 0.5,
) -> pd.DataFrame:
    """One decision threshold per task: best F1 on the validation rows (``score >= t`` is positive).

    ``threshold`` fixes it for every task instead. A task without validation
    rows or without validation positives gets ``fallback`` (its ``source``
    says so). Columns: ``task, threshold, source, f1_valid, n_valid,
    n_pos_valid``.
    """
    from .classifier_metrics import f1_optimal_threshold

    rows = []
    for task in pd.unique(df[task_col]):
        in_task = (df[task_col] == task).to_numpy()
        vmask = in_task & valid_mask if valid_mask is not None else np.zeros(len(df), dtype=bool)
        y = df.loc[vmask, label_col].to_numpy(dtype=np.int64)
        s = df.loc[vmask, score_col].to_numpy(dtype=float)
        n_valid, n_pos = int(vmask.sum()), int(y.sum())
        if threshold is not None:
            t, f1, src = float(threshold), math.nan, "fixed"
        elif n_valid == 0:
            t, f1, src = float(fallback), math.nan, "fallback (no validation rows)"
        elif n_pos == 0:
            t, f1, src = float(fallback), math.nan, "fallback (no validation positives)"
        else:
            t, f1 = f1_optimal_threshold(y, s)
            src = "best F1 on validation"
        rows.append({"task": task, "threshold": t, "source": src, "f1_valid": f1, "n_valid": n_valid,
                     "n_pos_valid": n_pos})
    return pd.DataFrame(rows, columns=["task", "threshold", "source", "f1_valid", "n_valid", "n_pos_valid"])


# --------------------------------------------------------------------------- performance


def performance_rows(
    df: pd.DataFrame,
    task_col: str,
    label_col: str,
    score_col: str,
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    audit: str = "classifier_gaps",
    **extra: Any,
) -> pd.DataFrame:
    """Task performance on the given (test) rows as result rows: AUROC (with CI) and AUPRC.

    AUROC's CI is the percentile interval of a label-stratified bootstrap;
    AUPRC (scikit-learn's average precision) is reported with its n only.
    Undefined (one class only) → NaN.
    """
    from sklearn.metrics import average_precision_score, roc_auc_score

    from ...results import result_row, results_frame
    from ...stats import percentile_ci
    from ...stats.auroc import auroc_bootstrap_resamples

    rows = []
    for t, task in enumerate(pd.unique(df[task_col])):
        sub = df[df[task_col] == task]
        y = sub[label_col].to_numpy(dtype=np.int64)
        s = sub[score_col].to_numpy(dtype=float)
        n1 = int(y.sum())
        both = 0 < n1 < len(y)
        auroc = float(roc_auc_score(y, s)) if both else math.nan
        auprc = float(average_precision_score(y, s)) if n1 > 0 else math.nan
        lo = hi = math.nan
        if both and n_resamples > 0:
            lo, hi = percentile_ci(auroc_bootstrap_resamples(s, y, n_resamples, seed + t), confidence)
        common = {"audit": audit, "n": len(y), "task": task, "n_pos": n1, **extra}
        rows.append(result_row(metric="auroc", value=auroc, ci_low=lo, ci_high=hi,
                               ci_method=f"percentile bootstrap ({n_resamples} resamples, stratified by label)"
                               if both else "", **common))
        rows.append(result_row(metric="auprc", value=auprc, **common))
    return results_frame(rows)


# --------------------------------------------------------------------------- the audit


@dataclass
class GapAudit:
    """Outputs of :func:`audit_predictions`.

    ``gaps``: result rows (one per task × attribute × group × metric);
    ``summary``: the Table-4 shape (:func:`table4`); ``thresholds``: one row
    per task; ``performance``: AUROC/AUPRC result rows (scores only);
    ``test``: the test rows with the binary prediction used (``pred``).
    """

    gaps: pd.DataFrame
    summary: pd.DataFrame
    thresholds: pd.DataFrame
    performance: pd.DataFrame
    test: pd.DataFrame
    info: dict[str, Any] = field(default_factory=dict)

    def results(self) -> pd.DataFrame:
        """All result rows (gaps, then performance) in the :mod:`clinaudit.results` schema."""
        from ...results import results_frame

        parts = [p for p in (self.gaps, self.performance) if len(p)]
        return results_frame(pd.concat(parts, ignore_index=True)) if parts else results_frame([])


def audit_predictions(
    df: pd.DataFrame,
    *,
    task_column: str | None,
    label_column: str,
    group_columns: Sequence[str] | str,
    score_column: str | None = None,
    pred_column: str | None = None,
    split_column: str | None = None,
    valid_split: str = "valid",
    test_split: str = "test",
    threshold: float | None = None,
    fallback_threshold: float = 0.5,
    exclude_groups: Sequence[str] = (),
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    correction: str = "fdr_bh",
    alpha: float = 0.05,
    metrics: Sequence[str] = GAP_METRICS,
    audit: str = "classifier_gaps",
    source: str | None = None,
    n_permutations: int = 9999,
    reference_group: Mapping[str, str] | None = None,
    reach_alpha: float | None = None,
    comparison: str = "largest_gap",
) -> GapAudit:
    """Run the classifier fairness audit on a predictions table (see the module docstring).

    With ``score_column``, each task's threshold is the best-F1 threshold on
    the rows whose split is ``valid_split`` (or ``threshold`` for all tasks);
    without a split column, scores need a fixed ``threshold``. With
    ``pred_column`` the 0/1 predictions are used as given. The audit runs on
    the rows whose split is ``test_split`` (all rows without a split column).
    Group values listed in ``exclude_groups`` and empty group cells are
    dropped for that attribute. ``reference_group`` (attribute → group, declared
    before the data) fixes an attribute's reference; otherwise each group is
    compared with the group it differs from most (P4), a choice the
    permutation test repeats in every permutation; ``comparison="rest"`` compares each group with the
    rest of the rows instead (one row per question; docs/verdicts.md). ``reach_alpha``: raise
    ``n_permutations`` so that Holm over every gap row can reach it
    (:func:`.classifier_metrics.classifier_gap_table`; ``info`` says when it
    did). Raises :class:`InputError`
    naming the file, row and field for bad values.
    """
    from .classifier_metrics import classifier_gap_table

    src = source or str(df.attrs.get("source", "<predictions>"))
    groups = [group_columns] if isinstance(group_columns, str) else list(group_columns)
    if not groups:
        raise InputError("no protected attribute given (group columns)", file=src, field="group_columns")
    if (score_column is None) == (pred_column is None):
        raise InputError("give exactly one of a score column or a prediction column", file=src)
    _need_columns(df, [task_column, label_column, score_column, pred_column, split_column, *groups], src)
    if len(df) == 0:
        raise InputError("the predictions table has no rows", file=src)

    work = pd.DataFrame(index=np.arange(len(df)))
    work["task"] = df[task_column].astype(str).to_numpy() if task_column else "all"
    work["label"] = _binary_column(df, label_column, src)
    if score_column is not None:
        work["score"] = _score_column(df, score_column, src)
    else:
        work["pred"] = _binary_column(df, pred_column, src)  # type: ignore[arg-type]
    exclude = {str(x) for x in exclude_groups}
    for g in groups:
        work[g] = _group_column(df[g], exclude).to_numpy()
    split = None
    if split_column is not None:
        split = df[split_column].astype(str).str.strip().to_numpy()
        work["split"] = split

    valid_mask = (split == valid_split) if split is not None else None
    test_mask = (split == test_split) if split is not None else np.ones(len(df), dtype=bool)
    if not test_mask.any():
        have = sorted(set(split.tolist())) if split is not None else []
        raise InputError(f"no test rows: no value {test_split!r} in the split column (values: {have})",
                         file=src, field=split_column)

    if score_column is not None:
        if valid_mask is None and threshold is None:
            raise InputError("scores need a validation split to choose thresholds: give a split column, "
                             "or a fixed threshold", file=src, field="split_column")
        thresholds = choose_thresholds(work, "task", "label", "score", valid_mask, threshold=threshold,
                                       fallback=fallback_threshold)
    else:
        thresholds = pd.DataFrame({"task": pd.unique(work["task"]), "threshold": math.nan,
                                   "source": "binary predictions given", "f1_valid": math.nan,
                                   "n_valid": 0, "n_pos_valid": 0})
    test = work[test_mask].reset_index(drop=True)
    if score_column is not None:
        tmap = dict(zip(thresholds["task"], thresholds["threshold"]))
        test["threshold"] = test["task"].map(tmap).astype(float)
        test["pred"] = (test["score"] >= test["threshold"]).astype(np.int64)
    n_test = test.groupby("task", sort=False).agg(n_test=("label", "size"), n_pos_test=("label", "sum"))
    thresholds = thresholds.merge(n_test, left_on="task", right_index=True, how="left")
    thresholds[["n_test", "n_pos_test"]] = thresholds[["n_test", "n_pos_test"]].fillna(0).astype(int)
    # predicted-positive share on test, so a reader can see degenerate thresholds
    pos_share = test.groupby("task", sort=False)["pred"].mean()
    thresholds["test_positive_rate"] = thresholds["task"].map(pos_share).astype(float)

    excluded = _group_exclusions(df, groups, exclude, test_mask, src)
    reference_group = dict(reference_group or {})
    for attr, ref in reference_group.items():
        if attr not in groups:
            raise InputError(f"reference_group names attribute '{attr}', which is not a group column "
                             f"({', '.join(groups)})", file=src, field="reference_group")
        have = sorted({str(v) for v in test[attr].dropna()})
        if str(ref) not in have:
            raise InputError(f"reference_group: no test row has {attr} = {ref!r} (values: {', '.join(have)})",
                             file=src, field="reference_group")
    gaps = classifier_gap_table(test, "task", "label", "pred", groups, metrics=metrics, n_resamples=n_resamples,
                                seed=seed, confidence=confidence, correction=correction, audit=audit,
                                n_permutations=n_permutations, reference_group=reference_group,
                                reach_alpha=reach_alpha, comparison=comparison)
    used = int(pd.to_numeric(gaps["n_permutations"], errors="coerce").max()) if len(gaps) and \
        pd.to_numeric(gaps["n_permutations"], errors="coerce").notna().any() else n_permutations
    tested = int(gaps["p"].notna().sum()) if len(gaps) else 0
    gaps["metric_label"] = gaps["base_metric"].map(lambda m: METRIC_LABELS.get(m, f"{m}_gap"))
    perf = (performance_rows(test, "task", "label", "score", n_resamples=n_resamples, seed=seed,
                             confidence=confidence, audit=audit)
            if score_column is not None else pd.DataFrame())
    summary = table4(gaps, alpha=alpha, metrics=metrics)
    info = {
        "tasks": int(test["task"].nunique()),
        "test_rows": int(len(test)),
        "attributes": groups,
        "n_resamples": n_resamples,
        "n_permutations": used,
        **({"n_permutations_raised": f"n_permutations raised from {n_permutations:,} to {used:,}: with {tested} tested "
            f"gaps, Holm's smallest p is {tested}/(R + 1), which must be below {reach_alpha:g}/2"}
           if used > n_permutations and reach_alpha is not None else {}),
        "reference_group": reference_group,
        "correction": correction,
        "significant_gaps_ci": int(gaps["significant"].sum()) if len(gaps) else 0,
        "significant_gaps_bh": int((gaps["p_adj"] < alpha).sum()) if len(gaps) else 0,
        "excluded_test_rows": excluded,
    }
    return GapAudit(gaps=gaps, summary=summary, thresholds=thresholds, performance=perf, test=test, info=info)


def table4(gaps: pd.DataFrame, alpha: float = 0.05, metrics: Sequence[str] = GAP_METRICS) -> pd.DataFrame:
    """P4 Table 4: per attribute × group, significant gaps per metric and the % favouring the group.

    Two criteria, one block of rows each (``criterion`` column): ``CI excludes
    0`` (P4 Table 4) and ``BH p_adj < alpha`` (P4 Appendix Table C3). Per
    metric: ``<label>_n_significant``, ``<label>_pct_favour`` and the printed
    cell ``<label>`` = ``"13 (62%)"``. ``comparison`` is ``"A vs. B"`` for a
    two-group attribute and ``"A vs. others"`` otherwise.
    """
    from .classifier_metrics import gap_summary

    cols = ["criterion", "attribute", "group", "comparison", "n_tasks"]
    for m in metrics:
        lab = METRIC_LABELS.get(m, f"{m}_gap")
        cols += [lab, f"{lab}_n_significant", f"{lab}_pct_favour"]
    if len(gaps) == 0:
        return pd.DataFrame(columns=cols)
    blocks = []
    for crit, a in (("CI excludes 0", None), (f"BH p_adj < {alpha:g}", alpha)):
        s = gap_summary(gaps, alpha=a)
        blocks.append((crit, s))
    groups_per_attr = {attr: list(dict.fromkeys(gaps.loc[gaps["attribute"] == attr, "group"].astype(str)))
                       for attr in pd.unique(gaps["attribute"])}
    rows = []
    for crit, s in blocks:
        for attr, glist in groups_per_attr.items():
            for g in glist:
                row: dict[str, Any] = {"criterion": crit, "attribute": attr, "group": g}
                others = [x for x in glist if x != g]
                row["comparison"] = f"{g} vs. {others[0]}" if len(others) == 1 else f"{g} vs. others"
                n_tasks = 0
                for m in metrics:
                    lab = METRIC_LABELS.get(m, f"{m}_gap")
                    hit = s[(s["metric"] == m) & (s["attribute"] == attr) & (s["group"].astype(str) == g)]
                    n_sig = int(hit["n_significant"].iloc[0]) if len(hit) else 0
                    pct = float(hit["pct_favour"].iloc[0]) if len(hit) else math.nan
                    n_tasks = max(n_tasks, int(hit["n_tasks"].iloc[0]) if len(hit) else 0)
                    row[f"{lab}_n_significant"] = n_sig
                    row[f"{lab}_pct_favour"] = pct
                    row[lab] = f"{n_sig} ({pct:.0f}%)" if n_sig else "0 (–)"
                row["n_tasks"] = n_tasks
                rows.append(row)
    return pd.DataFrame(rows)[cols]
