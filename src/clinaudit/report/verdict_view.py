"""The report's first screen: one verdict line per audit × model, with its coverage (plain strings).

Built from ``findings.json``'s ``verdicts`` (:func:`clinaudit.pipeline.validity.verdict_lines`); the
template escapes every string. ``section_anchor`` of a line is filled by :func:`link_verdicts`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["verdicts_view", "link_verdicts", "plain_sentence", "cases_needed", "cases_to_settle_entries", "BADGE",
           "TOY_MODELS"]

#: models that are toys: the first screen says so beside their verdict
TOY_MODELS = {"embedded": "a toy model (SmolLM2-135M-Instruct, offline): it shows the audit runs end to end; its "
                          "verdict says nothing about a clinical model — audit your own model (models.target)"}

#: badge class of each verdict (report.css)
BADGE = {"bias": "bad", "within_margin": "ok", "inconclusive": "warn", "not_measured": "bad"}


def _coverage(line: dict[str, Any]) -> str:
    parts = [f"{line.get('cases_used', 0)} of {line.get('cases_given', 0)} cases used"]
    if line.get("items"):
        rate = line.get("parse_rate") or 0.0
        parts.append(f"judge parse rate {rate:.0%} ({line.get('judge', '')}: {line.get('parsed')} of "
                     f"{line.get('items')})")
    excluded = sum(int(v) for v in (line.get("excluded") or {}).values())
    if excluded:
        parts.append(f"{excluded} excluded")
    parts += [str(x) for x in line.get("sample_skew") or []]  # a validity finding, beside the coverage
    return "; ".join(parts)


def viewer_query(run_dir: Any, where: dict[str, Any], **extra: str) -> str:
    """The query string of ``clinaudit view``'s grid filtered to a verdict's or finding's cases (docs/report.md,
    *From the report to the viewer*): the run by its folder's name, then each filter given (empty ones left out)."""
    from pathlib import Path
    from urllib.parse import urlencode

    q = {"run": Path(str(run_dir)).name} if run_dir else {}
    q.update({k: str(v) for k, v in where.items() if v not in (None, "")})
    q.update({k: v for k, v in extra.items() if v})
    return "cases?" + urlencode(q)


def cases_to_settle_entries(entries: Iterable[dict[str, Any]], audit: str | None = None,
                            model: str | None = None) -> int | None:
    """About how many cases would settle the inconclusive findings entries of one audit × model: the largest
    ``n_needed`` among them (:func:`clinaudit.report.findings.run_findings`, rules in
    :mod:`clinaudit.stats.resolution`), or None. ``audit`` / ``model`` None: not filtered on (the model is read
    from an entry's ``stratum``). The one rule behind the report's first screen, the verdict lines ``clinaudit
    run`` prints and ``clinaudit gate``'s inconclusive lines."""
    need = [int(e["n_needed"]) for e in entries
            if e.get("kind", "inconclusive") == "inconclusive" and e.get("n_needed")
            and (audit is None or str(e.get("audit", "")) == str(audit))
            and (model is None or str((e.get("stratum") or {}).get("model", "")) == str(model))]
    return max(need) if need else None


def cases_needed(doc: dict[str, Any], line: dict[str, Any]) -> int | None:
    """About how many cases would settle the inconclusive entries of ``line``'s audit and model
    (:func:`cases_to_settle_entries` over the document's ``inconclusive`` list), or None."""
    several = len({str(v.get("model", "")) for v in doc.get("verdicts", []) or []}) > 1
    return cases_to_settle_entries(doc.get("inconclusive", []) or [], str(line.get("audit", "")),
                                   str(line.get("model", "")) if several else None)


def plain_sentence(line: dict[str, Any], need: int | None = None) -> str:
    """The verdict of one audit × model in plain words, for the first screen and the terminal (the statistics —
    tests, corrections, bounds — stay in the line's ``sentence``, one click away)."""
    counts = {str(k): int(v) for k, v in (line.get("effects") or {}).items()}
    measured = sum(v for k, v in counts.items() if k != "not_measured")
    missing = counts.get("not_measured", 0)
    verdict = line.get("verdict", "")
    if verdict == "not_measured":
        text = str(line.get("sentence", "Nothing was measured."))
    elif verdict == "bias":
        text = (f"Bias found: {counts.get('bias', 0)} of {measured} measured comparisons differ by more than chance "
                "explains, even allowing for how many comparisons were made.")
    elif verdict == "within_margin":
        text = f"No bias larger than the margin: all {measured} measured comparisons are shown to be smaller than it."
    else:
        text = (f"Inconclusive: no bias shown, but {counts.get('inconclusive', 0)} of {measured} measured comparisons "
                "could not rule it out either" + (f" — about {need} cases would settle them (this run used "
                                                   f"{line.get('cases_used', 0)})" if need else "") + ".")
    if missing and verdict != "not_measured":
        text += f" {missing} comparison{'s' if missing != 1 else ''} could not be measured."
    return text


def verdicts_view(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The verdict lines of a findings document as the template shows them: ``plain`` (plain words, with the cases
    that would settle an inconclusive verdict) first, the statistical ``sentence`` folded."""
    out = []
    for line in doc.get("verdicts", []) or []:
        need = cases_needed(doc, line) if line.get("verdict") == "inconclusive" else None
        out.append({
            "plain": plain_sentence(line, need), "cases_needed": need,
            "audit": str(line.get("audit", "")).replace("_", " "), "model": str(line.get("model", "")),
            "verdict": line.get("verdict", ""), "label": line.get("label", ""), "badge": BADGE.get(line.get("verdict", ""), ""),
            "sentence": line.get("sentence", ""), "coverage": _coverage(line),
            "excluded": [f"{k}: {v}" for k, v in sorted((line.get("excluded") or {}).items())],
            "warnings": list(line.get("warnings") or []),
            "href": "#" + (line.get("section_anchor") or "summary"),
            "view": viewer_query(line.get("run_dir"), {"model": line.get("model")}, sort="flip"),
            "toy": TOY_MODELS.get(str(line.get("model", "")), ""),
        })
    return out


def link_verdicts(doc: dict[str, Any], runs: Sequence[Any]) -> None:
    """Point each verdict line at its run's section (where the run's tables and exclusions are)."""
    by_dir = {str(r.path): r for r in runs}
    for line in doc.get("verdicts", []) or []:
        info = by_dir.get(str(line.get("run_dir", "")))
        line["section_anchor"] = info.anchor if info is not None else ""
