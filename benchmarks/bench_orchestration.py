"""Orchestration overhead: ``clinaudit generate`` against the fastest raw async HTTP client, same stub, same run.

    python benchmarks/bench_orchestration.py            # 20,000 calls per measurement, 5 rounds
    python benchmarks/bench_orchestration.py --quick    # 3,000 calls, 2 rounds
    python benchmarks/bench_orchestration.py --rss 10000,50000,100000   # peak RSS of clinaudit generate per N

One zero-latency OpenAI-compatible stub (``tests/fast_stub_server.py``: asyncio, its own process,
each answer in one send) serves everything. Each round runs, each in a fresh process and one
after the other (never at the same time):

* every raw client of ``benchmarks/raw_clients.py`` (httpx, httpx2, aiohttp, the openai client;
  a client whose package is missing is skipped): ``CONCURRENCY`` worker tasks over one tuned
  connection pool, timed from the first request to the last answer (the clients measured at
  under a fifth of aiohttp's rate make a quarter of the calls, to keep the run short);
* ``clinaudit generate --model openai:stub --concurrency CONCURRENCY --no-progress`` on a CSV of
  N distinct questions into a fresh run directory (fresh cache), twice: from one process (the
  default ``local`` executor) and from worker processes (``--executor processes``: this machine's
  CPUs, the concurrency split over them). calls/s = N / the runner's wall time as recorded in the
  run's manifest (from the first request to the last answer written; the workers are started
  before it, like the interpreter and its imports), and end to end (process start to exit,
  imports, worker start and input reading included); its peak RSS (``ru_maxrss``) is recorded too.

Before each measurement the files of the one before are flushed to disk (``os.sync``) and the
machine left alone for a second.

Prints the medians over the rounds as JSON, then
``RATIO bench_orchestration: <clinaudit calls/s / fastest raw client calls/s>`` for
``--executor processes`` (medians of the same rounds), with the one-process ratio on the same line.
The raw clients are one process each: on a 2-core machine the stub takes part of the second core,
and the worker processes use what is left of both. On a shared machine the absolute numbers move
with the load; the ratio of neighbouring measurements moves much less.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))

CLIENTS = ("httpx", "httpx2", "aiohttp", "openai")
FAST_CLIENTS = ("aiohttp",)
CONCURRENCY = 64
SETTLE_S = 1.0  # pause before each measurement

_RUN_CLI = """
import resource, sys, time
t0 = time.perf_counter()
from clinaudit.cli.main import main
rc = main(sys.argv[1:])
print("BENCH", rc, time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(ROOT / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _settle() -> None:
    """Before each measurement: the previous one's files flushed to disk (``sync``) and a short pause, so that
    no measurement pays for the writeback of the one before it."""
    if hasattr(os, "sync"):
        os.sync()
    time.sleep(SETTLE_S)


def raw_client(client: str, url: str, n: int) -> dict | None:
    _settle()
    proc = subprocess.run([sys.executable, str(HERE / "raw_clients.py"), client, url, str(n), str(CONCURRENCY)],
                          capture_output=True, text=True, env=_env(), timeout=1800)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"raw client {client} failed: {proc.stderr[-500:]}")
    out = json.loads(lines[-1])
    return None if "missing" in out else out


def clinaudit_generate(url: str, n: int, tag: str, workdir: Path, executor: str = "local") -> dict:
    """One ``clinaudit generate`` of n fresh questions (``--executor executor``); calls/s from the manifest's
    runner wall time."""
    data = workdir / f"questions-{tag}.csv"
    with open(data, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "question"])
        for i in range(n):
            w.writerow([f"q{i}", f"bench {tag} question {i}: I have had a cough for {i % 30} days, what should I do?"])
    out = workdir / f"run-{tag}"
    argv = ["generate", "--input", str(data), "--id-column", "id", "--text-column", "question",
            "--model", "openai:stub", "--base-url", url, "--concurrency", str(CONCURRENCY), "--no-progress",
            "--out", str(out), "--executor", executor]
    env = _env()
    env["OPENAI_API_KEY"] = ""
    _settle()
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _RUN_CLI, *argv], capture_output=True, text=True, env=env,
                          timeout=3600)
    wall = time.perf_counter() - t0
    bench = [ln.split() for ln in proc.stdout.splitlines() if ln.startswith("BENCH")]
    if proc.returncode != 0 or not bench or bench[-1][1] != "0":
        raise RuntimeError(f"clinaudit generate failed: {proc.stdout[-300:]} {proc.stderr[-800:]}")
    manifest = json.loads((out / "manifest.json").read_text())
    usage = manifest["runs"][-1]["usage"]["openai:stub"]
    if usage["calls"] != n:
        raise RuntimeError(f"expected {n} new calls, the manifest says {usage['calls']}")
    return {"calls": n, "runner_seconds": round(usage["wall_s"], 3), "calls_per_s": round(n / usage["wall_s"], 1),
            "end_to_end_seconds": round(wall, 3), "end_to_end_calls_per_s": round(n / wall, 1),
            "peak_rss_mb": round(int(bench[-1][3]) / 1024, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="3,000 calls per measurement, 2 rounds")
    ap.add_argument("--calls", type=int, default=None, help="calls per measurement (default 20,000; quick 3,000)")
    ap.add_argument("--rounds", type=int, default=None, help="rounds (default 5; quick 2)")
    ap.add_argument("--rss", default=None, help="comma-separated N: only measure clinaudit generate at each N")
    args = ap.parse_args()
    from fast_stub_server import FastStubProcess

    n = args.calls or (3000 if args.quick else 20000)
    rounds = args.rounds or (2 if args.quick else 5)
    result: dict = {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                                "python": platform.python_version(), "load_average_at_start": os.getloadavg()},
                    "concurrency": CONCURRENCY}
    with FastStubProcess() as stub, tempfile.TemporaryDirectory(prefix="bench-orch-") as tmp:
        if args.rss:
            sizes = [int(x) for x in args.rss.split(",") if x.strip()]
            result["clinaudit_generate_by_n"] = {str(k): clinaudit_generate(stub.base_url, k, f"rss{k}", Path(tmp))
                                                 for k in sizes}
            result["machine"]["load_average_at_end"] = os.getloadavg()
            print(json.dumps(result, indent=2))
            by_n = result["clinaudit_generate_by_n"]
            first, last = by_n[str(sizes[0])], by_n[str(sizes[-1])]
            print(f"RATIO bench_orchestration: clinaudit generate calls/s at N={sizes[-1]} / at N={sizes[0]} = "
                  f"{last['calls_per_s'] / first['calls_per_s']:.2f}; peak RSS {first['peak_rss_mb']:.0f} MB -> "
                  f"{last['peak_rss_mb']:.0f} MB")
            return
        raw: dict[str, list[dict]] = {}
        ours: dict[str, list[dict]] = {"local": [], "processes": []}
        for r in range(rounds):
            for client in CLIENTS:  # the slow clients on a quarter of the calls (their rate does not depend on N)
                got = raw_client(client, stub.base_url, n if client in FAST_CLIENTS else max(500, n // 4))
                if got is not None:
                    raw.setdefault(client, []).append(got)
            for executor in ours:
                ours[executor].append(clinaudit_generate(stub.base_url, n, f"r{r}-{executor}", Path(tmp), executor))
            print(f"round {r + 1}/{rounds}: " + ", ".join(f"{c} {v[-1]['calls_per_s']:.0f}/s" for c, v in raw.items())
                  + "".join(f", clinaudit {e} {v[-1]['calls_per_s']:.0f}/s" for e, v in ours.items()),
                  file=sys.stderr, flush=True)
    med = {c: statistics.median(x["calls_per_s"] for x in v) for c, v in raw.items()}
    fastest = max(med, key=med.get)
    result["raw_clients_calls_per_s_median"] = med
    result["raw_clients_rounds"] = raw
    ratio: dict[str, float] = {}
    for executor, runs in ours.items():
        # per-round ratio against the fastest client of the same round, then the median
        per_round = [o["calls_per_s"] / max(v[i]["calls_per_s"] for v in raw.values()) for i, o in enumerate(runs)]
        ratio[executor] = statistics.median(per_round)
        result[f"clinaudit_{executor}"] = {
            "rounds": runs, "calls_per_s_median": statistics.median(x["calls_per_s"] for x in runs),
            "end_to_end_calls_per_s_median": statistics.median(x["end_to_end_calls_per_s"] for x in runs),
            "ratio_per_round": [round(x, 3) for x in per_round]}
    result["machine"]["load_average_at_end"] = os.getloadavg()
    print(json.dumps(result, indent=2))
    procs, local = result["clinaudit_processes"], result["clinaudit_local"]
    print(f"RATIO bench_orchestration: clinaudit generate --executor processes {procs['calls_per_s_median']:.0f} "
          f"calls/s / fastest raw client ({fastest}) {med[fastest]:.0f} calls/s = {ratio['processes']:.2f} "
          f"(one process: {local['calls_per_s_median']:.0f} calls/s = {ratio['local']:.2f}; median of {rounds} "
          f"rounds; each alone against the same zero-latency stub, concurrency {CONCURRENCY})")


if __name__ == "__main__":
    main()
