"""Constrained decoding for ``hf:`` and ``embedded``: a request's answer grammar enforced token by token.

A request that carries an :class:`~clinaudit.grammar.OutputGrammar` (``extra["output_grammar"]``) is
decoded under it: before each token is picked, every token the grammar does not allow next gets a
score of ``-inf``; once the grammar is complete only an end-of-sequence token is allowed. Greedy and
sampled rows alike pick among the allowed tokens only, so the answer always matches the grammar
unless ``max_tokens`` runs out first.

The masks come from **llguidance** (``llguidance==1.9.1``, the grammar engine vLLM and
llama.cpp use too): a Rust library without dependencies that compiles regexes and JSON schemas
lazily against the tokenizer's vocabulary. Chosen by measurement (benchmarks/README.md,
*Constrained decoding*): it installs in 7.7 MB, works offline and with the pinned transformers,
and computes a mask for SmolLM2's 49,152 tokens in ~0.6 ms. ``outlines-core`` fetches the
vocabulary from the Hub (fails offline), ``lm-format-enforcer`` 0.11.3 does not import with
transformers 5, ``xgrammar`` pulls in triton. llguidance's own torch helper compiles a kernel with
``torch.compile`` on first use (~90 s here), so the mask is applied with plain torch indexing.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import numpy as np

from ..errors import BackendError, MissingDependencyError
from ..grammar import OutputGrammar
from .hf_runtime import require_torch

__all__ = ["GrammarCompiler", "RowConstraint", "require_llguidance", "restrict_batch"]

log = logging.getLogger("clinaudit.models.constrained")


def require_llguidance() -> Any:
    try:
        import llguidance
    except ImportError as exc:  # pragma: no cover - pinned in requirements/runtime.txt
        raise MissingDependencyError("llguidance", purpose="constrained decoding of judge answers (hf:, embedded)") \
            from exc
    return llguidance


def grammar_text(llguidance: Any, grammar: OutputGrammar) -> str:
    """llguidance's grammar for an :class:`OutputGrammar` (JSON: compact, no free whitespace)."""
    rx = grammar.regex_text()
    if rx is not None:
        return str(llguidance.LLMatcher.grammar_from_regex(rx))
    return str(llguidance.LLMatcher.grammar_from_json_schema(
        dict(grammar.schema or {}), defaults={"whitespace_flexible": False}))


class GrammarCompiler:
    """One per loaded tokenizer: the llguidance tokenizer (built once, ~2 s) and compiled grammars."""

    def __init__(self, tokenizer: Any, eos_ids: set[int], vocab_size: int):
        self.tokenizer = tokenizer
        self.eos_ids = sorted(eos_ids)
        self.vocab_size = int(vocab_size)
        self._ll: Any = None
        self._lltok: Any = None
        self._unsupported = False
        self._grammars: dict[OutputGrammar | str, str] = {}
        self._lock = threading.Lock()

    def _setup(self) -> bool:
        """Build the llguidance tokenizer once; False (and one warning) when this tokenizer cannot be wrapped."""
        if self._lltok is None and not self._unsupported:
            llguidance = require_llguidance()
            from llguidance import hf as llhf

            try:
                eos = self.eos_ids[0] if self.eos_ids else None
                self._lltok = llhf.from_tokenizer(self.tokenizer, n_vocab=self.vocab_size, eos_token=eos)
            except (ValueError, TypeError) as exc:
                self._unsupported = True
                log.warning("answer grammars cannot be enforced with this tokenizer (%s); judges fall back to "
                            "their prompt and retry-until-parsed", exc)
            self._ll = llguidance
        return self._lltok is not None

    def row(self, grammar: OutputGrammar) -> "RowConstraint | None":
        """A fresh matcher for one generated sequence (None: this tokenizer cannot be constrained)."""
        with self._lock:
            if not self._setup():
                return None
            key: OutputGrammar | str = grammar if grammar.kind != "json_schema" else str(grammar.to_dict())
            text = self._grammars.get(key)
            if text is None:
                text = self._grammars[key] = grammar_text(self._ll, grammar)
            matcher = self._ll.LLMatcher(self._lltok, text, log_level=0)
        if matcher.is_error():
            raise BackendError(f"output grammar rejected by llguidance: {matcher.get_error()}")
        return RowConstraint(matcher, self.vocab_size, self.eos_ids)


