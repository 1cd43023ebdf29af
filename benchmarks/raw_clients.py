"""Raw async HTTP client loops for ``bench_orchestration.py`` (one client per process).

    python benchmarks/raw_clients.py CLIENT URL N CONCURRENCY

Sends ``N`` chat requests (the JSON body clinaudit sends: model, messages,
temperature, max_tokens, seed) to ``URL`` (an OpenAI-compatible base URL) with
``CONCURRENCY`` worker tasks pulling from a shared counter over one tuned
connection pool, parses each JSON answer and reads its text, and prints one
JSON line: ``{"client": .., "calls": .., "ok": .., "seconds": .., "calls_per_s": ..}``.
The time runs from the first request to the last answer (imports and the
client's construction excluded). A client whose package is not installed prints
``{"client": .., "missing": "<module>"}``.

Clients: ``httpx`` (httpx + httpcore), ``httpx2`` (httpx2 + httpcore2), ``aiohttp``,
``openai`` (the official client, ``AsyncOpenAI``; no retries), ``sequential``
(httpx2, one call at a time: a floor for the per-call cost).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any


def _body(i: int) -> dict[str, Any]:
    return {"model": "stub", "messages": [{"role": "user", "content": f"raw question {i}: what should I do?"}],
            "temperature": 0.0, "max_tokens": 256, "seed": 0}


async def _workers(n: int, conc: int, one) -> int:
    counter = iter(range(n))
    ok = 0

    async def worker() -> None:
        nonlocal ok
        for i in counter:
            text = await one(i)
            if text:
                ok += 1

    await asyncio.gather(*(worker() for _ in range(conc)))
    return ok


async def run_httpx(module: str, url: str, n: int, conc: int) -> tuple[int, float]:
    httpx = __import__(module)
    limits = httpx.Limits(max_connections=conc, max_keepalive_connections=conc)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(600.0, connect=30.0)) as client:
        endpoint = url + "/chat/completions"

        async def one(i: int) -> str:
            r = await client.post(endpoint, json=_body(i))
            return r.json()["choices"][0]["message"]["content"]

        await one(-1)  # warm connection
        t0 = time.perf_counter()
        ok = await _workers(n, conc, one)
        return ok, time.perf_counter() - t0


async def run_sequential(url: str, n: int, conc: int) -> tuple[int, float]:
    return await run_httpx("httpx2", url, n, 1)


async def run_aiohttp(url: str, n: int, conc: int) -> tuple[int, float]:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=conc, limit_per_host=conc, keepalive_timeout=60)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=600)) as session:
        endpoint = url + "/chat/completions"

        async def one(i: int) -> str:
            async with session.post(endpoint, json=_body(i)) as r:
                data = await r.json()
            return data["choices"][0]["message"]["content"]

        await one(-1)
        t0 = time.perf_counter()
        ok = await _workers(n, conc, one)
        return ok, time.perf_counter() - t0


async def run_openai(url: str, n: int, conc: int) -> tuple[int, float]:
    import openai

    client = openai.AsyncOpenAI(base_url=url, api_key="none", max_retries=0, timeout=600.0)
    try:
        async def one(i: int) -> str:
            b = _body(i)
            r = await client.chat.completions.create(model=b["model"], messages=b["messages"], temperature=0.0,
                                                     max_tokens=256, seed=0)
            return r.choices[0].message.content

        await one(-1)
        t0 = time.perf_counter()
        ok = await _workers(n, conc, one)
        return ok, time.perf_counter() - t0
    finally:
        await client.close()


RUNNERS = {
    "httpx": lambda url, n, c: run_httpx("httpx", url, n, c),
    "httpx2": lambda url, n, c: run_httpx("httpx2", url, n, c),
    "aiohttp": run_aiohttp,
    "openai": run_openai,
    "sequential": run_sequential,
}
MODULES = {"httpx": "httpx", "httpx2": "httpx2", "aiohttp": "aiohttp", "openai": "openai", "sequential": "httpx2"}


def main() -> None:
    client, url, n, conc = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    try:
        __import__(MODULES[client])
    except ImportError:
        print(json.dumps({"client": client, "missing": MODULES[client]}))
        return
    if client == "sequential":
        n = max(1, n // 4)
    ok, dt = asyncio.run(RUNNERS[client](url, n, conc))
    print(json.dumps({"client": client, "calls": n, "ok": ok, "seconds": round(dt, 3),
                      "calls_per_s": round(n / dt, 1)}))


if __name__ == "__main__":
    main()
