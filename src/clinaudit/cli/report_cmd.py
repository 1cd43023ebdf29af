"""``clinaudit report`` (run directories -> one HTML file) and ``clinaudit demo``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..registry import register_command

__all__ = ["add_report", "add_demo", "cmd_report", "cmd_demo"]


def _audit_list(text: str) -> list[str]:
    names = [a.strip().replace("-", "_") for a in text.split(",") if a.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one audit name")
    return names


@register_command("report", order=900)
def add_report(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="render run directories into one self-contained HTML report",
        description="Render one or more run directories into one HTML file that needs no network (figures inline, "
        "every table and figure's numbers downloadable as CSV), plus report.md and tables.tex with every table. "
        "A folder holding several run directories (e.g. a `clinaudit demo` output) is searched for them.",
        epilog="Examples:\n  clinaudit report runs/ts-mock\n  clinaudit report runs/demo --out demo.html\n"
        "  clinaudit report runs/a runs/b --title 'Two models'",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run_dirs", nargs="+", type=Path, metavar="RUN_DIR",
                   help="run directory, or a folder with run directories below it")
    p.add_argument("--out", type=Path, default=None,
                   help="HTML file to write (default: RUN_DIR/report.html for one directory, else ./report.html)")
    p.add_argument("--title", default=None, help="report title (default: the audits' names)")
    p.set_defaults(func=cmd_report)


@register_command("demo", order=910)
def add_demo(sub: argparse._SubParsersAction) -> None:
    from ..demo import DEMO_AUDITS

    p = sub.add_parser(
        "demo",
        help="run every audit family on the built-in demo data and write the report",
        description="Run the five audit families on clinaudit's own demo data with the embedded local models "
        "(a few minutes on a laptop CPU), one run directory each under OUT, then write OUT/report.html and print "
        "its path. A second run reuses the stored model calls and finishes in seconds. An audit that fails is "
        "reported and the others still run (exit status 1).",
        epilog=f"Audits: {', '.join(DEMO_AUDITS)}.",
    )
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (default runs/demo, or runs/demo-quick with --quick)")
    p.add_argument("--audits", type=_audit_list, default=None,
                   help="comma-separated subset of the audits to run (default: all five)")
    p.add_argument("--quick", action="store_true",
                   help="a smaller demo (two cases per data source, one seed, fewer resamples)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="worker processes running audits side by side (default: up to 3, one per usable CPU, the "
                        "CPUs split between them; 1 runs the audits one after the other in this process, with "
                        "progress bars)")
    p.set_defaults(func=cmd_demo)


def cmd_report(args: argparse.Namespace) -> int:
    from ..report.render import build_report

    files = build_report(args.run_dirs, args.out, args.title)
    for f in files.failed_sections:
        print(f"clinaudit report: warning: section unavailable for {f} (the report shows its tables)",
              file=sys.stderr)
    print(f"tables: {files.markdown}, {files.latex}", file=sys.stderr)
    print(f"report: {files.html}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from ..demo import run_demo

    out = args.out or Path("runs/demo-quick" if args.quick else "runs/demo")
    result = run_demo(out, args.audits, quick=args.quick, progress=not args.no_progress, jobs=args.jobs)
    if result.report is not None:
        print(f"report: {result.report}")
    from .headline import headline_lines

    for o in result.outcomes:  # the report's first-screen verdict per audit and model, and the gate's
        if o.run_dir is not None and (o.run_dir / "manifest.json").is_file():
            for line in headline_lines(o.run_dir, o.audit):
                print(line)
    return 0 if result.ok else 1
