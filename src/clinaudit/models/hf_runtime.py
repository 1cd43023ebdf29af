"""The torch/transformers runtime shared by the Hugging Face backends (:mod:`.hf`, :mod:`.embedded`).

Both libraries are imported lazily, on first use, so that importing clinaudit stays
light and a missing optional dependency is a clear
:class:`~clinaudit.errors.MissingDependencyError` rather than an ``ImportError``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from ..errors import MissingDependencyError

__all__ = ["require_torch", "require_transformers", "dir_fingerprint"]


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
