"""The in-flight generation engine (clinaudit.models.engine) against the static batches it replaces.

Tiny random models built here (no downloads): the engine must give exactly the texts,
token counts and finish reasons of ``engine: static`` (left-padded ``model.generate``
batches), greedy and seeded sampling, while computing each shared prompt prefix once.
The same check on the real embedded model is in tests/test_backend_embedded.py (slow).
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from clinaudit.errors import BackendError  # noqa: E402
from clinaudit.models.engine import plan_prefixes, supports_engine  # noqa: E402
from clinaudit.models.hf import HFCausalBackend  # noqa: E402
from clinaudit.records import ModelRequest  # noqa: E402

from test_backend_hf import causal_dirs, one_torch_thread  # noqa: E402,F401  (module fixtures)

DIALOG = "the doctor and the nurse with the patient : she has chest pain and headache and a fever"
TURNS = ["no", "yes cough", "he was a man", "the woman has no pain", "his fever", "her chest pain and cough"]


def _pair(path, **kw):
    cont = HFCausalBackend(f"hf:{path}", min_shared_prefix=2, **kw)
    stat = HFCausalBackend(f"hf:{path}", engine="static", **kw)
    stat._model, stat._tokenizer = cont.model, cont.tokenizer  # the very same weights
    return cont, stat


def _same(a, b):
    return [(r.text, r.completion_tokens, r.finish_reason, r.choices) for r in a] == \
           [(r.text, r.completion_tokens, r.finish_reason, r.choices) for r in b]


def test_plan_prefixes_radix_tree_by_hand():
    seqs = [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 9], [1, 2, 3, 7, 7, 7, 7], [8, 8], [1, 2, 3, 4, 5, 6]]
    nodes, base, order = plan_prefixes(seqs, min_shared=2)
    # rows 0,1,2,4 share [1,2,3]; below it rows 0,1,4 share [1,2,3,4]; rows 0 and 4 are equal: [1..5] shared,
    # each keeps its last token. Node extensions shorter than min_shared (2) are not made.
    spans = [(n.parent, n.start, n.end, n.rows) for n in nodes]
    assert spans == [(None, 0, 3, 4), (0, 3, 5, 2)]
    assert base == [1, 0, 0, None, 1]
    # depth first, shorter subtrees first: [8,8] alone; under [1,2,3]: the [1,2,3,4] subtree (mean length 5.7)
    # before [1,2,3,7,...] (7); under [1,2,3,4]: row 1 ends there (its last token 9 is its own), then 0 and 4
    assert order == [3, 1, 0, 4, 2]
    # every row leaves at least one token of its own to prefill
    for i, b in enumerate(base):
        assert b is None or nodes[b].end <= len(seqs[i]) - 1
    nodes, base, _ = plan_prefixes(seqs, min_shared=4)  # [1,2,3] is too short to share; [1,2,3,4] (+[5]) is not
    assert [(n.start, n.end) for n in nodes] == [(0, 4)] and base == [0, 0, None, None, 0]


@pytest.mark.parametrize("arch", ["llama", "gpt2"])
def test_engine_greedy_identical_to_static_batches(causal_dirs, arch):
    cont, stat = _pair(causal_dirs[arch], batch_size=3)
    assert cont.use_engine() and not stat.use_engine()
    reqs = [ModelRequest.chat("hf:x", f"{DIALOG} : {t}", max_tokens=4 + 3 * (i % 4)) for i, t in enumerate(TURNS)]
    reqs += [ModelRequest.chat("hf:x", "cough", max_tokens=9), ModelRequest.chat("hf:x", "cough", max_tokens=9, n=2)]
    a, b = cont.generate(reqs), stat.generate(reqs)
    assert _same(a, b)
    stats = cont.last_engine_stats
    assert stats["reused_tokens"] > 0  # the dialog was encoded once, not once per variant
    plain = sum(len(cont.prompt_ids(r)) for r in reqs)
    assert stats["prefill_tokens"] < plain


def test_engine_sampling_and_stops_identical_to_static(causal_dirs):
    cont, stat = _pair(causal_dirs["llama"], batch_size=2)
    reqs = [ModelRequest.chat("hf:x", f"{DIALOG} : {t}", temperature=1.0, seed=s, max_tokens=10)
            for t, s in zip(TURNS, range(len(TURNS)))]
    reqs.append(ModelRequest.chat("hf:x", DIALOG, temperature=0.8, top_p=0.9, seed=3, n=3, max_tokens=8))
    greedy = stat.generate([ModelRequest.chat("hf:x", DIALOG, max_tokens=20)])[0]
    words = greedy.text.split()
    reqs.append(ModelRequest.chat("hf:x", DIALOG, max_tokens=20, stop=[" " + words[2]] if len(words) > 2 else None))
    a, b = cont.generate(reqs), stat.generate(reqs)
    assert _same(a, b)
    assert len(set(a[-2].choices)) > 1


def test_engine_rows_leave_and_join_the_batch(causal_dirs):
    """Batch of 2, six requests of very different lengths: rows finish at different steps and others join."""
    cont, stat = _pair(causal_dirs["llama"], batch_size=2)
    reqs = [ModelRequest.chat("hf:x", f"{DIALOG} : {t}", max_tokens=m) for t, m in zip(TURNS, [1, 12, 2, 7, 3, 15])]
    a = cont.generate(reqs)
    assert _same(a, stat.generate(reqs))
    assert cont.last_engine_stats["rebuilds"] >= 3
    assert [r.completion_tokens <= m for r, m in zip(a, [1, 12, 2, 7, 3, 15])] == [True] * 6


def test_engine_option_is_checked_and_sliding_window_models_fall_back(causal_dirs, tmp_path):
    with pytest.raises(BackendError, match="engine must be one of"):
        HFCausalBackend(f"hf:{causal_dirs['llama']}", engine="vllm")
    cfg = transformers.MistralConfig(vocab_size=40, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                     num_attention_heads=2, num_key_value_heads=1, sliding_window=4)
    assert not supports_engine(transformers.MistralForCausalLM(cfg))
    assert supports_engine(HFCausalBackend(f"hf:{causal_dirs['gpt2']}").model)


@pytest.mark.parametrize("arch", ["llama", "gpt2"])
def test_loglik_with_shared_prefixes_equals_direct_forward(causal_dirs, arch):
    """Log-likelihoods that reuse shared prefixes (a reply scored with several questions and yes/no) equal a
    full forward pass per text to 1e-5, and the shared part is computed once."""
    path = causal_dirs[arch]
    backend = HFCausalBackend(f"hf:{path}", min_shared_prefix=2, batch_size=3)
    reply = "the doctor and the nurse with the patient : she has chest pain and headache"
    texts = [f"{reply} : {q} {a}" for q in ("is she a woman", "was he a man", "the fever") for a in ("yes", "no")]
    texts += ["cough", "", "the the the", f"{reply} and"]
    got = backend.loglik(texts)
    stats = backend.last_loglik_stats
    assert stats["reused_tokens"] > 0 and stats["computed_tokens"] < sum(len(t.split()) + 1 for t in texts)
    model = transformers.AutoModelForCausalLM.from_pretrained(path, local_files_only=True).eval()
    tok = backend.tokenizer
    expected = []
    for t in texts:
        ids = [tok.bos_token_id] + tok(t, add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            lp = torch.log_softmax(model(torch.tensor([ids])).logits[0, :-1], dim=-1)
        expected.append(float(sum(lp[i, ids[i + 1]] for i in range(len(ids) - 1))))
    assert got[texts.index("")] == 0.0
    import numpy as np

    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    static = HFCausalBackend(f"hf:{path}", engine="static", batch_size=3)
    np.testing.assert_allclose(static.loglik(texts), expected, rtol=1e-5, atol=1e-5)
    assert static.last_loglik_stats["reused_tokens"] == 0


def test_masked_lm_head_is_found_for_bert_roberta_and_not_guessed_otherwise():
    """masked_logprobs applies the output layer at mask positions only when it can split encoder and head."""
    from clinaudit.models.hf_scoring import mlm_head

    bert = transformers.BertForMaskedLM(transformers.BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=1,
                                                                num_attention_heads=2, intermediate_size=32))
    enc, head = mlm_head(bert)
    assert enc is bert.bert and head is bert.cls
    roberta = transformers.RobertaForMaskedLM(transformers.RobertaConfig(
        vocab_size=50, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32))
    assert mlm_head(roberta)[1] is roberta.lm_head
    distil = transformers.DistilBertForMaskedLM(transformers.DistilBertConfig(vocab_size=50, dim=16, n_layers=1,
                                                                              n_heads=2, hidden_dim=32))
    assert mlm_head(distil) is None  # its head is three separate modules: full forward instead


def test_engine_batched_prefill_and_k_step_reads_identical_to_static(causal_dirs):
    """Rows prefilled together in one forward (left-padded on a shared prefix) and greedy tokens read back every
    3 steps (rows that end inside those steps are cut where they ended): the texts of the static path."""
    cont, stat = _pair(causal_dirs["llama"], batch_size=3, sync_every=3)
    greedy = stat.generate([ModelRequest.chat("hf:x", DIALOG, max_tokens=20)])[0]
    words = greedy.text.split()
    reqs = [ModelRequest.chat("hf:x", f"{DIALOG} : {t}", max_tokens=m) for t, m in zip(TURNS, [1, 12, 2, 7, 3, 15])]
    reqs += [ModelRequest.chat("hf:x", t, max_tokens=8) for t in ("cough", "he was no", "the the the the fever")]
    reqs.append(ModelRequest.chat("hf:x", DIALOG, max_tokens=20, stop=[" " + words[2]] if len(words) > 2 else None))
    a, b = cont.generate(reqs), stat.generate(reqs)
    assert _same(a, b)
    stats = cont.last_engine_stats
    assert stats["prefill_forwards"] < len(reqs)  # several prompts per prefill forward
    assert stats["host_syncs"] < stats["decode_steps"]  # tokens read back once per 3 steps where nothing ends
    one, _ = _pair(causal_dirs["llama"], batch_size=3, sync_every=1)
    assert _same(one.generate(reqs), b)
    assert one.last_engine_stats["host_syncs"] == one.last_engine_stats["decode_steps"]


def test_answers_are_handed_back_as_they_finish(causal_dirs):
    cont, stat = _pair(causal_dirs["llama"], batch_size=2)
    reqs = [ModelRequest.chat("hf:x", f"{DIALOG} : {t}", max_tokens=m) for t, m in zip(TURNS, [15, 1, 12, 2, 9, 1])]
    reqs.append(ModelRequest.chat("hf:x", "cough", max_tokens=9, temperature=1.0, seed=2, n=3))
    seen: list[int] = []
    got: dict[int, object] = {}

    def each(i, resp):
        seen.append(i)
        got[i] = resp

    out = cont.generate(reqs, on_response=each)
    assert sorted(seen) == list(range(len(reqs)))  # each request once (its 3 samples together)
    assert [got[i] for i in range(len(reqs))] == out and _same(out, stat.generate(reqs))
    # a one-token answer is handed back before the long answers of the batch are done
    assert seen.index(1) < seen.index(0) and seen.index(5) < seen.index(2)
    seen.clear()
    stat.generate(reqs, on_response=each)  # the static path hands back each batch's answers as it ends
    assert sorted(seen) == list(range(len(reqs)))


def test_max_batch_on_cuda_is_sized_from_free_gpu_memory(causal_dirs, monkeypatch):
    cont, _ = _pair(causal_dirs["llama"])
    b = HFCausalBackend(f"hf:{causal_dirs['llama']}", device="cuda")
    b._model, b._tokenizer = cont.model, cont.tokenizer  # (loaded on the CPU: only the sizing is tested)
    asked = []

    def mem_get_info(device=None):
        asked.append(str(device))
        return free["bytes"], 80 << 30

    monkeypatch.setattr(torch.cuda, "mem_get_info", mem_get_info)
    vocab = cont.model.config.vocab_size
    # tiny Llama: 2 layers x 2 kv heads x head dim 32 / 4 = 8, context 128 (its max), float32: a row's cache
    # holds 2 x 2 x 2 x 8 x 128 x 4 bytes = 32,768 B, counted twice (rebuilds), plus 4 x vocab B of logits
    per_row = 2 * (2 * 2 * 2 * 8 * 128 * 4) + 4 * vocab
    free = {"bytes": 10_000_000}
    assert b.max_batch == int(0.6 * 10_000_000) // per_row == b.memory_max_batch()
    assert asked[0] == "cuda" and b.submit_size == max(4 * 8, 2 * b.max_batch)
    free["bytes"] = 10 << 30  # plenty: capped at 256
    assert b.memory_max_batch() == 256
    free["bytes"] = 100_000  # too little for one batch_size: never below batch_size
    b._auto_max_batch = None
    assert b.max_batch == 8
    assert HFCausalBackend(f"hf:{causal_dirs['llama']}", device="cuda", max_batch=5).max_batch == 5  # as given
    assert cont.max_batch == 8  # on a CPU: batch_size, no GPU asked


def test_the_decode_batch_is_sized_for_the_next_steps_not_every_rows_max_tokens(causal_dirs, monkeypatch):
    """The key/value buffers hold the prompts and ROOM_STEPS more tokens (memory: a judge asked for 256 tokens
    that writes a label of a few was given room for all 256 in every row); a batch out of room is rebuilt wider,
    with exactly the texts of the static batches."""
    from clinaudit.models import engine as eng

    reqs = [ModelRequest.chat("hf:x", f"{DIALOG} : {t}", max_tokens=m) for t, m in zip(TURNS, [1, 12, 2, 7, 3, 15])]
    caps: dict[int, list[int]] = {}
    rebuild = eng.GenerationEngine._rebuild

    def recording(self, buf, live, joined):
        out = rebuild(self, buf, live, joined)
        caps.setdefault(eng.ROOM_STEPS, []).append(int(buf["mask"].shape[1]))
        return out

    monkeypatch.setattr(eng.GenerationEngine, "_rebuild", recording)
    texts = {}
    for room in (1000, 3):
        monkeypatch.setattr(eng, "ROOM_STEPS", room)
        cont, stat = _pair(causal_dirs["llama"], batch_size=2)
        texts[room] = cont.generate(reqs)
        assert _same(texts[room], stat.generate(reqs))
    assert max(caps[3]) < max(caps[1000])  # smaller buffers ...
    assert len(caps[3]) > len(caps[1000])  # ... rebuilt wider when full
