"""One count of what a run measured, named once (issue 49 item 5; docs/verdicts.md, *The report's first screen*).

Three units, never mixed up:

* **cases**: the patients / messages / vignettes an audit was given and used (:func:`cases_used`);
* **pairs**: a case's variant against its baseline under one perturbation (and seed): a row's ``n`` is often
  pairs, which a sentence must not call cases (``clinaudit.report.findings.count_phrase`` says "n = 168");
* **comparisons**: the effect rows of ``tables/results.csv`` (one estimate of a difference, with its verdict).
  The verdict of an audit × model is on its *primary* comparisons (``family_role``, docs/verdicts.md); the
  others are *secondary* (a row that mirrors another, ``F vs M`` beside ``M vs F``, is not counted).

The headline, the verdict lines (report, ``findings.json``, terminal), the report's *Findings* and
*Inconclusive* headers and ``clinaudit gate``'s lines all count with :func:`count_comparisons` /
:func:`roles_phrase` and name the unit with :func:`count_of`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .run_family import ROLE_MIRROR, ROLE_PRIMARY, ROLE_SECONDARY, primary_rows

__all__ = ["UNITS", "VERDICT_WORDS", "ComparisonCount", "count_of", "count_comparisons", "roles_phrase",
           "entry_role", "cases_used"]

#: the units of a count: singular and plural
UNITS: dict[str, tuple[str, str]] = {"cases": ("case", "cases"), "pairs": ("pair", "pairs"),
                                     "comparisons": ("comparison", "comparisons")}
#: how a verdict is said in a count ("5 within margin")
VERDICT_WORDS: dict[str, str] = {"bias": "bias", "inconclusive": "inconclusive", "within_margin": "within margin",
                                 "not_measured": "not measured"}
_ORDER = ("bias", "inconclusive", "within_margin")


def count_of(n: int, unit: str, role: str = "") -> str:
    """``n`` with its unit, singular for one: ``count_of(1, "comparisons", "primary")`` -> "1 primary comparison"."""
    one, many = UNITS.get(unit, (unit, unit))
    return f"{n:,} " + (f"{role} " if role else "") + (one if n == 1 else many)


@dataclass(frozen=True)
class ComparisonCount:
    """The comparisons (effect rows) of one role, by verdict. ``role``: "primary", "secondary" or "" (a table
    without roles: every effect row)."""

    role: str = ""
    verdicts: Mapping[str, int] = field(default_factory=dict)

    def get(self, verdict: str) -> int:
        return int(self.verdicts.get(verdict, 0))

    @property
    def total(self) -> int:
        return int(sum(self.verdicts.values()))

    @property
    def not_measured(self) -> int:
        return self.get("not_measured")

    @property
    def measured(self) -> int:
        return self.total - self.not_measured

    def noun(self, n: int | None = None) -> str:
        """"primary comparisons" (singular when ``n`` is 1), the name every count of these rows uses."""
        one, many = UNITS["comparisons"]
        return (f"{self.role} " if self.role else "") + (one if n == 1 else many)

    def phrase(self) -> str:
        """"84 primary comparisons: 0 bias, 79 inconclusive, 5 within margin" (", 3 not measured" when some
        were not), the count the headline and the section headers share."""
        parts = [f"{self.get(v)} {VERDICT_WORDS[v]}" for v in _ORDER]
        parts += [f"{n} {VERDICT_WORDS.get(v, v)}" for v, n in self.verdicts.items()
                  if v not in _ORDER and v != "not_measured" and n]
        if self.not_measured:
            parts.append(f"{self.not_measured} {VERDICT_WORDS['not_measured']}")
        return f"{count_of(self.total, 'comparisons', self.role)}: " + ", ".join(parts)

    def __add__(self, other: ComparisonCount) -> ComparisonCount:
        both: Counter[str] = Counter(dict(self.verdicts))
        both.update(dict(other.verdicts))
        return ComparisonCount(self.role if self.role == other.role else "", dict(both))


def _roles(rows: pd.DataFrame) -> pd.Series:
    if "family_role" not in rows.columns:
        return pd.Series("", index=rows.index, dtype=object)
    return rows["family_role"].fillna("").astype(str)


def count_comparisons(results: pd.DataFrame, role: str = ROLE_PRIMARY) -> ComparisonCount:
    """The comparisons of ``results`` (the effect rows of one audit × model, or of several) by verdict.
    ``role`` "primary": the rows a verdict is on (:func:`clinaudit.pipeline.run_family.primary_rows`: every effect
    row of a table without roles, whose count is then named plain "comparisons"); "secondary": the others, mirrors
    left out."""
    rows = results
    if not len(rows) or "verdict" not in rows.columns:
        return ComparisonCount(role if "family_role" in rows.columns else "", {})
    if "effect" in rows.columns:
        rows = rows[rows["effect"].astype(bool)]
    roles = _roles(rows)
    if role == ROLE_PRIMARY:
        picked = primary_rows(rows)
        name = ROLE_PRIMARY if (_roles(picked) == ROLE_PRIMARY).any() else ""
    else:
        picked, name = rows[(roles == ROLE_SECONDARY).to_numpy(dtype=bool)], ROLE_SECONDARY
    counts = picked["verdict"].fillna("").astype(str).value_counts()
    return ComparisonCount(name, {str(k): int(v) for k, v in counts.items() if str(k)})


def entry_role(rec: Mapping[str, Any]) -> str:
    """The role of one result row as a findings entry carries it: "primary" / "secondary" / "mirror" (its
    ``family_role``), "level" for a row that is no comparison (``effect`` false: an accuracy, a rate), else ""."""
    effect = str(rec.get("effect", "")).strip().lower()
    if effect in ("false", "0", "0.0"):
        return "level"
    role = rec.get("family_role")
    return str(role) if isinstance(role, str) and role in (ROLE_PRIMARY, ROLE_SECONDARY, ROLE_MIRROR) else ""


def roles_phrase(roles: Iterable[str]) -> str:
    """A list's count, named by role: "120 comparisons: 30 primary, 90 secondary" (plain "12 comparisons" when no
    entry has a role; rows that are no comparison are counted apart: "…; 2 levels")."""
    counts = Counter(str(r or "") for r in roles)
    levels = counts.pop("level", 0)
    n = sum(counts.values())
    text = count_of(n, "comparisons")
    parts = [f"{counts[r]} {r}" for r in (ROLE_PRIMARY, ROLE_SECONDARY) if counts.get(r)]
    if parts and (counts.get(ROLE_PRIMARY) or counts.get(ROLE_SECONDARY)) and counts.get(""):
        parts.append(f"{counts['']} without a role")
    if parts:
        text += ": " + ", ".join(parts)
    if levels:
        text += f"; {levels} level{'s' if levels != 1 else ''} (not a comparison)"
    return text


def cases_used(rows: pd.DataFrame, model: Mapping[str, Any], cases: Mapping[str, Any]) -> int:
    """The cases one audit × model used, the one count its first screen, terminal and gate say ("this run used
    N"): the most cases behind a measured row (``n_cases``, else ``n``), never more than the distinct cases of
    the model's pairs (``model['cases_used']``, else the run's ``cases['used']``), so pairs are never called
    cases. ``rows``: the audit × model's result rows."""
    if not len(rows) or "value" not in rows.columns:
        return 0
    sized = rows[pd.to_numeric(rows["value"], errors="coerce").notna()]
    if not len(sized):
        return 0
    n = pd.to_numeric(sized["n_cases"], errors="coerce") if "n_cases" in sized.columns else None
    if (n is None or not n.notna().any()) and "n" in sized.columns:
        n = pd.to_numeric(sized["n"], errors="coerce")
    most = float(n.max()) if n is not None and n.notna().any() else math.nan
    cap = model.get("cases_used", cases.get("used", 0)) or 0
    if math.isnan(most):
        return int(cap)
    return int(min(most, cap or most))
