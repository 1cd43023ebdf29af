"""The local generation engine of ``hf:`` and ``embedded``: in-flight batching with prefix reuse.

:class:`GenerationEngine` decodes many rows (one per generated sequence) with a causal LM:

* **Prefix reuse.** The prompts are arranged in a radix tree of their token ids
  (:func:`plan_prefixes`). A prefix shared by at least two rows and at least
  ``min_shared`` tokens longer than the shared prefix above it gets a *node*: its
  key/value cache is computed once (from its parent node's cache) and every row below
  it only prefills its own remaining tokens on top of it. A dialog shared by 8
  counterfactual variants that differ in the appended turn is encoded once; so is a
  system prompt shared by every call. A node's cache is dropped once every row below it
  has been prefilled.
* **In-flight (continuous) batching.** At most ``max_batch`` rows decode together, one
  token per step for the whole batch. A row that finishes (end-of-sequence, a stop
  string, its own ``max_tokens``) leaves the batch at once and the next waiting row
  joins; nobody waits for the longest sequence of a static batch.
* **Length bucketing.** Rows join in depth-first order of the prefix tree with the
  shorter subtrees first, so rows decoding together have similar lengths (little
  padding) and rows sharing a prefix are prefilled one after the other.

The decode batch keeps its keys/values in preallocated buffers (one per layer,
``[batch, kv heads, capacity, head dim]``, rows left-padded, masked by an attention
mask) that the model's cache writes into in place (:class:`SlotLayer`), instead of
concatenating the whole cache at every step. Positions are passed explicitly, so a
row's rotary positions are those of its own tokens, whatever the padding.

Decoding per row is the one of the static path (:meth:`HFCausalBackend.generate` with
``engine: static``): greedy rows take the argmax, sampling rows draw with their own
``torch.Generator`` once per step from softmax(logits / T) within the top-p nucleus.
The engine works for models whose cache layers are plain full-attention
:class:`transformers.DynamicLayer` (Llama, Mistral without sliding window, Qwen2,
GPT-NeoX, ...); :func:`supports_engine` says whether a model qualifies, and the backend
falls back to static batches for the others.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .hf_runtime import require_torch, require_transformers

__all__ = ["GenRow", "PrefixNode", "plan_prefixes", "GenerationEngine", "SlotLayer", "supports_engine",
           "pick_token", "pick_row_token", "stop_check"]


@dataclass
class GenRow:
    """One sequence to generate: the prompt ids and its own decoding settings."""

    ids: list[int]
    temperature: float = 0.0
    top_p: float | None = None
    seed: int = 0
    max_tokens: int = 16
    stop: list[str] = field(default_factory=list)
    #: the answer grammar's state (:class:`~clinaudit.models.constrained.RowConstraint`), or None
    constraint: Any = None


@dataclass
class PrefixNode:
    """A shared prefix ``ids[:end]`` of the rows below it; its cache extends the parent's (``ids[start:end]``)."""

    parent: int | None
    start: int
    end: int
    source: int  # a row whose ids begin with the prefix
    rows: int = 0  # rows below the node not yet prefilled


def plan_prefixes(seqs: Sequence[Sequence[int]], min_shared: int = 16) -> tuple[list[PrefixNode], list[int | None], list[int]]:
    """Radix tree of the prompts: ``(nodes, base, order)``.

    ``base[i]`` is the node whose cache row ``i`` starts from (``None``: from scratch);
    every row keeps at least its last token to prefill (it gives the first logits).
    ``order`` is the order rows join in: depth-first, shorter subtrees first.
    A node is made only where at least two rows share at least ``min_shared`` tokens
    beyond the node above them.
    """
    nodes: list[PrefixNode] = []
    base: list[int | None] = [None] * len(seqs)
    order: list[int] = []
    # stack of (row indices, depth they all share, node above, node's end)
    work: list[tuple[list[int], int, int | None, int]] = [(list(range(len(seqs))), 0, None, 0)]
    while work:
        idxs, depth, node, node_end = work.pop()
        if len(idxs) == 1:
            base[idxs[0]] = node
            order.append(idxs[0])
            continue
        cap = min(len(seqs[i]) for i in idxs) - 1  # leave each row one token to prefill
        lcp = depth
        first = seqs[idxs[0]]
        while lcp < cap and all(seqs[i][lcp] == first[lcp] for i in idxs):
            lcp += 1
        here, here_end = node, node_end
        if lcp - node_end >= max(1, min_shared):
            nodes.append(PrefixNode(parent=node, start=node_end, end=lcp, source=idxs[0], rows=len(idxs)))
            here, here_end = len(nodes) - 1, lcp
        ends = [i for i in idxs if len(seqs[i]) - 1 <= lcp]  # nothing left to branch on: leaves here
        groups: dict[int, list[int]] = {}
        for i in idxs:
            if len(seqs[i]) - 1 > lcp:
                groups.setdefault(seqs[i][lcp], []).append(i)
        # visited in order: leaves here first, then subtrees by mean length (the stack pops the last pushed)
        subtrees = sorted(groups.values(), key=lambda g: (sum(len(seqs[i]) for i in g) / len(g), g[0]))
        for g in reversed(subtrees):
            work.append((g, lcp + 1, here, here_end))
        for i in sorted(ends, key=lambda i: (len(seqs[i]), i), reverse=True):
            work.append(([i], lcp, here, here_end))
    return nodes, base, order


