"""Commands of the MIMIC-III side of Hurtful Words: ``synth-mimic`` (synthetic MIMIC-schema tables) and
``mimic-tasks`` (P4's cohorts and 57 tasks, optionally the pretraining corpus)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ...cli.common import nonneg_float, positive_int
from ...registry import register_command

__all__ = ["add_synth_mimic", "cmd_synth_mimic", "add_mimic_tasks", "cmd_mimic_tasks"]


@register_command("synth-mimic", order=460)
def add_synth_mimic(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "synth-mimic",
        help="write fictional MIMIC-III-schema tables (PATIENTS, ADMISSIONS, ICUSTAYS, DIAGNOSES_ICD, NOTEEVENTS) "
             "with planted group effects",
        description="Writes OUT/PATIENTS.csv, ADMISSIONS.csv, ICUSTAYS.csv, DIAGNOSES_ICD.csv and NOTEEVENTS.csv "
        "(MIMIC-III column names) for N fictional patients, and OUT/synth_mimic.json with the seed, the row counts and "
        "the planted effects (prevalence odds ratios, group-dependent documentation of conditions, attribute-revealing "
        "words). The same seed gives byte-identical files. Nothing in them comes from MIMIC.",
    )
    p.add_argument("--out", type=Path, required=True, help="output folder (created)")
    p.add_argument("--patients", type=positive_int, default=200, help="number of patients (default 200)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--gzip", action="store_true", help="write .csv.gz as PhysioNet distributes them")
    p.set_defaults(func=cmd_synth_mimic)


def cmd_synth_mimic(args: argparse.Namespace) -> int:
    from .synth_mimic import synth_mimic

    res = synth_mimic(args.out, args.patients, args.seed, compress=args.gzip)
    for table, n in res.counts.items():
        print(f"{table:<14} {n:>8} rows  {res.paths[table]}")
    print(f"planted effects: {res.out / 'synth_mimic.json'}")
    return 0


def _fraction(text: str) -> float:
    v = float(text)
    if not 0 <= v < 1:
        raise argparse.ArgumentTypeError(f"expected a fraction in [0, 1), got {text!r}")
    return v


@register_command("mimic-tasks", order=470)
def add_mimic_tasks(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mimic-tasks",
        help="P4's cohorts and 57 binary tasks from MIMIC-III tables (in-hospital mortality, phenotypes from all "
             "notes and from the first note), with patient-level splits",
        description="Reads PATIENTS, ADMISSIONS, ICUSTAYS, DIAGNOSES_ICD and NOTEEVENTS (.csv or .csv.gz) from "
        "--mimic and writes OUT/inhosp_mort.csv, phenotype_all.csv, phenotype_first.csv (one row per ICU stay: "
        "split, ids, protected attributes, text, sequences, task columns 0/1), tasks.csv (the 57 tasks with counts), "
        "splits.csv, exclusions.csv (every dropped stay with its reason, note counts), labels_long.csv and "
        "mimic_tasks.json. --pretraining-corpus also writes pretrain_sequences.csv (every inpatient note as "
        "sentences packed into sequences of at least --min-tokens tokens). See docs/data-formats.md "
        "(Cohorts and tasks).",
    )
    p.add_argument("--mimic", type=Path, required=True, help="folder with the MIMIC-III tables")
    p.add_argument("--out", type=Path, required=True, help="output folder (created)")
    p.add_argument("--test-subjects", type=Path, default=None,
                   help="held-out test patients: CSV of SUBJECT_IDs (optional 0/1 second column, as the MIMIC-III "
                        "benchmark's testset.csv); default: a random --test-fraction of the patients")
    p.add_argument("--test-fraction", type=_fraction, default=0.15, help="test share without a list (default 0.15)")
    p.add_argument("--valid-fraction", type=_fraction, default=0.2,
                   help="validation share of the non-test patients (default 0.2, P4)")
    p.add_argument("--seed", type=int, default=0, help="seed of the splits (default 0)")
    p.add_argument("--tokenizer", type=Path, default=None,
                   help="local Hugging Face tokenizer folder to count tokens (default: words and punctuation)")
    p.add_argument("--window", type=positive_int, default=510, help="tokens per note window (default 510)")
    p.add_argument("--stride", type=positive_int, default=256, help="window stride in tokens (default 256)")
    p.add_argument("--max-windows", type=positive_int, default=10, help="windows per note (default 10)")
    p.add_argument("--max-sequences", type=positive_int, default=30, help="windows per ICU stay (default 30)")
    p.add_argument("--window-hours", type=nonneg_float, default=48.0, help="early window in hours (default 48)")
    p.add_argument("--pretraining-corpus", action="store_true", help="also write pretrain_sequences.csv")
    p.add_argument("--min-tokens", type=positive_int, default=20, help="minimum tokens per pretraining sequence (20)")
    p.add_argument("--encoding", default="utf-8", help="text encoding of the tables (default utf-8)")
    p.set_defaults(func=cmd_mimic_tasks)


def cmd_mimic_tasks(args: argparse.Namespace) -> int:
    from .mimic_corpus import pretraining_sequences
    from .mimic_tasks import TaskOptions, build_mimic_tasks
    from .mimic_text import hf_tokenizer

    tok = hf_tokenizer(args.tokenizer) if args.tokenizer else None
    opts = TaskOptions(window_hours=args.window_hours, window=args.window, stride=args.stride,
                       max_windows=args.max_windows, max_sequences=args.max_sequences,
                       test_fraction=args.test_fraction, valid_fraction=args.valid_fraction, seed=args.seed)
    res = build_mimic_tasks(args.mimic, test_subjects=args.test_subjects, tokenizer=tok, options=opts,
                            encoding=args.encoding)
    paths = res.write(args.out)
    for cohort, df in res.tables.items():
        counts = df["split"].value_counts()
        print(f"{cohort:<16} {len(df):>7} ICU stays  (train {counts.get('train', 0)}, valid {counts.get('valid', 0)}, "
              f"test {counts.get('test', 0)})  {paths[cohort]}")
    print(f"tasks: {len(res.tasks)}  ({paths['tasks']}); exclusions: {paths['exclusions']}")
    if args.pretraining_corpus:
        corpus = pretraining_sequences(args.mimic, splits=res.splits, tokenizer=tok, min_tokens=args.min_tokens,
                                       encoding=args.encoding)
        path = args.out / "pretrain_sequences.csv"
        from ...export import store_csv

        store_csv(corpus, path)
        print(f"pretraining corpus: {len(corpus)} sequences from {corpus['note_id'].nunique()} notes  {path}")
    return 0
