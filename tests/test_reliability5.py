"""Issue 51 (Reliability 5), the executor and input items: the workers of ``--executor processes`` end with their
driver whatever killed it, and a ``kill -9`` of ``clinaudit run --executor processes`` pays for no more calls twice
than the documented bound (the calls in flight); the run resumed writes the tables of an uninterrupted run.

Every test drives the real command against a loopback stub it starts."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from executor_checks import tables
from stub_openai_server import StubProcess

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "CLINAUDIT_TEST_UNSET_KEY": ""}
CONCURRENCY, SHARDS = 8, 2


def _spec(path: Path, base_url: str) -> Path:
    """A treatment-shift audit of 12 demo messages: two stub targets (3 seeds, 5 perturbations + the original:
    432 calls of the stub) and a mock judge."""
    backend = f"    base_url: {base_url}\n    api_key_env: CLINAUDIT_TEST_UNSET_KEY\n"
    path.write_text(
        "audit: treatment_shift\nname: kill-test\nseed: 0\n"
        "data:\n  - format: demo:patient_messages\n    limit: 12\n"
        "models:\n  target: [openai:stub-a, openai:stub-b]\n  judge: mock:judge\n"
        f"backends:\n  openai:stub-a:\n{backend}  openai:stub-b:\n{backend}"
        "  mock:judge:\n    rules:\n"
        "      - {match: \"patient's gender\", response: \"GENDER [FEMALE]\"}\n"
        "      - {match: \"[02468]\\\\d \\\\(seed\", response: \"MANAGE [YES]\\nVISIT [NO]\\nRESOURCE [NO]\"}\n"
        "      - {match: \".\", response: \"MANAGE [NO]\\nVISIT [YES]\\nRESOURCE [YES]\"}\n"
        "params:\n  perturbations: [exclamation, typo, whitespace, lowercase, uppercase]\n  mode: default\n"
        "  seeds: [0, 1, 42]\n  temperature: 0.7\n  parser: tolerant\n  n_resamples: 20\n"
        f"runner:\n  concurrency: {CONCURRENCY}\n",
        encoding="utf-8")
    return path


def _stored(cache: Path) -> int:
    if not cache.exists():
        return 0
    with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM responses WHERE backend LIKE 'openai%'").fetchone()[0])


def _workers_of(pid: int) -> list[int]:
    import psutil

    return [p.pid for p in psutil.Process(pid).children() if "spawn_main" in " ".join(p.cmdline())]


def _alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _kill_and_resume(tmp_path: Path, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    with StubProcess(delay_s=0.02, keep_bodies=False) as stub:
        spec = _spec(tmp_path / "spec.yaml", stub.base_url)
        cmd = [sys.executable, "-m", "clinaudit", "run", str(spec), "--no-progress", "--executor", "processes",
               "--shards", str(SHARDS)]
        out = tmp_path / "killed"
        cache = out / "cache.sqlite"
        lost: list[int] = []  # per kill: calls the stub answered whose answers the cache lacks (paid for again)
        late: list[float] = []  # per kill: seconds until the last worker was gone
        seen: list[int] = []  # per kill: workers alive at the kill
        for _ in range(kills):
            ok_before = stub.stats()["total"]
            proc = subprocess.Popen([*cmd, "--out", str(out)], env=ENV, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
            target = ok_before + rng.randint(10, 432 // (kills + 1))  # a random moment of the 432 calls
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and proc.poll() is None and stub.stats()["total"] < target:
                time.sleep(0.01)
            assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read()[-500:]}"
            workers = _workers_of(proc.pid)  # (none at a moment between two pools, e.g. the pool restarted larger)
            seen.append(len(workers))
            proc.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            proc.wait(timeout=30)
            while any(_alive(w) for w in workers) and time.monotonic() - killed < 10:
                time.sleep(0.05)
            late.append(round(time.monotonic() - killed, 2))
            assert not any(_alive(w) for w in workers), f"a worker outlived its driver by 10 s: {workers}"
            time.sleep(0.5)  # nothing answers a dead worker: the stub's count is final
            answered = sum(n for p, n in stub.stats()["ok_by_prompt"].items())
            lost.append(answered - _stored(cache) - sum(lost))
        last = subprocess.run([*cmd, "--out", str(out)], env=ENV, capture_output=True, text=True, timeout=600)
        assert last.returncode == 0, last.stderr[-2000:]
        paid = sum(stub.stats()["ok_by_prompt"].values())
        whole = subprocess.run([*cmd, "--out", str(tmp_path / "whole")], env=ENV, capture_output=True, text=True,
                               timeout=600)
        assert whole.returncode == 0, whole.stderr[-2000:]
        calls = sum(stub.stats()["ok_by_prompt"].values()) - paid
    print("workers at each kill:", seen, "seconds until no worker was left, per kill:", late)
    assert max(seen) == SHARDS
    print("answered and lost per kill:", lost, "calls of the whole run:", calls)
    # the documented bound (docs/reliability.md): per kill, the chunk each worker runs, one answered but not stored
    # yet, and one that passed its look at the driver just before the kill, each one worker's share of the
    # concurrency: 3 x the concurrency (2 x is the usual case; a fresh-clone CI run lost 20 = 2.5 x in one kill)
    assert max(lost) <= 3 * CONCURRENCY, lost
    assert paid - calls == sum(lost)  # nothing else was paid for twice
    log = (out / "logs" / "run.log").read_text(encoding="utf-8")
    import re

    resent = [int(m) for m in re.findall(r"(\d+) call\(s\) re-sent", log)]
    assert sum(resent) >= sum(lost), (resent, lost)  # every call paid twice was counted as re-sent
    # the tables of the resumed run are those of an uninterrupted one (but for which answers came from the cache)
    whole_tables, resumed = tables(tmp_path / "whole"), tables(out)
    assert sorted(whole_tables) == sorted(resumed) and "responses.csv" in resumed
    for name, df in whole_tables.items():
        keep = [c for c in df.columns if c != "cached"]
        pd.testing.assert_frame_equal(df[keep].sort_values(keep).reset_index(drop=True),
                                      resumed[name][keep].sort_values(keep).reset_index(drop=True), obj=name)
    assert not Path(str(cache) + ".sent").exists()  # the complete run left no journal behind


_DRIVER = """
import multiprocessing, sys, time
from clinaudit.executors.lifeline import driver_identity, die_with_driver

