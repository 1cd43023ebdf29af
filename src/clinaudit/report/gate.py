"""``clinaudit gate RUN [--baseline RUN_B] [--policy FILE]``: the regression gate for CI pipelines and model
updates.

The gate reads verdicts; it computes no new statistics of its own:

* the run's own results (``tables/results.csv``, its ``verdict`` column: ``bias`` / ``within_margin`` /
  ``inconclusive`` / ``not_measured``, docs/verdicts.md): a row whose verdict is in the policy's
  ``fail_on`` (default: ``bias`` alone) fails the gate; by default only the audit's primary rows
  (``family_role``; the policy's ``rows: all`` adds the secondary ones) are gated;
* with a baseline: :func:`clinaudit.report.compare.compare_runs` (baseline as run A, the gated run as B,
  each metric pooled and per stratum, the policy's margins): a row that is ``worse`` **beyond its margin**
  (significantly worse after Holm over every gated comparison row, and the confidence bound of the
  worsening on its near side beyond the margin; any significant worsening for a metric without a margin)
  fails, as does any other comparison verdict listed in ``baseline.fail_on``.

Before that, the gate checks that there is something to decide (else **not gateable**, exit 3): both runs
finished (``complete …`` status; an unfinished, failed or *not measured* run is not gateable), every gated
model measured (the manifest's validity block), the results carry verdicts and at least one measured effect
row, the judges parsed at least ``validity.min_parse_rate`` of their answers and the run used at least
``validity.min_cases_used`` of its cases, its exclusions did not skew the sample (a group whose cases were
excluded significantly more often, :mod:`clinaudit.exclusion_skew`; unless ``validity.allow_skewed_sample``),
and the runs are comparable. Single effect rows that are
``not_measured`` in a run measured as a whole (a metric the run's data cannot give) are listed in
``not_measured`` (one sentence per metric and reason, with the number of rows) and printed as warnings; the policy's ``validity.not_measured`` makes them fail the gate
(``fail``) or make it not gateable (``not_gateable``).

A run with no failing row passes only when it holds evidence (the policy's ``evidence``, per audit × model):
at least ``min_settled`` (default half) of its measured effect rows settled (``bias`` or ``within_margin``) and
at most ``max_not_measured`` (default half) of its effect rows not measured. Otherwise it is **inconclusive**
(exit 4): no bias shown, none ruled out; one line per audit × model says what is missing and about how many
cases would settle it: the report's own number (the largest ``n_needed`` of its findings' inconclusive entries,
:func:`clinaudit.report.verdict_view.settle_entry`), so the gate and the report's first screen agree.

Outcome and exit status: **pass** 0, **fail** 1, **not gateable** 3, **inconclusive** 4; bad input (no such
run, a bad policy) is an :class:`~clinaudit.errors.InputError` (exit 2). The gate report (:data:`GATE_SCHEMA`)
is written as JSON.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..errors import InputError, NotComparableError
from ..pipeline.run_family import primary_rows
from ..pipeline.counts import cases_used, count_of
from .compare_check import ModelChoiceError, check_finished, read_run_manifest
from .compare_metrics import POOLED, read_run_table
from .formatting import json_ready
from .gate_policy import GatePolicy, load_policy, parse_policy
from ..atomic import write_text

__all__ = ["GATE_SCHEMA", "EXIT_CODES", "GateResult", "gate_run"]

GATE_SCHEMA = "clinaudit.gate/1"
#: outcome -> exit status of ``clinaudit gate``
EXIT_CODES = {"pass": 0, "fail": 1, "not_gateable": 3, "inconclusive": 4}


def _num(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan



@dataclass
class GateResult:
    """The gate's decision: ``outcome`` (pass / fail / not_gateable / inconclusive), ``exit_code`` (0 / 1 / 3 /
    4), ``failures`` (one dict per failing row, with its ``line``), ``reasons`` (why it is not gateable),
    ``missing`` (per audit × model without enough evidence for a pass: what is missing, with its ``line``),
    ``checked`` (rows looked at), the ``comparison`` with the baseline, and the report ``file``."""

    run: Path
    baseline: Path | None
    policy: GatePolicy
    outcome: str = "pass"
    failures: list[dict[str, Any]] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=dict)
    not_measured: list[str] = field(default_factory=list)
    missing: list[dict[str, Any]] = field(default_factory=list)
    comparison: Any = None
    file: Path | None = None

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.outcome]

    def lines(self) -> list[str]:
        """One line per failing metric row, or per reason the run is not gateable."""
        if self.outcome == "not_gateable":
            return [f"NOT GATEABLE: {r}" for r in self.reasons]
        if self.outcome == "inconclusive":
            return [m["line"] for m in self.missing]
        return [f["line"] for f in self.failures]

    def summary(self) -> str:
        if self.outcome == "not_gateable":
            return f"gate: NOT GATEABLE ({len(self.reasons)} reason(s)); exit 3"
        nm = self.checked.get("results_not_measured", 0)
        n, role = self.checked.get("results", 0), "primary" if self.checked.get("results_primary") else ""
        role = role if self.checked.get("results_primary") == n else ""
        what = count_of(n, "comparisons", role) + (f" ({nm} not measured, not gated)" if nm else "") + (
            f", {self.checked.get('comparison', 0)} comparison rows against {self.baseline}" if self.baseline else "")
        if self.outcome == "fail":
            return f"gate: FAIL ({len(self.failures)} failing row(s) of {what}); exit 1"
        if self.outcome == "inconclusive":
            return (f"gate: INCONCLUSIVE (no bias shown, but not enough evidence to pass: {what}); exit 4 "
                    "(not a pass: the policy's evidence.min_settled / evidence.max_not_measured decide)")
        return f"gate: PASS ({what} checked); exit 0"

    def to_dict(self) -> dict[str, Any]:
        """The gate report (:data:`GATE_SCHEMA`, documented in docs/verdicts.md)."""
        comp = None
        if self.comparison is not None:
            comp = {"files": {k: str(v) for k, v in self.comparison.files.items()},
                    "differences": self.comparison.info.get("differences", []),
                    "model_pairs": self.comparison.info.get("model_pairs", [])}
        return json_ready({"schema": GATE_SCHEMA, "run": str(self.run),
                       "baseline": str(self.baseline) if self.baseline else None,
                       "outcome": self.outcome, "exit_code": self.exit_code, "reasons": self.reasons,
                       "failures": self.failures, "missing": self.missing, "not_measured": self.not_measured,
                       "checked": self.checked,
                       "policy": self.policy.model_dump(),
                       "comparison": comp})

    def __repr__(self) -> str:
        return f"GateResult({self.outcome}, exit {self.exit_code}: {self.run}" + (
            f" against {self.baseline}" if self.baseline else "") + f"; {len(self.failures)} failure(s))"

    def _repr_html_(self) -> str:
        from markupsafe import escape

        color = {"pass": "#1a7f37", "fail": "#b42318", "not_gateable": "#9a6700", "inconclusive": "#9a6700"}[
            self.outcome]
        items = "".join(f"<li>{escape(x)}</li>" for x in self.lines())
        return (f"<div class=\"clinaudit-gate\"><p><strong style=\"color:{color}\">{escape(self.summary())}"
                f"</strong></p>{f'<ul>{items}</ul>' if items else ''}</div>")


def _role(rows: pd.DataFrame) -> pd.Series:
    """Each row's ``family_role`` ("" without one)."""
    if "family_role" not in rows.columns:
        return pd.Series("", index=rows.index, dtype=object)
    return rows["family_role"].fillna("").astype(str)