def supports_engine(model: Any) -> bool:
    """True when every cache layer of ``model`` is a plain full-attention ``DynamicLayer``."""
    transformers = require_transformers()
    from transformers.cache_utils import DynamicCache, DynamicLayer

    del transformers
    try:
        cache = DynamicCache(config=model.config)
    except Exception:  # noqa: BLE001 - an exotic config: not for the engine
        return False
    return bool(cache.layers) and all(type(layer) is DynamicLayer for layer in cache.layers)


def pick_token(logits: Any, temperature: float, top_p: float | None, generator: Any) -> int:
    """The next token of one row: argmax when ``temperature <= 0``, else one draw from the
    top-p nucleus of softmax(logits / T) with the row's own generator (as the static path)."""
    torch = require_torch()
    if temperature <= 0:
        return int(torch.argmax(logits))
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    if top_p is not None and 0 < top_p < 1:
        sorted_p, sorted_ix = torch.sort(probs, descending=True)
        cum = torch.cumsum(sorted_p, dim=-1)
        drop = (cum - sorted_p) > top_p  # keep the smallest prefix whose mass reaches top_p
        sorted_p = sorted_p.masked_fill(drop, 0.0)
        probs = torch.zeros_like(probs).scatter(0, sorted_ix, sorted_p)
    return int(torch.multinomial(probs.cpu(), 1, generator=generator).item())


def pick_row_token(row: GenRow, logits: Any, generator: Any) -> int:
    """:func:`pick_token` for one row, among the tokens its grammar allows (when it has one)."""
    c = row.constraint
    if c is not None:
        c.restrict(logits)
    tok = pick_token(logits, row.temperature, row.top_p, generator)
    if c is not None:
        c.accept(tok)
    return tok


def stop_check(new: list[int], limit: int, stops: list[str], eos: set[int], decode: Callable[[list[int]], str],
               constraint: Any = None) -> tuple[int, str] | None:
    """``(tokens kept, finish reason)`` once a row is done after appending its last token, else ``None``
    (a row whose grammar is complete is done)."""
    if new[-1] in eos:
        return len(new) - 1, "stop"
    if constraint is not None and constraint.finished:
        return len(new), "stop"
    if stops and any(s in decode(new) for s in stops):
        return len(new), "stop"
    if len(new) >= limit:
        return len(new), "length"
    return None


class SlotLayer:
    """A cache layer over a preallocated buffer: ``update`` writes the new keys/values in place.

    Built as a subclass of transformers' ``DynamicLayer`` at first use (:func:`slot_layer`),
    so the model treats it as an ordinary dynamic cache layer.
    """


_SLOT_CLS: Any = None


