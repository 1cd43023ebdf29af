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
    assert places("aaaa", "aa") == [0, 1, 2] and places("abc", "x") == []
