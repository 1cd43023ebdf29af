"""What the word lists say about one word of a dialog (:class:`Word`, read once a word and cached), and the small
pieces every name rule shares: the relatives' and determiners' words, the separator between two words, the window
the rules look through (:mod:`.name_detect`, :mod:`.name_context`)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .name_clinical import everyday_icd_name
from .name_compound import compound_given_name
from .name_frequency import dictionary_proper_name, particle_compound
from .name_headword import headword_only_name
from .name_tokens import Tok
from .not_a_name import inflected_common
from .vocab import (ADDED_FIRST_NAMES, CLINICAL_SHORT, DEMOGRAPHIC_WORDS, EPONYMS, FUNCTION_WORDS, KIN_CALLS,
                    POSSESSIVES, RARE_ZIPF, RELATIVES, SPOKEN_WORDS, WORD_NAME_ZIPF, clinical_category, common_words,
                    english_zipf, first_names, inflected_everyday, is_common, plural_of_common, rare_as_a_word,
                    surnames, whitelist_words)

__all__ = ["Word", "word_facts", "blocked", "address_word_name", "word_name", "unlisted_word", "RELATIVES", "DETERMINERS", "OWNERS", "SEP_SPACE", "SEP_COMMA", "SEP_PERIOD", "sep", "WINDOW", "after", "GRAMMAR_NAMES"]

#: words that make the next word a thing or a role, not a name ("the doctor", "a venti")
DETERMINERS = frozenset("the a an any other another that this your my his her our their every each some no "
                        "family primary".split())
#: a determiner or a possessive before a word: it is owned or pointed at, a thing or a role ("the sorrel's leaves",
#: "my long term"), not a name standing alone
OWNERS = DETERMINERS | POSSESSIVES | {"its"}
#: only spaces between two words
SEP_SPACE = re.compile(r"[ \t]+")
#: spaces and maybe a comma between two words ("hi , X"), and spaces and maybe a period ("Dr. X"); nothing too
SEP_COMMA = re.compile(r"[ \t]*,?[ \t]*")
SEP_PERIOD = re.compile(r"[ \t]*\.?[ \t]*")

#: How far the rules look after a word ("disease", a facility's word, a clause's end) or before it (a sentence's
#: start): a bounded window keeps de-identification linear in the text's length.
WINDOW = 120


def after(text: str, pos: int) -> str:
    """The text right after ``pos``, as far as the rules look (:data:`WINDOW`)."""
    return text[pos:pos + WINDOW]


def sep(text: str, a: Tok, b: Tok) -> str:
    """What stands between two words of ``text``."""
    return text[a.end:b.start]


class Word(NamedTuple):
    """What the word lists say about one word (lower case, diacritics folded, possessive dropped). A named tuple
    (issue 50, ninth session: built once a distinct word, in a quarter of a frozen dataclass's time)."""

    common: bool  # a common English or medical word
    gazetteer: bool  # in the first-name or surname list
    first: bool  # in the first-name list
    clinical: str | None  # clinical-vocabulary category
    function: bool  # a function word, greeting, title or form of address: never a name
    demographic: bool
    eponym: bool  # a clinical eponym (Achilles, Gleason, Lachman): never a name
    rare: bool = False  # a dictionary headword that is rare as a word (:func:`.vocab.rare_as_a_word`): not ``common``
    #: a drug word of the lists that is also a gazetteer name English text seldom uses (Zipf < 3.3): "hana",
    #: "cerna" (issue 50, seventh session); a name where a naming context or a person's place says so, never found bare
    person_drug: bool = False
    #: ``rare`` only as a given name that a dictionary's headword alone calls a word (:mod:`.name_headword`: "eric",
    #: "laura"); written in capitals it is read as a word (an acronym: "the TROY trial", "searched ERIC")
    headword: bool = False
    #: a gazetteer name ICD-10-CM holds only in its external-cause or factors chapters (:mod:`.name_clinical`: "park",
    #: "cliff"): ``clinical`` None for the name rules; the detector's own word test reads it as a condition word
    everyday: bool = False


_PARTS = re.compile(r"[-']")


def _unread_given_name(key: str, first: bool) -> bool:
    """A given name of the gazetteer that a modern English lexicon holds no reading of (lemminflect's, built from the
    SPECIALIST lexicon and AGID: :func:`.word_pos.unread`), though GCIDE's headwords call it a word ("sam", "rory",
    "barry", "manu"): no whitelist, spoken, function, demographic, relative's or kin word, no clinical word (issue
    50, twenty-fifth session)."""
    from .word_pos import unread

    return first and key.isalpha() and len(key) >= 3 and key not in whitelist_words() and key not in SPOKEN_WORDS \
        and key not in FUNCTION_WORDS and key not in DEMOGRAPHIC_WORDS and key not in RELATIVES and key not in KIN_CALLS \
        and unread(key) and clinical_category(key) is None


def _plural_of_word(key: str) -> bool:
    """:func:`.vocab.plural_of_common`, but not of a headword no modern English lexicon reads
    (:func:`.word_pos.unread`), itself rare as a word (:attr:`Word.rare`), unless the plural is an everyday word or
    common in English text: "bains" of "bain" is a surname (issue 50, twenty-sixth session); "moats", "hilts", "jeans"
    stay plurals. The stems read are the word less "s" and less "es", whichever is a common word (a five-letter "-es"
    word's shorter stem too, which :func:`.vocab.plural_of_common` does not read: "coles" of "col")."""
    from .word_pos import unread

    if not plural_of_common(key):
        return False
    stems = [stem for stem in (key[:-1], key[:-2] if key.endswith("es") else "") if stem in common_words()]
    return english_zipf(key) >= RARE_ZIPF or key in whitelist_words() \
        or any(not (unread(stem) and word_facts(stem).rare) for stem in stems)


@lru_cache(maxsize=200_000)
def word_facts(key: str) -> Word:
    parts = [p for p in _PARTS.split(key) if p]
    gazetteer = key in first_names() or key in surnames() or (
        len(parts) > 1 and all(p in first_names() or p in surnames() for p in parts))  # "marie-claude"
    first = key in first_names()
    # a name of the gazetteer is a common word only as it is written ("sander", "lars" are no inflected "sand",
    # "lar"), or, when it is no given name, as an inflected form of an everyday word ("pins", "fries", "messing",
    # "wider": issue 50's false replacements; the stem is a whitelist word, not a rare dictionary headword)
    inflected = not first and gazetteer and inflected_common(key)  # "messing", "hotter", "burgers": no rare word
    common = (key in common_words() or _plural_of_word(key) or inflected or (not first and inflected_everyday(key))) \
        if gazetteer and len(parts) == 1 else (is_common(key) or (len(parts) > 1 and all(is_common(p) for p in parts)))
    rare = common and gazetteer and len(parts) == 1 and not inflected and (rare_as_a_word(key) or dictionary_proper_name(key))
    headword = common and gazetteer and len(parts) == 1 and not inflected and not rare and (
        headword_only_name(key) or _unread_given_name(key, first))  # written in capitals an acronym: "JAK-2 is positive"
    rare = rare or headword or (key in ADDED_FIRST_NAMES and english_zipf(key) < RARE_ZIPF)  # "fetu", "iulia"
    common = common and not particle_compound(key)  # "al-farsi", "abu-bakr": an Arabic or Hebrew particle joined on
    compound = "-" in key and compound_given_name(key)  # "marie-claire", "daisy-may", "mi-young": a given name
    if compound:
        common, gazetteer, first = False, True, True
    everyday = everyday_icd_name(key, gazetteer)  # "park", "cliff": ICD-10-CM's external causes only
    clinical, eponym = None if everyday else clinical_category(key), key in EPONYMS
    return Word(common=common and not rare, gazetteer=gazetteer, first=first, rare=rare, clinical=clinical,
                 function=not compound and (key in FUNCTION_WORDS or any(p in FUNCTION_WORDS for p in parts)),
                 demographic=key in DEMOGRAPHIC_WORDS, eponym=eponym,
                 person_drug=_person_drug(key, gazetteer, clinical, eponym), headword=headword, everyday=everyday)


def _person_drug(key: str, gazetteer: bool, clinical: str | None, eponym: bool) -> bool:
    """``Word.person_drug``, from what :func:`word_facts` has found of ``key`` (its clinical category, an eponym)."""
    return gazetteer and clinical == "drug" and key not in CLINICAL_SHORT and not eponym \
        and english_zipf(key) < PERSON_DRUG_ZIPF


#: how common in English text a drug word may be to be a person's name in a naming context ("hana" 3.21; not
#: "metro" 4.2, "marijuana" 4.2, "ecstasy" 3.5)
PERSON_DRUG_ZIPF = 3.3

def blocked(w: Word) -> bool:
    """Never a name, whatever the context: function words, demographic words, drugs (but a gazetteer name English
    seldom writes: ``Word.person_drug``, "Hana", "Cerna"), specialties, eponyms."""
    return w.function or w.demographic or w.eponym or w.clinical == "specialty" \
        or w.clinical == "drug" and not w.person_drug


def word_name(key: str, given: bool = False, listed: bool = True) -> bool:
    """A one-word gazetteer name that is also a word, a name in lower case where the dialog says so: letters only, no
    clinical word nor spoken form, rarer in English text than :data:`.vocab.WORD_NAME_ZIPF`. ``given=False``
    (:mod:`.name_mentions`: taken elsewhere in the dialog, before a surname): a given name or a surname of three
    letters or more, no function, demographic or relative's word nor an eponym; ``given=True``
    (:func:`.name_neighbour_words.lower_word_name`: beside a name found, "[fatima] ali"): a given name of two letters
    or more, whatever else the lists call it (a given name the lists lack, :data:`.vocab.ADDED_FIRST_NAMES`, however
    often English writes it: "[semi] leota"). ``listed=False`` (with ``given=False``; for
    :func:`.name_mentions.named_word`): a common English word in place of the gazetteer name, the rest the same ("peg",
    "tele")."""
    if not key.isalpha() or key in SPOKEN_WORDS:
        return False
    if given and key in ADDED_FIRST_NAMES:
        return True
    w = word_facts(key)
    if w.clinical is not None or english_zipf(key) >= WORD_NAME_ZIPF:
        return False
    if given:
        return len(key) >= 2 and w.first
    return len(key) >= 3 and (w.gazetteer if listed else w.common) and not (w.function or w.demographic or w.eponym) \
        and key not in RELATIVES


def unlisted_word(key: str, rare: bool = False) -> bool:
    """Letters in no word list: no common, gazetteer, clinical, function or demographic word, no eponym
    (:func:`.name_letters.capital_names`); ``rare``: also three letters or more, rarer in English text than
    :data:`.vocab.RARE_ZIPF` (a name that looks like a word: "jirina", "razvan"; :mod:`.name_mentions`)."""
    w = word_facts(key)
    return key.isalpha() and not (w.common or w.gazetteer or w.clinical is not None or w.function or w.demographic
                                  or w.eponym) and (not rare or len(key) >= 3 and english_zipf(key) < RARE_ZIPF)


#: function words of the gazetteer that are no name where the writing sets one (grammar, fillers, titles, relatives,
#: numbers, words for a person: "Dr. Then", "Mrs. Him", "Boss Kelly"); with ``beside``, also times ("June Kelly")
GRAMMAR_NAMES = frozenset("""an been down even ever gave gon he him like might much now said say shall soon still
    such than them then too were while will uh um yep hey bye later miss mister sir doctor daughter husband folks
    people thousand forty nine ten seven welcome god boy girl guy kid lady man boss mama papa dude pal champ bud
    buddy babe bro sis hon gentleman sport""".split())
_TIME_NAMES = frozenset("""january february march april may june july august september october november december
    christmas easter tomorrow""".split())


def address_word_name(key: str, w: Word, beside: bool = False) -> bool:
    """Capitalised where cased writing sets a name (after a title: "Mrs. Love"; ``beside``: right before a surname
    found, "Happy Sandhu"), a gazetteer name the lists hold as a function word of address or feeling ("love",
    "happy", "honey", "darling"), no grammar nor a word for a person ("Dr. Then", "Boss Kelly"; :data:`GRAMMAR_NAMES`)
    and, beside a name, no month or holiday (issue 50, eighth session)."""
    return w.gazetteer and w.function and not (w.demographic or w.eponym) and key.isalpha() \
        and key not in GRAMMAR_NAMES and not (beside and (key in _TIME_NAMES or not w.first))
