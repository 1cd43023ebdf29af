"""Ready-made probe tasks on CRAFT-MD vignettes (METHODS §4.5; issue 8 item 4).

CRAFT-MD vignettes carry a specialty ``category`` but no demographics, so:

* **tasks** — one-vs-rest specialty tasks for the ``top_k`` most frequent
  categories: the label of task ``specialty:<category>`` is 1 for vignettes of
  that category and 0 otherwise;
* **sex** — read from the text: the first sex-specific person noun in the
  first sentence (``A 22-year-old man ...``: man/woman, male/female, boy/girl,
  gentleman/lady, son/daughter, …); failing that, the majority of gendered
  pronouns in the whole vignette when it is at least 2:1; else unknown;
* **race** — read from the text: a race or ethnicity term directly describing
  a person (``white man``, ``African American G1P0 woman``, ``Hispanic
  girl``) or ``<person> of <term> descent``; mapped to White, Black,
  Hispanic, Asian or Other (:data:`RACE_TERMS`); else unknown. Colour words
  that describe findings (``white plaques``, ``black eschar``, ``white blood
  cells``) are not person descriptions and do not count.

Every extraction is reported: the value, the rule that produced it and the
matched words per vignette (``demographics``), and the counts per value
including unknown (``extraction``). Unknown values are missing (dropped from
that attribute's gaps, as P4 drops unknown ethnicity).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ...errors import InputError
from ...records import Case

__all__ = [
    "MALE_NOUNS",
    "FEMALE_NOUNS",
    "RACE_TERMS",
    "read_sex",
    "read_race",
    "CraftmdTasks",
    "craftmd_tasks",
]

#: Person nouns that give the patient's sex (lower case, matched on word boundaries).
MALE_NOUNS: tuple[str, ...] = ("man", "male", "boy", "gentleman", "son", "men", "males", "boys")
FEMALE_NOUNS: tuple[str, ...] = ("woman", "female", "girl", "lady", "daughter", "women", "females", "girls")
_MALE_PRONOUNS = ("he", "him", "his", "himself")
_FEMALE_PRONOUNS = ("she", "her", "hers", "herself")
# nouns a race term may describe (besides the sex nouns)
_PERSON_NOUNS = ("patient", "child", "infant", "newborn", "neonate", "adolescent", "teenager", "toddler", "adult",
                 "individual", "person", "student", "veteran")

#: (regex of the term, coarse value); the first matching term wins. Our reading of P4's MIMIC groups
#: (White, Black, Hispanic, Asian, Other); edit the list to change the mapping.
RACE_TERMS: list[tuple[str, str]] = [
    (r"african[- ]american|black", "Black"),
    (r"white|caucasian", "White"),
    (r"hispanic|latin[oax]|mexican(?:[- ]american)?|puerto[- ]rican", "Hispanic"),
    (r"asian(?:[- ]american)?|chinese|japanese|korean|vietnamese|filipin[oa]|south[- ]asian|east[- ]asian", "Asian"),
    (r"native[- ]american|american[- ]indian|alaska[- ]native|pacific[- ]islander|native[- ]hawaiian"
     r"|middle[- ]eastern|arab|ashkenazi(?:[- ]jewish)?|jewish", "Other"),
]

_RACE_ALT = "|".join(f"(?:{rx})" for rx, _ in RACE_TERMS)
_NOUN_ALT = "|".join(sorted(set(MALE_NOUNS + FEMALE_NOUNS + _PERSON_NOUNS), key=len, reverse=True))
# a race term, then up to two short tokens (e.g. "G1P0", "healthy"), then a person noun
_RACE_BEFORE_NOUN = re.compile(
    rf"\b(?P<term>{_RACE_ALT})\b,?\s+(?:[A-Za-z0-9-]+,?\s+){{0,2}}?(?P<noun>{_NOUN_ALT})\b", re.IGNORECASE)
# "<person noun> of <term> descent|ancestry|origin|heritage"
_RACE_DESCENT = re.compile(
    rf"\b(?P<noun>{_NOUN_ALT})\s+of\s+(?P<term>{_RACE_ALT})\s+(?:descent|ancestry|origin|heritage)\b",
    re.IGNORECASE)
_SEX_NOUN = re.compile(rf"\b(?P<noun>{'|'.join(MALE_NOUNS + FEMALE_NOUNS)})\b", re.IGNORECASE)
_PRONOUN = re.compile(rf"\b({'|'.join(_MALE_PRONOUNS + _FEMALE_PRONOUNS)})\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)\]])[.!?](?=\s+[A-Z]|\s*$)")


def _first_sentence(text: str) -> str:
    m = _SENTENCE_END.search(text)
    return text[: m.end()] if m else text


def read_sex(text: str) -> tuple[str | None, str, str]:
    """The patient's sex from a vignette → ``(value, rule, evidence)``.

    ``value`` is ``"male"``, ``"female"`` or None; ``rule`` is ``"first
    sentence noun"``, ``"pronoun majority"`` or ``"unknown"``; ``evidence``
    the matched words.
    """
    m = _SEX_NOUN.search(_first_sentence(text))
    if m:
        noun = m.group("noun").lower()
        return ("male" if noun in MALE_NOUNS else "female"), "first sentence noun", m.group("noun")
    counts = Counter("male" if w.lower() in _MALE_PRONOUNS else "female" for w in _PRONOUN.findall(text))
    male, female = counts.get("male", 0), counts.get("female", 0)
    if max(male, female) >= 1 and max(male, female) >= 2 * min(male, female) and male != female:
        value = "male" if male > female else "female"
        return value, "pronoun majority", f"he/him/his: {male}, she/her/hers: {female}"
    return None, "unknown", f"he/him/his: {male}, she/her/hers: {female}" if (male or female) else ""


def _race_value(term: str) -> str:
    for rx, value in RACE_TERMS:
        if re.fullmatch(rx, term, flags=re.IGNORECASE):
            return value
    return "Other"  # pragma: no cover  (every alternative is in RACE_TERMS)


def read_race(text: str) -> tuple[str | None, str]:
    """The patient's race/ethnicity from a vignette → ``(coarse value or None, evidence)``.

    The earliest person description in the text wins (``51-year-old white
    man`` → White; ``woman of Middle Eastern descent`` → Other).
    """
    hits = [m for rx in (_RACE_BEFORE_NOUN, _RACE_DESCENT) if (m := rx.search(text))]
    if not hits:
        return None, ""
    m = min(hits, key=lambda x: x.start())
    return _race_value(m.group("term")), m.group(0)


@dataclass
class CraftmdTasks:
    """Cases with task labels and demographics added to their fields, and the extraction report."""

    cases: list[Case]
    tasks: list[str]
    extraction: pd.DataFrame
    demographics: pd.DataFrame


def craftmd_tasks(cases: Sequence[Case], top_k: int = 3, category_field: str = "category") -> CraftmdTasks:
    """Build one-vs-rest specialty tasks and read sex and race from CRAFT-MD vignettes.

    Returns copies of the cases with fields ``specialty:<category>`` (0/1 per
    task), ``sex``, ``race`` (None when unknown), ``sex_rule``; the task
    names (most frequent categories first, ties by name); ``extraction``
    (attribute, value, count, percent — unknown included — and the sex rules)
    and ``demographics`` (per case: value, rule and evidence).
    """
    if top_k < 1:
        raise ValueError("top_k must be >= 1")
    cats: list[str] = []
    for c in cases:
        v = c.fields.get(category_field)
        if v is None or not str(v).strip():
            raise InputError(f"case {c.case_id} has no '{category_field}' (needed for the specialty tasks)",
                             file=c.source or None, row=c.source_row, field=category_field)
        cats.append(str(v).strip())
    freq = Counter(cats)
    top = [k for k, _ in sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:top_k]]
    tasks = [f"specialty:{k}" for k in top]
    out: list[Case] = []
    demo_rows = []
    for c, cat in zip(cases, cats):
        sex, rule, sev = read_sex(c.text)
        race, rev = read_race(c.text)
        fields = dict(c.fields)
        for k, t in zip(top, tasks):
            fields[t] = int(cat == k)
        fields.update({"sex": sex, "race": race, "sex_rule": rule})
        out.append(c.model_copy(update={"fields": fields}))
        demo_rows.append({"case_id": c.case_id, "category": cat, "sex": sex or "unknown", "sex_rule": rule,
                          "sex_evidence": sev, "race": race or "unknown", "race_evidence": rev})
    demographics = pd.DataFrame(demo_rows, columns=["case_id", "category", "sex", "sex_rule", "sex_evidence", "race",
                                                    "race_evidence"])
    n = len(out)
    rows = []
    for attr in ("sex", "race", "sex_rule"):
        for value, count in demographics[attr].value_counts(sort=True).items():
            rows.append({"attribute": attr, "value": value, "count": int(count),
                         "percent": 100.0 * count / n if n else float("nan"), "n": n})
    for k, t in zip(top, tasks):
        rows.append({"attribute": "task", "value": t, "count": int(freq[k]), "percent": 100.0 * freq[k] / n, "n": n})
    extraction = pd.DataFrame(rows, columns=["attribute", "value", "count", "percent", "n"])
    return CraftmdTasks(cases=out, tasks=tasks, extraction=extraction, demographics=demographics)
