"""``clinaudit association`` with the embedded model on the HurtfulWords templates: one source tree against another.

    python benchmarks/bench_association.py --other /work/main/src                 # 1 template, 1 attribute per category
    python benchmarks/bench_association.py --other /work/main/src --attributes-per-category 2 --rounds 2
    python benchmarks/bench_association.py --full                                  # the whole set, this tree only

Runs ``python -m clinaudit association --templates ../shared/data/hurtfulwords/templates.txt --attributes <the
first --attributes-per-category attributes of each category> --model embedded --max-templates-per-category
--templates-per-category`` in a fresh process and a fresh output directory (a fresh score cache; the converted
model is read from ``$CLINAUDIT_CACHE_DIR``), once with this checkout's ``src`` and once with ``--other`` (another
checkout's ``src``, e.g. main's), alternating the order each round, and prints the wall-clock seconds of each, their
ratio (other / this) and the distinct texts scored (sentences and prior sentences). The environment is the caller's,
except ``PYTHONPATH``; ``OMP_WAIT_POLICY`` is left unset so that each tree decides it.

On the shared 2-core machine the absolute times move with the load (``uptime`` is printed before each run): compare
the ratio of neighbouring runs. ``--full`` runs the whole set (every template, every attribute) with this tree once.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT.parent / "shared" / "data" / "hurtfulwords"


def subset_attributes(per_category: int, out: Path) -> Path:
    rows = list(csv.DictReader((DATA / "attributes.csv").open(encoding="utf-8")))
    seen: dict[str, int] = {}
    kept = []
    for r in rows:
        if per_category <= 0 or seen.get(r["category"], 0) < per_category:
            kept.append(r)
            seen[r["category"]] = seen.get(r["category"], 0) + 1
    with out.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["attribute", "category", "subgroup"])
        w.writeheader()
        w.writerows(kept)
    return out


def run_once(src: Path, attributes: Path, templates_per_category: int | None, out: Path) -> float:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "OMP_WAIT_POLICY")}
    env["PYTHONPATH"] = str(src)
    cmd = [sys.executable, "-m", "clinaudit", "association", "--templates", str(DATA / "templates.txt"),
           "--attributes", str(attributes), "--model", "embedded", "--no-progress", "--out", str(out)]
    if templates_per_category:
        cmd += ["--max-templates-per-category", str(templates_per_category)]
    print(f"  load: {os.getloadavg()[0]:.1f}", flush=True)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def distinct_texts(out: Path) -> int:
    import pandas as pd

    scores = pd.read_csv(out / "scores.csv", keep_default_na=False)
    return len(set(scores["sentence"]) | set(scores["prior_sentence"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--other", type=Path, default=None, help="another checkout's src to compare with")
    ap.add_argument("--attributes-per-category", type=int, default=1)
    ap.add_argument("--templates-per-category", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--full", action="store_true", help="every template and attribute, this tree only")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench_association_"))
    attrs = subset_attributes(0 if args.full else args.attributes_per_category, tmp / "attributes.csv")
    tpc = None if args.full else args.templates_per_category
    trees = {"this": ROOT / "src"} if args.full or args.other is None else {"this": ROOT / "src", "other": args.other}
    times: dict[str, list[float]] = {k: [] for k in trees}
    n = 0
    for r in range(args.rounds):
        for name in (list(trees) if r % 2 == 0 else list(reversed(list(trees)))):
            out = tmp / f"{name}-{r}"
            times[name].append(run_once(trees[name], attrs, tpc, out))
            n = distinct_texts(out)
            print(f"round {r} {name}: {times[name][-1]:.1f} s ({n} distinct texts)", flush=True)
    for name, ts in times.items():
        print(f"{name} ({trees[name]}): median {statistics.median(ts):.1f} s over {len(ts)} run(s); "
              f"{statistics.median(ts) / max(1, n):.3f} s per distinct text")
    if "other" in times:
        ratios = [o / t for o, t in zip(times["other"], times["this"])]
        print(f"RATIO bench_association: {statistics.median(ratios):.2f} (other / this; per round "
              f"{[round(x, 2) for x in ratios]})")


if __name__ == "__main__":
    main()
