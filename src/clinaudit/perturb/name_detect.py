"""Finding people's names in dialogs, lower-case speech included (de-identification, :mod:`.deid`).

Three sources, each span tagged with the one that found it (the de-identification table counts
them per source):

* ``metadata`` — names the data lists (ACI-Bench's ``patient_firstname`` / ``patient_familyname``
  / ``doctor_name``, a CSV's ``identifiers:`` columns): every occurrence, case-insensitive, whole
  words, in any form the transcript uses — possessive ("roy's"), the parts of a multi-part name
  alone or joined by spaces, hyphens, apostrophes or dots ("o brien" for "O'Brien"), and spelling
  variants that differ by doubled letters or a plural "s" ("philip" for "Phillip", "hill" for
  "Hills");
* ``detector`` — a word of the name gazetteer (:func:`.vocab.first_names`, :func:`.vocab.surnames`)
  that is not a common English or medical word (:func:`.vocab.common_words`) and not in the
  clinical vocabulary (:func:`.vocab.clinical_category`: drugs, conditions, specialties,
  facilities' words, places), nor right before a facility's generic word ("the Mercy clinic");
  a capitalised word inside a sentence counts when it is in the
  gazetteer even if it is also a common word ("... said Hope"); an eponym before "disease",
  "syndrome", "palsy", ... is never a name;
* ``rule`` — a gazetteer word that is also a common word ("will", "mark", "white") counts in a
  naming context: after a title (mr, mrs, ms, miss, dr, doctor), a greeting or thanks ("hi",
  "morning", "thank you", "bye"), or "my name is" / "this is" / "call me".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["NameSpan", "find_names", "known_name_spans", "name_variants_key", "detector_candidates"]

#: Span sources, in the order the de-identification table lists them.
SOURCES = ("metadata", "detector", "rule")


@dataclass(frozen=True)
class NameSpan:
    start: int
    end: int
    source: str  # metadata | detector | rule


_TOKEN = re.compile(r"(?<![\w\[])[A-Za-z]+(?:['’][A-Za-z]+)*(?![\w\]])")
_EPONYM_AFTER = re.compile(
    r"(?i)^(?:['’]s)?\s+(?:disease|syndrome|palsy|phenomenon|sign|test|maneuver|manoeuvre|fracture|ulcer|tumou?r|"
    r"lymphoma|sarcoma|dystrophy|ataxia|chorea|thyroiditis|esophagus|oesophagus|cyst|node|criteria|score|scale|"
    r"procedure|operation|reflex|law|equation|formula|classification|neuroma|neuralgia|contracture|deformity)\b")
_CONTEXT_BEFORE = re.compile(
    r"(?i)(?:\b(?:mr|mrs|ms|miss|mister|missus|dr|doctor|prof|professor)\.?|\b(?:hi|hello|hey|morning|afternoon|"
    r"evening|night|thanks|thank you|bye|goodbye|welcome|meet|dear)\s*,?|\bmy name is|\bname's|\bthis is|"
    r"\bcall me)\s+$")
_TITLE_BEFORE = re.compile(r"(?i)\b(?:mr|mrs|ms|miss|mister|missus|dr|doctor|prof|professor)\.?\s+$")
# words that are never names where a naming context would otherwise make them one ("doctor will see you");
# "dragon" and "dax" are the dictation assistants ACI-Bench's doctors address ("hey dragon, finalize the note")
_FUNCTION_WORDS = frozenset("""
    will may can could would should shall might must is are was were be been being am do does did have has had
    said says say told tell and or but so the a an this that these those there here now then today tonight
    just also again still very really well good great fine okay ok alright sure yes yeah no not all everyone
    everybody guys folks again back in on at for to of with from by up down out over about how what who when
    where why which nice glad sorry please doctor nurse patient sir ma'am maam madam dear i you he she we they
    it me him her us them my your his our their its one ready going coming feeling doing happy happening
    bye hi hello hey um uh hmm mhmm yep nope alright thanks mister missus miss sir madam maam
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday christmas easter thanksgiving
    doctor gave too pretty god gon dragon dax
    two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen
    eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
""".split())
# demographic words (the counterfactual values and race/origin descriptors): never names, even capitalised
_DEMOGRAPHIC = frozenset("""
    asian black white brown indigenous latino latina latinx hispanic native middle eastern multiracial
    biracial caucasian african american female male man woman men women gentleman lady boy girl
