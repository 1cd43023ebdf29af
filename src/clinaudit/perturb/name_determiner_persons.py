"""A strong name after an article or a determiner, in lower case (issue 50, eleventh session;
``benchmarks/deid_dev16.py``).

After an article a lower-case word reads as a thing, a brand or a place ("the wixela", "a honda", "the keppra":
:func:`.not_a_name.thing_after_determiner`), so lower-case speech kept every name there that cased text removes by
its capital: "the kowalczyks came over", "she's a kowalczyk by marriage", "it's the kowalczyk way", "the zbigniew
thing happened again", "i'm staying with the kowalczyks". What decides here is what the word is, not the sentence's
other words: a **strong name** (:func:`strong_name`) is a person's name wherever it stands after a determiner, and
so is its plural ("the kowalczyks", "those adebayos", "the dlaminis'": :func:`strong_plural`). A word before a
facility's word ("the dlamini clinic") stays kept by :mod:`.name_detect`, as before.

A strong name is a one-word name of the gazetteer (philter-ucsf's given names or surnames) that

* no word list calls a word (not ``Word.common``, not a rare dictionary headword: "hunter", "baxter", "crawford"
  stay), no clinical, drug, function, demographic or specialty word, no eponym, no relative's or spoken word;
* English text barely uses: wordfreq's Zipf below :data:`STRONG_ZIPF` (2.3, about 200 uses a billion words: the
  frequency under which an inflected form counts as unused in English text, ``not_a_name._FORM_ZIPF``). 205 of the
  295 gazetteer name parts of the second development set that are no word lie below it (median 1.85), and few of
  the brands and shops the gazetteer also holds as names: "honda" 3.92, "toyota" 3.95, "kroger" 3.02, "subaru"
  3.26, "lexus" 3.27, "ikea" 3.49, "hilton" 3.75, "marriott" 3.35, "aetna" 2.86, "humana" 2.63; 2.5 took the real
  dialogs' "the venti place" (2.41);
* no place the lists know: no surname only that Webster's Second lists capitalised (Webster's capitalises places:
  "manchester", "baltimore"; the given names it capitalises, "tyler", "karen", are names).

A word in no list written with a letter no English word has (not a loanword's accent) is strong too ("the kjær
way", "the szczepańskas"), as the detector takes such a word elsewhere (:func:`strong_word`). A word in no list
otherwise is not: the real dialogs' brands are mostly such words ("the wixela", "the cetaphil").

Brands the gazetteer holds as names and English text seldom writes are taken too ("cigna" 2.28, "miele" 2.21): the
cost, measured on ``DEV16_WORD_USES``.
"""

from __future__ import annotations

from functools import lru_cache

from .name_cased import non_english_letter
from .name_frequency import webster_proper, word_shaped
from .name_tokens import S_AFTER
from .name_word import word_facts
from .vocab import RELATIVES, SPOKEN_WORDS, common_words, english_zipf, first_names, surnames

__all__ = ["STRONG_ZIPF", "strong_name", "strong_word", "strong_plural", "PLURAL_BEFORE", "owner_of_a_thing"]

#: how often English text may use a strong name at most (wordfreq Zipf; see the module's docstring)
STRONG_ZIPF = 2.3
#: the words before a plural name that make it a family ("the kowalczyks", "those adebayos", "all dlaminis")
PLURAL_BEFORE = frozenset("the those these some all both two three our my his her their".split())


def owner_of_a_thing(text: str, before: str, end: int) -> bool:
    """The word ending at ``end`` stands between "a"/"an" (``before``: the word before it, lower case) and a
    possessive: the article is the next noun's ("a yankie's fan", "an applebee's salad"), the word a brand's or a
    team's; a person's possessive takes "the" ("the kowalczyk's dog")."""
    return before in ("a", "an") and S_AFTER.match(text, end) is not None


@lru_cache(maxsize=50_000)
def strong_name(key: str) -> bool:
    """``key`` (lower case, folded) is a strong name (the module's docstring): a person after a determiner too."""
    if not key.isalpha() or len(key) < 3 or key in RELATIVES or key in SPOKEN_WORDS:
        return False
    first, surname = key in first_names(), key in surnames()
    if not (first or surname) or english_zipf(key) >= STRONG_ZIPF:
        return False
    w = word_facts(key)
    if w.common or w.rare or w.clinical is not None or w.function or w.demographic or w.eponym:
        return False
    return not (webster_proper(key) and not first) and not word_shaped(key)


def _foreign(word: str, key: str) -> bool:
    """Written with a letter no English word has (:func:`.name_cased.non_english_letter`: "kjær", "szczepańska"; not
    a loanword's accent, "café") and, folded, no word of the lists: a name, as the detector takes it elsewhere."""
    if not non_english_letter(word):
        return False
    w = word_facts(key)
    return not (w.common or w.clinical is not None or w.function or w.demographic or w.eponym)


def strong_word(word: str, key: str) -> bool:
    """``word`` (``key``: lower case, folded) is a strong name (:func:`strong_name`) or written with a letter no
    English word has and no word of the lists folded (:func:`_foreign`)."""
    return strong_name(key) or _foreign(word, key)


@lru_cache(maxsize=50_000)
def strong_plural(word: str, key: str) -> bool:
    """``key`` is a strong name's plural ("kowalczyks", "dlaminis", "szczepańskas") and no word of the lists."""
    if len(key) < 4 or not key.endswith("s") or key in common_words() or english_zipf(key) >= STRONG_ZIPF:
        return False
    stems = [key[:-1]] + ([key[:-2]] if key.endswith("es") else [])
    return any(strong_name(s) for s in stems) or _foreign(word, key[:-1])
