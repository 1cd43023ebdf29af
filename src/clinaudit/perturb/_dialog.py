"""Dialog parsing used by perturbations: :mod:`clinaudit.loaders.dialog`'s, under the name perturbations import."""

from __future__ import annotations

from ..loaders.dialog import Turn, format_dialog, parse_dialog

__all__ = ["Turn", "parse_dialog", "format_dialog"]
