"""Issue 17 item 1: a key echoed by a server never reaches a file or the terminal, not even in part.

The old code cut the server's text to 200 characters *before* masking the key, so a key
echoed across the cut left most of itself behind. These tests put the echoed key across
character 200 of a loopback stub's answer and look for every 8-character fragment of it.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.errors import BackendError
from clinaudit.models.openai_compat import OpenAICompatBackend
from clinaudit.records import ModelRequest
from clinaudit.redact import MIN_FRAGMENT, redact, redact_and_cut

from stub_openai_server import StubOpenAI

SERVER_KEY = "sk-server-side-accepted-key-000000"
LEAKY_KEY = "sk-proj-Zq81LmXw93Ty0PaVbN4kRc7HsD5e"  # 36 characters, sent by the user, echoed by the server


def fragments(secret: str, n: int = MIN_FRAGMENT) -> set[str]:
    return {secret[i : i + n] for i in range(len(secret) - n + 1)}


def leaked(text: str, secret: str = LEAKY_KEY) -> list[str]:
    return sorted(f for f in fragments(secret) if f in text)


# ---- the redaction itself -----------------------------------------------------------------


def test_redact_masks_whole_values_and_every_8_char_fragment():
    k = LEAKY_KEY
    assert redact(f"a {k} b", [k]) == "a *** b"
    # a cut key: the first and the last 10 characters, each on its own
    assert redact(f"head {k[:10]} | tail {k[-10:]}", [k]) == "head *** | tail ***"
    # 7 characters are below the fragment length and stay (they cannot identify a 36-char key)
    assert redact(f"x {k[:7]} y", [k]) == f"x {k[:7]} y"
    # short secrets are masked as whole values only
    assert redact("pw=hunter2!", ["hunter2"]) == "pw=***!"
    assert redact("nothing here", [k, None, ""]) == "nothing here"
    # two secrets, overlapping fragments merge into one mask
    assert redact(f"{k[:20]}{SERVER_KEY[5:20]}", [k, SERVER_KEY]) == "***"


def test_redact_then_cut_leaves_no_fragment_across_the_cut():
    text = "x" * 183 + LEAKY_KEY + " trailing"
    old_way = text[:200].replace(LEAKY_KEY, "***")  # what the old code did: cut, then replace the full key
    assert leaked(old_way)  # 17 characters of the key survived
    new_way = redact_and_cut(text, [LEAKY_KEY], 200)
    assert leaked(new_way) == [] and new_way == "x" * 183 + "*** trailing"


# ---- the backend ---------------------------------------------------------------------------


@pytest.mark.parametrize("at", [150, 183, 190, 196])
def test_backend_error_message_never_holds_a_fragment_of_the_key(monkeypatch, at):
    monkeypatch.setenv("LEAKY_CRED", LEAKY_KEY)  # a name the log filter would not recognise as secret
    with StubOpenAI(api_key=SERVER_KEY, echo_key_in_errors=True, echo_key_at=at) as stub:
        backend = OpenAICompatBackend("openai:m", base_url=stub.base_url, api_key_env="LEAKY_CRED")
        with pytest.raises(BackendError) as err:
            asyncio.run(backend.agenerate(ModelRequest.chat("openai:m", "hello")))
    msg = str(err.value)
    assert "HTTP 401" in msg and "***" in msg
    assert leaked(msg) == []


# ---- end to end: files of the run directory and the terminal -------------------------------------


@pytest.mark.parametrize("var", ["LEAKY_CRED", "LEAKTEST_API_KEY"])
def test_echoed_key_is_in_no_file_of_the_run_and_not_on_stderr(tmp_path: Path, var: str):
    inp = tmp_path / "in.csv"
    pd.DataFrame({"id": ["a", "b"], "text": ["first question", "second question"]}).to_csv(inp, index=False)
    out = tmp_path / "run"
    env = {**os.environ, var: LEAKY_KEY, "HF_HUB_OFFLINE": "1"}
    with StubOpenAI(api_key=SERVER_KEY, echo_key_in_errors=True, echo_key_at=183) as stub:
        proc = subprocess.run(
            [sys.executable, "-m", "clinaudit", "-v", "generate", "--input", str(inp), "--id-column", "id",
             "--text-column", "text", "--model", "openai:stub", "--base-url", stub.base_url, "--api-key-env", var,
             "--out", str(out), "--no-progress"],
            env=env, capture_output=True, text=True, timeout=120,
        )
    assert proc.returncode == 1, proc.stderr  # both calls failed with HTTP 401
    errors = pd.read_csv(out / "responses.csv")["error"].tolist()
    assert all("HTTP 401" in e and "***" in e for e in errors)
    files = [p for p in out.rglob("*") if p.is_file()]
    names = {p.relative_to(out).as_posix() for p in files}
    assert {"responses.csv", "tables/responses.csv", "logs/run.log", "manifest.json"} <= names
    assert "HTTP 401" in (out / "logs" / "run.log").read_text(encoding="utf-8")
    for p in files:
        data = p.read_bytes()
        found = [f for f in fragments(LEAKY_KEY) if f.encode() in data]
        assert found == [], f"fragments of the key in {p.name}: {found[:3]}"
    assert "HTTP 401" in proc.stderr  # the failure is shown (-v) ...
    assert leaked(proc.stderr) == [] and leaked(proc.stdout) == []  # ... without the key


def test_log_filter_masks_fragments_of_key_like_values_only(monkeypatch):
    from clinaudit.redact import RedactingFilter

    monkeypatch.setenv("LEAKTEST_API_KEY", LEAKY_KEY)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    f = RedactingFilter()
    assert f.redact(f"cut: {LEAKY_KEY[:12]}") == "cut: ***"  # a fragment of a key-like value
    assert f.redact("the backends module") == "the backends module"  # not a key: only the whole value
    assert f.redact("keyring.backends.null.Keyring") == "***"


def test_python_api_refuses_unknown_openai_options():
    with pytest.raises(BackendError, match=r"unknown option 'base_ur1' for the openai backend; did you mean 'base_url'"):
        OpenAICompatBackend("openai:m", base_ur1="http://localhost:1/v1")
    OpenAICompatBackend("openai:m", base_url="http://localhost:1/v1", price_per_1k_input=0.1)  # passive: fine