def _results_failures(results: pd.DataFrame, run: Path, policy: GatePolicy, res: GateResult,
                      manifest: dict[str, Any] | None = None) -> None:
    if "verdict" not in results.columns:
        res.reasons.append(f"run {run}: tables/results.csv has no verdict column (a run made before verdicts); "
                           "re-run it with this clinaudit")
        return
    rows = results
    if "effect" in rows.columns:
        rows = rows[rows["effect"].astype(str).str.lower().isin(["true", "1", "1.0"])]
    rows = rows[[policy.gates(m) for m in rows["metric"].astype(str)]] if len(rows) else rows
    rows = primary_rows(rows, include_secondary=policy.rows == "all")  # the primary question decides by default
    res.checked["results"] = int(len(rows))
    res.checked["results_primary"] = int((_role(rows) == "primary").sum())  # named "primary comparisons" when all
    if not len(rows):
        res.reasons.append(f"run {run}: no effect rows to gate in tables/results.csv")
        return
    if (rows["verdict"].astype(str) == "not_measured").all():
        res.reasons.append(f"run {run}: none of its {len(rows)} effect rows was measured")
    skipped: dict[str, int] = {}  # "who metric: not measured (why)" -> rows, one warning per metric and reason
    for r in rows.to_dict("records"):
        v = str(r.get("verdict") or "")
        who = " ".join(str(r.get(k)) for k in ("audit", "model") if str(r.get(k) or "").strip() not in ("", "nan"))
        grp = str(r.get("group") or "")
        ref = str(r.get("reference") or "")
        what = _row_name(r)
        why = str(r.get("verdict_reason") or "")
        why = "" if why == "nan" else why
        entry = {"source": "results", "audit": r.get("audit"), "model": r.get("model"), "metric": r.get("metric"),
                 "group": grp, "reference": ref, **{k: _text(r.get(k)) for k in _STRATA if k in r},
                 "verdict": v, "value": _num(r.get("value")),
                 "ci_low": _num(r.get("ci_low")), "ci_high": _num(r.get("ci_high")), "p_adj": _num(r.get("p_adj")),
                 "margin": _num(r.get("margin")), "reason": why}
        if v == "not_measured":
            mode = policy.validity.not_measured
            text = f"{who} {what}: not measured ({why or 'a validity gate failed'})".strip()
            if mode == "not_gateable":
                res.reasons.append(text)
            elif mode == "fail":
                entry["line"] = f"FAIL {who} {what}: not_measured ({why})".strip()
                res.failures.append(entry)
            else:
                key = f"{who} {r.get('metric')}: not measured ({why or 'a validity gate failed'})".strip()
                skipped[key] = skipped.get(key, 0) + 1
        elif v in policy.fail_on:
            value = entry["value"]
            ci = f"{value:.4g} [95% CI {entry['ci_low']:.4g}, {entry['ci_high']:.4g}]" if not math.isnan(value) else ""
            entry["line"] = f"FAIL {who} {what}: {v} {ci}".rstrip() + (f" ({why})" if why else "")
            res.failures.append(entry)
    res.not_measured += [k.replace(": not measured", f": {n} row(s) not measured", 1) for k, n in skipped.items()]
    if skipped:
        res.checked["results_not_measured"] = sum(skipped.values())
    manifest = manifest or {}
    _evidence(rows, run, str(manifest.get("audit") or (manifest.get("spec") or {}).get("audit") or ""), policy, res,
              manifest.get("validity") or {})


