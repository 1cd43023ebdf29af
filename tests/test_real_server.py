"""A real OpenAI-compatible server: `transformers serve` on loopback with the embedded SmolLM2 weights, and a small
treatment-shift audit through `openai:` against it (slow; docs/backends.md, *transformers serve*)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from clinaudit.models.embedded import ensure_converted

    model = str(ensure_converted())
    exe = shutil.which("transformers") or str(Path(sys.executable).with_name("transformers"))
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    with open(log, "wb") as out:
        proc = subprocess.Popen([exe, "serve", model, "--host", "127.0.0.1", "--port", str(port)],
                                stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(base + "/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"transformers serve did not start: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield model, base + "/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_treatment_shift_audit_through_openai_against_transformers_serve(server, tmp_path):
    from clinaudit.pipeline import run_spec
    from clinaudit.spec import parse_spec_dict

    model, base_url = server
    # what the server does with structured output: response_format is taken and ignored, other fields refused
    status, _ = _post(base_url + "/chat/completions", {
        "model": model, "messages": [{"role": "user", "content": "Say YES."}], "max_tokens": 2, "temperature": 0,
        "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": {"type": "object"}}}})
    assert status == 200
    status, body = _post(base_url + "/chat/completions", {
        "model": model, "messages": [{"role": "user", "content": "Say YES."}], "max_tokens": 2, "guided_regex": "YES"})
    assert status == 422 and "guided_regex" in json.dumps(body)

    spec_d = {
        "audit": "treatment_shift", "name": "real-server", "seed": 0,
        "data": [{"format": "demo:patient_messages", "limit": 1}],
        "models": {"target": f"openai:{model}", "judge": f"openai:{model}"},
        "backends": {f"openai:{model}": {"base_url": base_url, "structured_output": "auto"}},
        "runner": {"concurrency": 2, "max_retries": 1},
        "params": {"perturbations": ["uppercase"], "seeds": [0], "max_tokens": 16, "annotator_mode": "generate",
                   "judge_max_tokens": 32, "judge_attempts": 2, "infer_gender": False, "n_resamples": 50},
    }
    spec, params = parse_spec_dict(spec_d)
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False)
    resp = rd.read_table("responses")
    assert len(resp) > 0 and resp["error"].isna().all()  # every call answered by the real server
    target = resp[resp["stage"] == "target"]
    assert len(target) == 1 * 2 and (target["model"] == f"openai:{model}").all()
    labels = rd.read_table("labels")
    assert set(labels["judge_status"]) <= {"ok", "unparseable"}
    # unparseable is never NO: those rows carry no label
    assert labels.loc[labels["judge_status"] == "unparseable", "label"].isna().all()
    ok = labels[labels["judge_status"] == "ok"]
    assert ok["label"].isin([0, 1]).all()
    # the same greedy request twice gives the same text (the server is deterministic at temperature 0)
    first = target.sort_values("request_key")["text"].tolist()
    rd2 = run_spec(spec, tmp_path / "run", params=params, progress=False)
    assert rd2.manifest["runs"][-1]["usage_total"]["calls"] == 0  # resumed from the cache: no new call
    assert first == rd2.read_table("responses").query("stage == 'target'").sort_values("request_key")[
        "text"].tolist()