class RowConstraint:
    """The grammar state of one sequence: :meth:`restrict` its next-token scores, :meth:`accept` its token."""

    def __init__(self, matcher: Any, vocab_size: int, eos_ids: list[int]):
        self.matcher = matcher
        self.vocab_size = vocab_size
        self.eos_ids = eos_ids
        self.words = (vocab_size + 31) // 32
        self.buf = np.zeros(self.words, dtype=np.int32)

    @property
    def finished(self) -> bool:
        """The grammar is complete: nothing but end of sequence may follow."""
        return bool(self.matcher.is_stopped())

    def allowed(self) -> np.ndarray:
        """Boolean array over the vocabulary: the tokens the grammar allows next."""
        if self.matcher.is_stopped():
            out = np.zeros(self.vocab_size, dtype=bool)
            out[[e for e in self.eos_ids if e < self.vocab_size]] = True
            return out
        self.matcher.unsafe_compute_mask_ptr(self.buf.ctypes.data, self.buf.nbytes)
        bits = np.unpackbits(self.buf.view(np.uint8), bitorder="little")[: self.vocab_size].astype(bool)
        if self.matcher.is_accepting():
            bits[[e for e in self.eos_ids if e < self.vocab_size]] = True
        return bits

    def restrict(self, logits: Any) -> None:
        """Set the score of every token the grammar does not allow to ``-inf`` (in place, 1-D scores)."""
        if self.matcher.is_error():
            return  # a matcher in error (not seen: masked picks cannot fail) leaves the row free
        torch = require_torch()
        allowed = self.allowed()
        if not allowed.any():
            return
        mask = torch.from_numpy(allowed).to(logits.device)
        n = min(logits.shape[-1], mask.shape[0])
        logits[..., :n].masked_fill_(~mask[:n], float("-inf"))
        if logits.shape[-1] > n:
            logits[..., n:] = float("-inf")

    def accept(self, token: int) -> None:
        """Advance the grammar by the picked token (an end-of-sequence token ends the row instead)."""
        if token in self.eos_ids or self.matcher.is_error() or self.matcher.is_stopped():
            return
        self.matcher.consume_token(int(token))


_EXECUTOR: Any = None


def _executor() -> Any:
    """llguidance's thread pool that computes the masks of many matchers in one call (made once)."""
    global _EXECUTOR
    if _EXECUTOR is None:
        _EXECUTOR = require_llguidance().LLExecutor()
    return _EXECUTOR


def restrict_batch(constraints: list[RowConstraint], logits: Any, rows: list[int]) -> None:
    """:meth:`RowConstraint.restrict` for many rows at once: ``logits[rows[j]]`` restricted to what
    ``constraints[j]`` allows, the masks computed in ONE llguidance call (its thread pool, over every matcher)
    into one bitmask that is copied to the logits' device once and applied there. The same masks as
    :meth:`RowConstraint.restrict` row by row (tested): after the grammar is complete only end of sequence,
    end of sequence also where the grammar may end; a matcher in error, or one that allows nothing, leaves
    its row free."""
    if not constraints:
        return
    torch = require_torch()
    vocab = constraints[0].vocab_size
    words = (vocab + 31) // 32
    bits = np.zeros((len(constraints), words), dtype=np.int32)
    todo = [(c.matcher, j) for j, c in enumerate(constraints)
            if not c.matcher.is_error() and not c.matcher.is_stopped()]
    if todo:
        _executor().unsafe_compute_mask_ptr(todo, bits.ctypes.data, words * 4, len(constraints))
    view = bits.view(np.uint32)
    free: list[int] = []
    for j, c in enumerate(constraints):
        m = c.matcher
        if m.is_error():
            free.append(j)
            continue
        eos = [e for e in c.eos_ids if e < vocab]
        if m.is_stopped():
            view[j] = 0
        if m.is_stopped() or m.is_accepting():
            for e in eos:
                view[j, e >> 5] |= np.uint32(1 << (e & 31))
        if not view[j].any():
            free.append(j)
    dev = logits.device
    mask_t = torch.from_numpy(bits).to(dev)
    shifts = torch.arange(32, dtype=torch.int32, device=dev)
    allowed = ((mask_t.unsqueeze(-1) >> shifts) & 1).bool().reshape(len(constraints), words * 32)
    n = min(logits.shape[-1], vocab)
    full = torch.zeros((len(constraints), logits.shape[-1]), dtype=torch.bool, device=dev)
    full[:, :n] = allowed[:, :n]
    if free:
        full[torch.tensor(free, dtype=torch.long, device=dev)] = True
    idx = torch.tensor(rows, dtype=torch.long, device=dev)
    logits[idx] = logits.index_select(0, idx).masked_fill(~full, float("-inf"))
