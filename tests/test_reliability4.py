"""Issue 41 (Reliability 4): a killed worker never hangs a run, a kill -9 loses only the calls in flight (and the
answers of one commit group), no input dropped without a word, messages that name the real problem, exports
that round-trip.

Every test drives the real command (or the API a user calls) against loopback stubs it starts."""

from __future__ import annotations

import csv
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from stub_openai_server import StubProcess, stub_answer

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "CLINAUDIT_TEST_UNSET_KEY": ""}


def _questions(path: Path, n: int) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["pid", "question"])
        for i in range(n):
            w.writerow([f"p{i:04d}", f"question {i}"])
    return path


def _stored(cache: Path) -> int:
    if not cache.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _workers_of(pid: int) -> list[int]:
    import psutil

    return [p.pid for p in psutil.Process(pid).children()
            if "spawn_main" in " ".join(p.cmdline())]


# ---- item 1: a killed worker of the processes executor ------------------------------------------------------
@pytest.mark.slow  # spawns a pool twice (~15 s on the loaded 2-core machine)
def test_a_killed_processes_worker_is_replaced_and_the_run_ends_with_every_answer_stored_once(tmp_path):
    n = 300
    inp = _questions(tmp_path / "in.csv", n)
    out = tmp_path / "run"
    with StubProcess(delay_s=0.05) as stub:
        cmd = [sys.executable, "-m", "clinaudit", "generate", "--input", str(inp), "--id-column", "pid",
               "--text-column", "question", "--model", "openai:stub", "--base-url", stub.base_url,
               "--api-key-env", "CLINAUDIT_TEST_UNSET_KEY", "--out", str(out), "--no-progress",
               "--executor", "processes", "--shards", "2", "--concurrency", "4"]
        proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and proc.poll() is None and stub.stats()["total"] < 40:
                time.sleep(0.05)
            assert proc.poll() is None, "the run ended before a worker could be killed"
            workers = _workers_of(proc.pid)
            assert len(workers) == 2
            os.kill(workers[0], signal.SIGKILL)
            killed = time.monotonic()
            stdout, stderr = proc.communicate(timeout=60)  # no hang: TimeoutExpired fails the test
            assert time.monotonic() - killed < 60
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr and "InvalidStateError" not in stderr
    assert "a worker process died" in stderr and "again from new workers" in stderr
    df = pd.read_csv(out / "responses.csv", keep_default_na=False)
    assert df["pid"].tolist() == [f"p{i:04d}" for i in range(n)]
    assert df["response"].tolist() == [stub_answer("stub", f"question {i}", 0) for i in range(n)]
    with sqlite3.connect(out / "cache.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM responses").fetchone() == (n, n)


# ---- item 2: kill -9 of generate loses only the calls in flight and one commit group, counted -----------------
def _stored_prompts(cache: Path) -> set[str]:
    import json

    if not cache.exists():
        return set()
    with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as conn:
        return {json.loads(r)["messages"][-1]["content"] for (r,) in conn.execute("SELECT request FROM responses")}


