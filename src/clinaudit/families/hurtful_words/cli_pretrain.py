"""Commands of P4's encoder side: ``pretrain`` (continued MLM pretraining, optionally adversarial) and
``probe-tasks`` (task heads for the 57 tasks on an encoder → a ``classifier-gaps`` predictions CSV)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ...cli.common import nonneg_float, open_unit, positive_float, positive_int
from ...registry import register_command

__all__ = ["add_pretrain", "cmd_pretrain", "add_probe_tasks", "cmd_probe_tasks"]


@register_command("pretrain", order=480)
def add_pretrain(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "pretrain",
        help="continue MLM pretraining of a local masked LM on notes (whole-word masking, PHI tokens, optional "
             "adversarial head)",
        description="Continues masked-LM pretraining of a local model folder on the texts of a CSV (P4 §3.3): MIMIC "
        "de-id spans [**...**] become special tokens, whole words are masked, transformers' Trainer runs it "
        "(GPU when present) with checkpoints in OUT/checkpoints (--resume continues from the newest). With "
        "--adversary-attribute, a discriminator predicts that column from [CLS] through a gradient-reversal layer "
        "(P4 §4.4; P4: lambda 1.0, 3 layers). Writes OUT/model (the encoder: hf-mlm:OUT/model, hf-embed:OUT/model), "
        "OUT/loss.csv, OUT/loss.png, OUT/progress.json, OUT/pretrain.json.",
    )
    p.add_argument("--notes", type=Path, required=True,
                   help="CSV of texts (e.g. pretrain_sequences.csv of clinaudit mimic-tasks --pretraining-corpus)")
    p.add_argument("--text-column", default="text", help="text column (default text)")
    p.add_argument("--split-column", default=None, help="split column; with --splits, only those rows are used")
    p.add_argument("--splits", default="train", help="comma-separated splits kept when --split-column is given")
    p.add_argument("--model", required=True,
                   help="local masked LM folder (never downloaded), or 'tiny' to build a small random BERT here")
    p.add_argument("--out", type=Path, required=True, help="run directory (created)")
    p.add_argument("--max-steps", type=positive_int, default=200, help="optimiser steps (default 200)")
    p.add_argument("--batch-size", type=positive_int, default=16, help="sequences per step (default 16; P4 32)")
    p.add_argument("--max-length", type=positive_int, default=128, help="tokens per sequence (default 128)")
    p.add_argument("--learning-rate", type=positive_float, default=5e-4, help="peak learning rate (default 5e-4; P4 3e-5)")
    p.add_argument("--mlm-probability", type=open_unit, default=0.15, help="share of words masked (default 0.15)")
    p.add_argument("--save-steps", type=positive_int, default=100, help="checkpoint every N steps (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto", help="default auto (GPU if present)")
    p.add_argument("--adversary-attribute", default=None, help="column of the protected attribute: adds the "
                   "adversarial head")
    p.add_argument("--adversary-lambda", type=nonneg_float, default=1.0, help="gradient-reversal strength (default 1.0, P4)")
    p.add_argument("--adversary-layers", type=positive_int, default=3, help="discriminator layers (default 3, P4)")
    p.add_argument("--adversary-lr", type=positive_float, default=None, help="discriminator learning rate (default: the same)")
    p.add_argument("--adversary-normalize", action="store_true",
                   help="standardise the discriminator's input per batch (not in P4; for small fresh models)")
    p.add_argument("--resume", action="store_true", help="continue from the newest checkpoint in OUT/checkpoints")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_pretrain)


def cmd_pretrain(args: argparse.Namespace) -> int:
    import pandas as pd

    from ...errors import InputError
    from .gap_table import read_predictions
    from .pretrain import AdversaryConfig, PretrainConfig, build_tiny_mlm, pretrain

    from ...export import read_store_frame

    # any CSV: strict read, errors name the file and row; a mimic-tasks corpus's safety prefixes taken off
    df = read_store_frame(read_predictions(args.notes))
    for col in [args.text_column, args.split_column, args.adversary_attribute]:
        if col and col not in df.columns:
            raise InputError(f"column '{col}' not found; available columns: {', '.join(map(str, df.columns))}",
                             file=str(args.notes), field=col)
    if args.split_column:
        keep = {s.strip() for s in args.splits.split(",") if s.strip()}
        found = sorted(df[args.split_column].dropna().astype(str).unique())
        df = df[df[args.split_column].astype(str).isin(keep)]
        if df.empty:
            raise InputError(f"no row of split {', '.join(sorted(keep)) or '(none)'} (--splits) in column "
                             f"'{args.split_column}'; its splits: {', '.join(found[:20]) or '(none: no rows)'}",
                             file=str(args.notes), field=args.split_column)
    texts = df[args.text_column].fillna("").astype(str).tolist()
    if not any(t.strip() for t in texts):
        raise InputError(f"no texts to pretrain on: column '{args.text_column}' has {len(texts)} row(s), all empty",
                         file=str(args.notes), field=args.text_column)
    from pydantic import ValidationError

    try:
        adv = None
        if args.adversary_attribute:
            adv = AdversaryConfig(attribute=args.adversary_attribute, lambda_=args.adversary_lambda,
                                  layers=args.adversary_layers, learning_rate=args.adversary_lr,
                                  normalize=args.adversary_normalize)
        cfg = PretrainConfig(max_steps=args.max_steps, batch_size=args.batch_size, max_length=args.max_length,
                             learning_rate=args.learning_rate, mlm_probability=args.mlm_probability,
                             save_steps=args.save_steps, seed=args.seed, device=args.device, adversary=adv)
    except ValidationError as exc:  # the models' own rules, named by the option the value came from
        err = exc.errors()[0]
        name = "_".join(str(p) for p in err["loc"]).rstrip("_")
        if adv is None and args.adversary_attribute:  # AdversaryConfig's field
            name = "adversary_" + {"learning_rate": "lr"}.get(name, name)
        option = "--" + name.replace("_", "-")
        raise InputError(f"{err['msg']}, got {err.get('input')!r}", field=option) from None
    base = args.model
    if base == "tiny":
        base = build_tiny_mlm(texts, args.out / "base", seed=args.seed)
    attrs = df[args.adversary_attribute].where(pd.notna(df[args.adversary_attribute]), None).tolist() if adv else None
    res = pretrain(texts, base, args.out, cfg, attributes=attrs, resume=args.resume, progress=not args.no_progress)
    print(json.dumps({k: res.info[k] for k in ("texts", "sequences", "steps", "device", "seconds", "final_loss")}))
    print(f"encoder: {res.model_dir}  (use hf-mlm:{res.model_dir} or hf-embed:{res.model_dir})")
    print(f"curves: {args.out / 'loss.csv'}, {args.out / 'loss.png'}")
    return 0


@register_command("probe-tasks", order=490)
def add_probe_tasks(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "probe-tasks",
        help="train task heads for P4's 57 tasks on a frozen encoder; write a classifier-gaps predictions CSV",
        description="Reads the task tables of clinaudit mimic-tasks (inhosp_mort.csv, phenotype_all.csv, "
        "phenotype_first.csv in --tasks), embeds every window with the encoder (last-4-layer [CLS]), trains an MLP "
        "head per task (grid selected by validation AUPRC; --paper-grid: P4's grid), and writes --out: one row per "
        "stay x task (case_id, task, split, label, score, the attributes), the input of clinaudit classifier-gaps "
        "--score-column score --split-column split.",
    )
    p.add_argument("--tasks", type=Path, required=True, help="folder written by clinaudit mimic-tasks")
    p.add_argument("--encoder", required=True, help="encoder folder (e.g. a pretrain run's OUT/model)")
    p.add_argument("--out", type=Path, required=True, help="predictions CSV to write")
    p.add_argument("--cohorts", default="inhosp_mort,phenotype_all,phenotype_first",
                   help="comma-separated cohorts (default all three: the 57 tasks)")
    p.add_argument("--paper-grid", action="store_true", help="P4's MLP grid (slower) instead of the small default")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.set_defaults(func=cmd_probe_tasks)


def cmd_probe_tasks(args: argparse.Namespace) -> int:

    from ...errors import InputError
    from ...runner import Runner
    from .finetune import GROUP_COLUMNS, paper_grid, probe_tasks
    from .mimic_phenotypes import task_definitions

    tables, cols = {}, {}
    for cohort in [c.strip() for c in args.cohorts.split(",") if c.strip()]:
        path = args.tasks / f"{cohort}.csv"
        if not path.is_file():
            raise InputError("task table not found (run clinaudit mimic-tasks first)", file=str(path))
        from ...rundir import read_store_table

        tables[cohort] = read_store_table(path)
        cols[cohort] = [t.name for t in task_definitions() if t.cohort == cohort]
    probe = {}
    if args.paper_grid:
        from transformers import AutoConfig

        probe["hidden_sizes"] = paper_grid(4 * AutoConfig.from_pretrained(args.encoder, local_files_only=True)
                                           .hidden_size)
    from .pretrain import cpu_threads, resolve_device

    with cpu_threads(1 if resolve_device("auto") == "cpu" else None):
        res = probe_tasks(tables, cols, f"hf-embed:{Path(args.encoder).resolve()}", runner=Runner(),
                          group_columns=GROUP_COLUMNS, probe=probe, seed=args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    from ...export import store_csv

    store_csv(res.predictions, args.out)
    print(f"{res.info['tasks']} tasks, {res.info['rows']} rows -> {args.out}", file=sys.stdout)
    return 0
