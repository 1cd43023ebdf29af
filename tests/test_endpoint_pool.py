"""Issue 15 item 2: a pool of OpenAI-compatible endpoints serving one model (``--base-url URL1,URL2``).

Loopback stubs (tests/stub_openai_server.py) count the answers they send per prompt; a killed stub
refuses new connections and drops the requests it was handling without answering them.
"""

from __future__ import annotations

import asyncio
import copy
import json
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

from clinaudit.cache import ResponseCache
from clinaudit.cli.main import main
from clinaudit.errors import BackendError, SpecError
from clinaudit.models.base import RetryableError, get_backend
from clinaudit.models.openai_compat import OpenAICompatBackend
from clinaudit.models.pool import OpenAIPoolBackend, openai_backend
from clinaudit.records import ModelRequest, ModelResponse
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.spec import parse_spec_dict

from stub_openai_server import StubOpenAI, closed_base_url, stub_answer

KEY = "sk-pool-test-secret-9a8b7c6d5e4f"
MODEL = "openai:pool-model"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _requests(n: int, tag: str = "q") -> list[ModelRequest]:
    return [ModelRequest.chat(MODEL, f"{tag} {i}", seed=i, max_tokens=8) for i in range(n)]


def _runner(tmp_path: Path, urls: list[str], concurrency: int = 8, **opts) -> Runner:
    cfg = RunnerConfig(concurrency=concurrency, progress=False, backoff_base_s=0.01, backoff_max_s=0.05,
                       max_retries=4, timeout_s=20)
    return Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=cfg,
                  backend_options={MODEL: {"base_url": urls, "api_key_env": "POOL_TEST_KEY", **opts}})


@pytest.fixture()
def keyed(monkeypatch):
    monkeypatch.setenv("POOL_TEST_KEY", KEY)


# ---- construction, identity, options ---------------------------------------------------------------


