"""A surname or a given name of the Cantonese prefix "Ah" (阿) and one syllable, as Chinese families of Samoa, Tonga,
Fiji, Hawaiʻi and Aotearoa write theirs (issue 50, sixteenth session; ``benchmarks/deid_dev33.py``): "ah kuoi", "Ah
Choy", "ah fook". Written apart, the prefix is a word of speech ("ah okay", "ah , i see"), so no rule took it, and it
broke the place of the syllable after it ("i talked to ah hoy about it": "to" is no longer right before the name).

Taken: "ah" (lower case, or "Ah" before a capitalised syllable) with one space before a word written as one Cantonese
syllable (:func:`syllable`: an onset of up to three consonants, one to three vowels or a vowel and a glide "y" / "w",
then at most "ng", "nk", "ck", "k", "m", "n", "p", "t" or "h": "kuoi", "hoy", "ching", "mow", "puck", "yuen"; not
"john", "sorry", "okay", "well"), the same case as the prefix, no function, spoken, relative's or demographic word
("ah you know", "ah my back", "ah yo ,", "ah the nurse") and never the prefix twice:

* when the word after it is a name found by another rule, the prefix is taken with it, whatever the word's shape ("ah
  [kuoi]"; "ah [liki]", a Samoan form of two syllables; twenty-ninth session);
* "Po" (:data:`OTHER_PREFIXES`: "Po Ching", a Chinese-Samoan surname) only so, and only before one syllable: "po" is
  also the clinical "by mouth", which no name found follows ("500 mg po bid");
* otherwise, when the sentence read again without the prefix takes the syllable where it stands ("i talked to hoy
  about it" takes "hoy"), both are taken; a word the place rules keep ("ah see how it goes": "see how it goes") is
  never taken. The sentence (at most :data:`.name_given_pairs.REACH` characters a side) is read once and at most
  :data:`MAX_READ` prefixes a text are read again: "ah" before a syllable is rare in speech (none in the 1,668 real
  dialogs), and a text of thousands stays linear.

Never the interjection: not when the prefix opens a sentence and the syllable is followed by a comma, the sentence's
end or a question mark ("ah sam , come in", "ah man , that hurts", "ah right ."; after a comma the sentence read
again decides: "the pharmacist , ah [kuoi] , rang", "yes , ah right ."); never where the detector says no person
stands. Used by :mod:`.name_detect` (source ``rule``), not inside the sentences
it reads again (``find_names(pairs=False)``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_given_pairs import sentence_window
from .name_no_person import sentence_start
from .name_tokens import Tok, distinct_texts, key_indices
from .name_word import RELATIVES, word_facts
from .vocab import SPOKEN_WORDS

__all__ = ["MAX_READ", "OTHER_PREFIXES", "PREFIX", "prefixed_names", "syllable"]

#: the prefix, in lower case
PREFIX = "ah"
#: the other prefixes of Chinese-Samoan surnames ("Po Ching"), taken only before a syllable that is a name found
#: ("po" is also the clinical "by mouth": "500 mg po [bid]" has no name after it)
OTHER_PREFIXES = frozenset({"po"})
_PREFIXES = frozenset({PREFIX}) | OTHER_PREFIXES
#: the prefixes as written: lower case, or capitalised ("Ah Chong", "Po Ching")
_WRITTEN = frozenset(w for p in _PREFIXES for w in (p, p.capitalize()))
#: at most this many prefixes a text are read again (a detector run on a sentence each)
MAX_READ = 64
#: one syllable as Cantonese is romanised: onset, nucleus (vowels, or a vowel and a glide), coda
_SYLLABLE = re.compile(r"[bcdfghjklmnpqrstvwxyz]{0,3}(?:[aeiou]{1,3}|[aeiou]{1,2}[yw])(?:ng|nk|ck|[kmnpth])?")
#: after the syllable: the interjection's vocative or answer ends there ("ah sam , come in", "ah right .")
_SET_OFF = re.compile(r"[ \t]*(?:[,.!?;:]|\n|$)")


@lru_cache(maxsize=4096)
def syllable(key: str) -> bool:
    """``key`` (lower case) is written as one Cantonese syllable and may be a name: two to six letters, no function,
    spoken, relative's or demographic word, not the prefix itself."""
    if not 2 <= len(key) <= 6 or not key.isalpha() or key == PREFIX or key in SPOKEN_WORDS or key in RELATIVES:
        return False
    w = word_facts(key)
    return not (w.function or w.demographic) and _SYLLABLE.fullmatch(key) is not None



def _interjection(text: str, a: Tok, b: Tok) -> bool:
    """"ah" opens a sentence and the word after it is set off: an interjection and a vocative or an answer."""
    return sentence_start(text, a.start) and _SET_OFF.match(text, b.end) is not None


def prefixed_names(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                   detect: Callable[[str], Sequence[tuple[int, int]]],
                   no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The prefixes "ah" and the syllables after them that are a name (the module's docstring); ``found``: the spans
    found so far; ``detect``: the detector's spans of a text (run on the sentence without the prefix)."""
    out: list[Tok] = []
    if not _WRITTEN & distinct_texts(toks):
        return out
    taken = {s for s, _ in found}
    seen: dict[tuple[str, int], bool] = {}  # a sentence read without the prefix: whether it takes the syllable
    for i in key_indices(toks, _PREFIXES):
        a = toks[i]
        if i + 1 >= len(toks) or a.start in taken:
            continue
        b = toks[i + 1]
        if b.start != a.end + 1 or text[a.end] != " ":
            continue
        if not (a.text.islower() and b.text.islower() or a.text == a.key.capitalize() and b.text[:1].isupper()
                and b.text[1:].islower()):
            continue
        shaped, named = syllable(b.key), b.start in taken
        if not (shaped and named or a.key == PREFIX and (shaped or named)):
            continue  # a name found after "ah" whatever its shape ("ah [liki]"); "po" only before a syllable found
        if _interjection(text, a, b) or no_person_at(text, b.start, b.end):
            continue
        if named:
            out.append(a)
            continue
        lo, hi = sentence_window(text, a.start, b.end)
        without = text[lo:a.start] + text[b.start:hi]  # the prefix left out
        at = a.start - lo
        if (without, at) not in seen:
            if len(seen) >= MAX_READ:
                break
            seen[without, at] = any(s == at for s, _ in detect(without))
        if seen[without, at]:
            out += [a, b]
            taken |= {a.start, b.start}
    return out
