"""What would settle an inconclusive row of the report's findings (:mod:`clinaudit.report.findings`): why a
non-significant row is inconclusive and how many cases (or rows of a classifier gap's smaller group) would settle
it, held against the margin its verdict used. The rules are the module doc of :mod:`clinaudit.report.findings`;
the arithmetic is :mod:`clinaudit.stats.resolution`."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from .formatting import as_float
from .judge_caveats import text_of as _text
from .verdict_view import SMALLER_GROUP_ROWS

__all__ = ["inconclusive_why", "row_margin", "smaller_group_rows", "min_units_of", "subgroup_counts"]


def subgroup_counts(rec: dict[str, Any]) -> tuple[float | None, float | None]:
    """(n_a, n_b) of a subgroup-gap row: ``n_cases_a``/``n_cases_b``, else the two ``n_cases_<value>`` columns."""
    if as_float(rec.get("n_cases_a")) is not None:
        return as_float(rec.get("n_cases_a")), as_float(rec.get("n_cases_b"))
    vals = [as_float(v) for k, v in rec.items() if str(k).startswith("n_cases_") and as_float(v) is not None]
    return (vals[0], vals[1]) if len(vals) == 2 else (None, None)


def inconclusive_why(e: dict[str, Any], rec: dict[str, Any], alpha: float, margin: float,
                  family_size: int) -> dict[str, Any] | None:
    """Why a non-significant row is inconclusive (``reason``, ``n_needed``), or None: see the module doc."""
    from ..stats.resolution import (
        all_equal_half_width,
        cases_for_half_width,
        correction_factor,
        out_of_reach,
        tested_cases,
    )

    n = e["n_cases"]
    n_test = tested_cases(rec)
    n_a, n_b = subgroup_counts(rec)
    alternative = _text(rec.get("alternative")) or "two-sided"
    factor = correction_factor(e["correction"], family_size) if e["correction"] else 1.0
    reach = out_of_reach(e["test"], alpha, factor, alternative=alternative,
                         n_cases=n_test if n_test is not None else n, n_a=n_a, n_b=n_b,
                         p_method=_text(rec.get("p_method")), n_permutations=as_float(rec.get("n_permutations")))
    reasons, needed = [], []
    if reach is not None:
        p_min, k = reach
        fam = f" × {family_size} tests under {e['correction']}" if factor > 1 else ""
        reasons.append(f"the test cannot reach p < {alpha:g} with these cases: its smallest possible p is "
                       f"{p_min:.3g}{fam}")
        if k is not None:
            needed.append(k)
    h = e["ci_half_width"]
    units = as_float(rec.get("n_units"))  # a gap: the units behind its smallest group, of n cases
    rows = smaller_group_rows(rec) and units is not None and units >= 1
    # a CI narrows as 1/sqrt(n); a classifier gap's width is set by its smaller group's rows, counted as such
    base, word = (float(units or 0), "rows in the smaller group") if rows else (float(n or 0), "cases")
    if e["scale"] == "proportion" and n:
        if h is not None and h > margin:
            reasons.append(f"95% CI half-width {h * 100:.1f} pp > margin {margin * 100:.1f} pp with {int(base)} {word}")
            needed.append(int(math.ceil(base * (h / margin) ** 2)))
        elif h is not None and h == 0 and all_equal_half_width(base) > margin:
            reasons.append(f"every case shows the same difference, so the bootstrap CI has no width; with {int(base)} "
                           f"{word} the difference is known only to ±{all_equal_half_width(base) * 100:.1f} pp "
                           f"(exact bound when no case differs) > margin {margin * 100:.1f} pp")
            needed.append(int(math.ceil(cases_for_half_width(margin) *
                                        (n / units if units and units < n and not rows else 1))))
    if not reasons:
        return None
    return {"reason": "; ".join(reasons), "n_needed": max(needed) if needed else None,
            "n_needed_unit": (SMALLER_GROUP_ROWS if rows else "cases") if needed else None}


def row_margin(rec: dict[str, Any], scale: str, default: float) -> float:
    """The margin the row's verdict used (results' ``margin``, the metric's declaration or the spec's
    ``verdicts.margins``) when it is a proportion on a proportion-scale row; else ``default`` (5 pp). The
    cases that would settle a row are then the cases that would settle its verdict."""
    mg = as_float(rec.get("margin"))
    if scale == "proportion" and mg is not None and 0 < mg < 1:
        return mg
    return default


def smaller_group_rows(rec: dict[str, Any]) -> bool:
    """A classifier gap (:mod:`clinaudit.families.hurtful_words.classifier_metrics`): its unit is the rows
    (patients) of its smaller group, not cases, so what would settle it is counted in those rows."""
    return _text(rec.get("audit")) == "classifier_gaps" and as_float(rec.get("n_group")) is not None


def min_units_of(run_dir: Path) -> int:
    """The run's ``verdicts.min_units`` (its manifest's spec; 5 by default): the fewest units behind a group for a
    finding."""
    try:
        spec = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8")).get("spec") or {}
        return int((spec.get("verdicts") or {}).get("min_units", 5))
    except (OSError, ValueError, TypeError, AttributeError):
        return 5
