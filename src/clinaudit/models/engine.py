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
    span: int = 0  # buffer columns from its first cache column to the end of its cache (holes included)


@dataclass
class _Group:
    """Rows prefilled together in one forward: their cache ``[rows, heads, prefix + width, dim]`` and mask."""

    kv: list[Any]  # per layer (keys, values); None once copied into the decode batch
    mask: Any
    members: list[tuple[int, _Live]] = field(default_factory=list)  # (row in the group's tensors, live row)


#: greedy decode steps between two looks at the generated tokens on the host, on CUDA (on a CPU: every step)
CUDA_SYNC_EVERY = 8
#: decode steps a rebuilt batch has room for before it is rebuilt wider (its key/value buffers are sized for
#: the prompts and these steps, not for every row's max_tokens)
ROOM_STEPS = 64
#: padded prompt tokens (rows x longest remaining prompt) one prefill forward takes at most
PREFILL_TOKENS = 8192


class GenerationEngine:
    """In-flight batched decoding with prefix reuse for one causal LM (see the module docstring)."""

    def __init__(self, model: Any, tokenizer: Any, *, max_batch: int, eos_ids: set[int], max_len: int | None,
                 min_shared: int = 16, device: str = "cpu", sync_every: int | None = None,
                 prefill_tokens: int = PREFILL_TOKENS, pad_id: int = 0):
        self.model, self.tokenizer = model, tokenizer
        self.max_batch = max(1, int(max_batch))
        self.eos = set(eos_ids)
        self.max_len = max_len
        self.min_shared = min_shared
        self.device = device
        if sync_every is None:
            sync_every = CUDA_SYNC_EVERY if str(device).startswith("cuda") else 1
        self.sync_every = max(1, int(sync_every))
        self.prefill_tokens = max(1, int(prefill_tokens))
        self.pad_id = int(pad_id)
        self.stats = {"prefill_tokens": 0, "reused_tokens": 0, "decode_steps": 0, "rebuilds": 0,
                      "prefill_forwards": 0, "host_syncs": 0}

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
        self.stats["prefill_forwards"] += 1
        new_kv = [(layer.keys, layer.values) for layer in out.past_key_values.layers]
        return new_kv, out.logits[0, -1].float()

    def _prefill(self, prefix: list[tuple[Any, Any]] | None, start: int,
                 suffixes: list[list[int]]) -> tuple[list[tuple[Any, Any]], Any, Any]:
        """One forward for several rows on top of one shared prefix cache (``start`` tokens, or none).

        The suffixes are left-padded to the longest: row ``g``'s cache is ``[prefix | padding | its suffix]``,
        the padding masked out (``mask``, ``[rows, start + width]``) and its positions ``start...`` counted
        from the end of the prefix, so that its last column gives its first logits. Returns (per-layer kv,
        mask, last logits ``[rows, vocab]``)."""
        torch = require_torch()
        width = max(len(s) for s in suffixes)
        rows = len(suffixes)
        inp = [[self.pad_id] * (width - len(s)) + list(s) for s in suffixes]
        pos = [[start] * (width - len(s)) + list(range(start, start + len(s))) for s in suffixes]
        mask = [[1] * start + [0] * (width - len(s)) + [1] * len(s) for s in suffixes]
        inp_t = torch.tensor(inp, dtype=torch.long, device=self.device)
        pos_t = torch.tensor(pos, dtype=torch.long, device=self.device)
        mask_t = torch.tensor(mask, dtype=torch.long, device=self.device)
        if prefix is None:
            cache = self._cache(None)
        else:
            cache = self._cache([(k.expand(rows, -1, -1, -1), v.expand(rows, -1, -1, -1)) for k, v in prefix])
        out = self.model(input_ids=inp_t, attention_mask=mask_t, position_ids=pos_t, past_key_values=cache,
                         use_cache=True, logits_to_keep=1)
        self.stats["prefill_tokens"] += sum(len(s) for s in suffixes)
        self.stats["prefill_forwards"] += 1
        kv = [(layer.keys, layer.values) for layer in out.past_key_values.layers]
        return kv, mask_t, out.logits[:, -1]

    # ---- picking tokens ---------------------------------------------------------------------
    def _pick(self, rows: Sequence[GenRow], logits: Any, generators: Sequence[Any]) -> list[int]:
        """The next token of each row (``logits[k]`` is row ``rows[k]``'s): the grammars' masks applied in one
        call for the whole batch, one argmax for every greedy row, a draw with its own generator for each
        sampling row; then each grammar advanced by its token."""
        torch = require_torch()
        logits = logits.float()
        constrained = [(k, r.constraint) for k, r in enumerate(rows) if r.constraint is not None]
        if constrained:
            from .constrained import restrict_batch

            restrict_batch([c for _, c in constrained], logits, [k for k, _ in constrained])
        toks = torch.argmax(logits, dim=-1).tolist()  # the host sync of this step
        for k, r in enumerate(rows):
            if r.temperature > 0:
                toks[k] = pick_token(logits[k], r.temperature, r.top_p, generators[k])
            if r.constraint is not None:
                r.constraint.accept(toks[k])
        return toks

    # ---- the loop -------------------------------------------------------------------------
    def run(self, rows: Sequence[GenRow],
            on_row: Callable[[int, tuple[list[int], int, str]], None] | None = None) -> list[tuple[list[int], int, str]]:
        """Generate every row: ``(generated ids, tokens kept, finish reason)`` per row, in input order.

        ``on_row(i, result)`` is called for each row as soon as it is done (a row that finishes early is
        handed back while the others still decode)."""
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

        def finish(i: int, res: tuple[list[int], int, str]) -> None:
            results[i] = res
            if on_row is not None:
                on_row(i, res)

        def advance(lv: _Live, toks: Sequence[int]) -> bool:
            """Append the row's new tokens (one per step fed) until it is done: True when it is."""
            r = rows[lv.row]
            for tok in toks:
                lv.new.append(tok)
                lv.last = tok
                done = stop_check(lv.new, lv.limit, r.stop, self.eos, decode, r.constraint)
                if done is not None:
                    finish(lv.row, (lv.new, done[0], done[1]))
                    return True
            return False

        def groups(take: list[int]) -> list[list[int]]:
            """Consecutive joining rows on the same prefix node, at most ``prefill_tokens`` padded tokens each."""
            out: list[list[int]] = []
            for i in take:
                g = out[-1] if out else None
                b = base[i]
                if g is not None and base[g[0]] == b:
                    start = nodes[b].end if b is not None else 0
                    width = max(len(rows[j].ids) for j in [*g, i]) - start
                    if width * (len(g) + 1) <= self.prefill_tokens:
                        g.append(i)
                        continue
                out.append([i])
            return out

        with torch.no_grad():
            while waiting or live:
                joined: list[_Group] = []
                take: list[int] = []
                while waiting and len(live) + len(take) < self.max_batch:
                    take.append(waiting.pop())
                for members in groups(take):
                    b = base[members[0]]
                    start = nodes[b].end if b is not None else 0
                    prefix = node_cache(b) if b is not None else None
                    kv, mask, logits = self._prefill(prefix, start, [rows[i].ids[start:] for i in members])
                    self.stats["reused_tokens"] += start * len(members)
                    for _ in members:
                        release(b)
                    gens = []
                    for i in members:
                        gen = torch.Generator(device="cpu")
                        gen.manual_seed(int(rows[i].seed) % (2**63))
                        gens.append(gen)
                    toks = self._pick([rows[i] for i in members], logits, gens)
                    group = _Group(kv=kv, mask=mask)
                    for g, i in enumerate(members):
                        r = rows[i]
                        lv = _Live(row=i, length=len(r.ids), last=toks[g], new=[], limit=row_limit(r),
                                   generator=gens[g], span=int(mask.shape[1]))
                        if not advance(lv, [toks[g]]):
                            group.members.append((g, lv))
                    if group.members:
                        joined.append(group)
                if joined or buf.get("dirty"):
                    live = self._rebuild(buf, live, joined)
                if not live:
                    continue
                if buf["width"] + self.sync_every >= buf["mask"].shape[1]:  # out of room: rebuilt wider
                    live = self._rebuild(buf, live, [])
                fast = all(rows[lv.row].constraint is None and rows[lv.row].temperature <= 0 for lv in live)
                if fast:  # greedy, no grammar: the tokens stay on the device for up to sync_every steps
                    steps = min(self.sync_every, min(lv.limit - len(lv.new) for lv in live))
                    picked = []
                    for _ in range(steps):
                        tok = self._step(buf).argmax(dim=-1)
                        picked.append(tok)
                        buf["last"] = tok.unsqueeze(1)
                    host = torch.stack(picked, dim=1).tolist()  # the one host sync of these steps
                else:
                    steps = 1
                    logits = self._step(buf)
                    host = [[t] for t in self._pick([rows[lv.row] for lv in live], logits,
                                                    [lv.generator for lv in live])]
                    buf["last"] = torch.tensor(host, dtype=torch.long, device=self.device)
                self.stats["host_syncs"] += 1
                still: list[_Live] = []
                keep: list[int] = []
                for k, lv in enumerate(live):
                    lv.length += steps
                    lv.span += steps
                    if not advance(lv, host[k]):
                        still.append(lv)
                        keep.append(k)
                if len(still) != len(live):
                    buf["dirty"] = True
                    buf["keep"] = keep
                live = still
        return [res if res is not None else ([], 0, "length") for res in results]

    # ---- the decode batch --------------------------------------------------------------------
    def _rebuild(self, buf: dict[str, Any], live: list[_Live], joined: list[_Group]) -> list[_Live]:
        """New buffers holding the live rows (those kept from the old buffers) and the joining groups.

        Every row's cache ends at the same column ``width``; what lies left of it is either masked padding
        or (a row prefilled on a shared prefix) its prefix, masked padding, then its own tokens. Each layer
        is copied with one slice per source (the kept rows, each joining group), not one per row."""
        torch = require_torch()
        self.stats["rebuilds"] += 1
        keep = buf.get("keep", list(range(len(live)))) if buf.get("dirty") else list(range(len(live)))
        old_w = buf.get("width", 0)
        everyone = live + [lv for grp in joined for _, lv in grp.members]
        width = max(lv.span for lv in everyone)
        # room for the next ROOM_STEPS tokens, not for every row's whole max_tokens (a judge's 256 for a label of
        # a few tokens): a batch that runs out of room is rebuilt wider (run())
        room = min(max(lv.limit - len(lv.new) for lv in everyone), max(ROOM_STEPS, self.sync_every)) + 1
        cap = width + room
        layers_old = buf.get("layers") or []
        n_layers = len(layers_old) if layers_old else len(joined[0].kv)
        rows_n = len(everyone)
        idx = torch.tensor(keep, dtype=torch.long, device=self.device) if live else None
        n_old = min(old_w, width)
        sels = [torch.tensor([g for g, _ in grp.members], dtype=torch.long, device=self.device) for grp in joined]
        mask = torch.zeros((rows_n, cap), dtype=torch.long, device=self.device)
        if live:
            mask[: len(live), width - n_old : width] = buf["mask"].index_select(0, idx)[:, old_w - n_old : old_w]
        r0 = len(live)
        for grp, sel in zip(joined, sels):
            w = grp.mask.shape[1]
            mask[r0 : r0 + len(sel), width - w : width] = grp.mask.index_select(0, sel)
            r0 += len(sel)
        new_layers = []
        shapes = [(layers_old[li].kbuf if layers_old else joined[0].kv[li][0]).shape for li in range(n_layers)]
        dtype = (layers_old[0].kbuf if layers_old else joined[0].kv[0][0]).dtype
        for li in range(n_layers):
            _, heads, _, dim = shapes[li]
            kb = torch.zeros((rows_n, heads, cap, dim), dtype=dtype, device=self.device)
            vb = torch.zeros_like(kb)
            if live:
                old = layers_old[li]
                kb[: len(live), :, width - n_old : width] = old.kbuf.index_select(0, idx)[:, :, old_w - n_old : old_w]
                vb[: len(live), :, width - n_old : width] = old.vbuf.index_select(0, idx)[:, :, old_w - n_old : old_w]
                layers_old[li] = None  # copied: freed now, so old and new buffers never all exist at once
            r0 = len(live)
            for grp, sel in zip(joined, sels):
                k, v = grp.kv[li]
                w = k.shape[2]
                kb[r0 : r0 + len(sel), :, width - w : width] = k.index_select(0, sel)
                vb[r0 : r0 + len(sel), :, width - w : width] = v.index_select(0, sel)
                grp.kv[li] = None  # (the same for a joining group's prefill cache)
                r0 += len(sel)
            new_layers.append(slot_layer(kb, vb, width))
        buf.clear()
        buf.update(layers=new_layers, width=width, mask=mask,
                   last=torch.tensor([[lv.last] for lv in everyone], dtype=torch.long, device=self.device),
                   pos=torch.tensor([[lv.length] for lv in everyone], dtype=torch.long, device=self.device))
        return everyone

    def _step(self, buf: dict[str, Any]) -> Any:
        """One decode step of the whole batch: feeds each row's last token (``buf["last"]``, on the device),
        returns the next-token logits ``[rows, vocab]``; nothing is read back to the host."""
        from transformers.cache_utils import DynamicCache

        width = buf["width"]
        cache = DynamicCache()
        cache.layers = buf["layers"]
        mask = buf["mask"]
        mask[:, width] = 1
        out = self.model(input_ids=buf["last"], attention_mask=mask[:, : width + 1], position_ids=buf["pos"],
                         past_key_values=cache, use_cache=True, logits_to_keep=1)
        buf["width"] = width + 1
        buf["pos"] = buf["pos"] + 1
        self.stats["decode_steps"] += 1
        return out.logits[:, -1]
