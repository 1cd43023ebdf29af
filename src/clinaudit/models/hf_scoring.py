"""Scoring kernels of the transformers backends: causal log-likelihoods with prefix reuse, masked-LM
log-probabilities with the output layer applied at the mask positions only.

:func:`prefix_logliks` — ``loglik(ids) = sum_{i>=1} log p(ids[i] | ids[:i])`` for many token
sequences. Sequences sharing a prefix (a reply scored against several questions, a
sentence and its prior) are arranged by :func:`~clinaudit.models.engine.plan_prefixes`:
each shared prefix runs through the model once, its key/value cache and the
log-probabilities of its own tokens are kept, and every sequence below it runs only its
remaining tokens on top of that cache (right-padded batches from ``batches``: similar
lengths, at most ``batch_size``). Sequences that share nothing are scored as before: right-padded batches of
similar length. The sums are the same as a full forward pass per sequence up to float
rounding (tests: 1e-5).

:func:`masked_head_logprobs` — the encoder runs on the batch, and the output layer (the
masked-LM head, the largest matrix of a small BERT: hidden x vocabulary) is applied only
to the hidden states at the scored mask positions, not at every token.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .engine import plan_prefixes
from .hf_runtime import require_torch

__all__ = ["prefix_logliks", "padded_logliks", "mlm_head", "masked_head_logprobs"]


def padded_logliks(model: Any, seqs: Sequence[Sequence[int]], pad: Callable[..., tuple[Any, Any]]) -> np.ndarray:
    """One right-padded batch through the model: each sequence's total log-probability after its first token."""
    torch = require_torch()
    ids, mask = pad(seqs, left=False)
    logits = model(input_ids=ids, attention_mask=mask).logits
    logp = torch.log_softmax(logits[:, :-1].float(), dim=-1)
    tok_lp = logp.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1) * mask[:, 1:]
    return tok_lp.double().sum(dim=1).cpu().numpy()


def prefix_logliks(model: Any, seqs: Sequence[Sequence[int]], *, pad: Callable[..., tuple[Any, Any]],
                   batches: Callable[[Sequence[int]], list[list[int]]], min_shared: int = 8,
                   device: str = "cpu") -> tuple[np.ndarray, dict[str, int]]:
    """Log-likelihood of every sequence (``0`` for fewer than 2 tokens) and counts of computed/reused tokens."""
    torch = require_torch()
    from transformers.cache_utils import DynamicCache

    out = np.zeros(len(seqs), dtype=float)
    stats = {"computed_tokens": 0, "reused_tokens": 0}
    live = [i for i, s in enumerate(seqs) if len(s) >= 2]
    nodes, base, _ = plan_prefixes([seqs[i] for i in live], min_shared)
    # per node: (kv per layer, log-prob total of the prefix's tokens after the first, log-softmax at its last position)
    state: dict[int, tuple[list[tuple[Any, Any]], float, Any]] = {}

    def node_state(k: int) -> tuple[list[tuple[Any, Any]], float, Any]:
        if k in state:
            return state[k]
        nd = nodes[k]
        ids = list(seqs[live[nd.source]])
        total, kv = 0.0, None
        if nd.parent is not None:
            kv, total, last = node_state(nd.parent)
            total += float(last[ids[nd.start]])
        cache = DynamicCache(ddp_cache_data=kv) if kv is not None else DynamicCache(config=model.config)
        seg = torch.tensor([ids[nd.start : nd.end]], dtype=torch.long, device=device)
        pos = torch.arange(nd.start, nd.end, dtype=torch.long, device=device).unsqueeze(0)
        res = model(input_ids=seg, position_ids=pos, past_key_values=cache, use_cache=True)
        lp = torch.log_softmax(res.logits[0].float(), dim=-1)
        if nd.end - nd.start > 1:
            tgt = seg[0, 1:].unsqueeze(-1)
            total += float(lp[:-1].gather(-1, tgt).double().sum())
        stats["computed_tokens"] += nd.end - nd.start
        state[k] = ([(layer.keys, layer.values) for layer in res.past_key_values.layers], total, lp[-1])
        return state[k]

    by_base: dict[int | None, list[int]] = {}
    for j, b in enumerate(base):
        by_base.setdefault(b, []).append(j)
    for b, members in by_base.items():
        if b is None:  # nothing shared: plain right-padded batches of similar length
            rows = [live[j] for j in members]
            for batch in batches([len(seqs[i]) for i in rows]):
                vals = padded_logliks(model, [seqs[rows[k]] for k in batch], pad)
                stats["computed_tokens"] += sum(len(seqs[rows[k]]) for k in batch)
                for k, v in zip(batch, vals):
                    out[rows[k]] = float(v)
            continue
        kv, total, last = node_state(b)
        end = nodes[b].end
        rows = [live[j] for j in members]
        for batch in batches([len(seqs[i]) for i in rows]):
            rest = [list(seqs[rows[k]][end:]) for k in batch]  # each at least one token
            head = [total + float(last[r[0]]) for r in rest]
            stats["reused_tokens"] += end * len(batch)
            vals = np.zeros(len(batch))
            if max(len(r) for r in rest) > 1:
                ids, mask = pad(rest, left=False)
                n = ids.shape[0]
                cache = DynamicCache(ddp_cache_data=[(k_.expand(n, -1, -1, -1), v_.expand(n, -1, -1, -1))
                                                     for k_, v_ in kv])
                full_mask = torch.cat([torch.ones((n, end), dtype=mask.dtype, device=mask.device), mask], dim=1)
                pos = torch.arange(end, end + ids.shape[1], dtype=torch.long, device=device).unsqueeze(0).expand(n, -1)
                logits = model(input_ids=ids, attention_mask=full_mask, position_ids=pos, past_key_values=cache,
                               use_cache=True).logits
                logp = torch.log_softmax(logits[:, :-1].float(), dim=-1)
                tok_lp = logp.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1) * mask[:, 1:]
                vals = tok_lp.double().sum(dim=1).cpu().numpy()
                stats["computed_tokens"] += int(mask.sum())
            for k, h, v in zip(batch, head, vals):
                out[rows[k]] = h + float(v)
    return out, stats


