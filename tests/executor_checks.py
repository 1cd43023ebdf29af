"""Checks every executor's tests share: a run's tables compared with a local run's, and `clinaudit generate`
run locally and with an executor against one loopback stub."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pandas as pd

from stub_openai_server import StubOpenAI

TIMING_COLUMNS = {"latency_s"}


def tables(run: Path) -> dict[str, pd.DataFrame]:
    """Every ``tables/*.csv`` of a run directory, timing columns left out, rows sorted (order may differ)."""
    out = {}
    for path in sorted((run / "tables").glob("*.csv")):
        df = pd.read_csv(path, dtype=str, keep_default_na=False)
        df = df[[c for c in df.columns if c not in TIMING_COLUMNS]]
        out[path.name] = df.sort_values(list(df.columns)).reset_index(drop=True)
    return out


def assert_same_tables(local: Path, other: Path) -> None:
    a, b = tables(local), tables(other)
    assert sorted(a) == sorted(b)
    assert "responses.csv" in a and len(a["responses.csv"]) > 0
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], obj=name)


def generate_locally_and_with(tmp_path: Path, executor_args: list[str], rows: int) -> Counter:
    """``clinaudit generate`` of ``rows`` questions × 2 samples into ``tmp_path/local`` (local executor) and
    ``tmp_path/other`` (``executor_args``), each with its own cache, against one stub; the prompts the stub
    answered, counted."""
    from clinaudit.cli.main import main

    data = tmp_path / "q.csv"
    pd.DataFrame({"id": [f"r{i}" for i in range(rows)], "q": [f"question {i}" for i in range(rows)]}).to_csv(
        data, index=False)
    with StubOpenAI() as stub:
        common = ["generate", "--input", str(data), "--id-column", "id", "--text-column", "q", "--model",
                  "openai:stub", "--base-url", stub.base_url, "--samples", "2", "--no-progress"]
        assert main([*common, "--out", str(tmp_path / "local")]) == 0
        assert main([*common, "--out", str(tmp_path / "other"), *executor_args]) == 0
        return Counter(stub.ok_by_prompt)
