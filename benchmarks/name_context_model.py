"""A learned reading of a lower-case word's place (issue 50, eighteenth session): a logistic model of what the word
is and of the words around it, trained on the development sets and the shared real dialogs
(``benchmarks/train_name_context.py``), that takes a lower-case word no earlier stage took where a person most likely
stands. **Not in** ``clinaudit.perturb.name_rules.RULES`` and not in the package: a measured negative result (below),
kept here in ``benchmarks/`` as an experiment; the training script registers it last only while it records, and
``tests/test_name_context_model.py`` registers it to measure.

**Candidates**: a lower-case word of letters (two or more) on a line written in lower case (no capital but in the
speaker's label), not taken by a span found so far (``found``), never a word the lists block (``name_word
.blocked``: function, demographic, eponym, drug, specialty) nor one in ``vocab.SPOKEN_WORDS``, never where
``name_no_person.no_person_at`` says no person stands.

**Features** (:func:`word_features`, :func:`context_features`), no identity of the candidate itself: what the word is
(the lists that hold it: philter first / surname, the whitelist, common, rare, headword, a clinical kind, the
dictionary's known words; its Zipf bucket, its length, its letter shape) and where it stands (the words at -3 ... +3
on its line, lower case, by position, a word found as a name read as ``<name>`` and a rare word as ``<rare>``; their
classes; the punctuation before and after; the turn's start and the line's end; a neighbour found as a name; the same
word found as a name elsewhere in the text).

**Scoring** is dict look-ups: the weights (``benchmarks/name_context_model.json``, beside this module, 2,497 weights, 53 kB,
written by the training script; no scikit-learn at run time) summed over the features, the word's part cached a key; a word
whose own part and the most its place can add stay under the threshold is not read further (an exact bound: with these
weights it leaves none out). ``name_no_person.no_person_at`` is asked only of the words that score. The 1 MB
dialog: 0.1 s more CPU in a fresh process (ratio 0.99-1.10 against main, 4 rounds).

**Measured transfer** (``train_name_context.py --cv``: leave one development set out, each real file its own group,
the threshold chosen on the training folds; ``docs/deidentification.md``'s section of the eighteenth session): of the
1,620 injected names main leaves that the rule reads, 229 (14.1 %) are taken in the left-out sets; 9 of 5,890 words
used as words, 23 other words of the injected sentences and 3 words of the left-out real dialogs are taken wrongly.
In the sets it was trained on it takes far more (dev18 lower 73.2 -> 85.5 %): a place the sets do not write is a
place the model has not seen, and the held-out half's forms are such places. Registered, it moved no name of a fresh
transfer check (18 of 20, as main) and replaced one word more (3 of 20); the repository's tests failed on 19 words used
as words it replaced. Hence not registered.
"""

from __future__ import annotations

import json
from bisect import bisect_left
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from clinaudit.perturb.name_tokens import Tok, distinct_texts, starts_of, texts_of
from clinaudit.perturb.name_word import RELATIVES, blocked, word_facts
from clinaudit.perturb.vocab import FUNCTION_WORDS, SPOKEN_WORDS, english_zipf, first_names, surnames, whitelist_words
from clinaudit.perturb.word_known import known

__all__ = ["WORD_GROUPS", "context_features", "context_model_names", "load_model", "set_model", "word_features",
           "candidate_words", "candidate_key"]

#: the classes of a neighbouring word (:func:`word_class`)
PRONOUNS = frozenset("i me my mine you your yours he him his she her hers we us our they them their it its".split())
ARTICLES = frozenset("a an the this that these those some any every each no".split())
PREPOSITIONS = frozenset("with to from for by about at in on of like without except after before near than "
                         "into over under behind beside".split())
CONJUNCTIONS = frozenset("and or but so because if when while then".split())
AUX = frozenset("is was are were be been am has have had do does did will would can could should may might must "
                "isn't wasn't doesn't didn't won't can't couldn't".split())
TITLES = frozenset("mr mrs ms miss dr doctor nurse sister father auntie uncle aunt nana papa".split())
GREETINGS = frozenset("hi hello hey morning thanks thank bye cheers evening afternoon".split())

_LABEL = re.compile(r"[ \t]*(?:\[[^\]\n]+\]|[A-Za-z_ ]{1,30}:)")
_PUNCT = re.compile(r"[.,?!;:\"()]")
#: the feature groups that depend on the word alone (each feature's name is its group, "=" and its value)
WORD_GROUPS = ("first", "sur", "white", "common", "rare", "headword", "known", "clin", "everyday", "gaz", "z", "len",
               "shape")


