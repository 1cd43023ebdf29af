"""``clinaudit treatment-shift``: TSR / RCR / RCER from labels that already exist (no model calls)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...cli.common import positive_int
from ...registry import register_command

__all__ = ["register"]

_EPILOG = """examples:
  clinaudit treatment-shift --labels ../shared/data/medperturb/data.csv --format medperturb --out ts-medperturb
  clinaudit treatment-shift --labels my_labels.csv --format long --out ts-mine

The long format is one row per label with columns case_id, variant, model, seed, question
(MANAGE|VISIT|RESOURCE), label (1/0, yes/no) and optional dataset, gender, inferred_gender,
validation; see docs/audits/treatment_shift.md. To run models as well, write a spec with
`audit: treatment_shift` and use `clinaudit run`."""


@register_command("treatment-shift", order=110)
def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "treatment-shift",
        help="treatment-shift metrics (TSR/RCR/RCER) from existing labels",
        description="Compute P2 treatment-shift metrics (TSR, RCR, RCER per model x perturbation x question, with "
        "the excess over the noise floor, case-level bootstrap CIs and tests with multiplicity correction, gender "
        "gaps and model agreement) from labels that already exist. No model is called.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--labels", required=True, type=Path, help="label file (CSV)")
    p.add_argument("--format", required=True, choices=["medperturb", "long"], dest="fmt",
                   help="medperturb: MedPerturb data.csv as published; long: one row per label")
    p.add_argument("--out", required=True, type=Path, help="output directory (created)")
    p.add_argument("--baseline", default=None,
                   help="name of the baseline variant (default: 'baseline', or 'vignette' where there is none)")
    p.add_argument("--models", default=None, help="medperturb: comma-separated models (default: all four)")
    p.add_argument("--no-fix-published", action="store_true",
                   help="medperturb: keep the published file's known slips as they are (see notes.txt)")
    p.add_argument("--clinicians", type=Path, default=None,
                   help="CSV of clinician labels for every variant (columns case_id, variant, rater, question, "
                        "label; optional dataset, rater_id): clinicians as a reference rater (default for "
                        "--format medperturb: the file's own clinician columns)")
    p.add_argument("--no-clinicians", action="store_true",
                   help="medperturb: do not use the clinicians' labels of every arm as a reference rater "
                        "(clinician_metrics, excess_over_clinicians, accuracy against clinicians per arm)")
    p.add_argument("--floor-zero", action="store_true",
                   help="declare the noise floor 0 (labels from deterministic decoding, temperature 0); without it, a "
                        "rate with no re-sampled baseline labels gets a CI but no test (docs/metrics.md)")
    p.add_argument("--resamples", type=positive_int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--correction", default="bonferroni", choices=["bonferroni", "fdr_bh"],
                   help="multiplicity correction over the perturbations (default bonferroni, as in P2)")
    p.set_defaults(func=cmd_treatment_shift)


def cmd_treatment_shift(args: argparse.Namespace) -> int:
    from .analysis import analyze_labels, write_outputs
    from .labels import read_labels

    kw: dict = {}
    if args.fmt == "medperturb":
        kw["fix_published"] = not args.no_fix_published
        if args.models:
            kw["models"] = [m.strip() for m in args.models.split(",") if m.strip()]
    elif args.models or args.no_fix_published:
        print("clinaudit: note: --models and --no-fix-published apply to --format medperturb only", file=sys.stderr)
    labels, notes = read_labels(args.labels, args.fmt, **kw)
    clinicians = None
    if args.clinicians is not None:  # human labels for every variant: clinicians as a reference rater
        from .clinicians import read_long_clinicians

        clinicians = read_long_clinicians(args.clinicians)
    elif args.fmt == "medperturb" and not args.no_clinicians:  # MedPerturb's clinicians label every arm
        from .clinicians import read_medperturb_clinicians

        clinicians, cnotes = read_medperturb_clinicians(args.labels, fix_published=not args.no_fix_published)
        notes = list(notes) + cnotes
    analysis = analyze_labels(labels, baseline=args.baseline, n_resamples=args.resamples, seed=args.seed,
                              correction=args.correction, floor_zero=args.floor_zero, notes=notes,
                              clinicians=clinicians)
    paths = write_outputs(analysis, args.out)
    m = analysis.metrics
    cells = m[["dataset", "model", "perturbation", "question"]].drop_duplicates()
    print(f"{len(labels)} labels -> {len(cells)} cells x {m['metric'].nunique()} metrics "
          f"({m['dataset'].nunique()} dataset(s), {m['model'].nunique()} model(s), "
          f"{m['perturbation'].nunique()} perturbation(s)/setting(s))")
    for note in analysis.notes:
        print(f"note: {note}")
    print(f"wrote {', '.join(p.name for p in paths)} to {args.out}")
    return 0
