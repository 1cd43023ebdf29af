"""Benchmark the executors: local vs ray, and (where this version has it) an endpoint pool.

    python benchmarks/bench_executors.py            # 2,000 remote calls, 800 local-model calls
    python benchmarks/bench_executors.py --quick    # 400 and 160

Two workloads, each run every way in the same process, one after the other:

* **remote endpoint** — chat calls to loopback stubs (``tests/stub_openai_server.py`` in their own
  processes) that answer after 50 ms, total concurrency 32:
  the local executor (one runner, 32 in flight); the ray executor with 2 shards (16 in flight per
  actor, the same 32 in total); and an endpoint pool of 4 stubs behind one backend (8 per stub)
  when the openai backend of this version accepts a list of base URLs.
* **local model** — a stand-in for a GPU-bound local model: a local backend that takes 10 ms per
  request per batch of 8 (the sleep releases the GIL, as a GPU kernel would); the local executor
  runs its batches one after the other in a thread, the ray executor one actor per "device slot"
  (4 shards).

Ray is started once (``num_cpus=4``, no dashboard) and its start-up and actor start-up are timed
apart, not in the ratios: an audit pays them once. Prints the measurements as JSON, then
``RATIO`` lines (same machine, same run). Absolute numbers depend heavily on the machine and on
other jobs running; never gate on them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

LATENCY_S = 0.05
CONCURRENCY = 32
LOCAL_S_PER_REQUEST = 0.01


def _timed(runner: Any, reqs: list) -> dict[str, Any]:
    t0 = time.perf_counter()
    resps = runner.generate(reqs)
    dt = time.perf_counter() - t0
    return {"ok": sum(r.ok for r in resps), "seconds": round(dt, 2), "calls_per_s": round(len(reqs) / dt, 1)}


def _slow_local_backend() -> Any:
    from clinaudit.models.base import Backend
    from clinaudit.records import ModelResponse

    class SlowLocal(Backend):
        """A local model stand-in: ``LOCAL_S_PER_REQUEST`` seconds per request, batches of 8."""

        name = "slow-local"
        is_remote = False
        batch_size = 8

        def generate(self, requests):
            time.sleep(LOCAL_S_PER_REQUEST * len(requests))
            return [ModelResponse(request_key="", model=self.spec, text=f"answer to {r.prompt_text()[-24:]}")
                    for r in requests]

    return SlowLocal("slow-local:sim")


def bench(n_remote: int, n_local: int) -> dict[str, Any]:
    import ray

    from stub_openai_server import StubProcess

    from clinaudit.executors.ray_executor import RayExecutor
    from clinaudit.records import ModelRequest
    from clinaudit.runner import Runner, RunnerConfig

    out: dict[str, Any] = {"remote_calls": n_remote, "local_calls": n_local, "stub_latency_s": LATENCY_S,
                           "total_concurrency": CONCURRENCY, "local_s_per_request": LOCAL_S_PER_REQUEST}
    t0 = time.perf_counter()
    ray.init(num_cpus=4, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    out["ray_init_s"] = round(time.perf_counter() - t0, 2)

    def reqs(model: str, tag: str, n: int) -> list:
        return [ModelRequest.chat(model, f"question {i} ({tag})", meta={"case_id": f"c{i // 4}"}) for i in range(n)]

    stubs = [StubProcess(delay_s=LATENCY_S, keep_bodies=False).start() for _ in range(4)]
    try:
        cfg = RunnerConfig(concurrency=CONCURRENCY, progress=False, max_retries=2)
        single = {"openai:stub": {"base_url": stubs[0].base_url, "api_key_env": "CLINAUDIT_BENCH_NO_KEY"}}
        # warm-up of the stub and the HTTP client (not timed)
        Runner(config=cfg, backend_options=single).generate(reqs("openai:stub", "warm", 32))
        out["remote_local"] = _timed(Runner(config=cfg, backend_options=single), reqs("openai:stub", "local", n_remote))

        runner = Runner(config=cfg, backend_options=single)
        ex = RayExecutor(shards=2).attach(runner).executor
        try:
            t0 = time.perf_counter()
            runner.generate(reqs("openai:stub", "ray-warm", 32))  # actor start-up (timed apart)
            out["ray_actor_startup_s"] = round(time.perf_counter() - t0, 2)
            out["remote_ray_2_shards"] = _timed(runner, reqs("openai:stub", "ray", n_remote))
        finally:
            ex.close()

        pool = {"openai:stub": {"base_url": [s.base_url for s in stubs], "api_key_env": "CLINAUDIT_BENCH_NO_KEY"}}
        try:
            Runner(config=cfg, backend_options=pool).generate(reqs("openai:stub", "pool-warm", 32))
        except Exception as exc:  # noqa: BLE001 - this version has no endpoint pools
            out["remote_pool_4"] = f"not available: {type(exc).__name__}: {str(exc)[:120]}"
        else:
            out["remote_pool_4"] = _timed(Runner(config=cfg, backend_options=pool), reqs("openai:stub", "pool", n_remote))
    finally:
        for s in stubs:
            s.stop()

    local = Runner(config=RunnerConfig(progress=False))
    local.add_backend(_slow_local_backend())
    out["local_model_local"] = _timed(local, reqs("slow-local:sim", "local", n_local))
    runner = Runner(config=RunnerConfig(progress=False))
    runner.add_backend(_slow_local_backend())
    ex = RayExecutor(shards=4, chunk_size=8).attach(runner).executor
    try:
        runner.generate(reqs("slow-local:sim", "warm", 32))
        out["local_model_ray_4_shards"] = _timed(runner, reqs("slow-local:sim", "ray", n_local))
    finally:
        ex.close()
    ray.shutdown()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer calls")
    args = ap.parse_args()
    try:
        import ray  # noqa: F401
    except ImportError:
        print("ray is not installed (pip install 'clinaudit[ray]'); nothing to compare")
        raise SystemExit(1) from None
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, load {load}, python {platform.python_version()}")
    result = bench(400 if args.quick else 2000, 160 if args.quick else 800)
    print(json.dumps(result, indent=2))
    loc, ray2 = result["remote_local"], result["remote_ray_2_shards"]
    print(f"RATIO bench_executors: remote endpoint (50 ms answers, 32 in flight in total) throughput "
          f"ray 2 shards / local = {ray2['calls_per_s'] / loc['calls_per_s']:.2f}")
    pool = result["remote_pool_4"]
    if isinstance(pool, dict):
        print(f"RATIO bench_executors: remote endpoint throughput pool of 4 stubs / one stub (32 in flight) = "
              f"{pool['calls_per_s'] / loc['calls_per_s']:.2f}")
    lm, lr = result["local_model_local"], result["local_model_ray_4_shards"]
    print(f"RATIO bench_executors: local-model stand-in (10 ms per request) throughput ray 4 shards / local = "
          f"{lr['calls_per_s'] / lm['calls_per_s']:.2f}")


if __name__ == "__main__":
    main()
