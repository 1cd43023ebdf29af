"""Gender neutralization (P3 §3.2): pronouns, gendered nouns and titles → neutral forms.

Substitutions (our reading of P3, configurable through ``extra``):

=====================================  ==========================================
he, she (also "he/she", "he or she")   the patient  (capitalisation kept: "He" → "The patient")
him                                    them
his                                    their
her                                    their before a word that starts a noun phrase
                                       ("her left arm"); them otherwise ("gave her a",
                                       "told her.", "her to") — a heuristic, see below
hers / himself, herself                theirs / themselves
man, woman, gentleman, lady, guy       patient / patient / person / person / person
men, women, gentlemen, ladies          patients / patients / people / people
boy, girl (boys, girls)                child (children)
male, female (noun)                    patient  ("a 45-year-old male presents")
male, female (adjective)               removed  ("female graduate student" → "graduate student")
males, females                         patients
husband, wife                          spouse (husbands, wives → spouses)
boyfriend, girlfriend, fiancé(e)       partner
widow, widower                         widowed person
Mr., Mrs., Ms., Miss (before a name)   removed with the following space
Gender: Male / Sex: F (EHR lines)      value removed ("Gender: ")
=====================================  ==========================================

Relatives other than the partner (mother, father, son, sister, ...) are kept:
their gender is clinical information (family history) and does not reveal the
patient's. ``her`` is possessive when the next word is not a function word
(preposition, article, conjunction, pronoun, adverb such as "to", "a", "and",
"that", "about") and not punctuation / end of text; this is right for the common
clinical patterns and wrong for double-object verbs with a bare noun ("gave her
medication" → "gave their medication"). ``male``/``female`` count as nouns when
the next word is a verb or function word of :data:`_NOUN_FOLLOWERS` (``presents``,
``with``, ``is``, ...) or punctuation, as adjectives otherwise.

Every substitution is recorded as ``{"start", "end", "old", "new"}`` (half-open
positions on the *original* text) in ``provenance["substitutions"]``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..records import Case, Variant
from .deid_rules import case_sensitive, lower_view
from .registry import register_transform

__all__ = [
    "Substitution",
    "NeutralizeResult",
    "GENDERED_LEXICON",
    "REPLACEMENTS",
    "neutralize_text",
    "find_gendered_terms",
    "gendered_candidates",
    "RESIDUAL_GENDER_CUES",
    "residual_terms",
    "neutralize_case",
]


@dataclass(frozen=True)
class Substitution:
    """One replacement: ``text[start:end] == old`` in the original became ``new``."""

    start: int
    end: int
    old: str
    new: str

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "old": self.old, "new": self.new}


@dataclass
class NeutralizeResult:
    """Neutralized text and every substitution made."""

    text: str
    substitutions: list[Substitution] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How often each (lower-cased) word was replaced."""
        out: dict[str, int] = {}
        for s in self.substitutions:
            key = s.old.strip().lower()
            out[key] = out.get(key, 0) + 1
        return out


#: Simple word → replacement map (lower case); context-dependent words are handled separately.
REPLACEMENTS: dict[str, str] = {
    "he": "the patient",
    "she": "the patient",
    "him": "them",
    "his": "their",
    "hers": "theirs",
    "himself": "themselves",
    "herself": "themselves",
    "man": "patient",
    "woman": "patient",
    "men": "patients",
    "women": "patients",
    "gentleman": "person",
    "lady": "person",
    "gentlemen": "people",
    "ladies": "people",
    "guy": "person",
    "boy": "child",
    "girl": "child",
    "boys": "children",
    "girls": "children",
    "males": "patients",
    "females": "patients",
    "husband": "spouse",
    "wife": "spouse",
    "husbands": "spouses",
    "wives": "spouses",
    "boyfriend": "partner",
    "girlfriend": "partner",
    "boyfriends": "partners",
    "girlfriends": "partners",
    "fiance": "partner",
    "fiancee": "partner",
    "fiancé": "partner",
    "fiancée": "partner",
    "widow": "widowed person",
    "widower": "widowed person",
}

