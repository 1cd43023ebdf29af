"""How much like a name a word is that the word lists also call a common word, in lower-case dialogs (issue 50,
lower-case recall). Used by the name detector (:mod:`.name_detect`) through small hooks.

* **a proper noun of the dictionary**: Webster's Second International (english-words' ``web2`` list, 235,970 words,
  its case kept) writes proper nouns capitalised; a gazetteer name that only GCIDE's headwords call a word (not
  philter-ucsf's whitelist nor a spoken form) and that Webster's lists only capitalised ("Tyler", "Karen", "Jesus")
  is a name in lower case too (:func:`dictionary_proper_name`), as a rare word is (:func:`.vocab.rare_as_a_word`);
* **name-like**: a single-word gazetteer name, seldom inflected, no plural or inflection of an everyday word, and
  either rare in English text (wordfreq's Zipf below :data:`.vocab.RARE_ZIPF`: "bilal", "nystrom", "cho") or a
  proper noun in Webster's ("moore"), even when philter-ucsf's whitelist holds it (:func:`name_like`): a name where a
  person stands (next to a name found), not everywhere (the whitelist words of that kind include "uri", "francisco");
* **next to a name found in lower case** (:func:`lower_case_neighbour_ok`): a name-like word, a word written with a
  diacritic ("[name] nyström", "[name] groß"), a word in no list ("thembile [name]"), or a surname particle before one
  ("[name] de vries").
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib.util import find_spec
from pathlib import Path

from .name_tokens import Tok
from .name_writing import PARTICLES, has_diacritic
from .vocab import (INFLECTED_MARGIN, RARE_ZIPF, SPOKEN_WORDS, SUFFIXES, VocabularyMissing, common_words, english_zipf,
                    first_names, inflections_zipf, surnames, whitelist_words)

__all__ = ["webster_proper", "webster_capitalised", "name_like", "word_shaped", "particle_compound", "dictionary_proper_name", "lower_case_neighbour_ok"]


@cache
def _web2() -> frozenset[str]:
    """Webster's Second International's words, their case kept (english-words' ``web2`` list)."""
    spec = find_spec("english_words")
    if spec is None or not spec.submodule_search_locations:
        raise VocabularyMissing("de-identification needs the package english-words (word lists); install it with "
                                "`pip install english-words` (pinned in requirements/runtime.txt)")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "web2.pickle"
    with path.open("rb") as fh:
        return frozenset(pickle.load(fh))  # the package's own shipped word set


@cache
def _webster_proper() -> frozenset[str]:
    """The words (lower case) that Webster's Second International lists only capitalised: proper nouns."""
    web2 = _web2()
    return frozenset(w.lower() for w in web2 if w[:1].isupper() and w.lower() not in web2)


def webster_capitalised(key: str) -> bool:
    """Webster's Second International lists ``key`` (lower case) capitalised, also beside a lower-case entry
    ("Ted" and "ted", "Perry" and "perry": its vocabulary of given names)."""
    return key[:1].upper() + key[1:] in _web2()


def webster_proper(key: str) -> bool:
    """Webster's Second International lists ``key`` only capitalised ("Moore", "Tyler", "Karen"; not "harry")."""
    return key in _webster_proper()


def _inflected(key: str, zipf: float) -> bool:
    """``key`` is an inflected form of a common word about as frequent as itself or more ("pins", "miles", "wider");
    not "jesus" of the rare "jesu", "tyler" of "tyle" (which :func:`.vocab.plural_of_common` would count)."""
    words = common_words()
    for suffix, repl in SUFFIXES:  # vocab's inflections and simple suffixes ("pins" -> "pin")
        if key.endswith(suffix) and len(key) - len(suffix) >= 3:
            stem = key[: len(key) - len(suffix)]
            for cand in (stem + repl, stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2] else ""):
                if cand and cand in words and english_zipf(cand) >= max(2.5, zipf - 1):
                    return True
    return False


