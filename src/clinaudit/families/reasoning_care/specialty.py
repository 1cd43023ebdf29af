"""Keyword specialty tagging of clinical cases (P3 §3.1).

P3 isolates five specialties by keyword matching: urology, cardiology, neurology,
orthopedics & rheumatology and oncology. The lexicon below is ours (the paper does
not publish its keywords); it is configurable. Each keyword is a case-insensitive
regular expression matched at a word start (``"cardi"`` matches "cardiac" and
"cardiomyopathy"). A case gets the specialty with the most keyword hits; ties go
to the specialty listed first; no hit gives ``"other"``.

>>> tag_specialty("Crushing chest pain radiating to the left arm; troponin is raised.")
'cardiology'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import SpecError

__all__ = [
    "OTHER",
    "DEFAULT_SPECIALTY_LEXICON",
    "SPECIALTY_LABELS",
    "SpecialtyTag",
    "SpecialtyTagger",
    "tag_specialty",
    "specialty_label",
]

OTHER = "other"

#: specialty -> keyword stems (regular expressions, matched case-insensitively at a word start).
DEFAULT_SPECIALTY_LEXICON: dict[str, tuple[str, ...]] = {
    "urology": (
        "urolog", "urinary", "urine", "urinat", "dysuria", "hematuria", "haematuria", "bladder", "ureter",
        "urethr", "nephrolith", "kidney stone", "renal colic", "cystitis", "pyelonephritis", "incontinence",
        "nocturia", "hydronephrosis", "flank pain",
    ),
    "cardiology": (
        "cardi", "chest pain", "angina", "myocardial", "coronary", "heart", "murmur", "palpitation",
        "arrhythmi", "atrial fibrillation", "tachycardi", "bradycardi", "troponin", "ecg", "ekg",
        "electrocardiogra", "hypertensi", "pericard", "endocarditis", "aortic", "mitral", "syncope",
    ),
    "neurology": (
        "neurolog", "seizure", "epilep", "stroke", "headache", "migraine", "numbness", "paresthesi",
        "neuropath", "tremor", "parkinson", "dementia", "aphasia", "ataxia", "multiple sclerosis",
        "cranial nerve", "meningitis", "hemipares", "vertigo", "confusion", "consciousness", "brain",
    ),
    "orthopedics_rheumatology": (
        "orthop", "rheumat", "fracture", "arthritis", "arthralgia", "joint", "gout", "lupus", "osteo",
        "back pain", "spine", "spinal", "tendon", "ligament", "sprain", "knee", "hip", "shoulder",
        "ankle", "wrist", "bone", "musculoskeletal", "myalgia", "ankylosing", "scoliosis",
    ),
    "oncology": (
        "oncolog", "cancer", "tumou?r", "malignan", "carcinoma", "neoplas", "metasta", "lymphoma",
        "leukemi", "leukaemi", "myeloma", "sarcoma", "melanoma", "chemotherap", "radiotherap", "biopsy",
        "mass",
    ),
}

#: Display names for reports (P3's spelling).
SPECIALTY_LABELS: dict[str, str] = {
    "urology": "Urology",
    "cardiology": "Cardiology",
    "neurology": "Neurology",
    "orthopedics_rheumatology": "Orthopedics & Rheumatology",
    "oncology": "Oncology",
    OTHER: "Other",
    "all": "All specialties",
}


def specialty_label(key: str) -> str:
    """Human-readable name of a specialty key (the key itself when unknown)."""
    return SPECIALTY_LABELS.get(key, key)


@dataclass(frozen=True)
class SpecialtyTag:
    """The specialty of one text and the keyword hits behind it."""

    specialty: str
    hits: dict[str, list[str]] = field(default_factory=dict)  # specialty -> matched words, in text order

    def counts(self) -> dict[str, int]:
        return {k: len(v) for k, v in self.hits.items() if v}


class SpecialtyTagger:
    """Compiled keyword lexicon. ``lexicon`` maps specialty -> keyword regexes (order = tie-break order)."""

    def __init__(self, lexicon: Mapping[str, Sequence[str]] | None = None, *, source: str = "params.specialties"):
        lex = DEFAULT_SPECIALTY_LEXICON if lexicon is None else lexicon
        if not isinstance(lex, Mapping) or not lex:
            raise SpecError(f"field '{source}': expected a non-empty mapping specialty -> list of keywords")
        self.lexicon: dict[str, tuple[str, ...]] = {}
        self._patterns: dict[str, re.Pattern[str]] = {}
        for name, words in lex.items():
            where = f"{source}.{name}"
            if not isinstance(name, str) or not name.strip() or name == OTHER:
                raise SpecError(f"field '{source}': invalid specialty name {name!r} ('{OTHER}' is reserved)")
            if isinstance(words, str) or not isinstance(words, Sequence) or not words:
                raise SpecError(f"field '{where}': expected a non-empty list of keywords")
            for i, w in enumerate(words):
                if not isinstance(w, str) or not w.strip():
                    raise SpecError(f"field '{where}[{i}]': expected a non-empty string")
                try:
                    re.compile(w)
                except re.error as exc:
                    raise SpecError(f"field '{where}[{i}]': not a valid regular expression: {exc}") from None
            self.lexicon[name] = tuple(words)
            self._patterns[name] = re.compile(r"(?i)\b(?:" + "|".join(f"(?:{w})" for w in words) + r")\w*")

    def tag(self, text: str, min_hits: int = 1) -> SpecialtyTag:
        """The specialty with the most keyword hits (first listed on ties), else ``"other"``.

        A specialty needs at least ``min_hits`` hits to be chosen (more hits = fewer
        incidental matches such as a single "mass" or "hip").
        """
        hits = {name: [m.group(0) for m in pat.finditer(text or "")] for name, pat in self._patterns.items()}
        best, best_n = OTHER, max(0, int(min_hits) - 1)
        for name, found in hits.items():
            if len(found) > best_n:
                best, best_n = name, len(found)
        return SpecialtyTag(best, {k: v for k, v in hits.items() if v})

    def describe(self) -> dict[str, Any]:
        return {"lexicon": {k: list(v) for k, v in self.lexicon.items()}}


def tag_specialty(text: str, lexicon: Mapping[str, Sequence[str]] | None = None, min_hits: int = 1) -> str:
    """Specialty key of ``text`` with the given (default: built-in) lexicon."""
    return SpecialtyTagger(lexicon).tag(text, min_hits).specialty
