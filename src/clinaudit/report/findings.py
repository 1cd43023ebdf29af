"""Findings: what an audit found, how large, how sure — derived from every run's ``tables/results.csv``.

The rules (also in docs/report.md, *Findings*):

* **Tested rows only.** A row is a candidate when it names a test (``test`` is not empty, ``none``,
  ``descriptive`` or ``none (descriptive)``) and has a usable p-value: ``p_adj`` when the row was
  corrected (``correction`` names a method), else ``p``. Descriptive rows, rows with a NaN p-value and
  corrected rows without ``p_adj`` are never findings (they are counted under ``skipped``).
* **Finding.** ``p_adj`` (or ``p`` without correction) ``< alpha`` (0.05) within the row's correction
  ``family``, and a finite effect ``value``.
* **Ranking scale.** Findings are ranked by the size of the effect, ``|value|``, on the *proportion
  scale*: most clinaudit effects are differences of rates (treatment-shift rate beyond its noise floor,
  recall gaps, accuracy differences, incidence shifts), and an absolute difference in proportions is
  the one size readable across audits (percentage points). Metrics reported in percent (a ``%`` in the
  name, or note generation's ``ΔBL``/``maxΔBL``/``ΔCF``) are divided by 100. Effects on any other unit
  (lengths, log-probability scores, Cohen's d, ratios; or values outside [-1, 1]) cannot be compared
  with them and are ranked after them by ``|value|``. Ties: smaller p first.
* **Inconclusive.** A tested, non-significant row is listed apart ("inconclusive", with ``reason`` and
  ``n_needed``) when the data could not have shown an effect (rules in :mod:`clinaudit.stats.resolution`):

  1. *the test cannot reach significance with its cases*: the smallest p a sign-flip test over n cases
     can give is 2 / 2^n (subgroup permutation: 2 / C(n_a + n_b, n_a)), times the family size under a
     Bonferroni/Holm-type correction; when that is ≥ ``alpha`` (2 cases: 0.5) no effect, however large,
     could be significant. ``n_needed``: the fewest cases for which it is below ``alpha``. Any scale;
  2. *the CI is wider than the margin* (proportion scale): half-width ``h = (ci_high - ci_low) / 2`` >
     ``margin`` (0.05 = 5 percentage points); ``n_needed = ceil(n * (h / margin)**2)`` (a CI's width
     shrinks as 1/sqrt(n); ``n`` is ``n_cases`` when the row has it, else ``n``);
  3. *every case agrees* (proportion scale): a bootstrap CI of zero width says nothing about precision;
     the difference is then known to ± the exact (Clopper–Pearson) bound for a share when none of n
     cases differs, 1 − 0.025^(1/n) (0.37 with 8 cases); above the margin → inconclusive, ``n_needed``
     the fewest cases that bring it to the margin (72).

  Without any of these a non-significant row is counted under ``skipped.not_significant`` — unless its verdict
  is ``inconclusive``: the row's verdict decides the list when the run wrote one (``bias``: a finding;
  ``inconclusive``: listed, with the run's reason), so the lists count what the verdict lines count
  (:mod:`clinaudit.pipeline.counts`).
* **Mirrors.** A row that repeats another of the same run, metric, family and stratum with group and
  reference swapped and the value negated (e.g. ``F vs M`` and ``M vs F``) is listed once.
* **Judge caveats.** When a run has ``tables/judge_reliability.csv``, ``tables/parse_rates.csv`` or
  ``judge_parse_rate`` rows in its results, every finding of that run carries the judge's parse rate
  and reliability — only the judge named in the row's ``judge_model`` when the row names one.

Nothing here builds HTML: the renderer shows :func:`findings_view`'s strings with autoescaping on.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..checks import check_alpha, check_margin
from ..export import read_store_frame
from ..pipeline.counts import entry_role, roles_phrase
from ..pipeline.run_family import ROLE_MIRROR
from .formatting import as_float
from .judge_caveats import caveats_for, judge_caveats
from .judge_caveats import text_of as _text
from .settle import inconclusive_why as _inconclusive
from .settle import min_units_of as _min_units
from .settle import row_margin as _row_margin
from .settle import smaller_group_rows as _smaller_group_rows
from .verdict_view import SMALLER_GROUP_ROWS, need_phrase, reach_view, verdicts_view
from ..atomic import write_text

__all__ = [
    "ALPHA",
    "MARGIN",
    "SCHEMA",
    "FINDING_FIELDS",
    "is_descriptive",
    "format_p",
    "effect_scale",
    "judge_caveats",
    "run_findings",
    "derive_findings",
    "findings_frame",
    "write_findings",
    "link_anchors",
    "findings_view",
    "count_phrase",
]

ALPHA = 0.05  #: significance level applied to p_adj (or p without correction)
MARGIN = 0.05  #: CI half-width (proportion scale) above which a non-significant effect is inconclusive
SCHEMA = "clinaudit.findings/2"  # 2: verdicts, validity, headline; entries carry verdict, verdict_reason

#: metrics that are percentage-point differences without a ``%`` in their name (note generation)
PERCENT_METRICS = frozenset({"ΔBL", "maxΔBL", "ΔCF"})
#: name fragments of metrics on a unit other than a proportion
_OTHER_UNIT_HINTS = ("len", "log_prob", "score", "cohens", "kappa", "ratio", "_mean", "token", "auroc", "auprc")
_DESCRIPTIVE_TESTS = {"", "none", "descriptive", "none (descriptive)", "nan"}
_NO_CORRECTION = {"", "none", "nan"}
#: extra result columns that name the model or stratum a row belongs to, in the order they are printed
STRATUM_COLUMNS = ("model", "dataset", "task", "question", "context", "source", "attribute", "category",
                   "specialty", "arm", "phase")

#: one entry of findings.json / one row of findings.csv (docs/report.md documents each field)
FINDING_FIELDS = (
    "kind", "rank", "audit", "run_dir", "metric", "group", "reference", "stratum", "value", "scale", "size",
    "raw", "floor", "ci_low", "ci_high", "ci_half_width", "n_cases", "n_is_cases", "n_units", "test", "p", "p_adj", "correction",
    "family", "margin", "n_needed", "n_needed_unit", "judge_caveats", "sentence", "source", "source_row",
    "section_anchor", "table_anchor", "examples", "reason", "verdict", "verdict_reason", "role",
)


# --------------------------------------------------------------------------- small helpers


def count_phrase(e: dict[str, Any], unknown: str) -> str:
    """How a findings entry names its count: "40 cases" when its row counted cases (``n_cases``), else
    "n = 168" (the row's ``n``: pairs or rows, which a sentence must not call cases)."""
    if e.get("n_cases") is None:
        return unknown
    n = int(e["n_cases"])
    return f"{n} cases" if e.get("n_is_cases", True) else f"n = {n}"


def is_descriptive(test: Any) -> bool:
    """True when a result row's ``test`` says no test was run."""
    return _text(test).lower() in _DESCRIPTIVE_TESTS


def effect_scale(metric: str, values: Iterable[Any] = ()) -> tuple[str, float]:
    """``(scale, divisor)`` of a metric: ``("proportion", 100)`` for percent metrics,
    ``("proportion", 1)`` for fractions (every finite value in [-1, 1] and no other-unit hint in the
    name), else ``("other", 1)``."""
    if "%" in metric or metric in PERCENT_METRICS:
        return "proportion", 100.0
    low = metric.lower()
    if any(h in low for h in _OTHER_UNIT_HINTS):
        return "other", 1.0
    finite = [v for v in (as_float(x) for x in values) if v is not None]
    if finite and all(abs(v) <= 1.0 for v in finite):
        return "proportion", 1.0
    return "other", 1.0


def _fmt(v: float | None, scale: str) -> str:
    """An effect as printed in a sentence: percentage points on the proportion scale, else 3 significant digits."""
    from .formatting import NOISE

    if v is None:
        return "–"
    if abs(v) < NOISE:  # floating-point noise, not a result
        return "0.0 pp" if scale == "proportion" else "0"
    if scale == "proportion":
        return f"{v * 100:+.1f} pp"
    return f"{v:+.3g}"


def format_p(p: float, alpha: float = ALPHA, bound: bool = False) -> str:
    """3 significant digits, more where rounding would cross ``alpha`` (0.04998 prints 0.04998, not 0.05);
    below 0.001 as ``< 0.001``. ``bound``: ``p`` is an upper bound (a Monte Carlo test with no draw as
    extreme, ``p_method = bound``), printed ``< p``, never as a point value."""
    if p < 0.001 or (bound and p <= 0.001):
        return "< 0.001"
    if bound:
        return f"< {p:.3g}"
    for digits in range(3, 10):
        text = f"{p:.{digits}g}"
        if (float(text) < alpha) == (p < alpha):
            break
    return f"= {text}"


# --------------------------------------------------------------------------- one run

def _read_results(run_dir: Path) -> pd.DataFrame | None:
    from ..errors import InputError

    path = Path(run_dir) / "tables" / "results.csv"
    if not path.is_file():
        return None
    try:
        df = read_store_frame(pd.read_csv(path, keep_default_na=True))
    except pd.errors.EmptyDataError:
        return None
    except (ValueError, pd.errors.ParserError) as exc:
        raise InputError(f"unreadable result table: {exc}", file=str(path)) from None
    missing = [c for c in ("metric", "value", "p") if c not in df.columns]
    if missing:
        raise InputError("not a result table (see clinaudit.stats.results)", file=str(path), field=missing[0])
    return df


def _stratum(rec: dict[str, Any]) -> dict[str, str]:
    group = _text(rec.get("group"))
    return {c: _text(rec.get(c)) for c in STRATUM_COLUMNS if _text(rec.get(c)) and _text(rec.get(c)) != group}


def _sentence(e: dict[str, Any], alpha: float = ALPHA) -> str:
    scale = e["scale"]
    who = e["metric"]
    if e["group"]:
        who += f" for {e['group']}" + (f" vs {e['reference']}" if e["reference"] else "")
    where = ", ".join(f"{k} {v}" for k, v in e["stratum"].items())
    head = f"{who}" + (f" ({where})" if where else "")
    if e["floor"] is not None and ("floor" in e["reference"].lower() or (e["floor"] != 0 and not e["reference"])):
        beyond = f" beyond its noise floor of {_fmt(e['floor'], scale).lstrip('+')}"
    elif e["floor"] is not None and e["floor"] != 0:  # a control arm, e.g. the baseline notes' rate (note generation)
        level = f"{e['floor']:.1%}" if scale == "proportion" else f"{e['floor']:.3g}"
        beyond = f" against {e['reference']}'s {level}"
    else:
        beyond = ""
    ci = f"95% CI {_fmt(e['ci_low'], scale)} to {_fmt(e['ci_high'], scale)}" \
        if e["ci_low"] is not None and e["ci_high"] is not None else "no CI"
    n = count_phrase(e, "n unknown")
    if e["p_adj"] is None and e["p"] is None:
        p = "no p-value"
    elif e["p_adj"] is not None and e["correction"]:
        p = f"p_adj {format_p(e['p_adj'], alpha, e.get('p_bound', False))} ({e['correction']} within family " \
            f"'{e['family']}')"
    else:
        p = f"p {format_p(e['p'], alpha, e.get('p_bound', False))} (no multiplicity correction)"
    if e["kind"] == "finding":
        return f"{head}: {_fmt(e['value'], scale)}{beyond} ({ci}; {n}; {e['test']}; {p})."
    need = ""
    if e["n_needed"]:
        need = (f"; settling it would need {need_phrase(e)}" if e.get("n_needed_unit") == SMALLER_GROUP_ROWS
                else f"; about {e['n_needed']} cases would be needed")
    p_eff = e["p_adj"] if e["p_adj"] is not None else e["p"]
    if p_eff is not None and p_eff < alpha:
        return (f"{head}: {_fmt(e['value'], scale)}{beyond} ({p}; {ci}; {n}; {e['test']}) is not a finding: "
                f"{e['reason']}.")
    return (f"{head}: {_fmt(e['value'], scale)}{beyond}, not significant ({p}; {ci}; {n}; {e['test']}) "
            f"but inconclusive: {e['reason']}{need}.")


def run_findings(run_dir: Path | str, *, alpha: float = ALPHA, margin: float = MARGIN,
                 audit: str | None = None) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Findings and inconclusive entries of one run directory (unranked), and the counts of skipped rows."""
    alpha, margin = check_alpha(alpha), check_margin(margin)
    run_dir = Path(run_dir)
    df = _read_results(run_dir)
    skipped = {"descriptive": 0, "no_p": 0, "not_significant": 0, "mirror": 0, "not_measured": 0, "within_margin": 0}
    if df is None or df.empty:
        return [], skipped
    caveats = judge_caveats(run_dir, df)
    min_units = _min_units(run_dir)
    scales = {m: effect_scale(str(m), pd.concat([g["value"], g.get("ci_low", pd.Series(dtype=float)),
                                                 g.get("ci_high", pd.Series(dtype=float))]))
              for m, g in df.groupby(df["metric"].astype(str), sort=False)}
    out: list[dict[str, Any]] = []
    seen: dict[tuple, float] = {}
    fam = df["family"].astype(str) if "family" in df.columns else pd.Series("", index=df.index)
    has_p = pd.to_numeric(df["p"], errors="coerce").notna()
    family_sizes = fam[has_p].value_counts().to_dict()
    for i, rec in enumerate(df.to_dict("records")):
        verdict = _text(rec.get("verdict"))
        if verdict == "not_measured":  # a validity gate failed: never a finding, never silence read as safety
            skipped["not_measured"] += 1
            continue
        role = entry_role(rec)  # primary / secondary comparison, or a level (pipeline.counts)
        if role == ROLE_MIRROR:  # repeats another row (F vs M beside M vs F): counted once, as the verdicts count
            skipped["mirror"] += 1
            continue
        # an effect row the run judged inconclusive without a test (every case agreed, so no test was run) is
        # listed too: each effect row of results.csv is in the findings, the inconclusive list or `skipped`
        untested = verdict == "inconclusive" and _text(rec.get("effect")).lower() in ("true", "1", "1.0") \
            and (is_descriptive(rec.get("test")) or as_float(rec.get("p")) is None)
        if is_descriptive(rec.get("test")) and not untested:
            skipped["descriptive"] += 1
            continue
        corrected = _text(rec.get("correction")).lower() not in _NO_CORRECTION
        p, p_adj = as_float(rec.get("p")), as_float(rec.get("p_adj"))
        p_eff = p_adj if corrected else p
        value = as_float(rec.get("value"))
        if value is None or (p_eff is None and not untested):
            skipped["no_p"] += 1
            continue
        metric = _text(rec.get("metric"))
        scale, div = scales[metric]
        group, reference = _text(rec.get("group")), _text(rec.get("reference"))
        stratum = _stratum(rec)
        key = (metric, _text(rec.get("family")), tuple(stratum.items()))
        if seen.get(key + (reference, group)) == -value:
            skipped["mirror"] += 1
            continue
        seen[key + (group, reference)] = value
        lo, hi = as_float(rec.get("ci_low")), as_float(rec.get("ci_high"))
        raw = as_float(rec.get("raw"))
        if raw is None:
            raw = as_float(rec.get("rate"))
        n_cases = as_float(rec.get("n_cases"))
        n_is_cases = n_cases is not None  # else the row's n: its units (pairs, rows), never called cases
        if n_cases is None:
            n_cases = as_float(rec.get("n"))
        floor = as_float(rec.get("floor"))
        e: dict[str, Any] = {
            "kind": "finding", "rank": 0, "audit": _text(rec.get("audit")) or (audit or ""),
            "run_dir": str(run_dir), "metric": metric, "group": group, "reference": reference, "stratum": stratum,
            "value": value / div, "scale": scale, "size": abs(value / div),
            "raw": None if raw is None else raw / div,
            "floor": None if floor is None else floor / div,
            "ci_low": None if lo is None else lo / div, "ci_high": None if hi is None else hi / div,
            "ci_half_width": None if lo is None or hi is None else (hi - lo) / 2 / div,
            "n_cases": n_cases, "n_is_cases": n_is_cases, "n_units": as_float(rec.get("n_units")), "test": _text(rec.get("test")), "p": p, "p_adj": p_adj if corrected else None,
            "correction": _text(rec.get("correction")) if corrected else "", "family": _text(rec.get("family")),
            "margin": None, "n_needed": None, "n_needed_unit": None, "judge_caveats": caveats_for(rec, caveats),
            "sentence": "", "source": "tables/results.csv", "source_row": i + 1,
            "section_anchor": "", "table_anchor": "", "examples": [], "reason": "",
            "verdict": verdict, "verdict_reason": _text(rec.get("verdict_reason")), "role": role,
            "p_bound": _text(rec.get("p_method")) == "bound",  # for the sentence only (not a findings.json field)
        }
        if p_eff is None:  # untested (above): the run's own verdict reason, and the cases that would settle it
            from ..stats.resolution import cases_to_settle

            mg = as_float(rec.get("margin"))
            units = as_float(rec.get("n_units"))
            rows = _smaller_group_rows(rec) and units is not None and units >= 1  # counted in those rows
            base = units if rows else n_cases
            need = cases_to_settle(n_cases=base if base is not None else math.nan,
                                   n_units=units or math.nan, ci_low=lo if lo is not None
                                   else math.nan, ci_high=hi if hi is not None else math.nan,
                                   margin=mg if mg is not None else math.nan,
                                   unit_scale=100.0 if (mg or 0) >= 1 else 1.0)
            e.update(kind="inconclusive", reason=e["verdict_reason"] or "no test could be run", n_needed=need,
                     n_needed_unit=(SMALLER_GROUP_ROWS if rows else "cases") if need else None, margin=mg, test=e["test"] or "no test (every case agreed)")
            out.append(e)
            continue
        if verdict == "bias" or (p_eff < alpha and verdict == ""):  # the row's verdict decides, when it has one
            out.append(e)
            continue
        if p_eff < alpha:  # significant, yet not a finding (too few units behind a group): inconclusive, says why
            from ..stats.resolution import cases_to_settle

            units = as_float(rec.get("n_units"))
            few = units is not None and n_cases is not None and units < min_units
            rows = few and _smaller_group_rows(rec) and (units or 0) >= 1  # counted in those rows
            e.update(kind="inconclusive", reason=e["verdict_reason"],
                     n_needed=cases_to_settle(n_cases=float((units if rows else n_cases) or 0),
                                              n_units=float(units or 0), min_units=min_units) if few else None,
                     n_needed_unit=(SMALLER_GROUP_ROWS if rows else "cases") if few else None)
            out.append(e)
            continue
        if verdict == "within_margin":
            skipped["within_margin"] += 1
            continue
        row_margin = _row_margin(rec, e["scale"], margin)
        why = _inconclusive(e, rec, alpha, row_margin, family_sizes.get(_text(rec.get("family")), 1))
        if why is not None:
            e.update(kind="inconclusive", margin=row_margin, **why)
            out.append(e)
        elif verdict == "inconclusive":  # listed as the verdicts count it, with the run's reason (no number to settle)
            e.update(kind="inconclusive", margin=row_margin, reason=e["verdict_reason"] or "not shown, not ruled out")
            out.append(e)
        else:
            skipped["not_significant"] += 1
    for e in out:
        e["sentence"] = _sentence(e, alpha)
        e.pop("p_bound", None)
    return out, skipped


# --------------------------------------------------------------------------- many runs

def _rank_key(e: dict[str, Any]) -> tuple:
    p = e["p_adj"] if e["p_adj"] is not None else e["p"]
    return (e["scale"] != "proportion", -e["size"], p if p is not None else 1.0)


def derive_findings(run_dirs: Sequence[Path | str], *, alpha: float = ALPHA, margin: float = MARGIN,
                    audits: Sequence[str] | None = None) -> dict[str, Any]:
    """The findings document of a report over ``run_dirs`` (the content of ``findings.json``).

    Findings are ranked by :func:`_rank_key` (proportion-scale effects first by |effect|, then other
    units by |value|; ties by p); inconclusive entries likewise, numbered separately."""
    from ..deid_groups import run_changes
    from ..deid_reach import run_sentences

    alpha, margin = check_alpha(alpha), check_margin(margin)
    findings: list[dict[str, Any]] = []
    inconclusive: list[dict[str, Any]] = []
    runs = []
    for i, d in enumerate(run_dirs):
        entries, skipped = run_findings(d, alpha=alpha, margin=margin,
                                        audit=audits[i] if audits is not None else None)
        found = [e for e in entries if e["kind"] == "finding"]
        unsure = [e for e in entries if e["kind"] == "inconclusive"]
        findings += found
        inconclusive += unsure
        runs.append({"run_dir": str(d), "audit": audits[i] if audits is not None else "",
                     "has_results": (Path(d) / "tables" / "results.csv").is_file(),
                     "findings": len(found), "inconclusive": len(unsure), "skipped": skipped,
                     # how far de-identification reached (clinaudit.deid_reach): a fact of the run, said once
                     "deid_reach": run_sentences(d),
                     # what it changed, by group and by arm (clinaudit.deid_groups): None where none was recorded
                     "deid_changes": run_changes(d)})
    findings.sort(key=_rank_key)
    inconclusive.sort(key=lambda e: (-e["size"], -(e["ci_half_width"] or 0.0)))
    for k, e in enumerate(findings, 1):
        e["rank"] = k
    for k, e in enumerate(inconclusive, 1):
        e["rank"] = k
    lines, validity = _verdicts(run_dirs, audits)
    return {
        "schema": SCHEMA,
        "headline": headline(lines),
        "verdicts": lines,
        "validity": validity,
        "rules": {
            "alpha": alpha, "margin": margin,
            "significance": f"p_adj < {alpha} within the row's correction family (p when the row names no correction); "
                            "rows without a test, or with a NaN p-value, are never findings",
            "ranking": "|effect| on the proportion scale (percent metrics / 100), proportion-scale effects first, "
                       "then other units by |value|; ties by p",
            "inconclusive": f"not significant, and (1) the test cannot reach p < {alpha} with its cases (smallest "
                            "possible p x family size under Bonferroni/Holm >= alpha), or (2) proportion scale and "
                            f"95% CI half-width h > {margin} (n_needed = ceil(n_cases * (h / margin)^2)), or (3) "
                            "proportion scale, every case shows the same difference and the exact bound "
                            f"1 - 0.025^(1/n_cases) > {margin}",
        },
        "runs": runs, "findings": findings, "inconclusive": inconclusive,
    }


def _verdicts(run_dirs: Sequence[Path | str], audits: Sequence[str] | None) -> tuple[list[dict[str, Any]],
                                                                                       dict[str, Any]]:
    """One verdict line per audit × model of every run (:func:`clinaudit.pipeline.validity.verdict_lines`) and
    each run's validity block (from its manifest; recomputed from its tables for a run made before verdicts)."""
    from ..pipeline.validity import read_validity, verdict_lines

    lines: list[dict[str, Any]] = []
    blocks: dict[str, Any] = {}
    for i, d in enumerate(run_dirs):
        audit = audits[i] if audits is not None else ""
        results, validity = read_validity(Path(d), audit)
        audit = audit or validity.get("audit", "")
        blocks[str(d)] = validity
        for line in verdict_lines(results, validity, audit):
            lines.append({**line, "run_dir": str(d)})
    return lines, blocks


def headline(lines: Sequence[dict[str, Any]]) -> str:
    """The report's first sentence, in plain words, from the verdict lines."""
    if not lines:
        return "No audit ran: nothing was measured."
    if len(lines) == 1:
        return str(lines[0]["sentence"])
    n = len(lines)
    count = {k: sum(1 for x in lines if x["verdict"] == k) for k in ("bias", "within_margin", "inconclusive",
                                                                    "not_measured")}
    if count["not_measured"] == n:
        first = lines[0]["sentence"].removeprefix("Nothing was measured: ")
        return f"Nothing was measured in any of the {n} audit × model checks: {first}"
    parts = [f"bias found in {count['bias']}" if count["bias"] else "",
             f"no bias larger than the margin in {count['within_margin']}" if count["within_margin"] else "",
             f"inconclusive in {count['inconclusive']}" if count["inconclusive"] else "",
             f"nothing measured in {count['not_measured']}" if count["not_measured"] else ""]
    text = "; ".join(p for p in parts if p)
    return f"Of {n} audit × model checks{_total(lines)}: {text}."


def _total(lines: Sequence[dict[str, Any]]) -> str:
    """" (30 primary comparisons: 0 bias, 30 inconclusive, 0 within margin)": the verdict lines' comparisons
    summed (:class:`clinaudit.pipeline.counts.ComparisonCount`), the count the sections below repeat."""
    from ..pipeline.counts import ComparisonCount

    counts = [ComparisonCount(str(x.get("role") or ""), {str(k): int(v) for k, v in (x.get("effects") or {}).items()})
              for x in lines if x.get("verdict") != "not_measured" or x.get("effects")]
    if not counts:
        return ""
    total = counts[0]
    for c in counts[1:]:
        total = total + c
    return f" ({total.phrase()})" if total.total else ""


def findings_frame(doc: dict[str, Any]) -> pd.DataFrame:
    """Findings then inconclusive entries as one flat table (``stratum`` as ``k=v; …``, caveats joined by `` | ``)."""
    rows = []
    for e in list(doc.get("findings", [])) + list(doc.get("inconclusive", [])):
        r = {k: e.get(k) for k in FINDING_FIELDS}
        r["stratum"] = "; ".join(f"{k}={v}" for k, v in (e.get("stratum") or {}).items())
        r["judge_caveats"] = " | ".join(e.get("judge_caveats") or [])
        r["examples"] = " | ".join(f"{x['case_id']} (#{x['id']})" for x in e.get("examples") or [])
        rows.append(r)
    df = pd.DataFrame(rows, columns=list(FINDING_FIELDS))
    for c in ("rank", "n_needed", "source_row"):
        df[c] = df[c].astype("Int64")
    return df


def write_findings(doc: dict[str, Any], json_path: Path, csv_path: Path) -> tuple[Path, Path]:
    """Write ``findings.json`` (UTF-8, NaN-free) and ``findings.csv`` (formula-like cells neutralised)."""
    from ..export import to_csv

    write_text(json_path, json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n")  # atomically
    to_csv(findings_frame(doc), csv_path)
    return json_path, csv_path


_GENERIC_TOKENS = {"delta", "rate", "mean", "share", "max", "min", "control", "excess", "value", "values"}


def _tokens(text: str) -> set[str]:
    import re

    return {t for t in re.split(r"[^0-9a-zα-ωδ]+", text.lower()) if len(t) >= 3}


def link_anchors(doc: dict[str, Any], runs: Sequence[Any]) -> None:
    """Fill ``section_anchor`` / ``table_anchor`` of each entry from the report's run views
    (:class:`~clinaudit.report.views.RunInfo`): the run's table (else figure) whose CSV name shares the
    most words with the metric (a metric word that starts a name word counts: ``recall_gap`` -> ``gaps``),
    the results table when the section shows one, else the run's section."""
    by_dir = {str(r.path): r for r in runs}
    for e in list(doc["findings"]) + list(doc["inconclusive"]):
        info = by_dir.get(e["run_dir"])
        if info is None:
            continue
        e["section_anchor"] = info.anchor
        words = _tokens(e["metric"]) - _GENERIC_TOKENS
        best, best_score = "", 0
        for kind_rank, kind in enumerate(("table", "figure")):
            for v in info.views:
                if v.get("type") != kind:
                    continue
                name = str(v.get("csv_name", "")).removeprefix(f"{info.audit}-")
                if kind == "table" and name.endswith("-results.csv"):
                    score = 100
                else:
                    have = _tokens(name)
                    score = sum(1 for w in words if any(h.startswith(w) for h in have))
                score = score * 2 - kind_rank if score else 0
                if score > best_score:
                    best, best_score = v["id"], score
        e["table_anchor"] = best or info.anchor


def findings_view(doc: dict[str, Any], examples: dict[int, list[dict[str, Any]]] | None = None) -> dict[str, Any]:
    """What the template's Findings section shows (plain strings; the template escapes them).
    ``examples``: side-by-side example views by finding rank (:func:`clinaudit.report.examples.finding_examples`),
    shown under the finding; a finding whose ``examples`` point at its section's own blocks links to them."""
    from .view_links import ViewLinks

    examples = examples or {}
    links = ViewLinks()

    def item(e: dict[str, Any], kind: str) -> dict[str, Any]:
        views = examples.get(e["rank"], []) if kind == "finding" else []
        return {"rank": e["rank"], "audit": e["audit"].replace("_", " "), "sentence": e["sentence"],
                "plain": _plain(e),
                "caveats": list(e["judge_caveats"]), "href": "#" + (e["table_anchor"] or e["section_anchor"] or "top"),
                "section": "#" + (e["section_anchor"] or "top"), "examples": views,
                "example_links": list(e.get("examples") or []), "view": links.finding(e)}
    verdicts = verdicts_view(doc, links)
    head = doc.get("headline", "")
    if len(verdicts) == 1:  # the one verdict's plain words (its statistics are one click away in the table)
        head = verdicts[0]["plain"]
    return {"findings": [item(e, "finding") for e in doc["findings"]],
            "inconclusive": [item(e, "inconclusive") for e in doc["inconclusive"]],
            # each list's count named as the headline names it: "120 comparisons: 30 primary, 90 secondary"
            "findings_count": roles_phrase(e.get("role", "") for e in doc["findings"]),
            "inconclusive_count": roles_phrase(e.get("role", "") for e in doc["inconclusive"]),
            "rules": doc["rules"], "error": doc.get("error", ""), "headline": head,
            "verdicts": verdicts, "deid_reach": reach_view(doc)}  # once per run, above the verdicts


def _plain(e: dict[str, Any]) -> str:
    """A finding in plain words: what, how large, how sure (the test and its correction are in ``sentence``)."""
    scale = e["scale"]
    who = e["metric"] + (f" for {e['group']}" + (f" vs {e['reference']}" if e["reference"] else "")
                         if e["group"] else "")
    where = ", ".join(f"{k} {v}" for k, v in e["stratum"].items())
    ci = (f"; 95% CI {_fmt(e['ci_low'], scale)} to {_fmt(e['ci_high'], scale)}"
          if e["ci_low"] is not None and e["ci_high"] is not None else "")
    n = count_phrase(e, "cases unknown")
    text = f"{who}" + (f" ({where})" if where else "") + f": {_fmt(e['value'], scale)} ({n}{ci})"
    if e["kind"] == "finding":
        return text + ", larger than chance explains."
    need = ""
    if e.get("n_needed"):
        need = (f"; settling it would need {need_phrase(e)}" if e.get("n_needed_unit") == SMALLER_GROUP_ROWS
                else f"; about {e['n_needed']} cases would settle it")
    return text + f": neither shown nor ruled out{need}."