@lru_cache(maxsize=50_000)
def word_class(key: str) -> str:
    """A neighbouring word's class."""
    for name, words in (("pron", PRONOUNS), ("art", ARTICLES), ("prep", PREPOSITIONS), ("conj", CONJUNCTIONS),
                        ("aux", AUX), ("title", TITLES), ("greet", GREETINGS), ("rel", RELATIVES)):
        if key in words:
            return name
    if key.endswith("ing"):
        return "ing"
    if key.endswith("ed"):
        return "ed"
    if key in FUNCTION_WORDS:
        return "func"
    return "word" if english_zipf(key) >= 3.0 else "rare"


def _shape(key: str) -> str:
    """The word's letters as consonants and vowels, runs joined: "mele" -> "cvcv", "bright" -> "cvc"."""
    out: list[str] = []
    for ch in key:
        c = "v" if ch in "aeiou" else "c"
        if not out or out[-1] != c:
            out.append(c)
    return "".join(out)[:5]


@lru_cache(maxsize=100_000)
def word_features(key: str) -> tuple[str, ...]:
    """What the lists say of ``key`` (lower case, folded), as feature names; no identity of the word itself."""
    w = word_facts(key)
    z = english_zipf(key)
    feats = [f"first={key in first_names()}", f"sur={key in surnames()}", f"white={key in whitelist_words()}",
             f"common={w.common}", f"rare={w.rare}", f"headword={w.headword}", f"known={known(key)}",
             f"clin={w.clinical}", f"everyday={w.everyday}", f"gaz={w.gazetteer}",
             f"z={min(int(z * 2), 14)}", f"len={min(len(key), 9)}", f"shape={_shape(key)}"]
    return tuple(feats)


#: the neighbours read: offset, its word's feature prefix, its class's (none at -3 and +3)
_PLACES = tuple((k, f"w{k:+d}=", f"c{k:+d}=" if abs(k) <= 2 else "") for k in (-3, -2, -1, 1, 2, 3))


def _neighbour(t: Tok, found_at: set[int]) -> str:
    if t.start in found_at:
        return "<name>"
    return _as_neighbour(t.key)


@lru_cache(maxsize=50_000)
def _as_neighbour(key: str) -> str:
    return key if english_zipf(key) >= 3.0 or key in FUNCTION_WORDS else "<rare>"


def context_features(text: str, line: Sequence[Tok], i: int, found_at: set[int], found_keys: set[str],
                     line_start: int, line_end: int) -> list[str]:
    """Where ``line[i]`` stands: the words at -3 ... +3 of its line (``line``: its words, in order), their classes,
    the punctuation before and after, the turn's start and the line's end, a neighbour found as a name
    (``found_at``: the starts of the words found), the same word found elsewhere (``found_keys``)."""
    t = line[i]
    feats = []
    for k, w_at, c_at in _PLACES:
        j = i + k
        word = _neighbour(line[j], found_at) if 0 <= j < len(line) else "<edge>"
        feats.append(w_at + word)
        if c_at:
            feats.append(c_at + (word if word[0] == "<" else word_class(word)))
    before = text[line[i - 1].end if i else line_start:t.start]
    after = text[t.end:line[i + 1].start if i + 1 < len(line) else line_end]
    feats.append("p-=" + (_PUNCT.findall(before)[-1:] or [""])[0] if before != " " else "p-=")
    feats.append("p+=" + (_PUNCT.findall(after)[:1] or [""])[0] if after != " " else "p+=")
    if i == 0:
        feats.append("turn_start")
    if i + 1 == len(line):
        feats.append("line_end")
    if text[t.end:t.end + 2] in ("'s", "’s"):
        feats.append("possessive")
    if t.key in found_keys:
        feats.append("found_same")
    return feats


class Model:
    """The weights, the bias, the threshold, and for each feature group the most it can add (the pruning bound)."""

    def __init__(self, data: dict) -> None:
        self.weights: dict[str, float] = data.get("weights", {})
        self.bias: float = data.get("bias", 0.0)
        self.threshold: float = data.get("threshold", float("inf"))
        best: dict[str, float] = {}
        for f, w in self.weights.items():
            g = f.split("=")[0]
            if g not in WORD_GROUPS:
                best[g] = max(best.get(g, 0.0), w)
        self.context_max = sum(best.values())
        self._word: dict[str, float] = {}

    def word_score(self, key: str) -> float:
        s = self._word.get(key)
        if s is None:
            wt = self.weights
            s = self._word[key] = self.bias + sum(wt.get(f, 0.0) for f in word_features(key))
        return s

    def score(self, key: str, context: Sequence[str]) -> float:
        wt = self.weights
        return self.word_score(key) + sum(wt.get(f, 0.0) for f in context)


#: the weights, bias and threshold, beside this module (written by ``train_name_context.py``)
WEIGHTS = Path(__file__).resolve().parent / "name_context_model.json"
_MODEL: list[Model] = []


