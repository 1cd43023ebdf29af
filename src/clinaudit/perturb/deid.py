"""Case filtering and de-identification (P1 §3, P2 §4.1).

* :func:`filter_sex_specific` drops cases that mention a sex-specific condition
  (configurable lexicon of regex stems, :data:`DEFAULT_SEX_SPECIFIC`; P2 keeps 61/100
  OncQA cases this way), giving the matched term as the reason;
* :func:`filter_min_turns` drops dialogs with fewer than ``min_turns`` turns (P1: 10);
* :func:`deidentify_text` (registered as the transform ``deidentify``), our reading of
  P1's procedure:

  - **names** → ``[NAME]``: a title followed by capitalised words ("Dr. Anna Lee" →
    "Dr. [NAME]"), first names from a small built-in list (:data:`FIRST_NAMES`; matched
    in any case except for names that are also common words, which must be
    capitalised) with a following capitalised surname, and any ``names`` you pass
    (e.g. from ACI-Bench metadata);
  - **explicit ages** removed: "45-year-old", "45 year old", "fifty-eight-year-old",
    "age 45", "aged 45", "age: 45", "45 years of age", "45 years old", "45 yo", "45 y/o"; a speaker's own
    age ("I'm 45", "I just turned sixty") and a birthday's ordinal become ``[AGE]``
    (:mod:`.deid_rules`; doses, heights, weights, times are left);
  - **life-stage cues** removed (:data:`LIFE_STAGE_TERMS`: retired, retirement, college,
    grandmother, teenager, elderly, ...);
  - **race / ethnicity / national or geographic origin** descriptors removed
    (:data:`ORIGIN_TERMS`; "white"/"black" only before a person noun, so "white blood
    cells" stays);
  - with ``gender=True`` (default) gendered words are neutralized as in
    :mod:`.neutralize` (P1's dialogs must carry no inferred gender before the gender
    counterfactual is appended), and gendered forms of address ("sir", "ma'am", "mister",
    vocative "miss") are removed as titles are (category ``address``, :mod:`.deid_rules`).

  Removals delete the phrase with one adjacent space and fix a preceding "a"/"an".
  The :class:`DeidReport` lists every removal (position on the original text, old,
  new, kind) and what still looks identifying in the result: capitalised words inside
  sentences that may be names, first-person ages ("I'm twenty six") and gendered forms of address
  ("sir", "ma'am", "Mister") left (with ``ages``/``gender`` off, or added later), age questions,
  remaining gendered words.
  P1 followed its filter by a manual review; so should you.
* :func:`residual_identifiers` selects the remaining items that count as identifiers
  (by kind, minus an allow-list of words a reviewer cleared), :func:`describe_residuals`
  writes them as an exclusion reason and :func:`filter_residual_identifiers` splits cases
  by them. Replace, don't drop (issue 38): :func:`deidentify_text` itself replaces a possible name that no
  vocabulary explains (source ``residual``), so the note-generation audit keeps such dialogs by default and
  excludes them only with the spec's ``deid.exclude_residual: true`` (:func:`residual_items`).
"""

from __future__ import annotations

import bisect
import gc
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from typing import Any

from ..records import Case, Variant
from .case_filters import DEFAULT_SEX_SPECIFIC, FilterResult, count_turns, filter_min_turns, filter_sex_specific
from .deid_rules import ADDRESS_RESIDUAL, ADDRESS_RESIDUAL_LOWER, NUM, address_spans, lower_view, normalise, pattern_set_spans, birthday_age_spans, find_first_person_ages, first_person_age_spans
from .name_brackets import bracket_name_spans
from .name_tokens import Tok, distinct_texts, texts_of, tokens
from .names import FIRST_NAMES, first_name_spans
from .deid_residual import DEFAULT_RESIDUAL_KINDS, RESIDUAL_KINDS, describe_residuals, public_text, residual_identifiers
from .registry import register_transform
from .text_scan import letter_first, matches_from, places

