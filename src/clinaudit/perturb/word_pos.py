"""What an English lexicon says a word can be (issue 50, twenty-fourth session): lemminflect's lemma tables (PyPI,
MIT; built from the SPECIALIST lexicon and AGID, shipped in its wheel, offline), read for the parts of speech a
lower-case word has.

A given name is a noun. A word the lexicon knows only as an adjective, an adverb or an inflected verb form ("unwell",
"alive", "exactly", "wept", "slept", "died") is no one's name in "my mum wept ." or "my son is unwell , he ...",
whatever place the sentence gives it; the word-name rules of lower-case speech
(:func:`.name_given_words.plain_word_name`) read such a word as no name. A word the lexicon does not hold ("uso", "tele") says nothing."""

from __future__ import annotations

from functools import lru_cache

__all__ = ["modifier_or_verb_form", "own_lemma", "unread", "verb_base", "verb_form"]

#: the lexicon's parts of speech that modify, not name ("unwell", "exactly")
_MODIFIERS = frozenset({"ADJ", "ADV"})


@lru_cache(maxsize=65536)
def modifier_or_verb_form(key: str, adjective: bool = True) -> bool:
    """lemminflect reads ``key`` (lower case), and only as an adjective, an adverb, or a verb form other than the
    verb's own base ("wept": weep, "died": die): no noun, no base-form verb ("peg", "pip", "toast" are not).
    ``adjective=False``: an adjective reading is no modifier's here ("diligent", "unwell" are not; "exactly", "wept"
    still are): for the places where a subject or an addressed person stands, where English puts no bare adjective."""
    from lemminflect import getAllLemmas

    readings = getAllLemmas(key)
    if not readings:
        return False
    return all((pos in _MODIFIERS if adjective else pos == "ADV") or pos == "VERB" and key not in lemmas
               for pos, lemmas in readings.items())


def verb_form(key: str) -> bool:
    """lemminflect reads ``key`` (lower case) as a verb form other than the verb's base, whatever else it reads it as
    ("drove": drive, though "a drove of cattle" is a noun; "wept"): a word after a relative's word that a sentence
    ends on is its verb ("my daughter drove .")."""
    from lemminflect import getAllLemmas

    return any(key not in lemmas for lemmas in getAllLemmas(key, "VERB").values())


@lru_cache(maxsize=65536)
def unread(key: str) -> bool:
    """lemminflect's lexicon holds no reading of ``key`` (lower case) at all."""
    from lemminflect import getAllLemmas

    return not getAllLemmas(key)


def verb_base(key: str) -> bool:
    """lemminflect reads ``key`` (lower case) as a verb's base ("mark", "hope", "will"; not "rose")."""
    from lemminflect import getAllLemmas

    return any(key in lemmas for lemmas in getAllLemmas(key, "VERB").values())


def own_lemma(key: str) -> bool:
    """lemminflect's lexicon reads ``key`` (lower case) as its own lemma ("hunter", "power"): no comparative of "-er"
    ("wider": "wide"; :func:`.vocab.inflected_everyday`). A word it does not hold says nothing ("sholder", a misspelt
    "shoulder")."""
    from lemminflect import getAllLemmas

    return any(key in lemmas for lemmas in getAllLemmas(key).values())
