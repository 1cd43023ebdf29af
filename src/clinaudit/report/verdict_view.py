"""The report's first screen: one verdict line per audit × model, with its coverage (plain strings).

Built from ``findings.json``'s ``verdicts`` (:func:`clinaudit.pipeline.validity.verdict_lines`); the
template escapes every string. ``section_anchor`` of a line is filled by :func:`link_verdicts`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..deid_reach import warns
from ..pipeline.counts import ComparisonCount
from ..stats.resolution import with_floor_note
from .view_links import ViewLinks


__all__ = ["verdicts_view", "reach_view", "link_verdicts", "plain_sentence", "entries_of", "need_phrase", "settle_entry",
           "SMALLER_GROUP_ROWS", "BADGE", "TOY_MODELS"]

#: the unit of ``n_needed`` for a classifier gap: the rows (patients) of its smaller group, not cases
SMALLER_GROUP_ROWS = "rows in the smaller group"

#: models that are toys: the first screen says so beside their verdict
TOY_MODELS = {"embedded": "a toy model (SmolLM2-135M-Instruct, offline): it shows the audit runs end to end; its "
                          "verdict says nothing about a clinical model — audit your own model (models.target)"}

#: badge class of each verdict (report.css)
BADGE = {"bias": "bad", "within_margin": "ok", "inconclusive": "warn", "not_measured": "bad"}


def _coverage(line: dict[str, Any]) -> str:
    parts = [str(line["comparisons"])] if line.get("comparisons") else []  # the one count (pipeline.counts)
    parts.append(f"{line.get('cases_used', 0)} of {line.get('cases_given', 0)} cases used")
    if line.get("items"):
        rate = line.get("parse_rate") or 0.0
        parts.append(f"judge parse rate {rate:.0%} ({line.get('judge', '')}: {line.get('parsed')} of "
                     f"{line.get('items')})")
    excluded = sum(int(v) for v in (line.get("excluded") or {}).values())
    if excluded:
        parts.append(f"{excluded} excluded")
    parts += [str(x) for x in line.get("sample_skew") or []]  # a validity finding, beside the coverage
    return "; ".join(parts)


def entries_of(entries: Iterable[dict[str, Any]], audit: str | None = None,
               model: str | None = None) -> list[dict[str, Any]]:
    """The inconclusive findings entries of one audit × model (``audit`` / ``model`` None: not filtered on; the
    model is read from an entry's ``stratum``): its primary comparisons when it has any (``role``: the rows its
    verdict, the gate and "about N cases would settle them" are about; pipeline.counts), else all of them."""
    mine = [e for e in entries
            if e.get("kind", "inconclusive") == "inconclusive"
            and (audit is None or str(e.get("audit", "")) == str(audit))
            and (model is None or str((e.get("stratum") or {}).get("model", "")) == str(model))]
    primary = [e for e in mine if e.get("role") == "primary"]
    return primary or mine


def settle_entry(entries: Iterable[dict[str, Any]], audit: str | None = None,
                 model: str | None = None) -> dict[str, Any] | None:
    """The inconclusive findings entry of one audit × model (:func:`entries_of`) that needs the most to be
    settled (the largest ``n_needed``; :func:`clinaudit.report.findings.run_findings`, rules in
    :mod:`clinaudit.stats.resolution`), or None. The one rule behind the report's first screen, the verdict lines
    ``clinaudit run`` prints and ``clinaudit gate``'s inconclusive lines."""
    mine = [e for e in entries_of(entries, audit, model) if e.get("n_needed")]
    return max(mine, key=lambda e: int(e["n_needed"])) if mine else None


def _round2(n: int) -> int:
    """``n`` to two significant digits from 1,000 on (a planning number: 74,397 → 74,000)."""
    if n < 1000:
        return n
    step = 10 ** (len(str(n)) - 2)
    return int(round(n / step)) * step


def need_phrase(entry: dict[str, Any] | None, used: Any = None) -> str:
    """What would settle an inconclusive entry, in words: "about 160 cases" (with ``used``: "(this run used 10)"),
    or for a classifier gap, whose unit is rows of the smaller group, "about 74,000 rows in the smaller group:
    more than this data has (34 in the smaller group, 100 rows in all)"; "" without a number."""
    if not entry or not entry.get("n_needed"):
        return ""
    n = int(entry["n_needed"])
    if entry.get("n_needed_unit") != SMALLER_GROUP_ROWS:
        return f"about {n} cases" + (f" (this run used {used})" if used not in (None, "") else "")
    have, total = entry.get("n_units"), entry.get("n_cases")
    text = f"about {_round2(n):,} {SMALLER_GROUP_ROWS}"
    if total is not None and n > int(total):
        return text + (": more than this data has (" + (f"{int(have):,} in the smaller group, " if have else "") +
                       f"{int(total):,} rows in all)")
    return text + (f" (this data has {int(have):,})" if have else "")


