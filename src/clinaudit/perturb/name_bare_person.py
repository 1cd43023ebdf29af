"""A word standing bare where English grammar puts a person (issue 50, tenth session): in lower-case speech a given
name that is also a word ("penny", "hazel", "blossom") carries no capital, and a count noun in English needs a
determiner ("the", "my", "a") in these slots, a mass noun ("salt", "rice", "patience") makes no sense in them. So,
in lower case only, a word without a determiner is a person:

* **the subject of a modal question before what only a person does**: "would penny be able to collect it ?",
  "will blossom be picking you up after ?", "could hazel drive you ?" (not "will blossom be out by then ?", "would
  cotton be alright ?": no person's verb);
* **the one told, asked, texted or rung before a clause or its end**: "tell penny i was asking for her", "could
  you ask blossom to bring in ...", "i'll text blossom when i'm done", "ring saffron at the surgery" (not "i can
  tell salt from sugar", "ask for ...", a note's "auto text uri .": "text" a verb only after a pronoun, a modal or
  "to");
* **"where's X" before where a person lives or stays**: "where's hazel living now ?", "where's blossom staying
  these days" (not "where's blossom coming from ?", "where's patience gone");
* **"it was X who"**: "it was penny who found me";
* **said to, after "thanks", "cheers", "ta", "okay", "right"**: "thanks for waiting , penny .", "cheers , saffron
  , see you next week", "okay , right , dolly ." (not a word of address: "cheers , legend .", "thanks , love .",
  "ta , pet .");
* **wanted to do what a person does**: "do you want penny to come in with you ?" (not "do you want cotton to cover
  it");
* **"our X" before a person's verb** (the Irish and Northern English "our kid"): "our blossom reckons i should get
  it checked", "our hazel said" (not "our kettle has limescale").

The word: lower case, a gazetteer given name English text uses less than Zipf 4.5 and no clinical word
(:func:`.name_neighbour_words.lower_word_name`: not "miles", "pearl", "hope"), or a word in no list (``kind(text,
t) == "unlisted"``); told, asked, rung or followed by "who" also a gazetteer surname that is such a word
(:func:`.name_word.word_name`); never a word of address, a month or a day, a relative's or spoken word, nor where
the detector says no person stands (``kind`` None). Words first: only the places of the text's words that may be
such a name and whose word before opens a frame are read (not a scan of the text a frame: about 10 ms a 1 MB dialog).
Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress
from typing import NamedTuple

from .name_neighbour_words import lower_word_name
from .name_tokens import Tok, distinct_texts, ends_of, starts_of, texts_of
from .name_word import word_facts, word_name
from .vocab import (DAY_NAMES, MONTH_NAMES, RELATIVES, SPOKEN_WORDS, WORD_NAME_ZIPF, english_zipf, first_names,
                    surnames)

__all__ = ["ADDRESS_WORDS", "BareWords", "bare_person_names", "bare_word_places", "may_be_high", "may_be_name", "plain_word"]

#: a word's start: no letter, digit, "_", apostrophe or hyphen before it
_AT = r"(?<![\w'’\-])"
#: what only a person does after a modal and its subject ("would penny be able to", "will blossom be picking")
_DOES = (r"(?:be[ \t]+(?:able|picking|coming[ \t]+(?:in|with|along|over|round)|driving|bringing|collecting|staying|"
         r"visiting|taking[ \t]+you)|mind|drive|pick|collect|sign|ring|text|phone|visit|come[ \t]+(?:in|with|along|"
         r"over|round))(?![\w'’\-])")
#: each frame: what stands right before the word (to the word), what right after it, whether a surname may stand there
_FRAMES: tuple[tuple[re.Pattern[str], re.Pattern[str], bool], ...] = tuple(
    (re.compile(before + r"[ \t]+$"), re.compile(after), surname) for before, after, surname in (
        (_AT + r"(?:would|could|will|can|should|might)", r"[ \t]+" + _DOES, False),
        (_AT + r"(?:(?:[a-z]+['’]ll|i|you|we|he|she|they|will|can|could|would|to|please|just)[ \t]+text|tell|ask|ring|phone|"
         r"told|asked|texted|rang|phoned)",
         r"[ \t]+(?:i|i'm|i'll|i've|i'd|we|she|he|they|you|to|if|whether|when|that|how|not|about|at)(?![\w'’\-])|"
         r"[ \t]*(?:[.!?]|$)", True),
        (_AT + r"where(?:[ \t]*['’]s|[ \t]+is)",
         r"[ \t]+(?:living|staying|working|got[ \t]+to|off[ \t]+to|these[ \t]+days)(?![\w'’\-])", False),
        (_AT + r"(?:it[ \t]+was|it[ \t]*['’]s|was[ \t]+it)", r"[ \t]+who(?![\w'’\-])", True),
        (_AT + r"want(?:s|ed)?", r"[ \t]+to[ \t]+(?:come|sit|stay|drive|pick|collect|bring|sign|call|ring|know|join|"
         r"visit)(?![\w'’\-])", False),
        (_AT + r"(?:our|your)", r"[ \t]+(?:said|says|told|tells|thinks|thought|reckons|reckoned|rang|texted|phoned|"
         r"knows|knew|mentioned|suggested|minds|drove|drives)(?![\w'’\-])", False),
    ))
#: said to: "thanks for waiting , penny .", "cheers , saffron , see you", "okay , right , dolly ." (spaces, not "$":
#: the comma ends the frame before the word)
_SAID_TO = (re.compile(_AT + r"(?:thanks|thank[ \t]+you(?:[ \t]+(?:so|very)[ \t]+much)?|cheers|ta|okay|ok|alright|right|"
                       # a sign-off (issue 50, eleventh session): "take care , penny .", "welcome back , hunter ."
                       r"take[ \t]+care|see[ \t]+you(?:[ \t]+(?:soon|later|then|tomorrow|next[ \t]+time))?|"
                       r"(?:good|nice|lovely|great)[ \t]+to[ \t]+see[ \t]+you(?:[ \t]+again)?|welcome[ \t]+back|"
                       r"bye(?:[ \t]+now)?|goodbye)(?:[ \t]*,[ \t]*(?:right|"
                       r"okay|ok|then))?(?:[ \t]+for(?:[ \t]+[a-z']+){1,3})?[ \t]*,[ \t]*$"),
            re.compile(r"[ \t]*(?:[.!?]|,|$)"))
#: how far before a word a frame is read
_BEFORE = 48
#: words of address and endearment that are also given names: said to, a word ("cheers , legend .", "thanks , ace")
ADDRESS_WORDS = frozenset("""legend ace star angel love lovey hun hon honey sweetie sweetheart darling dear babe baby
    buddy bud pal chief boss mate champ chuck duck pet petal flower poppet treasure sunshine doll kiddo kid son sonny
    lad lass sir madam miss doc doctor nurse guys folks everyone everybody all then again too bye""".split())


#: the verbs of the one told, asked, texted or rung: never that frame's word ("fergal ring rang .": "ring" is the
#: surname, "rang" its verb; English writes no "ring rang", "tell told")
_TOLD_VERBS = frozenset("tell ask text ring phone told asked texted rang phoned".split())
#: the word right before a frame's word (a token: "where's" and "it 's" are "where" and "it" there); or a comma
_TRIGGERS = _TOLD_VERBS | frozenset("would could will can should might where it was want wants wanted our your".split())


def _frame(text: str, s: int, e: int, word: str) -> bool | None:
    """Whether a frame holds the word at ``s:e``: None when none does, else whether a surname may stand there."""
    lo = max(0, s - _BEFORE)
    surname: bool | None = None
    for before, after, may_be_surname in _FRAMES:
        if after.match(text, e) and before.search(text, lo, s):
            surname = surname or may_be_surname
    return surname


def _said_to(text: str, s: int, e: int, word: str) -> bool:
    """The word at ``s:e`` is said to after "thanks", "cheers", "okay", "right" (:data:`_SAID_TO`)."""
    return word not in ADDRESS_WORDS and _SAID_TO[1].match(text, e) is not None \
        and _SAID_TO[0].search(text, max(0, s - _BEFORE), s) is not None


@lru_cache(maxsize=100_000)
def _may_be(word: str) -> bool:
    """``word`` may be a name here: lower-case letters, two or more, no relative's, spoken, day's or month's word; a
    gazetteer name rarer in English text than :data:`.vocab.WORD_NAME_ZIPF` and no clinical word, or in no gazetteer
    (the caller asks whether it is in no list)."""
    if len(word) < 2 or not word.isalpha() or not word.islower() or word in RELATIVES or word in SPOKEN_WORDS \
            or word in DAY_NAMES or word in MONTH_NAMES:
        return False
    w = word_facts(word)
    return not w.gazetteer or w.clinical is None and english_zipf(word) < WORD_NAME_ZIPF


class BareWords(NamedTuple):
    """The words of a text the bare-word rules read, and their places (:func:`bare_word_places`)."""
    person: set[str]  # this module's (:func:`_may_be`, or in no list)
    clause: set[str]  # the gazetteer words of :mod:`.name_clause_subject` and :mod:`.name_bare_object`
    places: list[int]  # the places of the words of any set, in text order
    high: set[str]  # the everyday words of :mod:`.name_person_only` (:func:`may_be_high`)
    guarded: set[str] = set()  # the words the guards call words, of :mod:`.name_guarded_words` (``guarded``)
    extra: set[str] = set()  # the words of ``extra``, of :mod:`.name_syllables_apart` (fifteenth session)
    plain: set[str] = set()  # the words of ``plain`` no name list holds, of :mod:`.name_clause_subject` (twenty-fourth)


def bare_word_places(toks: Sequence[Tok], unlisted: Callable[[str], bool],
                     guarded: Callable[[str], bool] | None = None,
                     extra: Callable[[set[str]], set[str]] | None = None,
                     plain: Callable[[str], bool] | None = None) -> BareWords:
    """The words of ``toks`` this module and :mod:`.name_clause_subject`, :mod:`.name_bare_object` may take, and their
    places: one scan of the words for the three rules (issue 50, eleventh session: :mod:`.name_detect` reads it once a
    text and hands it to each; the two new rules cost a set operation each, not a scan); ``guarded``: the word test
    of :mod:`.name_guarded_words` (fourteenth session), whose words are read in the same scan; ``extra``: the words
    of the text's distinct words another rule reads, in the same scan (:mod:`.name_syllables_apart`); ``plain``: the
    test of a lower-case English word no name list holds that :mod:`.name_clause_subject` reads as a given name too
    (:func:`.name_given_words.plain_word_name`; twenty-fourth session)."""
    distinct = distinct_texts(toks)
    named = distinct & first_names() | distinct & surnames()
    unlisted_words = {w for w in distinct - named if len(w) >= 2 and w.isalpha() and w.islower()
                      and w not in RELATIVES and w not in SPOKEN_WORDS and unlisted(w)}
    person = {w for w in named if _may_be(w)} | {w for w in unlisted_words if _may_be(w)}
    clause = {w for w in named if may_be_name(w)}
    high = {w for w in named if may_be_high(w)}  # issue 50, twelfth session: read in the same scan
    kept = {w for w in distinct if guarded(w)} - high if guarded else set()
    more = extra(distinct) if extra else set()
    plain_words = {w for w in distinct - named if w.islower() and plain(w)} if plain else set()
    found = person | clause | high | kept | more | plain_words
    texts = texts_of(toks)
    places = list(compress(range(len(texts)), map(found.__contains__, texts))) if found else []
    return BareWords(person, clause, places, high, kept, more, plain_words)


#: modals and auxiliaries: never an everyday word's name (:func:`may_be_high`: "will says", "may told me")
_MODALS = frozenset("""will would shall should may might must can could do does did have has had be is am are was were
    been being need dare ought""".split())


def plain_word(word: str) -> bool:
    """``word`` is three lower-case letters or more and no relative's, spoken word, word of address, modal,
    auxiliary, day or month: what a word of :func:`may_be_high` or :mod:`.name_guarded_words` must be first."""
    return len(word) >= 3 and word.isalpha() and word.islower() and word not in RELATIVES \
        and word not in SPOKEN_WORDS and word not in DAY_NAMES and word not in MONTH_NAMES and word not in _MODALS \
        and word not in ADDRESS_WORDS


@lru_cache(maxsize=100_000)
def may_be_high(word: str) -> bool:
    """``word`` may be a name of :mod:`.name_person_only`: three letters or more, lower case, a gazetteer given name or
    surname English text uses at least :data:`.vocab.WORD_NAME_ZIPF` (the rarer ones are the other rules'), no
    clinical, function, demographic, relative's, spoken word nor eponym, no word of address, modal, auxiliary, day
    or month (issue 50, twelfth session)."""
    if not plain_word(word):
        return False
    w = word_facts(word)
    return w.gazetteer and w.clinical is None and not (w.function or w.demographic or w.eponym) \
        and english_zipf(word) >= WORD_NAME_ZIPF


@lru_cache(maxsize=100_000)
def may_be_name(word: str) -> bool:
    """``word`` may be a name of :mod:`.name_clause_subject` and :mod:`.name_bare_object`: three letters or more,
    lower case, no relative's, spoken, day's, month's word or word of address; a gazetteer name
    :func:`.name_word.word_name` takes (a given name or a surname)."""
    if len(word) < 3 or not word.isalpha() or not word.islower() or word in RELATIVES or word in SPOKEN_WORDS \
            or word in DAY_NAMES or word in MONTH_NAMES or word in ADDRESS_WORDS:
        return False
    return word_name(word) or word_name(word, given=True)


def bare_person_names(text: str, toks: Sequence[Tok], kind: Callable[[str, Tok], str | None],
                      unlisted: Callable[[str], bool], bare: BareWords | None = None) -> list[Tok]:
    """The lower-case words that stand bare where a person stands (the module's docstring). ``toks``: the text's
    words; ``kind``: what the detector knows of a word where it stands (:func:`.name_slots.person_slots`'s);
    ``unlisted(word)``: a word in no list (true of every word ``kind`` calls ``"unlisted"``). Words first: the
    gazetteer's and no list's words by set operations, then only their places whose word before opens a frame
    (``bare``: :func:`bare_word_places`, read once for three rules; read here when not given)."""
    bare = bare or bare_word_places(toks, unlisted)
    words = bare.person
    if not words:
        return []
    texts = texts_of(toks)
    starts, ends = starts_of(toks), ends_of(toks)
    out: list[Tok] = []
    for i in bare.places:
        if not i or texts[i] not in words or texts[i] in _TOLD_VERBS:
            continue
        s, e, word = starts[i], ends[i], texts[i]
        if texts[i - 1] in _TRIGGERS:
            surname = _frame(text, s, e, word)
        else:
            surname = False if "," in text[ends[i - 1]:s] and _said_to(text, s, e, word) else None
        if surname is None:
            continue
        t = Tok(s, e, word, word)
        k = kind(text, t)
        if k == "unlisted" or k == "gazetteer" and (lower_word_name(word) or surname and word_name(word)):
            out.append(t)
    return out
