"""Local Hugging Face models (transformers), batched, offline.

Three backends:

``hf:<path-or-name>`` - :class:`HFCausalBackend`
    A causal (decoder) language model: text generation and sentence
    log-likelihoods. Chat requests use the tokenizer's chat template when it has
    one; otherwise the message texts are joined into a plain prompt.
    ``temperature == 0`` decodes greedily; otherwise tokens are sampled with a
    random generator seeded from the request's own seed (and the sample index
    for ``n > 1``), so a request's output depends only on its own prompt, seed
    and settings - never on which other requests share its batch.

``hf-mlm:<path>`` - :class:`HFMaskedBackend`
    A masked language model (BERT-style): log-probabilities of target tokens
    at ``[MASK]`` positions (:meth:`~HFMaskedBackend.masked_logprobs`) and
    mean-pooled sentence embeddings.

``hf-embed:<path>`` - :class:`HFEncoderBackend`
    An encoder used as a feature extractor: the concatenated ``[CLS]`` vectors
    of the last four layers (the representation used by the HurtfulWords probes).

Weights are never downloaded: everything loads with ``local_files_only=True``.
Pass a local directory (``hf:/models/my-llama``) or the name of a model that
is already in the local Hugging Face cache. All scoring runs under
``torch.no_grad()`` in batches of ``batch_size`` (option; defaults 8 for
generation, 32 for scoring).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import BackendError
from ..grammar import grammar_of
from ..records import ModelRequest, ModelResponse
from .base import Backend, MaskedItem, register_backend
from .options import HFOptions
from .constrained import GrammarCompiler
from .engine import GenerationEngine, GenRow, supports_engine
from .hf_runtime import (
    AUTO_CONTEXT,
    dir_fingerprint,
    follow_thread_budget,
    require_torch,
    require_transformers,
    rows_that_fit,
)
from .hf_scoring import masked_head_logprobs, prefix_logliks
from .hf_static import generate_static_batch

__all__ = ["HFCausalBackend", "HFMaskedBackend", "HFEncoderBackend", "sample_seed", "ENGINES"]

#: generation engines of ``hf:``/``embedded``: in-flight batching with prefix reuse, or static padded batches
ENGINES = ("continuous", "static")


def sample_seed(seed: int | None, index: int) -> int:
    """Seed of the ``index``-th sample of a request: the request seed itself for the first sample."""
    base = 0 if seed is None else int(seed)
    if index == 0:
        return base
    digest = hashlib.sha256(f"clinaudit-sample|{base}|{index}".encode()).hexdigest()
    return int(digest[:15], 16)


class _HFBase(Backend):
    """Shared loading and batching for the transformers backends."""

    name = "hf"
    default_batch_size = 32

    def __init__(
        self,
        spec: str,
        *,
        batch_size: int | None = None,
        device: str = "cpu",
        dtype: str = "float32",
        max_length: int | None = None,
        trust_remote_code: bool = False,
        **options: Any,
    ):
        super().__init__(spec, **options)
        self.batch_size = int(batch_size or self.default_batch_size)
        if self.batch_size < 1:
            raise BackendError(f"batch_size must be >= 1, got {batch_size}")
        self.device = device
        self.dtype = dtype
        self.max_length = max_length
        self.trust_remote_code = trust_remote_code
        self.source = self._resolve_source()
        self._model: Any = None
        self._tokenizer: Any = None
        self._counter: Any = None  # a tokenizer loaded without the weights, for count_tokens
        self._load_lock = threading.Lock()

    # ---- where the weights are ------------------------------------------------------
    def _resolve_source(self) -> str:
        """Local folder (absolute) or a model name found in the local Hugging Face cache."""
        arg = self.spec.partition(":")[2].strip()
        if not arg:
            raise BackendError(f"spec '{self.spec}' needs a model path: {self.spec.partition(':')[0]}:<path-or-name>")
        path = Path(arg).expanduser()
        if path.is_dir():
            if not (path / "config.json").is_file():
                raise BackendError(f"model folder {path} has no config.json; is it a Hugging Face model folder?")
            return str(path.resolve())
        # Hub names look like "org/name"; anything else (./x, /x, ~/x, a/b/c) is a path that does not exist.
        looks_like_path = arg.startswith((".", "/", "~")) or os.path.isabs(arg) or arg.count("/") > 1
        if not looks_like_path:
            try:
                from huggingface_hub import try_to_load_from_cache

                found = try_to_load_from_cache(arg, "config.json")
            except Exception:  # noqa: BLE001 - any failure means "not available locally"
                found = None
            if isinstance(found, str):
                return arg
        raise BackendError(
            f"model '{arg}' was not found locally. Model weights cannot be downloaded here (offline); "
            f"download them elsewhere and pass a local folder: {self.spec.partition(':')[0]}:/path/to/model"
        )

    def identity(self) -> str:
        path = Path(self.source)
        if path.is_dir():
            return f"{self.spec.partition(':')[0]}:{self.source}#{dir_fingerprint(path)}{self.dtype_tag()}"
        return self.spec + self.dtype_tag()

    def dtype_tag(self) -> str:
        """``#bfloat16`` etc. in the cache identity when the weights are not float32: another dtype gives other
        answers (bfloat16 changed 9 of 16 greedy answers of ``embedded``), so its answers are cached apart."""
        return "" if str(self.dtype) == "float32" else f"#{self.dtype}"

    def describe(self) -> dict[str, Any]:
        return {"spec": self.spec, "backend": self.name, "source": self.source, "device": self.device,
                "dtype": self.dtype, "batch_size": self.batch_size}

    # ---- loading ---------------------------------------------------------------------
    def _load_model(self, transformers: Any, torch: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def prepare(self) -> None:
        self._load()

    def _load(self) -> None:
        with self._load_lock:
            if self._model is not None:
                return
            torch = require_torch()
            transformers = require_transformers()
            try:
                tok = transformers.AutoTokenizer.from_pretrained(
                    self.source, local_files_only=True, trust_remote_code=self.trust_remote_code
                )
                model = self._load_model(transformers, torch)
            except OSError as exc:
                raise BackendError(
                    f"could not load '{self.source}' locally ({exc.__class__.__name__}: {str(exc)[:300]}). "
                    "Model weights cannot be downloaded here; pass a complete local model folder."
                ) from None
            model.to(self.device)
            model.eval()
            follow_thread_budget(model)
            self._tokenizer = tok
            self._model = model

    def _torch_dtype(self, torch: Any) -> Any:
        dt = getattr(torch, str(self.dtype), None)
        if not isinstance(dt, torch.dtype):
            raise BackendError(f"unknown dtype '{self.dtype}' (use float32, bfloat16 or float16)")
        return dt

    @property
    def model(self) -> Any:
        self._load()
        return self._model

    @property
    def tokenizer(self) -> Any:
        self._load()
        return self._tokenizer

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` without special tokens; loads only the tokenizer when the weights are not loaded.

        Reading cached answers (a re-run) then costs a tokenizer load, not a model load.
        """
        if self._model is None:
            counter = self._token_counter()
            if counter is not None:
                return counter(text)
        return len(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def _token_counter(self) -> Any:
        """A ``str -> int`` counter from the tokenizer alone (``None``: load the model instead)."""
        with self._load_lock:
            if self._counter is None:
                transformers = require_transformers()
                try:
                    tok = transformers.AutoTokenizer.from_pretrained(
                        self.source, local_files_only=True, trust_remote_code=self.trust_remote_code)
                except OSError:
                    return None  # _load raises the clear error
                self._counter = lambda text: len(tok(text, add_special_tokens=False)["input_ids"])
            return self._counter

    def pad_id(self) -> int:
        tok = self.tokenizer
        for cand in (tok.pad_token_id, tok.eos_token_id, tok.unk_token_id):
            if cand is not None:
                return int(cand)
        return 0

    def max_len(self) -> int | None:
        if self.max_length:
            return int(self.max_length)
        n = getattr(self.model.config, "max_position_embeddings", None)
        return int(n) if n else None

    def batches(self, lengths: Sequence[int]) -> list[list[int]]:
        """Indices grouped into batches of similar length (less padding), each of at most batch_size."""
        order = sorted(range(len(lengths)), key=lambda i: lengths[i])
        return [order[i : i + self.batch_size] for i in range(0, len(order), self.batch_size)]

    def pad(self, seqs: Sequence[Sequence[int]], *, left: bool) -> tuple[Any, Any]:
        torch = require_torch()
        width = max(len(s) for s in seqs)
        ids = torch.full((len(seqs), width), self.pad_id(), dtype=torch.long)
        mask = torch.zeros((len(seqs), width), dtype=torch.long)
        for i, s in enumerate(seqs):
            if not s:
                continue
            t = torch.tensor(list(s), dtype=torch.long)
            if left:
                ids[i, width - len(s) :], mask[i, width - len(s) :] = t, 1
            else:
                ids[i, : len(s)], mask[i, : len(s)] = t, 1
        return ids.to(self.device), mask.to(self.device)


# ============================================================================ causal LMs


@register_backend("hf", capabilities=["generate", "loglik"], options_model=HFOptions,
                  summary="local Hugging Face causal LM, batched: hf:<path-or-name>")
class HFCausalBackend(_HFBase):
    """Local causal LM: batched generation (greedy or per-request seeded sampling) and log-likelihoods."""

    name = "hf"
    default_batch_size = 8
    #: sequences the in-flight engine decodes together when ``max_batch`` is not given (None: ``batch_size``)
    default_max_batch: int | None = None

    def __init__(self, spec: str, *, engine: str = "continuous", min_shared_prefix: int = 16,
                 max_batch: int | None = None, sync_every: int | None = None, **options: Any):
        if engine not in ENGINES:
            raise BackendError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
        if max_batch is not None and int(max_batch) < 1:
            raise BackendError(f"max_batch must be >= 1, got {max_batch}")
        self.engine = engine
        self.min_shared_prefix = int(min_shared_prefix)
        self._max_batch = None if max_batch is None else int(max_batch)
        self._auto_max_batch: int | None = None
        #: greedy decode steps between two host reads of the tokens (None: 1 on a CPU, 8 on CUDA)
        self.sync_every = None if sync_every is None else int(sync_every)
        self._engine_ok: bool | None = None
        self._grammars: GrammarCompiler | None = None
        self.last_engine_stats: dict[str, int] = {}
        self.last_loglik_stats: dict[str, int] = {}
        super().__init__(spec, **options)

    @property
    def max_batch(self) -> int:
        """Sequences the in-flight engine decodes together (option ``max_batch``; default ``batch_size``,
        for ``embedded`` at least 32; on CUDA, as many as the free GPU memory holds: :meth:`memory_max_batch`)."""
        if self._max_batch:
            return self._max_batch
        floor = max(self.default_max_batch or 0, self.batch_size)
        if str(self.device).startswith("cuda"):
            if self._auto_max_batch is None:
                self._auto_max_batch = max(floor, self.memory_max_batch())
            return self._auto_max_batch
        return floor

    def memory_max_batch(self, context: int | None = None) -> int:
        """Rows whose key/value caches fit in the GPU's free memory now (:func:`.hf_runtime.rows_that_fit`)."""
        torch = require_torch()
        free, _total = torch.cuda.mem_get_info(torch.device(self.device))
        ctx = int(context or min(self.max_len() or AUTO_CONTEXT, AUTO_CONTEXT))
        return rows_that_fit(free, self.model.config, torch.empty((), dtype=self._torch_dtype(torch)).element_size(), ctx)

    @property
    def submit_size(self) -> int:
        """How many requests the runner hands to one :meth:`generate` call: the in-flight engine keeps
        ``max_batch`` rows decoding and lets waiting ones join, so it is given a wider window."""
        if self.engine != "continuous":
            return self.batch_size
        return max(4 * self.batch_size, 2 * self.max_batch)

    def _load_model(self, transformers: Any, torch: Any) -> Any:
        return transformers.AutoModelForCausalLM.from_pretrained(
            self.source, local_files_only=True, dtype=self._torch_dtype(torch), trust_remote_code=self.trust_remote_code
        )

    # ---- prompts -----------------------------------------------------------------------
    def prompt_ids(self, request: ModelRequest) -> list[int]:
        """Token ids of the prompt: chat template when available, else the plain text."""
        tok = self.tokenizer
        if request.kind == "chat" and request.messages and getattr(tok, "chat_template", None):
            text = tok.apply_chat_template(
                [{"role": m.role, "content": m.content} for m in request.messages],
                tokenize=False,
                add_generation_prompt=True,
            )
            ids = tok(text, add_special_tokens=False)["input_ids"]
        else:
            if request.prompt is not None:
                text = request.prompt
            else:
                text = "\n\n".join(m.content for m in request.messages)
            ids = tok(text, add_special_tokens=True)["input_ids"]
        limit = self.max_len()
        if limit is not None and len(ids) >= limit:
            ids = ids[-(limit - 1) :] if limit > 1 else ids[-1:]  # keep the end of an over-long prompt
        return list(ids)

    def eos_ids(self) -> set[int]:
        ids: set[int] = set()
        for src in (self.model.generation_config.eos_token_id, self.tokenizer.eos_token_id):
            if src is None:
                continue
            ids.update(int(x) for x in (src if isinstance(src, (list, tuple)) else [src]))
        return ids

    # ---- generation ----------------------------------------------------------------------
    #: ``generate`` takes ``on_response(index, response)`` and calls it for each request as soon as its answer is
    #: done (the runner stores it and moves the progress bar then, not when the whole batch ends)
    streams_answers = True
    batches_calls = True

    def generate(self, requests: Sequence[ModelRequest],
                 on_response: Callable[[int, ModelResponse], None] | None = None) -> list[ModelResponse]:
        rows: list[dict[str, Any]] = []  # one per generated sequence
        prompt_lens: list[int] = []
        for r_i, req in enumerate(requests):
            if req.kind not in ("chat", "completion"):
                raise BackendError(f"backend '{self.name}' cannot answer a '{req.kind}' request with generate()")
            ids = self.prompt_ids(req)
            prompt_lens.append(len(ids))
            n = max(1, int(req.n))
            sampling = req.temperature > 0
            grammar = grammar_of(req)
            for j in range(n if sampling else 1):
                rows.append({"req": r_i, "sample": j, "ids": ids, "temperature": float(req.temperature),
                             "top_p": req.top_p, "seed": sample_seed(req.seed, j), "max_tokens": max(1, int(req.max_tokens)),
                             "stop": list(req.stop or []),
                             "constraint": None if grammar is None else self.grammars().row(grammar)})
        results: list[tuple[str, int, str] | None] = [None] * len(rows)
        mine: dict[int, list[int]] = {}
        for k, row in enumerate(rows):
            mine.setdefault(row["req"], []).append(k)
        left = {r_i: len(ks) for r_i, ks in mine.items()}
        out: list[ModelResponse | None] = [None] * len(requests)

        def respond(r_i: int) -> None:
            req = requests[r_i]
            done = sorted((rows[k]["sample"], results[k]) for k in mine[r_i])
            texts = [res[0] for _, res in done if res is not None]
            ntoks = [res[1] for _, res in done if res is not None]
            reasons = [res[2] for _, res in done if res is not None]
            if len(texts) == 1 and req.n > 1:  # greedy: n identical choices
                texts, ntoks, reasons = texts * req.n, ntoks * req.n, reasons * req.n
            resp = out[r_i] = ModelResponse(request_key="", model=self.spec, text=texts[0], choices=texts,
                                            prompt_tokens=prompt_lens[r_i], completion_tokens=int(sum(ntoks)),
                                            finish_reason=reasons[0])
            if on_response is not None:
                on_response(r_i, resp)

        def row_done(k: int, res: tuple[str, int, str]) -> None:
            results[k] = res
            r_i = rows[k]["req"]
            left[r_i] -= 1
            if not left[r_i]:
                respond(r_i)

        if self.use_engine():
            self._generate_engine(rows, row_done)
        else:
            for batch in self.batches([len(r["ids"]) for r in rows]):
                for idx, res in zip(batch, generate_static_batch(self, [rows[i] for i in batch])):
                    row_done(idx, res)
        return [resp for resp in out if resp is not None]

    def grammars(self) -> GrammarCompiler:
        """The answer-grammar compiler of this model's tokenizer (:mod:`.constrained`), made on first use."""
        if self._grammars is None:
            self._grammars = GrammarCompiler(self.tokenizer, self.eos_ids(), int(self.model.config.vocab_size))
        return self._grammars

    def use_engine(self) -> bool:
        """True when generation runs on the in-flight engine (option ``engine: continuous`` and a model it handles)."""
        if self.engine != "continuous":
            return False
        if self._engine_ok is None:
            self._engine_ok = supports_engine(self.model)
        return self._engine_ok

    def _generate_engine(self, rows: list[dict[str, Any]],
                         row_done: Callable[[int, tuple[str, int, str]], None]) -> None:
        """Every row through the in-flight engine; ``row_done(k, (text, tokens, finish reason))`` as each ends."""
        engine = GenerationEngine(self.model, self.tokenizer, max_batch=self.max_batch, eos_ids=self.eos_ids(),
                                  max_len=self.max_len(), min_shared=self.min_shared_prefix, device=self.device,
                                  sync_every=self.sync_every, pad_id=self.pad_id())
        gen_rows = [GenRow(ids=r["ids"], temperature=r["temperature"], top_p=r["top_p"], seed=r["seed"],
                           max_tokens=r["max_tokens"], stop=r["stop"], constraint=r["constraint"]) for r in rows]

        def done(k: int, res: tuple[list[int], int, str]) -> None:
            new, kept, reason = res
            text = self.tokenizer.decode(new[:kept], skip_special_tokens=True)
            cut = [text.index(s) for s in rows[k]["stop"] if s and s in text]
            if cut:
                text, reason = text[: min(cut)], "stop"
            row_done(k, (text, kept, reason))

        engine.run(gen_rows, on_row=done)
        self.last_engine_stats = dict(engine.stats)

    # ---- log-likelihood --------------------------------------------------------------------
    def _bos_id(self) -> int:
        tok = self.tokenizer
        for cand in (tok.bos_token_id, self.model.config.bos_token_id, tok.eos_token_id):
            if cand is not None:
                return int(cand[0] if isinstance(cand, (list, tuple)) else cand)
        raise BackendError(f"model '{self.source}' has neither a BOS nor an EOS token to condition on")

    def loglik(self, texts: Sequence[str]) -> np.ndarray:
        """Total log-probability (natural log) of each text's tokens given a BOS token.

        ``loglik(t) = sum_i log p(token_i | BOS, token_1..token_{i-1})``; an empty
        text scores 0. Texts longer than the model's context keep their start.
        """
        torch = require_torch()
        tok, model = self.tokenizer, self.model
        bos = self._bos_id()
        limit = self.max_len()
        seqs = []
        for t in texts:
            ids = [bos] + list(tok(t, add_special_tokens=False)["input_ids"])
            if limit is not None and len(ids) > limit:
                ids = ids[:limit]
            seqs.append(ids)
        with torch.no_grad():
            # shared prefixes are scored once on the engine's models (engine: static turns that off too)
            shared = self.min_shared_prefix if self.use_engine() else 1 << 30
            out, stats = prefix_logliks(model, seqs, pad=self.pad, batches=self.batches, min_shared=shared,
                                        device=self.device)
        self.last_loglik_stats = stats
        return out


# ============================================================================ masked LMs


@register_backend("hf-mlm", capabilities=["masked_logprobs", "embed"], options_model=HFOptions,
                  summary="local Hugging Face masked LM (token log-probs at [MASK], batched): hf-mlm:<path>")
class HFMaskedBackend(_HFBase):
    """Local masked LM: log-probs of target tokens at mask positions, and mean-pooled embeddings."""

    name = "hf-mlm"
    default_batch_size = 32

    def _load_model(self, transformers: Any, torch: Any) -> Any:
        return transformers.AutoModelForMaskedLM.from_pretrained(
            self.source, local_files_only=True, dtype=self._torch_dtype(torch), trust_remote_code=self.trust_remote_code
        )

    def _encode(self, texts: Sequence[str]) -> list[list[int]]:
        limit = self.max_len()
        out = []
        for t in texts:
            ids = list(self.tokenizer(t, add_special_tokens=True)["input_ids"])
            if limit is not None and len(ids) > limit:
                raise BackendError(f"text is {len(ids)} tokens, longer than the model's {limit}: {t[:80]!r}")
            out.append(ids)
        return out

    def masked_logprobs(self, items: Sequence[MaskedItem]) -> np.ndarray:
        """For each item: sum over its mask positions ``i`` of ``log softmax(logits at mask i)[targets[i]]``.

        Mask positions are taken in order of appearance; an item must have exactly
        one target id per mask token in its text.
        """
        torch = require_torch()
        tok, model = self.tokenizer, self.model
        mask_id = tok.mask_token_id
        if mask_id is None:
            raise BackendError(f"tokenizer of '{self.source}' has no mask token; is this a masked LM?")
        seqs = self._encode([it.text for it in items])
        vocab = model.config.vocab_size
        positions: list[list[int]] = []
        for n, (it, ids) in enumerate(zip(items, seqs)):
            pos = [k for k, t in enumerate(ids) if t == mask_id]
            if it.score_masks is not None:  # only some masks are scored (the others stay masked)
                if len(set(it.score_masks)) != len(it.score_masks) or any(
                    not (0 <= int(j) < len(pos)) for j in it.score_masks
                ):
                    raise BackendError(
                        f"masked item {n}: score_masks {list(it.score_masks)} do not index the text's "
                        f"{len(pos)} mask token(s) ({tok.mask_token}) distinctly: {it.text[:80]!r}"
                    )
                pos = [pos[int(j)] for j in it.score_masks]
            if len(pos) != len(it.targets):
                raise BackendError(
                    f"masked item {n}: the text has {len(pos)} mask token(s) ({tok.mask_token}) "
                    f"but {len(it.targets)} target id(s): {it.text[:80]!r}"
                )
            if any(not (0 <= int(t) < vocab) for t in it.targets):
                raise BackendError(f"masked item {n}: target ids {list(it.targets)} outside the vocabulary (size {vocab})")
            positions.append(pos)
        out = np.zeros(len(items), dtype=float)
        for batch in self.batches([len(s) for s in seqs]):
            ids, mask = self.pad([seqs[i] for i in batch], left=False)
            with torch.no_grad():  # the output layer runs at the scored mask positions only
                vals = masked_head_logprobs(model, ids, mask, [positions[i] for i in batch],
                                            [items[i].targets for i in batch])
            for i, v in zip(batch, vals):
                out[i] = v
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Mean of the last hidden layer over each text's tokens (padding excluded)."""
        torch = require_torch()
        seqs = self._encode(texts)
        out: np.ndarray | None = None
        for batch in self.batches([len(s) for s in seqs]):
            ids, mask = self.pad([seqs[i] for i in batch], left=False)
            with torch.no_grad():
                hidden = self.model(input_ids=ids, attention_mask=mask, output_hidden_states=True).hidden_states[-1]
            m = mask.unsqueeze(-1).to(hidden.dtype)
            pooled = ((hidden * m).sum(dim=1) / m.sum(dim=1).clamp(min=1)).float().cpu().numpy()
            if out is None:
                out = np.zeros((len(texts), pooled.shape[1]), dtype=float)
            out[batch] = pooled
        return out if out is not None else np.zeros((0, 0))


# ============================================================================ encoders


@register_backend("hf-embed", capabilities=["embed"], options_model=HFOptions,
                  summary="local Hugging Face encoder as feature extractor (last-4-layer [CLS] concat): hf-embed:<path>")
class HFEncoderBackend(_HFBase):
    """Encoder features: [CLS] vectors of the last 4 hidden layers, concatenated (4 x hidden size)."""

    name = "hf-embed"
    default_batch_size = 32
    n_layers = 4

    def _load_model(self, transformers: Any, torch: Any) -> Any:
        return transformers.AutoModel.from_pretrained(
            self.source, local_files_only=True, dtype=self._torch_dtype(torch), trust_remote_code=self.trust_remote_code
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text: ``concat(h[-1][CLS], h[-2][CLS], h[-3][CLS], h[-4][CLS])``; long texts are truncated."""
        torch = require_torch()
        tok = self.tokenizer
        limit = self.max_len() or 512
        seqs = [list(tok(t, add_special_tokens=True, truncation=True, max_length=limit)["input_ids"]) for t in texts]
        out: np.ndarray | None = None
        for batch in self.batches([len(s) for s in seqs]):
            ids, mask = self.pad([seqs[i] for i in batch], left=False)
            with torch.no_grad():
                hs = self.model(input_ids=ids, attention_mask=mask, output_hidden_states=True).hidden_states
            if len(hs) - 1 < self.n_layers:
                raise BackendError(f"model '{self.source}' has {len(hs) - 1} layers; hf-embed needs at least {self.n_layers}")
            feats = torch.cat([hs[-k][:, 0, :] for k in range(1, self.n_layers + 1)], dim=-1).float().cpu().numpy()
            if out is None:
                out = np.zeros((len(texts), feats.shape[1]), dtype=float)
            out[batch] = feats
        return out if out is not None else np.zeros((0, 0))
