"""Issue 17 item 10: one documented, configurable cap on a server's Retry-After, and the progress
line says when calls wait on a server.

Old behaviour: the cap was 300 s in code and 30 s in the docs; it could not be set from a spec
or the command line, and nothing was shown while a call slept.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

from clinaudit import runner as runner_mod
from clinaudit.cli.main import build_parser, main
from clinaudit.records import ModelRequest
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.spec import RunnerSettings, parse_spec_dict

from stub_openai_server import StubOpenAI, stub_answer

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_one_default_cap_of_at_most_60_s_in_code_spec_cli_and_docs():
    cap = RunnerConfig().retry_after_max_s
    assert cap <= 60
    assert RunnerSettings().retry_after_max_s == cap
    args = build_parser().parse_args(["generate", "--input", "x.csv", "--id-column", "i", "--text-column", "t",
                                      "--model", "mock", "--out", "o"])
    assert args.retry_after_max == cap
    text = (DOCS / "backends.md").read_text(encoding="utf-8")
    assert f"| `--retry-after-max` | {cap:g} |" in text
    assert f"`retry_after_max_s` (default {cap:g} s" in text
    assert "also capped at 30 s" not in text


def _slow_429_stub() -> StubOpenAI:
    # every prompt is answered 429 with "Retry-After: 1000" once, then answered normally
    return StubOpenAI(fault_rate=1.0, max_faults_per_prompt=1, fault_kinds=("429",), retry_after=1000)


def test_the_cap_bounds_the_wait_and_the_progress_line_says_it_waits(monkeypatch, caplog):
    lines = io.StringIO()

    def bar(total, desc, enabled):
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, file=lines, mininterval=0, ascii=True)

    monkeypatch.setattr(runner_mod, "progress_bar", bar)
    with _slow_429_stub() as stub:
        r = Runner(config=RunnerConfig(retry_after_max_s=0.5, backoff_base_s=0.01),
                   backend_options={"openai:m": {"base_url": stub.base_url, "api_key_env": "RA_TEST_NO_KEY"}})
        reqs = [ModelRequest.chat("openai:m", f"q{i}", seed=0) for i in range(3)]
        t0 = time.monotonic()
        with caplog.at_level("INFO", logger="clinaudit.runner"):
            out = r.generate(reqs)
        elapsed = time.monotonic() - t0
        assert stub.faults["429"] == 3
    assert [o.text for o in out] == [stub_answer("m", f"q{i}", 0) for i in range(3)]
    assert 0.5 <= elapsed < 10  # the cap (0.5 s), not the server's 1000 s
    shown = lines.getvalue()
    assert "waiting 0.5 s on openai:m: server asked Retry-After 1000 s (cap 0.5 s); retry 1/6 after HTTP 429" \
        in shown, shown
    assert "asked to retry after 1000 s; waiting the cap of 0.5 s" in caplog.text


def test_the_cap_is_set_from_a_spec_and_from_the_command_line(tmp_path, monkeypatch):
    spec = yaml.safe_load((Path(__file__).resolve().parents[1] / "examples" / "treatment_shift-mock.yaml")
                          .read_text(encoding="utf-8"))
    spec["runner"] = {"retry_after_max_s": 2.5}
    s, _ = parse_spec_dict(spec, "spec.yaml")
    assert s.runner.retry_after_max_s == 2.5
    spec["runner"] = {"retry_after_max_s": -1}
    with pytest.raises(Exception, match="retry_after_max_s"):
        parse_spec_dict(spec, "spec.yaml")

    inp = tmp_path / "in.csv"
    pd.DataFrame({"id": ["a"], "text": ["hello"]}).to_csv(inp, index=False)
    with _slow_429_stub() as stub:
        t0 = time.monotonic()
        code = main(["generate", "--input", str(inp), "--id-column", "id", "--text-column", "text", "--model",
                     "openai:m", "--base-url", stub.base_url, "--api-key-env", "RA_TEST_NO_KEY", "--out",
                     str(tmp_path / "run"), "--no-progress", "--retry-after-max", "0.2"])
        assert code == 0 and time.monotonic() - t0 < 30
        assert stub.faults["429"] == 1 and stub.total == 2
    with pytest.raises(SystemExit):
        build_parser().parse_args(["generate", "--input", "x", "--id-column", "i", "--text-column", "t",
                                   "--model", "mock", "--out", "o", "--retry-after-max", "-3"])
