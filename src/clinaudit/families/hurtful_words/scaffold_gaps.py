"""What ``clinaudit init classifier_gaps --data FILE`` writes for a file of a classifier's predictions."""

from __future__ import annotations

from ...errors import InputError
from ...scaffold import Columns, Scaffold

__all__ = ["scaffold"]

#: how a split column commonly names its validation and its test rows (compared in lower case)
_VALID_NAMES = ("valid", "validation", "val", "dev", "development", "tune", "tuning", "calibration")
_TEST_NAMES = ("test", "testing", "holdout", "held_out", "held-out", "eval", "evaluation")


def _split_value(values: list[str], names: tuple[str, ...]) -> str | None:
    by_lower = {v.lower(): v for v in reversed(values)}
    return next((by_lower[n] for n in names if n in by_lower), None)


def _splits(cols: Columns, params: dict[str, object], comments: dict[str, str]) -> None:
    """``valid_split`` / ``test_split`` from the split column's values; no test value: an error naming them."""
    if cols.split is None:
        return
    values = cols.split_values
    test = _split_value(values, _TEST_NAMES)
    if test is None:
        raise InputError(f"the split column {cols.split!r} has no value naming test rows ({', '.join(_TEST_NAMES)}); "
                         f"its values: {', '.join(values[:12]) or '(none)'}. Rename them, or drop the column to "
                         "audit every row", file=str(cols.path), field=cols.split)
    valid = _split_value(values, _VALID_NAMES)
    params["test_split"] = test
    if valid is not None:
        params["valid_split"] = valid
    comments["params.test_split"] = f"rows audited (values of {cols.split!r}: {', '.join(values[:12])})"
    comments["params.valid_split"] = "rows that tune each task's threshold"
    if valid is None:
        comments["params.test_split"] += "; no validation value found: thresholds default to 0.5"


def scaffold(cols: Columns) -> Scaffold:
    """Labels, scores (or 0/1 predictions), the protected attributes, and the task and split columns if present;
    no model calls."""
    if cols.label is None or (cols.score is None and cols.prediction is None):
        raise InputError("a predictions file needs a label column (label, y, target, outcome) and a score column "
                         "(score, prob, probability) or a 0/1 prediction column (pred, prediction); found: "
                         + ", ".join(cols.header), file=str(cols.path), field="columns")
    groups = [c for c in [cols.gender, *cols.demographics] if c]
    if not groups:
        raise InputError("no protected-attribute column found (gender, sex, race, ethnicity, age, language, "
                         "insurance ...): name one like that", file=str(cols.path), field="columns")
    params: dict[str, object] = {"predictions": cols.spec_path, "task_column": cols.task, "label_column": cols.label}
    if cols.score:
        params["score_column"] = cols.score
    else:
        params["pred_column"] = cols.prediction
    params["group_columns"] = groups
    params["split_column"] = cols.split
    params["n_resamples"] = 1000
    params["correction"] = "fdr_bh"
    comments: dict[str, str] = {
        "params.predictions": "relative to this spec file",
        "params.task_column": "null: the file holds one task",
        "params.score_column": "scores in [0, 1], thresholded per task at the best F1 on the validation rows",
        "params.pred_column": "0/1 predictions used as given",
        "params.group_columns": "protected attributes: gaps between their groups",
        "params.split_column": "null: no validation rows (threshold 0.5); else 'valid' rows tune, 'test' rows audit",
        "params.n_resamples": "label-stratified bootstrap of the test rows",
        "params.correction": "across tasks, per metric x attribute",
    }
    _splits(cols, params, comments)
    header = [
        f"Classifier fairness gaps (P4 Table 4) of the predictions in {cols.path.name} ({cols.n_rows} rows),",
        "written by `clinaudit init` (no model calls). Run it with:",
        "  clinaudit run {spec} --out runs/classifier_gaps --report",
    ]
    return Scaffold(data=None, models={}, params=params, comments=comments, header=header)