def test_a_list_or_comma_separated_base_url_makes_a_pool_and_one_url_stays_a_single_endpoint(monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://e:1/v1,http://f:2/v1")
    assert openai_backend(MODEL).base_urls == ["http://e:1/v1", "http://f:2/v1"]
    monkeypatch.delenv("OPENAI_BASE_URL")
    single = openai_backend(MODEL, base_url="http://a:1/v1")
    assert type(single) is OpenAICompatBackend
    for given in ("http://a:1/v1,http://b:2/v1/", ["http://a:1/v1", " http://b:2/v1 "]):
        pool = openai_backend(MODEL, base_url=given)
        assert isinstance(pool, OpenAIPoolBackend)
        assert pool.base_urls == ["http://a:1/v1", "http://b:2/v1"]
    # the registry's `openai` backend is the same factory
    assert isinstance(get_backend(MODEL, reuse=False, base_url="http://a:1/v1,http://b:2/v1"), OpenAIPoolBackend)
    with pytest.raises(BackendError, match="more than once"):
        openai_backend(MODEL, base_url="http://a:1/v1,http://a:1/v1/")
    with pytest.raises(BackendError, match="base_url must start with http"):
        openai_backend(MODEL, base_url="http://a:1/v1,ftp://b/v1")
    with pytest.raises(BackendError, match="unknown option 'endpoint_concurency'"):
        openai_backend(MODEL, base_url="http://a:1/v1,http://b:2/v1", endpoint_concurency=2)


def test_pool_request_keys_equal_the_single_endpoint_keys_and_describe_lists_endpoints_without_key(keyed):
    single = OpenAICompatBackend(MODEL, base_url="http://a:1/v1", api_key_env="POOL_TEST_KEY")
    pool = openai_backend(MODEL, base_url="http://a:1/v1,http://b:2/v1,http://c:3/v1", api_key_env="POOL_TEST_KEY")
    grown = openai_backend(MODEL, base_url="http://a:1/v1,http://d:4/v1", api_key_env="POOL_TEST_KEY")
    req = _requests(1)[0]
    assert pool.identity() == single.identity() == grown.identity() == "openai:pool-model@http://a:1/v1"
    assert req.key(pool.identity()) == req.key(single.identity())
    d = pool.describe()
    assert d["endpoints"] == d["base_url"] == ["http://a:1/v1", "http://b:2/v1", "http://c:3/v1"]
    assert d["api_key_env"] == "POOL_TEST_KEY" and KEY not in json.dumps(d)
    assert pool.redact(f"echo {KEY} and {KEY[3:15]}") == "echo *** and ***"


def test_spec_accepts_a_list_of_base_urls_and_names_a_bad_one():
    spec = yaml.safe_load((EXAMPLES / "treatment_shift-openai.yaml").read_text(encoding="utf-8"))
    model = next(iter(spec["backends"]))
    ok = copy.deepcopy(spec)
    ok["backends"][model].update(base_url=["http://h1:8000/v1", "http://h2:8000/v1"], endpoint_concurrency=4)
    parsed, _ = parse_spec_dict(ok, "audit.yaml")
    assert parsed.backends[model]["base_url"] == ["http://h1:8000/v1", "http://h2:8000/v1"]
    bad = copy.deepcopy(spec)
    bad["backends"][model]["base_url"] = ["http://h1:8000/v1", "h2:8000/v1"]
    with pytest.raises(SpecError, match=rf"audit.yaml: field 'backends.{model}.base_url': .*'h2:8000/v1'"):
        parse_spec_dict(bad, "audit.yaml")
    bad["backends"][model]["base_url"] = "http://h1:8000/v1,http://h1:8000/v1/"
    with pytest.raises(SpecError, match="more than once"):
        parse_spec_dict(bad, "audit.yaml")


# ---- balancing ------------------------------------------------------------------------------------


def test_idle_pool_takes_turns_and_endpoint_concurrency_caps_calls_in_flight(tmp_path, keyed):
    with StubOpenAI(api_key=KEY, delay_s=0.03) as a, StubOpenAI(api_key=KEY, delay_s=0.03) as b:
        # one call at a time: least outstanding ties, so the endpoint sent fewer calls goes next
        runner = _runner(tmp_path / "seq", [a.base_url, b.base_url], concurrency=1)
        runner.generate(_requests(6, "seq"))
        assert (a.total, b.total) == (3, 3)
        # 16 calls at once, at most 2 in flight per endpoint
        runner = _runner(tmp_path / "cap", [a.base_url, b.base_url], concurrency=16, endpoint_concurrency=2)
        out = runner.generate(_requests(24, "cap"))
        assert all(r.error is None for r in out)
        assert a.max_in_flight <= 2 and b.max_in_flight <= 2
        assert a.total + b.total == 6 + 24


def test_least_outstanding_sends_more_calls_to_the_faster_endpoint(tmp_path, keyed):
    # Round robin would split 50/50. Least outstanding keeps about half of the 8 calls in flight on
    # each endpoint: the slow one (1 s per answer) holds its few while the fast one (no delay) answers
    # and takes every new call, so the slow one answers about 4-8 of the 40.
    with StubOpenAI(api_key=KEY, delay_s=1.0) as slow, StubOpenAI(api_key=KEY, delay_s=0.0) as fast:
        runner = _runner(tmp_path, [slow.base_url, fast.base_url], concurrency=8)
        out = runner.generate(_requests(40))
    assert all(r.error is None for r in out) and slow.total + fast.total == 40
    assert 1 <= slow.total <= 12, (slow.total, fast.total)


# ---- failures ---------------------------------------------------------------------------------------


def test_endpoint_killed_mid_run_every_answer_stored_exactly_once(tmp_path, keyed):
    n = 80
    with StubOpenAI(api_key=KEY, delay_s=0.03) as a, StubOpenAI(api_key=KEY, delay_s=0.03) as b:
        a_url, b_url = a.base_url, b.base_url
        runner = _runner(tmp_path, [a_url, b_url], concurrency=8)
        reqs = _requests(n)

        def killer() -> None:
            deadline = time.monotonic() + 20
            while b.total < 12 and time.monotonic() < deadline:
                time.sleep(0.005)
            b.kill()

        t = threading.Thread(target=killer)
        t.start()
        out = runner.generate(reqs)
        t.join()
        pool = runner.backend(MODEL)
        stats = {s["url"]: s for s in pool.stats()}
    assert b.dead and b.total >= 12 and 0 < sum(b.ok_by_prompt.values()) < n
    assert all(r.error is None for r in out)
    prompts = [r.messages[-1].content for r in reqs]
    # every prompt answered exactly once over both stubs (a call dropped by the dying one went to the other)
    assert {p: a.ok_by_prompt[p] + b.ok_by_prompt[p] for p in prompts} == {p: 1 for p in prompts}
    assert [r.text for r in out] == [stub_answer("pool-model", p, i) for i, p in enumerate(prompts)]
    # stored once each, under the single-endpoint keys
    single = OpenAICompatBackend(MODEL, base_url=a_url)
    keys = [r.key(single.identity()) for r in reqs]
    assert [r.request_key for r in out] == keys
    cache = ResponseCache(tmp_path / "cache.sqlite")
    assert len(cache) == n and set(cache.get_many(keys)) == set(keys)
    assert stats[b_url]["out"] and not stats[a_url]["out"]
    assert runner.usage[MODEL].calls == n and runner.usage[MODEL].failures == 0
    # a re-run (a new second endpoint) finds every answer under the same keys and makes no call
    with StubOpenAI(api_key=KEY) as c:
        again = _runner(tmp_path, [a_url, c.base_url])
        again.generate(reqs)
        assert again.usage[MODEL].cache_hits == n and again.usage[MODEL].calls == 0 and c.total == 0


class _Fake:
    """A stand-in endpoint backend: fails with ``error`` (and its HTTP ``status``) while ``failing``; counts
    calls."""

    def __init__(self, name: str, error: str = "HTTP 500 from x: boom", status: int | None = 500):
        self.name, self.error, self.status, self.failing, self.calls = name, error, status, False, 0

    async def agenerate(self, request: ModelRequest) -> ModelResponse:
        self.calls += 1
        await asyncio.sleep(0)
        if self.failing:
            raise RetryableError(self.error, status=self.status)
        return ModelResponse(request_key="", model=request.model, text=self.name)

    def redact(self, text: str) -> str:
        return text


def _fake_pool(**opts) -> tuple[OpenAIPoolBackend, _Fake, _Fake]:
    pool = OpenAIPoolBackend(MODEL, base_url=["http://a:1/v1", "http://b:2/v1"], **opts)
    fa, fb = _Fake("a"), _Fake("b")
    pool.endpoints[0].backend, pool.endpoints[1].backend = fa, fb
    return pool, fa, fb


def test_failing_endpoint_is_taken_out_after_a_streak_then_probed_back_after_the_cooldown():
    pool, fa, fb = _fake_pool(endpoint_max_failures=2, endpoint_cooldown_s=0.2)
    req = _requests(1)[0]

    async def scenario() -> list[str]:
        texts = []
        fb.failing = True
        for _ in range(8):  # b fails twice (each call then goes to a), then is out: a answers alone
            texts.append((await pool.agenerate(req)).text)
        assert fb.calls == 2 and pool.stats()[1]["out"]
        fb.failing = False
        await asyncio.sleep(0.25)  # cool-down over: the next call that lands on b is its probe
        for _ in range(4):
            texts.append((await pool.agenerate(req)).text)
        return texts

    texts = asyncio.run(scenario())
    assert texts[:8] == ["a"] * 8
    assert "b" in texts[8:] and not pool.stats()[1]["out"]


def test_a_failed_probe_doubles_the_cooldown_and_all_endpoints_out_raises_retryable():
    pool, fa, fb = _fake_pool(endpoint_max_failures=1, endpoint_cooldown_s=5.0)
    req = _requests(1)[0]
    fa.failing = fb.failing = True

    async def scenario() -> None:
        with pytest.raises(RetryableError, match=r"2 endpoints, 2 taken out, 2 failed this call"):
            await pool.agenerate(req)
        assert fa.calls == fb.calls == 1
        with pytest.raises(RetryableError, match="every endpoint is taken out") as err:  # both cooling down
            await pool.agenerate(req)
        assert err.value.retry_after is not None and 4.0 < err.value.retry_after <= 5.0
        assert fa.calls == fb.calls == 1  # nothing sent while both are out
        pool.endpoints[0].down_until = 0.0  # a's cool-down is over; its probe fails again
        with pytest.raises(RetryableError):
            await pool.agenerate(req)
        assert pool.endpoints[0].cooldown == 10.0

    asyncio.run(scenario())


def test_http_429_goes_to_another_endpoint_without_taking_the_first_out():
    pool, fa, fb = _fake_pool(endpoint_max_failures=1)
    fa.failing, fa.error, fa.status = True, "HTTP 429 from x: slow down", 429
    assert asyncio.run(pool.agenerate(_requests(1)[0])).text == "b"
    assert not pool.stats()[0]["out"]


def test_an_endpoint_that_refuses_connections_is_taken_out_at_its_first_failure(tmp_path, keyed):
    # A closed port refuses the connection: the pool takes that endpoint out at once (a timeout or a 5xx
    # needs endpoint_max_failures in a row). Before, a refusal was recognised by httpx's "ConnectError" in
    # the message; aiohttp names it ClientConnectorError, so a refused endpoint stayed in for 3 failures.
    closed = closed_base_url()
    with StubOpenAI(api_key=KEY) as live:
        runner = _runner(tmp_path, [closed, live.base_url], concurrency=1, endpoint_max_failures=3)
        out = runner.generate(_requests(6))
        stats = {s["url"]: s for s in runner.backend(MODEL).stats()}
    assert all(r.error is None for r in out) and live.total == 6
    assert stats[closed]["failed"] == 1 and stats[closed]["out"]
    assert runner.usage[MODEL].retries == 0  # the call went to the other endpoint within the same attempt


def test_a_refused_connection_is_marked_unreachable_and_an_http_error_carries_its_status(keyed):
    closed = closed_base_url()
    with pytest.raises(RetryableError) as refused:
        asyncio.run(OpenAICompatBackend(MODEL, base_url=closed).agenerate(_requests(1)[0]))
    assert refused.value.unreachable and refused.value.status is None
    with StubOpenAI(api_key=KEY, fault_rate=1.0, fault_kinds=("500",)) as failing:
        b = OpenAICompatBackend(MODEL, base_url=failing.base_url, api_key_env="POOL_TEST_KEY")
        with pytest.raises(RetryableError) as http:
            asyncio.run(b.agenerate(_requests(1)[0]))
    assert http.value.status == 500 and not http.value.unreachable


# ---- the CLI --------------------------------------------------------------------------------------


def test_generate_with_two_base_urls_answers_every_row_and_lists_both_endpoints(tmp_path, keyed):
    inp = tmp_path / "in.csv"
    pd.DataFrame({"pid": [f"p{i}" for i in range(12)], "q": [f"question {i}" for i in range(12)]}).to_csv(inp, index=False)
    with StubOpenAI(api_key=KEY) as a, StubOpenAI(api_key=KEY) as b:
        urls = f"{a.base_url},{b.base_url}"
        rc = main(["generate", "--no-progress", "--input", str(inp), "--id-column", "pid", "--text-column", "q",
                   "--model", MODEL, "--base-url", urls, "--endpoint-concurrency", "2",
                   "--api-key-env", "POOL_TEST_KEY", "--out", str(tmp_path / "run")])
        assert rc == 0 and a.total >= 1 and b.total >= 1 and a.total + b.total == 12
        assert max(a.max_in_flight, b.max_in_flight) <= 2
    df = pd.read_csv(tmp_path / "run" / "responses.csv")
    assert df["error"].isna().all() and len(df) == 12
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    assert [m["endpoints"] for m in manifest["models"]] == [urls.split(",")]
    for f in (tmp_path / "run").rglob("*"):
        if f.is_file():
            assert KEY.encode() not in f.read_bytes(), f
