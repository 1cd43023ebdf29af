"""The torch/transformers runtime shared by the Hugging Face backends (:mod:`.hf`, :mod:`.embedded`).

Both libraries are imported lazily, on first use, so that importing clinaudit stays
light and a missing optional dependency is a clear
:class:`~clinaudit.errors.MissingDependencyError` rather than an ``ImportError``.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import MissingDependencyError

__all__ = ["require_torch", "require_transformers", "dir_fingerprint", "set_thread_budget", "follow_thread_budget",
           "rows_that_fit"]

#: on CUDA without a ``max_batch`` option: the share of free GPU memory the decode batch's caches may take, the
#: context a row is sized for, and the largest batch chosen (:func:`rows_that_fit`)
MEMORY_FRACTION = 0.6
AUTO_CONTEXT = 2048
MAX_AUTO_BATCH = 256

#: how many torch threads this process may use right now (None: leave torch's setting alone)
_thread_budget: Callable[[], int] | None = None


def set_thread_budget(budget: Callable[[], int] | None) -> None:
    """Let a process's share of the CPUs change while it runs (``clinaudit demo``'s worker processes:
    an audit left running alone takes the CPUs the finished ones gave back). Models loaded afterwards
    follow it (:func:`follow_thread_budget`)."""
    global _thread_budget
    _thread_budget = budget


def follow_thread_budget(model: Any) -> None:
    """Before each forward pass of ``model``, set torch's thread count to the budget when it changed.

    Runs in the thread that makes the forward pass (OpenMP thread counts are per calling thread).
    A no-op unless :func:`set_thread_budget` gave a budget.
    """
    budget = _thread_budget
    if budget is None or not hasattr(model, "register_forward_pre_hook"):
        return
    torch = require_torch()

    def _hook(_module: Any, _args: Any) -> None:
        n = int(budget())
        if n > 0 and n != torch.get_num_threads():
            torch.set_num_threads(n)

    model.register_forward_pre_hook(_hook)


def require_torch() -> Any:
    """The ``torch`` module; :class:`~clinaudit.errors.MissingDependencyError` when it is not installed."""
    try:
        import torch
    except ImportError:  # pragma: no cover - depends on the installation
        raise MissingDependencyError("torch") from None
    return torch


def require_transformers() -> Any:
    """The ``transformers`` module, imported with the Hugging Face hub offline (``HF_HUB_OFFLINE=1`` unless set)
    and tokenizer parallelism off; :class:`~clinaudit.errors.MissingDependencyError` when it is not installed."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        import transformers
    except ImportError:  # pragma: no cover - depends on the installation
        raise MissingDependencyError("transformers") from None
    return transformers


def dir_fingerprint(path: Path) -> str:
    """Cheap fingerprint of a model folder: its config plus the names and sizes of its weight files."""
    h = hashlib.sha256()
    cfg = path / "config.json"
    if cfg.is_file():
        h.update(cfg.read_bytes())
    for f in sorted(path.iterdir()):
        if f.suffix in {".safetensors", ".bin", ".gguf", ".pt"}:
            h.update(f"{f.name}:{f.stat().st_size}".encode())
    return h.hexdigest()[:12]


def rows_that_fit(free_bytes: int, config: Any, itemsize: int, context: int) -> int:
    """Decode rows whose key/value caches fit in ``MEMORY_FRACTION`` of ``free_bytes`` (a GPU's free memory).

    A row of ``context`` tokens (by default the model's context, at most ``AUTO_CONTEXT``) holds
    ``2 x layers x kv heads x head dim x context`` cache values of ``itemsize`` bytes, and its logits
    (``vocab`` floats) once per step; a decode batch holds its buffers twice while they are rebuilt.
    At most ``MAX_AUTO_BATCH``."""
    cfg = getattr(config, "get_text_config", lambda: config)()
    layers = int(getattr(cfg, "num_hidden_layers", 1))
    heads = int(getattr(cfg, "num_attention_heads", 1))
    kv_heads = int(getattr(cfg, "num_key_value_heads", None) or heads)
    head_dim = int(getattr(cfg, "head_dim", None) or int(getattr(cfg, "hidden_size", 64)) // max(1, heads))
    vocab = int(getattr(cfg, "vocab_size", 32000))
    per_row = 2 * (2 * layers * kv_heads * head_dim * int(context) * itemsize) + 4 * vocab
    return int(max(1, min(MAX_AUTO_BATCH, (free_bytes * MEMORY_FRACTION) // per_row)))
