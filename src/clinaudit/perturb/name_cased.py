"""Cased names that generalise (issue 50, the second development set ``benchmarks/deid_dev2.py``): how surnames of
several parts and names with an apostrophe are written, whatever the word lists say of their words. Used by the
name detector (:mod:`.name_detect`), which passes its sentence-start test and its "may this word be a name" test in.

* **a chain of surname particles** before a capitalised word: two or three lower-case particles ("Sander van der
  Meulen", "van den Berg says"; one particle is :func:`.name_writing.particle_names`'s) or a capitalised particle
  and any lower-case ones ("Seán Ó Briain", "Ó Briain says", "Marco De Luca", "De Luca says", "Ní Dhomhnaill"),
  after a capitalised word or at a sentence's start, or anywhere (two particles or more, or a capitalised one:
  "Ask for van der Meulen"): the particles and the word are a name. After a capitalised particle the word must be
  a name of the gazetteer or in no list of common words ("Van Dijk"; not "Le Mans is", "O Lord", "Type O Negative");
* **a capital after an apostrophe**: "D'Amico", "N'Diaye", "O'Shea" — no English word is written so (a
  contraction has a lower-case letter there: "Don't", "O'clock");
* **a capital inside cased prose** (:func:`inside_prose`: after a lower-case word that is no determiner, or a
  capitalised function word opening the sentence, "Did X tell"; before a lower-case word or a clause's end) on a
  word whose only common use is a rare dictionary headword (:func:`rare_headword`: not philter-ucsf's whitelist nor
  a spoken form, wordfreq Zipf below :data:`.vocab.RARE_ZIPF`: "ask Birthe to", GCIDE's "birthe"), or on a given
  name of the gazetteer that the clinical vocabulary holds as a condition word, less frequent in English than
  :data:`CONDITION_NAME_ZIPF` (:func:`condition_name_inside`: "seeing Shin for", "According to Shin,"; not "years
  on Earth."; an eponym, a demographic word, a word before "disease", "test", "'s" never);
* **reported speech**: an opening quote after "said," or a colon starts a sentence for the rule of a name addressed
  (:func:`quote_start`: 'She said, "Birthe, you need to rest."');
* **a name before a verb of speech at a sentence's start** (:func:`speaker_at_start`): a capitalised gazetteer name,
  no relative's or function word, right before "says", "said", "told", "thinks", "wants", "asked", …, one space,
  or with where the person works between ("Shin says I should …", "Ho told me", "Miller at the pharmacy said");
  not "Everyone says", "Insurance said" (no gazetteer names);
* **a capitalised word coordinated with a person** (:func:`coordinated_with_a_person`): right before "and I",
  "and me", "and my"/"or my" and a relative's word ("Yes, Birthe and I are married.", "Either Birthe or my son"):
  the caller asks that it be a gazetteer name, a rare dictionary headword or a word in no list;
* **a letter no English word has** (:func:`non_english_letter`: å ø æ ß ł ř ů ě š č ž ő ș ț ğ ı ā ð þ ʻ, …; not the
  accents of loanwords, é è ê à â ç î ï ô û ù ñ á í ó ú ä ö ü): the word is no English word even when its folded
  form is one ("Åsa" is not "asa", a whitelist word), so it is a name in any case and place unless it is a
  function, drug or clinical word. No real dialog of the seven files has such a letter.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence

from .name_tokens import MARK, NAME_END, Tok, fold, key_indices, starts_of
from .text_scan import CAPITAL_START, matches_from, places

__all__ = ["LOWER_PARTICLES", "CAPITAL_PARTICLES", "particle_chain_names", "apostrophe_names", "inside_prose",
           "rare_headword", "condition_name_inside", "CONDITION_NAME_ZIPF", "quote_start", "speaker_at_start",
           "coordinated_with_a_person", "non_english_letter"]

#: A given name that is also a condition word is taken inside cased prose only when less frequent than this in
#: English text (wordfreq Zipf: "shin" 3.7, "iris" 4.0; not "earth" 5.1, "life", "white": "years on Earth.")
CONDITION_NAME_ZIPF = 4.5

#: Surname particles written in lower case ("van der Meulen", "de la Cruz", "dos Santos")
LOWER_PARTICLES = ("van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "dos", "das", "ter", "ten",
                   "la", "le", "los", "al", "bin", "ibn", "bint")
#: Surname particles written with a capital ("Ó Briain", "Ní Dhomhnaill", "Mac Carthaigh", "De Luca", "Van Dijk")
CAPITAL_PARTICLES = ("Ó", "O", "Ní", "Ni", "Nic", "Mac", "Mc", "Uí", "Ua", "De", "Di", "Da", "Du", "Del", "Della",
                     "Van", "Von", "Ter", "Ten", "Dos", "Das", "Bin", "Ibn")
_L = "|".join(LOWER_PARTICLES)
_C = "|".join(CAPITAL_PARTICLES)
#: a capitalised particle and lower-case ones, or two or three lower-case ones, then one space and a capital
_CHAIN = re.compile(rf"(?<![\w'’\-])(?:(?P<cap>{_C})(?: (?:{_L})){{0,2}}|(?:{_L})(?: (?:{_L})){{1,2}}) (?=[^\W\d_])")
#: a capital after an apostrophe, the word's end or a possessive after it ("O'Brien's mum": fifteenth session)
_APOSTROPHE = re.compile(rf"{CAPITAL_START}[a-z]?['’][A-Z][a-z]{{2,}}" + NAME_END)

SentenceStart = Callable[[str, int], bool]


def particle_chain_names(text: str, toks: Sequence[Tok], sentence_start: SentenceStart,
                         may_be_name: Callable[[Tok], bool], name_like: Callable[[Tok], bool]) -> list[Tok]:
    """The particles and the capitalised word of a chain of surname particles (module docstring), after a
    capitalised word (one space) or at a sentence's start. ``may_be_name``: the word is no function, drug or
    non-name clinical word; ``name_like``: the word is a gazetteer name or in no list (asked after a capitalised
    particle)."""
    starts: list[int] = []
    out: list[Tok] = []
    for m in matches_from(_CHAIN, text, _chain_starts(text, toks)):
        starts = starts or starts_of(toks)  # read once, and only when a chain is there
        j = bisect.bisect_left(starts, m.end())  # the word after the chain
        i = bisect.bisect_left(starts, m.start())  # the chain's first particle
        if j >= len(toks) or starts[j] != m.end() or i >= len(toks) or starts[i] != m.start():
            continue
        t = toks[j]
        if not t.capital or len(t.key) < 2 or not may_be_name(t):
            continue
        prev = toks[i - 1] if i > 0 else None
        after_capital = prev is not None and prev.capital and text[prev.end:m.start()] == " "
        # a chain of two or more particles or a capitalised one is a name's inside a sentence too ("Ask for van der
        # Meulen", "Ask for Ó Briain"); one lower-case particle only after a capital or at a sentence's start
        if not (after_capital or sentence_start(text, m.start()) or m.group("cap") or j - i > 1):
            continue
        if m.group("cap") and not name_like(t):
            continue
        out += list(toks[i:j + 1])
    return out


def _chain_starts(text: str, toks: Sequence[Tok]) -> list[int]:
    """Every place where a match of :data:`_CHAIN` may start, in text order (issue 50, tenth session: its look-behind
    was tried at each of a 1 MB dialog's million positions): a word whose key is a particle's, and the places after a
    "[" or a combining mark, where a chain's first particle is no word of :func:`.name_tokens.tokens` (its
    look-behind)."""
    at = [toks[i].start for i in key_indices(toks, _PARTICLE_KEYS)]
    odd = [p + 1 for p in places(text, "[")] + [m.end() for m in _MARK_CHAR.finditer(text)]
    return sorted(set(at).union(odd)) if odd else at


_PARTICLE_KEYS = frozenset(fold(p).lower() for p in LOWER_PARTICLES + CAPITAL_PARTICLES)
_MARK_CHAR = re.compile(f"[{MARK}]")


def apostrophe_names(text: str, toks: Sequence[Tok], may_be_name: Callable[[Tok], bool]) -> list[Tok]:
    """Words written with a capital after an apostrophe ("D'Amico says", "I saw N'Diaye"): a name."""
    starts: list[int] = []
    out = []
    for m in _APOSTROPHE.finditer(text):
        starts = starts or starts_of(toks)
        j = bisect.bisect_left(starts, m.start())
        if j < len(toks) and starts[j] == m.start() and may_be_name(toks[j]):
            out.append(toks[j])
    return out


_PREV_WORD = re.compile(r"(?:^|[^\w'’\-])([A-Za-z]+)[ \t]+$")
_NEXT_PROSE = re.compile(r"[ \t]+[a-z]|[ \t]*[,.;:!?](?:[ \t]|$)")


def inside_prose(text: str, t: Tok, determiners: frozenset[str], function_words: frozenset[str]) -> bool:
    """``t`` is capitalised inside a sentence of cased prose: right after a lower-case word that is no determiner
    ("ask Birthe", "seeing Shin"; not "the States") or a capitalised function word ("Did Birthe tell"), and before a
    lower-case word or a clause's end (not "Overeaters Anonymous", "Shin's")."""
    if not t.capital:
        return False
    m = _PREV_WORD.search(text, max(0, t.start - 30), t.start)
    if m is None or m.group(1).lower() in determiners:
        return False
    if not (m.group(1).islower() or m.group(1).lower() in function_words):
        return False
    return _NEXT_PROSE.match(text, t.end) is not None