def slot_layer(kbuf: Any, vbuf: Any, n: int) -> Any:
    """A ``DynamicLayer`` whose first ``n`` columns of ``kbuf``/``vbuf`` are the cache; new tokens go after."""
    global _SLOT_CLS
    if _SLOT_CLS is None:
        require_transformers()
        from transformers.cache_utils import DynamicLayer

        class _Slot(DynamicLayer, SlotLayer):
            def __init__(self, kbuf: Any, vbuf: Any, n: int):
                super().__init__()
                self.kbuf, self.vbuf, self.n = kbuf, vbuf, n
                self.dtype, self.device = kbuf.dtype, kbuf.device
                self.is_initialized = True
                self.keys, self.values = kbuf[:, :, :n], vbuf[:, :, :n]

            def update(self, key_states: Any, value_states: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
                m = key_states.shape[-2]
                self.kbuf[:, :, self.n : self.n + m] = key_states
                self.vbuf[:, :, self.n : self.n + m] = value_states
                self.n += m
                self.keys, self.values = self.kbuf[:, :, : self.n], self.vbuf[:, :, : self.n]
                return self.keys, self.values

        _SLOT_CLS = _Slot
    return _SLOT_CLS(kbuf, vbuf, n)


@dataclass
class _Live:
    """A row in the decode batch."""

    row: int
    length: int  # tokens in its cache (prompt + generated, the last generated one not yet fed)
    last: int  # the token to feed next
    new: list[int]
    limit: int
    generator: Any


class GenerationEngine:
    """In-flight batched decoding with prefix reuse for one causal LM (see the module docstring)."""

    def __init__(self, model: Any, tokenizer: Any, *, max_batch: int, eos_ids: set[int], max_len: int | None,
                 min_shared: int = 16, device: str = "cpu"):
        self.model, self.tokenizer = model, tokenizer
        self.max_batch = max(1, int(max_batch))
        self.eos = set(eos_ids)
        self.max_len = max_len
        self.min_shared = min_shared
        self.device = device
        self.stats = {"prefill_tokens": 0, "reused_tokens": 0, "decode_steps": 0, "rebuilds": 0}

    # ---- forward passes -----------------------------------------------------------------
    def _cache(self, kv: list[tuple[Any, Any]] | None) -> Any:
        from transformers.cache_utils import DynamicCache

        if kv is None:
            return DynamicCache(config=self.model.config)
        return DynamicCache(ddp_cache_data=kv)

    def _extend(self, kv: list[tuple[Any, Any]] | None, ids: Sequence[int], start: int) -> tuple[list[tuple[Any, Any]], Any]:
        """Run ``ids`` (positions ``start``...) on top of the cache ``kv``: (new per-layer kv, last logits)."""
        torch = require_torch()
        cache = self._cache(kv)
        inp = torch.tensor([list(ids)], dtype=torch.long, device=self.device)
        pos = torch.arange(start, start + len(ids), dtype=torch.long, device=self.device).unsqueeze(0)
        out = self.model(input_ids=inp, position_ids=pos, past_key_values=cache, use_cache=True, logits_to_keep=1)
        self.stats["prefill_tokens"] += len(ids)
        new_kv = [(layer.keys, layer.values) for layer in out.past_key_values.layers]
        return new_kv, out.logits[0, -1].float()

    # ---- the loop -------------------------------------------------------------------------
    def run(self, rows: Sequence[GenRow]) -> list[tuple[list[int], int, str]]:
        """Generate every row: ``(generated ids, tokens kept, finish reason)`` per row, in input order."""
        torch = require_torch()
        n = len(rows)
        results: list[tuple[list[int], int, str] | None] = [None] * n
        if not n:
            return []
        nodes, base, order = plan_prefixes([r.ids for r in rows], self.min_shared)
        node_kv: dict[int, list[tuple[Any, Any]]] = {}
        waiting = list(reversed(order))  # pop() gives the next row to join
        live: list[_Live] = []
        buf: dict[str, Any] = {}
        decode = lambda ids: self.tokenizer.decode(ids, skip_special_tokens=True)  # noqa: E731

        def node_cache(k: int) -> list[tuple[Any, Any]]:
            if k not in node_kv:
                nd = nodes[k]
                parent = node_cache(nd.parent) if nd.parent is not None else None
                node_kv[k], _ = self._extend(parent, rows[nd.source].ids[nd.start : nd.end], nd.start)
            return node_kv[k]

        def release(k: int | None) -> None:
            while k is not None:
                nodes[k].rows -= 1
                if nodes[k].rows <= 0:
                    node_kv.pop(k, None)
                k = nodes[k].parent

        def row_limit(r: GenRow) -> int:
            limit = max(1, int(r.max_tokens))
            if self.max_len is not None:  # prompts are cut to max_len - 1 tokens, so one new token fits
                limit = max(1, min(limit, self.max_len - len(r.ids)))
            return limit

        with torch.no_grad():
            while waiting or live:
                joined: list[tuple[_Live, list[tuple[Any, Any]]]] = []
                while waiting and len(live) + len(joined) < self.max_batch:
                    i = waiting.pop()
                    r = rows[i]
                    b = base[i]
                    start = nodes[b].end if b is not None else 0
                    kv, logits = self._extend(node_cache(b) if b is not None else None, r.ids[start:], start)
                    self.stats["reused_tokens"] += start
                    release(b)
                    gen = torch.Generator(device="cpu")
                    gen.manual_seed(int(r.seed) % (2**63))
                    tok = pick_row_token(r, logits, gen)
                    lv = _Live(row=i, length=len(r.ids), last=tok, new=[tok], limit=row_limit(r), generator=gen)
                    done = stop_check(lv.new, lv.limit, r.stop, self.eos, decode, r.constraint)
                    if done is not None:
                        results[i] = (lv.new, done[0], done[1])
                    else:
                        joined.append((lv, kv))
                if joined or buf.get("dirty"):
                    live = self._rebuild(buf, live, joined, rows)
                if not live:
                    continue
                logits = self._step(buf, live)
                still: list[_Live] = []
                for k, lv in enumerate(live):
                    r = rows[lv.row]
                    lv.length += 1
                    tok = pick_row_token(r, logits[k], lv.generator)
                    lv.new.append(tok)
                    lv.last = tok
                    done = stop_check(lv.new, lv.limit, r.stop, self.eos, decode, r.constraint)
                    if done is not None:
                        results[lv.row] = (lv.new, done[0], done[1])
                    else:
                        still.append(lv)
                if len(still) != len(live):
                    buf["dirty"] = True
                    buf["keep"] = [k for k, lv in enumerate(live) if results[lv.row] is None]
                live = still
        return [res if res is not None else ([], 0, "length") for res in results]

    # ---- the decode batch --------------------------------------------------------------------
    def _rebuild(self, buf: dict[str, Any], live: list[_Live], joined: list[tuple[_Live, list[tuple[Any, Any]]]],
                 rows: Sequence[GenRow]) -> list[_Live]:
        """New buffers holding the live rows (those kept from the old buffers) and the joining ones, left-padded."""
        torch = require_torch()
        self.stats["rebuilds"] += 1
        keep = buf.get("keep", list(range(len(live)))) if buf.get("dirty") else list(range(len(live)))
        old_w = buf.get("width", 0)
        everyone = live + [lv for lv, _ in joined]
        width = max(lv.length for lv in everyone)
        room = max(lv.limit - len(lv.new) for lv in everyone) + 1
        cap = width + room
        layers_old = buf.get("layers") or []
        n_layers = len(layers_old) if layers_old else len(joined[0][1])
        rows_n = len(everyone)
        mask = torch.zeros((rows_n, cap), dtype=torch.long, device=self.device)
        new_layers = []
        for li in range(n_layers):
            sample = layers_old[li].kbuf if layers_old else joined[0][1][li][0]
            _, heads, _, dim = sample.shape
            kb = torch.zeros((rows_n, heads, cap, dim), dtype=sample.dtype, device=self.device)
            vb = torch.zeros_like(kb)
            if keep:
                idx = torch.tensor(keep, dtype=torch.long, device=self.device)
                ok, ov = layers_old[li].kbuf.index_select(0, idx), layers_old[li].vbuf.index_select(0, idx)
                for k, lv in enumerate(live):
                    kb[k, :, width - lv.length : width] = ok[k, :, old_w - lv.length : old_w]
                    vb[k, :, width - lv.length : width] = ov[k, :, old_w - lv.length : old_w]
            for j, (lv, kv) in enumerate(joined):
                k = len(live) + j
                kb[k, :, width - lv.length : width] = kv[li][0][0]
                vb[k, :, width - lv.length : width] = kv[li][1][0]
            new_layers.append(slot_layer(kb, vb, width))
        for k, lv in enumerate(everyone):
            mask[k, width - lv.length : width] = 1
        buf.clear()
        buf.update(layers=new_layers, width=width, mask=mask)
        return everyone

    def _step(self, buf: dict[str, Any], live: list[_Live]) -> Any:
        """One decode step of the whole batch: feeds each row's last token, returns the next-token logits."""
        torch = require_torch()
        from transformers.cache_utils import DynamicCache

        width = buf["width"]
        cache = DynamicCache()
        cache.layers = buf["layers"]
        mask = buf["mask"]
        mask[:, width] = 1
        inp = torch.tensor([[lv.last] for lv in live], dtype=torch.long, device=self.device)
        pos = torch.tensor([[lv.length] for lv in live], dtype=torch.long, device=self.device)
        out = self.model(input_ids=inp, attention_mask=mask[:, : width + 1], position_ids=pos, past_key_values=cache,
                         use_cache=True, logits_to_keep=1)
        buf["width"] = width + 1
        self.stats["decode_steps"] += 1
        return out.logits[:, -1].float()