_STRATA = ("perturbation", "question", "attribute", "setting", "dataset")


def _text(v: Any) -> str:
    t = "" if v is None else str(v).strip()
    return "" if t in ("nan", "None") else t


def _row_name(r: dict[str, Any]) -> str:
    """``TSR (uppercase vs noise_floor; question MANAGE)``: the metric, its group and reference, and every stratum
    of the row (perturbation, question, ...) its group does not already name."""
    grp, ref = _text(r.get("group")), _text(r.get("reference"))
    parts = [grp + (f" vs {ref}" if ref else "")] if grp else []
    parts += [f"{k} {_text(r.get(k))}" for k in _STRATA
              if k != "dataset" and _text(r.get(k)) and _text(r.get(k)) not in (grp, ref)]
    return f"{r.get('metric')}" + (f" ({'; '.join(parts)})" if parts else "")


def _cases(r: dict[str, Any]) -> float:
    """The row's cases: ``n_cases``, else ``n``."""
    n = _num(r.get("n_cases"))
    return _num(r.get("n")) if math.isnan(n) else n


def _evidence(rows: pd.DataFrame, run: Path, audit: str, policy: GatePolicy, res: GateResult,
              validity: Mapping[str, Any] | None = None) -> None:
    """Per audit × model, what a pass lacks (policy ``evidence``): too few settled rows, too many not measured;
    each with about how many cases would settle its inconclusive comparisons — the report's own number (its findings
    entries' ``n_needed``, :func:`clinaudit.report.verdict_view.settle_entry`; for a classifier gap in rows of
    its smaller group), so the gate line and
    the report's first screen say the same."""
    from .findings import run_findings
    from .verdict_view import SMALLER_GROUP_ROWS, entries_of, need_phrase, settle_entry

    need = policy.evidence
    keys = [c for c in ("audit", "model") if c in rows.columns]
    groups = rows.groupby([rows[c].astype(str) for c in keys], sort=False) if keys else [((), rows)]
    entries: list[dict[str, Any]] | None = None
    several = "model" in rows.columns and rows["model"].astype(str).nunique() > 1
    for key, g in groups:
        verdicts = g["verdict"].astype(str)
        total = len(g)
        nm = int((verdicts == "not_measured").sum())
        measured = total - nm
        settled = int(verdicts.isin(["bias", "within_margin"]).sum())
        if not measured:
            continue  # nothing measured for it: a not-gateable reason or a warning already
        lacking = []
        noun = "primary comparisons" if (_role(g) == "primary").all() else "comparisons"  # as pipeline.counts names
        if settled / measured < need.min_settled:
            lacking.append(f"{measured - settled} of {measured} measured {noun} are inconclusive (no bias shown, "
                           f"none ruled out; a pass needs at least {need.min_settled:.0%} settled)")
        if nm / total > need.max_not_measured:
            lacking.append(f"{nm} of {total} {noun} were not measured (a pass allows at most "
                           f"{need.max_not_measured:.0%})")
        if not lacking:
            continue
        if entries is None:  # the report's findings entries of the run, only when a line needs them
            try:
                found = run_findings(run, audit=audit)[0]
            except InputError:  # a results table the report cannot read (no p column): no estimate either
                found = []
            entries = [e for e in found if e["kind"] == "inconclusive" and policy.gates(str(e["metric"]))]
        audit_k = _text(g["audit"].iloc[0]) if "audit" in g else None
        model_k = _text(g["model"].iloc[0]) if several else None
        mine = entries_of(entries, audit_k, model_k)
        top = settle_entry(mine)
        cases = int(top["n_needed"]) if top is not None else None
        if validity:  # the first screen's count (pipeline.validity.cases_used): cases, never pairs
            block = (validity.get("models") or {}).get(model_k or _text(g["model"].iloc[0]) if "model" in g else "",
                                                       {})
            used = float(cases_used(g, block, validity.get("cases") or {})) or math.nan
        else:  # a run without a validity block: the rows' own counts
            used = max((c for c in map(_cases, g.to_dict("records")) if not math.isnan(c)), default=math.nan)
        if top is not None and top.get("n_needed_unit") == SMALLER_GROUP_ROWS:  # a classifier gap
            settle = f"; settling its inconclusive comparisons would need {need_phrase(top)}"
        else:
            settle = (f"; about {cases} cases would settle its inconclusive comparisons" +
                      (f" (this run used {int(used)})" if not math.isnan(used) else "")) if cases else ""
        unknown = sum(1 for e in mine if not e.get("n_needed"))
        if unknown:
            settle += (f"; {unknown} inconclusive {'comparison has' if unknown == 1 else 'comparisons have'} no "
                       "estimate of the cases needed (a margin for the "
                       "metric, or a CI, is missing)")
        who = " ".join(k for k in (key if isinstance(key, tuple) else (key,)) if _text(k))
        line = f"INCONCLUSIVE {who}: " + "; ".join(lacking) + settle
        res.missing.append({"audit": _text(g["audit"].iloc[0]) if "audit" in g else "",
                            "model": _text(g["model"].iloc[0]) if "model" in g else "",
                            "effect_rows": total, "measured": measured, "settled": settled, "not_measured": nm,
                            "cases_needed": cases,
                            "cases_used": None if math.isnan(used) else int(used), "line": line})