def mlm_head(model: Any) -> tuple[Any, Any] | None:
    """``(encoder, output head)`` of a masked LM whose head maps hidden states to vocabulary logits
    position by position (BERT ``cls``, RoBERTa/XLM-R ``lm_head``, ALBERT ``predictions``); ``None`` otherwise."""
    torch = require_torch()
    encoder = getattr(model, str(getattr(model, "base_model_prefix", "") or ""), None)
    if not isinstance(encoder, torch.nn.Module):
        return None
    for name in ("cls", "lm_head", "predictions"):
        head = getattr(model, name, None)
        if isinstance(head, torch.nn.Module):
            return encoder, head
    return None


def masked_head_logprobs(model: Any, ids: Any, mask: Any, positions: Sequence[Sequence[int]],
                         targets: Sequence[Sequence[int]]) -> list[float]:
    """Per row: ``sum_i log softmax(logits at positions[i])[targets[i]]``, the head applied at those positions only."""
    torch = require_torch()
    split = mlm_head(model)
    rows = [k for k, pos in enumerate(positions) for _ in pos]
    cols = [p for pos in positions for p in pos]
    tgts = [int(t) for tg in targets for t in tg]
    if not cols:
        return [0.0] * len(positions)
    r = torch.tensor(rows, dtype=torch.long, device=ids.device)
    c = torch.tensor(cols, dtype=torch.long, device=ids.device)
    if split is None:
        logits = model(input_ids=ids, attention_mask=mask).logits[r, c]
    else:
        encoder, head = split
        hidden = encoder(input_ids=ids, attention_mask=mask)[0]
        logits = head(hidden[r, c])
    lp = torch.log_softmax(logits.float(), dim=-1)
    picked = lp.gather(-1, torch.tensor(tgts, dtype=torch.long, device=ids.device).unsqueeze(-1)).squeeze(-1).double()
    sums = torch.zeros(len(positions), dtype=torch.float64, device=ids.device).index_add_(0, r, picked)
    return [float(x) for x in sums.cpu()]
