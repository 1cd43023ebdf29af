"""De-identification by group: does the step that changes case text change some patients' more than others?

Every audit that reads case text de-identifies it before a model sees it (docs/deidentification.md). What it
replaces is no longer what the patient wrote: a word of a vignette read as a name ("28 [NAME]/dL" before the
twentieth session of issue 50), a patient's stated origin ("Ethnicity: White [NAME]"). A bias audit whose own
preprocessing changes, say, more female than male cases, or one arm of a patient's context and not the other,
measures the step as well as the model. For every run that de-identifies the cases it loaded, this module counts:

* **changed**: a case whose text or any field de-identification changed (:func:`changed_cases`);
* **by group**: per demographic attribute the run knows (:func:`clinaudit.exclusion_skew.case_attributes`: recorded
  sex / gender, race, age band, the spec's declared columns) the share of cases changed, tested as the exclusions
  are (:func:`clinaudit.exclusion_skew.exclusion_rates`: Fisher's exact test for two groups, Freeman–Halton for
  more, null "changed independently of the group", Holm over the attributes; arms of one context, a ``pair_id``,
  counted once) and written to ``tables/deid_changes.csv``;
* **arms**: for cases that are arms of one context (a ``pair_id`` field, as MedPerturb's baseline, gender-swapped,
  ... arms), the contexts whose arms got different numbers of replacements (:func:`arm_differences`): there the
  arms differ by more than their perturbation.

The run summary keeps the counts (``deid_changes``); the report states, above the table, an attribute whose share
differs (``p_holm < alpha``) and arms de-identified differently (:func:`change_sentences`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

__all__ = ["TABLE", "MASK", "changed_cases", "arm_differences", "change_rates", "change_summary",
           "change_sentences", "run_changes"]

TABLE = "deid_changes"
MASK = "[NAME]"


def _strings(v: Any) -> Iterable[str]:
    if isinstance(v, str):
        yield v
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from _strings(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from _strings(x)


def _masks(case: Any) -> int:
    return sum(s.count(MASK) for s in _strings([case.text, case.fields]))


def changed_cases(before: Sequence[Any], after: Sequence[Any]) -> dict[str, int]:
    """Per case changed by de-identification (``after[i]`` is ``before[i]`` de-identified), the ``[NAME]``s it
    added (0 when it only masked a listed value or removed a word)."""
    return {str(b.case_id): max(_masks(a) - _masks(b), 0) for b, a in zip(before, after, strict=True)
            if a.text != b.text or a.fields != b.fields}


def arm_differences(cases: Sequence[Any], changed: Mapping[str, int]) -> dict[str, Any]:
    """Contexts with two arms or more (a ``pair_id`` field) and those whose arms got different numbers of
    ``[NAME]`` replacements (``changed``: :func:`changed_cases` of ``cases``; a case it lacks got none):
    ``{"contexts": n, "differ": k, "examples": [up to 5 pair ids]}``."""
    per_unit: dict[str, list[int]] = defaultdict(list)
    for c in cases:
        unit = (c.fields or {}).get("pair_id")
        if unit not in (None, ""):
            per_unit[str(unit)].append(changed.get(str(c.case_id), 0))
    units = {u: n for u, n in per_unit.items() if len(n) >= 2}
    differ = [u for u, n in units.items() if len(set(n)) > 1]
    return {"contexts": len(units), "differ": len(differ), "examples": differ[:5]}


def change_rates(attributes: pd.DataFrame, changed: Iterable[str], *, alpha: float = 0.05,
                 seed: int = 0) -> pd.DataFrame:
    """Per attribute and group: cases, cases de-identification changed, the share, the test (as
    :func:`clinaudit.exclusion_skew.exclusion_rates`, its ``n_excluded`` named ``n_changed`` and ``skewed``
    ``differs``)."""
    from .exclusion_skew import exclusion_rates

    rates = exclusion_rates(attributes, set(changed), alpha=alpha, seed=seed)
    return rates.rename(columns={"n_excluded": "n_changed", "skewed": "differs"})


def change_summary(rates: pd.DataFrame, changed: Mapping[str, int], n_cases: int,
                   arms: Mapping[str, Any]) -> dict[str, Any]:
    """The run summary's ``deid_changes``: counts, the attributes whose share differs, the arms."""
    differs = rates[rates["differs"].astype(bool)] if len(rates) else rates
    by: dict[str, dict[str, Any]] = {}
    for attr in dict.fromkeys(differs["attribute"]) if len(differs) else []:
        rows = rates[(rates["attribute"] == attr) & (rates["group"] != "(not recorded)")]
        by[str(attr)] = {"rates": {str(g): float(r) for g, r in zip(rows["group"], rows["rate"], strict=True)},
                         "n": {str(g): int(n) for g, n in zip(rows["group"], rows["n_cases"], strict=True)},
                         "test": str(rows["test"].iloc[0]), "p_holm": float(rows["p_holm"].iloc[0])}
    return {"cases": int(n_cases), "changed": len(changed), "names_added": int(sum(changed.values())),
            "tested": sorted({str(a) for a in rates.loc[rates["p_holm"].notna(), "attribute"]}) if len(rates) else [],
            "differs": by, "arms": dict(arms)}


def change_sentences(summary: Mapping[str, Any] | None) -> list[str]:
    """What the report says of a run's ``deid_changes`` first: an attribute whose share differs, arms
    de-identified differently; nothing when neither."""
    if not summary:
        return []
    out = []
    for attr, d in (summary.get("differs") or {}).items():
        shares = " vs ".join(f"{g} {r:.0%} of {d['n'][g]}" for g, r in sorted(d["rates"].items(), key=lambda x: -x[1]))
        out.append(f"De-identification changed the text of some groups' cases more often ({attr}: {shares}; "
                   f"{d['test'].split(' (')[0]}, Holm p_holm {d['p_holm']:.2g}): what the audited model read "
                   "differs by group beyond the patients' own words.")
    arms = summary.get("arms") or {}
    if arms.get("differ"):
        out.append(f"De-identification replaced different numbers of words in the arms of {arms['differ']} of "
                   f"{arms['contexts']} contexts (e.g. {', '.join(arms.get('examples', [])[:3])}): there the arms "
                   "differ by more than their perturbation.")
    return out


def run_changes(run_dir: Any) -> dict[str, Any] | None:
    """A run directory's ``deid_changes`` (its manifest summary's, :func:`change_summary`) with the report's
    ``sentences`` (:func:`change_sentences`), for ``findings.json``; None for a run that de-identified no case as
    loaded, or one made before they were recorded."""
    from .rundir import summary_item

    changes = summary_item(run_dir, "deid_changes")
    return None if changes is None else {**changes, "sentences": change_sentences(changes)}
