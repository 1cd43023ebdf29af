"""The optional in-process ``vllm:`` backend (clinaudit.models.vllm_backend).

vllm is not installed in CI and there is no GPU there: the tests check the lazy import and its
message, and drive the backend through a stand-in ``vllm`` module that records what it receives.
The real-GPU test skips unless CUDA and vllm are both present.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import types

import pytest

from clinaudit.errors import BackendError, SpecError
from clinaudit.models.base import clear_instances, get_backend
from clinaudit.models.options import validate_backend_options
from clinaudit.records import ModelRequest


@pytest.fixture(autouse=True)
def _fresh_instances():
    clear_instances()
    yield
    clear_instances()


def test_registering_and_constructing_never_imports_vllm():
    code = ("import sys, clinaudit.models.base\n"
            "from clinaudit.models.base import get_backend\n"
            "b = get_backend('vllm:some/model')\n"
            "print(type(b).__name__, 'vllm' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == ["VLLMBackend", "False"]


def test_missing_vllm_is_a_clear_error_on_first_generate(monkeypatch):
    monkeypatch.setitem(sys.modules, "vllm", None)  # `import vllm` raises ImportError, installed or not
    backend = get_backend("vllm:some/model")
    assert backend.is_remote is False and backend.describe()["enable_prefix_caching"] is True
    with pytest.raises(BackendError, match=r"pip install vllm \(needs a CUDA GPU\)"):
        backend.generate([ModelRequest.chat("vllm:some/model", "hi")])


def test_empty_model_is_an_error():
    with pytest.raises(BackendError, match="vllm:<path-or-name>"):
        get_backend("vllm:")


# ---- a stand-in vllm module ------------------------------------------------------------------
class _Tok:
    chat_template = "fake"

    def __init__(self, log):
        self.log = log

    def apply_chat_template(self, messages, tokenize, add_generation_prompt):
        self.log.append(("template", messages, tokenize, add_generation_prompt))
        return "".join(f"<{m['role']}>{m['content']}" for m in messages) + "<assistant>"

    def encode(self, text, add_special_tokens=True):
        return list(range(len(text.split())))


def _fake_vllm():
    log: list = []
    mod = types.ModuleType("vllm")

    class SamplingParams:
        def __init__(self, **kw):
            self.kw = kw

    class LLM:
        def __init__(self, **kw):
            log.append(("LLM", kw))

        def get_tokenizer(self):
            return _Tok(log)

        def generate(self, prompts, params, use_tqdm=True):
            log.append(("generate", list(prompts), [p.kw for p in params]))
            outs = []
            for i, (prompt, p) in enumerate(zip(prompts, params)):
                comps = [types.SimpleNamespace(text=f"A{i}.{j}:{prompt}", token_ids=[7] * (i + 1 + j),
                                               finish_reason="length" if i == 1 else "stop")
                         for j in range(p.kw["n"])]
                outs.append(types.SimpleNamespace(request_id=str(i), prompt_token_ids=[1] * len(prompt),
                                                  outputs=comps))
            return outs

    mod.LLM, mod.SamplingParams = LLM, SamplingParams
    return mod, log


def test_one_generate_call_with_per_request_sampling_params(monkeypatch):
    mod, log = _fake_vllm()
    monkeypatch.setitem(sys.modules, "vllm", mod)
    backend = get_backend("vllm:org/tiny", tensor_parallel_size=2, max_model_len=4096, dtype="bfloat16")
    reqs = [
        ModelRequest.chat("vllm:org/tiny", "case one", system="sys", temperature=0.7, max_tokens=32, seed=11),
        ModelRequest.chat("vllm:org/tiny", "case two", max_tokens=5, top_p=0.9, stop=["\n"]),
        ModelRequest(model="vllm:org/tiny", kind="completion", prompt="raw text", temperature=1.0, seed=3, n=2),
    ]
    out = backend.generate(reqs)
    assert backend.generate([]) == []
    assert log[0] == ("LLM", {"model": "org/tiny", "enable_prefix_caching": True, "tensor_parallel_size": 2,
                              "gpu_memory_utilization": 0.9, "dtype": "bfloat16", "trust_remote_code": False,
                              "max_model_len": 4096})
    templates = [e for e in log if e[0] == "template"]
    assert templates == [
        ("template", [{"role": "system", "content": "sys"}, {"role": "user", "content": "case one"}], False, True),
        ("template", [{"role": "user", "content": "case two"}], False, True),
    ]
    gens = [e for e in log if e[0] == "generate"]
    assert len(gens) == 1  # the whole batch in one call: vLLM batches and shares prefixes itself
    _, prompts, params = gens[0]
    assert prompts == ["<system>sys<user>case one<assistant>", "<user>case two<assistant>", "raw text"]
    assert params == [
        {"n": 1, "temperature": 0.7, "top_p": 1.0, "max_tokens": 32, "stop": None, "seed": 11},
        {"n": 1, "temperature": 0.0, "top_p": 0.9, "max_tokens": 5, "stop": ["\n"], "seed": 0},
        {"n": 2, "temperature": 1.0, "top_p": 1.0, "max_tokens": 256, "stop": None, "seed": 3},
    ]
    assert [r.text for r in out] == [f"A0.0:{prompts[0]}", f"A1.0:{prompts[1]}", "A2.0:raw text"]
    assert out[2].choices == ["A2.0:raw text", "A2.1:raw text"]
    assert [r.finish_reason for r in out] == ["stop", "length", "stop"]
    assert [r.prompt_tokens for r in out] == [len(p) for p in prompts]
    assert [r.completion_tokens for r in out] == [1, 2, 3 + 4]
    backend.generate(reqs[:1])
    assert sum(e[0] == "LLM" for e in log) == 1  # the engine is built once per backend instance
    assert backend.count_tokens("three words here") == 3


def test_non_generation_request_is_refused(monkeypatch):
    mod, _ = _fake_vllm()
    monkeypatch.setitem(sys.modules, "vllm", mod)
    with pytest.raises(BackendError, match="cannot answer a 'embed'"):
        get_backend("vllm:org/tiny").generate([ModelRequest(model="vllm:org/tiny", kind="embed", prompt="x")])


def test_cache_key_is_stable_and_names_the_model(tmp_path):
    req = ModelRequest.chat("vllm:org/tiny", "hello", seed=1)
    a = get_backend("vllm:org/tiny", reuse=False)
    b = get_backend("vllm:org/tiny", reuse=False, batch_size=16, gpu_memory_utilization=0.5)
    assert a.identity() == "vllm:org/tiny"
    assert a.request_key(req) == b.request_key(req) == req.key("vllm:org/tiny")  # engine sizing: same answers
    assert get_backend("vllm:org/tiny", reuse=False, dtype="float16").request_key(req) != a.request_key(req)
    assert a.request_key(req) != req.key("hf:org/tiny")
    (tmp_path / "config.json").write_text('{"a": 1}')
    ident = get_backend(f"vllm:{tmp_path}", reuse=False).identity()
    assert ident.startswith(f"vllm:{tmp_path.resolve()}#")
    (tmp_path / "config.json").write_text('{"a": 2}')  # other weights/config: other keys
    assert get_backend(f"vllm:{tmp_path}", reuse=False).identity() != ident


def test_spec_options_are_validated():
    ok = validate_backend_options({"vllm:m": {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.8,
                                              "max_model_len": 8192, "dtype": "bfloat16"}}, "s.yaml",
                                  used_models=["vllm:m"])
    assert ok["vllm:m"]["tensor_parallel_size"] == 2
    with pytest.raises(SpecError, match=r"backends.vllm:m.tensor_paralel_size.*did you mean 'tensor_parallel_size'"):
        validate_backend_options({"vllm:m": {"tensor_paralel_size": 2}}, "s.yaml", used_models=["vllm:m"])
    with pytest.raises(SpecError, match=r"gpu_memory_utilization"):
        validate_backend_options({"vllm:m": {"gpu_memory_utilization": 1.5}}, "s.yaml", used_models=["vllm:m"])


def _gpu_and_vllm() -> bool:
    if importlib.util.find_spec("vllm") is None:
        return False
    import torch

    return bool(torch.cuda.is_available())


@pytest.mark.slow
@pytest.mark.skipif(not _gpu_and_vllm(), reason="needs a CUDA GPU and vllm installed")
def test_real_vllm_tiny_model_is_seeded_and_batched():  # pragma: no cover - no GPU in CI
    model = os.environ.get("CLINAUDIT_VLLM_TEST_MODEL", "facebook/opt-125m")
    backend = get_backend(f"vllm:{model}", gpu_memory_utilization=0.3, max_model_len=512)
    spec = f"vllm:{model}"
    reqs = [ModelRequest(model=spec, kind="completion", prompt="The patient presents with", temperature=0.8,
                         max_tokens=16, seed=s) for s in (1, 1, 2)]
    reqs.append(ModelRequest(model=spec, kind="completion", prompt="The patient presents with", max_tokens=16))
    out = backend.generate(reqs)
    assert all(r.text and r.prompt_tokens > 0 and r.completion_tokens > 0 for r in out)
    assert out[0].text == out[1].text  # same seed, same answer, whatever else is in the batch


def test_answer_grammars_go_to_vllm_guided_decoding(monkeypatch):
    from clinaudit.grammar import OutputGrammar, attach

    mod, log = _fake_vllm()
    sp = types.ModuleType("vllm.sampling_params")

    class StructuredOutputsParams:
        def __init__(self, **kw):
            self.kw = kw

        def __eq__(self, other):
            return self.kw == other.kw

    sp.StructuredOutputsParams = StructuredOutputsParams
    monkeypatch.setitem(sys.modules, "vllm", mod)
    monkeypatch.setitem(sys.modules, "vllm.sampling_params", sp)
    backend = get_backend("vllm:org/tiny")
    schema = {"type": "object", "properties": {"a": {"enum": ["x"]}}, "required": ["a"]}
    reqs = [attach(ModelRequest.chat("vllm:org/tiny", "q"), OutputGrammar.choice(["YES", "NO"])),
            attach(ModelRequest.chat("vllm:org/tiny", "q"), OutputGrammar.regex(r"GENDER \\[(MALE|FEMALE)\\]")),
            attach(ModelRequest.chat("vllm:org/tiny", "q"), OutputGrammar.json(schema)),
            ModelRequest.chat("vllm:org/tiny", "q")]
    backend.generate(reqs)
    params = [e for e in log if e[0] == "generate"][0][2]
    assert [p.get("structured_outputs").kw if "structured_outputs" in p else None for p in params] == [
        {"choice": ["YES", "NO"]}, {"regex": r"GENDER \\[(MALE|FEMALE)\\]"}, {"json": schema}, None]
    # an older vLLM: GuidedDecodingParams under guided_decoding
    del sp.StructuredOutputsParams
    sp.GuidedDecodingParams = StructuredOutputsParams
    assert backend.sampling_params(reqs[0]).kw["guided_decoding"].kw == {"choice": ["YES", "NO"]}