__all__ = [
    "DEFAULT_SEX_SPECIFIC",
    "FIRST_NAMES",
    "LIFE_STAGE_TERMS",
    "ORIGIN_TERMS",
    "FilterResult",
    "DeidReport",
    "filter_sex_specific",
    "filter_min_turns",
    "count_turns",
    "deidentify_text",
    "deidentify_case",
    "deidentify_case_report",
    "deidentify_names",
    "known_names",
    "removal_counts",
    "public_text",
    "IDENTIFIER_FIELDS",
    "RESIDUAL_KINDS",
    "DEFAULT_RESIDUAL_KINDS",
    "find_residual_identifiers",
    "residual_identifiers",
    "residual_items",
    "EXCLUDE_RESIDUAL_DEFAULT",
    "describe_residuals",
    "filter_residual_identifiers",
]

#: What a run does with a dialog in which a possible name remained (``deid.exclude_residual`` of the spec): keep it,
#: the name replaced by ``[NAME]`` (issue 38: excluding dropped the patients whose names the lists lack).
EXCLUDE_RESIDUAL_DEFAULT = False

#: Life-stage cues (regex, case-insensitive, whole words).
LIFE_STAGE_TERMS: tuple[str, ...] = (
    r"retired", r"retirement", r"retiree", r"pensioner", r"senior citizen", r"elderly", r"middle[- ]aged",
    r"(?:in|at|to) (?:college|university|high school|middle school|grade school|kindergarten)",
    r"college(?: student)?", r"university student", r"high school(?: student)?", r"grad(?:uate)? student",
    r"undergrad(?:uate)?", r"freshman", r"sophomore", r"teenager", r"teen", r"adolescent", r"toddler",
    r"grandmother", r"grandfather", r"grandparent", r"grandma", r"grandpa", r"grandchild(?:ren)?",
    r"grandkids?", r"grandsons?", r"granddaughters?", r"grandparents", r"great[- ]grandchild(?:ren)?",
)

_PERSON_NOUNS = (
    r"(?:man|woman|men|women|male|female|patient|person|people|boy|girl|child|adult|individual|gentleman|lady|"
    r"infant|teenager|student|guy|family|mother|father|couple)"
)
#: Race / ethnicity / national or geographic origin descriptors (regex, case-insensitive, whole words).
ORIGIN_TERMS: tuple[str, ...] = (
    r"african[- ]american", r"afro[- ]caribbean", r"caucasian", r"hispanic", r"latin[oa]s?", r"latinx", r"latine",
    r"asian(?:[- ]american)?", r"pacific islander", r"native american", r"native hawaiian", r"alaska native",
    r"american indian", r"first nations", r"indigenous", r"aboriginal", r"middle[- ]eastern", r"arab(?:ic)?",
    r"multiracial", r"biracial", r"mixed[- ]race", r"ashkenazi(?: jewish)?",
    r"(?:white|black|brown)(?=\s+" + _PERSON_NOUNS + r"\b)",
    r"mexican", r"puerto rican", r"cuban", r"dominican", r"guatemalan", r"salvadoran", r"colombian", r"brazilian",
    r"chinese", r"japanese", r"korean", r"vietnamese", r"filipino", r"thai", r"indian", r"pakistani",
    r"bangladeshi", r"nigerian", r"ethiopian", r"somali", r"kenyan", r"ghanaian", r"haitian", r"jamaican",
    r"irish", r"italian", r"german", r"polish", r"russian", r"ukrainian", r"greek", r"turkish", r"iranian",
    r"persian", r"iraqi", r"syrian", r"lebanese", r"egyptian", r"moroccan", r"scandinavian", r"european",
    r"african",
    # only the "from <Place>" part is removed ("She immigrated from Mexico" -> "She immigrated")
    r"(?:immigrated|emigrated|moved|came|is|am|was|were|recently arrived) (?P<x>from (?:the )?[A-Z][a-z]+(?: [A-Z][a-z]+)?)",
    r"born (?P<x>in (?:the )?[A-Z][a-z]+(?: [A-Z][a-z]+)?)",
)