@pytest.mark.slow  # ten killed runs and a last one against a threaded stub (~40 s on the loaded 2-core machine)
def test_ten_kills_of_generate_at_concurrency_32_resend_at_most_32_answered_calls_each_counted_in_the_run_log(
        tmp_path):
    import re

    n, conc, kills = 2000, 32, 10
    inp = _questions(tmp_path / "in.csv", n)
    out = tmp_path / "run"
    cache = out / "cache.sqlite"
    lost: list[int] = []  # per kill: prompts the stub answered whose answers the cache lacks (paid for again)
    with StubProcess(fault_rate=0.3, retry_after=0.01, slow_s=0.05, keep_bodies=False) as stub:
        cmd = [sys.executable, "-m", "clinaudit", "generate", "--input", str(inp), "--id-column", "pid",
               "--text-column", "question", "--model", "openai:stub", "--base-url", stub.base_url,
               "--api-key-env", "CLINAUDIT_TEST_UNSET_KEY", "--out", str(out), "--no-progress",
               "--concurrency", str(conc)]
        for _ in range(kills):
            base = sum(stub.stats()["ok_by_prompt"].values())
            proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and proc.poll() is None:
                if sum(stub.stats()["ok_by_prompt"].values()) >= base + 150:
                    break
                time.sleep(0.02)
            assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read()[-500:]}"
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            answered = {p for p, k in stub.stats()["ok_by_prompt"].items() if k}
            lost.append(len(answered - _stored_prompts(cache)))
        last = subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=300)
        assert last.returncode == 0, last.stderr
        ok = stub.stats()["ok_by_prompt"]
    print("answered and lost per kill:", lost)
    assert max(lost) <= conc, lost
    # every answer the stub gave twice is one of those counted at a kill; nothing else was paid for twice
    assert sum(k - 1 for k in ok.values()) == sum(lost)
    # each run after a kill logged the calls the stopped runs had sent and not stored: at least those answered
    log = (out / "logs" / "run.log").read_text(encoding="utf-8")
    held = [int(m) for m in re.findall(r"hold (\d+) call\(s\) sent and never stored", log)]
    print("logged as sent and never stored:", held)
    assert len(held) == kills and all(h >= k for h, k in zip(held, lost)), (held, lost)
    resent = [int(m) for m in re.findall(r"(\d+) call\(s\) re-sent", log)]
    assert resent and resent[-1] >= lost[-1]  # the last run's own count of what it sent again
    assert f"{resent[-1]} re-sent" in last.stdout
    df = pd.read_csv(out / "responses.csv", keep_default_na=False)
    assert df["response"].tolist() == [stub_answer("stub", f"question {i}", 0) for i in range(n)]
    with sqlite3.connect(cache) as conn:
        assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM responses").fetchone() == (n, n)
    assert not (Path(str(cache) + ".sent")).exists()  # the last run, complete, left no journal behind


def test_the_journal_counts_calls_a_stopped_run_had_sent_and_a_finished_batch_leaves_none(tmp_path):
    from clinaudit.cache import ResponseCache
    from clinaudit.models.mock import MockBackend
    from clinaudit.records import ModelRequest
    from clinaudit.runner import Runner, RunnerConfig

    path = tmp_path / "cache.sqlite"
    requests = [ModelRequest.chat("mock", f"q{i}") for i in range(6)]
    first = Runner(cache=ResponseCache(path), config=RunnerConfig(progress=False))
    first.add_backend(MockBackend("mock"))
    keys = [first.request_key(r) for r in requests]
    first.generate(requests[:2])  # stored
    assert first.usage["mock"].resent == 0 and not (tmp_path / "cache.sqlite.sent").exists()
    # a run that was killed (its pid is no process) had sent q0..q3: q0, q1 are stored, q2, q3 are not
    journal = tmp_path / "cache.sqlite.sent"
    journal.mkdir()
    (journal / "999999999-dead.keys").write_text("".join(k + "\n" for k in keys[:4]) + keys[4][:10])
    again = Runner(cache=ResponseCache(path), config=RunnerConfig(progress=False))
    again.add_backend(MockBackend("mock"))
    again.generate(requests)
    usage = again.usage["mock"]
    assert (usage.calls, usage.cache_hits, usage.resent) == (4, 2, 2)  # q2, q3 sent again; q4, q5 first sent
    assert not journal.exists()  # every key of the stopped run is stored now: its journal is gone, and ours


# ---- item 3: rows dropped say so ---------------------------------------------------------------------------------
def _tidy_scores(path: Path, bad: dict[int, str]) -> Path:
    import numpy as np

    rng = np.random.default_rng(3)
    rows = []
    for cat in ("gender", "age"):
        for t in range(6):
            for attr in ("a", "b"):
                for g in ("male", "female"):
                    for k in range(2):
                        rows.append({"category": cat, "group": g, "score": f"{rng.normal():.6f}",
                                     "template_id": f"{cat}{t}", "attribute": attr, "target_index": k})
    for i, v in bad.items():
        rows[i]["score"] = v
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_association_with_nan_and_inf_scores_prints_the_dropped_count(tmp_path, capsys):
    from clinaudit.cli.main import main

    bad = {i: ("nan", "inf", "-inf", "NaN")[i % 4] for i in range(0, 96, 7)}  # 14 of 96
    scores = _tidy_scores(tmp_path / "s.csv", bad)
    assert main(["association", "--scores", str(scores), "--out", str(tmp_path / "o"), "--no-progress",
                 "--n-bootstrap", "0"]) == 0
    err = capsys.readouterr().err
    line = next(x for x in err.splitlines() if "excluded" in x)
    assert "14 of 96 score rows excluded" in line and "NaN, inf or -inf" in line and "exclusions.csv" in line
    assert len(pd.read_csv(tmp_path / "o" / "exclusions.csv")) == 14


