"""Commands of the MIMIC-III side of Hurtful Words: ``synth-mimic`` (synthetic MIMIC-schema tables)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ...cli.common import positive_int

__all__ = ["register", "COMMANDS", "add_synth_mimic", "cmd_synth_mimic"]


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


COMMANDS = [add_synth_mimic]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the MIMIC commands to the ``clinaudit`` command line."""
    for add in COMMANDS:
        add(sub)
