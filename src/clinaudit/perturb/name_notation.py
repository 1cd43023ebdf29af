"""Words written as clinical notation, never a person's name (issue 50, twentieth session: the vignettes).

Issue 50 (Build 4) de-identifies every case an audit sends to a model, the multiple-choice vignettes and patient
messages of the treatment-shift and CARE audits included. On CRAFT-MD's vignettes and MedPerturb's messages the
detector took notation it had never met in the dialogs it was written on for names in no list: units and lab names
written with a Greek letter ("28 μg/dL", "β-hCG", "NF-κB"), hyphenated notation ("T-wave", "D-dimer", "ST-segment",
"Rh-negative", "Gram-positive") and an abbreviation defined in brackets ("(PLEVA)"). :func:`notation_span` says a span
the detector or a rule found is such notation; :func:`.name_detect.find_names` and the residual check
(:func:`.deid._residual_spans`) drop it. A name of the lists written in Greek letters only ("Γιώργος") stays a name:
only Greek letters beside Latin letters, digits or a hyphen are notation.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .name_word import word_facts
from .vocab import clinical_acronym

__all__ = ["notation", "notation_span"]

#: Greek letters (and the micro sign, Latin small gamma) as units and lab names write them: "μg", "β-hCG", "ɣ-GT"
_GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff\u00b5\u0263]")
_LATIN_OR_DIGIT = re.compile(r"[A-Za-z0-9\-]")
_DASHES = re.compile(r"[\-\u2010\u2011\u2013]")
#: prefixes written before a hyphen ("anti-CCP", "non-smoker", "post-op")
_PREFIXES = frozenset("anti non pre post semi multi sub super inter intra trans extra hyper hypo micro macro mid "
                      "self co re".split())
#: an abbreviation defined in brackets right after the words it stands for: "(PLEVA)", "(AELE)", "(GGT)"
_DEFINED = re.compile(r"\([A-Z][A-Z0-9\-]{1,7}\)")
#: an ion's charge after its symbol before a value: "Cl-: 101", "HCO3- 24"
_ION = re.compile(r"[A-Z][a-z]?[0-9]?[\-+]")


def _abbreviation(part: str) -> bool:
    """Two capitals or more, or letters and a digit: "ST", "CCP", "HbA1c"."""
    return sum(map(str.isupper, part)) >= 2 or (any(c.isdigit() for c in part) and any(c.isalpha() for c in part))


def _plain_word(part: str, least: int) -> bool:
    """A common or clinical word of ``least`` letters or more that no name list holds."""
    if len(part) < least or not part.isalpha():
        return False
    w = word_facts(part.lower())
    return (w.common or w.clinical is not None) and not w.gazetteer


@lru_cache(maxsize=50_000)
def notation(word: str) -> bool:
    """``word`` is written as notation, not as a name: a Greek letter beside Latin letters, digits or a hyphen ("μg",
    "β-hCG", "Aβ"); a word starting with "ß" written for beta ("ß-hCG"); or a hyphenated word whose first part is a
    letter, an abbreviation or a prefix and whose last part a word no name list holds ("T-wave", "D-dimer",
    "ST-segment", "anti-CCP", "Rh-negative"), or whose two parts are both such words of four letters or more
    ("non-smoker"). Not "Ji-ho", "Ga-on", "So-young", "Sae-rom", "Al-Farsi", "Lily-Rose": a part of two letters needs
    a word of four letters or more after it that no name list holds; nor a hyphenated word all in capitals
    ("MI-RAE")."""
    if _GREEK.search(word):
        return bool(_LATIN_OR_DIGIT.search(word))
    if word.startswith("ß"):
        return True
    parts = _DASHES.split(word)
    if len(parts) != 2 or not all(parts) or word.isupper():
        return False  # a name written in capitals ("MI-RAE", "OFORI-ATTA") has parts that read as abbreviations
    first, last = parts
    if _abbreviation(first) or first.lower() in _PREFIXES:
        return _abbreviation(last) or _plain_word(last, 3)
    if len(first) == 1 and first.isalpha():
        return _plain_word(last, 3)
    if len(first) == 2 and first.isalpha():
        return _plain_word(last, 4)
    return _plain_word(first, 4) and _plain_word(last, 4)  # not "Sae-rom": Korean syllables are short words


def notation_span(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is notation (:func:`notation`), an ion's symbol and charge ("Cl-"), a clinical acronym
    of three letters in capitals that is no given name ("EHR"), or an abbreviation in capitals defined in brackets
    ("... varioliformis acuta (PLEVA)")."""
    word = text[start:end]
    if notation(word) or _ION.fullmatch(word):
        return True
    if len(word) == 3 and word.isupper() and clinical_acronym(word) and not word_facts(word.lower()).first:
        return True
    m = _DEFINED.match(text, start - 1) if start > 0 else None
    return m is not None and m.end() == end + 1
