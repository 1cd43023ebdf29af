"""``vllm:<path-or-name>``: a model run in this process by vLLM, with automatic prefix caching.

An optional backend for a machine with a CUDA GPU. ``vllm`` is imported on first use (never at
registration), so clinaudit installs and runs without it; a missing ``vllm`` is a clear
:class:`~clinaudit.errors.BackendError` when the first request is generated.

One ``vllm.LLM`` (``enable_prefix_caching=True``) is built per backend instance, on first use.
Each ``generate(requests)`` call renders every chat request with the model's chat template
(``add_generation_prompt=True``), maps each request's ``temperature`` / ``top_p`` / ``max_tokens`` /
``stop`` / ``n`` / ``seed`` to its own ``vllm.SamplingParams`` and hands the whole list to ONE
``LLM.generate`` call: vLLM's continuous batching and prefix cache reuse the shared instructions
of an audit's prompts. A per-request seed makes a sampled answer depend on its own request only.

Untested on real hardware in CI (no GPU machine was available); the tests drive it through a
stand-in ``vllm`` module. The tested way to use vLLM is its OpenAI-compatible server with the
``openai:`` backend (docs/scale-out.md).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import BackendError
from ..grammar import grammar_of
from ..records import ModelRequest, ModelResponse
from .base import Backend, register_backend
from .options import VLLMOptions
from .hf_runtime import dir_fingerprint

__all__ = ["VLLMBackend", "require_vllm", "INSTALL_HINT"]

INSTALL_HINT = "pip install vllm (needs a CUDA GPU)"


def require_vllm() -> Any:
    """The ``vllm`` module; a :class:`BackendError` saying how to install it when it is missing."""
    try:
        return importlib.import_module("vllm")
    except ImportError as exc:
        raise BackendError(f"the vllm: backend needs the optional package 'vllm', which is not installed "
                           f"({exc}): {INSTALL_HINT}. Without a GPU, serve the model elsewhere with "
                           "`vllm serve` and use the openai: backend with its base_url.") from None


@register_backend("vllm", capabilities=["generate"], options_model=VLLMOptions,
                  summary="in-process vLLM on a CUDA GPU, prefix caching on (optional: pip install vllm): vllm:<path-or-name>")
class VLLMBackend(Backend):
    """In-process vLLM engine (see the module docstring). Options: ``batch_size`` (requests per
    ``generate`` call, default 256), ``tensor_parallel_size``, ``gpu_memory_utilization``,
    ``max_model_len``, ``dtype``, ``trust_remote_code``."""

    name = "vllm"
    is_remote = False
    batches_calls = True

    def __init__(
        self,
        spec: str,
        *,
        batch_size: int | None = None,
        tensor_parallel_size: int = 1,
        gpu_memory_utilization: float = 0.9,
        max_model_len: int | None = None,
        dtype: str = "auto",
        trust_remote_code: bool = False,
        **options: Any,
    ):
        super().__init__(spec, **options)
        self.source = spec.partition(":")[2].strip()
        if not self.source:
            raise BackendError(f"spec '{spec}' needs a model: vllm:<path-or-name>")
        self.batch_size = int(batch_size or 256)
        if self.batch_size < 1:
            raise BackendError(f"batch_size must be >= 1, got {batch_size}")
        self.engine_options: dict[str, Any] = {
            "tensor_parallel_size": int(tensor_parallel_size),
            "gpu_memory_utilization": float(gpu_memory_utilization),
            "dtype": dtype,
            "trust_remote_code": bool(trust_remote_code),
        }
        if max_model_len is not None:
            self.engine_options["max_model_len"] = int(max_model_len)
        self._llm: Any = None
        self._vllm: Any = None
        self._lock = threading.Lock()

    # ---- identity -------------------------------------------------------------------
    def identity(self) -> str:
        """``vllm:<source>`` (+ ``#<fingerprint>`` of a local folder, + ``|dtype=...`` when not ``auto``)."""
        ident = f"vllm:{self.source}"
        path = Path(self.source).expanduser()
        if path.is_dir():
            ident = f"vllm:{path.resolve()}#{dir_fingerprint(path)}"
        if self.engine_options["dtype"] != "auto":
            ident += f"|dtype={self.engine_options['dtype']}"
        return ident

    def describe(self) -> dict[str, Any]:
        return {"spec": self.spec, "backend": self.name, "source": self.source, "batch_size": self.batch_size,
                "enable_prefix_caching": True, **self.engine_options}

    # ---- engine -----------------------------------------------------------------------
    @property
    def llm(self) -> Any:
        """The ``vllm.LLM`` of this backend, built on first use."""
        with self._lock:
            if self._llm is None:
                vllm = require_vllm()
                self._llm = vllm.LLM(model=self.source, enable_prefix_caching=True, **self.engine_options)
                self._vllm = vllm
        return self._llm

    def count_tokens(self, text: str) -> int:
        return len(self.llm.get_tokenizer().encode(text, add_special_tokens=False))

    def prompt_text(self, request: ModelRequest, tokenizer: Any) -> str:
        """The prompt string: the chat template (with the generation prompt) for chat requests."""
        if request.kind == "chat" and request.messages:
            if getattr(tokenizer, "chat_template", None):
                return tokenizer.apply_chat_template([{"role": m.role, "content": m.content} for m in request.messages],
                                                     tokenize=False, add_generation_prompt=True)
            return "\n\n".join(m.content for m in request.messages)
        return request.prompt if request.prompt is not None else "\n\n".join(m.content for m in request.messages)

    def sampling_params(self, request: ModelRequest) -> Any:
        """The request's own ``vllm.SamplingParams`` (seeded: ``request.seed``, 0 when unset)."""
        return self._vllm.SamplingParams(
            n=max(1, int(request.n)),
            temperature=float(request.temperature),
            top_p=1.0 if request.top_p is None else float(request.top_p),
            max_tokens=max(1, int(request.max_tokens)),
            stop=list(request.stop) if request.stop else None,
            seed=0 if request.seed is None else int(request.seed),
            **self.structured(request),
        )

    def structured(self, request: ModelRequest) -> dict[str, Any]:
        """The request's answer grammar as vLLM's own guided decoding: ``structured_outputs=
        StructuredOutputsParams(...)`` (vLLM >= 0.10.2), else ``guided_decoding=GuidedDecodingParams(...)``."""
        g = grammar_of(request)
        if g is None:
            return {}
        fields: dict[str, Any] = ({"choice": list(g.choices)} if g.kind == "choice" else
                                  {"regex": g.pattern} if g.kind == "regex" else {"json": dict(g.schema or {})})
        try:
            sp = importlib.import_module("vllm.sampling_params")
        except ImportError:
            sp = self._vllm
        for cls_name, arg in (("StructuredOutputsParams", "structured_outputs"), ("GuidedDecodingParams", "guided_decoding")):
            cls = getattr(sp, cls_name, None)
            if cls is not None:
                return {arg: cls(**fields)}
        raise BackendError("this vLLM version has no guided decoding (StructuredOutputsParams / GuidedDecodingParams)")

    def generate(self, requests: Sequence[ModelRequest]) -> list[ModelResponse]:
        for req in requests:
            if req.kind not in ("chat", "completion"):
                raise BackendError(f"backend 'vllm' cannot answer a '{req.kind}' request with generate()")
        if not requests:
            return []
        llm = self.llm
        tokenizer = llm.get_tokenizer()
        prompts = [self.prompt_text(r, tokenizer) for r in requests]
        params = [self.sampling_params(r) for r in requests]
        outputs = llm.generate(prompts, params, use_tqdm=False)
        if len(outputs) != len(requests):
            raise BackendError(f"vLLM returned {len(outputs)} outputs for {len(requests)} prompts")
        out: list[ModelResponse] = []
        for res in outputs:
            completions = list(res.outputs)
            if not completions:
                raise BackendError(f"vLLM returned no completion for request {res.request_id}")
            texts = [c.text for c in completions]
            out.append(ModelResponse(
                request_key="", model=self.spec, text=texts[0], choices=texts,
                prompt_tokens=len(res.prompt_token_ids or []),
                completion_tokens=sum(len(c.token_ids) for c in completions),
                finish_reason=completions[0].finish_reason,
            ))
        return out

    def close(self) -> None:
        self._llm = None