_AGE_PATTERNS: tuple[str, ...] = (
    rf"{NUM}[- ](?:year|yr|month|week|day)s?[- ]old",
    rf"{NUM} years? of age",
    rf"(?:aged?|age:)\s*{NUM}(?: years?(?: old)?)?",
    r"\d{1,3}\s*(?:yo|y/o|y\.o\.)",
)
_AGE_QUESTION = re.compile(r"(?i)\bhow old\b|\bwhat is your age\b|\bdate of birth\b|\bbirthday\b")
#: :data:`_AGE_QUESTION` on :func:`.deid_rules.lower_view` (its letters first: :func:`.text_scan.letter_first`)
_AGE_QUESTION_LOWER = re.compile(letter_first([r"how old\b", r"what is your age\b", r"date of birth\b", r"birthday\b"],
                                              r"\w"))

_CAP_STOP = frozenset(
    """I I'm I've I'll I'd Doctor Patient Dr Mr Mrs Ms Monday Tuesday Wednesday Thursday Friday Saturday Sunday
    January February March April May June July August September October November December English Spanish
    Tylenol Advil Motrin Aleve Benadryl Covid COVID Medicare Medicaid ER ICU Emergency Room Hospital Clinic""".split()
)


@dataclass
class DeidReport:
    """What :func:`deidentify_text` removed and what still looks identifying."""

    removed: list[dict[str, Any]] = field(default_factory=list)  # {"start","end","old","new","kind"}
    remaining: list[dict[str, Any]] = field(default_factory=list)  # {"start","end","text","kind"} on the output

    def to_dict(self) -> dict[str, Any]:
        return {"removed": self.removed, "remaining": self.remaining}


# --------------------------------------------------------------------------- de-identification


def _name_spans(text: str, names: Sequence[str], detector: bool = True,
                toks: Sequence[Tok] | None = None) -> list[tuple[int, int, str, str, str]]:
    """Name candidates ``(start, end, "[NAME]", "name", source)``; source ``metadata`` (the listed ``names``),
    ``detector`` (the gazetteer, :mod:`.name_detect`) or ``rule`` (a naming context: a title, a self-introduction,
    a greeting, a relative; a word so found again; the built-in first names)."""
    from .name_detect import find_names

    firsts = first_name_spans(text, _CAP_STOP, toks) if detector else []  # read by the surname rules too
    spans = [(n.start, n.end, "[NAME]", "name", n.source)
             for n in find_names(text, [n for n in names if n and str(n).strip()], detector=detector, toks=toks,
                                 firsts=[(s, e) for s, e, *_ in firsts])]
    return spans + firsts


def _residual_spans(text: str, toks: Sequence[Tok] | None = None) -> list[tuple[int, int, str, str, str]]:
    """Replace, don't drop: a capitalised word inside a sentence that no vocabulary explains may be a name (the
    residual check would list it): ``[NAME]``, source ``residual`` (ranked after every other rule)."""
    from .name_detect import no_person_at
    from .name_notation import notation_span

    return [(s, e, "[NAME]", "name", "residual") for s, e, w in _capitalised_inside(text, toks)
            if not _known_word(w) and not _known_word(fold_word(w)) and not no_person_at(text, s, e)
            and not notation_span(text, s, e)]


def _capitalised_inside(text: str, toks: Sequence[Tok] | None = None) -> list[tuple[int, int, str]]:
    """Capitalised words (any script, three letters or more) inside a sentence: after a lower-case letter, a comma
    or a semicolon and one space; a possessive "'s" left out, placeholders and :data:`_CAP_STOP` words skipped.
    ``toks``: the text's :func:`.name_tokens.tokens` when they were read already (its capitalised words are those
    :func:`.name_tokens.capitalised_tokens` finds; the cheap tests first, no call per word)."""
    from .name_tokens import capitalised_tokens

    out = []
    if toks is None:
        capitalised = capitalised_tokens(text, after_space=True)
    else:  # the capitalised words, each distinct word read once
        texts = texts_of(toks)
        caps = {w for w in distinct_texts(toks) if w[:1].isupper()}
        capitalised = list(compress(toks, map(caps.__contains__, texts)))
    for s, e, w, _ in capitalised:
        if s < 2 or text[s - 1] != " " or not (text[s - 2].islower() or text[s - 2] in ",;") or len(w) < 3:
            continue
        if not w.isupper() and w not in _CAP_STOP and text[e:e + 1] != "]":
            out.append((s, e, w))
    return out