def _validity_reasons(manifest: dict[str, Any], run: Path, policy: GatePolicy, res: GateResult) -> None:
    block = manifest.get("validity") or {}
    blocks = block if isinstance(block, list) else [block]
    need = policy.validity
    for b in blocks:
        if not isinstance(b, dict):
            continue
        for model, m in (b.get("models") or {}).items():
            if isinstance(m, dict) and m.get("measured") is False:
                why = "; ".join(str(x) for x in m.get("reasons") or []) or "its validity gates failed"
                res.reasons.append(f"run {run}: model {model} was not measured ({why})")
        if need.min_parse_rate is not None:
            for j in b.get("judges") or []:
                rate = _num(j.get("parse_rate"))
                if j.get("jury") != "member" and j.get("items") and not rate >= need.min_parse_rate:
                    res.reasons.append(f"run {run}: judge '{j.get('judge')}' parsed {j.get('parsed')} of "
                                       f"{j.get('items')} answers ({rate:.0%} < the policy's min_parse_rate "
                                       f"{need.min_parse_rate:.0%})")
        if not need.allow_skewed_sample:  # exclusions that dropped one group more often (exclusion_skew)
            for sk in (b.get("exclusions_by_group") or {}).get("skewed") or []:
                res.reasons.append(f"run {run}: {sk.get('line') or 'sample skewed by exclusions'} (the policy's "
                                   "validity.allow_skewed_sample is false)")
        cases = b.get("cases") or {}
        if need.min_cases_used is not None and cases.get("given"):
            share = _num(cases.get("used")) / _num(cases.get("given"))
            if not share >= need.min_cases_used:
                res.reasons.append(f"run {run}: used {cases.get('used')} of {cases.get('given')} cases "
                                   f"({share:.0%} < the policy's min_cases_used {need.min_cases_used:.0%})")
    if (need.min_parse_rate is not None or need.min_cases_used is not None) and not any(
            isinstance(b, dict) and b for b in blocks):
        res.reasons.append(f"run {run}: the manifest has no validity block to hold against the policy's validity "
                           "thresholds")


