"""Two given names written apart in lower case, standing where one name would be taken (issue 50, fifteenth session;
``benchmarks/deid_dev30.py``): "i came in with billy joe .", "me , mary beth and my son", "ask jo anne about it".
The place rules read one word in a person's place ("i came in with [billy] .", "me , [joe] and my son"): what stands
after the word is the place's end, and a second given name there breaks it, so neither word is taken, and the
neighbour rule has no name found to stand beside.

Taken: two lower-case words with one space between, neither found, not the same word twice ("thanks , ha ha ,"),
each a gazetteer given name (``Word.first``) English text uses less than Zipf :data:`.name_roles.ROLE_ZIPF`, no
function, demographic, drug, specialty, spoken or relative's word and no clinical word but a condition's ("ray"),
when each alone in the pair's place is taken: the sentence (or at most :data:`REACH` characters a side) is read
again by the detector with the second word left out, then with the first left out, and each run takes the word left
at the pair's start. A place that takes neither one word ("i do tai chi at the centre": "i do tai at the centre")
takes no pair. Pairs are rare in real speech (20 kinds, most of them full names found already, in 1 MB of real
dialogs; 5 sentences read again there), and only the sentence is read again; a sentence read once is not read again
(the same words around the same pair), and at most :data:`MAX_READ` pairs a text are read: a text of thousands of
given names in a row ("billy joe mary beth ..." for 40 kB took 3.3 s, 1 MB would take minutes) stays linear, and its
pairs past that many are left to the other rules. Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_roles import ROLE_ZIPF
from .name_tokens import Tok, distinct_texts, fold, key_indices
from .name_word import RELATIVES, blocked, word_facts
from .vocab import SPOKEN_WORDS, english_zipf

__all__ = ["MAX_READ", "given_pairs", "sentence_window", "REACH"]

#: how far the sentence read again reaches each side of the pair, at most
REACH = 200
#: at most this many pairs a text are read again (two detector runs on a sentence each; fifteenth session)
MAX_READ = 64
_END = re.compile(r"[.!?\n]")


@lru_cache(maxsize=4096)
def _given(key: str) -> bool:
    """A gazetteer given name that may be one (the module's docstring)."""
    if len(key) < 2 or not key.isalpha() or key in SPOKEN_WORDS or key in RELATIVES:
        return False
    w = word_facts(key)
    return w.first and not blocked(w) and w.clinical in (None, "condition") and english_zipf(key) < ROLE_ZIPF


def sentence_window(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around ``text[start:end]``, at most :data:`REACH` characters a side (also read by
    :mod:`.name_cantonese_prefix`)."""
    lo = max(0, start - REACH)
    ends = [m.end() for m in _END.finditer(text, lo, start)]
    lo = ends[-1] if ends else lo
    m = _END.search(text, end, min(len(text), end + REACH))
    return lo, m.end() if m else min(len(text), end + REACH)


def given_pairs(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                detect: Callable[[str], Sequence[tuple[int, int]]]) -> list[Tok]:
    """The pairs of given names apart that stand where one would be taken (the module's docstring); ``found``: the
    spans found so far; ``detect``: the detector's spans of a text (run on the sentence with a word left out)."""
    out: list[Tok] = []
    ok = {k for k in map(fold, filter(str.islower, distinct_texts(toks))) if _given(k)}  # the words' keys
    if not ok:
        return out
    taken = {s for s, _ in found}
    seen: dict[tuple[str, str, int], bool] = {}  # a sentence read: whether each word alone is taken there
    for i in key_indices(toks, ok):
        if i + 1 >= len(toks):
            break
        a, b = toks[i], toks[i + 1]
        if b.key not in ok or not (a.text.islower() and b.text.islower()) or a.start in taken or b.start in taken:
            continue
        if b.start != a.end + 1 or text[a.end] != " " or a.key == b.key:  # "ha ha", "bye bye": a word said twice
            continue
        lo, hi = sentence_window(text, a.start, b.end)
        first = text[lo:a.end] + text[b.end:hi]  # the second word left out
        second = text[lo:a.start] + text[b.start:hi]  # the first word left out
        at = a.start - lo
        if (first, second, at) not in seen:
            if len(seen) >= MAX_READ:
                break
            seen[first, second, at] = any(s == at for s, _ in detect(first)) \
                and any(s == at for s, _ in detect(second))
        if seen[first, second, at]:
            out += [a, b]
            taken |= {a.start, b.start}
    return out
