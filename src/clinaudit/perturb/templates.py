"""Template expansion for language-model association tests (P4 §3.4, Algorithm 1).

Templates carry a demographic slot ``[GEND]`` and an attribute slot (a category
code such as ``[CVD]``); attributes come per category; target words per group.
:func:`expand_templates` fills every (template, attribute, target) combination;
:func:`mask_for_mlm` builds the masked inputs and locates the target slot by
*token* position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Template", "TemplateSentence", "MaskedSentence", "DEFAULT_TARGETS", "load_templates",
           "load_attributes", "load_targets", "expand_templates", "mask_for_mlm"]

DEFAULT_TARGETS: dict[str, tuple[str, ...]] = {"male": ("man", "he", "male", "m"), "female": ("woman", "she", "female", "f")}


@dataclass(frozen=True)
class Template:
    template_id: str
    text: str
    category: str
    line: int


@dataclass(frozen=True)
class TemplateSentence:
    template_id: str
    category: str
    attribute: str
    subgroup: str  # target word list the word comes from is the group; subgroup = target word
    group: str
    target: str
    sentence: str
    target_span: tuple[int, int]
    attribute_span: tuple[int, int]
    template: str = ""


@dataclass(frozen=True)
class MaskedSentence:
    text: str
    target_positions: tuple[int, ...]
    target_ids: tuple[int, ...]
    mask_attribute: bool
    mode: str


def load_templates(path: str | Path) -> tuple[list[Template], list[dict[str, Any]]]:
    """Templates and a report of skipped lines."""
    raise NotImplementedError


def load_attributes(path: str | Path) -> dict[str, list[str]]:
    """Attribute words per category code."""
    raise NotImplementedError


def load_targets(path: str | Path | None = None) -> dict[str, tuple[str, ...]]:
    """Target words per group from YAML, or :data:`DEFAULT_TARGETS`."""
    raise NotImplementedError


def expand_templates(templates: Sequence[Template], attributes: dict[str, list[str]],
                     targets: dict[str, Sequence[str]] | None = None) -> list[TemplateSentence]:
    """Algorithm 1 of P4."""
    raise NotImplementedError


def mask_for_mlm(item: TemplateSentence, tokenizer: Any, mask_attribute: bool, mode: str = "word") -> MaskedSentence:
    """Masked text with the target slot located by token position."""
    raise NotImplementedError
