"""Executors without Ray (fast): the runner's dispatch hook, sharding by case_id, the ``--executor``
options and their errors, and that no API key is ever part of what a Ray worker receives."""

from __future__ import annotations

import hashlib
import json
import pickle
import sys
from pathlib import Path

import pytest

from clinaudit.cache import ResponseCache
from clinaudit.errors import InputError, SpecError
from clinaudit.executors import Executor, LocalExecutor, chunked, make_executor, shard_of, split_by_shard
from clinaudit.executors.ray_executor import backend_recipes
from clinaudit.models.mock import MockBackend
from clinaudit.records import ModelRequest
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.spec import parse_spec_dict

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_shard_of_is_the_documented_stable_hash():
    # independent recomputation: sha256 of the canonical JSON list, first 12 hex digits, modulo shards
    for case, shards in [("c1", 3), ("case:42", 7), ("", 1), ("x" * 100, 16)]:
        payload = json.dumps(["clinaudit-shard-v1", case], separators=(",", ":"), ensure_ascii=False)
        assert shard_of(case, shards) == int(hashlib.sha256(payload.encode()).hexdigest()[:12], 16) % shards


def test_split_by_shard_keeps_each_case_together_and_every_call_once():
    reqs = {f"k{i:03d}": ModelRequest.chat("mock", f"q{i}", meta={"case_id": f"c{i % 7}"}) for i in range(60)}
    reqs["lone"] = ModelRequest.chat("mock", "no case")  # no case_id: placed by its own key
    shards = split_by_shard(reqs, 3)
    assert len(shards) == 3
    assert sorted(k for s in shards for k in s) == sorted(reqs)
    for case in {r.meta.get("case_id") for r in reqs.values()} - {None}:
        holding = [i for i, s in enumerate(shards) if any(reqs[k].meta.get("case_id") == case for k in s)]
        assert len(holding) == 1
    assert split_by_shard(reqs, 3) == shards  # deterministic
    assert list(chunked(["a", "b", "c", "d", "e"], 2)) == [["a", "b"], ["c", "d"], ["e"]]


class _ListExecutor(Executor):
    """Answers with a mock in this process, recording what the runner handed over."""

    name = "list"

    def __init__(self):
        self.handed: list[list[str]] = []
        self.mock = MockBackend("mock:x", rules=[{"match": ".", "response": "ans {seed}"}])

    async def dispatch(self, runner, requests, bar):
        self.handed.append(sorted(requests))
        resps = self.mock.generate(list(requests.values()))
        return {k: runner.store(k, q, r) for (k, q), r in zip(requests.items(), resps)}


def test_the_runner_hands_an_executor_only_uncached_distinct_calls_and_caches_what_it_stores(tmp_path):
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False),
                    backend_options={"mock:x": {"rules": [{"match": ".", "response": "ans {seed}"}]}})
    reqs = [ModelRequest.chat("mock:x", f"q{i}", seed=i) for i in range(4)]
    runner.generate(reqs[:2])  # stored by the local path
    ex = _ListExecutor()
    ex.attach(runner)
    resps = runner.generate(reqs + [reqs[3]])  # a duplicate request is sent once
    assert ex.handed == [sorted(runner.request_key(q) for q in reqs[2:])]
    assert [r.text for r in resps] == ["ans 0", "ans 1", "ans 2", "ans 3", "ans 3"]
    assert [r.cached for r in resps] == [True, True, False, False, False]
    assert runner.usage["mock:x"].calls == 4 and runner.usage["mock:x"].cache_hits == 2
    assert set(runner.cache.get_many([runner.request_key(q) for q in reqs])) == {runner.request_key(q) for q in reqs}
    LocalExecutor().attach(runner)
    assert runner.executor is None


def test_make_executor_errors_name_the_fix(monkeypatch):
    assert isinstance(make_executor("local"), LocalExecutor)
    with pytest.raises(InputError, match="unknown executor 'dask'"):
        make_executor("dask")
    with pytest.raises(InputError, match="only apply to the processes and ray executors"):
        make_executor("local", shards=2)
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if it were not installed
    with pytest.raises(InputError, match=r"pip install 'clinaudit\[ray\]'"):
        make_executor("ray")


def test_cli_executor_without_ray_is_a_clear_error(monkeypatch, tmp_path, capsys):
    from clinaudit.cli.main import main

    monkeypatch.setitem(sys.modules, "ray", None)
    code = main(["run", str(EXAMPLES / "note_generation-mock.yaml"), "--out", str(tmp_path / "r"), "--no-progress",
                 "--executor", "ray"])
    assert code == 2
    assert "clinaudit[ray]" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["run", str(EXAMPLES / "note_generation-mock.yaml"), "--out", str(tmp_path / "r"), "--shards", "0"])
    assert exc.value.code == 2


def test_spec_runner_executor_settings_are_validated():
    base = {"audit": "note_generation", "models": {"target": "mock:notes"}}
    spec, _ = parse_spec_dict({**base, "runner": {"executor": "ray", "shards": 3, "ray_address": "auto"}})
    assert (spec.runner.executor, spec.runner.shards, spec.runner.ray_address) == ("ray", 3, "auto")
    with pytest.raises(SpecError, match=r"field 'runner\.shards'"):
        parse_spec_dict({**base, "runner": {"executor": "ray", "shards": 0}}, source="s.yaml")
    with pytest.raises(SpecError, match=r"field 'runner\.executor'"):
        parse_spec_dict({**base, "runner": {"executor": "dask"}}, source="s.yaml")


def test_no_api_key_in_what_a_ray_worker_receives(monkeypatch):
    from clinaudit.models.openai_compat import OpenAICompatBackend

    secret = "sk-live-DO-NOT-SHIP-4f9a8b7c6d5e"
    monkeypatch.setenv("CLINAUDIT_TEST_KEY", secret)
    options = {"openai:a": {"base_url": "http://127.0.0.1:9/v1", "api_key_env": "CLINAUDIT_TEST_KEY"}}
    runner = Runner(config=RunnerConfig(progress=False), backend_options=options)
    runner.backend("openai:a")._headers()  # the driver has used the key
    runner.add_backend(OpenAICompatBackend("openai:b", base_url="http://127.0.0.1:9/v1",
                                           api_key_env="CLINAUDIT_TEST_KEY"))
    recipes = backend_recipes(runner, {"openai:a", "openai:b"})
    assert recipes["openai:a"] == ("options", options["openai:a"], "openai:a@http://127.0.0.1:9/v1")
    assert recipes["openai:b"][0] == "instance"  # given to the runner directly: the instance travels
    request = ModelRequest.chat("openai:a", "hello", meta={"case_id": "c1"})
    payload = pickle.dumps((recipes, [request]))
    assert secret.encode() not in payload and secret[-8:].encode() not in payload
    assert b"CLINAUDIT_TEST_KEY" in payload  # the variable's name travels; each worker reads its own env
