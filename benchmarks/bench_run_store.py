"""The run store at 100k responses: write time and size of ``tables/responses.csv`` before and after the
spreadsheet-safe encoding (issue 33 item 1), with Parquet (pyarrow) measured beside them.

What is timed, on one synthetic ``responses`` table (the 24 ``RESPONSE_COLUMNS``; 100,000 rows, or
10,000 with ``--quick``; model text ~60 words per answer, 1 % of the answers and case ids start with
``=``, ``+``, ``-`` or ``@``):

* *before* — ``DataFrame.to_csv`` as the run store wrote it (exact, not safe to open);
* *after* — :func:`clinaudit.export.store_frame` then ``to_csv`` (what ``RunDir.write_table`` does now);
* *before / after, streamed* — the same in 256-row appends (how ``CallLog`` writes ``responses`` during a
  run);
* *parquet* — ``to_parquet`` (pyarrow), the typed alternative the issue proposes;
* reading back: ``pd.read_csv`` (before) vs :func:`clinaudit.rundir.read_store_table` (after) vs
  ``pd.read_parquet``;
* *per-cell* — the first version of the encoding (a Python function per cell of every text column that has a
  cell to change; kept here as :func:`per_cell_store_frame` / :func:`per_cell_read_store_frame`), beside the
  vectorised one (pandas string methods find the cells; only those are rewritten).

Each is the median of 3 rounds in one process, the variants taking turns within each round. Prints ``RATIO`` lines (after / before).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from clinaudit.export import _PLAIN_NUMBER, FORMULA_PREFIXES, store_csv
from clinaudit.pipeline.stages import RESPONSE_COLUMNS
from clinaudit.rundir import read_store_table

WORDS = ("patient reports chest pain since yesterday evening the plan is rest fluids and review in clinic "
         "if symptoms persist advise emergency care for shortness of breath").split()


def table(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    text = [" ".join(rng.choice(WORDS, 60)) for _ in range(n)]
    bad = rng.random(n) < 0.01
    prefixes = rng.choice(list("=+-@"), n)
    text = [f"{p}{t}" if b else t for t, b, p in zip(text, bad, prefixes)]
    case = [f"{p}c{i}" if b else f"c{i}" for i, (b, p) in enumerate(zip(bad, prefixes))]
    data = {c: [""] * n for c in RESPONSE_COLUMNS}
    data.update(request_key=[f"{i:064x}" for i in range(n)], stage="calls", case_id=case,
                variant_id=[f"v{i}" for i in range(n)], item_id="", model="openai:gpt-x", seed=0,
                text=text, error="", finish_reason="stop", prompt_tokens=rng.integers(50, 500, n),
                completion_tokens=rng.integers(20, 200, n), latency_s=rng.random(n), cached=False)
    return pd.DataFrame(data, columns=RESPONSE_COLUMNS)


def _per_cell_store(value):
    if isinstance(value, str) and value[:1] == "'":
        value = "'" + value
    if isinstance(value, str) and value[:1] in FORMULA_PREFIXES and not _PLAIN_NUMBER.fullmatch(value):
        value = "'" + value
    return value


def _text_columns(df: pd.DataFrame) -> list[int]:  # as first written too
    return [i for i in range(df.shape[1]) if not (pd.api.types.is_numeric_dtype(df.iloc[:, i])
                                                 or pd.api.types.is_bool_dtype(df.iloc[:, i])
                                                 or pd.api.types.is_datetime64_any_dtype(df.iloc[:, i]))]


def per_cell_store_frame(df: pd.DataFrame) -> pd.DataFrame:
    """The store encoding as first written (issue 33, before the vectorised one): a Python scan of every text
    column, then a Python function on every cell of the columns with a cell to change."""
    first = frozenset(FORMULA_PREFIXES) | {"'"}
    todo = [i for i in _text_columns(df)
            if any(isinstance(v, str) and (v[:1] in first or "\r" in v) for v in df.iloc[:, i].to_numpy())]
    out = df.copy()
    for i in todo:
        out.isetitem(i, out.iloc[:, i].map(_per_cell_store))
    return out


def per_cell_read_store_frame(df: pd.DataFrame) -> pd.DataFrame:
    """The reader as first written: a Python scan of every text column, a Python function per cell of the hits."""
    todo = [i for i in _text_columns(df) if (pd.api.types.is_object_dtype(df.iloc[:, i])
                                             or pd.api.types.is_string_dtype(df.iloc[:, i]))
            and any(isinstance(v, str) and v[:1] == "'" for v in df.iloc[:, i].to_numpy())]
    out = df.copy()
    for i in todo:
        out.isetitem(i, out.iloc[:, i].map(lambda v: v[1:] if isinstance(v, str) and v[:1] == "'" else v))
    return out


def interleaved(fns: dict, rounds: int = 3) -> dict[str, float]:
    """Median seconds of each function over ``rounds`` rounds, the functions taking turns within each round (so a
    change of the machine's load falls on all of them alike)."""
    out: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            out[k].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in out.items()}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n = 10_000 if args.quick else 100_000
    df = table(n)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        before, after, streamed, parquet = d / "before.csv", d / "after.csv", d / "streamed.csv", d / "r.parquet"

        def stream(write) -> None:
            for i in range(0, n, 256):
                write(df.iloc[i:i + 256], "a" if i else "w", not i)

        def plain(f, mode, header) -> None:
            f.to_csv(streamed, mode=mode, header=header, index=False)

        def store(f, mode, header) -> None:
            store_csv(f, streamed, mode=mode, header=header)

        def per_cell(f, mode, header) -> None:
            per_cell_store_frame(f).to_csv(streamed, mode=mode, header=header, index=False)

        writes = {"before": lambda: df.to_csv(before, index=False),
                  "after": lambda: store_csv(df, after),
                  "after_per_cell": lambda: per_cell_store_frame(df).to_csv(d / "p.csv", index=False),
                  "before_streamed": lambda: stream(plain),
                  "after_streamed": lambda: stream(store),
                  "per_cell_streamed": lambda: stream(per_cell),
                  "parquet": lambda: df.to_parquet(parquet, index=False)}
        w = interleaved(writes)
        read = dict(keep_default_na=False, na_values=[""])
        r = interleaved({"before": lambda: pd.read_csv(before, **read),
                         "after": lambda: read_store_table(after),
                         "after_per_cell": lambda: per_cell_read_store_frame(pd.read_csv(after, **read)),
                         "parquet": lambda: pd.read_parquet(parquet)})
        size = {k: p.stat().st_size for k, p in (("before", before), ("after", after), ("parquet", parquet))}
        back = read_store_table(after, dtype={"case_id": str})
        assert back["case_id"].tolist() == df["case_id"].tolist() and back["text"].tolist() == df["text"].tolist()
    print(f"{n:,} responses, {len(RESPONSE_COLUMNS)} columns (median of 3 rounds)")
    for k, v in w.items():
        print(f"write {k:15s} {v:7.3f} s")
    for k, v in r.items():
        print(f"read  {k:15s} {v:7.3f} s")
    for k, v in size.items():
        print(f"size  {k:15s} {v / 1e6:7.2f} MB")
    print(f"RATIO bench_run_store: write after/before {w['after'] / w['before']:.2f} (per-cell "
          f"{w['after_per_cell'] / w['before']:.2f}; streamed in 256-row appends {w['after_streamed'] / w['before_streamed']:.2f}, "
          f"per-cell {w['per_cell_streamed'] / w['before_streamed']:.2f}); "
          f"read after/before {r['after'] / r['before']:.2f} (per-cell {r['after_per_cell'] / r['before']:.2f}); "
          f"size after/before {size['after'] / size['before']:.4f}; "
          f"parquet write/before {w['parquet'] / w['before']:.2f}, size {size['parquet'] / size['before']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
