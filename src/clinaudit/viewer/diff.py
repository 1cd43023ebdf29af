"""Word-level diffs of a variant's text against its baseline, as escaped HTML (``<del>`` / ``<ins>``)."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Any

__all__ = ["diff_html"]


# --------------------------------------------------------------------------- diffs

_TOKENS = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


@lru_cache(maxsize=4096)
def _diff_ops(base: str, text: str) -> tuple[tuple[str, str], ...]:
    a, b = _TOKENS.findall(base), _TOKENS.findall(text)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    ops: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            ops.append(("eq", "".join(b[j1:j2])))
        else:
            if i2 > i1:
                ops.append(("del", "".join(a[i1:i2])))
            if j2 > j1:
                ops.append(("ins", "".join(b[j1:j2])))
    return tuple(ops)


def diff_html(base: Any, text: Any, *, context: int | None = None) -> Any:
    """``text`` with what differs from ``base`` marked (``<del>`` removed, ``<ins>`` added), every piece escaped.
    ``context``: keep only that many characters of unchanged text around each change (the grid's short form)."""
    from markupsafe import Markup, escape

    if not isinstance(text, str):
        return Markup("")
    if not isinstance(base, str) or base == text:
        body = text if context is None or len(text) <= 2 * context else text[: 2 * context] + " …"
        return Markup(escape(body))
    parts = []
    shown = 0
    for tag, piece in _diff_ops(base, text):
        if context is not None and shown > 8 * context:  # the grid's short form: the first changes only
            parts.append(Markup(" <span class=\"more\">… (more changes on the case page)</span>"))
            break
        if tag == "eq":
            if context is not None and len(piece) > 2 * context + 3:
                piece = piece[:context] + " … " + piece[-context:]
            parts.append(escape(piece))
        else:
            parts.append(Markup(f"<{tag}>") + escape(piece) + Markup(f"</{tag}>"))
        shown += len(piece)
    return Markup("").join(parts)
