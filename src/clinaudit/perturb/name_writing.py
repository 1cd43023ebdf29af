"""What the way a word is written says of it, when the word lists call a name a common word too (issue 50, cased
dialogs): a diacritic, a capital at a sentence's start followed by cased prose, a lower-case surname particle before
a capitalised word, a name addressed after "okay"; and what makes a word a town, a drug written wrong. Used by the
name detector (:mod:`.name_detect`), which passes its sentence-start test in."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from itertools import compress

from .name_tokens import Tok, ends_of, key_indices
from .vocab import (DEMOGRAPHIC_WORDS, FACILITY_WORDS, PLACE_WORDS, RARE_ZIPF, RESTORED_FIRST_NAMES, SPOKEN_WORDS,
                    clinical_terms, condition_noun, english_zipf, is_specialty, whitelist_words)

__all__ = ["PARTICLES", "has_diacritic", "written_as_name", "particle_names", "misspelt_drug", "addressed",
           "town_context", "capital_at_start", "capital_pair_at_start",
           "rare_condition_noun_at_start"]

#: Surname particles written in lower case before the name's capitalised part ("de Vries", "van den Berg", "al Farsi").
PARTICLES = frozenset("van von de der den da di du del della dos das ter ten al bin ibn bint".split())
#: After a capitalised word at a sentence's start, a lower-case word that makes it no subject but an imperative or an
#: exclamation with its object ("Guess what", "Lucky you", "Bless you"): pronouns and determiners.
_OBJECTS = frozenset("you me him her us them it what that this the a an my your his our their so too".split())
_LOWER_NEXT = re.compile(r"(?:['’]s)?[ \t]+([a-z]+)")  # after a possessive too ("Benes's kids are sick")

SentenceStart = Callable[[str, int], bool]


def has_diacritic(word: str) -> bool:
    """``word`` has a letter with a diacritic or of another script ("Jesús", "Müller", "Łukasz")."""
    return not word.isascii() and any(not c.isascii() and c.isalpha() for c in word)


def written_as_name(text: str, t: Tok, sentence_start: SentenceStart,
                    pair_ok: Callable[[str, int, int, str | None], bool] | None = None) -> bool:
    """A gazetteer name that the lists also call a common word, written as only a name is: with a diacritic that the
    common word lacks ("Jesús", "müller", in any case and place; not "café", a word of philter-ucsf's whitelist), or,
    at a sentence's start in cased prose (a lower-case word follows, not a pronoun or determiner: "Guess what"),
    capitalised when its only common use is a dictionary headword outside philter-ucsf's whitelist of everyday words
    and the spoken forms, or a whitelist word rare in English text (wordfreq's Zipf below :data:`.vocab.RARE_ZIPF`:
    "Bilal"): "Smit at the pharmacy", "Cartwright at", "Harry drove me"; not "Will", "Mark", "Aw", "Kiss"); or
    there before a second capitalised word that ``pair_ok`` calls a name, then cased prose
    (:func:`capital_pair_at_start`: "Gillian Thorn came round"; not "Cooper Tires is")."""
    if has_diacritic(t.text):
        return t.key not in whitelist_words()
    if t.key in SPOKEN_WORDS or t.key in whitelist_words() and english_zipf(t.key) >= RARE_ZIPF \
            and t.key not in RESTORED_FIRST_NAMES:  # "Ana": the whitelist's "ana" is the lab test, written "ANA"
        return False
    return capital_at_start(text, t, sentence_start) or pair_ok is not None \
        and capital_pair_at_start(text, t, sentence_start, pair_ok)


#: a capitalised word, then cased prose: the second part of a full name at a sentence's start ("Gillian Thorn came")
_CAPITAL_THEN_LOWER = re.compile(r"[ \t]+([A-Z][a-z]+)(?:['’]s)?(?:[ \t]+([a-z]+)|,[ \t]+(?:my|his|her|our|their)[ \t]+[a-z])")


def capital_pair_at_start(text: str, t: Tok, sentence_start: SentenceStart,
                          pair_ok: Callable[[str, int, int, str | None], bool]) -> bool:
    """``t`` opens a sentence of cased prose with a capitalised word after it, then a lower-case word that is no
    pronoun or determiner, or a comma and a possessive, and ``pair_ok(text, start, end, lower_word)`` (the second
    word's span; the lower-case word, None after a comma) says the second word is a name there: a full name as a
    subject ("Gillian Thorn came round last night", "Benny Pike's dog", "Gillian Thorn, my friend, ..."); not "Cooper
    Tires is" (no name after), "Thank You so much" (an object after it), an eponym ("Stevens Johnson syndrome") nor a
    word in capitals (issue 50, twenty-first session)."""
    if not t.capital or t.text.isupper():
        return False
    m = _CAPITAL_THEN_LOWER.match(text, t.end)
    return m is not None and m.group(2) not in _OBJECTS and sentence_start(text, t.start) \
        and pair_ok(text, m.start(1), m.end(1), m.group(2))


def capital_at_start(text: str, t: Tok, sentence_start: SentenceStart) -> bool:
    """``t`` is capitalised at a sentence's start in cased prose: a space and a lower-case word follow (a possessive
    "'s" maybe between: "Benes's kids") that is no pronoun or determiner ("Smit at", "Hamisi drove"; not "Guess
    what", "Lucky you")."""
    if not t.capital:
        return False
    m = _LOWER_NEXT.match(text, t.end)
    return m is not None and m.group(1) not in _OBJECTS and sentence_start(text, t.start)


def rare_condition_noun_at_start(text: str, t: Tok, sentence_start: SentenceStart) -> bool:
    """A gazetteer name that ICD-10-CM writes as a lower-case noun (a tool, a place, a sign: "sander", "yaw"), rare
    in English text and no everyday word of philter-ucsf's whitelist, capitalised at a sentence's start before cased
    prose ("Sander drove me here."): the clinical vocabulary does not keep it there (an eponym never: "Parkinson",
    only capitalised in ICD-10-CM, stays clinical; "Cool", "Life", "Break" are frequent words)."""
    return (condition_noun(t.key) and t.key not in whitelist_words() and english_zipf(t.key) < RARE_ZIPF
            and capital_at_start(text, t, sentence_start))


def particle_names(text: str, toks: Sequence[Tok], sentence_start: SentenceStart, may_be_name: Callable[[Tok], bool]
                   ) -> list[Tok]:
    """In cased text, a lower-case surname particle (:data:`PARTICLES`) between a capitalised word or a sentence's
    start and a capitalised word that ``may_be_name``, one space each: the particle and the word ("Anouk de Vries",
    "de Vries at the pharmacy", "Lotte van Dijk"), whatever the lists say of the word ("vries" is in philter-ucsf's
    whitelist)."""
    out: list[Tok] = []
    for i in key_indices(toks, PARTICLES):  # only the particles are read (issue 50, tenth session)
        if i + 1 == len(toks):
            break
        p, t = toks[i], toks[i + 1]
        if not p.text.islower() or not t.capital or len(t.key) < 2:
            continue
        if text[p.end:t.start] != " ":
            continue
        prev = toks[i - 1] if i > 0 else None
        if ((prev is not None and prev.capital and text[prev.end:p.start] == " ") or sentence_start(text, p.start)) \
                and may_be_name(t):
            out += [p, t]
    return out


#: A comma, then a pronoun or an auxiliary that opens a request to the person addressed ("Anan, I want you to ...")
_ADDRESS_NEXT = re.compile(r"[ \t]*,[ \t]*(?:i|you|we|let's|let|can|could|would|will|how|what|do|did|are|is|have)\b",
                           re.IGNORECASE)
_COMMA = re.compile(",")
#: Words that open a sentence before a name addressed ("Alright Sander, let's ...", "Okay Ama, ...")
_OPENERS = frozenset("alright okay ok well so now right oh".split())


def addressed(text: str, toks: Sequence[Tok], sentence_start: SentenceStart, may_be_name: Callable[[Tok], bool],
              word_name: Callable[[Tok], bool] = lambda t: False) -> list[Tok]:
    """Capitalised words addressed in cased text, that ``may_be_name`` and are no spoken form: right after a
    sentence-opening "alright", "okay", "well", "so", ... (one space) and before a comma ("Alright Sander, let's take
    a look"), or at a sentence's start before a comma and a pronoun or auxiliary when rare in English text
    (wordfreq's Zipf below :data:`.vocab.RARE_ZIPF`: "Anan, I want you to ..."; not "Awesome, I agree."). Since
    issue 50's sixth session also a name that is a word (``word_name``: a word that may be a name, no relative's):
    after the opener any ("Alright Bright, let's"), at a sentence's start a given name of the gazetteer rarer than
    :data:`.vocab.WORD_NAME_ZIPF` ("Ahmed, I want you to", "Precious, you need to rest")."""
    from .vocab import WORD_NAME_ZIPF, first_names

    out: list[Tok] = []
    commas = {m.start() for m in _COMMA.finditer(text)}  # only the words before a comma are read (not every word)
    for i in compress(range(len(toks)), map(commas.__contains__, ends_of(toks))):
        t = toks[i]
        if not t.capital or t.key in SPOKEN_WORDS:
            continue
        name, word = may_be_name(t), word_name(t)
        if not (name or word):
            continue
        p = toks[i - 1] if i else None
        if p is not None and p.key in _OPENERS and text[p.end:t.start] == " " and sentence_start(text, p.start):
            out.append(t)
        elif _ADDRESS_NEXT.match(text, t.end) and sentence_start(text, t.start) and (
                name and english_zipf(t.key) < RARE_ZIPF
                or word and t.key in first_names() and english_zipf(t.key) < WORD_NAME_ZIPF):
            out.append(t)
    return out


@cache
def _drugs() -> frozenset[str]:
    """The drug names a misspelling is measured against: five letters or more, and used in English text (wordfreq
    knows them: "aspirin", "chantix", "detrol"); not the drug lists' rare entries ("testim", "nadida", "olaflur"), one
    edit from which many given names and surnames lie ("Festim", "Nadica", "Olafur": issue 50's dev3 set)."""
    from .vocab import english_zipf

    return frozenset(w for w, cat in clinical_terms().items() if cat == "drug" and len(w) >= 5 and english_zipf(w) > 0)


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@lru_cache(maxsize=20_000)
def misspelt_drug(key: str) -> bool:
    """``key`` (lower case, five letters or more, in no word list) is one edit from a drug name of the clinical
    vocabulary that English text uses (:func:`_drugs`): a letter deleted, added, changed or two swapped ("asprin", "clantix", "detroal"): a drug written
    wrong, not a person, even capitalised inside a sentence ("I take Asprin daily")."""
    if len(key) < 5 or not key.isalpha() or len(key) > 40:
        return False
    drugs = _drugs()
    for i in range(len(key) + 1):
        a, b = key[:i], key[i:]
        if b and a + b[1:] in drugs or len(b) > 1 and a + b[1] + b[0] + b[2:] in drugs:
            return True
        for c in _LETTERS:
            if (b and c != b[0] and a + c + b[1:] in drugs) or a + c + b in drugs:
                return True
    return False


_COMMA_WORD = re.compile(r"[ \t]*,[ \t]*([A-Za-z]+)\b")
#: where one lives, was born, moved to: a place follows ("live in", "born in", "moved to", "grew up in", "back in")
_LIVED_IN = re.compile(r"(?i)\b(?:(?:live[sd]?|living|born|raised|grew[ \t]+up|move[sd]?|moving|relocated|stationed)"
                       r"[ \t]+(?:back[ \t]+|here[ \t]+|down[ \t]+|up[ \t]+)?(?:in|to|from|near|out[ \t]+of)"
                       r"|(?:back|here|there|place|town|area)[ \t]+in)[ \t]+$")


def town_context(text: str, start: int, end: int) -> bool:
    """The word ``text[start:end]`` is a town by where it stands: before a comma and a US state or a country of
    :data:`.vocab.PLACE_WORDS` ("Cheyenne, Wyoming", "dallas , georgia"), or after where one lives, was born or moved
    ("we live in dallas", "I was born in Tacoma", "moved to Coolidge"), "back in", "a place in", or a facility,
    specialty or workplace and "in" ("Prompt Care in Bremerton", "an orthopedist in Newton", "a bank in ...")."""
    m = _COMMA_WORD.match(text, end)
    if m and m.group(1).lower() in PLACE_WORDS and m.group(1).lower() not in DEMOGRAPHIC_WORDS:
        return True
    m = _WORD_IN.search(text, max(0, start - 40), start)  # "Prompt Care in Bremerton", "an orthopedist in Newton"
    if m and (m.group(1).lower() in FACILITY_WORDS or is_specialty(m.group(1)) or m.group(1).lower() in _SITES):
        return True
    return bool(_LIVED_IN.search(text, max(0, start - 40), start))


_WORD_IN = re.compile(r"\b([A-Za-z]+)[ \t]+in[ \t]+$")
#: Workplaces and shops that stand in a town ("a bank in Conway Springs")
_SITES = frozenset("bank school store shop office job plant factory company firm branch".split())
