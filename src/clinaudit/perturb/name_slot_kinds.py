"""What the place rules of the detector ask of a word (de-identification, :mod:`.name_detect`).

The rules that read where a word stands (:mod:`.name_slots`, :mod:`.name_bare_person`, :mod:`.name_rare_slots`,
:mod:`.name_object`, :mod:`.name_person_verbs`, ...) take a predicate that says what the word itself may be; those
predicates live here: :func:`slot_kind` (``"gazetteer"``, ``"unlisted"``, ``"word"`` or None) with its word test
:func:`slot_unlisted` and :func:`slot_word`, :func:`rare_slot_word` / :func:`rare_slot_kind` (a word in no list or a
rare headword), :func:`may_name`, :func:`name_or_unlisted`, :func:`object_may_be`, :func:`person_verb_may_be` and
:func:`lower_person_verb_may_be`. Each answers None or False where no person stands
(:func:`.name_no_person.no_person_at`). Moved out of :mod:`.name_detect` unchanged but for :func:`slot_word`, the one
test :func:`slot_kind` and the bare-word scan used to write each (issue 50, fifteenth session).
"""

from __future__ import annotations

from .name_cased import rare_headword
from .name_frames import lower_case_text
from .name_frequency import name_like
from .name_given_words import plain_word_name
from .name_neighbour_words import NAME_FUNCTION, lower_word_name
from .name_no_person import no_person_at
from .name_prep import thing_in_dialog
from .name_rare_listed import rare_listed
from .name_rare_slots import HEADWORD_ZIPF
from .name_tokens import Tok as _Tok
from .name_word import RELATIVES
from .name_word import Word as _Word
from .name_word import blocked as _blocked
from .name_word import word_facts as _word
from .name_writing import misspelt_drug
from .vocab import SPOKEN_WORDS as _SPOKEN_WORDS
from .vocab import english_zipf, whitelist_words

__all__ = ["lower_person_verb_may_be", "may_name", "name_or_unlisted", "object_may_be", "person_verb_may_be",
           "rare_common", "rare_slot_kind", "rare_slot_word", "slot_kind", "slot_unlisted", "slot_word"]


def rare_common(key: str, w: _Word) -> bool:
    """A common word, no clinical, function, demographic word or eponym, only as a rare dictionary headword:
    :func:`.name_detect._rare_inside`'s and :func:`rare_slot_word`'s word test."""
    return w.common and not (w.clinical or w.function or w.demographic or w.eponym) and rare_headword(key)


def object_may_be(text: str, t: _Tok) -> bool:
    """A capitalised object of "call", "ask", "to", ... (:func:`.name_object.capital_objects`) may be a person: no
    function, demographic, drug, specialty, place or facility word, eponym, relative's or spoken word, no condition
    word that is no gazetteer name, no drug written wrong, and a person may stand there (:func:`.name_no_person.no_person_at`)."""
    w = _word(t.key)
    return not (_blocked(w) or t.key in RELATIVES or t.key in _SPOKEN_WORDS) \
        and (w.clinical is None or w.clinical == "condition" and w.gazetteer) \
        and (w.gazetteer or w.common or not misspelt_drug(t.key)) and not no_person_at(text, t.start, t.end)


def person_verb_may_be(text: str, t: _Tok) -> str | None:
    """A capitalised word beside a verb only a person does (:func:`.name_person_verbs.person_verb_names`) may be a
    person: no relative's or spoken word, specialty or eponym, no function word but a day's name, no drug or
    demographic word that is no gazetteer name, and a person may stand there (:func:`.name_no_person.no_person_at`). ``"name"``: a
    gazetteer name or a word in no list; ``"word"``: a common or clinical word no gazetteer holds ("Per", "Echo")."""
    w = _word(t.key)
    if t.key in RELATIVES or t.key in _SPOKEN_WORDS or w.eponym or w.clinical == "specialty" \
            or w.function and t.key not in NAME_FUNCTION or (w.clinical == "drug" or w.demographic) and not w.gazetteer:
        return None
    if len(t.key) < 2 or no_person_at(text, t.start, t.end):
        return None
    return "name" if w.gazetteer or not (w.common or w.clinical or w.function) else "word"


