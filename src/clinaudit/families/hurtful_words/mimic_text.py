"""Clinical-note text units for Hurtful Words: sentences, ≥ 20-token sequences, 512-token windows (P4 §3.3).

* :func:`split_sentences` — our rule-based reading of the sentence splitting P4
  took from ClinicalBERT (heuristic sections, then spaCy with "period followed
  by a title-case word" boundaries): paragraphs at blank lines; inside a
  paragraph a line break ends a sentence when the next line starts a list item
  (``-``, ``*``, ``1.``, ``2)``) or a heading (``Plan:``) or the line ends with
  ``:``, ``.``, ``!`` or ``?``; other line breaks are wrapped text; then a
  sentence ends after ``.``/``!``/``?`` followed by whitespace and an upper-case
  letter, a digit or ``[**`` — except after ``Mr.``, ``Ms.``, ``Mrs.``,
  ``Dr.``, ``St.``, ``vs.``, ``No.``, ``pt.`` and single letters. A MIMIC
  de-identification span (``[**...**]``) is never split.
* :func:`pack_sentences` — P4's ``group_sents.py`` (``under_prob`` 0): short
  sentences are merged with the following ones until the sequence has at least
  ``min_tokens`` tokens (20 in P4); the rest of a note forms a last, possibly
  shorter, sequence.
* :func:`note_windows` — P4's ``make_targets.py``: with ``n = len(tokens) //
  stride``, the note itself when ``n == 0``, else windows ``[j·stride,
  j·stride + window)`` for ``j < min(n, max_windows)`` (window 510 = 512 minus
  [CLS]/[SEP], stride 256, at most 10 per note).

Tokens are character spans ``(start, end)`` so every sequence and window is an
exact slice of the note. :func:`regex_tokenizer` (the default: a de-id span,
a word, or one punctuation character) or :func:`hf_tokenizer` (a local
Hugging Face tokenizer's word pieces, e.g. SciBERT's, as P4 counted them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

__all__ = ["split_sentences", "pack_sentences", "note_windows", "note_sequences", "regex_tokenizer", "hf_tokenizer",
           "Tokenizer"]

Tokenizer = Callable[[str], list[tuple[int, int]]]

_TOKEN = re.compile(r"\[\*\*.*?\*\*\]|\w+|[^\w\s]", re.S)
_DEID = re.compile(r"\[\*\*.*?\*\*\]", re.S)
_LIST_OR_HEADING = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)]|[A-Za-z][A-Za-z /&]{0,40}:)")
_BOUNDARY = re.compile(r"[.!?]+(?=\s+(?:[A-Z0-9]|\[\*\*))")
_ABBREV = re.compile(r"(?:\b(?:Mr|Ms|Mrs|Dr|St|vs|No|pt|Pt)|\b[A-Za-z])\.$")


def regex_tokenizer(text: str) -> list[tuple[int, int]]:
    """Character spans of the tokens: a whole ``[**...**]`` span, a run of word characters, or one other character."""
    return [m.span() for m in _TOKEN.finditer(text)]


def hf_tokenizer(path: str | Path) -> Tokenizer:
    """Spans of a local (fast) Hugging Face tokenizer's tokens, without special tokens."""
    from ...errors import InputError

    if not Path(path).is_dir():
        raise InputError("no such tokenizer folder (a local Hugging Face tokenizer: a folder with "
                         "tokenizer.json or its vocabulary files)", file=str(path), field="--tokenizer")
    from transformers import AutoTokenizer

    try:
        tok = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"cannot load a tokenizer from this folder ({type(exc).__name__}: "
                         f"{' '.join(str(exc).split())[:200]})", file=str(path), field="--tokenizer") from None
    if not getattr(tok, "is_fast", False):
        raise InputError("not a fast tokenizer (offsets are needed): give a folder with tokenizer.json",
                         file=str(path), field="--tokenizer")

    def spans(text: str) -> list[tuple[int, int]]:
        enc = tok(text, add_special_tokens=False, return_offsets_mapping=True)
        return [(int(a), int(b)) for a, b in enc["offset_mapping"] if b > a]

    return spans


def _protected(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _DEID.finditer(text)]


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(a < pos < b for a, b in spans)


def _split_paragraph(par: str) -> list[str]:
    lines = [ln.strip() for ln in par.split("\n")]
    lines = [ln for ln in lines if ln]
    chunks: list[str] = []
    for ln in lines:
        prev = chunks[-1] if chunks else None
        if prev is None or _LIST_OR_HEADING.match(ln) or prev.endswith((":", ".", "!", "?")):
            chunks.append(ln)
        else:
            chunks[-1] = prev + " " + ln
    out: list[str] = []
    for chunk in chunks:
        deid = _protected(chunk)
        start = 0
        for m in _BOUNDARY.finditer(chunk):
            end = m.end()
            if _inside(m.start(), deid) or _ABBREV.search(chunk[start:end]):
                continue
            piece = chunk[start:end].strip()
            if piece:
                out.append(piece)
            start = end
        piece = chunk[start:].strip()
        if piece:
            out.append(piece)
    return out


def split_sentences(text: str) -> list[str]:
    """The note's sentences, in order (see the module docstring for the rules)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    out: list[str] = []
    for par in re.split(r"\n\s*\n", text):
        out.extend(_split_paragraph(par))
    return out


def pack_sentences(sentences: list[str], lengths: list[int], min_tokens: int = 20) -> list[tuple[str, int]]:
    """Greedy packing into ``(sequence text, tokens)``: close a sequence once it has ≥ ``min_tokens`` tokens."""
    if len(sentences) != len(lengths):
        raise ValueError("one token count per sentence is needed")
    seqs: list[tuple[str, int]] = []
    cur: list[str] = []
    total = 0
    for sent, n in zip(sentences, lengths):
        cur.append(sent)
        total += n
        if total >= min_tokens:
            seqs.append((" ".join(cur), total))
            cur, total = [], 0
    if cur:
        seqs.append((" ".join(cur), total))
    return seqs


def note_sequences(text: str, tokenize: Tokenizer = regex_tokenizer, min_tokens: int = 20) -> list[tuple[str, int]]:
    """Sentences of a note packed into sequences of at least ``min_tokens`` tokens (the pretraining unit)."""
    sents = split_sentences(text)
    return pack_sentences(sents, [len(tokenize(s)) for s in sents], min_tokens)


def note_windows(text: str, tokenize: Tokenizer = regex_tokenizer, *, window: int = 510, stride: int = 256,
                 max_windows: int = 10) -> list[str]:
    """Overlapping token windows of a note, as exact slices of its text (P4's sliding window)."""
    if window < 1 or stride < 1 or max_windows < 1:
        raise ValueError("window, stride and max_windows must be positive")
    spans = tokenize(text)
    if not spans:
        return []
    n = len(spans) // stride
    if n == 0:
        return [text[spans[0][0]:spans[-1][1]]]
    out = []
    for j in range(min(n, max_windows)):
        part = spans[j * stride: j * stride + window]
        out.append(text[part[0][0]:part[-1][1]])
    return out
