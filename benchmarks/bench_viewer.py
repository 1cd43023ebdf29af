"""``clinaudit view`` on a 100,000-response run (issue 43): time to the grid's first page, each filter's time,
and the viewer process's memory.

Makes its own synthetic treatment-shift-shaped run (:func:`clinaudit.viewer.synthetic.make_run`: 5,000 cases x
(baseline + 4 perturbations) x 2 seeds x 2 models = 100,000 answers, 300,000 labels; ``--quick``: 10,000), starts
``clinaudit view RUN --no-browser`` as its own process on 127.0.0.1, and times HTTP requests to it (the median of
3 rounds of each; the first page is also timed cold, as the first request after start). Memory is the viewer
process's resident set size (psutil) after every request. Prints ``TIME`` and ``MEM`` lines, and the
acceptance checks (first page <= 1 s, any filter <= 2 s, memory <= 500 MB) as ``CHECK`` lines; timings on a
loaded machine vary, so they are also printed as ``RATIO`` lines against one read of ``tables/responses.csv``
through the run store's reader (``read_store_table``) timed in the same run.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

from clinaudit.rundir import read_store_table
from clinaudit.viewer.synthetic import make_run

FILTERS = {
    "first page": "",
    "flipped only": "flipped=1",
    "one perturbation, flipped": "variant=pert1&flipped=1",
    "model": "model=mock:m1",
    "question MANAGE flipped": "question=MANAGE&flipped=1",
    "group": "group=female",
    "judge status": "judge_status=unparseable",
    "excluded": "excluded=too_long",
    "verdict": "verdict=bias",
    "search": "q=clinic+today",
    "sort by latency, last page": "sort=latency&desc=1&page=900",
    "combined": "model=mock:m0&variant=pert2&flipped=1&question=MANAGE&group=male&q=home",
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="10,000 answers instead of 100,000")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    cases = 500 if args.quick else 5000
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "synthetic"
        t0 = time.perf_counter()
        make_run(run, cases=cases, perturbations=4, seeds=2, models=2, flip_rate=0.1)
        print(f"made {cases * 5 * 2 * 2:,} answers in {time.perf_counter() - t0:.1f} s", flush=True)
        t0 = time.perf_counter()
        read_store_table(run / "tables" / "responses.csv")
        read_once = time.perf_counter() - t0
        print(f"TIME one read of tables/responses.csv (read_store_table): {read_once:.2f} s", flush=True)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "clinaudit", "view", str(run), "--no-browser"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            url = ""
            assert proc.stdout is not None
            for line in proc.stdout:
                m = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=(\S+)", line)
                if m:
                    url, token = m.group(1), m.group(2)
                    break
            if not url:
                print(proc.stderr.read() if proc.stderr else "", file=sys.stderr)
                return 1
            load = time.perf_counter() - t0
            print(f"TIME load (start to URL printed): {load:.2f} s", flush=True)
            ps = psutil.Process(proc.pid)
            worst_mem = ps.memory_info().rss
            results: dict[str, float] = {}
            with httpx.Client(base_url=url, timeout=120) as client:
                t = time.perf_counter()
                r = client.get("/", params={"token": token})
                cold = time.perf_counter() - t
                r.raise_for_status()
                print(f"TIME first page (cold, first request): {cold:.3f} s", flush=True)
                for name, query in FILTERS.items():
                    times = []
                    for _ in range(args.rounds):
                        t = time.perf_counter()
                        r = client.get("/?" + query)
                        times.append(time.perf_counter() - t)
                        r.raise_for_status()
                        worst_mem = max(worst_mem, ps.memory_info().rss)
                    rows = re.search(r"<strong>([\d]+)</strong> of", r.text)
                    results[name] = statistics.median(times)
                    print(f"TIME {name}: {results[name]:.3f} s (median of {args.rounds}; "
                          f"{rows.group(1) if rows else '?'} rows match)", flush=True)
                times = []
                for i in range(args.rounds):
                    t = time.perf_counter()
                    r = client.get("/case", params={"run": run.name, "case": f"c{1 + i:06d}"})
                    times.append(time.perf_counter() - t)
                    r.raise_for_status()
                    worst_mem = max(worst_mem, ps.memory_info().rss)
                print(f"TIME case page (its calls from the cache): {statistics.median(times):.3f} s "
                      f"(median of {args.rounds})", flush=True)
            mem = worst_mem / 2**20
            print(f"MEM viewer process RSS (max over the requests): {mem:.0f} MB")
            filters = {k: v for k, v in results.items() if k != "first page"}
            print(f"CHECK first page {max(cold, results['first page']):.3f} s <= 1 s: "
                  f"{'ok' if max(cold, results['first page']) <= 1 else 'OVER'}")
            worst = max(filters, key=lambda k: filters[k])
            print(f"CHECK slowest filter ({worst}) {filters[worst]:.3f} s <= 2 s: "
                  f"{'ok' if filters[worst] <= 2 else 'OVER'}")
            print(f"CHECK memory {mem:.0f} MB <= 500 MB: {'ok' if mem <= 500 else 'OVER'}")
            print(f"RATIO bench_viewer: first page / one read of responses.csv = "
                  f"{max(cold, results['first page']) / read_once:.3f}")
            print(f"RATIO bench_viewer: slowest filter / one read of responses.csv = {filters[worst] / read_once:.3f}")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
