"""Word-level diffs of a variant's text against its baseline, as escaped HTML (``<del>`` / ``<ins>``), with a
bounded cost.

``difflib.SequenceMatcher`` costs, per longest-match scan, the sum over the tokens of one text of their
occurrences in the other; it scans again inside every gap, so on a long text of few distinct words it is
super-quadratic (a 5 kB variant took 2.3 s, 10 kB over a minute). Here the common head and tail are cut off
first (linear), and the middle is compared word by word only while its scan cost (:func:`_scan_cost`) is under a
budget; past it, sentence by sentence (a long text with one sentence changed); past that too, the changed middle
is shown as one removed and one added block. The level used is said in the output (``diff-note``).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from functools import lru_cache
from typing import Any

__all__ = ["diff_html", "diff_pieces", "diff_ops", "WORD_BUDGET", "SENTENCE_BUDGET"]


# --------------------------------------------------------------------------- diffs

#: a word or a mark with the whitespace before it (the whitespace is not compared), or trailing whitespace
_TOKENS = re.compile(r"\s*(?:\w+|[^\w\s])|\s+", re.UNICODE)
#: a sentence with its end marks (``.``, ``!``, ``?``, a newline), or the text after the last one
_SENTENCES = re.compile(r"[^.!?\n]*[.!?\n]+|[^.!?\n]+")
#: the most a word-level comparison may scan (token pairs of one longest-match pass: sum over the middle's
#: distinct words of count in base x count in text); 20 kB of text in a 40-word vocabulary is ~500,000. Measured
#: (2-core machine): a word diff within this budget costs <= 40 ms, whatever the texts
WORD_BUDGET = 60_000
#: the same for the sentence-level comparison (sentences are mostly distinct: cheap)
SENTENCE_BUDGET = 60_000
#: the most tokens either comparison takes (the recursion's depth is bounded by them)
_MAX_TOKENS = 6_000

_NOTES = {"sentence": "long text: changes marked sentence by sentence",
          "block": "long text: the changed part shown as one block (too long to compare word by word)"}


def _scan_cost(a: list[str], b: list[str]) -> int:
    """Token pairs one longest-match scan of ``a`` against ``b`` visits (difflib's inner loop)."""
    cb = Counter(b)
    return sum(n * cb[k] for k, n in Counter(a).items() if k in cb)


def _compare(a: list[str], b: list[str], key: Any) -> list[tuple[str, str]]:
    """Opcodes of ``a`` -> ``b`` (difflib on the tokens' keys, junk heuristic off)."""
    ka, kb = [key(t) for t in a], [key(t) for t in b]
    ops: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes():
        if tag == "equal":
            ops.append(("eq", "".join(b[j1:j2])))
        else:
            if i2 > i1:
                ops.append(("del", "".join(a[i1:i2])))
            if j2 > j1:
                ops.append(("ins", "".join(b[j1:j2])))
    return ops


def _trim(a: list[str], b: list[str], key: Any) -> tuple[int, int]:
    """Lengths of the common head and tail of ``a`` and ``b`` (by key; not overlapping)."""
    n = min(len(a), len(b))
    head = 0
    while head < n and key(a[head]) == key(b[head]):
        head += 1
    tail = 0
    while tail < n - head and key(a[-1 - tail]) == key(b[-1 - tail]):
        tail += 1
    return head, tail


def _word_key(t: str) -> str:
    return t.lstrip() or " "


def _sentence_key(t: str) -> str:
    return t.strip()


@lru_cache(maxsize=256)  # the grid and the case page ask for the same pairs; 256 pairs of 100 kB texts ~ 80 MB
def diff_ops(base: str, text: str) -> tuple[tuple[tuple[str, str], ...], str]:
    """``(ops, level)``: ``text`` cut into ``("eq" | "del" | "ins", piece)`` against ``base``; ``level`` is
    ``word``, ``sentence`` or ``block`` (see the module's note). Linear in the texts' length past the budgets."""
    first: tuple[list[str], list[str], int, int] | None = None
    for level, pattern, key, budget in (("word", _TOKENS, _word_key, WORD_BUDGET),
                                        ("sentence", _SENTENCES, _sentence_key, SENTENCE_BUDGET)):
        a, b = pattern.findall(base), pattern.findall(text)
        head, tail = _trim(a, b, key)
        ma, mb = a[head:len(a) - tail], b[head:len(b) - tail]
        if first is None:
            first = (a, b, head, tail)
        if len(ma) + len(mb) <= _MAX_TOKENS and _scan_cost([key(t) for t in ma], [key(t) for t in mb]) <= budget:
            ops = [("eq", "".join(b[:head]))] if head else []
            ops += _compare(ma, mb, key)
            if tail:
                ops.append(("eq", "".join(b[len(b) - tail:])))
            return tuple(ops), level
    # the word level's common head and tail, the middle as one removed and one added block
    assert first is not None
    a, b, head, tail = first
    ops = [(t, "".join(p)) for t, p in (("eq", b[:head]), ("del", a[head:len(a) - tail]),
                                        ("ins", b[head:len(b) - tail]), ("eq", b[len(b) - tail:])) if p]
    return tuple(ops), "block"


def diff_pieces(base: Any, text: Any, *, context: int | None = None) -> list[tuple[str, str]]:
    """``text`` against ``base`` as ``(kind, piece)`` to show: kinds ``eq``, ``del`` (removed), ``ins`` (added),
    ``note`` (a long text compared by sentence or as one block says so first) and ``more`` (the short form stops).
    ``context``: keep only that many characters of unchanged text around each change (the grid's short form)."""
    if not isinstance(text, str):
        return []
    if not isinstance(base, str) or base == text:
        body = text if context is None or len(text) <= 2 * context else text[: 2 * context] + " …"
        return [("eq", body)]
    ops, level = diff_ops(base, text)
    out = [("note", _NOTES[level])] if level in _NOTES else []
    shown = 0
    for tag, piece in ops:
        if context is not None and shown > 8 * context:  # the grid's short form: the first changes only
            out.append(("more", "… (more changes on the case page)"))
            break
        if context is not None and len(piece) > 2 * context + 3:
            piece = piece[:context] + " … " + piece[-context:] if tag == "eq" else piece[:4 * context] + " …"
        out.append((tag, piece))
        shown += len(piece)
    return out


def diff_html(base: Any, text: Any, *, context: int | None = None) -> Any:
    """:func:`diff_pieces` as HTML: ``<del>`` removed, ``<ins>`` added, every piece escaped; a long text compared by
    sentence or as one block starts with a note saying so (``span.diff-note``)."""
    from markupsafe import Markup, escape

    parts = []
    for tag, piece in diff_pieces(base, text, context=context):
        if tag == "eq":
            parts.append(escape(piece))
        elif tag == "note":
            parts.append(Markup('<span class="diff-note">') + escape(piece) + Markup("</span> "))
        elif tag == "more":
            parts.append(Markup(' <span class="more">') + escape(piece) + Markup("</span>"))
        else:
            parts.append(Markup(f"<{tag}>") + escape(piece) + Markup(f"</{tag}>"))
    return Markup("").join(parts)
