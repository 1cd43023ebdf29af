"""``clinaudit gate RUN [--baseline RUN_B] [--policy FILE]``: pass (0), fail (1), not gateable (3) or
inconclusive (4)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..registry import register_command

__all__ = ["cmd_gate", "register"]


@register_command("gate", order=930)
def register(sub: argparse._SubParsersAction) -> None:
    from .common import positive_int

    p = sub.add_parser(
        "gate",
        help="the regression gate for CI and model updates: pass / fail / not gateable / inconclusive from a run's verdicts",
        description="Decide whether RUN may ship. Without a policy it fails when any result row's verdict is `bias` "
        "or, with --baseline, when any metric (pooled or in a stratum: perturbation, attribute, question) is "
        "`worse` than the baseline beyond its margin (clinaudit compare's statistics, the baseline as run A). A run "
        "without a failing row passes only with evidence: at least half of its measured effect rows settled (bias "
        "or within the margin) and at most half not measured, per audit and model; else it is inconclusive (exit "
        "4) and a line says about how many cases would settle it. A policy file (YAML) sets per-metric margins, "
        "which verdicts fail, the evidence a pass needs and the validity a run must have. Prints "
        "one line per failing metric and writes the gate report, DIR/gate.json (default RUN/gate/gate.json; with "
        "--baseline also the comparison's files under DIR/comparison/).",
        epilog="Exit status: 0 pass; 1 fail; 2 bad input (no such run, a bad policy file or option); 4 inconclusive "
        "(no bias shown, but too few effects settled or too many not measured to call it a pass); 3 not "
        "gateable (a run or one of its models is unfinished, failed or not measured, no effect row was measured, a "
        "validity threshold of the policy is not met, or the runs are not comparable). Effect rows not measured in "
        "a measured run are printed as warnings and not gated unless the policy says otherwise.\n\n"
        "Examples:\n  clinaudit gate runs/model-v2\n"
        "  clinaudit gate runs/model-v2 --baseline runs/model-v1 --policy gate-policy.yaml\n\n"
        "Policy (every field optional):\n  version: 1\n  fail_on: [bias]\n  margins: {TSR: 0.03}\n"
        "  baseline: {fail_on: [worse], strata: true}\n"
        "  validity: {not_measured: ignore, min_parse_rate: 0.9, min_cases_used: 0.5}\n"
        "  evidence: {min_settled: 0.5, max_not_measured: 0.5}\n"
        "  metrics: [TSR, RCR]\nSee docs/verdicts.md.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run", type=Path, metavar="RUN", help="the run to gate (e.g. the model update)")
    p.add_argument("--baseline", type=Path, default=None, metavar="RUN_B",
                   help="the run it must not be worse than (e.g. the model in use)")
    p.add_argument("--policy", type=Path, default=None, metavar="FILE", help="gate policy (YAML; docs/verdicts.md)")
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="folder for gate.json and the comparison (default RUN/gate)")
    p.add_argument("--n-resamples", type=positive_int, default=2000,
                   help="bootstrap resamples over cases of the baseline comparison (2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the baseline comparison (0)")
    p.set_defaults(func=cmd_gate)


def cmd_gate(args: argparse.Namespace) -> int:
    from ..report.gate import gate_run

    res = gate_run(args.run, args.baseline, args.policy, args.out, n_resamples=args.n_resamples, seed=args.seed)
    if res.comparison is not None:
        for d in res.comparison.info["differences"]:
            print(f"clinaudit gate: warning: the runs differ beyond the model: {d}", file=sys.stderr)
    for text in res.not_measured:
        print(f"clinaudit gate: warning: not gated: {text}", file=sys.stderr)
    for line in res.lines():
        print(line)
    print(res.summary())
    print(f"gate report: {res.file}")
    return res.exit_code
