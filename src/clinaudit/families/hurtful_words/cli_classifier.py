"""Commands of the classifier-fairness audit (P4 §4.1–4.4): ``classifier-gaps``, ``probe``, ``debias``.

Each command builds a ``classifier_gaps`` audit spec from its options, runs it
into ``--out`` (a full run directory: ``tables/``, manifest, log, cache;
re-running resumes from the cache) and copies the main tables to
``--out/<name>.csv``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

from ...cli.common import float_between, nonneg_float, nonneg_int, open_unit, positive_int
from ...registry import register_command

__all__ = ["add_classifier_gaps", "cmd_classifier_gaps", "add_probe", "cmd_probe",
           "add_debias", "cmd_debias"]


def _csv_list(text: str | None) -> list[str]:
    if text is None:
        return []
    return [x.strip() for x in text.split(",") if x.strip()]


def _hidden_sizes(text: str) -> list[list[int]]:
    try:
        return [[int(h) for h in part.split(",") if h.strip()] for part in text.split(";") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected sizes like '64;128,64', got {text!r}") from None


def _floats(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None


def _add_stats_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("statistics")
    g.add_argument("--n-resamples", type=positive_int, default=1000,
                   help="bootstrap resamples of the test set (default 1000)")
    g.add_argument("--n-permutations", type=positive_int, default=None,
                   help="relabellings of the group for each gap's permutation p (the smallest p is 1/(N+1); default "
                   "9999, raised when the run-level Holm over the gaps needs more to reach alpha)")
    g.add_argument("--confidence", type=open_unit, default=0.95, help="CI level (default 0.95)")
    g.add_argument("--correction", choices=["fdr_bh", "bonferroni", "holm"], default="fdr_bh",
                   help="multiplicity correction across tasks, per metric × attribute (default fdr_bh)")
    g.add_argument("--alpha", type=open_unit, default=0.05, help="level of the corrected counts (default 0.05)")
    g.add_argument("--seed", type=int, default=0, help="seed of the bootstrap, split and models (default 0)")
    g.add_argument("--valid-split", default="valid", help="split value of the validation rows (default valid)")
    g.add_argument("--test-split", default="test", help="split value of the test rows (default test)")
    g.add_argument("--exclude-groups", default=None, help="comma-separated group values to drop (e.g. UNKNOWN)")
    g.add_argument("--no-progress", action="store_true", help="no progress bars")


def _stats_params(args: argparse.Namespace) -> dict[str, Any]:
    return {"n_resamples": args.n_resamples, **({"n_permutations": args.n_permutations} if args.n_permutations else {}),
            "confidence": args.confidence, "correction": args.correction,
            "alpha": args.alpha, "valid_split": args.valid_split, "test_split": args.test_split,
            "exclude_groups": _csv_list(args.exclude_groups)}


def _run(spec_dict: dict[str, Any], out: Path, no_progress: bool, copy: list[str]) -> Path:
    from ...spec import parse_spec_dict
    from ...pipeline import run_spec

    spec, params = parse_spec_dict(spec_dict, source="command line")
    rundir = run_spec(spec, out, params=params, progress=not no_progress, command=" ".join(sys.argv))
    for name in copy:
        if rundir.has_table(name):
            shutil.copyfile(rundir.table_path(name), out / f"{name}.csv")
    return out


def _print_summary(path: Path) -> None:
    import pandas as pd

    from ...rundir import read_store_table

    if not path.exists():
        return
    df = read_store_table(path)  # the exact values (the file's cells carry the spreadsheet-safety prefix)
    df = df[df["criterion"] == "CI excludes 0"] if "criterion" in df.columns else df
    cols = [c for c in ("attribute", "comparison", "n_tasks", "recall_gap", "parity_gap", "specificity_gap")
            if c in df.columns]
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print("Significant gaps (95% CI excludes 0) and % of them favouring the group:")
        print(df[cols].to_string(index=False))


# --------------------------------------------------------------------------- classifier-gaps


@register_command("classifier-gaps", order=430)
def add_classifier_gaps(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "classifier-gaps",
        help="fairness gaps of a classifier's predictions: parity, recall, specificity (P4 Table 4)",
        description="Per task: the best-F1 threshold on the validation split (when scores are given), then on the "
        "test split the parity / recall / specificity of each group, each group's gap to the group it differs from "
        "most (or --reference-group), 95%% CIs from a label-stratified bootstrap, permutation p-values (the reference re-chosen in every relabelling), Benjamini-Hochberg across tasks, and the counts of "
        "significant gaps with the share favouring each group. Writes OUT/gaps.csv, OUT/summary.csv (P4 Table 4 "
        "shape), OUT/thresholds.csv, OUT/performance.csv and a run directory (OUT/tables, manifest).",
    )
    p.add_argument("--predictions", type=Path, required=True, help="predictions CSV (one row per case × task)")
    p.add_argument("--task-column", default="task", help="task column (default task)")
    p.add_argument("--label-column", default="label", help="0/1 label column (default label)")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--score-column", help="score column (probabilities; thresholded per task)")
    g.add_argument("--pred-column", help="0/1 prediction column (used as given)")
    p.add_argument("--group-column", required=True, help="protected attribute column(s), comma-separated")
    p.add_argument("--split-column", default=None, help="split column (validation rows tune thresholds)")
    p.add_argument("--threshold", type=float_between(), default=None, help="fixed threshold for every task (no tuning)")
    p.add_argument("--reference-group", type=_reference_groups, default=None, metavar="ATTR=GROUP[,ATTR=GROUP]",
                   help="compare every group of ATTR with GROUP, declared before the data (default: with the group "
                   "each differs from most, P4)")
    p.add_argument("--out", type=Path, required=True, help="output / run directory")
    _add_stats_args(p)
    p.set_defaults(func=cmd_classifier_gaps)


def _reference_groups(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in _csv_list(text):
        attr, sep, group = part.partition("=")
        if not sep or not attr.strip() or not group.strip():
            raise argparse.ArgumentTypeError(f"expected ATTR=GROUP (e.g. gender=F), got {part!r}")
        out[attr.strip()] = group.strip()
    return out


def cmd_classifier_gaps(args: argparse.Namespace) -> int:
    params = {
        "predictions": str(args.predictions.resolve()),
        "task_column": args.task_column,
        "label_column": args.label_column,
        "score_column": args.score_column,
        "pred_column": args.pred_column,
        "group_columns": _csv_list(args.group_column),
        "split_column": args.split_column,
        "threshold": args.threshold,
        "reference_group": args.reference_group or {},
        **_stats_params(args),
    }
    spec = {"audit": "classifier_gaps", "name": "classifier-gaps", "seed": args.seed, "params": params}
    out = _run(spec, args.out, args.no_progress, ["gaps", "summary", "thresholds", "performance"])
    _print_summary(out / "summary.csv")
    return _print_exclusions(out)


def _print_exclusions(out: Path) -> int:
    """Say how many test rows each attribute left out (blank group cells, --exclude-groups), one line per
    attribute; the exit status: 1 when an attribute's gaps rest on under half of the test rows
    (:func:`~clinaudit.cli.common.report_dropped`)."""
    import json

    from ...cli.common import report_dropped

    try:
        summary = json.loads((out / "manifest.json").read_text(encoding="utf-8")).get("summary") or {}
    except (OSError, ValueError):
        return 0
    total = int(summary.get("test_rows", 0) or 0)
    status = 0
    for attr, counts in (summary.get("excluded_test_rows") or {}).items():
        parts = [f"{n} with a blank group" if k == "blank group" else f"{n} in --exclude-groups"
                 for k, n in counts.items() if n]
        if parts:
            dropped = sum(int(n) for n in counts.values())
            status = max(status, report_dropped("classifier-gaps", dropped, max(total, dropped),
                                                f"test rows of the '{attr}' gaps", " and ".join(parts),
                                                f"{out / 'manifest.json'}, summary.excluded_test_rows"))
    return status


# --------------------------------------------------------------------------- probe / debias


def _add_probe_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--input", type=Path, required=True,
                   help="cases: a CSV (one row per text), the CRAFT-MD CSV (--preset craftmd) or MIMIC-III (--format "
                   "mimic3: the folder or NOTEEVENTS.csv)")
    p.add_argument("--format", choices=["csv", "craftmd", "mimic3"], default=None,
                   help="input format (default csv; craftmd with --preset craftmd)")
    p.add_argument("--preset", choices=["craftmd"], default=None,
                   help="craftmd: one-vs-rest specialty tasks; sex and race read from the vignette text")
    p.add_argument("--top-k", type=positive_int, default=3, help="craftmd: tasks for the k most frequent categories")
    p.add_argument("--text-column", default=None, help="text column (csv)")
    p.add_argument("--id-column", default=None, help="id column (csv; default the row number)")
    p.add_argument("--label-column", default=None, help="0/1 label column(s), comma-separated; one task each")
    p.add_argument("--group-column", default=None, help="protected attribute column(s), comma-separated")
    p.add_argument("--split-column", default=None, help="split column with train/valid/test (default: seeded split)")
    p.add_argument("--covariates", default=None, help="numeric covariate columns appended to the features")
    p.add_argument("--encoder", required=True,
                   help="encoder spec: hf-embed:<path> (BERT last-4-layer [CLS]), embedded-embedder, mock")
    p.add_argument("--sample", type=positive_int, default=None, help="probe a seeded sample of N cases")
    p.add_argument("--categories", default=None, help="mimic3: note categories to keep, comma-separated")
    p.add_argument("--window-words", type=nonneg_int, default=0, help="words per window (0: whole text; default 0)")
    p.add_argument("--window-stride", type=positive_int, default=None,
                   help="words between window starts (default: length)")
    p.add_argument("--max-windows", type=positive_int, default=10,
                   help="at most this many windows per text (default 10)")
    p.add_argument("--hidden-sizes", type=_hidden_sizes, default=None,
                   help="MLP grid: hidden layer sizes, e.g. '64;128,64' (default)")
    p.add_argument("--alphas", type=_floats, default=None, help="MLP grid: L2 penalties, e.g. 0.0001,0.01 (default)")
    p.add_argument("--batch-size", type=positive_int, default=None, help="texts per encoder batch")
    p.add_argument("--out", type=Path, required=True, help="output / run directory")
    _add_stats_args(p)


def _probe_spec(args: argparse.Namespace, debias: dict[str, Any] | None = None) -> dict[str, Any]:
    from ...errors import InputError

    fmt = args.format or ("craftmd" if args.preset == "craftmd" else "csv")
    source: dict[str, Any] = {"format": fmt, "path": str(args.input.resolve())}
    if fmt == "csv":
        if not args.text_column:
            raise InputError("--text-column is required for a CSV input", field="--text-column")
        source["columns"] = {"text": args.text_column, **({"id": args.id_column} if args.id_column else {})}
    if fmt == "mimic3" and args.categories:
        source["options"] = {"categories": _csv_list(args.categories)}
    probe: dict[str, Any] = {
        "preset": args.preset,
        "top_k": args.top_k,
        "label_fields": _csv_list(args.label_column),
        "group_fields": _csv_list(args.group_column),
        "split_field": args.split_column,
        "covariates": _csv_list(args.covariates),
        "sample": args.sample,
        "window_words": args.window_words,
        "window_stride": args.window_stride,
        "max_windows": args.max_windows,
    }
    if args.hidden_sizes:
        probe["hidden_sizes"] = args.hidden_sizes
    if args.alphas:
        probe["alphas"] = args.alphas
    if debias is not None:
        probe["debias"] = debias
    spec: dict[str, Any] = {
        "audit": "classifier_gaps",
        "name": "probe" if debias is None else "debias",
        "seed": args.seed,
        "data": [source],
        "models": {"encoder": args.encoder},
        "params": {"probe": probe, **_stats_params(args)},
    }
    if args.batch_size:
        spec["backends"] = {args.encoder: {"batch_size": args.batch_size}}
    return spec


@register_command("probe", order=440)
def add_probe(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "probe",
        help="probe a frozen encoder: MLP on its embeddings per task, then the fairness gaps (P4 §4.1)",
        description="Embed every text (word windows, merged with P4 Eq. 1) with a frozen encoder, train an MLP per "
        "task (grid over hidden sizes and L2, selected by validation AUPRC), then run the classifier-gaps audit on "
        "the test split. Writes OUT/predictions.csv, OUT/probe_grid.csv, OUT/gaps.csv, OUT/summary.csv, "
        "OUT/thresholds.csv, OUT/performance.csv (and OUT/extraction.csv for --preset craftmd).",
    )
    _add_probe_args(p)
    p.set_defaults(func=cmd_probe)


_PROBE_TABLES = ["predictions", "probe_grid", "gaps", "summary", "thresholds", "performance", "extraction",
                 "demographics"]


def cmd_probe(args: argparse.Namespace) -> int:
    out = _run(_probe_spec(args), args.out, args.no_progress, _PROBE_TABLES)
    _print_summary(out / "summary.csv")
    return 0


@register_command("debias", order=450)
def add_debias(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "debias",
        help="adversarial debiasing (gradient reversal) on frozen encoder features: gaps and attribute "
        "recovery before/after (P4 §4.4, Table 5)",
        description="Like `probe`, then per task a baseline network and one trained against a gradient-reversed "
        "adversary predicting --attribute; reports task AUROC/AUPRC, the fairness gaps of both (P4 Table 5 shape) "
        "and how well a fresh logistic regression still recovers the attribute from each learned representation. "
        "Writes OUT/debias.csv, OUT/debias_gaps.csv, OUT/debias_summary.csv besides the probe's tables.",
    )
    _add_probe_args(p)
    p.add_argument("--attribute", required=True, help="protected attribute the adversary predicts (a group column)")
    p.add_argument("--lambda", dest="lambda_", type=nonneg_float, default=1.0,
                   help="gradient-reversal strength (default 1)")
    p.add_argument("--epochs", type=positive_int, default=300, help="training epochs (full batch; default 300)")
    p.add_argument("--adversary-steps", type=nonneg_int, default=3, help="adversary-only updates per epoch (default 3)")
    p.set_defaults(func=cmd_debias)


def cmd_debias(args: argparse.Namespace) -> int:
    debias = {"attribute": args.attribute, "lambda": args.lambda_, "epochs": args.epochs,
              "adversary_steps": args.adversary_steps}
    out = _run(_probe_spec(args, debias), args.out, args.no_progress,
               _PROBE_TABLES + ["debias", "debias_gaps", "debias_summary"])
    import pandas as pd

    from ...rundir import read_store_table

    res = read_store_table(out / "debias.csv")
    show = res[res["metric"].isin(["auroc", "attribute_auc"])][["task", "model", "metric", "value", "ci_low",
                                                                 "ci_high", "n"]]
    with pd.option_context("display.width", 160, "display.max_columns", 20, "display.float_format", "{:.3f}".format):
        print(show.to_string(index=False))
    return 0
