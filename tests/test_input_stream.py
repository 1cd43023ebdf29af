"""``clinaudit generate`` reads its input row by row (memory flat in the number of rows): the rows, and the
errors for bad input, are exactly those of the generic csv/jsonl loaders it replaces on that path."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

from clinaudit.errors import InputError
from clinaudit.loaders.base import DataSource, load_cases
from clinaudit.loaders.stream import open_input_rows


def _by_loader(path: Path, limit: int | None) -> object:
    """What the loader path gives: the rows, or the InputError's text."""
    fmt = "jsonl" if path.suffix == ".jsonl" else "csv"
    try:
        src = DataSource(format=fmt, path=str(path), columns={"id": "id", "text": "text"},
                         options={"keep_columns": False}, limit=limit)
        return [(c.case_id, c.text) for c in load_cases(src)]
    except InputError as e:
        return f"InputError: {e}"


def _by_stream(path: Path, limit: int | None, streamed: list[int]) -> object:
    try:
        rows = open_input_rows(path, "id", "text", limit)
        out = list(rows)
        assert len(rows) == len(out)
        assert list(rows) == out  # iterating again reads the same rows
        streamed.append(rows.streamed)
        return out
    except InputError as e:
        return f"InputError: {e}"


_CELLS = ["a", "b", "q1", "q2", " q1 ", "", " ", "x,y", 'say "hi"', "line\nbreak", "tab\there", "é", "\r", "1",
          "=1+1", "\ufeff"]


def _random_csv(rng: random.Random) -> str:
    header = rng.choice([["id", "text"], ["text", "id", "other"], ["id", "text"], ["text", "id"],
                         ["id", "text", "id"], ["id", "txt"], [" id ", "text"], ["", "id", "text"]])
    lines = [",".join(header)]
    for i in range(rng.randint(0, 8)):
        width = len(header) if rng.random() < 0.9 else len(header) + rng.choice([-1, 1])
        cells = []
        for _ in range(max(1, width)):
            c = rng.choice(_CELLS) if rng.random() < 0.1 else f"v{i}"
            cells.append('"' + c.replace('"', '""') + '"' if any(ch in c for ch in ',"\n\r') else c)
        lines.append(",".join(cells))
        if rng.random() < 0.1:
            lines.append("")
    text = "\n".join(lines) + rng.choice(["", "\n", "\r\n"])
    if rng.random() < 0.1:
        text = '"unterminated\n' + text if rng.random() < 0.5 else text + '\n"a"b,c'
    if rng.random() < 0.1:
        text = "\ufeff" * rng.randint(1, 2) + text
    return text


def _random_jsonl(rng: random.Random) -> str:
    lines = []
    for i in range(rng.randint(0, 8)):
        r = rng.random()
        if r < 0.05:
            lines.append("not json")
        elif r < 0.1:
            lines.append("[1, 2]")
        elif r < 0.15:
            lines.append("")
        else:
            obj = {"id": rng.choice([f"q{i}"] * 8 + [i, None, " ", "q1"]),
                   "text": rng.choice([f"t{i}"] * 8 + ["", " ", 5, None, "a\u2028b", "x\x85y"])}
            if rng.random() < 0.05:
                del obj["text"]
            line = json.dumps(obj, ensure_ascii=rng.random() < 0.5)
            lines.append(line + rng.choice(["", "", "\u2028", "\x0c"]) if rng.random() < 0.1 else line)
    return rng.choice(["\n", "\r\n", "\r"]).join(lines) + rng.choice(["", "\n"])


def test_stream_gives_the_loaders_rows_and_errors_on_random_files(tmp_path):
    rng = random.Random(16)
    outcomes = {"rows": 0, "error": 0}
    streamed: list[int] = []
    for i in range(400):
        jsonl = i % 2 == 1
        path = tmp_path / (f"f{i}.jsonl" if jsonl else f"f{i}.csv")
        path.write_bytes((_random_jsonl(rng) if jsonl else _random_csv(rng)).encode("utf-8"))
        if rng.random() < 0.05:
            path.write_bytes(path.read_bytes() + b"\xff\xfe bad byte")
        limit = rng.choice([None, None, 1, 3])
        expected = _by_loader(path, limit)
        assert _by_stream(path, limit, streamed) == expected, path.read_bytes()
        outcomes["error" if isinstance(expected, str) else "rows"] += 1
    # rows read by the streaming reader itself, rows the loader gave, and errors: all exercised
    assert sum(streamed) > 60 and len(streamed) - sum(streamed) >= 1 and outcomes["error"] > 60, (outcomes, sum(streamed))


def test_stream_holds_no_row_objects(tmp_path):
    """100,000 rows: the check keeps one 8-byte hash per row; the loader built a Case object per row."""
    import tracemalloc

    path = tmp_path / "big.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "text"])
        for i in range(100_000):
            w.writerow([f"q{i}", f"question {i}: I have had a cough for {i % 30} days, what should I do?"])
    tracemalloc.start()
    rows = open_input_rows(path, "id", "text")
    n = sum(1 for _ in rows)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert n == len(rows) == 100_000 and rows.streamed
    assert peak < 8 * 1024 * 1024, peak  # 3.2 MB of row hashes at most (a set of them while checked)


@pytest.mark.parametrize("content, message", [
    ("id,text\nq1,a\nq1,b\n", "duplicate id 'q1': rows 1 and 2"),
    ("id,text\nq1,a\nq2,\n", "empty text"),
    ("id,question\nq1,a\n", "column 'text' (mapped to 'text') not found"),
])
def test_stream_errors_name_file_row_and_field(tmp_path, content, message):
    path = tmp_path / "in.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
        open_input_rows(path, "id", "text")
    assert str(path) in str(err.value)


def test_generate_peak_memory_does_not_grow_with_the_input(tmp_path, monkeypatch):
    """``clinaudit generate`` (mock model) on 2,000 and on 12,000 rows, the runner's window of requests in
    flight set to 512 (both runs fill it): the peak of Python allocations grows by less than 3 MB. Before,
    the input was loaded whole (a Case object per row: ~1.5 KB per row, +15 MB here)."""
    import dataclasses
    import tracemalloc

    import clinaudit.cli.generate_cmd as generate_cmd
    from clinaudit.cli.main import main

    real = generate_cmd.runner_config_from_args
    monkeypatch.setattr(generate_cmd, "runner_config_from_args",
                        lambda args: dataclasses.replace(real(args), window=512))
    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "usercache"))
    peaks = {}
    for n in (2000, 12000):
        path = tmp_path / f"q{n}.csv"
        with open(path, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["id", "text"])
            for i in range(n):
                w.writerow([f"q{i}", f"question {i}: I have had a cough for {i % 30} days, what should I do? " * 2])
        tracemalloc.start()
        try:
            assert main(["generate", "--input", str(path), "--id-column", "id", "--text-column", "text",
                         "--model", "mock", "--no-progress", "--out", str(tmp_path / f"run{n}")]) == 0
            peaks[n] = tracemalloc.get_traced_memory()[1] / 2**20
        finally:
            tracemalloc.stop()
    assert peaks[12000] - peaks[2000] < 3, peaks
