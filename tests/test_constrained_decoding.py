"""Constrained decoding on hf:/embedded (llguidance masks): on a tiny random model, and the acceptance check on
the embedded SmolLM2 as judge (slow)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("llguidance")

from clinaudit.grammar import OutputGrammar, attach  # noqa: E402
from clinaudit.models.hf import HFCausalBackend  # noqa: E402
from clinaudit.records import ModelRequest  # noqa: E402

from test_backend_hf import one_torch_thread  # noqa: E402,F401  (module fixture)
from test_generation_engine import DIALOG, TURNS, _pair, _same  # noqa: E402


@pytest.fixture(scope="module")
def causal_dirs(tmp_path_factory):
    """A tiny random Llama with a byte-level tokenizer (one token per character: what llguidance can wrap)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    vocab = {"[PAD]": 0, "<s>": 1, "</s>": 2}
    for ch in sorted(pre_tokenizers.ByteLevel.alphabet()):
        vocab.setdefault(ch, len(vocab))
    tk = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tk.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tk.decoder = decoders.ByteLevel()
    tok = transformers.PreTrainedTokenizerFast(tokenizer_object=tk, bos_token="<s>", eos_token="</s>", pad_token="[PAD]")
    tok.chat_template = ("{% for m in messages %}<s>{{ m['role'] }}: {{ m['content'] }}</s>{% endfor %}"
                         "{% if add_generation_prompt %}<s>assistant: {% endif %}")
    torch.manual_seed(0)
    llama = transformers.LlamaForCausalLM(transformers.LlamaConfig(
        vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, max_position_embeddings=512, bos_token_id=1, eos_token_id=2, pad_token_id=0,
        initializer_range=0.5))
    d = tmp_path_factory.mktemp("bytellama")
    llama.save_pretrained(d)
    tok.save_pretrained(d)
    return {"llama": d}


def _reqs(grammar, max_tokens=6, **kw):
    return [attach(ModelRequest.chat("hf:x", f"{DIALOG} : {t}", max_tokens=max_tokens, **kw), grammar)
            for t in TURNS]


def test_a_random_model_answers_inside_the_grammar_on_both_paths(causal_dirs):
    cont, stat = _pair(causal_dirs["llama"], batch_size=3)
    free = cont.generate([ModelRequest.chat("hf:x", f"{DIALOG} : {t}", max_tokens=6) for t in TURNS])
    assert any(r.text not in ("yes", "no") for r in free)  # unconstrained, the random model says anything
    for kw in ({}, {"temperature": 1.0, "seed": 7}):
        reqs = _reqs(OutputGrammar.choice(["yes", "no"]), **kw)
        a, b = cont.generate(reqs), stat.generate(reqs)
        assert _same(a, b)  # the engine and the static batches pick the same constrained tokens
        assert [r.text for r in a] and all(r.text in ("yes", "no") for r in a)
        assert all(r.finish_reason == "stop" and r.completion_tokens == len(r.text) for r in a)  # a token a byte
    # a two-token grammar: the row ends as soon as the grammar is complete
    g = OutputGrammar.regex("MANAGE \\[(YES|NO)\\]\nVISIT \\[(YES|NO)\\]")
    a = cont.generate(_reqs(g, max_tokens=40))
    assert all(g.fullmatch(r.text) and r.finish_reason == "stop" for r in a), [r.text for r in a]


def test_greedy_constrained_pick_is_the_best_allowed_token(causal_dirs):
    """The constrained answer is the allowed token the model scores highest (checked by a forward pass)."""
    cont = HFCausalBackend(f"hf:{causal_dirs['llama']}")
    req = attach(ModelRequest.chat("hf:x", f"{DIALOG} : {TURNS[1]}", max_tokens=3), OutputGrammar.choice(["yes", "no"]))
    got = cont.generate([req])[0].text
    ids = cont.prompt_ids(req)
    with torch.no_grad():
        logits = cont.model(input_ids=torch.tensor([ids])).logits[0, -1]
    tok = cont.tokenizer
    y, n = tok.convert_tokens_to_ids("y"), tok.convert_tokens_to_ids("n")  # the first tokens of "yes" and "no"
    assert got == ("yes" if logits[y] > logits[n] else "no")


def test_batch_masks_equal_the_row_by_row_masks(causal_dirs):
    """restrict_batch (one llguidance call for every row) masks exactly as RowConstraint.restrict row by row,
    at the start, inside, at the accepting end and after the end of the grammar."""
    from clinaudit.models.constrained import restrict_batch

    cont = HFCausalBackend(f"hf:{causal_dirs['llama']}")
    tok = cont.tokenizer
    g = OutputGrammar.regex("(yes|no)( maybe)?")
    prefixes = ["", "y", "ye", "yes", "yes maybe", "n"]
    rows = []
    for p in prefixes:
        c = cont.grammars().row(g)
        for t in tok(p, add_special_tokens=False)["input_ids"]:
            c.accept(t)
        rows.append(c)
    assert rows[4].finished and not rows[0].finished
    vocab = cont.model.config.vocab_size
    torch.manual_seed(0)
    logits = torch.randn(len(prefixes) + 1, vocab + 3)  # one row left free, 3 columns past the grammar's vocab
    one = logits.clone()
    for j, c in enumerate(rows):
        c.restrict(one[j + 1])
    both = logits.clone()
    restrict_batch(rows, both, list(range(1, len(rows) + 1)))
    assert torch.equal(torch.isinf(both), torch.isinf(one)) and torch.equal(both, one)
    assert not torch.isinf(both[0]).any()
    finite = set(torch.nonzero(~torch.isinf(both[5])).flatten().tolist())  # rows[4], "yes maybe"
    assert finite == {e for e in cont.eos_ids() if e < vocab} and 2 in finite  # after the end: end of sequence only
