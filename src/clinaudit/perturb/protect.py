"""Protected spans: parts of a text that perturbations must never touch.

``protected`` arguments accept, alone or in a list:

* ``(start, end)`` character spans (half-open, on the original text);
* a regex string or compiled pattern, matched with ``re.MULTILINE``; every match is protected;
* the keyword ``"ehr"``: tabular EHR lines (:data:`EHR_LINE_PATTERNS`) such as
  ``Age: 55 years``, ``Current medication list: lisinopril, ...`` and header lines
  such as ``EHR Context:``. A protected *line* includes its line break.

Our reading of a "tabular" line (configurable by passing your own patterns): a line
``Key: value`` whose key is at most six words and whose value is a single clause
(no sentence break inside), or a header line ``Key:`` with nothing after the colon.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = [
    "EHR_LINE_PATTERNS",
    "resolve_protected",
    "protected_mask",
    "ehr_lines",
    "is_tabular_line",
]

# key: 1-6 words of letters/digits/()/&,-; value: no ". X" sentence break.
_KEY = r"[A-Za-z][A-Za-z0-9()/&,'\- ]{0,60}?"
_TABULAR = re.compile(rf"^[ \t]*(?P<key>{_KEY})[ \t]*:[ \t]*(?P<val>[^\n]*?)[ \t]*$")

#: Default line patterns for ``protected="ehr"`` (see :func:`is_tabular_line`).
EHR_LINE_PATTERNS: tuple[str, ...] = (rf"^[ \t]*{_KEY}[ \t]*:[^\n]*(?:\n|$)",)


def is_tabular_line(line: str, *, headers: bool = True) -> bool:
    """True for an EHR-style ``Key: value`` line (or a ``Key:`` header when ``headers``)."""
    m = _TABULAR.match(line.rstrip("\r\n"))
    if not m:
        return False
    key, val = m.group("key").strip(), m.group("val")
    if len(key.split()) > 6:
        return False
    if not val:
        return headers
    # A single clause: no sentence break followed by more text.
    return re.search(r"[.!?][ \t]+[A-Z]", val) is None and len(val) <= 300


def ehr_lines(text: str, *, headers: bool = False) -> list[str]:
    """The tabular EHR lines of ``text`` (stripped), in order."""
    return [ln.strip() for ln in text.splitlines() if is_tabular_line(ln, headers=headers)]


def _spans_for(text: str, item: Any) -> Iterable[tuple[int, int]]:
    if item is None:
        return
    if isinstance(item, str) and item == "ehr":
        pos = 0
        for line in text.splitlines(keepends=True):
            if is_tabular_line(line, headers=True):
                yield (pos, pos + len(line))
            pos += len(line)
        return
    if isinstance(item, (str, re.Pattern)):
        pat = re.compile(item, re.MULTILINE) if isinstance(item, str) else item
        for m in pat.finditer(text):
            if m.end() > m.start():
                yield (m.start(), m.end())
        return
    if isinstance(item, tuple) and len(item) == 2 and all(isinstance(x, int) for x in item):
        s, e = item
        s, e = max(0, s), min(len(text), e)
        if e > s:
            yield (s, e)
        return
    if isinstance(item, (list, tuple, set, frozenset)):
        for sub in item:
            yield from _spans_for(text, sub)
        return
    raise TypeError(f"cannot read a protected span from {item!r}: use (start, end), a regex, or 'ehr'")


def resolve_protected(text: str, protected: Any) -> list[tuple[int, int]]:
    """Merged, sorted half-open spans of ``text`` covered by ``protected``."""
    spans = sorted(_spans_for(text, protected))
    merged: list[tuple[int, int]] = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def protected_mask(text: str, protected: Any) -> list[bool]:
    """One bool per character of ``text``: True where the character is protected."""
    mask = [False] * len(text)
    for s, e in resolve_protected(text, protected):
        for i in range(s, e):
            mask[i] = True
    return mask
