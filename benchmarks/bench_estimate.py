"""Is the dry-run estimate of an embedded run one to plan with? ``--dry-run``'s time against the real run.

    python benchmarks/bench_estimate.py                     # 3 and 30 messages, one round each
    python benchmarks/bench_estimate.py --limits 3 --rounds 2
    python benchmarks/bench_estimate.py --quick             # 3 messages, one round (about 10 minutes loaded)
    python benchmarks/bench_estimate.py --data my.csv       # your own CSV of patient messages

README's "Five minutes with your own data" path, as a user runs it: ``clinaudit init treatment_shift`` on a
CSV of patient messages (default: the first 30 patient messages of MedPerturb's OncQA contexts,
``../shared/data/medperturb/data.csv``, written as ``msg_id,message,sex`` into a temporary folder), then for
each ``--limit``: ``clinaudit run spec.yaml --limit N --dry-run`` in one fresh output folder and the real
``clinaudit run spec.yaml --limit N`` in another (so the run gets nothing from the probe's stored calls),
under ``/usr/bin/time -v`` when it exists (peak RSS). Prints one JSON line per run (estimate, its likely
range, measured wall time, their ratio, the load averages before the dry-run, before and after the run) and
``RATIO bench_estimate limit=N: estimate / measured = R``. The machine is shared: the probe is measured under
the load the run then meets, or not; the load is printed beside each ratio. Nothing gates on it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEDPERTURB = ROOT.parent / "shared" / "data" / "medperturb" / "data.csv"
UNITS = {"s": 1.0, "min": 60.0, "h": 3600.0}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    for k, v in (("HF_HUB_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1"), ("TOKENIZERS_PARALLELISM", "false")):
        env.setdefault(k, v)
    return env


def write_messages(out: Path, n: int = 30) -> Path:
    """The first ``n`` OncQA patient messages of MedPerturb (the baseline contexts' 'Patient message:' part)."""
    import pandas as pd

    if not MEDPERTURB.is_file():
        sys.exit(f"bench_estimate: {MEDPERTURB} not found; pass --data with a CSV of patient messages")
    d = pd.read_csv(MEDPERTURB)
    x = d[(d["dataset"] == "oncqa") & (d["dataset_id"] == 1)].head(n)
    msgs = x["clinical_context"].str.split("Patient message:").str[-1].str.strip()
    path = out / "messages.csv"
    pd.DataFrame({"msg_id": [f"m{i:02d}" for i in range(len(x))], "message": msgs.to_numpy(),
                  "sex": x["original_patient_gender"].to_numpy()}).to_csv(path, index=False)
    return path


def parse_estimate(stderr: str) -> tuple[float, tuple[float, float] | None]:
    """Seconds of ``time: about X (N s)`` and the ``likely A to B`` range in the dry run's output."""
    m = re.search(r"time: about ([\d.]+) (s|min|h)(?: \((\d+) s\))?", stderr)
    if not m:
        sys.exit(f"bench_estimate: no time estimate in the dry run's output:\n{stderr[-2000:]}")
    sec = float(m.group(3)) if m.group(3) else float(m.group(1)) * UNITS[m.group(2)]
    r = re.search(r"likely ([\d.]+) (s|min|h) to ([\d.]+) (s|min|h)", stderr)
    span = (float(r.group(1)) * UNITS[r.group(2)], float(r.group(3)) * UNITS[r.group(4)]) if r else None
    return sec, span


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def one(spec: Path, work: Path, limit: int, tag: str, run: bool) -> dict[str, object]:
    cli = [sys.executable, "-m", "clinaudit", "run", str(spec), "--limit", str(limit)]
    rec: dict[str, object] = {"limit": limit, "round": tag, "load_before_dry_run": _load()}
    t0 = time.perf_counter()
    dry = subprocess.run(cli + ["--out", str(work / f"dry-{tag}"), "--dry-run"], env=_env(), capture_output=True,
                         text=True)
    rec["dry_run_s"] = round(time.perf_counter() - t0, 1)
    if dry.returncode != 0:
        sys.exit(f"bench_estimate: the dry run failed ({dry.returncode}):\n{dry.stderr[-3000:]}")
    est, span = parse_estimate(dry.stderr)
    rec.update(estimate_s=round(est), likely_s=None if span is None else [round(span[0]), round(span[1])])
    rec["estimate_detail"] = [ln.strip() for ln in dry.stderr.splitlines() if ln.strip().startswith("embedded:")]
    if not run:
        return rec
    timer = ["/usr/bin/time", "-v"] if Path("/usr/bin/time").exists() else []
    rec["load_before_run"] = _load()
    t0 = time.perf_counter()
    proc = subprocess.run(timer + cli + ["--out", str(work / f"run-{tag}"), "--no-progress"], env=_env(),
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 3):  # 3: nothing measured (a toy judge), still a timed run
        sys.exit(f"bench_estimate: the run failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    rec.update(run_s=round(wall, 1), load_after_run=_load(), ratio=round(est / wall, 2),
               peak_rss_mb=None if not rss else round(int(rss.group(1)) / 1024))
    if span is not None:
        rec["measured_in_likely_range"] = span[0] <= wall <= span[1]
    return rec


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limits", default="3,30", help="comma-separated --limit values (default 3,30)")
    ap.add_argument("--rounds", type=int, default=1, help="dry run + run pairs per limit (default 1)")
    ap.add_argument("--data", type=Path, default=None, help="a CSV of patient messages (default: MedPerturb OncQA)")
    ap.add_argument("--dry-run-only", action="store_true", help="only the estimates (e.g. beside a timed run)")
    ap.add_argument("--quick", action="store_true", help="3 messages only (run_all.py --quick)")
    args = ap.parse_args()
    limits = [3] if args.quick else [int(x) for x in args.limits.split(",") if x.strip()]
    work = Path(tempfile.mkdtemp(prefix="bench-estimate-"))
    try:
        data = args.data.resolve() if args.data else write_messages(work, max(limits))
        spec = work / "spec.yaml"
        init = subprocess.run([sys.executable, "-m", "clinaudit", "init", "treatment_shift", "--data", str(data),
                               "--out", str(spec)], env=_env(), capture_output=True, text=True)
        if init.returncode != 0:
            sys.exit(f"bench_estimate: init failed:\n{init.stderr[-2000:]}")
        for limit in limits:
            for r in range(args.rounds):
                rec = one(spec, work, limit, f"{limit}-{r}", run=not args.dry_run_only)
                print(json.dumps(rec), flush=True)
                if "ratio" in rec:
                    print(f"RATIO bench_estimate limit={limit}: estimate / measured = {rec['ratio']:.2f} "
                          f"(estimate {rec['estimate_s']} s, likely {rec['likely_s']}, run {rec['run_s']} s; "
                          f"load {rec['load_before_dry_run']} / {rec['load_before_run']} / "
                          f"{rec['load_after_run']}; {os.cpu_count()} CPUs)", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