#: Gendered words the neutralizer removes; :func:`find_gendered_terms` looks for these.
GENDERED_LEXICON: frozenset[str] = frozenset(REPLACEMENTS) | {"her", "male", "female", "mr", "mrs", "ms"}

# Words after "her" that mean it is an object pronoun (not a possessive).
_OBJECT_FOLLOWERS = frozenset(
    """to a an the and or but that which who whom whose about with for from at in on of by as if than then when
    while because so since until after before into onto over under up down out off away back again too also
    again very well now not never always only just still yet this these those it them him her his their there
    here what how why where whether each every all both some any no one two three several many much more most
    is was are were be been being has have had do does did will would can could should may might must""".split()
)
_ORDINAL_AFTER = re.compile(r"\s+(?:\d+(?:st|nd|rd|th)\b|\[AGE\])", re.IGNORECASE)
# Words after "male"/"female" that mean it is a noun ("a 45-year-old male presents").
_NOUN_FOLLOWERS = _OBJECT_FOLLOWERS | frozenset(
    """presents presented presenting comes came coming reports reported complains complained visits visited
    arrives arrived seeks sought undergoes underwent returns returned develops developed experiences notes
    describes denies who whose with without born brought referred admitted evaluated seen found""".split()
)

_COMPOUNDS = [
    (r"\bs/he\b", "the patient"),
    (r"\b(?:he|she)\s*(?:/|or|and/or)\s*(?:he|she)\b", "the patient"),
    (r"\b(?:his|her)\s*(?:/|or|and/or)\s*(?:his|her)\b", "their"),
    (r"\b(?:him|her)\s*(?:/|or|and/or)\s*(?:him|her)\b", "them"),
    (r"\b(?:himself|herself)\s*(?:/|or|and/or)\s*(?:himself|herself)\b", "themselves"),
]
_COMPOUND_RE = [(re.compile(p, re.IGNORECASE), r) for p, r in _COMPOUNDS]

_WORDS = sorted(set(REPLACEMENTS) | {"her", "male", "female"}, key=len, reverse=True)


def _by_first_letter(words: list[str], before: Callable[[str], str] = lambda c: "") -> str:
    """``words`` as one alternation, grouped by their first letter ("h(?:erself|ers|er|e)|s(?:he)"): the same matches
    as one branch a word, the same word preferred (in ``words``' order; two words that start with different letters
    never match at one place), and ``re`` tries a word start's first letter once, not once a word (issue 50, Build 3:
    the scan of a 1 MB dialog took half the time). ``before(c)``: what is asserted right after the first letter ``c``
    (a look-behind that reads the letter and the text before it)."""
    groups: dict[str, list[str]] = {}
    for w in words:
        groups.setdefault(w[:1], []).append(w[1:])
    return "|".join(re.escape(c) + before(re.escape(c)) + "(?:" + "|".join(map(re.escape, rests)) + ")"
                    for c, rests in groups.items())


# Not inside a hyphenated word, except after "-old-" ("45-year-old-man" → "45-year-old-patient").
# The look-behind stands after each word's first letter (the same matches as ``(?:(?<![\w-])|(?<=-old-))`` before
# it), so that the pattern begins with its first letters, which ``re`` searches for (:mod:`.text_scan`; issue 50,
# eighth session: the scan of a 1 MB dialog twice as fast, twice a dialog).
_WORD_RE = re.compile("(" + _by_first_letter(_WORDS, lambda c: rf"(?:(?<![\w-]{c})|(?<=-old-{c}))") + r")(?![\w])",
                      re.IGNORECASE)