def fold_word(word: str) -> str:
    from .name_detect import fold

    return fold(word)


def _label_spans(text: str, labels: list[re.Match[str]] | None = None) -> list[tuple[int, int]]:
    """Speaker labels at line starts ("[doctor]", "Guest_family:", "Doctor_2:"): never changed. A label counts when
    each of its words is a role (:data:`SPEAKER_ROLES`); "John: hi" is no role, so its name is replaced. ``labels``:
    :func:`_label_matches` of ``text`` when the caller read them."""
    return [m.span() for m in (_label_matches(text) if labels is None else labels)
            if _role_label(m.group("b") or m.group("c") or "")]


def _label_matches(text: str) -> list[re.Match[str]]:
    """``_LABEL.finditer(text)``: the pattern tried at the lines' starts only, where its matches start (issue 50, tenth
    session: not at each of a 1 MB dialog's million positions; read once for both label rules)."""
    return list(matches_from(_LABEL, text, [0] + [p + 1 for p in places(text, "\n")]))


@lru_cache(maxsize=4096)  # a label's words (of a match's group "b" or "c"): a dialog repeats a few labels
def _role_label(label: str) -> bool:
    words = [w for w in re.split(r"[\s_\-\d]+", label.lower()) if w]
    return bool(words) and all(w in SPEAKER_ROLES for w in words)


def _speaker_name_spans(text: str, labels: list[re.Match[str]]) -> list[tuple[int, int, str, str, str]]:
    """A speaker label that is one capitalised word and no role ("Zanele: I feel fine.") is the speaker's name
    (``labels``: :func:`_label_matches`); not a lab value's symbol and charge ("Cl-: 101 mEq/L") nor a lab written as
    notation ("C-peptide: Low", :func:`.name_notation.notation`)."""
    from .name_notation import notation

    out = []
    for m in labels:
        c = m.group("c")
        if c and not _role_label(c) and re.fullmatch(r"[A-Z][a-z'-]*[a-z]", c.strip()) and not _known_word(c.strip()) \
                and not notation(c.strip()):
            out.append((m.start("c"), m.start("c") + len(c.strip()), "[NAME]", "name", "rule"))
    return out


#: Words of speaker labels (MTS-Dialog's "Guest_family", "Guest_clinician", ACI-Bench's "[patient_guest]").
SPEAKER_ROLES: frozenset[str] = frozenset("""
    doctor dr physician clinician clinican provider nurse np pa md patient pt guest family member relative
    caregiver carer parent mother father mom dad son daughter husband wife spouse partner friend interpreter
    translator assistant medical scribe resident intern student attending speaker user agent system
    staff pharmacist therapist technician tech visitor child kid sibling brother sister a b q
""".split())
_LABEL = re.compile(r"(?m)^[ \t]*(?:\[(?P<b>[^\]\n]{1,40})\]|(?P<c>[A-Za-z][A-Za-z_ \-]{0,30}?\d*)[ \t]*:)")


def _regex_spans(text: str, spans: Sequence[tuple[int, int]], kind: str) -> list[tuple[int, int, str, str, str]]:
    """The matches of a set of patterns (:func:`.deid_rules.pattern_set_spans`) as replacements of ``kind``."""
    return [(s, e, _life_stage_word(text[s:e]) if kind == "life_stage" else "", kind, "rule") for s, e in spans]


def _life_stage_word(word: str) -> str:
    rep = _LIFE_STAGE_REPLACE.get(word.lower(), "")
    return rep.capitalize() if rep and word[:1].isupper() else rep


# Life-stage nouns get a neutral noun instead of a gap.
_LIFE_STAGE_REPLACE = {
    **{w: "relative" for w in "grandmother grandfather grandparent grandma grandpa grandson granddaughter grandchild grandkid".split()},
    **{w: "relatives" for w in "grandparents grandchildren grandkids grandsons granddaughters".split()},
    "teenager": "person", "teen": "person", "adolescent": "person", "toddler": "child",
    "college student": "student", "university student": "student", "high school student": "student",
    "graduate student": "student", "grad student": "student", "senior citizen": "person",
}


