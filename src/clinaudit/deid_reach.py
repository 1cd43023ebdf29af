"""How far a run's de-identification reaches (issue 50): what every run states of it, first, in plain words.

Every audit de-identifies its case texts before the audited model sees them (:mod:`clinaudit.pipeline.identifiers`;
note generation on its own). How many names that removes was measured on the project's held-out benchmark
(``benchmarks/bench_deid_origin.py``, 46 name origins, cased and lower-case dialogs), and it differs by style:
lower-case transcripts (ACI-Bench style, most speech transcripts) lose more names than cased text, and some origins
more than others. A run says so:

* **the measurement** ships with the package, ``clinaudit/data/deid_reach.json`` (:func:`measurement`), written by
  ``bench_deid_origin.py --write-reach PATH`` from a run's held-out table: per style the names put in and removed,
  the overall and per-origin removal, the lowest origins (:func:`lowest_origins`: those below
  :data:`TARGET_PCT`, else the lowest one), the spread, the code revision and the date;
* **per run** (:func:`reach_counts`, when the cases are loaded): how many cases, how many of them lower-case
  (:func:`text_style`), how many were de-identified and by what (:data:`MODES`); counts only, never words. The
  driver writes them to the run summary (``deid_reach``) and ``tables/deid_reach.csv`` (:func:`reach_table`);
* **the report** says :func:`reach_sentences` once per run, right above the verdicts table (the first screen; a
  report of several runs says each distinct statement once, naming its runs), and so do ``report.md`` and ``findings.json`` (each run's ``deid_reach``);
  the Python API reads them with ``clinaudit.api.deid_reach(run)`` (:func:`run_reach`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

import pandas as pd

__all__ = ["SCHEMA", "TARGET_PCT", "MODES", "STYLES", "text_style", "measurement", "check_measurement",
           "lowest_origins", "reach_counts", "reach_table", "reach_sentences", "run_sentences", "run_counts", "run_reach", "warns",
           "TABLE"]

SCHEMA = "clinaudit.deid_reach/1"
#: issue 50's acceptance: every origin at or above this share of names removed
TARGET_PCT = 95.0
STYLES = ("lower", "cased")
TABLE = "deid_reach"
#: how a run de-identified its cases: ``names`` every name found (the names the data lists, the detector, the
#: naming rules); ``listed`` only the names the data lists (``deid.names: false``); ``none`` nothing (note
#: generation with ``params.deidentify: false``)
MODES = ("names", "listed", "none")

#: a speaker label at a line's start ("[doctor]", "Doctor:", "Guest_family:", "Patient 2:"), not a word of the text
_LABEL = re.compile(r"(?m)^[ \t]*(?:\[[^\]\n]{1,40}\]|[A-Za-z][A-Za-z_ \-]{0,30}?\d*[ \t]*:)")
#: a word of a text (letters, with marks): what :func:`text_style` counts
_WORD = re.compile(r"[^\W\d_]+")
#: a lower-case transcript may have fewer than one word in this many with a capital letter (a stray name)
STRAY_CAPITALS = 100
#: a placeholder an earlier de-identification left ("[NAME]"), not a word of the text
_PLACEHOLDER = re.compile(r"\[[A-Z_]{2,20}\]")


def text_style(text: str) -> str:
    """``"lower"`` for a transcript-style text — at least one lower-case letter, and fewer than 1 in
    :data:`STRAY_CAPITALS` of its words with a capital letter once the speaker labels at the lines' starts and
    placeholders such as ``[NAME]`` are set aside (a lower-case transcript with one stray capitalised word, "Julie"
    once in ACI-Bench's D2N114 of 1,254 words, is still a lower-case transcript) — else ``"cased"``: a text of mixed
    style ("i saw Dr. smith") counts as cased, and so does a text with no lower-case letter."""
    body = _PLACEHOLDER.sub(" ", _LABEL.sub(" ", text or ""))
    if not any(ch.islower() for ch in body):
        return "cased"
    words = _WORD.findall(body)
    capitals = sum(1 for w in words if not w.islower())
    return "lower" if capitals * STRAY_CAPITALS < len(words) else "cased"


def _pct(names: int, removed: int) -> float:
    return round(100.0 * removed / names, 1) if names else 0.0


def check_measurement(doc: Any) -> dict[str, Any]:
    """``doc`` if it is a well-formed measurement (the schema of :func:`measurement`), else a ValueError naming
    what is wrong: every style's counts agree with its origins' and its percentages with its counts."""
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise ValueError(f"not a de-identification reach measurement (schema {SCHEMA!r})")
    for key in ("benchmark", "revision", "date", "origins", "target_pct", "styles"):
        if key not in doc:
            raise ValueError(f"the measurement has no {key!r}")
    for style in STYLES:
        s = doc["styles"].get(style)
        if not isinstance(s, dict):
            raise ValueError(f"the measurement has no style {style!r}")
        by = s.get("by_origin") or {}
        if len(by) != doc["origins"]:
            raise ValueError(f"{style}: {len(by)} origins, the measurement says {doc['origins']}")
        for o, c in by.items():
            if not 0 <= c["removed"] <= c["names"] or c["removed_pct"] != _pct(c["names"], c["removed"]):
                raise ValueError(f"{style}, {o}: removed_pct does not match its counts")
        if s["names"] != sum(c["names"] for c in by.values()) or s["removed"] != sum(c["removed"] for c in by.values()):
            raise ValueError(f"{style}: the totals are not the sum of the origins")
        if s["removed_pct"] != _pct(s["names"], s["removed"]):
            raise ValueError(f"{style}: removed_pct does not match its counts")
        if s["lowest"] != lowest_origins(by, doc["target_pct"]):
            raise ValueError(f"{style}: lowest is not the origins below the target (else the lowest one)")
        vals = [c["removed_pct"] for c in by.values()]
        if s["highest_pct"] != max(vals) or s["spread_pp"] != round(max(vals) - min(vals), 1):
            raise ValueError(f"{style}: highest_pct or spread_pp does not match the origins")
    return doc


def lowest_origins(by_origin: Mapping[str, Mapping[str, Any]], target: float = TARGET_PCT) -> list[dict[str, Any]]:
    """The origins whose removal is below ``target``, lowest first (ties in the table's order); when none is, the
    lowest one: ``[{"origin", "removed_pct"}]``."""
    order = sorted(by_origin, key=lambda o: by_origin[o]["removed"] / max(1, by_origin[o]["names"]))
    below = [o for o in order if by_origin[o]["removed_pct"] < target]
    return [{"origin": o, "removed_pct": by_origin[o]["removed_pct"]} for o in (below or order[:1])]


@lru_cache(maxsize=1)
def _packaged() -> str:
    from importlib.resources import files

    return (files("clinaudit.data") / "deid_reach.json").read_text(encoding="utf-8")


def measurement() -> dict[str, Any]:
    """The packaged held-out measurement (``clinaudit/data/deid_reach.json``), checked."""
    return check_measurement(json.loads(_packaged()))


def reach_counts(texts: Iterable[str], mode: str, listed: int) -> dict[str, Any]:
    """One run's counts: ``cases``, ``lower`` and ``cased`` (:func:`text_style` of each case text as loaded),
    ``mode`` (:data:`MODES`) and ``deidentified`` (cases de-identified: every case for ``names``, the ``listed``
    cases that list a name for ``listed``, none for ``none``). Counts only, never words."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r}: expected one of {MODES}")
    styles = [text_style(t) for t in texts]
    n, lower = len(styles), styles.count("lower")
    return {"cases": n, "lower": lower, "cased": n - lower, "mode": mode,
            "deidentified": n if mode == "names" else listed if mode == "listed" else 0}


def _lowest_text(style: Mapping[str, Any]) -> str:
    return ", ".join(f"{x['origin']} {x['removed_pct']:.1f} %" for x in style["lowest"])


def reach_table(counts: Mapping[str, Any], measured: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """``tables/deid_reach.csv``: one row per style (lower, cased) with the run's cases, how the run
    de-identified them, and the held-out measurement of that style (overall removal, names, lowest origins)."""
    m = measured if measured is not None else measurement()
    rows = []
    for style in STYLES:
        s = m["styles"][style]
        rows.append({"style": style, "cases": int(counts[style]), "deid": counts["mode"],
                     "cases_deidentified": int(counts["deidentified"]), "removed_pct_measured": s["removed_pct"],
                     "names_measured": s["names"], "lowest_origins": _lowest_text(s),
                     "measured_at": f"{m['revision']}, {m['date']}"})
    return pd.DataFrame(rows)


def reach_sentences(counts: Mapping[str, Any] | None, measured: Mapping[str, Any] | None = None) -> list[str]:
    """What the report says first of a run's de-identification, in plain words: with ``deid.names`` off (or no
    de-identification) that names in the text were sent as written; else the lower-case cases and the held-out
    removal of lower-case text, its lowest origins, and that names it misses reach the audited model; the cased
    ones in one short line. None when the run loaded no cases (no case text of the data was sent)."""
    if not counts or not counts.get("cases"):
        return []
    n, lower, mode = int(counts["cases"]), int(counts.get("lower", 0)), str(counts.get("mode", "names"))
    if mode == "listed":
        return ["Only listed names were removed (deid.names is off): names in the text were sent as written. "
                f"{int(counts.get('deidentified', 0))} of {n} cases list a name."]
    if mode == "none":
        return ["No name was removed (params.deidentify is off): names in the text were sent as written."]
    m = measured if measured is not None else measurement()
    where = f"On the project's held-out benchmark ({m['origins']} origins, {m['date']})"
    low, cased = m["styles"]["lower"], m["styles"]["cased"]
    if not lower:
        return [f"{'The case is' if n == 1 else f'All {n} cases are'} cased text. {where}, de-identification removes "
                f"{cased['removed_pct']:.1f} % of names in cased text (lowest: {_lowest_text(cased)})."]
    first = f"{lower} of {n} cases are lower-case transcripts" if lower < n else \
        f"All {n} cases are lower-case transcripts" if n > 1 else "The case is a lower-case transcript"
    out = [f"{first}. {where}, de-identification removes {low['removed_pct']:.1f} % of names in lower-case text; "
           f"lowest: {_lowest_text(low)}. Names it misses reach the audited model."]
    if lower < n:
        out.append(f"The other {n - lower} {'case is' if n - lower == 1 else 'cases are'} cased: "
                   f"{cased['removed_pct']:.1f} % of names removed there (lowest: {_lowest_text(cased)}).")
    return out


#: the endings of :func:`reach_sentences`' sentences that say names may have reached the audited model
SENT_OUT = ("Names it misses reach the audited model.", "names in the text were sent as written.")


def warns(sentence: str) -> bool:
    """Whether a sentence of :func:`reach_sentences` says names may have reached the model (the report shows it as a
    warning; the cased line, which says how much was removed, is not one)."""
    return any(end in sentence for end in SENT_OUT)


def run_counts(run_dir: Any) -> dict[str, Any] | None:
    """A run directory's counts (:func:`reach_counts`) from its manifest summary's ``deid_reach``: None for a run
    that loaded no cases, or one made before they were recorded."""
    from .rundir import summary_item

    return summary_item(run_dir, "deid_reach")


def run_sentences(run_dir: Any) -> list[str]:
    """:func:`reach_sentences` of a run directory (:func:`run_counts`; none without counts)."""
    return reach_sentences(run_counts(run_dir))


def run_reach(run_dir: Any) -> dict[str, Any]:
    """What a run says of its de-identification, for the Python API: ``counts`` (:func:`run_counts`, or None),
    ``sentences`` (:func:`reach_sentences`, what the report says above its verdicts) and ``warn`` (:func:`warns` of
    each sentence)."""
    counts = run_counts(run_dir)
    sentences = reach_sentences(counts)
    return {"counts": counts, "sentences": sentences, "warn": [warns(x) for x in sentences]}
