"""Benchmark the offline models and the runner.

    python benchmarks/bench_backends.py            # everything (also converts the GGUF once into a temp dir)
    python benchmarks/bench_backends.py --quick    # no fresh conversion, smaller runs

Measures: GGUF -> transformers conversion time (fresh cache dir), load time of
the converted folder, greedy generation tokens/s of ``embedded`` at batch 1
and batch 8 (answers of up to 60 tokens), ``embedded-embedder`` texts/s, and
runner throughput against the loopback stub (50 ms per answer) at
concurrency 32 versus 1. Prints the measurements as JSON, then ``RATIO`` lines
(same machine, same run): batch 8 / batch 1 generation throughput, conversion
time / cached load time, concurrency 32 / concurrency 1 runner throughput.
Absolute numbers depend heavily on the machine and on other jobs running.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

QUESTION = ("I am 45 and have had a headache and a fever of 39C for two days, and my neck feels stiff. "
            "What should I do?")


def bench_embedded(skip_conversion: bool, n_texts: int) -> dict:
    import torch  # noqa: F401  (import cost not counted below)
    import transformers  # noqa: F401

    from clinaudit.models import embedded as emb
    from clinaudit.records import ModelRequest

    out: dict = {}
    if not skip_conversion:
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            emb.ensure_converted(cache_dir=tmp)
            out["conversion_s"] = round(time.perf_counter() - t0, 2)
    emb.ensure_converted()
    gen = emb.EmbeddedGenerator("embedded")
    t0 = time.perf_counter()
    gen._load()
    out["cached_load_s"] = round(time.perf_counter() - t0, 2)

    gen.generate([ModelRequest.chat("embedded", "Hello", max_tokens=4)])  # warm-up
    for batch in (1, 8):
        reqs = [ModelRequest.chat("embedded", QUESTION + (f" (case {i})" if batch > 1 else ""), max_tokens=60)
                for i in range(batch)]
        t0 = time.perf_counter()
        resps = gen.generate(reqs)
        dt = time.perf_counter() - t0
        toks = sum(r.completion_tokens for r in resps)
        out[f"generate_batch{batch}"] = {"seconds": round(dt, 2), "tokens": toks, "tokens_per_s": round(toks / dt, 1)}

    embedder = emb.EmbeddedEmbedder("embedded-embedder")
    t0 = time.perf_counter()
    embedder.embed(["warm up"])
    out["embedder_load_s"] = round(time.perf_counter() - t0, 2)
    texts = [f"Patient {i} reports chest pain radiating to the left arm since this morning." for i in range(n_texts)]
    t0 = time.perf_counter()
    embedder.embed(texts)
    dt = time.perf_counter() - t0
    out["embedder_texts_per_s"] = round(len(texts) / dt, 1)
    return out


def bench_runner(n: int) -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from stub_openai_server import StubProcess

    from clinaudit.records import ModelRequest
    from clinaudit.runner import Runner, RunnerConfig

    out: dict = {"requests": n, "server_delay_s": 0.05}
    with StubProcess(delay_s=0.05) as stub:
        for conc in (1, 32):
            runner = Runner(config=RunnerConfig(concurrency=conc, progress=False),
                            backend_options={"openai:stub": {"base_url": stub.base_url}})
            reqs = [ModelRequest.chat("openai:stub", f"question {i} at {conc}") for i in range(n)]
            t0 = time.perf_counter()
            resps = runner.generate(reqs)
            dt = time.perf_counter() - t0
            out[f"concurrency{conc}"] = {"ok": sum(r.ok for r in resps), "seconds": round(dt, 2),
                                         "requests_per_s": round(n / dt, 1)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="no fresh GGUF conversion, fewer texts and requests")
    args = ap.parse_args()
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    result = {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "load_average_at_start": load}}
    print("embedded: generation of up to 60 greedy tokens per answer for a patient question (batch 1 and 8); "
          "embedder: short sentences, batch 64; runner: loopback stub answering after 50 ms")
    result["embedded"] = bench_embedded(args.quick, 128 if args.quick else 512)
    result["runner_stub"] = bench_runner(64 if args.quick else 200)
    result["machine"]["load_average_at_end"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(json.dumps(result, indent=2))
    e, r = result["embedded"], result["runner_stub"]
    print(f"RATIO bench_backends: embedded generation throughput batch 8 / batch 1 = "
          f"{e['generate_batch8']['tokens_per_s'] / e['generate_batch1']['tokens_per_s']:.1f}x")
    if "conversion_s" in e:
        print(f"RATIO bench_backends: embedded first-use conversion / cached load time = "
              f"{e['conversion_s'] / max(e['cached_load_s'], 1e-3):.0f}x")
    print(f"RATIO bench_backends: runner throughput concurrency 32 / concurrency 1 (stub, 50 ms answers) = "
          f"{r['concurrency32']['requests_per_s'] / r['concurrency1']['requests_per_s']:.1f}x")


if __name__ == "__main__":
    main()
