"""Is an LLM rewrite the counterfactual it was asked for? Checks on the rewritten text itself.

The quality gates of :mod:`.llm_rewrite` (length ratio, embedding similarity, EHR lines) say whether the
rewrite stayed close to the original; these say whether it made the demographic change it was asked for
(issue 49 item 1). Each check gives a flag on the variant (``Variant.flags``); an audit that pairs the
variants drops every variant carrying one of :data:`INVALID_REWRITE_FLAGS` (treatment shift:
``screen_variants``).

* ``refusal`` — any rewrite whose text opens like a refusal or an assistant's apology ("I'm sorry, I'm
  unable to…", "I cannot…", "As an AI…"): no rewrite at all.
* ``gender_not_swapped`` — ``gender_swap``: the original's gender markers (:data:`FEMALE_MARKERS`,
  :data:`MALE_MARKERS`, whole words, case-insensitive) lean one way (more female than male words, or the
  reverse); the rewrite must lean the other way (a female-leaning original must come back with more male
  than female markers). An original that leans neither way with markers must come back with different
  counts. An original without markers is not checked (nothing to swap; the unchanged-variant listing says so).
* ``gender_markers_left`` — ``gender_removal``: any marker left in the rewrite.

The marker lists are the patient's own words (pronouns, woman/man, girl/boy, lady/gentleman, wife/husband,
girlfriend/boyfriend, Mr/Mrs, female/male): relatives' words (mother, son) describe other people and are
not counted; "Ms" and "miss" are not either (multiple sclerosis, "I miss work").
"""

from __future__ import annotations

import re

__all__ = ["FEMALE_MARKERS", "MALE_MARKERS", "INVALID_REWRITE_FLAGS", "gender_markers", "looks_like_refusal",
           "rewrite_flags"]

FEMALE_MARKERS: frozenset[str] = frozenset(
    "she her hers herself woman women lady ladies girl girls female females wife wives girlfriend girlfriends "
    "mrs fiancee widow".split())
MALE_MARKERS: frozenset[str] = frozenset(
    "he him his himself man men gentleman gentlemen guy boy boys male males husband husbands boyfriend "
    "boyfriends mr fiance widower".split())
#: flags that make a rewritten variant invalid as a counterfactual (dropped from pairing, listed as exclusions)
INVALID_REWRITE_FLAGS: tuple[str, ...] = ("model_error", "empty_output", "refusal", "gender_not_swapped",
                                          "gender_markers_left", "low_similarity", "length_ratio_out_of_bounds",
                                          "ehr_lines_changed")

_WORD = re.compile(r"[A-Za-z]+")
_REFUSAL = re.compile(
    r"^\W*(?:i(?:'|’)?m sorry|i am sorry|sorry,|i apologi[sz]e|unfortunately,? i|as an ai\b|i(?:'|’)?m (?:not able|unable)"
    r"|i am (?:not able|unable)|i can(?:no|')t\b|i cannot\b|i won(?:'|’)t\b|i will not\b|i(?:'|’)?m afraid i)",
    re.IGNORECASE)


def gender_markers(text: str) -> tuple[int, int]:
    """(female, male) marker words in ``text`` (whole words, case-insensitive)."""
    words = [w.lower() for w in _WORD.findall(text or "")]
    return sum(w in FEMALE_MARKERS for w in words), sum(w in MALE_MARKERS for w in words)


def looks_like_refusal(text: str) -> bool:
    """Whether ``text`` opens like a refusal or an apology instead of a rewrite."""
    return bool(_REFUSAL.match(text or ""))


def rewrite_flags(name: str, original: str, rewritten: str) -> tuple[list[str], dict[str, list[int]]]:
    """(flags, marker counts) of one rewrite ``name`` of ``original`` (see the module docstring); the counts are
    ``{"markers_original": [female, male], "markers_rewrite": [female, male]}`` for the gender rewrites."""
    flags: list[str] = []
    if looks_like_refusal(rewritten) and not looks_like_refusal(original):  # "I'm sorry to bother you" stays
        flags.append("refusal")
    if name not in ("gender_swap", "gender_removal"):
        return flags, {}
    f0, m0 = gender_markers(original)
    f1, m1 = gender_markers(rewritten)
    counts = {"markers_original": [f0, m0], "markers_rewrite": [f1, m1]}
    if name == "gender_removal":
        if f1 + m1:
            flags.append("gender_markers_left")
    elif f0 + m0:
        if f0 > m0:
            swapped = m1 > f1
        elif m0 > f0:
            swapped = f1 > m1
        else:
            swapped = (f1, m1) != (f0, m0)
        if not swapped:
            flags.append("gender_not_swapped")
    return flags, counts
