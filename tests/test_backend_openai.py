"""OpenAI-compatible backend against the loopback stub server (no network)."""

from __future__ import annotations

import asyncio
import email.utils
import time

import pytest

from clinaudit.errors import BackendError
from clinaudit.models.base import RetryableError, get_backend
from clinaudit.models.openai_compat import OpenAICompatBackend, parse_retry_after
from clinaudit.records import ModelRequest

from stub_openai_server import StubOpenAI, closed_base_url, stub_answer

KEY = "sk-test-very-secret-0123456789"


@pytest.fixture()
def stub():
    with StubOpenAI(api_key=KEY) as s:
        yield s


@pytest.fixture()
def keyed(monkeypatch):
    monkeypatch.setenv("CLINAUDIT_TEST_KEY", KEY)
    return "CLINAUDIT_TEST_KEY"


def _call(backend: OpenAICompatBackend, req: ModelRequest):
    return asyncio.run(backend.agenerate(req))


# ---- request building ---------------------------------------------------------------------


def test_chat_payload_maps_request_fields_and_drops_internal_extra():
    b = OpenAICompatBackend("openai:gpt-x", base_url="http://h/v1")
    req = ModelRequest.chat("openai:gpt-x", "hi", system="be brief", temperature=0.7, max_tokens=12, seed=42,
                            top_p=0.9, stop=["END"], extra={"attempt": 3, "logprobs": True})
    path, body = b.build_payload(req)
    assert path == "/chat/completions"
    assert body == {
        "model": "gpt-x",
        "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}],
        "temperature": 0.7,
        "max_tokens": 12,
        "seed": 42,
        "top_p": 0.9,
        "stop": ["END"],
        "logprobs": True,
    }


def test_payload_omits_unset_optional_fields_and_sends_n():
    b = OpenAICompatBackend("openai:m", base_url="http://h/v1")
    _, body = b.build_payload(ModelRequest.chat("openai:m", "q", n=3))
    assert body == {"model": "m", "messages": [{"role": "user", "content": "q"}], "temperature": 0.0,
                    "max_tokens": 256, "n": 3}


def test_completion_mode_and_completion_requests_use_prompt():
    b = OpenAICompatBackend("openai:m", base_url="http://h/v1", completion=True)
    path, body = b.build_payload(ModelRequest.chat("openai:m", "question", system="sys"))
    assert path == "/completions" and body["prompt"] == "sys\n\nquestion" and "messages" not in body
    plain = OpenAICompatBackend("openai:m", base_url="http://h/v1")
    path, body = plain.build_payload(ModelRequest(model="openai:m", kind="completion", prompt="Once upon"))
    assert path == "/completions" and body["prompt"] == "Once upon"


def test_scoring_requests_are_rejected():
    b = OpenAICompatBackend("openai:m", base_url="http://h/v1")
    with pytest.raises(BackendError, match="only generates text"):
        b.build_payload(ModelRequest(model="openai:m", kind="loglik", prompt="x"))


def test_spec_and_option_validation():
    with pytest.raises(BackendError, match="needs a model name"):
        OpenAICompatBackend("openai:")
    with pytest.raises(BackendError, match="http"):
        OpenAICompatBackend("openai:m", base_url="localhost:8000")
    # Passing the key itself instead of a variable name is refused (and not echoed in full).
    with pytest.raises(BackendError, match="NAME of an environment variable"):
        OpenAICompatBackend("openai:m", api_key_env="sk-live-abc")