# metadata wins a tie (the de-identification table credits the data with the names it listed)
_SOURCE_RANK = {"metadata": 0, "rule": 1, "detector": 2, "residual": 3}


def _fix_article(before: str, after: str) -> str:
    """Adjust a trailing "a"/"an" in ``before`` to the word that starts ``after`` (both short: the caller passes
    the last and next few characters)."""
    m = re.search(r"(?i)(?<![\w'’])(an?)(\s+)$", before)
    w = re.match(r"\s*([A-Za-z])", after)
    if not m or not w:
        return before
    art = m.group(1)
    want = "an" if w.group(1).lower() in "aeiou" else "a"
    if art.lower() == want:
        return before
    new = want if art.islower() else want.capitalize()
    return before[: m.start(1)] + new + m.group(2)


def _fix_tail(out: list[str], after: str) -> None:
    """:func:`_fix_article` on the end of the pieces written so far (the last 40 characters)."""
    k, n = len(out), 0
    while k > 0 and n < 40:
        k -= 1
        n += len(out[k])
    tail = "".join(out[k:])
    fixed = _fix_article(tail, after[:40])
    if fixed != tail:
        out[k:] = [fixed]


def deidentify_text(
    text: str,
    *,
    names: Sequence[str] = (),
    gender: bool = True,
    ages: bool = True,
    life_stage: bool = True,
    origin: bool = True,
    detector: bool = True,
) -> tuple[str, DeidReport]:
    """De-identify ``text``; returns the new text and a :class:`DeidReport`.

    ``names``: names the data lists (every occurrence replaced, :func:`.name_detect.known_name_spans`);
    ``detector``: also replace the names the gazetteer detector and the naming rules find.

    The cyclic garbage collector is paused while it runs (issue 50, Build 3): the rules allocate a few objects per
    word and no reference cycles, and each collection walked the word lists' sets and caches (millions of entries):
    1 MB of dialog spent more time collecting than tokenising."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _deidentify(text, names, gender, ages, life_stage, origin, detector)
    finally:
        if was_enabled:
            gc.enable()


def _deidentify(text: str, names: Sequence[str], gender: bool, ages: bool, life_stage: bool, origin: bool,
                detector: bool) -> tuple[str, DeidReport]:
    norm = normalise(text)
    chosen = _choose(norm[0] if norm else text, names, gender, ages, life_stage, origin, detector)
    if norm:  # spans on the normalised text -> spans on the original: the whole original span is replaced
        starts, ends = norm[1], norm[2]
        chosen = [(starts[s], ends[e - 1], rep, kind, src) for s, e, rep, kind, src in chosen]
    out: list[str] = []
    report = DeidReport()
    pos = 0
    cap = -1  # "Sir, are you" -> "Are you": the position whose letter is capitalised
    for s, e, rep, kind, source in chosen:
        piece_before = text[pos:s] if pos != cap or s == pos else text[pos:pos + 1].upper() + text[pos + 1:s]
        end = e
        if rep == "" and not text[s:e][-1:].isspace():
            # delete one adjacent space (prefer the following one), then fix a preceding "a"/"an"
            if end < len(text) and text[end] == " ":
                end += 1
            elif piece_before.endswith(" "):
                piece_before = piece_before[:-1]
        # no empty piece: _fix_tail reads back 40 characters, not every removal of a run ("sir sir sir ...")
        if piece_before:
            out.append(piece_before)
        if rep == "":
            _fix_tail(out, text[end:end + 40])
        else:
            out.append(rep)
        report.removed.append({"start": s, "end": end, "old": text[s:end], "new": rep,
                               "kind": {"gender_adj": "gender", "address_cap": "address"}.get(kind, kind),
                               "source": source})
        pos = end
        cap = end if kind == "address_cap" else -1
    out.append(text[pos:] if pos != cap else text[pos:pos + 1].upper() + text[pos + 1:])
    result = "".join(out)
    report.remaining = _remaining(result)
    return result, report


def _choose(text: str, names: Sequence[str], gender: bool, ages: bool, life_stage: bool, origin: bool,
            detector: bool) -> list[tuple[int, int, str, str, str]]:
    """The replacements of :func:`deidentify_text` on ``text``: sorted, no overlaps."""
    toks = tokens(text) if detector else None  # one token pass for the detector, the rules and the residual check
    lower = lower_view(text) if ages or life_stage or origin or gender else None  # one lower-case copy, for the rules
    cands: list[tuple[int, int, str, str, str]] = _name_spans(text, names, detector, toks)
    # the age, life-stage and origin patterns, their word starts found by one scan
    sets = [(kind, patterns) for on, kind, patterns in ((ages, "age", _AGE_PATTERNS), (life_stage, "life_stage",
            LIFE_STAGE_TERMS), (origin, "origin", ORIGIN_TERMS)) if on]
    found = dict(zip([kind for kind, _ in sets], pattern_set_spans(text, [p for _, p in sets], lower) if sets else []))
    if ages:  # a first-person age ("I'm 45 years old") becomes [AGE]; other explicit ages are removed
        cands += [(s, e, "[AGE]", "age", "rule")
                  for s, e in first_person_age_spans(text, lower) + birthday_age_spans(text, lower)]
        cands += _regex_spans(text, found["age"], "age")
    if life_stage:
        cands += _regex_spans(text, found["life_stage"], "life_stage")
    if origin:
        cands += _regex_spans(text, found["origin"], "origin")
    if gender:  # gendered forms of address are removed as titles are ("Yes, sir." -> "Yes.")
        cands += [(s, e, "", "address_cap" if cap else "address", "rule") for s, e, cap in address_spans(text, lower)]
        from .neutralize import gendered_candidates

        for s, e, rep, swallow in gendered_candidates(text, lower):
            cands.append((s, e, rep, "gender" if not swallow else "gender_adj", "rule"))
    label_matches = _label_matches(text)
    if detector:
        cands += _residual_spans(text, toks) + _speaker_name_spans(text, label_matches)
        cands += [(s, e, "[NAME]", "name", "rule") for s, e in bracket_name_spans(text)]  # "[maria] hi"
    labels = _label_spans(text, label_matches)
    if labels:  # speaker labels are never changed (sorted, apart: the label that starts last before a span's end)
        label_starts = [s for s, _ in labels]

        def in_label(c: tuple[int, int, str, str, str]) -> bool:
            i = bisect.bisect_left(label_starts, c[1]) - 1
            return i >= 0 and c[0] < labels[i][1]

        cands = [c for c in cands if not in_label(c)]
    # Longest first at each position, no overlaps; names next to each other ("natalie white") become one [NAME].
    cands.sort(key=lambda c: (c[0], -(c[1] - c[0]), _SOURCE_RANK.get(c[4], 9)))
    chosen: list[tuple[int, int, str, str, str]] = []
    last_end = -1
    for c in cands:
        if c[0] < last_end:
            continue
        prev = chosen[-1] if chosen else None
        if prev and prev[3] == c[3] == "name" and re.fullmatch(r"[ \t]+", text[prev[1]:c[0]]):
            chosen[-1] = (prev[0], c[1], "[NAME]", "name", prev[4])
        else:
            chosen.append(c)
        last_end = c[1]
    return chosen


def deidentify_names(text: str, names: Sequence[str] = ()) -> tuple[str, dict[tuple[str, str], int]]:
    """Names only (listed ``names`` and the detector) -> ``[NAME]``; nothing else changes. For texts that
    were de-identified and then changed (a counterfactual turn or an augmentation added): returns the text and
    the replacements by ``(kind, source)``."""
    out, rep = deidentify_text(text, names=names, gender=False, ages=False, life_stage=False, origin=False)
    return out, removal_counts(rep.removed)


@lru_cache(maxsize=100_000)  # a word's verdict, once a process (the word lists do not change)
def _known_word(word: str) -> str:
    """The word's clinical category (``drug`` also when written wrong: "Asprin"), ``common``, or "" (no list's)."""
    from .name_writing import misspelt_drug
    from .vocab import clinical_category, is_common

    cat = clinical_category(word)
    if cat:
        return cat
    return "common" if is_common(k := re.sub(r"['’]s$", "", word).lower()) else "drug" if misspelt_drug(k) else ""


def _remaining(text: str) -> list[dict[str, Any]]:
    rem: list[dict[str, Any]] = []
    from .name_detect import after, clinical_word_after, no_person_at

    # the case-insensitive patterns read one lower-case copy case-sensitively (the same matches; issue 50, Build 3)
    view = lower_view(text)
    on, age_question, address = (text, _AGE_QUESTION, ADDRESS_RESIDUAL) if view is None else (
        view, _AGE_QUESTION_LOWER, ADDRESS_RESIDUAL_LOWER)

    for s, e, w in _capitalised_inside(text):
        # ``known``: the vocabulary that explains the word (such items are listed but not counted as identifiers);
        # ``eponym``: a disease, sign, test or product form follows ("Addison's disease"); ``context``: the words
        # around it make it no person (a town, a facility, a product: "Cheyenne, Wyoming", "Tacoma General Hospital")
        rem.append({"start": s, "end": e, "text": w, "kind": "possible_name",
                    "known": _known_word(w) or _known_word(fold_word(w)) or ("eponym" if clinical_word_after(
                        after(text, e)) else "context" if no_person_at(text, s, e) else "")})
    for s, e in find_first_person_ages(text, view):
        rem.append({"start": s, "end": e, "text": text[s:e], "kind": "first_person_age"})
    for s, e in map(re.Match.span, age_question.finditer(on)):
        rem.append({"start": s, "end": e, "text": text[s:e], "kind": "age_question"})
    from .neutralize import find_gendered_terms

    for p, w in find_gendered_terms(text, view):
        rem.append({"start": p, "end": p + len(w), "text": w, "kind": "gendered_term"})
    for s, e in map(re.Match.span, address.finditer(on)):
        rem.append({"start": s, "end": e, "text": text[s:e], "kind": "gendered_term"})
    rem.sort(key=lambda r: r["start"])
    return rem


def residual_items(report: DeidReport) -> list[dict[str, Any]]:
    """What the residual check counts for a de-identified text: the :attr:`DeidReport.remaining` items and the
    possible names de-identification replaced (source ``residual``, ``"replaced": True``; positions on the original
    text). :func:`filter_residual_identifiers` excludes a dialog for either only when asked (``keep=False``)."""
    items = list(report.remaining)
    items += [{"start": r["start"], "end": r["end"], "text": r["old"], "kind": "possible_name", "known": "",
               "replaced": True} for r in report.removed if r.get("source") == "residual"]
    return sorted(items, key=lambda r: r["start"])


def find_residual_identifiers(text: str) -> list[dict[str, Any]]:
    """What still looks identifying in ``text`` (the :attr:`DeidReport.remaining` items of already
    de-identified text): ``{"start", "end", "text", "kind"}`` sorted by position."""
    return _remaining(text)


#: Case fields that hold identifiers the loaders found (``identifiers``: column -> value; ``names``: a list or a
#: ``;``/``,``/``|``-separated string). The note-generation audit drops them from the audited cases.
IDENTIFIER_FIELDS: tuple[str, ...] = ("identifiers", "names")


def known_names(case: Case) -> list[str]:
    """The names a case's data lists: ``fields["identifiers"]`` values and ``fields["names"]``."""
    known: list[str] = []
    ids = case.fields.get("identifiers")
    if isinstance(ids, dict):
        known += [str(v) for v in ids.values() if v is not None and str(v).strip()]
    elif isinstance(ids, list):
        known += [str(v) for v in ids if v is not None and str(v).strip()]
    extra = case.fields.get("names")
    if isinstance(extra, str):
        known += [n for n in re.split(r"[;,|]", extra) if n.strip()]
    elif isinstance(extra, list):
        known += [str(n) for n in extra]
    return known


