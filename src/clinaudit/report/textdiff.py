"""Word-level differences between a text and its reference, for the side-by-side Compare blocks."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["diff_segments"]


_TOKEN = re.compile(r"\s+|[^\s]+")


def _term_mask(text: str, terms: Iterable[str]) -> list[bool]:
    mask = [False] * len(text)
    for term in sorted({t.strip() for t in terms if t and t.strip()}, key=len, reverse=True):
        pat = re.escape(term)
        if re.match(r"\w", term):
            pat = r"(?<!\w)" + pat
        if re.search(r"\w$", term):
            pat += r"(?!\w)"
        for m in re.finditer(pat, text, flags=re.I):
            for i in range(m.start(), m.end()):
                mask[i] = True
    return mask


def diff_segments(text: str, reference: str | None, highlight: Iterable[str] = (), *,
                  show_deleted: bool = True) -> list[dict[str, Any]]:
    """``text`` cut into segments for display: ``{"text", "ins", "del", "mark"}``.

    Words that ``text`` adds or changes relative to ``reference`` are ``ins``; words of
    the reference it dropped come as separate ``del`` segments at that place; spans
    matching a ``highlight`` term (case-insensitive, whole words) are ``mark``.
    With ``reference=None`` only the highlighting is applied; ``show_deleted=False``
    leaves out the ``del`` segments.
    """
    text = "" if text is None else str(text)
    ins = [False] * len(text)
    dels: dict[int, list[str]] = {}
    if reference is not None and str(reference) != text:
        a = _TOKEN.findall(str(reference))
        b = _TOKEN.findall(text)
        a_key = [t if t.strip() else " " for t in a]
        b_key = [t if t.strip() else " " for t in b]
        starts = [0]
        for t in b:
            starts.append(starts[-1] + len(t))
        sm = difflib.SequenceMatcher(None, a_key, b_key, autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op in ("replace", "insert"):
                for j in range(j1, j2):
                    if b[j].strip():
                        for k in range(starts[j], starts[j + 1]):
                            ins[k] = True
            if op in ("replace", "delete"):
                removed = "".join(a[i1:i2]).strip()
                if removed and show_deleted:
                    dels.setdefault(starts[j1], []).append(removed)
    mark = _term_mask(text, highlight)
    segs: list[dict[str, Any]] = []

    def push(chunk: str, i: bool, d: bool, m: bool) -> None:
        if segs and not d and not segs[-1]["del"] and segs[-1]["ins"] == i and segs[-1]["mark"] == m:
            segs[-1]["text"] += chunk
        else:
            segs.append({"text": chunk, "ins": i, "del": d, "mark": m})

    for pos in range(len(text) + 1):
        for removed in dels.get(pos, []):
            push(removed, False, True, False)
        if pos < len(text):
            ch = text[pos]
            push(ch, ins[pos] and not ch.isspace(), False, mark[pos])
    return segs
