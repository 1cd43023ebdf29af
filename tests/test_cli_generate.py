"""``clinaudit generate``: outputs, seeds, input errors, resume after kill -9, no key on disk."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.cli.generate_cmd import sample_seeds
from clinaudit.cli.main import main

from stub_openai_server import StubOpenAI, StubProcess, stub_answer

KEY = "sk-cli-test-secret-5f1b2c3d4e"

RULES = """rules:
  - match: "SYSTEM-TAG"
    response: "system seen, seed={seed}"
  - match: "question"
    response: "reply seed={seed} model={model}"
"""


@pytest.fixture()
def rules(tmp_path: Path) -> Path:
    p = tmp_path / "rules.yaml"
    p.write_text(RULES, encoding="utf-8")
    return p


def _csv(tmp_path: Path, rows: list[tuple[str, str]], name: str = "in.csv") -> Path:
    p = tmp_path / name
    pd.DataFrame(rows, columns=["pid", "question"]).to_csv(p, index=False)
    return p


def _run(*args: str) -> int:
    return main(["generate", "--no-progress", *args])


# ---- seeds ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "samples, seeds, expected",
    [(None, None, [0]), (3, None, [0, 1, 2]), (None, [0, 1, 42], [0, 1, 42]), (2, [0, 1, 42], [0, 1])],
)
def test_sample_seeds(samples, seeds, expected):
    assert sample_seeds(samples, seeds) == expected


@pytest.mark.parametrize("samples, seeds, message", [(4, [0, 1], "needs at least 4"), (0, None, "at least 1"),
                                                      (None, [1, 1], "repeated")])
def test_sample_seeds_rejects(samples, seeds, message):
    with pytest.raises(ValueError, match=message):
        sample_seeds(samples, seeds)


# ---- mock model ------------------------------------------------------------------------------


def test_generate_writes_one_row_per_sample_and_reruns_from_cache(tmp_path, rules, capsys):
    inp = _csv(tmp_path, [("p1", "question one"), ("p2", "question two")])
    out = tmp_path / "run"
    args = ["--input", str(inp), "--id-column", "pid", "--text-column", "question", "--model", "mock",
            "--mock-rules", str(rules), "--samples", "3", "--seeds", "0,1,42", "--temperature", "0.7", "--out", str(out)]
    assert _run(*args) == 0
    printed = capsys.readouterr().out
    assert f"responses: {out / 'responses.csv'}" in printed and "6 new, 0 from cache" in printed
    df = pd.read_csv(out / "responses.csv", keep_default_na=False)
    assert list(df.columns) == ["pid", "sample", "seed", "model", "response", "finish_reason", "prompt_tokens",
                                "completion_tokens", "cached", "error", "request_key"]
    assert df["pid"].tolist() == ["p1"] * 3 + ["p2"] * 3
    assert df["sample"].tolist() == [0, 1, 2] * 2 and df["seed"].tolist() == [0, 1, 42] * 2
    assert df["response"].tolist() == [f"reply seed={s} model=mock" for s in (0, 1, 42)] * 2
    assert set(df["model"]) == {"mock"} and set(df["error"]) == {""} and df["request_key"].nunique() == 6
    assert (out / "tables" / "responses.csv").is_file() and (out / "logs" / "run.log").is_file()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seeds"] == [0, 1, 42] and manifest["models"][0]["spec"] == "mock"
    assert manifest["spec"]["temperature"] == 0.7 and manifest["data"][0]["path"] == str(inp)
    assert manifest["runs"][-1]["usage_total"]["calls"] == 6

    assert _run(*args) == 0
    assert "0 new, 6 from cache" in capsys.readouterr().out
    again = pd.read_csv(out / "responses.csv", keep_default_na=False)
    assert again["cached"].tolist() == [True] * 6 and again["response"].tolist() == df["response"].tolist()
    assert len(json.loads((out / "manifest.json").read_text())["runs"]) == 2


def test_jsonl_input_system_message_and_limit(tmp_path, rules):
    inp = tmp_path / "in.jsonl"
    inp.write_text("\n".join(json.dumps({"id": i, "text": f"question {i}"}) for i in range(5)) + "\n", encoding="utf-8")
    out = tmp_path / "run"
    assert _run("--input", str(inp), "--id-column", "id", "--text-column", "text", "--model", "mock",
                "--mock-rules", str(rules), "--system", "SYSTEM-TAG be kind", "--limit", "2", "--out", str(out)) == 0
    df = pd.read_csv(out / "responses.csv", dtype={"id": str})
    assert df["id"].tolist() == ["0", "1"] and df["response"].tolist() == ["system seen, seed=0"] * 2


@pytest.mark.parametrize(
    "rows, argv, message",
    [
        (None, ["--id-column", "pid", "--text-column", "question"], "file not found"),
        ([("p1", "q")], ["--id-column", "pid", "--text-column", "body"], "field 'body'"),
        ([("p1", "q"), ("p2", "  ")], ["--id-column", "pid", "--text-column", "question"], "row 2, field 'question': empty text"),
        ([("p1", "q"), ("p1", "r")], ["--id-column", "pid", "--text-column", "question"], "duplicate id 'p1'"),
        ([("p1", "q")], ["--id-column", "pid", "--text-column", "question", "--samples", "3", "--seeds", "1,2"],
         "needs at least 3"),
        ([("p1", "q")], ["--id-column", "pid", "--text-column", "question", "--model", "nosuch:x"], "unknown model backend"),
    ],
)
def test_bad_input_is_one_clear_error(tmp_path, capsys, rows, argv, message):
    inp = _csv(tmp_path, rows) if rows is not None else tmp_path / "absent.csv"
    if "--model" not in argv:
        argv = [*argv, "--model", "mock"]
    assert _run("--input", str(inp), *argv, "--out", str(tmp_path / "run")) == 2
    err = capsys.readouterr().err
    assert err.startswith("clinaudit: error: ") and message in err


def test_ray_options_without_the_ray_executor_are_refused_before_anything_runs(tmp_path, rules, capsys):
    data = _csv(tmp_path, [("a", "q")])
    out = tmp_path / "out"
    assert _run("--input", str(data), "--id-column", "pid", "--text-column", "question", "--model", "mock",
                "--out", str(out), "--shards", "2") == 2
    assert "--ray-address and --shards only apply to the processes and ray executors" in capsys.readouterr().err
    assert not out.exists()


def test_help_lists_the_options(capsys):
    with pytest.raises(SystemExit) as info:
        main(["generate", "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    for opt in ("--input", "--id-column", "--text-column", "--model", "--base-url", "--api-key-env", "--system",
                "--samples", "--seeds", "--temperature", "--max-tokens", "--concurrency", "--out"):
        assert opt in text


# ---- OpenAI-compatible stub ------------------------------------------------------------------------


def test_openai_chat_and_completion_modes(tmp_path, monkeypatch):
    monkeypatch.setenv("CLI_STUB_KEY", KEY)
    inp = _csv(tmp_path, [("a", "first question"), ("b", "second question")])
    with StubOpenAI(api_key=KEY) as stub:
        base = ["--input", str(inp), "--id-column", "pid", "--text-column", "question", "--model", "openai:tiny",
                "--base-url", stub.base_url, "--api-key-env", "CLI_STUB_KEY", "--system", "You are a nurse.",
                "--max-tokens", "50", "--seeds", "7"]
        assert _run(*base, "--out", str(tmp_path / "chat")) == 0
        assert stub.paths == {"/v1/chat/completions": 2}
        body = stub.bodies[0]
        assert body["messages"][0] == {"role": "system", "content": "You are a nurse."}
        assert (body["max_tokens"], body["seed"], body["temperature"]) == (50, 7, 0.0)
        df = pd.read_csv(tmp_path / "chat" / "responses.csv")
        assert df["response"].tolist() == [stub_answer("tiny", "first question", 7), stub_answer("tiny", "second question", 7)]

        stub.reset_counters()
        assert _run(*base, "--completion", "--out", str(tmp_path / "completion")) == 0
        assert stub.paths == {"/v1/completions": 2}
        assert stub.bodies[0]["prompt"].startswith("You are a nurse.\n\n")


def test_failed_calls_exit_1_with_error_column(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CLI_WRONG_KEY", "sk-wrong-123456")
    inp = _csv(tmp_path, [("a", "q")])
    with StubOpenAI(api_key=KEY) as stub:
        code = _run("--input", str(inp), "--id-column", "pid", "--text-column", "question", "--model", "openai:m",
                    "--base-url", stub.base_url, "--api-key-env", "CLI_WRONG_KEY", "--out", str(tmp_path / "run"))
    assert code == 1
    df = pd.read_csv(tmp_path / "run" / "responses.csv")
    assert "HTTP 401" in df["error"][0] and pd.isna(df["response"][0])
    assert "1 call(s) failed" in capsys.readouterr().err


def _stored_prompts(cache_path: Path) -> set[str]:
    with sqlite3.connect(f"file:{cache_path}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT request FROM responses").fetchall()
    return {json.loads(r[0])["messages"][-1]["content"] for r in rows}


def test_killed_run_resumes_without_repeating_stored_calls_and_never_writes_the_key(tmp_path):
    n = 200
    inp = _csv(tmp_path, [(f"p{i:03d}", f"patient question number {i}") for i in range(n)])
    out = tmp_path / "run"
    env = {**os.environ, "CLI_STUB_KEY": KEY, "HF_HUB_OFFLINE": "1"}
    with StubProcess(api_key=KEY, delay_s=0.1) as stub:
        cmd = [sys.executable, "-m", "clinaudit", "generate", "--input", str(inp), "--id-column", "pid",
               "--text-column", "question", "--model", "openai:stub", "--base-url", stub.base_url,
               "--api-key-env", "CLI_STUB_KEY", "--out", str(out), "--no-progress"]
        proc = subprocess.Popen([*cmd, "--concurrency", "4"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        cache_path = out / "cache.sqlite"
        deadline = time.monotonic() + 120
        stored = 0
        while time.monotonic() < deadline and proc.poll() is None:
            if cache_path.exists():
                try:
                    with sqlite3.connect(f"file:{cache_path}?mode=ro", uri=True) as conn:
                        stored = conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
                except sqlite3.OperationalError:
                    stored = 0
                if stored >= 30:
                    break
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        done_before = _stored_prompts(cache_path)
        assert 30 <= len(done_before) < n
        assert not (out / "responses.csv").exists()

        stub.reset_counters()
        second = subprocess.run([*cmd, "--concurrency", "16"], env=env, capture_output=True, text=True, timeout=300)
        assert second.returncode == 0, second.stderr
        stats = stub.stats()

    asked_again = set(stats["requests_by_prompt"]) & done_before
    assert asked_again == set()  # nothing already stored was requested again
    assert stats["total"] == n - len(done_before)
    df = pd.read_csv(out / "responses.csv")
    assert len(df) == n and df["pid"].tolist() == [f"p{i:03d}" for i in range(n)]
    assert df["response"].tolist() == [stub_answer("stub", f"patient question number {i}", 0) for i in range(n)]
    assert int(df["cached"].sum()) == len(done_before)
    with sqlite3.connect(cache_path) as conn:
        assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM responses").fetchone() == (n, n)

    # The key was sent on every request but is written nowhere: not in any file, log or output.
    secret = KEY.encode()
    files = [p for p in out.rglob("*") if p.is_file()]
    assert any(p.name == "run.log" for p in files)
    for p in files:
        assert secret not in p.read_bytes(), f"API key found in {p}"
    assert KEY not in second.stdout and KEY not in second.stderr


def test_an_interrupted_command_exits_130_and_says_what_is_kept(tmp_path, monkeypatch, capsys):
    from clinaudit.cli import generate_cmd

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(generate_cmd, "cmd_generate", interrupted)
    data = _csv(tmp_path, [("a", "q")])
    assert _run("--input", str(data), "--id-column", "pid", "--text-column", "question", "--model", "mock",
                "--out", str(tmp_path / "out")) == 130
    err = capsys.readouterr().err
    assert "interrupted; completed model calls are stored" in err
    assert "with --executor processes or ray: those of the chunks that came back" in err
    assert "re-run the same command to resume" in err
