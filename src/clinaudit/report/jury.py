"""The shared report blocks of judge juries, clinically relevant pairs, exclusions and de-identification by
group, added to any audit's section.

:func:`extra_blocks` reads the run's jury tables (:mod:`clinaudit.judges.jury`) and relevance tables
(:mod:`clinaudit.perturb.relevance`) and returns the blocks to append to the audit's own section
(:mod:`clinaudit.report.runs` appends them, so every audit — plugins included — shows them).
A run without those tables gets no blocks.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .base import Table, Text

__all__ = ["jury_blocks", "relevance_blocks", "exclusion_blocks", "deid_change_blocks", "extra_blocks"]


def _read(rundir: Any, name: str) -> pd.DataFrame | None:
    try:
        if not rundir.has_table(name):
            return None
        df = rundir.read_table(name)
    except Exception:  # noqa: BLE001 - a missing or unreadable optional table shows nothing
        return None
    return df


def jury_blocks(rundir: Any) -> list[Any]:
    """Judge jury: per-judge parse rates, Krippendorff's α, decisions and ties, κ against human labels."""
    pr = _read(rundir, "jury_parse_rates")
    if pr is None or pr.empty:
        return []
    models = [m for m in dict.fromkeys(pr["judge_model"]) if m != "jury"]
    blocks: list[Any] = [Text(
        f"Judge jury: {len(models)} judge models ({', '.join(map(str, models))}) judged every item. Every judge's "
        "verdict is in tables/judgments.csv (jury = member); the metrics of this section are computed from the "
        "jury's decisions (judge_model = jury): the majority of the parsed verdicts of an item, a shared top count "
        "is a tie (the item's field is then not decided, never counted as NO), and an unparseable verdict is not a "
        "vote.", kind="note")]
    blocks.append(Table("Jury: parse rate per judge", pr, name="jury_parse_rates",
                        caption="ok / unparseable / error per judge model; the jury row counts decided items and ties"))
    ag = _read(rundir, "jury_agreement")
    if ag is not None and len(ag):
        blocks.append(Table("Jury: inter-judge agreement (Krippendorff's α)", ag, name="jury_agreement",
                            caption="nominal α over the judges' parsed verdicts (krippendorff 0.9.0); CI: percentile "
                                    "bootstrap resampling cases (all items of a case move together); unanimous_rate: "
                                    "share of items with ≥ 2 verdicts on which every verdict agrees"))
    dec = _read(rundir, "jury_decisions")
    if dec is not None and len(dec):
        blocks.append(Table("Jury: decisions and ties", dec, name="jury_decisions"))
    kap = _read(rundir, "jury_kappa")
    if kap is not None and len(kap):
        blocks.append(Table("Jury: Cohen's κ against human labels", kap, name="jury_kappa",
                            caption="each judge and the jury against the human (clinician) labels of the data; items "
                                    "without a verdict (unparseable, tie) are left out and counted in "
                                    "n_without_verdict"))
    return blocks


def relevance_blocks(rundir: Any) -> list[Any]:
    """Clinically relevant pairs: the relevance label of each (case, attribute) and the split shifts."""
    rel = _read(rundir, "relevance")
    if rel is None or rel.empty:
        return []
    n_rel = int((rel["relevance"] == "relevant").sum())
    blocks: list[Any] = [Text(
        f"Clinically justified differences: {n_rel} of {len(rel)} (case, attribute) pairs are clinically relevant "
        "(the attribute matters for the case: pregnancy, sex-specific anatomy, age-dependent dosing or screening). "
        "Their shifts are reported apart and do not count toward the bias verdict; only irrelevant pairs do "
        "(column counts_toward_verdict).", kind="note")]
    blocks.append(Table("Relevance label per case and attribute", rel, name="relevance",
                        caption="source: the data's column, the clinical lexicon shipped with clinaudit "
                                "(src/clinaudit/data/clinical_relevance.csv) or the relevance judge"))
    sh = _read(rundir, "relevance_shifts")
    if sh is not None and len(sh):
        blocks.append(Table("Shifts by clinical relevance", sh, name="relevance_shifts",
                            caption="the same paired comparison on relevant and on irrelevant pairs separately "
                                    "(clinaudit.stats, cases resampled); correction within each relevance stratum"))
    return blocks


def exclusion_blocks(rundir: Any) -> list[Any]:
    """Exclusions by group (:mod:`clinaudit.exclusion_skew`): the exclusion rate of every group of every
    demographic attribute the run knows and its test, with a warning when the exclusions skewed the sample;
    one line when the cases record no attribute but some were excluded; nothing when there is neither."""
    rates = _read(rundir, "exclusion_rates")
    if rates is None:
        return []
    if rates.empty:
        from ..exclusion_skew import excluded_case_ids

        ledger = _read(rundir, "exclusions")
        if ledger is None or not excluded_case_ids(ledger):
            return []
        return [Text("Exclusions by group: not measured (the cases record no sex, gender, race or age).")]
    from ..exclusion_skew import skew_line

    skewed = rates[rates["skewed"].astype(str).str.lower().isin(["true", "1"])]
    lines = [skew_line(str(a), rates[rates["attribute"] == a]) for a in dict.fromkeys(skewed["attribute"])]
    blocks: list[Any] = []
    if lines:
        blocks.append(Text("Validity finding: " + "; ".join(lines) + ". The audited sample under-represents the "
                           "groups excluded more often; read the verdicts with that in mind.", kind="warning"))
    blocks.append(Table("Exclusions by group", rates, name="exclusion_rates",
                        caption="cases excluded as a whole per group; Fisher / Freeman-Halton test, Holm over "
                                "attributes (docs/verdicts.md)"))
    return blocks


def deid_change_blocks(rundir: Any) -> list[Any]:
    """What de-identification changed in the cases as loaded, by group (:mod:`clinaudit.deid_groups`): a warning
    when some groups' cases were changed more often or the arms of a context differently, one line of counts, and
    the table of shares by group; nothing for a run whose de-identification changed no case as loaded, or that
    de-identified none (note generation counts its own, ``tables/deidentification.csv``)."""
    from ..deid_groups import TABLE, change_sentences

    manifest = getattr(rundir, "manifest", None) or {}
    summary = (manifest.get("summary") or {}).get("deid_changes") if isinstance(manifest, dict) else None
    if not isinstance(summary, dict) or not summary.get("changed"):
        return []  # nothing changed: nothing to say (the table and the summary still hold the counts)
    rates = _read(rundir, TABLE)
    blocks: list[Any] = [Text(x, kind="warning") for x in change_sentences(summary)]
    blocks.append(Text(f"De-identification changed {summary.get('changed', 0)} of {summary.get('cases', 0)} cases "
                       f"as loaded ({summary.get('names_added', 0)} replacements with [NAME]; "
                       "docs/deidentification.md)."))
    if rates is not None and not rates.empty:
        blocks.append(Table("De-identification by group", rates, name=TABLE,
                            caption="cases whose text de-identification changed, per group; Fisher / Freeman-Halton "
                                    "test, Holm over attributes (arms of one context counted once)"))
    return blocks


def extra_blocks(rundir: Any) -> list[Any]:
    return jury_blocks(rundir) + relevance_blocks(rundir) + exclusion_blocks(rundir) + deid_change_blocks(rundir)
