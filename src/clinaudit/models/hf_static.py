"""Static left-padded batches through ``model.generate``: the ``engine: static`` path of ``hf:``/``embedded``.

This is how local generation worked before the in-flight engine (:mod:`.engine`): a batch
of ``batch_size`` rows of similar length is left-padded and decoded until its longest
row is done. Each row keeps its own settings through a logits processor
(:class:`PerRowSampler`: greedy or sampling with its own ``torch.Generator``) and a
stopping criterion (:class:`PerRowStop`: end-of-sequence, its own ``max_tokens``, stop
strings). It stays as the reference the engine is tested and benchmarked against, and
as the fallback for models whose cache the engine does not handle (sliding windows,
hybrid caches).
"""

from __future__ import annotations

from typing import Any

from .engine import pick_token
from .hf_runtime import require_torch, require_transformers

__all__ = ["PerRowSampler", "PerRowStop", "generate_static_batch"]


class PerRowSampler:
    """Logits processor: each row picks its next token with its own settings and random generator.

    Greedy rows (temperature 0) keep their scores (argmax wins). Sampling rows draw
    from softmax(logits / T) restricted to the top-p nucleus, using the row's own
    ``torch.Generator``; the chosen token is then made the only finite score, so
    the surrounding greedy search picks exactly it.
    """

    def __init__(self, temperatures: list[float], top_ps: list[float | None], generators: list[Any],
                 constraints: list[Any] | None = None):
        self.temperatures, self.top_ps, self.generators = temperatures, top_ps, generators
        #: per row, the grammar state (:class:`~clinaudit.models.constrained.RowConstraint`) or None
        self.constraints = constraints or [None] * len(temperatures)
        self.calls = 0

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        out = scores.clone()
        for i, c in enumerate(self.constraints):
            if c is None:
                continue
            if self.calls:  # the token picked at the previous step
                c.accept(int(input_ids[i, -1]))
            c.restrict(out[i])
        self.calls += 1
        for i, temp in enumerate(self.temperatures):
            if temp <= 0:
                continue
            choice = pick_token(out[i], temp, self.top_ps[i], self.generators[i])
            out[i] = float("-inf")
            out[i, choice] = 0.0
        return out


class PerRowStop:
    """Stopping criterion with per-row limits: end-of-sequence, own max_tokens, stop strings."""

    def __init__(self, prompt_width: int, max_tokens: list[int], stops: list[list[str]], eos_ids: set[int], tokenizer: Any):
        self.prompt_width = prompt_width
        self.max_tokens = max_tokens
        self.stops = stops
        self.eos_ids = eos_ids
        self.tokenizer = tokenizer
        self.length: list[int | None] = [None] * len(max_tokens)  # generated tokens kept (eos excluded)
        self.reason: list[str | None] = [None] * len(max_tokens)

    def __call__(self, input_ids: Any, scores: Any = None, **kwargs: Any) -> Any:
        torch = require_torch()
        done = torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
        generated = input_ids.shape[1] - self.prompt_width
        for i in range(input_ids.shape[0]):
            if self.length[i] is not None:
                done[i] = True
                continue
            last = int(input_ids[i, -1])
            if last in self.eos_ids:
                self.length[i], self.reason[i] = generated - 1, "stop"
            elif self.stops[i] and any(
                s in self.tokenizer.decode(input_ids[i, self.prompt_width :], skip_special_tokens=True) for s in self.stops[i]
            ):
                self.length[i], self.reason[i] = generated, "stop"
            elif generated >= self.max_tokens[i]:
                self.length[i], self.reason[i] = generated, "length"
            done[i] = self.length[i] is not None
        return done


def generate_static_batch(backend: Any, rows: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    """Generate one left-padded batch with ``model.generate``; (text, completion tokens, finish reason) per row."""
    torch = require_torch()
    transformers = require_transformers()
    model, tok = backend.model, backend.tokenizer
    input_ids, attention = backend.pad([r["ids"] for r in rows], left=True)
    width = input_ids.shape[1]
    generators = []
    for r in rows:
        g = torch.Generator(device="cpu")
        g.manual_seed(int(r["seed"]) % (2**63))
        generators.append(g)
    sampler = PerRowSampler([r["temperature"] for r in rows], [r["top_p"] for r in rows], generators,
                            [r.get("constraint") for r in rows])
    eos = backend.eos_ids()
    stopper = PerRowStop(width, [r["max_tokens"] for r in rows], [r["stop"] for r in rows], eos, tok)
    max_new = max(r["max_tokens"] for r in rows)
    limit = backend.max_len()
    if limit is not None:  # prompts are cut to limit - 1 tokens, so at least one new token fits
        max_new = max(1, min(max_new, limit - width))
    config = transformers.GenerationConfig(
        max_new_tokens=max_new,
        do_sample=False,
        num_beams=1,
        temperature=1.0,
        top_p=1.0,
        repetition_penalty=1.0,
        no_repeat_ngram_size=0,
        pad_token_id=backend.pad_id(),
        eos_token_id=sorted(eos) or None,
        bos_token_id=tok.bos_token_id,
    )
    with torch.no_grad():
        seqs = model.generate(
            input_ids=input_ids,
            attention_mask=attention,
            generation_config=config,
            logits_processor=transformers.LogitsProcessorList([sampler]),
            stopping_criteria=transformers.StoppingCriteriaList([stopper]),
        )
    results = []
    for i, r in enumerate(rows):
        new = seqs[i, width:].tolist()
        length = stopper.length[i]
        reason = stopper.reason[i]
        if length is None:  # stopped by generate itself (eos through its own criterion)
            length = next((k for k, t in enumerate(new) if t in eos), len(new))
            reason = "stop" if length < len(new) else "length"
        kept = new[:length]
        text = tok.decode(kept, skip_special_tokens=True)
        cut = [text.index(s) for s in r["stop"] if s and s in text]
        if cut:
            text, reason = text[: min(cut)], "stop"
        results.append((text, len(kept), reason or "length"))
    return results
