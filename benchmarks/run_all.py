"""Run every ``benchmarks/bench_*.py`` and print their ``RATIO`` lines.

Each benchmark prints how it measured and at least one line starting with
``RATIO`` (a speed ratio, never an absolute time to gate on). This runner
executes each script with the current Python, passes ``--quick`` through, and
prints the ratio lines side by side (the full output with ``--verbose``).
A benchmark that fails or prints no ratio line is reported, and the exit
status is non-zero; one that exits with :data:`SKIPPED` (77: what it needs is
not installed here, e.g. ``bench_deid_ner.py``'s spaCy) is reported skipped,
with its last line, and is no failure.

Usage: ``python benchmarks/run_all.py [--quick] [--verbose] [-k NAME]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: the exit status of a benchmark that cannot run on this machine (the autotools convention for a skipped test)
SKIPPED = 77


def main() -> int:
    ap = argparse.ArgumentParser(description="run every benchmarks/bench_*.py and print their ratio lines")
    ap.add_argument("--quick", action="store_true", help="pass --quick to every benchmark (smaller runs)")
    ap.add_argument("--verbose", "-v", action="store_true", help="print each benchmark's full output")
    ap.add_argument("-k", dest="select", default="", help="only benchmarks whose file name contains this")
    args = ap.parse_args()
    scripts = sorted(p for p in HERE.glob("bench_*.py") if args.select in p.name)
    if not scripts:
        print("no benchmarks found")
        return 1
    failures = 0
    summary: list[str] = []
    for script in scripts:
        cmd = [sys.executable, str(script)] + (["--quick"] if args.quick else [])
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE.parent)
        wall = time.perf_counter() - t0
        if args.verbose:
            print(f"===== {script.name} ({wall:.1f} s)")
            print(proc.stdout.rstrip())
        ratios = [ln for ln in proc.stdout.splitlines() if ln.startswith("RATIO")]
        if proc.returncode == SKIPPED:
            why = (proc.stderr or proc.stdout).strip().splitlines()[-1:]
            summary.append(f"SKIPPED {script.name}: " + " | ".join(why))
        elif proc.returncode != 0:
            failures += 1
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
            summary.append(f"FAILED {script.name} (exit {proc.returncode}): " + " | ".join(tail))
        elif not ratios:
            failures += 1
            summary.append(f"NO RATIO LINE {script.name}")
        else:
            summary.extend(ratios)
    print(("\n" if args.verbose else "") + "\n".join(summary))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