def word_shaped(key: str) -> bool:
    """Used inflected or built from a common word: an inflection of one (:func:`_inflected`), a "-y" adjective of an
    everyday word ("wavy", "icy"), or its commonest inflection within :data:`.vocab.INFLECTED_MARGIN` of it
    ("kiss"/"kissing")."""
    zipf = english_zipf(key)
    if key in SPOKEN_WORDS or _inflected(key, zipf):
        return True
    if zipf and inflections_zipf(key) >= zipf - INFLECTED_MARGIN:
        return True
    # an adjective of an everyday word ("wavy", "icy", "pinky"), its comparative ("cozier"); not "harry" of the
    # obsolete "harre" (the stem is a word English text uses: Zipf 3 or more)
    stem = key[:-1] if key.endswith("y") else key[:-3] + "y" if key.endswith("ier") else ""
    return bool(stem) and any(english_zipf(c) >= 3.0 for c in (stem, stem + "e", stem[:-1] if stem.endswith("y") else ""))


@lru_cache(maxsize=100_000)
def name_like(key: str) -> bool:
    """A one-word gazetteer name (lower case) that is not word-shaped (:func:`word_shaped`) and is rare in English
    text (Zipf below :data:`.vocab.RARE_ZIPF`) or a proper noun in Webster's: "bilal" 2.83, "nystrom", "cho" 3.49,
    "moore" (Webster's "Moore"); not "kiss", "park" (used inflected), "miller" 4.5, "levels"."""
    if not key.isalpha() or len(key) < 2 or not (key in first_names() or key in surnames()):
        return False
    return (english_zipf(key) < RARE_ZIPF or webster_proper(key)) and not word_shaped(key)


@lru_cache(maxsize=100_000)
def dictionary_proper_name(key: str) -> bool:
    """A given name of the gazetteer that only GCIDE's headwords call a word (not philter-ucsf's whitelist, not a
    spoken form), which Webster's lists only capitalised and which is not word-shaped: "tyler", "karen", "jesus"; a
    name in lower case wherever it stands (but after a determiner: "a hunter"). Not a surname alone (Webster's
    capitalises places: "manchester", "baltimore") nor a nationality ("irish", "british")."""
    return key in first_names() and not key.endswith(("ish", "ese")) and key not in whitelist_words() \
        and webster_proper(key) and name_like(key)


def lower_case_neighbour_ok(text: str, toks: Sequence[Tok], i: int, known_word: bool) -> bool:
    """``toks[i]`` may be part of a name found right next to it in lower case: a name-like word (:func:`name_like`:
    "[tyler] moore", "bilal [qureshi]"), a word written with a diacritic ("[jurgen] groß"), a word in no list
    (``known_word`` False: "thembile [ndlovu]"), or a surname particle before a word that may be one ("[sander] de
    vries")."""
    t = toks[i]
    if name_like(t.key) or has_diacritic(t.text) or not known_word and t.key.isalpha() and len(t.key) >= 3:
        return True
    if t.key in PARTICLES:  # "[sander] de vries", "[maarten] van der berg": the particles, when a surname follows
        j = i + 1
        while j < len(toks) and toks[j].key in PARTICLES and text[toks[j - 1].end:toks[j].start] == " " and j - i < 3:
            j += 1
        return j < len(toks) and text[toks[j - 1].end:toks[j].start] == " " and _after_particle(toks[j])
    # the word after a particle taken ("de [vries]")
    return i > 0 and toks[i - 1].key in PARTICLES and text[toks[i - 1].end:t.start] == " " and _after_particle(t)


def _after_particle(t: Tok) -> bool:
    """A word that may be a surname after a particle: a gazetteer name, a word with a diacritic, or a word rare in
    English text ("vries" 2.6)."""
    k = t.key
    return k not in PARTICLES and k.isalpha() and len(k) >= 2 and (
        k in first_names() or k in surnames() or has_diacritic(t.text) or english_zipf(k) < RARE_ZIPF)


#: Arabic and Hebrew particles written joined to a name by a hyphen ("al-farsi", "el-sayed", "abu-bakr", "ben-ami")
_JOINED_PARTICLES = frozenset("al el abu ibn bin bint ben".split())


def particle_compound(key: str) -> bool:
    """``key`` is a particle joined by a hyphen to a word of three letters or more ("al-farsi", "ben-ami"): a name, even
    when both parts are common words ("al", "farsi"); no English word is written so."""
    head, sep, rest = key.partition("-")
    return bool(sep) and head in _JOINED_PARTICLES and len(rest) >= 3 and rest.isalpha()
