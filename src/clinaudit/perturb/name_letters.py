"""What a word's letters say of it, whatever stands around it (issue 50, sixth session): names written in capitals
as a form writes them, the ʻokina as a letter inside a word, and words of open syllables only that no list holds.

* **Capitals** (:func:`capital_names`): a cased dialog writes a name in capitals where it copies a form or a card
  ("The form says DVOŘÁKOVÁ, JIŘINA"); the detector reads no all-capital word (an acronym: "MRI", "COPD"). An
  all-capital word of four letters or more, with two vowels or more, in a line that has lower-case letters, whose
  lower-case form is in no list of common or clinical words and is no function or demographic word, is a name when
  it is a gazetteer name, has a letter English lacks (a diacritic, the ʻokina) or is in no list at all and made of
  open syllables only ("RAVUVU", "TUIMAVAVE"): a clinical acronym in no list ("FOLFOX", "CAPOX", "FOLFIRINOX") is
  not, nor a deaccented name in capitals alone ("DVORAKOVA": kept, a known gap). In a lower-case line (no capitalised
  word: "the note from HAKKINEN came back", ninth session) a word in no list is one whatever its syllables: lower-case
  text writes its acronyms in lower case too, so a word put in capitals there is a name copied in. As a form writes a name, surname,
  comma, given name (:func:`_form_pairs`, seventh session), two all-capital words are a name where both may be one
  ("BEDNAR, JITKA", "FOX, DAWN"; not "PAIN, FEVER", "COPD, CHF", "STOP, WAIT"), or one when the other is taken.
* **The ʻokina** (:func:`okina_names`): a glottal stop written inside a word between two vowels, as the ʻokina
  (U+02BB), a turned comma (U+2018) or an apostrophe (straight or curly) — "Faʻamoe", "Mata'afa", "So’oaemalelagi"
  — in any case; English writes an apostrophe between two vowels only in "ma'am" and the poetic "ne'er", "o'er",
  "e'er".
* **Open syllables** (:func:`open_syllables`): a word in no list that is a run of open syllables (a consonant at
  most, then one to three vowels, to its end: "pesamino", "timoci", "horomona", "masoe") is a name even where one
  letter's change or a longer word's start makes it look like a word of the lists, unless it is a frequent word cut
  short or run together ("overa"): Polynesian and Fijian names are written so, English words of five letters or
  more almost never (those that are — "banana", "potato", "video" — are in the lists).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import compress, repeat
from operator import contains, itemgetter

from .name_tokens import LETTER, MARK, Tok, fold, keys_of, texts_of, tokens
from .name_word import Word, unlisted_word, word_facts
from .text_scan import places
from .vocab import clinical_acronym, common_longest, english_zipf, first_names, is_common, surnames, written_acronym

__all__ = ["SYLLABLE", "capital_names", "okina_names", "open_syllables", "polynesian_word", "syllable_names",
           "POLYNESIAN_ZIPF", "polynesian_unlisted"]

#: A word (:data:`.name_tokens.WORD`) whose first letter is no "a"-"z": the same matches as
#: ``(?<![\w\[{MARK}'’\-])(?=[^\W\d_a-z])(?:{WORD})(?![\w\]{MARK}])``, the first letter written before its
#: look-behind, so that the engine searches for such letters (issue 50, seventh session: 3 times faster)
_CAPS = re.compile(rf"[^\W\d_a-z](?<![\w\[{MARK}'’\-].)[{MARK}]*(?:{LETTER})*(?:['’\-](?:{LETTER})+)*(?![\w\]{MARK}])")
_VOWELS = re.compile(r"[aeiouy]")
#: a capitalised word (a capital, then a lower-case letter): a line without one is lower-case text, where an acronym
#: is written in lower case too ("mri", "copd" in ACI-Bench's transcripts) and a word in capitals stands apart
_CAPITALISED = re.compile(r"[A-Z][a-z]")
#: A glottal stop between two vowels inside a word: the ʻokina, a turned comma, an apostrophe.
_OKINA = re.compile(r"(?i)[aeiouāēīōū][ʻ‘'’][aeiouāēīōū]")
_start = itemgetter(0)  # a Tok's start
_ENGLISH_APOSTROPHE = frozenset({"ma'am", "ne'er", "o'er", "e'er", "ma'ams"})
_OPEN = re.compile(r"(?:[bcdfghklmnpqrstvwz]?[aeiou]{1,3})+")
#: Open syllables as the Nguni and Sotho languages write them (Zulu, Xhosa, Ndebele, Swazi; issue 50, eighth session):
#: a syllabic "m" before a consonant ("mthunzi", "msweli", "mbeki"), a prenasalised onset ("nt", "mb", "ngq"), a
#: digraph or a click ("hl", "dl", "tsh", "gq", "xh", "ny"), a glide ("kw", "zw"), then one or two vowels, to the
#: word's end ("NTOKOZO", "DLADLA", "NGQONDO", "MSWELI"): English begins no syllable so
_BANTU_OPEN = re.compile(r"(?:(?:m(?=[bcdfghjklnpqrstvxz]))?(?:ntsh|tsh|ngq|ngc|ngx|nkq|ndl|nhl|nts|mb|mp|mf|mv|nd|nt|"
                         r"nj|nz|ns|nc|nq|nx|ng|nk|nh|th|sh|hl|dl|ts|kh|ph|bh|ch|gc|gq|gx|xh|ny|tl|dz|"
                         r"[bcdfghjklmnpqrstvxyz])?[wy]?[aeiou]{1,2})+")


def _letter_english_lacks(word: str) -> bool:
    return "ʻ" in word or any(not c.isascii() and c.isalpha() for c in word)


def capital_names(text: str, toks: Sequence[Tok] | None = None) -> list[Tok]:
    """The all-capital words of cased lines that are names (module docstring): "DVOŘÁKOVÁ", "RAVUVU"; not "MRI",
    "COPD", "VERY". ``toks``: :func:`.name_tokens.tokens` of ``text`` when the caller read them."""
    out: list[Tok] = []
    caps: list[Tok] = []  # every all-capital word of 2 letters or more in a cased line: the pairs' words
    line_start = last = 0
    lines: dict[int, tuple[str, bool, bool | None]] = {}  # a line's start: the line, any lower case, _CAPITALISED
    for start, end, word in _all_capital_words(text, tokens(text) if toks is None else toks):
        if len(word) < 2 or written_acronym(word):  # "FOLFOX", "R-CHOP", "NYHA"
            continue
        key = fold(word).lower().replace("’", "'")
        # the line's start read back to the previous word only (the words come in text order): a long line once
        line_start = max(line_start, text.rfind("\n", last, start) + 1)
        last = start
        if line_start not in lines:  # each line read once (a long line of capital words: linear, tenth session)
            line_end = text.find("\n", end)
            line = text[line_start:line_end if line_end >= 0 else len(text)]
            lines[line_start] = (line, any(c.islower() for c in line), None)
        cased = lines[line_start][1]
        if not cased:
            continue  # a line in capitals: shouting or a heading, not a name copied into prose
        caps.append(Tok(start, end, word, key))
        if len(word) < 4 or len(_VOWELS.findall(key)) < 2:
            continue
        parts = [p for p in re.split(r"['’ʻ\-]", key) if p]
        facts = [word_facts(p) for p in parts]
        if any(w.common or w.clinical is not None or w.function or w.demographic or w.eponym for w in facts):
            continue
        if any(w.gazetteer for w in facts) or _letter_english_lacks(word) or unlisted_word(key) and (
                _OPEN.fullmatch(key) or _BANTU_OPEN.fullmatch(key) or not _capitalised(lines, line_start)):
            out.append(caps[-1])
    return out + _form_pairs(text, caps, {t.start for t in out})


def _capitalised(lines: dict[int, tuple[str, bool, bool | None]], line_start: int) -> bool:
    """:data:`_CAPITALISED` found in the line at ``line_start`` (searched once a line)."""
    line, cased, found = lines[line_start]
    if found is None:
        found = bool(_CAPITALISED.search(line))
        lines[line_start] = (line, cased, found)
    return found


def _all_capital_words(text: str, toks: Sequence[Tok]) -> list[tuple[int, int, str]]:
    """``(start, end, word)`` of the matches of :data:`_CAPS` written in capitals only (``str.isupper``), in text order.
    :data:`_CAPS` finds the words :func:`.name_tokens.tokens` finds that begin with no ASCII lower-case letter, a
    possessive "'s" kept: such a word in capitals is one of ``toks`` written in capitals (its "'s" would be in lower
    case), where :data:`_CAPS` is tried. Read from the words, not by a scan of the text (issue 50, tenth session:
    20,000 capitalised words of a 1 MB dialog matched letter by letter to keep 200)."""
    texts = texts_of(toks)
    found = (_CAPS.match(text, toks[i].start) for i in compress(range(len(texts)), map(str.isupper, texts)))
    return [(m.start(), m.end(), m.group(0)) for m in found if m is not None and m.group(0).isupper()]


def _form_pairs(text: str, caps: Sequence[Tok], taken: set[int]) -> list[Tok]:
    """A name as a form writes it, surname, comma, given name, both in capitals ("BEDNAR, JITKA", "FOX, DAWN"): a
    gazetteer surname, then a gazetteer given name ("STONE, JADE", even where the lists call both words: "FOX, DAWN");
    else no two common words ("WAIT, STOP"), a gazetteer name and a gazetteer name or a word in no list; or one of
    them taken already and the other a gazetteer name or a word in no list. Never a function, demographic or clinical
    word (a condition word only when no common word, "BEDNAR", but for a surname before a given name: not "PAIN"),
    an eponym, a clinical acronym, and a vowel in each (:func:`capital_names`)."""
    def may(t: Tok, word: bool = False) -> bool:  # word: a condition word that is also a common word may be one
        w = word_facts(t.key)
        return t.key.isalpha() and bool(_VOWELS.search(t.key)) and not clinical_acronym(t.text) \
            and not (w.function or w.demographic or w.eponym) \
            and (w.clinical is None or w.clinical == "condition" and (word or not w.common))

    out = []
    for a, b in zip(caps, caps[1:], strict=False):
        between = text[a.end:b.start]
        if between == " " and (a.start in taken) != (b.start in taken):  # "MSWELI NTOKOZO", "[DUVAL] WISLY" on a card
            other = b if a.start in taken else a
            out += [other] if _beside_capital_name(other) and may(other) else []
            continue
        if between not in (", ", ",  ", ","):
            continue
        if a.start in taken or b.start in taken:
            other = b if a.start in taken else a
            ok = other.start not in taken and may(other) and (word_facts(other.key).gazetteer or unlisted_word(other.key))
            out += [other] if ok else []
        elif may(a, True) and may(b, True):
            wa, wb = word_facts(a.key), word_facts(b.key)
            if a.key in surnames() and b.key in first_names():  # a surname, then a given name: "FOX, DAWN", "STONE, JADE"
                ok = True
            elif wa.common and wb.common or not (may(a) and may(b)):  # not "WAIT, STOP", "PAIN, FEVER"
                ok = False
            else:  # a gazetteer name and a gazetteer name or a word in no list ("BEDNAR, JITKA")
                ok = (wa.gazetteer or wb.gazetteer) and (wa.gazetteer or unlisted_word(a.key)) \
                    and (wb.gazetteer or unlisted_word(b.key))
            out += [a, b] if ok else []
    return out




#: An all-capital word right beside a name taken in capitals is its other part when English text writes it less
#: often than this ("WISLY" 0, "SONO" 2.6; not "HAPPY", "WELL", "PAIN": issue 50, eighth session)
_BESIDE_CAPITAL_ZIPF = 3.0


def _beside_capital_name(t: Tok) -> bool:
    """An all-capital word of four letters or more and two vowels (as :func:`capital_names` reads), a gazetteer name,
    a word in no list, or a word English text seldom writes (:data:`_BESIDE_CAPITAL_ZIPF`), no clinical acronym."""
    if len(t.key) < 4 or len(_VOWELS.findall(t.key)) < 2 or clinical_acronym(t.text):
        return False
    w = word_facts(t.key)
    return w.gazetteer or unlisted_word(t.key) or english_zipf(t.key) < _BESIDE_CAPITAL_ZIPF


def okina_names(text: str, toks: Sequence[Tok] | None = None) -> list[Tok]:
    """Words with a glottal stop between two vowels (module docstring): "Faʻamoe", "mata'afa", "so’oaemalelagi"; not
    "ma'am", "o'er". ``toks``: ``tokens(text)`` when the caller read them already. Only the words that hold a place
    where the text has such a stop are read (a 1 MB dialog has 190,000 words and about 60 such places)."""
    if not any(c in text for c in "ʻ‘'’"):
        return []
    at = [i - 1 for c in "ʻ‘'’" for i in places(text, c) if i and _OKINA.match(text, i - 1)]  # (unsorted)
    out = []
    if at:
        toks = tokens(text) if toks is None else toks
        for i in sorted({i for p in at if (i := bisect_right(toks, p, key=_start) - 1) >= 0}):  # the word a place is in
            t = toks[i]
            if len(t.text) >= 4 and _OKINA.search(t.text) and t.key.replace("’", "'") not in _ENGLISH_APOSTROPHE:
                out.append(t)
    for m in re.finditer(r"(?<![\w'’\-])[^\W\d_]*[aeiouāēīōū]‘[aeiouāēīōū][^\W\d_]*", text, re.I) if "‘" in text else ():
        out.append(Tok(m.start(), m.end(), m.group(0), fold(m.group(0)).lower()))  # the tokens split at "‘"
    return out + _leading_stops(text)


#: a word after an apostrophe: the glottal stop a name begins with ("'Aho", "’ofa"), or the start of a quotation
_LEADING = re.compile(r"['’]([aeiouāēīōūAEIOUĀĒĪŌŪ][^\W\d_]{2,})")
#: English words an apostrophe starts for a dropped letter ("'em", "'ow"; a dropped "h": :func:`_leading_stops`)
_ELISIONS = frozenset("em ow oo ey at".split())


def _leading_stops(text: str) -> list[Tok]:
    """A word written with a glottal stop before its first vowel as an apostrophe, straight or curly (Tongan and
    Hawaiian names: "'Aho", "’alisi", "'ofa"; the ʻokina itself is a letter the tokens keep): the words of
    :func:`.name_tokens.tokens` leave the apostrophe's word out. A name when the apostrophe opens the word (after
    no letter), no closing apostrophe follows it (not a quoted word: "'ouch'"), and the word is in no list or a
    gazetteer name no list calls common, no English elision ("'em", "'ere"); issue 50, eighth session."""
    out = []
    for c in "'’":
        for i in places(text, c):
            if i and (text[i - 1].isalnum() or text[i - 1] in "'’ʻ"):
                continue
            m = _LEADING.match(text, i)
            if m is None or text[m.end():m.end() + 1] in ("'", "’") and not text[m.end() + 1:m.end() + 2].isalpha():
                continue
            key = fold(m.group(1)).lower()
            w = word_facts(key)
            if key in _ELISIONS or is_common("h" + key) or w.common or w.clinical is not None or w.function \
                    or w.demographic or w.eponym:  # "'ole" for "whole", "'ospital"
                continue
            if w.gazetteer or unlisted_word(key):
                out.append(Tok(i, m.end(), m.group(0), "'" + key))
    return out


@lru_cache(maxsize=50_000)
def open_syllables(key: str) -> bool:
    """``key`` (lower case, folded) is five letters or more of open syllables only, three vowels or more, ending in
    "a", "i", "o", "u" or two vowels (not the silent "e" of English: "regade", "etoside" are words written wrong), and
    no frequent word with a letter or two more ("overa": "over" + "a") nor two frequent words run together."""
    if len(key) < 5 or not key.isascii() or not _OPEN.fullmatch(key) or len(re.findall(r"[aeiou]", key)) < 3:
        return False
    if key[-1] == "e" and (key[-2] not in "aeiou" or key[-2] == "e"):  # nor "adobee"
        return False
    if english_zipf(key[:-1]) >= 4.0 or len(key) >= 6 and english_zipf(key[:-2]) >= 4.0:  # not "del" + "ai"
        return False
    longest = common_longest()  # no cut whose halves no common word is as long (a long word: linear, tenth session)
    cuts = range(max(3, len(key) - longest), min(len(key) - 2, longest + 1))
    return not any(is_common(key[:i]) and is_common(key[i:]) and english_zipf(key[:i]) >= 3.5
                   and english_zipf(key[i:]) >= 3.5 for i in cuts)


#: A word as the Polynesian languages write it (Samoan, Tongan, Hawaiian, Māori; issue 50, ninth session): the five
#: vowels and f, g, h, k, l, m, n, p, r, s, t, v, w ("ng", "wh"), every consonant before a vowel ("apia", "upolu",
#: "peseta", "solosolo", "malae"); no b, c, d, j, q, x, y, z and no closed syllable, as in most English words
_POLYNESIAN = re.compile(r"(?:(?:ng|wh|[fghklmnprstvw])?[aeiou]{1,3})+")
#: how common in English text such a word may be to be a name where cased writing capitalises it (the whitelist holds
#: "peseta" 1.81, "upolu" 1.73; GCIDE "apia" 2.21; not "banana" 4.6, "manila" 3.4, "tomato" 4.3)
POLYNESIAN_ZIPF = 3.0


@lru_cache(maxsize=50_000)
def polynesian_word(key: str, least: int = 4) -> bool:
    """``key`` (lower case, folded) is four letters or more as the Polynesian languages write a word
    (:data:`_POLYNESIAN`), two vowels or more, rarer in English text than :data:`POLYNESIAN_ZIPF`, whatever the
    word lists say of it (philter-ucsf's whitelist holds place names: "upolu", "apia"): a name where cased writing
    capitalises it inside a sentence or before a name found; one only GCIDE's headwords hold, rarer than Zipf 2.5 and
    with no silent "e" at its end ("apia", "palolo"; not "tisane"), is taken as a word in no list, in any case
    (:mod:`.name_detect`). ``least``: the fewest letters (three for a word capitalised inside a sentence: "Eti",
    "Ese"; twenty-eighth session)."""
    return len(key) >= least and key.isascii() and _POLYNESIAN.fullmatch(key) is not None \
        and len(re.findall(r"[aeiou]", key)) >= 2 and english_zipf(key) < POLYNESIAN_ZIPF



def polynesian_unlisted(key: str, w: Word, least: int = 4) -> bool:
    """A word as the Polynesian languages write one, rare in English (:func:`polynesian_word`), no clinical, function,
    demographic word or eponym (``w``: :func:`.name_word.word_facts` of ``key``): the word test of
    :func:`.name_detect.detector_candidates`' Polynesian words and of the neighbour rule
    (:func:`.name_capital_neighbours.capital_neighbours`)."""
    return not (w.clinical or w.function or w.demographic or w.eponym) and polynesian_word(key, least)

#: a syllable of romanised Korean (Revised Romanisation and McCune-Reischauer as people write their names): an onset,
#: a glide, a vowel, a coda ("ji", "ho", "bo", "ra", "min", "jun", "seo", "yeon", "eun", "hye", "jin")
SYLLABLE = r"(?:kk|tt|pp|ss|jj|ch|[gkndrmbsjhtpcy])?[wy]?(?:ae|eo|eu|oe|ui|ee|oo|a|e|i|o|u)(?:ng|n|k|l|m|p)?"
_SYLLABLES = re.compile(rf"{SYLLABLE}(?:-{SYLLABLE}){{1,2}}")


def syllable_names(toks: Sequence[Tok]) -> list[Tok]:
    """Given names of two or three romanised Korean syllables joined by hyphens, in any case ("ji-ho", "Bo-ra",
    "min-jun", "seo-yeon"; issue 50, seventh session): English joins such short parts only in reduplications
    ("bye-bye", "yo-yo", "so-so", "i-i" of a stutter) and compounds of function or frequent words ("to-do", "no-go",
    "co-op", "re-do", "so-long"), which are left: two parts that are function words, a function word beside a part
    at Zipf 4.5 or more (one beside a rarer syllable is a name: "ga-in", "so-ra", "soon-ja"; eighth session), an
    English prefix, or two parts both at Zipf 4.5 or more (a list may hold the word: "bo-ra" is in the whitelist; no real dialog writes such a word but "i-i"
    and "bye-bye")."""
    out = []
    for t in compress(toks, map(contains, keys_of(toks), repeat("-"))):
        key = t.key
        if not _SYLLABLES.fullmatch(key):
            continue
        parts = key.split("-")
        function = [p for p in parts if word_facts(p).function]
        if len(set(parts)) < len(parts) or parts[0] in _PREFIXES or sum(english_zipf(p) >= 4.5 for p in parts) >= 2 \
                or len(function) >= 2 or function and any(english_zipf(p) >= 4.5 for p in parts if p not in function):
            continue  # one function word beside a syllable English seldom writes: "ga-in", "so-ra", "soon-ja"
        out.append(t)
    return out


_PREFIXES = frozenset("re co de pre un non ex bi mid anti semi sub post pro".split())
