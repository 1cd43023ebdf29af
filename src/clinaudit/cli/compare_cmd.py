"""``clinaudit compare RUN_A RUN_B --out DIR``: verdicts of run B against run A, pooled and per stratum."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..registry import register_command

__all__ = ["register", "cmd_compare"]


@register_command("compare", order=920)
def register(sub: argparse._SubParsersAction) -> None:
    from .common import open_unit, positive_int

    p = sub.add_parser(
        "compare",
        help="compare two runs of one spec (two models, or two versions of a model): per metric and stratum",
        description="Compare run B with run A, two finished runs of the same audit spec that differ in the model. "
        "For each metric of the audit, pooled and per stratum (each perturbation, attribute, question …): the "
        "paired difference B − A per case, a 95%% bootstrap CI over cases, a sign-flip permutation test over cases, "
        "Holm within each family (a model pair's pooled metrics; one metric's strata) and a verdict: better / worse "
        "(significant, signed by the metric's direction, declared with the audit's metrics in clinaudit.metrics.declared), within_margin (the CI lies inside ± the "
        "metric's margin) or inconclusive. When both runs hold several models, each model is compared with its "
        "namesake. Writes DIR/comparison.csv, DIR/comparison_cases.csv, DIR/comparison.json and DIR/report.html. "
        "Differences between the runs other than the model (spec fields, data, cases) are printed and shown in the "
        "report. compare only reports: `clinaudit gate RUN --baseline RUN_A` decides pass or fail.",
        epilog="Exit status: 0 the comparison was made (whatever the verdicts); 2 bad input (no such run, a model that is "
        "not in the run, bad options); 3 not comparable (runs of two audits; a run is unfinished or failed, has no "
        "usable pairs, or both runs hold several models and none has a namesake).\n\n"
        "Example:\n  clinaudit compare runs/model-v1 runs/model-v2 --out runs/v1-vs-v2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run_a", type=Path, metavar="RUN_A", help="the reference run (e.g. the model in use)")
    p.add_argument("run_b", type=Path, metavar="RUN_B", help="the run compared with it (e.g. the update)")
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for the comparison's files")
    p.add_argument("--model-a", default=None, help="model of RUN_A to compare, when the run audited several")
    p.add_argument("--model-b", default=None, help="model of RUN_B to compare, when the run audited several")
    p.add_argument("--alpha", type=open_unit, default=0.05, help="significance level of the Holm-adjusted p (0.05)")
    p.add_argument("--margin", type=open_unit, default=None,
                   help="margin for every metric, overriding the declared ones (rates: 0.05 = 5 percentage points)")
    p.add_argument("--n-resamples", type=positive_int, default=2000, help="bootstrap resamples over cases (2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and the permutation test (0)")
    p.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    from ..report.compare import CHANGED, POOLED, compare_runs

    comp = compare_runs(args.run_a, args.run_b, args.out, model_a=args.model_a, model_b=args.model_b,
                        alpha=args.alpha, margin=args.margin, n_resamples=args.n_resamples, seed=args.seed)
    for d in comp.info["differences"]:
        print(f"clinaudit compare: warning: the runs differ beyond the model: {d}", file=sys.stderr)
    several = comp.table["model_b"].nunique() > 1
    changed = comp.changed()
    for rec in comp.table.to_dict("records"):
        if rec["stratum"] != POOLED and rec["verdict"] not in CHANGED:
            continue  # per-stratum rows are printed when they show a change; every row is in comparison.csv
        where = "" if rec["stratum"] == POOLED else f" [{rec['stratum']} = {rec['level']}]"
        who = f"{rec['model_b']}: " if several else ""
        print(f"{who}{rec['metric']}{where}: {rec['verdict']} (B − A {rec['difference']:+.4g}, 95% CI "
              f"[{rec['ci_low']:.4g}, {rec['ci_high']:.4g}], p_adj {rec['p_adj']:.3g}, {rec['n_cases']} cases)")
    n_strata = int((comp.table["stratum"] != POOLED).sum())
    print(f"{len(changed)} of {len(comp.table)} rows show a change ({n_strata} per-stratum rows; all in the CSV)")
    print(f"comparison: {comp.files['csv']}")
    print(f"report: {comp.files['html']}")
    return 0