def rare_headword(key: str) -> bool:
    """``key`` is a word only as a rare dictionary headword: no everyday word of philter-ucsf's whitelist nor a spoken
    form, rare in English text (Zipf below :data:`.vocab.RARE_ZIPF`), no drug written wrong ("birthe")."""
    from .name_writing import misspelt_drug
    from .vocab import RARE_ZIPF, SPOKEN_WORDS, english_zipf, whitelist_words

    return (len(key) >= 4 and key.isalpha() and key not in whitelist_words() and key not in SPOKEN_WORDS
            and english_zipf(key) < RARE_ZIPF and not misspelt_drug(key))


def condition_name_inside(text: str, t: Tok, determiners: frozenset[str], function_words: frozenset[str]) -> bool:
    """A given name that the clinical vocabulary holds as a condition word, capitalised inside cased prose
    (:func:`inside_prose`), less frequent in English than :data:`CONDITION_NAME_ZIPF` ("seeing Shin for")."""
    from .vocab import english_zipf

    return inside_prose(text, t, determiners, function_words) and english_zipf(t.key) < CONDITION_NAME_ZIPF


_QUOTE_OPEN = re.compile(r"[,:][ \t]*[\"“‘']$")


def quote_start(text: str, pos: int) -> bool:
    """``pos`` opens a quotation after a comma or a colon ('She said, "Birthe, you ...').""" 
    return _QUOTE_OPEN.search(text, max(0, pos - 4), pos) is not None