def removal_counts(removed: Iterable[dict[str, Any]]) -> dict[tuple[str, str], int]:
    """Replacements by ``(kind, source)``."""
    out: dict[tuple[str, str], int] = {}
    for r in removed:
        key = (str(r["kind"]), str(r.get("source", "rule")))
        out[key] = out.get(key, 0) + 1
    return out


def deidentify_case_report(case: Case, *, seed: int = 0, names: Sequence[str] | None = None, gender: bool = True,
                           detector: bool = True) -> tuple[Variant, DeidReport]:
    """:func:`deidentify_case` and the full :class:`DeidReport` (with the original words; keep it out of files).

    The variant's provenance holds no original word: positions, kinds and sources of the replacements, and the
    remaining items with a possible name's letters masked (:func:`public_text`)."""
    known = list(names or []) + known_names(case)
    text, report = deidentify_text(case.text, names=known, gender=gender, detector=detector)
    kinds: dict[str, int] = {}
    for r in report.removed:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    sources = {f"{k}/{src}": n for (k, src), n in sorted(removal_counts(report.removed).items())}
    v = Variant(
        variant_id=Variant.make_id(case.case_id, "deidentification", "deidentify", seed),
        case_id=case.case_id,
        family="deidentification",
        name="deidentify",
        text=text,
        seed=seed,
        description="de-identified: " + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "nothing found"),
        provenance={"transform": "deidentify", "kind": "rule",
                    "removed": [{k: r[k] for k in ("start", "end", "new", "kind", "source")} for r in report.removed],
                    "remaining": [{**r, "text": public_text(r)} for r in report.remaining],
                    "counts": kinds, "sources": sources, "gender": gender},
        flags=["identifiers_remain"] if report.remaining else [],
    )
    return v, report


