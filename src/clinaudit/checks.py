"""Option values checked once, for the command line and the Python API alike.

A command's argparse types (:mod:`clinaudit.cli.common`) and the functions the Python API calls
(:func:`clinaudit.report.findings.derive_findings`, :func:`clinaudit.report.compare.compare_runs`, ...)
apply the same rule from here, so ``compare_runs(alpha=5)`` is refused like ``clinaudit compare
--alpha 5``. A bad value is an :class:`~clinaudit.errors.InputError` naming the option.
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

from .errors import InputError

__all__ = ["check_alpha", "check_int", "check_margin", "check_number", "check_table_name", "in_range", "number_rule"]


def number_rule(low: float | None = None, high: float | None = None, *, low_open: bool = False,
                high_open: bool = False) -> str:
    """The words for a range: ``a number > 0 and < 1``."""
    parts = []
    if low is not None:
        parts.append(f"{'>' if low_open else '>='} {low:g}")
    if high is not None:
        parts.append(f"{'<' if high_open else '<='} {high:g}")
    return "a number" + (" " + " and ".join(parts) if parts else "")


def in_range(value: float, low: float | None = None, high: float | None = None, *, low_open: bool = False,
             high_open: bool = False) -> bool:
    """Whether ``value`` is finite and within the range."""
    ok = math.isfinite(value)
    if low is not None:
        ok &= value > low if low_open else value >= low
    if high is not None:
        ok &= value < high if high_open else value <= high
    return bool(ok)


def check_number(value: Any, name: str, low: float | None = None, high: float | None = None, *,
                 low_open: bool = False, high_open: bool = False) -> float:
    """``value`` as a float when it is a finite number in the range, else an error naming ``name``."""
    what = number_rule(low, high, low_open=low_open, high_open=high_open)
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InputError(f"{name} must be {what}, got {value!r}", field=name)
    out = float(value)
    if not in_range(out, low, high, low_open=low_open, high_open=high_open):
        raise InputError(f"{name} must be {what}, got {value!r}", field=name)
    return out


def check_int(value: Any, name: str, minimum: int = 1) -> int:
    """``value`` when it is a whole number >= ``minimum``, else an error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        raise InputError(f"{name} must be an integer >= {minimum}, got {value!r}", field=name)
    return int(value)


def check_alpha(value: Any, name: str = "alpha") -> float:
    """A significance level: strictly between 0 and 1 (``--alpha 2`` and ``alpha=7`` are refused alike)."""
    return check_number(value, name, 0.0, 1.0, low_open=True, high_open=True)


def check_margin(value: Any, name: str = "margin") -> float:
    """A margin on the proportion scale (a CI half-width): > 0 and <= 1."""
    return check_number(value, name, 0.0, 1.0, low_open=True)


def check_table_name(name: Any) -> str:
    """A run table's name (``tables/NAME.csv``): a plain file name, never a path out of the run directory."""
    text = name if isinstance(name, str) else None
    if (not text or text != text.strip() or text in {".", ".."} or any(c in text for c in "/\\\0:")
            or text.startswith(".")):
        raise InputError(f"a table name is a plain name such as 'responses' or 'table3', got {name!r}",
                         field="table")
    return text