def test_association_where_most_scores_are_dropped_is_not_a_plain_success(tmp_path, capsys):
    from clinaudit.cli.main import main

    bad = {i: "inf" for i in range(96) if i % 8 not in (0, 1, 2)}  # 60 of 96; every group keeps a few rows
    scores = _tidy_scores(tmp_path / "s.csv", bad)
    assert main(["association", "--scores", str(scores), "--out", str(tmp_path / "o"), "--no-progress",
                 "--n-bootstrap", "0"]) == 1
    err = capsys.readouterr().err
    assert "warning: 60 of 96 score rows excluded" in err and "more than half" in err and "exit 1" in err


def test_classifier_gaps_where_most_test_rows_have_no_group_is_not_a_plain_success(tmp_path, capsys):
    from clinaudit.cli.main import main

    rows = [{"task": "t", "label": i % 2, "pred": (i // 2) % 2, "split": "test",
             "gender": ("F" if i % 2 else "M") if i % 8 < 3 else ""} for i in range(80)]  # 50 of 80 blank
    pd.DataFrame(rows).to_csv(tmp_path / "p.csv", index=False)
    argv = ["classifier-gaps", "--predictions", str(tmp_path / "p.csv"), "--pred-column", "pred", "--group-column",
            "gender", "--n-resamples", "20", "--out", str(tmp_path / "o"), "--no-progress"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "warning: 50 of 80 test rows of the 'gender' gaps excluded (50 with a blank group)" in err


# ---- item 4: messages that name the real problem ------------------------------------------------------------------
def test_a_jury_that_ties_is_reported_as_disagreeing_not_as_unparseable():
    from clinaudit.pipeline.validity import VerdictSettings, assess_tables, run_status

    from test_verdicts import _tables

    tables = _tables(["tie"] * 6)
    tables["judgments"]["jury"] = "decision"
    _, validity = assess_tables(tables, "treatment_shift", VerdictSettings())
    status, _ = run_status(validity)
    assert status.startswith("not measured: the jury of 'annotator' decided 0 of 6 items: 6 tied (its jurors' "
                             "answers parsed, but no verdict had a majority)"), status
    assert "could parse" not in status


def test_categories_given_empty_names_the_option(tmp_path, capsys):
    from clinaudit.cli.main import main

    scores = _tidy_scores(tmp_path / "s.csv", {})
    for opt in ("--categories", "--groups"):
        assert main(["association", "--scores", str(scores), opt, "", "--out", str(tmp_path / "o"),
                     "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert f"{opt} '' names nothing" in err and "params.groups" not in err, err


def test_compare_of_a_manifest_without_audit_says_it_is_incomplete_and_of_a_file_says_so(tmp_path, capsys):
    import json

    from clinaudit.cli.main import main

    scores = _tidy_scores(tmp_path / "s.csv", {})
    a, b = tmp_path / "A", tmp_path / "B"
    for out in (a, b):
        assert main(["association", "--scores", str(scores), "--out", str(out), "--no-progress",
                     "--n-bootstrap", "0"]) == 0
    manifest = json.loads((b / "manifest.json").read_text())
    manifest.pop("audit")
    manifest["spec"].pop("audit")
    (b / "manifest.json").write_text(json.dumps(manifest))
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--out", str(tmp_path / "cmp")]) == 2
    err = capsys.readouterr().err
    assert "incomplete manifest" in err and str(b / "manifest.json") in err and "different audits" not in err
    assert main(["compare", str(a), str(scores), "--out", str(tmp_path / "cmp")]) == 2
    err = capsys.readouterr().err
    assert "a file, not a folder" in err and str(scores) in err and "no such run directory" not in err


# ---- item 5: exports that round-trip ----------------------------------------------------------------------------
def test_formula_ids_and_their_escaped_twins_stay_distinct_through_every_export_and_back(tmp_path, capsys):
    import csv as _csv

    from clinaudit.api import open_run
    from clinaudit.cli.main import main
    from clinaudit.export import neutralize_frame, read_store_cell, read_store_frame, store_csv, to_csv

    ids = ["=1+2", "'=1+2", "''=1+2", "'", "-x", "plain"]
    inp = tmp_path / "in.csv"
    with inp.open("w", newline="", encoding="utf-8") as f:
        w = _csv.writer(f)
        w.writerow(["pid", "question"])
        w.writerows([[pid, f"q {i}"] for i, pid in enumerate(ids)])
    out = tmp_path / "out"
    assert main(["generate", "--input", str(inp), "--id-column", "pid", "--text-column", "question", "--model",
                 "mock", "--out", str(out), "--no-progress"]) == 0
    for name in ("responses.csv", "tables/responses.csv"):  # the export and the run store
        with (out / name).open(newline="", encoding="utf-8") as f:
            cells = [row[0] for row in _csv.reader(f)][1:]
        assert len(set(cells)) == len(ids), (name, cells)
        assert [read_store_cell(c) for c in cells] == ids, name
        assert not any(c[:1] in "=+-@\t\r" for c in cells)  # and still formula-safe
    assert open_run(out).responses["pid"].tolist() == ids
    # the frame exports (report downloads, compare, findings, note-tables ...) and the run store writer
    df = pd.DataFrame({"id": ids})
    assert [read_store_cell(c) for c in pd.read_csv(__import__("io").StringIO(to_csv(df)),
                                                    keep_default_na=False)["id"]] == ids
    assert neutralize_frame(df)["id"].nunique() == len(ids)
    store_csv(df, tmp_path / "t.csv")
    assert read_store_frame(pd.read_csv(tmp_path / "t.csv", keep_default_na=False))["id"].tolist() == ids


def test_an_empty_answer_reads_back_as_an_empty_string_through_the_api(tmp_path):
    import yaml

    from clinaudit.api import open_run
    from clinaudit.cli.main import main

    spec = yaml.safe_load((Path(__file__).resolve().parent.parent / "examples" / "treatment_shift-mock.yaml")
                          .read_text())
    spec.setdefault("backends", {})["mock:empty"] = {"answer": ""}
    spec["models"]["target"] = "mock:empty"
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec))
    assert main(["run", str(path), "--out", str(tmp_path / "run"), "--no-progress", "--limit", "3"]) == 3
    responses = open_run(tmp_path / "run").responses
    mine = responses[responses["model"] == "mock:empty"]
    assert len(mine) and (mine["text"] == "").all() and mine["error"].isna().all()


def test_a_tab_prefixed_id_is_kept_as_given_through_the_export_and_the_api(tmp_path):
    import csv as _csv

    from clinaudit.api import open_run
    from clinaudit.cli.main import main
    from clinaudit.export import read_store_cell

    inp = tmp_path / "in.csv"
    inp.write_text('pid,question\n"\tx",q 0\n" y ",q 1\n"z\t",q 2\n', encoding="utf-8")
    out = tmp_path / "out"
    assert main(["generate", "--input", str(inp), "--id-column", "pid", "--text-column", "question", "--model",
                 "mock", "--out", str(out), "--no-progress"]) == 0
    ids = ["\tx", "y", "z\t"]  # a tab is kept (the id a user joins on); spaces around an id are stripped
    assert open_run(out).responses["pid"].tolist() == ids
    with (out / "responses.csv").open(newline="", encoding="utf-8") as f:
        cells = [row[0] for row in _csv.reader(f)][1:]
    assert cells == ["'\tx", "y", "z\t"] and [read_store_cell(c) for c in cells] == ids