def test_identity_and_describe_hold_no_secret(keyed, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://example.test/v1/")
    b = OpenAICompatBackend("openai:gpt-4o-mini", api_key_env=keyed, headers={"OpenAI-Organization": "org-1"})
    assert b.identity() == "openai:gpt-4o-mini@http://example.test/v1"
    assert OpenAICompatBackend("openai:m", base_url="http://x/v1", completion=True).identity() == "openai:m@http://x/v1#completion"
    desc = b.describe()
    assert desc["api_key_env"] == keyed and desc["extra_headers"] == ["OpenAI-Organization"]
    assert KEY not in repr(desc) and KEY not in b.identity()


def test_registry_builds_the_backend():
    b = get_backend("openai:m", reuse=False, base_url="http://127.0.0.1:9/v1")
    assert isinstance(b, OpenAICompatBackend) and b.is_remote


@pytest.mark.parametrize(
    "headers, expected",
    [
        ({"retry-after": "2"}, 2.0),
        ({"retry-after": "0.25"}, 0.25),
        ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5),
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
)
def test_parse_retry_after(headers, expected):
    assert parse_retry_after(headers) == expected


def test_parse_retry_after_http_date():
    when = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= parse_retry_after({"retry-after": when}) <= 31


# ---- against the stub ------------------------------------------------------------------------


def test_chat_call_returns_parsed_answer_and_sends_key(stub, keyed):
    b = OpenAICompatBackend("openai:stub-model", base_url=stub.base_url, api_key_env=keyed)
    resp = _call(b, ModelRequest.chat("openai:stub-model", "What is a fever?", seed=7, max_tokens=20))
    assert resp.text == stub_answer("stub-model", "What is a fever?", 7)
    assert resp.choices == [resp.text]
    assert resp.finish_reason == "stop"
    assert resp.prompt_tokens == 4 and resp.completion_tokens == len(resp.text.split())
    assert stub.headers[-1]["authorization"] == f"Bearer {KEY}"
    assert stub.bodies[-1]["seed"] == 7 and stub.bodies[-1]["max_tokens"] == 20


def test_n_choices_come_back_in_index_order(stub, keyed):
    b = OpenAICompatBackend("openai:m", base_url=stub.base_url, api_key_env=keyed)
    resp = _call(b, ModelRequest.chat("openai:m", "q", n=3, seed=1, temperature=0.7))
    assert resp.choices == [stub_answer("m", "q", 1, i) for i in range(3)]


def test_completion_endpoint(stub, keyed):
    b = OpenAICompatBackend("openai:m", base_url=stub.base_url, api_key_env=keyed, completion=True)
    resp = _call(b, ModelRequest(model="openai:m", kind="completion", prompt="The patient"))
    assert resp.text == stub_answer("m", "The patient", None)
    assert stub.paths == {"/v1/completions": 1}


def test_azure_style_key_header_and_api_version(stub, keyed):
    b = OpenAICompatBackend("openai:deploy", base_url=stub.base_url, api_key_env=keyed, azure_api_version="2024-06-01")
    _call(b, ModelRequest.chat("openai:deploy", "q"))
    assert stub.headers[-1]["api-key"] == KEY and "authorization" not in stub.headers[-1]
    assert stub.queries[-1] == "api-version=2024-06-01"


def test_wrong_key_is_not_retryable_and_never_echoed(monkeypatch):
    monkeypatch.setenv("WRONG_KEY_VAR", "sk-wrong-but-still-secret-42")
    with StubOpenAI(api_key=KEY, echo_key_in_errors=True) as s:
        b = OpenAICompatBackend("openai:m", base_url=s.base_url, api_key_env="WRONG_KEY_VAR")
        with pytest.raises(BackendError) as info:
            _call(b, ModelRequest.chat("openai:m", "q"))
    msg = str(info.value)
    assert "HTTP 401" in msg and "Incorrect API key provided: ***" in msg
    assert "sk-wrong-but-still-secret-42" not in msg


def test_missing_key_variable_is_named_in_401_hint(stub, monkeypatch):
    monkeypatch.delenv("NOT_SET_ANYWHERE", raising=False)
    b = OpenAICompatBackend("openai:m", base_url=stub.base_url, api_key_env="NOT_SET_ANYWHERE")
    with pytest.raises(BackendError, match="NOT_SET_ANYWHERE is not set"):
        _call(b, ModelRequest.chat("openai:m", "q"))
    assert "authorization" not in stub.headers[-1]


@pytest.mark.parametrize("kind, status", [("429", "HTTP 429"), ("500", "HTTP 500"), ("drop", "connection error")])
def test_transient_faults_raise_retryable(kind, status, keyed):
    with StubOpenAI(api_key=KEY, fault_rate=1.0, max_faults_per_prompt=1, fault_kinds=(kind,), retry_after=0.5) as s:
        b = OpenAICompatBackend("openai:m", base_url=s.base_url, api_key_env=keyed)
        with pytest.raises(RetryableError, match=status) as info:
            _call(b, ModelRequest.chat("openai:m", "q"))
        if kind == "429":
            assert info.value.retry_after == 0.5
        # The fault plan is one fault per prompt: the second try succeeds.
        assert _call(b, ModelRequest.chat("openai:m", "q")).text == stub_answer("m", "q", None)


def test_unknown_path_is_a_clear_non_retryable_error(stub, keyed):
    b = OpenAICompatBackend("openai:m", base_url=stub.base_url.replace("/v1", "/v2"), api_key_env=keyed)
    with pytest.raises(BackendError, match=r"HTTP 404 from http://127\.0\.0\.1:\d+/v2/chat/completions"):
        _call(b, ModelRequest.chat("openai:m", "q"))


def test_connection_refused_is_retryable():
    b = OpenAICompatBackend("openai:m", base_url=closed_base_url())
    with pytest.raises(RetryableError, match="connection error"):
        _call(b, ModelRequest.chat("openai:m", "q"))


def test_parse_response_tolerates_null_content_and_rejects_missing_choices():
    b = OpenAICompatBackend("openai:m", base_url="http://h/v1")
    req = ModelRequest.chat("openai:m", "q")
    resp = b.parse_response({"choices": [{"index": 0, "message": {"role": "assistant", "content": None},
                                          "finish_reason": "content_filter"}]}, req)
    assert resp.text == "" and resp.finish_reason == "content_filter" and resp.prompt_tokens == 0
    with pytest.raises(BackendError, match="no 'choices'"):
        b.parse_response({"error": "x"}, req)


def test_one_backend_works_across_successive_event_loops(stub, keyed):
    b = OpenAICompatBackend("openai:m", base_url=stub.base_url, api_key_env=keyed)
    texts = [_call(b, ModelRequest.chat("openai:m", f"q{i}")).text for i in range(3)]
    assert texts == [stub_answer("m", f"q{i}", None) for i in range(3)]
    prompt_only = ModelRequest(model="openai:m", prompt="last")  # a chat request given as a bare prompt
    assert _call(b, prompt_only).text == stub_answer("m", "last", None)


def test_a_request_has_its_own_timer_unless_a_run_limits_the_attempt_as_tightly(stub, keyed, monkeypatch):
    # http_timeout_s is a timer armed and cancelled on every call. Inside a runner worker (ATTEMPT_LIMIT_S
    # set) whose limit on each attempt is no longer than http_timeout_s the request goes without it; a
    # direct call, or a run with a looser limit, keeps it.
    import aiohttp

    from clinaudit.models.base import ATTEMPT_LIMIT_S
    from clinaudit.runner import Runner, RunnerConfig

    b = OpenAICompatBackend("openai:m", base_url=stub.base_url, api_key_env=keyed, http_timeout_s=60.0)
    used = []
    real_post = aiohttp.ClientSession.post

    def post(self, url, **kw):
        used.append(kw["timeout"])
        return real_post(self, url, **kw)

    monkeypatch.setattr(aiohttp.ClientSession, "post", post)

    async def call(limit):
        if limit is not None:
            ATTEMPT_LIMIT_S.set(limit)
        return await b.agenerate(ModelRequest.chat("openai:m", "q"))

    for limit in (None, 60.0, 30.0, 61.0):
        assert asyncio.run(call(limit)).text == stub_answer("m", "q", None)
    assert [t.total for t in used] == [60.0, None, None, 60.0]
    assert all(t.sock_connect == 30.0 for t in used)  # a new connection is always limited
    assert ATTEMPT_LIMIT_S.get() is None  # set only in those calls' own contexts
    for timeout_s, total in ((2.0, None), (90.0, 60.0)):  # the runner's workers set it: timeout_s
        used.clear()
        runner = Runner(config=RunnerConfig(timeout_s=timeout_s, progress=False),
                        backend_options={"openai:m": {"base_url": stub.base_url, "api_key_env": keyed,
                                                      "http_timeout_s": 60.0}})
        assert all(r.ok for r in runner.generate([ModelRequest.chat("openai:m", f"r{i}") for i in range(3)]))
        assert [t.total for t in used] == [total] * 3


def test_http_timeout_s_tighter_than_the_runners_limit_still_applies_in_a_run(keyed):
    # The first answer to the prompt is held back 6 s; http_timeout_s=0.5 gives up on it (runner.timeout_s
    # is 30 s) and the retry gets the answer: the backend's own limit was kept inside the run.
    from clinaudit.runner import Runner, RunnerConfig

    with StubOpenAI(api_key=KEY, fault_rate=1.0, max_faults_per_prompt=1, fault_kinds=("slow",), slow_s=6.0) as s:
        runner = Runner(config=RunnerConfig(timeout_s=30.0, backoff_base_s=0.01, progress=False),
                        backend_options={"openai:m": {"base_url": s.base_url, "api_key_env": keyed,
                                                      "http_timeout_s": 0.5}})
        t0 = time.monotonic()
        (resp,) = runner.generate([ModelRequest.chat("openai:m", "q")])
    assert resp.ok and resp.attempts == 2 and time.monotonic() - t0 < 6.0