# Titles: case-sensitive, with a period or directly before a capitalised name.
# (``\b`` before the "M" written as a look-behind after it: the pattern begins with a literal "M" re searches for)
_TITLE_RE = re.compile(r"M(?<!\wM)(?:(?:r|rs|s|R|RS|S)\.\s*|(?:r|rs|s|iss)\s+(?=[A-Z][a-z]))")
_EHR_GENDER_RE = re.compile(
    r"(?im)^([ \t]*(?:gender|sex)[ \t]*:[ \t]*)(male|female|man|woman|m|f)\b[ \t]*(?=\r?$)"
)
_EHR_GENDER_LOWER, _WORD_LOWER = case_sensitive(_EHR_GENDER_RE), case_sensitive(_WORD_RE)
_COMPOUND_LOWER = [(case_sensitive(p), r) for p, r in _COMPOUND_RE]
# where the first of them may match: their alternation, one scan instead of five (issue 50, Build 3); no pattern
# matches before the alternation's first match, none anywhere when it has none
# (each "\\b" before an "s" or "h" written as a look-behind after it, the branches grouped by that letter: the pattern
# begins with the letters re searches for; issue 50, eighth session; only where the first match starts is read)
_AND_OR = r"\s*(?:/|or|and/or)\s*"
_COMPOUND_ANY = re.compile(rf"s(?<!\ws)(?:/he\b|he{_AND_OR}(?:he|she)\b)|h(?<!\wh)(?:e{_AND_OR}(?:he|she)\b"
                           rf"|(?:is|er){_AND_OR}(?:his|her)\b|(?:im|er){_AND_OR}(?:him|her)\b"
                           rf"|(?:imself|erself){_AND_OR}(?:himself|herself)\b)", re.IGNORECASE)
_COMPOUND_ANY_LOWER = case_sensitive(_COMPOUND_ANY)