def _gate_p(t: pd.DataFrame) -> Any:
    """Per gated comparison row: Holm over the raw ``p`` of every gated row (pooled and per stratum, every
    metric and model pair: the family the gate's one decision summarises), never below the row's own
    ``p_adj``."""
    import numpy as np

    from ..stats.core import correct_pvalues

    if not len(t):
        return np.array([], dtype=float)
    raw = pd.to_numeric(t["p"], errors="coerce").to_numpy(dtype=float)
    adj = pd.to_numeric(t["p_adj"], errors="coerce").to_numpy(dtype=float)
    return np.fmax(correct_pvalues(raw, method="holm"), adj)


def _worse_beyond(r: dict[str, Any], p_gate: float, margin: float, alpha: float = 0.05) -> bool:
    """A ``worse`` comparison row fails the gate when it is significantly worse over every gated row
    (``p_gate < alpha``) and, for a metric with a margin, its confidence bound on the worse side lies beyond
    the margin (the lower bound of the worsening exceeds it: a one-sided test of "worse by more than the
    margin" at ``alpha / 2``), with ``bound_low``/``bound_high`` (:func:`clinaudit.report.compare.margin_interval`)
    and the tolerance of :func:`clinaudit.stats.verdicts.inside_margin`."""
    from ..stats.verdicts import MARGIN_TOL

    if not p_gate < alpha:
        return False
    if math.isnan(margin):
        return True
    lo = _num(r.get("beyond_low", r.get("ci_low")))
    hi = _num(r.get("beyond_high", r.get("ci_high")))
    tol = MARGIN_TOL * max(1.0, abs(margin))
    if _num(r["difference"]) > 0:  # higher is worse for this metric (direction "lower")
        return lo > margin + tol
    return hi < -margin - tol