def plain_sentence(line: dict[str, Any], need: int | None = None, entry: dict[str, Any] | None = None) -> str:
    """The verdict of one audit × model in plain words, for the first screen and the terminal (the statistics —
    tests, corrections, bounds — stay in the line's ``sentence``, one click away). ``entry``: the inconclusive
    findings entry that needs the most (:func:`settle_entry`), which says the unit of ``need``."""
    tally = ComparisonCount(str(line.get("role") or ""), {str(k): int(v) for k, v in (line.get("effects") or {}).items()})
    counts, measured, missing, noun = tally.verdicts, tally.measured, tally.not_measured, tally.noun()
    verdict = line.get("verdict", "")
    if verdict == "not_measured":
        text = str(line.get("sentence", "Nothing was measured."))
    elif verdict == "bias":
        text = (f"Bias found: {counts.get('bias', 0)} of {measured} measured {noun} differ by more than chance "
                "explains, even allowing for how many comparisons were made.")
    elif verdict == "within_margin":
        text = f"No bias larger than the margin: all {measured} measured {noun} are shown to be smaller than it."
    else:
        if entry is not None and entry.get("n_needed_unit") == SMALLER_GROUP_ROWS:
            settle = f" — settling them would need {need_phrase(entry)}"
        elif need:
            settle = f" — about {need} cases would settle them (this run used {line.get('cases_used', 0)})"
        else:
            settle = ""
        text = (f"Inconclusive: no bias shown, but {counts.get('inconclusive', 0)} of {measured} measured {noun} "
                "could not rule it out either" + settle + ".")
        if line.get("power"):  # the shift the run could have seen, and the cases equivalence needs (stats.power)
            text += f" {str(line['power'])[:1].upper()}{str(line['power'])[1:]}."
    if missing and verdict != "not_measured":
        text += f" {missing} {tally.noun(missing)} could not be measured."
    # the run could not have found bias: said before anything else
    return with_floor_note(text, str(line.get("cannot_find_bias") or ""), verdict)


def verdicts_view(doc: dict[str, Any], links: ViewLinks | None = None) -> list[dict[str, Any]]:
    """The verdict lines of a findings document as the template shows them: ``plain`` (plain words, with the cases
    that would settle an inconclusive verdict) first, the statistical ``sentence`` folded; ``links``: the report's
    :class:`~clinaudit.report.view_links.ViewLinks` (one is made when not given)."""
    links = links if links is not None else ViewLinks()
    out = []
    several = len({str(v.get("model", "")) for v in doc.get("verdicts", []) or []}) > 1
    for line in doc.get("verdicts", []) or []:
        entry = settle_entry(doc.get("inconclusive", []) or [], str(line.get("audit", "")),
                             str(line.get("model", "")) if several else None) \
            if line.get("verdict") == "inconclusive" else None
        need = int(entry["n_needed"]) if entry is not None else None
        rows = entry is not None and entry.get("n_needed_unit") == SMALLER_GROUP_ROWS
        out.append({
            "plain": plain_sentence(line, need, entry), "cases_needed": need,
            "needed_text": (f"would need {need_phrase(entry).split(':')[0]}" if rows else
                            f"about {need} cases would settle it") if need else "",
            "audit": str(line.get("audit", "")).replace("_", " "), "model": str(line.get("model", "")),
            "verdict": line.get("verdict", ""), "label": line.get("label", ""), "badge": BADGE.get(line.get("verdict", ""), ""),
            "sentence": line.get("sentence", ""), "coverage": _coverage(line),
            "primary": str(line.get("primary") or ""),  # which rows the verdict is on, and why (docs/verdicts.md)
            "excluded": [f"{k}: {v}" for k, v in sorted((line.get("excluded") or {}).items())],
            "warnings": list(line.get("warnings") or []),
            "href": "#" + (line.get("section_anchor") or "summary"),
            "view": links.verdict(line),
            "toy": TOY_MODELS.get(str(line.get("model", "")), ""),
        })
    return out


def reach_view(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """How far each run's de-identification reached (:mod:`clinaudit.deid_reach`; ``findings.json``'s
    ``runs[].deid_reach``), said once above the verdicts table: one block per distinct set of sentences, in the order
    the runs come, ``names`` the runs that say it (each ``name``, the run's section title as the report names it,
    and ``href``, its section; none when the report holds one run), ``sentences`` each with ``warn`` (a warning where
    names may have reached the model). Runs whose sentences are the same (the same counts and style) share a block."""
    runs = doc.get("runs", []) or []
    blocks: dict[tuple[str, ...], dict[str, Any]] = {}
    for r in runs:
        if not r.get("deid_reach"):
            continue
        said = tuple(str(x) for x in r["deid_reach"])
        block = blocks.setdefault(said, {"names": [], "sentences": [{"text": x, "warn": warns(x)} for x in said]})
        if len(runs) > 1:
            block["names"].append({"name": str(r.get("title") or r.get("audit") or r.get("run_dir", "")),
                                   "href": "#" + (r.get("section_anchor") or "summary")})
    return list(blocks.values())


def link_verdicts(doc: dict[str, Any], runs: Sequence[Any]) -> None:
    """Point each verdict line, and each run of the document, at its run's section (where the run's tables and
    exclusions are); a run also gets the section's ``title``, the name the report gives it."""
    by_dir = {str(r.path): r for r in runs}
    for line in doc.get("verdicts", []) or []:
        info = by_dir.get(str(line.get("run_dir", "")))
        line["section_anchor"] = info.anchor if info is not None else ""
    for run in doc.get("runs", []) or []:
        info = by_dir.get(str(run.get("run_dir", "")))
        if info is not None:
            run["section_anchor"] = info.anchor
            run["title"] = info.section.title if info.section is not None else info.audit