def _match_case(original: str, new: str) -> str:
    if not new:
        return new
    if original.isupper() and len(original) > 1:
        return new.upper()
    if original[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


def _next_word(text: str, pos: int) -> str:
    m = _NEXT_WORD.match(text, pos)  # at pos, not on a copy of the rest of the text (issue 50: linear time)
    return m.group(1) if m else ""


_NEXT_WORD = re.compile(r"\s*([A-Za-z][\w'-]*|\S?)")


def gendered_candidates(text: str, lower: str | None = None) -> list[tuple[int, int, str, bool]]:
    """(start, end, replacement, swallow_following_space) sorted by position; no overlaps. The case-insensitive
    patterns read :func:`.deid_rules.lower_view` of the text (``lower`` when the caller made it: the same matches,
    several times faster; issue 50, Build 3), the words as written are read on the text."""
    view = lower_view(text) if lower is None else lower
    on, ehr_rx, compound_rx, compound_any, word_rx = (
        (text, _EHR_GENDER_RE, _COMPOUND_RE, _COMPOUND_ANY, _WORD_RE) if view is None else
        (view, _EHR_GENDER_LOWER, _COMPOUND_LOWER, _COMPOUND_ANY_LOWER, _WORD_LOWER))
    found: list[tuple[int, int, str, bool]] = []
    taken = [False] * (len(text) + 1)

    def add(s: int, e: int, rep: str, swallow: bool = False) -> None:
        if any(taken[s:e]):
            return
        for i in range(s, e):
            taken[i] = True
        found.append((s, e, rep, swallow))

    for m in ehr_rx.finditer(on):
        add(m.start(2), m.end(2), "")
    first = compound_any.search(on)
    for pat, rep in compound_rx if first is not None else ():
        for m in pat.finditer(on, first.start() if first else 0):  # "\b" reads the character before the start
            add(m.start(), m.end(), _match_case(text[m.start():m.end()], rep))
    for m in _TITLE_RE.finditer(text):
        add(m.start(), m.end(), "")
    for m in word_rx.finditer(on):
        word = text[m.start(1):m.end(1)]
        low = word.lower()
        nxt = _next_word(text, m.end())
        if low == "her":
            # an ordinal after "her" is possessive ("her 36th birthday", "her [AGE] birthday" once the age is
            # replaced); a cardinal is an object ("gave her 5 mg")
            ordinal = _ORDINAL_AFTER.match(text, m.end()) is not None
            is_object = not ordinal and ((not nxt) or (not nxt[0].isalpha()) or nxt.lower() in _OBJECT_FOLLOWERS)
            add(m.start(), m.end(), _match_case(word, "them" if is_object else "their"))
        elif low in ("male", "female"):
            is_noun = (not nxt) or (not nxt[0].isalpha()) or nxt.lower() in _NOUN_FOLLOWERS
            if is_noun:
                add(m.start(), m.end(), _match_case(word, "patient"))
            else:
                add(m.start(), m.end(), "", True)
        else:
            add(m.start(), m.end(), _match_case(word, REPLACEMENTS[low]))
    found.sort()
    return found


def neutralize_text(text: str) -> NeutralizeResult:
    """Neutralize gendered pronouns, nouns and titles in ``text`` (see the module table)."""
    out: list[str] = []
    subs: list[Substitution] = []
    pos = 0
    for s, e, rep, swallow in gendered_candidates(text):
        if s < pos:
            continue
        out.append(text[pos:s])
        end = e
        if swallow:  # a removed adjective takes its following space with it
            while end < len(text) and text[end] in " \t":
                end += 1
            if rep == "" and s < len(text) and text[s:s + 1].isupper() and end < len(text):
                # "Female students ..." at a sentence start: capitalise what follows
                out.append(text[end].upper())
                subs.append(Substitution(s, end + 1, text[s:end + 1], text[end].upper()))
                pos = end + 1
                continue
        out.append(rep)
        subs.append(Substitution(s, end, text[s:end], rep))
        pos = end
    out.append(text[pos:])
    return NeutralizeResult("".join(out), subs)


def find_gendered_terms(text: str, lower: str | None = None) -> list[tuple[int, str]]:
    """Gendered words of :data:`GENDERED_LEXICON` still in ``text``: ``(position, word)``.

    Titles count only in their title form (``Mr.``, ``Mrs.``, ``Ms.``); EHR
    ``Gender:``/``Sex:`` values are found by the same rule the neutralizer uses. ``lower``: :func:`lower_view` of
    ``text`` when the caller made it.
    """
    # the same matches as the case-insensitive patterns on the text (gendered_candidates)
    view = lower_view(text) if lower is None else lower
    on, ehr_rx, word_rx = (text, _EHR_GENDER_RE, _WORD_RE) if view is None else (view, _EHR_GENDER_LOWER, _WORD_LOWER)
    hits = [(m.start(), text[m.start(1):m.end(1)]) for m in word_rx.finditer(on)]
    hits += [(m.start(), m.group(0).strip()) for m in _TITLE_RE.finditer(text)]
    hits += [(m.start(2), text[m.start(2):m.end(2)]) for m in ehr_rx.finditer(on)]
    return sorted(hits)


#: Gender-revealing words the neutralizer does not rewrite (they describe the patient's own
#: role or group rather than a relative); :func:`residual_terms` reports them.
RESIDUAL_GENDER_CUES: tuple[str, ...] = (
    "fraternity", "fraternities", "sorority", "sororities", "actress", "waitress", "stewardess", "hostess",
    "heroine", "sir", "madam", "ma'am", "housewife", "businessman", "businesswoman", "chairman", "chairwoman",
    "sportsman", "sportswoman", "policeman", "policewoman", "fireman", "spokesman", "spokeswoman",
)
_CUE_RE = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in sorted(RESIDUAL_GENDER_CUES, key=len, reverse=True))
                     + r")(?![\w])", re.IGNORECASE)
# A lexicon word ending a hyphenated compound ("ex-boyfriend", "45-year-old-woman"): the neutralizer leaves it.
_COMPOUND_WORD_RE = re.compile(r"(?<![\w-])(?:\w+-)+(" + "|".join(re.escape(w) for w in _WORDS) + r")(?![\w])",
                               re.IGNORECASE)
_CAP_NAME_RE = re.compile(r"\b[A-Z][a-z]+\b")
# "pouch of Douglas", "St. Louis": a first name after these is a place or an eponym.
_NOT_A_NAME_BEFORE = re.compile(r"(?:\bof|\bSt\.?|\bSaint|\bSan|\bSanta|\bFort|\bLake|\bMount|\bMt\.?)\s+$")
_NOT_NAMES = frozenset({"frank"})  # "Frank hematuria" at a sentence start is a finding