def load_model() -> Model:
    """The model written beside this module (:data:`WEIGHTS`; once a process)."""
    if not _MODEL:
        path = WEIGHTS
        _MODEL.append(Model(json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}))
    return _MODEL[0]


def set_model(data: dict | None) -> None:
    """Use ``data`` (the JSON's dict) as the model, or the one in :data:`WEIGHTS` again with None (the training script)."""
    _MODEL.clear()
    if data is not None:
        _MODEL.append(Model(data))


@lru_cache(maxsize=100_000)
def candidate_key(key: str) -> bool:
    """A word the rule reads: letters, two or more, no spoken form nor a word the lists block; in the gazetteer or
    no dictionary word (72 % of the names the rules leave in the development sets, 11 % of the real dialogs' words
    left); Zipf under :data:`MAX_ZIPF`."""
    if not key.isalpha() or len(key) < 2 or key in SPOKEN_WORDS or english_zipf(key) >= MAX_ZIPF:
        return False
    w = word_facts(key)
    return not blocked(w) and (w.gazetteer or not known(key))


#: the commonest words are no candidates (1 % of the names left, a third of the real dialogs' words left)
MAX_ZIPF = 5.5


def candidate_words(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                    no_person_at: Callable[[str, int, int], bool] | None,
                    keep: Callable[[str], bool] | None = None) -> list[tuple[Tok, list[str]]]:
    """The candidates of ``text`` (the module's docstring) whose word ``keep`` lets through, each with its context
    features (``no_person_at`` None: not asked here; the rule asks it of the words that score). The words are read by their distinct written forms first, a line only where one stands (the 1 MB
    dialog: 174,000 words, 2,500 candidates)."""
    wanted = {w for w in distinct_texts(toks) if candidate_key(w) and (keep is None or keep(w))}
    if not wanted:
        return []
    idx = [i for i, w in enumerate(texts_of(toks)) if w in wanted]
    found_at = {s for s, _e in found}
    found_keys = {text[s:e].lower() for s, e in found}
    starts = starts_of(toks)
    taken = found_at | _covered(text, toks, starts, found)
    lines: dict[int, tuple[int, int, int, int] | None] = {}
    out: list[tuple[Tok, list[str]]] = []
    for i in idx:
        t = toks[i]
        if t.start in taken:
            continue
        ls = text.rfind("\n", 0, t.start) + 1
        if ls not in lines:
            lines[ls] = _lower_line(text, ls, starts)
        line = lines[ls]
        if line is None or t.start < line[0] or no_person_at is not None and no_person_at(text, t.start, t.end):
            continue
        body, le, lo, hi = line
        a, b = max(lo, i - 3), min(hi, i + 4)
        out.append((t, context_features(text, toks[a:b], i - a, found_at, found_keys,
                                        body if a == lo else toks[a - 1].end, le if b == hi else toks[b].start)))
    return out


def _lower_line(text: str, ls: int, starts: Sequence[int]) -> tuple[int, int, int, int] | None:
    """The line of ``text`` that starts at ``ls`` when written in lower case (no capital after the speaker's label):
    where its body starts, where it ends, its first word's index and the index after its last; None when not."""
    le = text.find("\n", ls)
    le = len(text) if le < 0 else le
    m = _LABEL.match(text, ls, le)
    body = m.end() if m else ls
    piece = text[body:le]
    if piece != piece.lower():
        return None
    return body, le, bisect_left(starts, body), bisect_left(starts, le)


def _covered(text: str, toks: Sequence[Tok], starts: Sequence[int], found: Sequence[tuple[int, int]]) -> set[int]:
    """The starts of the words that a span of ``found`` of more than one word takes (``starts``: the words')."""
    out: set[int] = set()
    for s, e in found:
        if not text[s:e].isalpha():
            k = bisect_left(starts, s)
            while k < len(starts) and starts[k] < e:
                if toks[k].end <= e:
                    out.add(starts[k])
                k += 1
    return out


#: the training script's hook: called with ``(text, candidates)`` for every text the rule reads, when set
RECORDER: list[Callable[[str, list[tuple[Tok, list[str]]]], None]] = []


def context_model_names(text: str, toks: Sequence[Tok], found_firsts: Sequence[tuple[int, int]],
                        no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The rule: the candidates whose score reaches the model's threshold (none while the training script
    records)."""
    if RECORDER:
        RECORDER[0](text, candidate_words(text, toks, found_firsts, no_person_at))
        return []
    model = load_model()
    if not model.weights:
        return []
    bound = model.threshold - model.context_max
    cands = candidate_words(text, toks, found_firsts, None, lambda key: model.word_score(key) >= bound)
    return [t for t, ctx in cands if model.score(t.key, ctx) >= model.threshold
            and not no_person_at(text, t.start, t.end)]