def lower_person_verb_may_be(text: str, t: _Tok) -> bool:
    """The lower-case word of such a question ("how is ali doing") may be a person: a word in no list, or a gazetteer
    name that is name-like, outside philter-ucsf's whitelist or a rare given name (:func:`.name_neighbour_words.lower_word_name`)."""
    if t.key in RELATIVES or t.key in _SPOKEN_WORDS:
        return False
    k = slot_kind(text, t)
    return k == "unlisted" or k == "gazetteer" and (
        name_like(t.key) or t.key not in whitelist_words() or lower_word_name(t.key))


def name_or_unlisted(t: _Tok) -> bool:
    """A gazetteer name, or a word in no list of common words."""
    w = _word(t.key)
    return w.gazetteer or not w.common


def slot_kind(text: str, t: _Tok) -> str | None:
    """What :func:`.name_slots.person_slots` needs to know of a word: a gazetteer name that may be one (no function,
    demographic, drug or specialty word; a clinical word only when an ICD-10-CM noun outside philter-ucsf's whitelist:
    "yaw", "sander"), a word in no list and no drug written wrong, in lower-case text a lower-case English word no
    name list holds that may be a given name (``"word"``: :func:`.name_given_words.plain_word_name`, "peg", "tele";
    twenty-fourth session), or neither (None: also where no person stands, :func:`.name_no_person.no_person_at`: "we
    live in columbus")."""
    w = _word(t.key)
    if _blocked(w):
        return None
    if w.gazetteer:
        ok = w.clinical is None or w.clinical == "condition" and t.key not in whitelist_words() or w.person_drug
        kind = "gazetteer" if ok else None
    elif slot_word(t.key):  # a word in no list, no drug written wrong ("asprin helps")
        kind = "unlisted"
    else:
        kind = "word" if t.text.islower() and plain_word_name(t.key, adjective=True) and lower_case_text(text) else None
    return None if kind is None or no_person_at(text, t.start, t.end) else kind


def slot_unlisted(key: str) -> bool:
    """The word test of :func:`slot_kind`'s ``"unlisted"`` (true of every word it calls so, wherever it stands; the
    one test both use, so that :func:`.name_prep.prep_objects`' line filter stays in step with it)."""
    w = _word(key)
    return not (_blocked(w) or w.gazetteer or w.common or w.clinical is not None) and key.isalpha() and len(key) >= 3 \
        and not misspelt_drug(key)



def slot_word(key: str) -> bool:
    """A word :func:`slot_kind` calls ``"unlisted"`` wherever it stands: a word in no list (:func:`slot_unlisted`) or
    a word the lists hold that English hardly writes (:func:`.name_rare_listed.rare_listed`: "ask eti", fourteenth
    session); the bare-word scan (:func:`.name_bare_person.bare_word_places`) reads the same words."""
    return slot_unlisted(key) or rare_listed(key)


def rare_slot_word(key: str) -> bool:
    """The word test of :func:`.name_rare_slots.rare_slot_names` (eighth session): a word in no list
    (:func:`slot_unlisted`), or a common word only as a dictionary headword rarer in English than
    :data:`HEADWORD_ZIPF` (:func:`rare_common`: "birthe" 1.3; not "gotcha" 3.4), no relative's or spoken word. True
    of every word :func:`slot_unlisted` takes (the lines' filter both rules share)."""
    return slot_unlisted(key) or key not in RELATIVES and key not in _SPOKEN_WORDS and rare_common(key, _word(key)) \
        and english_zipf(key) < HEADWORD_ZIPF


def rare_slot_kind(text: str, t: _Tok) -> str | None:
    """What :func:`.name_rare_slots.rare_slot_names` needs to know of a word of :func:`rare_slot_word`: ``"unlisted"``
    or ``"headword"``; None where no person stands (:func:`.name_no_person.no_person_at`) or the dialog writes the word after a
    determiner as a thing ("the wixela": :func:`.name_prep.thing_in_dialog`)."""
    if not rare_slot_word(t.key) or no_person_at(text, t.start, t.end) or thing_in_dialog(text, t.text):
        return None
    return "unlisted" if slot_unlisted(t.key) else "headword"


def may_name(t: _Tok, gazetteer: bool = False) -> bool:
    """Not a function, demographic, drug or spoken word nor a clinical word that is no name (``gazetteer``: a name)."""
    w = _word(t.key)
    return len(t.key) >= 2 and not _blocked(w) and (w.gazetteer if gazetteer else w.clinical is None or w.gazetteer)
