"""How much a test or a CI *can* say with the cases it had — the report's "inconclusive" rule reads these.

* :func:`smallest_p` — the smallest p-value the paired layer's permutation tests can return with n
  cases, whatever the data: the sign-flip test over n cases has 2^n equally likely sign patterns, and
  the observed one and its mirror image are the most extreme, so a two-sided p is at least 2 / 2^n
  (one-sided: 1 / 2^n); the permutation of subgroup labels over n_a + n_b cases has C(n_a + n_b, n_a)
  relabellings, so p ≥ 1 / C (two-sided 2 / C when n_a = n_b: then −t is a relabelling too). A test
  that drew N random sign flips or relabellings instead (``p_method`` "monte carlo" / "bound") cannot
  report p below 1 / (N + 1). With 2 cases no sign-flip p is below 0.5: such a test
  cannot find anything, however large the effect.
* :func:`correction_factor` — how a correction family of m tests scales the smallest p: × m for
  Bonferroni / Holm / Šidák-type corrections (the smallest p of a family is multiplied by m), × 1 for
  Benjamini–Hochberg (when every p of the family is that small, BH leaves them unchanged).
* :func:`all_equal_half_width` — when every case shows the same difference the percentile bootstrap CI
  has zero width, which says nothing about precision. The half-width used instead is the upper bound
  of the Clopper–Pearson 95% interval for a share of cases when none of n cases differs from the rest,
  1 − (α/2)^(1/n) (``statsmodels.stats.proportion.proportion_confint(0, n, method="beta")``): a share
  of the cases up to that bound could still move either way, so the difference is known to ± that.
* :func:`cases_to_settle` — about how many cases an ``inconclusive`` row of ``tables/results.csv``
  (:func:`clinaudit.stats.verdicts.row_verdict`) would need to be settled: too few units in the smallest
  group → ``n_cases × min_units / n_units``; no unit shows the effect but the exact bound is above the margin
  → the fewest units whose bound is below it (:func:`cases_for_half_width`, 72 for 5 pp), scaled by
  ``n_cases / n_units``; a CI wider than the margin → ``n_cases × (h / margin)²`` (a CI narrows as 1/√n).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["smallest_p", "correction_factor", "all_equal_half_width", "cases_for_p", "cases_for_half_width",
           "cases_to_settle", "row_p_floor", "draws_to_reach", "run_floor_note",
           "with_floor_note", "tested_cases", "row_p_kind", "out_of_reach", "SIGN_FLIP_TEST", "SUBGROUP_TEST"]

#: the ``test`` names :class:`clinaudit.stats.PairedFrame` writes
SIGN_FLIP_TEST = "sign-flip permutation over cases"
SUBGROUP_TEST = "studentised permutation of subgroup labels over cases"
#: the subgroup test's name before it was studentised (older result tables)
_SUBGROUP_TESTS = (SUBGROUP_TEST, "permutation of subgroup labels over cases")
#: the association's frame-level sign flip (its cases are the template frames, ``n_frames``)
_SIGN_FLIP_TESTS = (SIGN_FLIP_TEST, "sign_flip_frames")


def smallest_p(test: str, n_cases: float | None = None, n_a: float | None = None, n_b: float | None = None,
               alternative: str = "two-sided", p_method: str | None = None,
               n_permutations: float | None = None) -> float | None:
    """The smallest p ``test`` can give with its cases (see the module doc); ``None`` for a test whose
    smallest p is not known here, or without the case counts.

    ``p_method`` is the row's ``p_method`` column: with ``"monte carlo"`` or ``"bound"`` the test drew
    ``n_permutations`` random sign flips / relabellings, and the smallest p it can report is
    1/(n_permutations + 1) (when that is above the exact smallest p)."""
    one_sided = alternative in ("greater", "less")
    name = (test or "").strip().lower()
    p: float | None = None
    if name in _SIGN_FLIP_TESTS and n_cases is not None and n_cases >= 1:
        p = min(1.0, (1.0 if one_sided else 2.0) / 2.0 ** int(n_cases))
    elif name in _SUBGROUP_TESTS and n_a is not None and n_b is not None and n_a >= 1 and n_b >= 1:
        # the mirror image of the observed relabelling (−t) is itself a relabelling only when n_a = n_b
        mirror = not one_sided and int(n_a) == int(n_b)
        p = min(1.0, (2.0 if mirror else 1.0) / math.comb(int(n_a) + int(n_b), int(n_a)))
    if p is not None and (p_method or "").strip().lower() in ("monte carlo", "bound") and n_permutations:
        p = max(p, 1.0 / (float(n_permutations) + 1.0))
    return p


def out_of_reach(test: str, alpha: float, factor: float = 1.0, *, n_cases: float | None = None,
                 n_a: float | None = None, n_b: float | None = None, alternative: str = "two-sided",
                 p_method: str | None = None, n_permutations: float | None = None) -> tuple[float, int | None] | None:
    """When ``test`` cannot reach p < ``alpha`` with its cases (:func:`smallest_p`, times the correction's
    ``factor``): (its smallest possible p, the fewest cases with which it could: :func:`cases_for_p`, None where
    not known); None when it can reach alpha or its floor is not known."""
    p_min = smallest_p(test, n_cases=n_cases, n_a=n_a, n_b=n_b, alternative=alternative, p_method=p_method,
                       n_permutations=n_permutations)
    if p_min is None or p_min * factor < alpha:
        return None
    return p_min, cases_for_p(test, alpha, factor, alternative)


def row_p_floor(test: str, *, n_cases: float | None = None, n_a: float | None = None, n_b: float | None = None,
                alternative: str = "two-sided", p_method: str | None = None,
                n_permutations: float | None = None) -> tuple[float | None, str]:
    """(the smallest p a result row's test can give, what sets it: ``"draws"`` or ``"cases"``); ``(None, "")``
    when not known. A Monte Carlo test (``p_method`` "monte carlo" / "bound") of any kind cannot give p below
    1/(n_permutations + 1) (``"draws"``: more permutations lower it); the paired layer's exact tests cannot go
    below :func:`smallest_p` with their cases (``"cases"``); the larger of the two is the floor."""
    exact = smallest_p(test, n_cases=n_cases, n_a=n_a, n_b=n_b, alternative=alternative)
    mc = None
    if (p_method or "").strip().lower() in ("monte carlo", "bound") and n_permutations and n_permutations > 0:
        mc = 1.0 / (float(n_permutations) + 1.0)
    if mc is not None and (exact is None or mc >= exact):
        return mc, "draws"
    return (exact, "cases") if exact is not None else (None, "")


def row_p_kind(row: Mapping[str, Any]) -> tuple[str, float, str]:
    """(``p_kind``, ``p_min``, what sets it) of a result row: ``"monte carlo"`` when its test drew random sign
    flips / relabellings (``p_method`` "monte carlo" or "bound"), ``"exact"`` for the paired layer's exact tests,
    ``""`` when not known (an asymptotic or another test: any p is reachable as far as this knows); ``p_min`` the
    smallest p its test can give with its cases and draws (:func:`row_p_floor`; NaN when not known)."""
    from .results import cell_float

    if cell_float(row.get("p")) is None:
        return "", math.nan, ""
    method = str(row.get("p_method") or "").strip().lower()
    n_test = tested_cases(row)
    f, why = row_p_floor(str(row.get("test") or ""), n_cases=n_test if n_test is not None else cell_float(
        row.get("n_cases")), n_a=cell_float(row.get("n_cases_a")), n_b=cell_float(row.get("n_cases_b")),
        alternative=str(row.get("alternative") or "two-sided"), p_method=method,
        n_permutations=cell_float(row.get("n_permutations")))
    if f is None:
        return "", math.nan, ""
    return ("monte carlo" if method in ("monte carlo", "bound") else "exact"), float(f), why


def draws_to_reach(family_size: int, alpha: float) -> int:
    """The fewest Monte Carlo draws R with which ``family_size`` × 1/(R + 1) (Holm's first step on the
    smallest p a Monte Carlo test can give) is below ``alpha``."""
    r = max(0, int(math.floor(family_size / alpha)) - 1)
    while family_size / (r + 1.0) >= alpha:
        r += 1
    return r


def run_floor_note(floor: float, family_size: int, alpha: float, limit: str,
                   n_permutations: float | None = None, settable: bool = True) -> str:
    """The plain sentence for a run-level family whose smallest reachable p (Holm's first step, ``floor``) is
    not below ``alpha``: no row of it can be ``bias``, whatever the data (empty when it can reach alpha).

    ``settable``: the audit has an ``n_permutations`` option; without one (the permutations are fixed in its
    code) the sentence says how many would be needed and that fewer effects per run is the way to get there."""
    if not floor < math.inf or floor < alpha:
        return ""
    head = (f"with {int(n_permutations):,} permutations per test" if limit == "draws" and n_permutations
            else "with these cases")
    text = (f"this run cannot find bias: {head} the smallest p after Holm over {family_size} comparisons is "
            f"{min(floor, 1.0):.3g} (alpha {alpha:g})")
    if limit == "draws":
        need = draws_to_reach(family_size, alpha)
        if settable:
            return text + f"; set n_permutations >= {need:,}"
        return text + (f"; it would need {need:,} permutations per test, more than this audit draws: audit fewer "
                       f"effects per run (fewer perturbations, metrics or models)")
    return text + "; more cases are needed"


def with_floor_note(sentence: str, note: str, verdict: str) -> str:
    """A verdict sentence with the run's floor note (:func:`run_floor_note`): an inconclusive sentence says it
    first ("Inconclusive: this run cannot find bias: … . No bias shown, …"), a ``within_margin`` one after it
    ("… Note: …."); other sentences, or no note, are returned as they are."""
    if note and verdict == "inconclusive":
        rest = sentence.removeprefix("Inconclusive: ")
        return f"Inconclusive: {note}. " + rest[:1].upper() + rest[1:]
    if note and verdict == "within_margin":
        return sentence + f" Note: {note}."
    return sentence


def tested_cases(row: Mapping[str, Any]) -> float | None:
    """The cases a result row's test counted, when they are not the row's ``n_cases``: ``n_test_cases`` (the
    paired layer's tested cases), else ``n_frames`` (the association's frame-level test: its cases are the
    frames); None when the row has neither."""
    from .results import cell_float

    n = cell_float(row.get("n_test_cases"))
    return n if n is not None else cell_float(row.get("n_frames"))


def correction_factor(method: str, family_size: int) -> float:
    """The factor a correction applies to a family's smallest p (1 without a correction)."""
    m = (method or "").strip().lower()
    if family_size <= 1 or m in ("", "none", "nan") or m.startswith("fdr"):
        return 1.0
    return float(family_size)


def cases_for_p(test: str, alpha: float, factor: float = 1.0, alternative: str = "two-sided") -> int | None:
    """The fewest cases with which a sign-flip test's smallest p, times ``factor``, is below ``alpha``
    (for the subgroup test: the fewest cases per subgroup, two equal subgroups); ``None`` for other tests."""
    for n in range(1, 200):
        p = smallest_p(test, n_cases=n, n_a=n, n_b=n, alternative=alternative)
        if p is None:
            return None
        if p * factor < alpha:
            return n if (test or "").strip().lower() in _SIGN_FLIP_TESTS else 2 * n
    return None


def all_equal_half_width(n: float, confidence: float = 0.95) -> float:
    """± range of a difference when all ``n`` cases agree: the upper bound 1 − (α/2)^(1/n) of the exact
    (Clopper–Pearson) interval for a share with 0 of ``n`` cases."""
    from statsmodels.stats.proportion import proportion_confint

    if n is None or n < 1:
        return math.nan
    _, hi = proportion_confint(0, int(n), alpha=1 - confidence, method="beta")
    return float(hi)


def cases_for_half_width(margin: float, confidence: float = 0.95) -> int:
    """The fewest cases for which :func:`all_equal_half_width` is at most ``margin``."""
    n = 1
    while all_equal_half_width(n, confidence) > margin and n < 100_000:
        n = n * 2
    lo, hi = n // 2, n
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if all_equal_half_width(mid, confidence) > margin:
            lo = mid
        else:
            hi = mid
    return hi


def cases_to_settle(*, n_cases: float, n_units: float = math.nan, ci_low: float = math.nan,
                    ci_high: float = math.nan, margin: float = math.nan, min_units: int = 5,
                    unit_scale: float = 1.0) -> int | None:
    """About how many cases an inconclusive row needs before its verdict can be ``within_margin`` (or a
    finding): see the module doc. ``unit_scale`` is 100 for a metric in percent. ``None`` when the row
    cannot say (no cases, no margin, no CI)."""
    def ok(x: float) -> bool:
        return x is not None and not math.isnan(x)

    if not ok(n_cases) or n_cases < 1:
        return None
    per_unit = n_cases / n_units if ok(n_units) and n_units >= 1 else 1.0
    if ok(n_units) and n_units < min_units:
        return int(math.ceil(min_units * per_unit))
    if not ok(margin) or margin <= 0 or not ok(ci_low) or not ok(ci_high):
        return None
    m = margin / (unit_scale if unit_scale > 0 else 1.0)
    h = (ci_high - ci_low) / 2 / (unit_scale if unit_scale > 0 else 1.0)
    if h <= 1e-12:
        if m >= 1:
            return None
        return int(math.ceil(cases_for_half_width(m) * per_unit))
    return max(int(n_cases) + 1, int(math.ceil(n_cases * (h / m) ** 2)))

