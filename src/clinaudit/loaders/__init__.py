"""Loaders: data files -> :class:`~clinaudit.records.Case` lists, and dialog parsing.

``load_cases(DataSource(format="mts", path=...))`` reads any registered format
(``list_loaders()`` names them); see ``docs/data-formats.md``.
"""

from __future__ import annotations

from .base import DataSource, list_loaders, load_cases, register_loader
from .dialog import Turn, format_dialog, parse_dialog

__all__ = ["DataSource", "load_cases", "list_loaders", "register_loader", "parse_dialog", "format_dialog", "Turn"]
