"""A name of two parts, each written as the Polynesian languages write a word and rare in English, that no rule takes
alone (issue 50, seventeenth session: ``benchmarks/deid_dev43.py``).

Samoan, Tongan, Māori, Cook Islands, Hawaiian and Fijian names are words of open syllables ("henare", "tapine",
"koro", "hona", "toga", "soli", "loke"). The detector takes such a word alone where no list holds it and it does not
look like English (:func:`.name_letters.open_syllables`: "eroni", "paora"); but a part the lists hold as a rare English
word ("koro", "hona", "toga", "mote", "soli", "loke", "kele") or one English reads as words run together or with a
silent "e" ("henare": "hen" + "are"; "tapine", "katene") is taken alone only by a slot rule that reads one word in its
place ("henare phoned the ward"). Two of them side by side are in no slot: "henare tapine dropped me at the door",
"i'm staying with koro hona till i'm better" kept the whole name in lower case (dev43 Māori 62.2 % on main 40dae43).

This module takes **two such words side by side** as one person's name (:func:`polynesian_pairs`), judged by what
each word is and where the pair stands:

* **each word** (:func:`polynesian_part`): letters only, a Polynesian word's shape (:func:`.name_letters.
  polynesian_word`: four letters or more, the vowels and f g h k l m n p r s t v w only, every consonant before a
  vowel, two vowels or more, rarer in English text than Zipf :data:`.name_letters.POLYNESIAN_ZIPF`, 3.0: not "more",
  "mine", "hole", "aloe", "sole"), no function, demographic, clinical, drug or specialty word, no eponym, no relative's
  word, spoken form or greeting; the two words differ ("kava kava" is a herb);
* **the pair**: only spaces between its words, written in lower case or capitalised (not in capitals: an acronym),
  exactly two such words (a third before or after is a phrase of the language, "mahalo nui loa", not a name); no
  determiner, possessive or quantity right before ("the marae hui", "my kumara patch": a thing); where the detector
  says a person may stand (``no_person_at``: no clinical word, facility or place after it).

Pairs of Polynesian words that English speakers use as words are mostly short ("kia ora", "tena koe", "aroha nui",
"ka pai": a word of two or three letters) or frequent ("talofa lava", "aloe vera", "kai moana": Zipf 3.0 or more) and
are left. Judges each distinct word once (cached) and reads only the places of the words so judged: linear in the text.
Used by :mod:`.name_rules` (source ``rule``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress

from .name_letters import polynesian_word
from .name_tokens import Tok, distinct_texts, fold, keys_of, texts_of
from .name_word import SEP_SPACE, blocked, word_facts
from .vocab import RELATIVES, SPOKEN_WORDS

__all__ = ["polynesian_part", "polynesian_pairs"]

#: right before a pair, a thing follows, not a person ("the marae hui", "some kumara", "my kumara patch")
_THING_BEFORE = frozenset("""the a an some any no this that these those every each my your his her our their its of
    more much few another""".split())
#: between the pair's words, and between a pair and a third such word: spaces only


@lru_cache(maxsize=100_000)
def polynesian_part(key: str) -> bool:
    """``key`` (lower case) may be one part of such a name: letters only, a Polynesian word's shape rare in English
    (:func:`.name_letters.polynesian_word`), no word a name never is (:func:`.name_word.blocked`), no clinical word,
    relative's word or spoken form."""
    if not key.isalpha() or not polynesian_word(key) or key in RELATIVES or key in SPOKEN_WORDS:
        return False
    w = word_facts(key)
    return not blocked(w) and (w.clinical is None or w.everyday)


def polynesian_pairs(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """Both words of each pair of :func:`polynesian_part` words side by side where a person may stand (module
    docstring): "henare tapine dropped me", "i'm staying with koro hona"."""
    texts, keys = texts_of(toks), keys_of(toks)
    # each distinct word is judged once; only the few words so judged are read (one pass in C over the words)
    shaped = {w for w in distinct_texts(toks) if polynesian_part(fold(w).lower())}
    at = set(compress(range(len(texts)), map(shaped.__contains__, texts)))
    out: list[Tok] = []

    def joined(i: int) -> bool:  # toks[i] and toks[i + 1] are both such words with only spaces between
        return i in at and i + 1 in at and SEP_SPACE.fullmatch(text, toks[i].end, toks[i + 1].start) is not None

    for i in sorted(at):
        if not joined(i):
            continue
        a, b = toks[i], toks[i + 1]
        if a.key == b.key or joined(i - 1) or joined(i + 1):  # "kava kava"; a run of three: a phrase
            continue
        if a.text.isupper() or b.text.isupper() or i > 0 and keys[i - 1] in _THING_BEFORE:
            continue
        if no_person_at(text, a.start, b.end):
            continue
        out += [a, b]
    return out
