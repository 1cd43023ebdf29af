"""LLM rewrite perturbations of P2 (Appendix A, Table 6).

``gender_swap``, ``gender_removal``, ``uncertain`` and ``colorful`` send the
Table 6 prompt (:mod:`.prompts`) with the case text to any backend through the
:class:`~clinaudit.runner.Runner` (batched, concurrent, cached), clean echoes of
the instruction from the output, and run quality gates (beyond the paper):

* **EHR lines**: tabular ``Key: value`` lines of the original must come back
  unchanged (whitespace-normalised) → flag ``ehr_lines_changed``; the lines that
  changed are listed in ``provenance["gates"]["ehr_lines_changed"]``. Gender
  rewrites exempt gender/sex lines (they are meant to change).
* **length ratio** ``len(new) / len(old)`` outside ``[min_length_ratio, max_length_ratio]``
  (default 0.5-2.0) → ``length_ratio_out_of_bounds``;
* **embedding similarity** (cosine, ``runner.embed(embedder, ...)``, default
  ``embedded-embedder``) below ``min_similarity`` (default 0.6) → ``low_similarity``.

Flagged variants are kept and marked (``Variant.flags``); the gate values are in
``provenance["gates"]``. An empty or failed model output gives a variant with
flag ``empty_output`` / ``model_error`` and the original text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..records import Case, ModelRequest, ModelResponse, Variant

if TYPE_CHECKING:  # pragma: no cover
    from ..runner import Runner

__all__ = [
    "LLM_REWRITES",
    "GateConfig",
    "clean_rewrite",
    "build_rewrite_request",
    "rewrite_cases",
    "ehr_gate",
    "apply_similarity_gate",
]

LLM_REWRITES: tuple[str, ...] = ("gender_swap", "gender_removal", "uncertain", "colorful")
DEFAULT_EMBEDDER = "embedded-embedder"


@dataclass
class GateConfig:
    """Bounds of the rewrite quality gates (defaults: ratio 0.5-2.0, similarity >= 0.6)."""

    min_length_ratio: float = 0.5
    max_length_ratio: float = 2.0
    min_similarity: float = 0.6
    check_ehr: bool = True
    similarity: bool = True
    exempt_keys: tuple[str, ...] = field(default_factory=tuple)


def clean_rewrite(output: str, original: str | None = None) -> str:
    """Strip echoes of the instruction ("Here is the rewritten message:", quotes, fences)."""
    raise NotImplementedError


def build_rewrite_request(case: Case, name: str, *, model: str, seed: int = 0, temperature: float = 0.0,
                          max_tokens: int = 1024) -> ModelRequest:
    """The Table 6 request for one case (``meta`` carries case id and transform)."""
    raise NotImplementedError


def ehr_gate(original: str, rewritten: str, exempt_keys: Sequence[str] = ()) -> list[str]:
    """Tabular EHR lines of ``original`` missing (changed) in ``rewritten``."""
    raise NotImplementedError


def apply_similarity_gate(pairs: Sequence[tuple[str, Variant]], runner: "Runner", embedder: str,
                          config: GateConfig | None = None) -> None:
    """Embed originals and rewrites in one batch; record cosine and flag ``low_similarity`` in place."""
    raise NotImplementedError


def rewrite_cases(cases: Sequence[Case], names: Sequence[str], *, runner: "Runner", model: str, seed: int = 0,
                  embedder: str | None = DEFAULT_EMBEDDER, gates: GateConfig | None = None,
                  temperature: float = 0.0, max_tokens: int = 1024) -> list[Variant]:
    """Rewrite every case with every named rewrite in one batched, cached runner call."""
    raise NotImplementedError