def residual_terms(text: str, original: str | None = None) -> list[dict[str, Any]]:
    """What still reveals gender or identifies a person in a neutralized ``text``.

    One ``{"start", "end", "text", "kind"}`` per hit, sorted by position (positions on ``text``):

    - ``gendered_term``: a word of :data:`GENDERED_LEXICON` (:func:`find_gendered_terms`), also
      inside a hyphenated compound the neutralizer leaves alone ("ex-boyfriend");
    - ``gender_cue``: a word of :data:`RESIDUAL_GENDER_CUES` ("fraternity", "actress", ...);
    - ``name``: a capitalised first name of :data:`clinaudit.perturb.deid.FIRST_NAMES`
      (not after "of", "St." and similar: "pouch of Douglas", "St. Louis"), and, when the
      ``original`` text is given, the capitalised word after a title the neutralizer removed
      ("Mr. Smith" → "Smith" stays a surname).

    Used by the CARE audit to exclude vignettes that still carry such terms (our reading of
    P3 §3.2: the only gender signal must be the prefix).
    """
    from .names import FIRST_NAMES

    hits: list[dict[str, Any]] = []
    for p, w in find_gendered_terms(text):
        hits.append({"start": p, "end": p + len(w), "text": w, "kind": "gendered_term"})
    for m in _COMPOUND_WORD_RE.finditer(text):
        hits.append({"start": m.start(), "end": m.end(), "text": m.group(0), "kind": "gendered_term"})
    for m in _CUE_RE.finditer(text):
        hits.append({"start": m.start(), "end": m.end(), "text": m.group(0), "kind": "gender_cue"})
    for m in _CAP_NAME_RE.finditer(text):
        low = m.group(0).lower()
        if low in FIRST_NAMES and low not in _NOT_NAMES and not _NOT_A_NAME_BEFORE.search(text[: m.start()]):
            hits.append({"start": m.start(), "end": m.end(), "text": m.group(0), "kind": "name"})
    if original:
        surnames = set()
        for m in _TITLE_RE.finditer(original):
            nxt = re.match(r"\s*([A-Z][a-z'-]+)", original[m.end():])
            if nxt:
                surnames.add(nxt.group(1))
        for name in sorted(surnames):
            for m in re.finditer(r"\b" + re.escape(name) + r"\b", text):
                hits.append({"start": m.start(), "end": m.end(), "text": m.group(0), "kind": "name"})
    seen: set[tuple[int, int]] = set()
    out = []
    for h in sorted(hits, key=lambda h: (h["start"], -h["end"])):
        if any(s <= h["start"] < e for s, e in seen):
            continue
        seen.add((h["start"], h["end"]))
        out.append(h)
    return out


@register_transform("neutralize_gender", "neutralization",
                    "gendered pronouns, nouns and titles replaced by neutral forms, every substitution recorded (P3)")
def neutralize_case(case: Case, rng: Any = None, *, seed: int = 0, **_: Any) -> list[Variant]:
    """Registered transform ``neutralize_gender``: one variant with the substitutions in provenance."""
    res = neutralize_text(case.text)
    remaining = find_gendered_terms(res.text)
    return [
        Variant(
            variant_id=Variant.make_id(case.case_id, "neutralization", "neutralize_gender", seed),
            case_id=case.case_id,
            family="neutralization",
            name="neutralize_gender",
            text=res.text,
            seed=seed,
            description=f"gender neutralized ({len(res.substitutions)} substitutions)",
            provenance={
                "transform": "neutralize_gender",
                "kind": "rule",
                "substitutions": [s.to_dict() for s in res.substitutions],
                "counts": res.counts(),
                "remaining": [{"start": p, "text": w} for p, w in remaining],
            },
            flags=["gendered_terms_remain"] if remaining else [],
        )
    ]