@register_transform("deidentify", "deidentification",
                    "names -> [NAME] (listed names, gazetteer detector, rules); ages, life-stage cues, "
                    "race/ethnicity/origin removed; gender neutralized (P1)")
def deidentify_case(case: Case, rng: Any = None, *, seed: int = 0, names: Sequence[str] | None = None,
                    gender: bool = True, **_: Any) -> list[Variant]:
    """Registered transform ``deidentify``; known names also come from ``case.fields["identifiers"]`` (the
    loaders' identifier columns) and ``case.fields["names"]``."""
    return [deidentify_case_report(case, seed=seed, names=names, gender=gender)[0]]


def filter_residual_identifiers(
    cases: Iterable[Case],
    remaining: dict[str, list[dict[str, Any]]] | None = None,
    *,
    kinds: Iterable[str] = DEFAULT_RESIDUAL_KINDS,
    allow: Iterable[str] = (),
    keep: bool = False,
    deidentified: bool = True,
) -> tuple[FilterResult, list[dict[str, Any]]]:
    """Split cases by what still looks identifying in them.

    ``remaining[case_id]``: the :attr:`DeidReport.remaining` items of a de-identified case (cases
    not in it are scanned with :func:`find_residual_identifiers`); :func:`residual_identifiers`
    selects those that count. Returns a :class:`FilterResult` (a removed case's reason names the
    terms; nothing is removed with ``keep=True``) and one row per counted item:
    ``{"case_id", "dataset", "kind", "text", "start", "action"}`` (action ``excluded``, ``kept``, or ``replaced``
    for a possible name de-identification replaced, :func:`residual_items`; a possible name's text masked by
    :func:`public_text`).
    """
    kinds, allow = list(kinds), list(allow)
    remaining = remaining or {}
    kept: list[Case] = []
    removed: list[tuple[Case, str]] = []
    rows: list[dict[str, Any]] = []
    action = "kept" if keep else "excluded"
    where = "after de-identification" if deidentified else "(de-identification off)"
    for c in cases:
        items = remaining[c.case_id] if c.case_id in remaining else find_residual_identifiers(c.text)
        found = residual_identifiers(items, kinds, allow)
        rows += [{"case_id": c.case_id, "dataset": c.dataset, "kind": r["kind"], "text": public_text(r),
                  "start": r["start"], "action": "replaced" if keep and r.get("replaced") else action} for r in found]
        if found and not keep:
            removed.append((c, f"identifiers remain {where}: {describe_residuals(found)}"))
        else:
            kept.append(c)
    return FilterResult(kept, removed), rows
