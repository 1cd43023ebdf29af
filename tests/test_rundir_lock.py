"""Issue 17 item 4: one writer per run directory, and no silent re-use for another spec.

Old behaviour: two processes on one ``--out`` both exited 0 and every call was paid twice;
a second audit into the same directory mixed its tables with the first one's.
"""

from __future__ import annotations

import json
import os
import platform
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.cli.main import main
from clinaudit.rundir import LOCK_OWNER_FILE, RunDirReuseError, check_reuse

from stub_openai_server import StubProcess

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
N = 6


def _input(tmp_path: Path) -> Path:
    p = tmp_path / "in.csv"
    pd.DataFrame({"id": [f"r{i}" for i in range(N)], "text": [f"question {i}" for i in range(N)]}).to_csv(p, index=False)
    return p


def _generate_cmd(inp: Path, out: Path, base_url: str) -> list[str]:
    return [sys.executable, "-m", "clinaudit", "generate", "--input", str(inp), "--id-column", "id", "--text-column",
            "text", "--model", "openai:stub", "--base-url", base_url, "--api-key-env", "LOCKTEST_NO_KEY",
            "--out", str(out), "--no-progress", "--concurrency", "1"]


def _wait_for(path: Path, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, "the first process ended before the second could start"
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def test_second_process_is_refused_naming_the_holder_and_no_call_is_paid_twice(tmp_path):
    inp, out = _input(tmp_path), tmp_path / "run"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    with StubProcess(delay_s=2.0) as stub:  # the first run takes >= 12 s: time for a second process to start
        cmd = _generate_cmd(inp, out, stub.base_url)
        first = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _wait_for(out / LOCK_OWNER_FILE, first)
        owner = json.loads((out / LOCK_OWNER_FILE).read_text(encoding="utf-8"))
        assert owner["pid"] == first.pid and owner["host"] == platform.node()
        second = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        out1, err1 = first.communicate(timeout=120)
        assert first.returncode == 0, err1
        total_first = stub.stats()["total"]
        # after the holder ended, the same command resumes with nothing left to ask
        third = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        total_after = stub.stats()["total"]

    assert second.returncode == 2
    err = second.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in second.stderr
    assert f"is in use by another clinaudit process (pid {first.pid} on host {platform.node()}, started " in err[0]
    assert str(out) in err[0]
    assert total_first == N  # every call paid once
    assert third.returncode == 0, third.stderr
    assert total_after == N and "0 new, 6 from cache" in third.stdout
    assert not (out / LOCK_OWNER_FILE).exists()  # the companion file goes with the lock
    assert len(pd.read_csv(out / "responses.csv")) == N


def test_a_killed_holder_leaves_no_stale_lock(tmp_path):
    inp, out = _input(tmp_path), tmp_path / "run"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    with StubProcess(delay_s=0.4) as stub:
        cmd = _generate_cmd(inp, out, stub.base_url)
        first = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for(out / LOCK_OWNER_FILE, first)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
        again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr  # the OS released the lock with the process
    assert len(pd.read_csv(out / "responses.csv")) == N


# ---- re-use for another audit or spec ------------------------------------------------------


@pytest.fixture()
def rules(tmp_path: Path) -> Path:
    p = tmp_path / "rules.yaml"
    p.write_text('rules:\n  - {match: ".", response: "answer"}\n', encoding="utf-8")
    return p


def _gen(inp: Path, out: Path, rules: Path, model: str, *extra: str) -> int:
    return main(["generate", "--input", str(inp), "--id-column", "id", "--text-column", "text", "--model", model,
                 "--mock-rules", str(rules), "--out", str(out), "--no-progress", *extra])


def test_generate_with_other_settings_is_refused_unless_forced(tmp_path, rules, capsys):
    inp, out = _input(tmp_path), tmp_path / "run"
    assert _gen(inp, out, rules, "mock:a") == 0
    assert _gen(inp, out, rules, "mock:a") == 0  # the same settings resume (default)
    capsys.readouterr()
    assert _gen(inp, out, rules, "mock:b") == 2
    err = capsys.readouterr().err
    assert "holds a run of another spec of audit 'generate' (fields that differ: model)" in err and "--force" in err
    assert set(pd.read_csv(out / "tables" / "responses.csv")["model"]) == {"mock:a"}
    assert _gen(inp, out, rules, "mock:b", "--force") == 0
    assert set(pd.read_csv(out / "tables" / "responses.csv")["model"]) == {"mock:b"}
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["spec"]["model"] == "mock:b"
    assert [r.get("superseded", False) for r in manifest["runs"]] == [True, True, False]


def test_run_into_a_directory_of_another_audit_is_refused_before_anything_runs(tmp_path, rules, capsys):
    inp, out = _input(tmp_path), tmp_path / "run"
    assert _gen(inp, out, rules, "mock:a") == 0
    before = sorted(p.name for p in (out / "tables").iterdir())
    capsys.readouterr()
    spec = EXAMPLES / "treatment_shift-mock.yaml"
    assert main(["run", str(spec), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"run directory {out} holds a run of audit 'generate'" in err and "--force" in err
    assert sorted(p.name for p in (out / "tables").iterdir()) == before
    # --resume needs an earlier run of the same spec
    assert main(["run", str(spec), "--out", str(tmp_path / "fresh"), "--resume", "--dry-run"]) == 2
    assert "holds no earlier run to resume" in capsys.readouterr().err


def test_check_reuse_ignores_runner_settings_and_the_name_only():
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        spec = {"audit": "x", "params": {"a": 1}, "runner": {"concurrency": 8}}
        (Path(d) / "manifest.json").write_text(json.dumps({"runs": [{}], "audit": "x", "spec": spec}))
        assert check_reuse(d, {**spec, "runner": {"concurrency": 32}, "name": "relabelled"}, "x") == "resume"
        with pytest.raises(RunDirReuseError, match=r"fields that differ: params"):
            check_reuse(d, {**spec, "params": {"a": 2}}, "x")
        assert check_reuse(d, {**spec, "params": {"a": 2}}, "x", force=True) == "force"
        assert check_reuse(Path(d) / "new", spec, "x") == "new"