def _comparison_failures(comp: Any, policy: GatePolicy, res: GateResult) -> None:
    t = comp.table
    if not policy.baseline.strata:
        t = t[t["stratum"] == POOLED]
    t = t[[policy.gates(m) for m in t["metric"].astype(str)]] if len(t) else t
    res.checked["comparison"] = int(len(t))
    several = comp.table["model_b"].nunique() > 1
    p_gate = _gate_p(t)
    for i, r in enumerate(t.to_dict("records")):
        v = str(r["verdict"])
        if v not in policy.baseline.fail_on:
            continue
        margin, diff = _num(r["margin"]), _num(r["difference"])
        if v == "worse" and not _worse_beyond(r, float(p_gate[i]), margin):
            continue  # not shown to be worse by more than the margin (or not over every gated row)
        where = "" if r["stratum"] == POOLED else f" [{r['stratum']} = {r['level']}]"
        who = f"{r['model_b']}: " if several else ""
        sc = r["scale"]
        fmt = (lambda x: f"{x * 100:+.1f} pp") if sc == "proportion" else (lambda x: f"{x:+.4g}")
        mtxt = "no margin" if math.isnan(margin) else f"margin ±{fmt(margin).lstrip('+')}"
        line = (f"FAIL {who}{r['metric']}{where}: {v} than the baseline, B − A {fmt(diff)} "
                f"[95% CI {fmt(_num(r['ci_low']))}, {fmt(_num(r['ci_high']))}], p_adj {_num(r['p_adj']):.3g}, {mtxt}")
        res.failures.append({"source": "baseline", "audit": r["audit"], "model": r["model_b"],
                             "model_baseline": r["model_a"], "metric": r["metric"], "stratum": r["stratum"],
                             "level": r["level"], "verdict": v, "difference": diff, "ci_low": _num(r["ci_low"]),
                             "ci_high": _num(r["ci_high"]), "p_adj": _num(r["p_adj"]), "margin": margin,
                             "line": line})


def gate_run(run: str | Path, baseline: str | Path | None = None, policy: str | Path | dict[str, Any] | GatePolicy |
             None = None, out: str | Path | None = None, *, n_resamples: int = 2000, n_permutations: int = 9999,
             seed: int = 0, write: bool = True) -> GateResult:
    """Gate ``run`` (against ``baseline``) under ``policy`` (a YAML file, a mapping, a :class:`GatePolicy` or
    ``None`` for the default); see the module doc. Writes ``gate.json`` (and, with a baseline, the
    comparison's files under ``comparison/``) into ``out`` (default ``RUN/gate``) unless ``write`` is
    False. Raises :class:`~clinaudit.errors.InputError` for bad input (no such run, bad policy or options);
    every other outcome is in the returned :class:`GateResult`."""
    from ..checks import check_int

    pol = load_policy(policy) if isinstance(policy, (str, Path)) else parse_policy(policy)
    n_resamples, n_permutations = check_int(n_resamples, "n_resamples"), check_int(n_permutations, "n_permutations")
    seed = check_int(seed, "seed", minimum=0)
    run = Path(run)
    base = None if baseline is None else Path(baseline)
    manifest = read_run_manifest(run)
    if base is not None:
        read_run_manifest(base)
    res = GateResult(run=run, baseline=base, policy=pol)
    out_dir = Path(out) if out is not None else run / "gate"
    try:
        check_finished(run, manifest)
    except NotComparableError as exc:
        res.reasons.append(str(exc))
    else:
        _results_failures(read_run_table(run, "results"), run, pol, res, manifest)
        _validity_reasons(manifest, run, pol, res)
    if base is not None and not res.reasons:
        from .compare import compare_runs

        audit = str(manifest.get("audit") or (manifest.get("spec") or {}).get("audit") or "")
        margins = {k: v for k, v in pol.margins.items() if "/" not in k or k.split("/", 1)[0] == audit}
        try:
            res.comparison = compare_runs(base, run, out_dir / "comparison" if write else None, margins=margins,
                                          n_resamples=n_resamples, n_permutations=n_permutations, seed=seed)
        except (NotComparableError, ModelChoiceError) as exc:
            res.reasons.append(f"the runs are not comparable: {exc}")
        else:
            _comparison_failures(res.comparison, pol, res)
    res.outcome = ("not_gateable" if res.reasons else "fail" if res.failures else
                   "inconclusive" if res.missing else "pass")
    if write:
        out_dir.mkdir(parents=True, exist_ok=True)
        res.file = out_dir / "gate.json"
        write_text(res.file, json.dumps(res.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n")
    return res
