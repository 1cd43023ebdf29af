"""``clinaudit demo`` cold and warm: audits side by side in worker processes vs one after the other.

    python benchmarks/bench_demo.py              # the full demo, 2 rounds (about 12 minutes on 2 cores)
    python benchmarks/bench_demo.py --quick      # the quick demo, 1 round
    python benchmarks/bench_demo.py --rounds 3 --ways auto   # only the default way, 3 cold + 3 warm runs

Each round runs, one after the other in fresh output folders (cold: no stored model calls; the
embedded model's one-time conversion is already cached), then once more in the same folder
(warm: every call from the cache):

* ``--jobs 1`` — the audits one after the other in the ``clinaudit demo`` process;
* ``--jobs`` left to its default (``auto``) — up to 3 worker processes with the CPUs split
  between them (on 2 cores: 2 workers with one torch thread each, the survivor taking both).

Times are the whole command (process start to exit), as a user sees them. Prints every run and
the medians as JSON, then ``RATIO bench_demo: <median cold --jobs 1 / median cold auto>``. The
machine is shared: compare the ratio, state the load (``uptime``); nothing gates on it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(out: Path, jobs: str, quick: bool) -> dict[str, object]:
    cmd = [sys.executable, "-m", "clinaudit", "demo", "--out", str(out), "--no-progress"]
    cmd += ["--quick"] if quick else []
    cmd += [] if jobs == "auto" else ["--jobs", jobs]
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("HF_HUB_OFFLINE", "1")
    env.setdefault("TRANSFORMERS_OFFLINE", "1")
    env.setdefault("TOKENIZERS_PARALLELISM", "false")
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"bench_demo: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    per_audit = [line for line in proc.stderr.splitlines() if ": done in " in line]
    return {"jobs": jobs, "seconds": round(dt, 1), "audits": per_audit, "load": os.getloadavg()[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="the quick demo, one round")
    ap.add_argument("--rounds", type=int, default=None, help="rounds (default 2; 1 with --quick)")
    ap.add_argument("--ways", default="1,auto", help="comma-separated --jobs values to compare (default 1,auto)")
    args = ap.parse_args()
    rounds = args.rounds or (1 if args.quick else 2)
    ways = [w.strip() for w in args.ways.split(",") if w.strip()]
    runs: list[dict[str, object]] = []
    tmp = Path(tempfile.mkdtemp(prefix="bench-demo-"))
    try:
        for r in range(rounds):
            for way in ways:
                out = tmp / f"r{r}-{way}"
                cold = _run(out, way, args.quick)
                warm = _run(out, way, args.quick)
                runs.append({"round": r, "jobs": way, "cold_s": cold["seconds"], "warm_s": warm["seconds"],
                             "load_1min_after_cold": round(float(cold["load"]), 2), "cold_audits": cold["audits"]})
                print(json.dumps(runs[-1]), flush=True)
                shutil.rmtree(out, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    med = {w: {"cold_s": statistics.median(x["cold_s"] for x in runs if x["jobs"] == w),
               "warm_s": statistics.median(x["warm_s"] for x in runs if x["jobs"] == w)} for w in ways}
    print(json.dumps({"quick": args.quick, "rounds": rounds, "cpus": os.cpu_count(), "medians": med}, indent=2))
    if "1" in med and "auto" in med:
        print(f"RATIO bench_demo: {med['1']['cold_s'] / med['auto']['cold_s']:.2f} "
              f"(cold demo{' --quick' if args.quick else ''}: --jobs 1 {med['1']['cold_s']:.1f} s / default "
              f"{med['auto']['cold_s']:.1f} s; warm {med['1']['warm_s']:.1f} s / {med['auto']['warm_s']:.1f} s; "
              f"medians of {rounds} round(s))")


if __name__ == "__main__":
    main()