""".split())


def _norm(word: str) -> str:
    """Spelling-variant key: lower case, possessive and plural "s" dropped, doubled letters collapsed."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    return re.sub(r"(.)\1+", r"\1", w)


def name_variants_key(name: str) -> str:
    """The key :func:`known_name_spans` compares transcript words with (lower case, doubled letters collapsed)."""
    return _norm(name)


def known_name_spans(text: str, names: Iterable[str]) -> list[NameSpan]:
    """Every occurrence of the listed ``names`` in ``text`` (source ``metadata``)."""
    parts_of: list[list[str]] = []
    for n in names:
        parts = re.findall(r"[A-Za-z]+", str(n or ""))
        if parts:
            parts_of.append(parts)
    if not parts_of:
        return []
    spans: list[NameSpan] = []
    alts = sorted({r"[\s\-'’.]*".join(re.escape(p) for p in parts) for parts in parts_of}, key=len, reverse=True)
    for m in re.finditer(r"(?i)(?<![\w\[])(?:" + "|".join(alts) + r")(?![A-Za-z\]])", text):
        spans.append(NameSpan(m.start(), m.end(), "metadata"))
    keys = {_norm(p) for parts in parts_of for p in parts if len(p) >= 2}
    for m in _TOKEN.finditer(text):
        if _norm(m.group(0)) in keys:
            base = re.sub(r"['’]s$", "", m.group(0))  # "[NAME]'s"
            spans.append(NameSpan(m.start(), m.start() + len(base), "metadata"))
    return sorted(set(spans), key=lambda s: (s.start, s.end))


def _facility_after(after: str) -> bool:
    """A word right before a facility's generic word ("the Mercy clinic") names the facility, not a person."""
    from .vocab import FACILITY_WORDS

    m = re.match(r"\s+([A-Za-z]+)", after)
    return bool(m and m.group(1).lower() in FACILITY_WORDS)


def _sentence_start(text: str, pos: int) -> bool:
    before = text[:pos].rstrip(" \t\"'“(")
    return not before or before[-1] in ".!?:\n" or before.endswith("]")


def detector_candidates(text: str) -> Iterable[tuple[int, int, str, str]]:
    """``(start, end, word, reason)`` for every gazetteer word of ``text`` that the detector or a naming rule
    takes for a name (``reason``: ``detector`` or ``rule``)."""
    from .vocab import clinical_category, first_names, is_common, surnames

    firsts, lasts = first_names(), surnames()
    for m in _TOKEN.finditer(text):
        word = m.group(0)
        base = re.sub(r"['’]s$", "", word)
        low = base.lower()
        if len(low) < 2 or low == "name" or (low not in firsts and low not in lasts):
            continue
        end = m.start() + len(base)
        if low not in _FUNCTION_WORDS and _TITLE_BEFORE.search(text[max(0, m.start() - 12): m.start()]):
            yield m.start(), end, base, "rule"  # "doctor white", "mr. brown": a title makes any gazetteer word a name
            continue
        after = text[m.end() - (len(word) - len(base)):]
        if clinical_category(low) is not None or _EPONYM_AFTER.match(after) or _facility_after(after):
            continue
        if not is_common(low) and low not in _FUNCTION_WORDS and low not in _DEMOGRAPHIC:
            yield m.start(), end, base, "detector"
            continue
        if low in _FUNCTION_WORDS:
            continue
        if low in _DEMOGRAPHIC:  # "a white man" (after a title, "doctor white", it was a name above)
            continue
        capital_inside = base[0].isupper() and not base.isupper() and not _sentence_start(text, m.start())
        if capital_inside:
            yield m.start(), end, base, "detector"
        elif _CONTEXT_BEFORE.search(text[max(0, m.start() - 24): m.start()]):
            yield m.start(), end, base, "rule"


def find_names(text: str, names: Sequence[str] = (), *, detector: bool = True) -> list[NameSpan]:
    """Name spans of ``text``: the listed ``names`` (metadata) and, with ``detector=True``, the detector's and
    the naming rules' finds; overlapping spans are all returned (the caller keeps the longest)."""
    spans = known_name_spans(text, names)
    if detector:
        spans += [NameSpan(s, e, src) for s, e, _, src in detector_candidates(text)]
    return spans