#: Verbs of speech and thought that follow a person at a sentence's start ("Shin says", "Ho told me")
SPEECH_VERBS = frozenset("says said told tells thinks thought wants wanted asked asks mentioned suggested "
                         "recommended explained texted emailed warned insists insisted".split())
#: one space, then a verb, maybe after where the person works ("Miller at the pharmacy said", "Kiss from the lab told")
_NEXT_WORD = re.compile(r"(?: (?:at|from|in|with)(?: the| my| our| your)? [a-z]+)? ([a-z]+)\b")


def speaker_at_start(text: str, t: Tok, sentence_start: Callable[[str, int], bool]) -> bool:
    """``t`` is capitalised at a sentence's start right before a verb of speech (:data:`SPEECH_VERBS`), maybe with
    where the person works between ("at the pharmacy", "from the lab"): the caller
    asks that it be a gazetteer name and no relative's, function or demographic word."""
    if not t.capital:
        return False
    m = _NEXT_WORD.match(text, t.end)
    return m is not None and m.group(1) in SPEECH_VERBS and sentence_start(text, t.start)


_WITH_A_PERSON = re.compile(r" (?:and (?:I|me)\b|(?:and|or) (?:my|your|his|her|our) ([a-z\-]+))")


def coordinated_with_a_person(text: str, t: Tok, relatives: frozenset[str]) -> bool:
    """``t`` is capitalised right before "and I", "and me", or "and"/"or" and a possessive and a relative's word
    ("Birthe and I", "Birthe or my son")."""
    if not t.capital:
        return False
    m = _WITH_A_PERSON.match(text, t.end)
    return m is not None and (m.group(1) is None or m.group(1) in relatives)


#: Letters with a diacritic that English loanwords keep ("café", "jalapeño", "naïve", "Führer"): no sign of a name
_LOAN_LETTERS = frozenset("éèêëàâçîïôûùñáíóúäöüÉÈÊËÀÂÇÎÏÔÛÙÑÁÍÓÚÄÖÜ")


def non_english_letter(word: str) -> bool:
    """``word`` has a letter that no English word is written with (a non-ASCII letter that is not one of the accents
    loanwords keep): "Åsa", "Łucja", "Dvořák", "Faʻamausili"."""
    if word.isascii():
        return False
    if "’" in word:  # an English contraction's or possessive's apostrophe is no okina: "doesn’t", "I’m", "ma’am"
        word = _CLITIC.sub("", word)
        if word.replace("’", "'").lower() in _APOSTROPHE_WORDS:
            return False
    return any(not c.isascii() and c not in _LOAN_LETTERS and (c.isalpha() or c in "ʻ’") for c in word)


#: the endings English contractions and possessives write after an apostrophe ("doesn’t", "we’ll", "Smith’s")
_CLITIC = re.compile(r"(?i)’(?:s|t|m|d|ll|re|ve)$")
#: words English writes with an apostrophe inside, not at a clitic ("ma'am", "o'clock", "y'all")
_APOSTROPHE_WORDS = frozenset({"ma'am", "o'clock", "y'all", "ol'", "rock'n'roll", "'em", "'cause", "'til"})