def worker(driver, child):
    print(die_with_driver(driver), flush=True)
    time.sleep(120)

if __name__ == "__main__":
    child = sys.argv[1] == "child"
    ctx = multiprocessing.get_context("spawn")
    p = ctx.Process(target=worker, args=(driver_identity(child=child), child))
    p.start()
    print(p.pid, flush=True)
    time.sleep(120)
"""


@pytest.mark.parametrize("kind", ["child", "same-host"])
def test_a_worker_ends_within_a_second_of_its_driver_killed_with_sigkill(tmp_path, kind):
    script = tmp_path / "driver.py"
    script.write_text(_DRIVER, encoding="utf-8")
    driver = subprocess.Popen([sys.executable, str(script), kind], env=ENV, stdout=subprocess.PIPE, text=True)
    try:
        worker = int(driver.stdout.readline())
        how = driver.stdout.readline().strip()  # the worker's line: how it watches
        assert how == ("pdeathsig+watchdog" if kind == "child" else "watchdog")
        assert _alive(worker)
        driver.send_signal(signal.SIGKILL)
        driver.wait(timeout=10)
        killed = time.monotonic()
        while _alive(worker) and time.monotonic() - killed < 10:
            time.sleep(0.02)
        assert not _alive(worker)
        assert time.monotonic() - killed < 3  # the watchdog looks every 0.5 s; pdeathsig is at once
    finally:
        driver.kill()
        driver.wait()


@pytest.mark.slow  # a killed run, a resumed one and an uninterrupted one (~2.5 min on the 2-core machine at load 7)
def test_kill_9_of_run_with_processes_ends_its_workers_and_pays_at_most_the_calls_in_flight_twice(tmp_path):
    _kill_and_resume(tmp_path, kills=1, seed=51)


@pytest.mark.slow  # eight killed runs, a resumed one and an uninterrupted one (minutes on the 2-core machine)
def test_eight_kills_at_random_moments_of_run_with_processes(tmp_path):
    _kill_and_resume(tmp_path, kills=8, seed=8)


# ---- item 7: a raw U+2028 in a JSON Lines string; Ctrl-C of a command that makes no model call -----------------
def test_a_raw_line_separator_inside_a_jsonl_string_is_text_not_a_line_end(tmp_path):
    import json

    from clinaudit.loaders.base import DataSource, load_cases
    from clinaudit.loaders.stream import open_input_rows

    texts = ["pain\u2028since monday", "cough\u2029and fever\x85at night", "plain"]
    path = tmp_path / "in.jsonl"
    body = "\r\n".join(json.dumps({"id": f"c{i}", "text": t}, ensure_ascii=False) for i, t in enumerate(texts))
    path.write_text(body + "\n", encoding="utf-8", newline="")
    assert "\u2028" in path.read_text(encoding="utf-8")  # raw, not escaped: valid JSON all the same
    cases = load_cases(DataSource(format="jsonl", path=str(path), columns={"id": "id", "text": "text"}))
    assert [(c.case_id, c.text) for c in cases] == [(f"c{i}", t) for i, t in enumerate(texts)]
    rows = open_input_rows(path, "id", "text")  # generate's streaming reader: the same rows, without the loader
    assert rows.streamed and list(rows) == [(f"c{i}", t) for i, t in enumerate(texts)]


@pytest.mark.cli_errors_expected
def test_ctrl_c_of_view_does_not_speak_of_model_calls_to_resume(tmp_path, capsys, monkeypatch):
    import clinaudit.viewer
    from clinaudit.cli.main import main
    from clinaudit.runner import Runner

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(clinaudit.viewer, "serve", interrupted)
    monkeypatch.setattr(Runner, "made", False)
    assert main(["view", str(tmp_path), "--no-browser"]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "model calls" not in err and "resume" not in err
    Runner(cache=None)  # a command that set up model calls keeps the resume line
    monkeypatch.setattr(clinaudit.viewer, "serve", interrupted)
    assert main(["view", str(tmp_path), "--no-browser"]) == 130
    assert "re-run the same command to resume" in capsys.readouterr().err


# ---- item 4: a full disk during `clinaudit report` leaves the previous files, and the error names the file ------
class _FullDisk:
    """A file object that takes half of what is written, then fails as a full disk does."""

    def __init__(self, fh):
        self._fh = fh

    def write(self, data):
        import errno

        self._fh.write(data[: len(data) // 2])
        self._fh.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name):
        return getattr(self._fh, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._fh.close()


@pytest.fixture(scope="module")
def mock_run(tmp_path_factory):
    from clinaudit.pipeline import run_spec

    out = tmp_path_factory.mktemp("atomic") / "run"
    run_spec(Path(__file__).resolve().parent.parent / "examples" / "treatment_shift-mock.yaml", out, progress=False)
    return out


@pytest.mark.cli_errors_expected
@pytest.mark.parametrize("name", ["findings.json", "report.html"])
def test_a_full_disk_during_report_keeps_the_previous_file_and_names_it(mock_run, capsys, monkeypatch, name):
    import builtins
    import io

    from clinaudit.cli.main import main

    assert main(["report", str(mock_run)]) == 0
    before = {p.name: p.read_bytes() for p in mock_run.iterdir() if p.is_file()}
    assert before[name]
    real_open = builtins.open

    def failing_open(file, mode="r", *args, **kwargs):
        fh = real_open(file, mode, *args, **kwargs)
        return _FullDisk(fh) if "w" in mode and name in Path(str(file)).name else fh

    monkeypatch.setattr(builtins, "open", failing_open)
    monkeypatch.setattr(io, "open", failing_open)
    capsys.readouterr()
    assert main(["report", str(mock_run)]) == 2
    err = capsys.readouterr().err
    monkeypatch.undo()
    assert f"cannot write {mock_run / name}: No space left on device" in err, err
    assert (mock_run / name).read_bytes() == before[name]  # the previous version, whole
    assert not [p.name for p in mock_run.iterdir() if p.name.endswith(".tmp")]  # no half-written file left


def test_an_atomic_write_that_fails_leaves_nothing_where_there_was_nothing(tmp_path, monkeypatch):
    from clinaudit import atomic

    target = tmp_path / "table.csv"
    with pytest.raises(OSError, match=f"cannot write {target}"):
        with atomic.replacing(target) as fh:
            fh.write("a,b\n")
            raise OSError(28, "No space left on device")
    assert list(tmp_path.iterdir()) == []
    atomic.write_text(target, "a,b\n1,2\n")
    assert target.read_text() == "a,b\n1,2\n" and list(tmp_path.iterdir()) == [target]
