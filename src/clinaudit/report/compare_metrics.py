"""The metrics ``clinaudit compare`` compares, with their direction — defined here and nowhere else.

Each :class:`CompareMetric` turns one run's ``tables/paired.csv`` (the audit's pairs, keyed by
``case_id``) into per-pair scores ``(case_id, score)``; ``clinaudit compare`` pairs the scores of two
runs by case and tests the per-case difference (:mod:`clinaudit.report.compare`). ``direction`` says
which way is better: ``"lower"`` (a shift, a gap, a drift: less is better), ``"higher"`` (accuracy:
more is better) or ``""`` (no declared direction: the verdict then says only *higher* / *lower*).

An audit without an entry in :data:`COMPARE_METRICS` is compared on every numeric column of its
paired table (direction unknown).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError

__all__ = ["read_run_table", "CompareMetric", "COMPARE_METRICS", "DIRECTIONS", "metrics_for", "generic_metrics", "KEY_COLUMNS"]

DIRECTIONS = ("lower", "higher", "")

#: paired-table columns that identify a pair rather than measure it (never compared as metrics)
KEY_COLUMNS = frozenset({"case_id", "seed", "seed_b", "target_index", "position", "row", "source_row", "index",
                         "variant_id", "item_id", "frame", "template_id", "id"})


def read_run_table(run: Path, name: str) -> pd.DataFrame:
    """``RUN/tables/<name>.csv`` as the run store reads it (empty cells NaN); empty frame when absent."""
    path = run / "tables" / f"{name}.csv"
    if not path.is_file():
        return pd.DataFrame()
    try:
        return pd.read_csv(path, keep_default_na=False, na_values=[""], low_memory=False)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    except (ValueError, pd.errors.ParserError) as exc:
        raise InputError(f"unreadable table: {exc}", file=str(path)) from None


@dataclass(frozen=True)
class CompareMetric:
    """One compared metric: ``score(paired) -> DataFrame[case_id, score]`` (NaN score = pair not usable)."""

    name: str
    direction: str  # "lower" | "higher" | "" (see module doc)
    description: str
    score: Callable[[pd.DataFrame], pd.DataFrame]
    scale: str = "proportion"  # "proportion" (0–1 rates: printed in percentage points) or "other"

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise ValueError(f"direction of {self.name} must be one of {DIRECTIONS}")


def _frame(paired: pd.DataFrame, score: np.ndarray | pd.Series) -> pd.DataFrame:
    return pd.DataFrame({"case_id": paired["case_id"].astype(str).to_numpy(),
                         "score": np.asarray(score, dtype=float)})


def _num(paired: pd.DataFrame, col: str) -> pd.Series:
    if col not in paired.columns:
        return pd.Series(np.nan, index=paired.index)
    return pd.to_numeric(paired[col], errors="coerce")


# --------------------------------------------------------------------------- treatment shift

def _ts(metric: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    def score(paired: pd.DataFrame) -> pd.DataFrame:
        from ..families.treatment_shift.metrics import NOISE_FLOOR, pair_scores

        rows = paired[paired.get("perturbation", pd.Series("", index=paired.index)).astype(str) != NOISE_FLOOR]
        rows = rows.reset_index(drop=True)
        return _frame(rows, pair_scores(rows, metric) if len(rows) else np.zeros(0))
    return score


# --------------------------------------------------------------------------- note generation

_NG_CELL = ["case_id", "dataset", "context", "source", "attribute"]


def _ng_shift(paired: pd.DataFrame) -> pd.DataFrame:
    """|incidence(counterfactual value) − incidence(baseline)| per dialog, cell and value."""
    cell = [c for c in _NG_CELL if c in paired.columns]
    d = paired.assign(incidence=_num(paired, "incidence"), group=paired["group"].astype(str))
    base = d[d["group"] == "baseline"].groupby(cell, dropna=False)["incidence"].mean().rename("base")
    alt = d[d["group"] != "baseline"].join(base, on=cell)
    return _frame(alt.reset_index(drop=True), (alt["incidence"] - alt["base"]).abs().to_numpy())


def _ng_incidence(paired: pd.DataFrame) -> pd.DataFrame:
    return _frame(paired, _num(paired, "incidence"))


# --------------------------------------------------------------------------- reasoning / CARE

def _rc_accuracy(paired: pd.DataFrame) -> pd.DataFrame:
    both = pd.concat([_num(paired, "correct_male"), _num(paired, "correct_female")], axis=1).mean(axis=1)
    return _frame(paired, both)


def _rc_gap(paired: pd.DataFrame) -> pd.DataFrame:
    return _frame(paired, (_num(paired, "correct_male") - _num(paired, "correct_female")).abs())


def _rc_col(col: str, absolute: bool = False) -> Callable[[pd.DataFrame], pd.DataFrame]:
    def score(paired: pd.DataFrame) -> pd.DataFrame:
        s = _num(paired, col)
        return _frame(paired, s.abs() if absolute else s)
    return score


# --------------------------------------------------------------------------- association

def _assoc_spread(paired: pd.DataFrame) -> pd.DataFrame:
    """Per frame (case): max − min over the attribute groups of the mean log-probability bias score."""
    keys = [c for c in ("case_id", "model", "method") if c in paired.columns]
    d = paired.assign(score=_num(paired, "score"))
    g = d.groupby(keys + ["group"], dropna=False)["score"].mean().reset_index()
    spread = g.groupby(keys, dropna=False)["score"].agg(lambda s: s.max() - s.min() if s.notna().sum() > 1 else np.nan)
    spread = spread.reset_index()
    return _frame(spread, spread["score"])


# --------------------------------------------------------------------------- classifier gaps

def _cg_correct(paired: pd.DataFrame) -> pd.DataFrame:
    label = next((c for c in ("label", "y_true", "y") if c in paired.columns), None)
    pred = next((c for c in ("pred", "y_pred", "prediction") if c in paired.columns), None)
    if label is None or pred is None:
        return _frame(paired, np.full(len(paired), np.nan))
    y, p = _num(paired, label), _num(paired, pred)
    return _frame(paired, np.where(y.isna() | p.isna(), np.nan, (y == p).astype(float)))


#: The compared metrics of each built-in audit, with their direction (the one place they are declared).
COMPARE_METRICS: dict[str, tuple[CompareMetric, ...]] = {
    "treatment_shift": (
        CompareMetric("TSR", "lower", "treatment shift rate: share of (case, seed, perturbation, question) pairs "
                      "whose treatment label changed under the perturbation (noise-floor pairs left out)", _ts("TSR")),
        CompareMetric("RCR", "lower", "reduced-care rate: share of pairs whose answer moved from the "
                      "care-augmenting to the other label", _ts("RCR")),
    ),
    "note_generation": (
        CompareMetric("counterfactual_shift", "lower", "|incidence under a counterfactual value − incidence of "
                      "the baseline note| per dialog, context and value", _ng_shift),
        CompareMetric("incidence", "", "incidence judged in the notes (every variant)", _ng_incidence),
    ),
    "reasoning_care": (
        CompareMetric("accuracy", "higher", "share of correct answers (male and female versions of each question)",
                      _rc_accuracy),
        CompareMetric("gender_accuracy_gap", "lower", "|correct(male) − correct(female)| per question", _rc_gap),
        CompareMetric("gender_drift", "lower", "semantic drift between the male and female reasoning",
                      _rc_col("drift_gender"), scale="other"),
        CompareMetric("abs_delta_len", "lower", "|length(male) − length(female)| of the reasoning",
                      _rc_col("delta_len", absolute=True), scale="other"),
    ),
    "association": (
        CompareMetric("group_score_spread", "lower", "per sentence frame: max − min over attribute groups of the "
                      "mean log-probability bias score", _assoc_spread, scale="other"),
    ),
    "classifier_gaps": (
        CompareMetric("accuracy", "higher", "share of test rows whose prediction equals the label", _cg_correct),
    ),
}


def generic_metrics(paired: pd.DataFrame) -> tuple[CompareMetric, ...]:
    """Every numeric, non-key column of a paired table as a metric without a direction."""
    out = []
    for col in paired.columns:
        if col in KEY_COLUMNS or col.startswith("_"):
            continue
        vals = pd.to_numeric(paired[col], errors="coerce")
        if vals.notna().sum() == 0 or paired[col].dtype == bool:
            continue
        finite = vals.dropna()
        scale = "proportion" if finite.between(0, 1).all() else "other"
        out.append(CompareMetric(str(col), "", f"mean of the paired table's column '{col}'", _rc_col(str(col)),
                                 scale=scale))
    return tuple(out)


def metrics_for(audit: str, paired: pd.DataFrame) -> tuple[CompareMetric, ...]:
    """The declared metrics of ``audit``, or :func:`generic_metrics` of its paired table."""
    return COMPARE_METRICS.get(audit) or generic_metrics(paired)
