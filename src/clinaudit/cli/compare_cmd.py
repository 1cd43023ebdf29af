"""``clinaudit compare RUN_A RUN_B --out DIR``: per-metric verdicts of run B against run A."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..registry import register_command

__all__ = ["register", "cmd_compare"]


@register_command("compare")
def register(sub: argparse._SubParsersAction) -> None:
    from .common import open_unit, positive_int

    p = sub.add_parser(
        "compare",
        help="compare two runs of one spec (two models, or two versions of a model): better / worse per metric",
        description="Compare run B with run A, two runs of the same audit spec that differ in the model. For each "
        "metric of the audit: the paired difference B − A per case, a 95%% bootstrap CI over cases, a sign-flip "
        "permutation test over cases, Holm over the metrics, and a verdict (better / worse / no detectable change; "
        "each metric's direction is declared with the audit's metrics, clinaudit.metrics.declared). Writes DIR/comparison.csv, "
        "DIR/comparison_cases.csv, DIR/comparison.json and DIR/report.html. Differences between the runs other than "
        "the model (spec fields, data, cases) are printed and shown in the report.",
        epilog="Example:\n  clinaudit compare runs/model-v1 runs/model-v2 --out runs/v1-vs-v2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run_a", type=Path, metavar="RUN_A", help="the reference run (e.g. the model in use)")
    p.add_argument("run_b", type=Path, metavar="RUN_B", help="the run compared with it (e.g. the update)")
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for the comparison's files")
    p.add_argument("--model-a", default=None, help="model of RUN_A to compare, when the run audited several")
    p.add_argument("--model-b", default=None, help="model of RUN_B to compare, when the run audited several")
    p.add_argument("--alpha", type=open_unit, default=0.05, help="significance level of the Holm-adjusted p (0.05)")
    p.add_argument("--n-resamples", type=positive_int, default=2000, help="bootstrap resamples over cases (2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and the permutation test (0)")
    p.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    from ..report.compare import compare_runs

    comp = compare_runs(args.run_a, args.run_b, args.out, model_a=args.model_a, model_b=args.model_b,
                        alpha=args.alpha, n_resamples=args.n_resamples, seed=args.seed)
    for d in comp.info["differences"]:
        print(f"clinaudit compare: warning: the runs differ beyond the model: {d}", file=sys.stderr)
    for rec in comp.table.to_dict("records"):
        print(f"{rec['metric']}: {rec['verdict']} (B − A {rec['difference']:+.4g}, 95% CI "
              f"[{rec['ci_low']:.4g}, {rec['ci_high']:.4g}], p_adj {rec['p_adj']:.3g}, {rec['n_cases']} cases)")
    print(f"comparison: {comp.files['csv']}")
    print(f"report: {comp.files['html']}")
    return 0
