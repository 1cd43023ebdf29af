"""Whole-text scans the regex engine searches fast give the very matches of ``finditer`` (issue 50, seventh
session: the 1 MB dialog back under 2 s)."""

from __future__ import annotations

import random
import re

import pytest

from clinaudit.perturb.text_scan import CAPITAL_START, anchored_finditer, places

_TEXTS = ["Per who said it, Per who who", "talked to to Costa on the phone .", "d'd'amico o'brien n’diaye",
          "X-Per who\nPer who", "aPer who", "’Per who", "Éva who", "to\tBob . tofu to Ann"]


def _spans(matches):
    return [(m.span(), m.groups()) for m in matches]


def _random_texts(n: int) -> list[str]:
    rnd = random.Random(50)
    pieces = list("aAdDoOtTwWhHeEpPrR  \t\n'’-_.,é") + ["who ", "to ", "Per ", "d'", "talked "]
    return ["".join(rnd.choice(pieces) for _ in range(300)) for _ in range(n)]


@pytest.mark.parametrize("text", _TEXTS + _random_texts(40))
def test_capital_start_is_a_word_start(text):
    old = re.compile(r"(?<![\w'’\-])([A-Z][a-z]+)[ \t]+who\b")
    new = re.compile(rf"({CAPITAL_START}[a-z]+)[ \t]+who\b")
    assert _spans(new.finditer(text)) == _spans(old.finditer(text))


@pytest.mark.parametrize("text", _TEXTS + _random_texts(40))
def test_anchored_scans_find_what_finditer_finds(text):
    told = re.compile(r"(?<![\w'’\-])(?:[Tt]alked|[Tt]o)[ \t]+(?:to[ \t]+)?([A-Za-z]+)")  # matches that overlap
    assert _spans(anchored_finditer(told, text, ("talked", "Talked", "to", "To"))) == _spans(told.finditer(text))
    elided = re.compile(r"(?<![\w'’\-])[dlno]['’]([a-z]{3,})")
    starts = tuple(c + a for c in "dlno" for a in "'’")
    assert _spans(anchored_finditer(elided, text, starts)) == _spans(elided.finditer(text))


def test_places_overlap():
    # a tuple: the answer is kept for the last texts read (text_scan.remembered), so no caller may change it
    assert places("aaaa", "aa") == (0, 1, 2) and places("abc", "x") == ()


def test_words_after_a_determiner_as_the_scan_finds_them():
    # name_prep.after_determiner reads only a word's places; _THING.finditer's matches are the reference ("the that
    # wixela": the scan's first match takes "that" as its word, so "that wixela" is none)
    from clinaudit.perturb.name_prep import _THING, after_determiner

    rnd = random.Random(7)
    pieces = ["the", "a", "an", "that", "my", "wixela", "x", "-", "'", "é", "athe", "\n", "_", "2"]
    texts = ["the that wixela", "the the the wixela", "a an the wixela x", "my wixela-x the wixela's"]
    texts += ["".join(rnd.choice(pieces) + rnd.choice(["", " ", "  ", "\t"]) for _ in range(20)) for _ in range(300)]
    for text in texts:
        found: dict[str, list[tuple[int, int]]] = {}
        for m in _THING.finditer(text):
            found.setdefault(m.group(1), []).append((m.start(), m.end(1)))
        for word in set(found) | {"wixela", "x", "the", "that"}:
            assert after_determiner(text, word) == tuple(found.get(word, ())), (text, word)
