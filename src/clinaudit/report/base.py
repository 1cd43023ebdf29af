"""Report building blocks and the per-audit section registry.

Each audit recipe contributes one report section, written next to the audit
(``clinaudit/report/sections/<audit>.py``) as a function
``build(rundir: RunDir) -> Section`` registered with :func:`register_section`.
A section is a list of blocks:

* :class:`Table`   - a DataFrame shown as an HTML table (values escaped), downloadable as CSV;
* :class:`Figure`  - a matplotlib figure rendered to inline SVG, with the numbers behind it
  as a DataFrame (downloadable as CSV: every figure has its numbers);
* :class:`Text`    - plain text paragraphs (escaped);
* :class:`Compare` - the variants of one case side by side, differences highlighted;
* :class:`Metric`  - a headline number with its n, CI, test and correction family.

Sections never emit raw HTML: all text that reaches the page is escaped by the
renderer, so model output cannot inject markup.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..registry import Registry, registry

__all__ = [
    "Table",
    "Figure",
    "Text",
    "Compare",
    "Metric",
    "Section",
    "register_section",
    "get_section_builder",
]


@dataclass
class Table:
    title: str
    df: pd.DataFrame
    caption: str = ""
    name: str = ""  # file stem for the CSV download; derived from the title if empty
    max_rows: int = 200  # rows shown inline; the CSV always has all


@dataclass
class Figure:
    title: str
    fig: Any  # matplotlib.figure.Figure
    data: pd.DataFrame  # the numbers plotted
    caption: str = ""
    name: str = ""


@dataclass
class Text:
    text: str
    kind: str = "p"  # "p" | "note" | "warning"


@dataclass
class Compare:
    """Variants of one case next to each other (label -> text); ``highlight`` terms are marked."""

    title: str
    case_id: str
    variants: dict[str, str]
    highlight: list[str] = field(default_factory=list)
    reference: str | None = None  # label diffed against (default: first)


@dataclass
class Metric:
    label: str
    value: float | str
    n: int | None = None
    ci: tuple[float, float] | None = None
    test: str = ""
    p: float | None = None
    p_adj: float | None = None
    family: str = ""


@dataclass
class Section:
    title: str
    audit: str
    blocks: list[Table | Figure | Text | Compare | Metric] = field(default_factory=list)
    # Shown on the summary page: e.g. {"cases": 30, "judge parse rate": "97% (n=240)"}
    summary: dict[str, Any] = field(default_factory=dict)


SectionBuilder = Callable[[Any], Section]

# The shared registry of report sections (clinaudit.registry, kind "section"): an audit's module
# (built-in or plugin) registers its section with @register_section("<audit>").
_SECTIONS: Registry[SectionBuilder] = registry("section")


def register_section(audit: str) -> Callable[[SectionBuilder], SectionBuilder]:
    return _SECTIONS.register(audit)


def get_section_builder(audit: str) -> SectionBuilder | None:
    """The section builder registered for ``audit`` (built-in or plugin), or None."""
    try:
        return _SECTIONS.get(audit)
    except KeyError:
        return None
