"""Benchmark: vectorised bootstrap of classifier gaps vs a straightforward pandas loop.

Workload (METHODS §4.5, P4): 57 tasks × 30,000 test rows × 4 groups, 1000
bootstrap resamples stratified by label, three metrics (positive rate,
recall, specificity) per task × group.

- **vectorised**: :func:`clinaudit.stats.bootstrap_group_metrics` (per task and
  label stratum, one multinomial draw of resampled cell counts for all 1000
  resamples), then every gap CI with :func:`clinaudit.families.hurtful_words.classifier_metrics.classifier_gap_table`
  semantics; timed in full.
- **loop**: what one writes first — for each resample, for each task, draw
  stratified row indices, take the rows with ``.iloc`` and ``groupby`` the
  group to compute the three metrics. Too slow to run 1000 times, so it is
  timed on a few resamples in the same run and its per-resample cost is
  extrapolated to 1000 resamples.

Prints how it was measured and a ``RATIO`` line (loop ÷ vectorised). Absolute
times depend on the machine; only the ratio is meant to be compared, and
nothing gates on it.

Usage: ``python benchmarks/bench_bootstrap.py [--quick]``
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
import pandas as pd

from clinaudit.families.hurtful_words.classifier_metrics import classifier_gap_table
from clinaudit.stats import bootstrap_group_metrics

GROUPS = np.array(["A", "B", "C", "D"])


def make_data(n_tasks: int, n_rows: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    parts = []
    for t in range(n_tasks):
        prevalence = rng.uniform(0.03, 0.4)
        y = (rng.random(n_rows) < prevalence).astype(np.int64)
        group = rng.choice(GROUPS, n_rows, p=[0.55, 0.2, 0.15, 0.1])
        # a mildly group-dependent classifier
        shift = np.select([group == "A", group == "B"], [0.05, -0.03], 0.0)
        score = 0.6 * y + rng.normal(0, 0.3, n_rows) + shift
        yhat = (score > 0.45).astype(np.int64)
        parts.append(pd.DataFrame({"task": f"task{t:02d}", "group": group, "y": y, "yhat": yhat}))
    return pd.concat(parts, ignore_index=True)


def loop_bootstrap(df: pd.DataFrame, n_resamples: int, seed: int = 0) -> list[pd.DataFrame]:
    """The straightforward version: one resample at a time, pandas groupby per task."""
    rng = np.random.default_rng(seed)
    by_task = {t: g.reset_index(drop=True) for t, g in df.groupby("task", sort=False)}
    pos_idx = {t: np.flatnonzero(g["y"].to_numpy() == 1) for t, g in by_task.items()}
    neg_idx = {t: np.flatnonzero(g["y"].to_numpy() == 0) for t, g in by_task.items()}
    out = []
    for _ in range(n_resamples):
        rows = []
        for t, g in by_task.items():
            idx = np.concatenate([rng.choice(pos_idx[t], len(pos_idx[t])), rng.choice(neg_idx[t], len(neg_idx[t]))])
            s = g.iloc[idx]
            s = s.assign(tp=(s["y"] == 1) & (s["yhat"] == 1), tn=(s["y"] == 0) & (s["yhat"] == 0))
            agg = s.groupby("group").agg(n=("y", "size"), pos=("y", "sum"), pred=("yhat", "sum"), tp=("tp", "sum"),
                                         tn=("tn", "sum"))
            agg["positive_rate"] = agg["pred"] / agg["n"]
            agg["recall"] = agg["tp"] / agg["pos"].where(agg["pos"] > 0)
            agg["specificity"] = agg["tn"] / (agg["n"] - agg["pos"]).where(agg["n"] > agg["pos"])
            rows.append(agg[["positive_rate", "recall", "specificity"]].assign(task=t))
        out.append(pd.concat(rows))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller run (10 tasks x 5,000 rows, 200 resamples)")
    ap.add_argument("--loop-resamples", type=int, default=None, help="resamples to time the loop on")
    args = ap.parse_args()
    n_tasks, n_rows, n_res = (10, 5_000, 200) if args.quick else (57, 30_000, 1000)
    k_loop = args.loop_resamples or (2 if args.quick else 3)

    t0 = time.perf_counter()
    df = make_data(n_tasks, n_rows)
    t_data = time.perf_counter() - t0
    print(f"bench_bootstrap: {n_tasks} tasks x {n_rows:,} rows x {len(GROUPS)} groups, {n_res} resamples, "
          f"stratified by label, 3 metrics  [{platform.processor() or platform.machine()}, python {platform.python_version()}]")
    print(f"  data generation: {t_data:.2f} s ({len(df):,} rows)")

    # warm-up on a tiny frame so one-off imports (scipy, statsmodels) are not timed
    warm = make_data(2, 200, seed=1)
    classifier_gap_table(warm, "task", "y", "yhat", ["group"], n_resamples=10)
    loop_bootstrap(warm, 1)

    # vectorised: resampled metrics for every task x group x metric
    t0 = time.perf_counter()
    res = bootstrap_group_metrics(df, "task", "group", "y", "yhat", n_resamples=n_res, seed=0)
    t_vec = time.perf_counter() - t0
    print(f"  vectorised bootstrap_group_metrics: {t_vec:.3f} s (measured, all {n_res} resamples)")

    # the same with an explicit index matrix + bincount (method="indices"), on a few tasks, extrapolated
    few = res["tasks"][: 1 if n_tasks > 20 else 2]
    t0 = time.perf_counter()
    bootstrap_group_metrics(df[df["task"].isin(few)], "task", "group", "y", "yhat", n_resamples=n_res, seed=0,
                            method="indices")
    t_idx = (time.perf_counter() - t0) / len(few) * n_tasks
    print(f"  index-matrix variant (method='indices'): {t_idx:.2f} s (measured on {len(few)} tasks, "
          f"extrapolated to {n_tasks})")

    # vectorised, end to end: gaps, CIs, bootstrap p-values, BH across tasks
    t0 = time.perf_counter()
    table = classifier_gap_table(df, "task", "y", "yhat", ["group"], n_resamples=n_res, seed=0)
    t_table = time.perf_counter() - t0
    n_sig = int(table["significant"].sum())
    print(f"  vectorised classifier_gap_table (incl. gaps, CIs, p, BH): {t_table:.3f} s (measured; "
          f"{len(table)} gap rows, {n_sig} significant)")

    # loop: a few resamples, extrapolated
    t0 = time.perf_counter()
    loop_out = loop_bootstrap(df, k_loop, seed=0)
    t_loop_k = time.perf_counter() - t0
    per_resample = t_loop_k / k_loop
    t_loop = per_resample * n_res
    print(f"  pandas loop: {t_loop_k:.2f} s for {k_loop} resamples measured -> {per_resample:.3f} s/resample "
          f"-> {t_loop:.1f} s extrapolated to {n_res} resamples")

    # sanity: the loop's resampled values lie in the vectorised resampling range
    first = loop_out[0].reset_index()
    g = res["groups"].index(first["group"].iloc[0])
    t = res["tasks"].index(first["task"].iloc[0])
    v = first["positive_rate"].iloc[0]
    lo, hi = np.nanmin(res["resamples"][t, g, 0]), np.nanmax(res["resamples"][t, g, 0])
    print(f"  check: loop positive rate {v:.4f} within vectorised resample range [{lo:.4f}, {hi:.4f}]: "
          f"{'yes' if lo - 0.02 <= v <= hi + 0.02 else 'NO'}")

    print(f"RATIO bench_bootstrap: loop {t_loop:.1f} s (extrapolated from {k_loop} resamples) vs vectorised "
          f"{t_vec:.3f} s (measured) -> {t_loop / t_vec:.0f}x faster; end-to-end gap table {t_table:.3f} s -> "
          f"{t_loop / t_table:.0f}x; index-matrix variant {t_idx:.2f} s -> {t_loop / t_idx:.0f}x")


if __name__ == "__main__":
    main()
