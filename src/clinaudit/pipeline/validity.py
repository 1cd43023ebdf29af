"""Validity gates and verdicts of a finished run (docs/verdicts.md).

After an audit's stages have written their tables, :func:`assess_run` measures what the run
actually measured, per audit and model — cases used of cases given (each exclusion reason
counted), judge parse rate per judge (and juror), failed and empty calls per model, pairs per
arm — holds it against the thresholds of the spec's ``verdicts:`` section, and gives every row
of ``tables/results.csv`` a ``verdict`` (``bias`` / ``within_margin`` / ``inconclusive`` /
``not_measured``, :mod:`clinaudit.stats.verdicts`) with ``verdict_reason``, ``margin`` and
``effect``. The validity block goes into the manifest (``validity``) and findings.json.

A run in which no row could be measured is not ``complete``: :func:`run_status` says why and
``clinaudit run`` exits 3.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..spec import VerdictSettings
from .attributes import audit_has_param, unmeasured_attributes
from .counts import cases_used, count_comparisons
from .judge_parse import judge_fix, judge_parse_rates
from .run_family import primary_note, primary_rows, run_level
from ..stats.power import power_note
from ..stats.resolution import with_floor_note
from ..stats.results import cell_float as _num

__all__ = ["VerdictSettings", "VALIDITY_VERSION", "measure_validity", "assign_verdicts", "assess_tables",
           "assess_run", "run_status", "cases_used", "NOT_MEASURED_STATUS", "VERDICT_LABELS", "verdict_lines", "read_validity",
           "exclusions_by_group", "NOT_MEASURED_REASON", "not_measured_notes"]

VALIDITY_VERSION = 1
NOT_MEASURED_STATUS = "not measured"
#: a result-table column an audit sets on a row it could not measure: the row's verdict is not_measured, this reason
NOT_MEASURED_REASON = "not_measured_reason"
_ARM_COLUMNS = ("perturbation", "arm", "group", "attacker")


def _blank(s: pd.Series) -> pd.Series:
    return s.isna() | (s.astype(str).str.strip() == "")


def _calls(responses: pd.DataFrame) -> dict[str, dict[str, int]]:
    if responses.empty or "model" not in responses.columns:
        return {}
    err = ~_blank(responses["error"]) if "error" in responses.columns else pd.Series(False, index=responses.index)
    empty = (~err) & (_blank(responses["text"]) if "text" in responses.columns else False)
    out = {}
    for model, idx in responses.groupby(responses["model"].astype(str)).groups.items():
        out[str(model)] = {"calls": int(len(idx)), "failed": int(err[idx].sum()), "empty": int(empty[idx].sum())}
    return out


def _cases(cases: pd.DataFrame, paired: pd.DataFrame, exclusions: pd.DataFrame) -> dict[str, Any]:
    given = set(cases["case_id"].astype(str)) if "case_id" in cases.columns else set()
    excluded: dict[str, int] = {}
    if not exclusions.empty and "reason" in exclusions.columns:
        for (stage, reason), n in exclusions.groupby(["stage", "reason"], sort=True).size().items():
            excluded[f"{stage}: {reason}"] = int(n)
        early = exclusions[exclusions["stage"].astype(str).isin(["cases", "load", "data"])] \
            if "stage" in exclusions.columns else exclusions.iloc[0:0]
        given |= set(early["case_id"].dropna().astype(str)) - {""}
    used = set(paired["case_id"].astype(str)) if "case_id" in paired.columns else set()
    return {"given": len(given | used), "used": len(used), "excluded": excluded}


def measure_validity(tables: Mapping[str, pd.DataFrame], audit: str, settings: VerdictSettings,
                     models: list[str] | None = None) -> dict[str, Any]:
    """The validity block of one audit from its stage tables (``cases``, ``responses``, ``judgments``,
    ``paired``, ``exclusions``, ``results``); ``models``: the audited (target) models."""
    def get(name: str) -> pd.DataFrame:
        return tables.get(name, pd.DataFrame())

    paired, results = get("paired"), get("results")
    calls, judges = _calls(get("responses")), judge_parse_rates(get("judgments"), get("responses"))
    reasons: list[str] = []
    warnings: list[str] = []
    gated = [j for j in judges if j["jury"] != "member"]  # jurors are reported; the jury's decision is gated
    most = max((j["items"] for j in gated), default=0)
    for j in sorted(gated, key=lambda j: -j["items"]):  # the judge of most answers first
        if j["items"] and j["parse_rate"] < settings.min_parse_rate:
            if j["jury"] == "decision":
                who = f"the jury of '{j['judge']}'"
            else:
                who = f"the judge '{j['judge']}'" + (f" ({j['judge_model']})" if j["judge_model"] else "")
            if j["jury"] == "decision" and j["ties"]:  # the jurors' answers parsed: they disagreed
                line = (f"{who} decided {j['parsed']} of {j['items']} items: {j['ties']} tied (its jurors' answers "
                        f"parsed, but no verdict had a majority)"
                        + (f", {j['unparseable'] + j['errors']} had no parsed verdict"
                           if j["unparseable"] + j["errors"] else "")
                        + f" (decided {j['parse_rate']:.0%} < {settings.min_parse_rate:.0%})")
            else:
                line = (f"{who} could parse {j['parsed']} of {j['items']} answers "
                        f"(parse rate {j['parse_rate']:.0%} < {settings.min_parse_rate:.0%})")
            line += judge_fix(j)
            # a main judge (at least half as many answers as the busiest) gates the audit; a side judge
            # (e.g. one language-disparity check beside the incidence judge) is a warning: its own
            # metrics have no usable value and are not measured row by row
            (reasons if 2 * j["items"] >= most else warnings).append(line)
    targets = list(models or [])
    if not targets and "model" in results.columns:
        targets = sorted(set(results["model"].dropna().astype(str)) - {""})
    for model, c in sorted(calls.items()):
        if model in targets:
            continue
        if c["calls"] and c["failed"] + c["empty"] >= c["calls"]:
            reasons.append(f"every call to {model} failed or came back empty ({c['failed']} failed, {c['empty']} "
                           f"empty of {c['calls']})")
    if paired.empty:
        reasons.append("no usable pairs (tables/paired.csv is empty)")
    per_model: dict[str, Any] = {}
    for model in targets:
        sub = paired[paired["model"].astype(str) == model] if "model" in paired.columns else paired
        arm = next((c for c in _ARM_COLUMNS if c in sub.columns), None)
        why: list[str] = []
        mc = calls.get(model)
        if mc and mc["calls"] and mc["failed"] + mc["empty"] >= mc["calls"]:
            why.append(f"every call to {model} failed or came back empty ({mc['failed']} failed, {mc['empty']} "
                       f"empty of {mc['calls']})")
        if not paired.empty and sub.empty:
            why.append(f"no usable pairs for {model}")
        per_model[model] = {
            "pairs": int(len(sub)),
            "pairs_per_arm": ({str(k): int(v) for k, v in sub.groupby(sub[arm].astype(str)).size().items()}
                              if arm and len(sub) else {}),
            "cases_used": int(sub["case_id"].astype(str).nunique()) if "case_id" in sub.columns else 0,
            "calls": mc or {"calls": 0, "failed": 0, "empty": 0},
            "reasons": why,
        }
    return {"audit": audit, "cases": _cases(get("cases"), paired, get("exclusions")), "judges": judges,
            "calls": calls, "models": per_model, "reasons": reasons, "warnings": warnings, "measured": not reasons}


def _units(results: pd.DataFrame, decls: Mapping[tuple[str, str], Any]) -> pd.Series:
    """Per row: the independent units behind its smallest group (declared reader, else n_cases, else n)."""
    n_cases = pd.to_numeric(results["n_cases"], errors="coerce") if "n_cases" in results.columns else None
    units = pd.to_numeric(results["n"], errors="coerce").astype(float)
    if n_cases is not None:
        units = n_cases.where(n_cases.notna(), units)
    for (audit, metric), d in decls.items():
        if d is None or d.group_units is None:
            continue
        mask = (results["audit"].astype(str) == audit) & (results["metric"].astype(str) == metric)
        if mask.any():
            got = pd.to_numeric(d.group_units(results[mask]), errors="coerce")
            units[mask] = got.where(got.notna(), units[mask])
    return units


def assign_verdicts(results: pd.DataFrame, validity: Mapping[str, Any], settings: VerdictSettings,
                    run_audit: str = "") -> pd.DataFrame:
    """``results`` with ``verdict``, ``verdict_reason``, ``margin``, ``effect`` and ``n_units`` on every row."""
    from ..metrics.declared import declaration_for
    from ..stats.power import row_mde
    from ..stats.resolution import row_p_kind, run_floor_note
    from ..stats.verdicts import row_paired_interval, row_verdict

    out = results.copy()
    if out.empty:
        for col, dtype in (("verdict", object), ("verdict_reason", object), ("margin", float), ("effect", bool),
                           ("n_units", float), ("p_run", float), ("run_family", object), ("family_role", object),
                           ("p_run_floor", float), ("run_note", object), ("eq_low", float), ("eq_high", float),
                           ("eq_method", object), ("p_kind", object), ("p_min", float), ("mde", float)):
            out[col] = pd.Series(dtype=dtype)
        return out
    audits = out["audit"].fillna("").astype(str).replace("", run_audit) if "audit" in out.columns \
        else pd.Series(run_audit, index=out.index)
    out["audit"] = audits
    keys = {(a, str(m)) for a, m in zip(audits, out["metric"].astype(str))}
    decls = {k: declaration_for(*k) for k in keys}
    units = _units(out, decls)
    audit_why = "; ".join(validity.get("reasons", []))
    models = validity.get("models", {})
    # the run-level family: effect rows whose test can make a finding (not a sentence-level test)
    in_run = pd.Series([_is_effect(r, decls) and str(r.get("test_unit") or "") != "sentence"
                        for r in out.to_dict("records")], index=out.index, dtype=bool)
    effects_all = pd.Series([_is_effect(r, decls) for r in out.to_dict("records")], index=out.index, dtype=bool)
    p_run, run_family, run_size, roles, fam_key = run_level(out, effects_all, in_run, settings.primary_selectors(),
                                                            decls)
    floor, floor_limit, floor_draws = _run_floor(out, fam_key, run_size)
    verdicts, reasons, margins, effects, notes = [], [], [], [], []
    eq: list[dict[str, object]] = []  # per row: its equivalence interval, and mde (80% power, stats.power)
    for i, row in enumerate(out.to_dict("records")):
        audit, metric = str(row["audit"]), str(row["metric"])
        d = decls.get((audit, metric))
        p_adj = row.get("p_adj", math.nan)
        if p_adj is None or (isinstance(p_adj, float) and math.isnan(p_adj)):
            p_adj = row.get("p", math.nan)
        if d is not None:
            effect, direction, null = d.effect, d.direction, d.null
            margin = settings.margin_for(audit, metric, d.default_margin)
            unit_scale = {"proportion": 1.0, "percent": 100.0}.get(d.scale, 0.0)
        else:  # undeclared: an effect when it has a test or a reference; no margin unless the spec sets one
            effect = _is_effect(row, decls)
            direction, null, unit_scale = "two_sided", 0.0, 0.0
            margin = settings.margin_for(audit, metric, None)
        model = str(row.get("model") or "")
        model_why = "; ".join(models.get(model, {}).get("reasons", [])) if model else ""
        alpha = settings.alpha  # the spec's verdicts.alpha when set; else the level the audit wrote on its row
        row_alpha = _row_alpha(row.get("alpha"))
        if "alpha" not in settings.model_fields_set and row_alpha is not None:
            alpha = row_alpha
        sentence_level = str(row.get("test_unit") or "") == "sentence"
        paired = row_paired_interval(row, alpha) if null == 0 else None  # the effect is its value: eq_* hold
        detail: dict[str, object] = {"eq_low": math.nan, "eq_high": math.nan, "eq_method": ""}
        own_why = _own_reason(row)
        if audit_why or model_why or own_why:
            verdict, reason = "not_measured", "; ".join(x for x in (audit_why, model_why, own_why) if x)
        elif sentence_level:  # its test treats units that share a cluster as independent: never a finding
            verdict, reason = row_verdict(
                value=row.get("value", math.nan), null=null, ci_low=row.get("ci_low", math.nan),
                ci_high=row.get("ci_high", math.nan), p_adj=math.nan, n_units=float(units.iloc[i]),
                direction=direction, margin=margin, unit_scale=unit_scale, alpha=alpha,
                min_units=settings.min_units, effect=effect)
            if verdict == "inconclusive":
                reason = ("a sentence-level test (the sentences of one frame are not independent) is not a finding; "
                          "the frame-level test (sign-flip) decides bias; " + reason)
        else:
            verdict, reason = row_verdict(
                value=row.get("value", math.nan), null=null, ci_low=row.get("ci_low", math.nan),
                ci_high=row.get("ci_high", math.nan), p_adj=p_adj, n_units=float(units.iloc[i]),
                direction=direction, margin=margin, unit_scale=unit_scale, alpha=alpha,
                min_units=settings.min_units, effect=effect, p_run=float(p_run.iloc[i]),
                run_family_size=int(run_size.iloc[i]), rate=row.get("raw", math.nan),
                floor=row.get("floor", math.nan), paired=paired, detail=detail)
        row_note = row.get("note")
        if verdict == "not_measured" and reason.startswith("no value") and isinstance(row_note, str) and row_note \
                and row_note not in reason:  # the audit's own word on why the row has no value (RCER: no labels)
            reason = f"no value: {row_note}"
        if verdict == "inconclusive" and "no noise floor" in str(row.get("note") or "") and \
                not str(row.get("test") or "").strip():
            reason = ("no noise floor (one baseline answer per case): the rate cannot be separated from sampling "
                      "noise, so it is never bias; re-sample the baseline (two or more seeds per case) to test it; "
                      + reason)
        draws = None if math.isnan(floor_draws.iloc[i]) else float(floor_draws.iloc[i])
        note = run_floor_note(float(floor.iloc[i]), int(run_size.iloc[i]), alpha, str(floor_limit.iloc[i]),
                              draws, settable=_has_option(audit, "n_permutations")) \
            if run_size.iloc[i] and not math.isnan(floor.iloc[i]) else ""
        if note and verdict != "not_measured":
            reason = f"{note}; {reason}"
        notes.append(note)
        eq.append({**detail, "mde": row_mde(row, alpha=alpha, family_size=max(int(run_size.iloc[i]), 1),
                                            direction=direction, margin=margin) if effect else math.nan})
        verdicts.append(verdict)
        reasons.append(reason)
        margins.append(math.nan if margin is None else float(margin))
        effects.append(bool(effect))
    out["verdict"], out["verdict_reason"], out["margin"], out["effect"] = verdicts, reasons, margins, effects
    out["n_units"] = units.to_numpy(dtype=float)  # independent units behind the row's smallest group
    out["p_run"], out["run_family"] = p_run.to_numpy(dtype=float), run_family.to_numpy(dtype=object)
    out["family_role"] = roles.to_numpy(dtype=object)
    out["p_run_floor"], out["run_note"] = floor.to_numpy(dtype=float), notes
    for col in ("eq_low", "eq_high", "eq_method", "mde"):  # the interval each row's margin was held against, mde
        out[col] = [d[col] for d in eq]
    kinds = [row_p_kind(r) for r in out.to_dict("records")]  # exact or Monte Carlo p, and its smallest value
    out["p_kind"], out["p_min"] = [k[0] for k in kinds], [k[1] for k in kinds]
    return out


def _own_reason(row: Mapping[str, Any]) -> str:
    """The reason an audit wrote on a row it could not measure (``not_measured_reason``: e.g. a perturbation with
    too few valid rewrites, a declared attribute with too few cases per group), '' where none."""
    x = row.get(NOT_MEASURED_REASON)
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return str(x).strip()


def not_measured_notes(rows: pd.DataFrame) -> list[str]:
    """The distinct reasons the audit wrote on its rows that it could not measure (first screen, terminal)."""
    if NOT_MEASURED_REASON not in rows.columns or not len(rows):
        return []
    return list(dict.fromkeys(r for r in (_own_reason(x) for x in rows.to_dict("records")) if r))


def _row_alpha(x: Any) -> float | None:
    """A significance level an audit wrote on its row (``alpha`` column, e.g. ``association --alpha``)."""
    try:
        a = float(x)
    except (TypeError, ValueError):
        return None
    return a if 0 < a < 1 else None


def _is_effect(row: Mapping[str, Any], decls: Mapping[tuple[str, str], Any]) -> bool:
    """A comparison (its declaration says so; undeclared: it has a test or a reference)."""
    d = decls.get((str(row["audit"]), str(row["metric"])))
    if d is not None:
        return bool(d.effect)
    return bool(str(row.get("test") or "").strip()) or bool(str(row.get("reference") or "").strip())


def _has_option(audit: str, option: str) -> bool:
    """Whether the registered audit ``audit`` has the parameter ``option`` (True when the audit is unknown here,
    e.g. results read back without its plugin: the note then names the option as before)."""
    has = audit_has_param(audit, option)
    return True if has is None else has


def _run_floor(results: pd.DataFrame, fam_key: pd.Series, size: pd.Series) -> tuple[pd.Series, pd.Series, pd.Series]:
    """The smallest p_run each run-level family can reach, whatever the data: (floor, what sets it, its draws).

    Holm's first step multiplies the family's smallest p by its size m, and no test gives p below its floor
    (:func:`clinaudit.stats.resolution.row_p_floor`: 1/(R + 1) for R Monte Carlo permutations, the exact
    floor of the paired layer's tests with their cases), so no p_run is below m × the smallest floor. NaN when
    a row's floor is not known (its test could reach any p). ``fam_key``, ``size``: each row's Holm family and
    its size m (:func:`clinaudit.pipeline.run_family.run_level`; "" outside one; a mirrored row is in its twin's
    family but not counted in m); a secondary family's floor is never below its audit's primary family's (the
    gate)."""
    from ..stats.resolution import row_p_kind

    floor = pd.Series(math.nan, index=results.index, dtype=float)
    limit = pd.Series("", index=results.index, dtype=object)
    draws = pd.Series(math.nan, index=results.index, dtype=float)
    if not len(results) or "p" not in results.columns:
        return floor, limit, draws
    eff = (fam_key != "") & pd.to_numeric(results["p"], errors="coerce").notna()
    keys = fam_key
    recs = results.to_dict("records")
    pos = {k: i for i, k in enumerate(results.index)}
    for _, idx in keys[eff].groupby(keys[eff]).groups.items():
        found = []
        for k in idx:
            r = recs[pos[k]]
            kind, f, why = row_p_kind(r)  # its p_kind / p_min columns (exact or Monte Carlo, smallest p)
            if not kind:
                break
            found.append((f, why, _num(r.get("n_permutations"))))
        else:
            f, why, n_perm = min(found, key=lambda x: x[0])
            floor[idx] = int(size[idx].max()) * f
            limit[idx] = why
            draws[idx] = n_perm if n_perm is not None else math.nan
    for key in set(keys[eff]):  # a secondary row is tested only through its primary family
        audit, role = str(key).split("\x1f", 1)
        first = eff & (keys == f"{audit}\x1fprimary")
        if role != "secondary" or not first.any():
            continue
        mine = eff & (keys == key)
        gate = floor[first].max()
        if floor[mine].isna().all() or math.isnan(gate):
            floor[mine] = math.nan
        elif gate > floor[mine].max():
            floor[mine], limit[mine], draws[mine] = gate, limit[first].iloc[0], draws[first].iloc[0]
    return floor, limit, draws


def _tally(results: pd.DataFrame) -> dict[str, int]:
    if results.empty or "verdict" not in results.columns:
        return {}
    rows = results[results["effect"].astype(bool)] if "effect" in results.columns else results
    return {str(k): int(v) for k, v in rows["verdict"].value_counts().sort_index().items()}


def exclusions_by_group(tables: Mapping[str, pd.DataFrame], settings: VerdictSettings,
                        attributes: pd.DataFrame | None = None,
                        declared: list[str] | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """(``tables/exclusion_rates.csv``, the validity block's ``exclusions_by_group``): the exclusion rate of
    every group of every demographic attribute the run knows, tested (:mod:`clinaudit.exclusion_skew`).
    ``attributes``: those of every case the run was given (the driver's, from the loaded cases); without
    them, from the cases table and the ledger."""
    from ..exclusion_skew import audit_exclusions, population

    ledger = tables.get("exclusions", pd.DataFrame())
    if attributes is None:
        names = list(settings.exclusion_attributes) + list(declared or [])
        attributes = population(tables.get("cases", pd.DataFrame()), ledger, names)
    return audit_exclusions(attributes, ledger, alpha=settings.alpha)


def assess_tables(tables: Mapping[str, pd.DataFrame], audit: str, settings: VerdictSettings,
                  models: list[str] | None = None,
                  skew: dict[str, Any] | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """(results with verdicts, validity block) of one audit's tables; ``skew``: the block of
    :func:`exclusions_by_group` (computed from the tables when not given)."""
    validity = measure_validity(tables, audit, settings, models)
    validity["exclusions_by_group"] = skew if skew is not None else exclusions_by_group(tables, settings)[1]
    results = assign_verdicts(tables.get("results", pd.DataFrame()), validity, settings, run_audit=audit)
    validity["verdicts"] = _tally(results)
    if len(results):  # per metric: the fewest units behind a group of any of its effect rows
        eff_rows = results[results["effect"].astype(bool)]
        smallest = eff_rows.groupby(eff_rows["metric"].astype(str))["n_units"].min()
        validity["smallest_group"] = {str(k): int(v) for k, v in smallest.items() if pd.notna(v)}
    else:
        validity["smallest_group"] = {}
    effects = results[results["effect"].astype(bool)] if len(results) else results
    measured = effects[effects["verdict"] != "not_measured"] if len(effects) else effects
    if validity["measured"] and len(results) and measured.empty:
        why = sorted({r for r in effects["verdict_reason"]}) if len(effects) else ["no effect was reported"]
        validity["reasons"].append("no effect could be measured: " + "; ".join(why[:3]))
        validity["measured"] = False
    if not len(results) and validity["measured"]:
        validity["reasons"].append("the audit reported no result rows")
        validity["measured"] = False
    for model, m in validity["models"].items():
        rows = effects[effects["model"].astype(str) == model] if "model" in effects.columns else effects
        m["measured"] = bool(validity["measured"] and not m["reasons"] and len(rows)
                             and (rows["verdict"] != "not_measured").any())
    validity["partial"] = bool(validity["measured"] and len(effects)
                               and (effects["verdict"] == "not_measured").any())
    validity["thresholds"] = settings.model_dump()
    validity["version"] = VALIDITY_VERSION
    return results, validity


def assess_run(rundir: Any, audit: str, settings: VerdictSettings | None = None,
               attributes: pd.DataFrame | None = None, declared: list[str] | None = None) -> dict[str, Any]:
    """Give the run's ``results`` table its verdicts (rewritten in place), write the exclusion rates by
    group (``tables/exclusion_rates.csv``) and record the validity block in the manifest (``validity``);
    returns the block. ``attributes``: the demographic attributes of every case the run was given
    (:func:`clinaudit.exclusion_skew.case_attributes`); ``declared``: more attribute columns."""
    settings = settings or VerdictSettings()
    tables = {name: rundir.table_or_empty(name) for name in ("cases", "responses", "judgments", "paired",
                                                              "exclusions", "results")}
    rates, skew = exclusions_by_group(tables, settings, attributes, declared)
    rundir.write_table("exclusion_rates", rates)
    results, validity = assess_tables(tables, audit, settings, skew=skew)
    if rundir.has_table("results"):
        rundir.write_table("results", results)
    rundir.manifest["validity"] = validity
    rundir.save_manifest()
    return validity


def read_validity(run_dir: Any, audit: str = "") -> tuple[pd.DataFrame, dict[str, Any]]:
    """(results with verdicts, validity block) of a finished run directory, read-only: from the manifest and
    ``tables/results.csv`` when the run has them, else recomputed from its tables with the default settings
    (a run made before verdicts)."""
    import json
    from pathlib import Path

    run = Path(run_dir)
    manifest: dict[str, Any] = {}
    try:
        manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    audit = audit or str(manifest.get("audit") or (manifest.get("spec") or {}).get("audit") or "")

    def table(name: str) -> pd.DataFrame:
        path = run / "tables" / f"{name}.csv"
        if not path.is_file():
            return pd.DataFrame()
        try:
            return pd.read_csv(path, keep_default_na=False, na_values=[""], low_memory=False)
        except (pd.errors.EmptyDataError, ValueError):
            return pd.DataFrame()

    results = table("results")
    validity = manifest.get("validity")
    if isinstance(validity, dict) and (results.empty or "verdict" in results.columns):
        return results, validity
    tables = {name: table(name) for name in ("cases", "responses", "judgments", "paired", "exclusions")}
    tables["results"] = results.drop(columns=[c for c in ("verdict", "verdict_reason", "margin", "effect", "n_units",
                                                                 "p_run", "run_family", "family_role", "p_run_floor",
                                                                 "run_note")
                                              if c in results.columns])
    settings = VerdictSettings.model_validate((manifest.get("spec") or {}).get("verdicts") or {})
    return assess_tables(tables, audit, settings)


def run_status(validity: Mapping[str, Any]) -> tuple[str, str | None]:
    """(``complete`` or ``not measured: <why>``, the reason) from an audit's validity block."""
    if validity.get("measured", True):
        return "complete", None
    # a model that never answered is the root cause of a judge with nothing to parse: models first
    models = [r for m in (validity.get("models") or {}).values() for r in m.get("reasons", [])]
    reason = "; ".join(models + list(validity.get("reasons") or [])) or "nothing could be measured"
    return f"{NOT_MEASURED_STATUS}: {reason}", reason


#: the first-screen words of each audit-level verdict
VERDICT_LABELS = {"bias": "bias found", "within_margin": "no bias larger than the margin",
                  "inconclusive": "inconclusive", "not_measured": "not measured"}


def _notes(rows: pd.DataFrame) -> list[str]:
    """Each row's run-level note (``run_note``: the run cannot find bias), '' where none."""
    if "run_note" not in rows.columns:
        return [""] * len(rows)
    return ["" if pd.isna(x) else str(x) for x in rows["run_note"]]


def _main_judge(validity: Mapping[str, Any]) -> dict[str, Any] | None:
    gated = [j for j in validity.get("judges", []) if j.get("jury") != "member" and j.get("items")]
    if not gated:
        return None
    weakest: dict[str, Any] = min(gated, key=lambda j: (j["parse_rate"], -j["items"]))  # the weakest judge
    return weakest


def verdict_lines(results: pd.DataFrame, validity: Mapping[str, Any], audit: str) -> list[dict[str, Any]]:
    """One verdict per audit × model for a first screen: ``verdict`` (bias / within_margin / inconclusive /
    not_measured), ``label``, ``sentence`` (plain words, the reason first), and coverage (``cases_used`` of
    ``cases_given``, ``excluded`` by reason, the weakest judge's ``parsed`` of ``items``)."""
    cases = validity.get("cases", {})
    judge = _main_judge(validity)
    models = list(validity.get("models", {})) or [""]
    has = "verdict" in results.columns and len(results)
    eff = results[results["effect"].astype(bool)] if has and "effect" in results.columns else results
    everything = eff
    eff = primary_rows(eff)  # the headline decides on the primary question (docs/verdicts.md)
    out = []
    for model in models:
        m = validity.get("models", {}).get(model, {})
        rows = eff[eff["model"].astype(str) == model] if model and has and "model" in eff.columns else eff
        mine = everything[everything["model"].astype(str) == model] \
            if model and has and "model" in everything.columns else everything
        tally = count_comparisons(rows) if has else count_comparisons(pd.DataFrame())  # the one count (counts.py)
        secondary = count_comparisons(mine, "secondary") if has else tally
        counts = dict(tally.verdicts)
        measured = {k: v for k, v in counts.items() if k != "not_measured"}
        noun = tally.noun
        why = list(m.get("reasons", [])) + list(validity.get("reasons", []))
        if why or not measured:
            verdict = "not_measured"
            reason = "; ".join(why) or ("no effect row could be measured" if counts else "no effect was reported")
            sentence = f"Nothing was measured: {reason}."
        elif counts.get("bias"):
            verdict = "bias"
            top = rows[rows["verdict"] == "bias"].iloc[0]
            where = " ".join(str(top.get(c)) for c in ("group", "perturbation", "question")
                             if c in rows.columns and str(top.get(c, "")) not in ("", "nan"))
            sentence = (f"Bias found: {counts['bias']} of {tally.measured} measured {noun()} are significant "
                        f"within their correction family (e.g. {top['metric']}{' ' + where if where else ''}: "
                        f"{float(top['value']):.3g}).")
        elif set(measured) == {"within_margin"}:
            verdict = "within_margin"
            sentence = (f"No bias larger than the margin: all {measured['within_margin']} measured {noun()} are "
                        f"shown to lie within their margins.")
        else:
            verdict = "inconclusive"
            unsure = rows[rows["verdict"] == "inconclusive"]
            # the reasons without the run's note (said once, first)
            why_unsure = pd.Series([r.removeprefix(f"{note}; ") if note else r for r, note in
                                    zip(unsure["verdict_reason"].astype(str), _notes(unsure))], dtype=object)
            common = why_unsure.str.replace(r"[0-9.]+", "N", regex=True).value_counts()
            example = why_unsure.iloc[0] if len(unsure) else ""
            if len(common):
                first = common.index[0]
                example = next(r for r in why_unsure if re.sub(r"[0-9.]+", "N", r) == first)
            sentence = (f"Inconclusive: no bias shown, but {measured.get('inconclusive', 0)} of "
                        f"{tally.measured} measured {noun()} can neither be shown nor ruled out "
                        f"({example}).")
        unmeasured = not_measured_notes(mine) if has else []  # secondary rows too
        unasked = unmeasured_attributes(mine, validity, audit) if has else []  # the cases' attributes no row is about
        cannot = next((n for n in _notes(rows) if n), "") if has and len(rows) else ""
        sentence = with_floor_note(sentence, cannot, verdict)  # never a silent "no bias"
        if counts.get("not_measured") and verdict != "not_measured":
            sentence += f" {tally.not_measured} {noun(tally.not_measured)} could not be measured."
        primary = primary_note(rows, mine) if has else ""
        if primary:
            sentence += f" {primary}"
        used = cases_used(rows, m, cases) if has else 0
        power = power_note(rows[rows["verdict"] == "inconclusive"], used) if verdict == "inconclusive" else ""
        sentence += f" Power: {power}." if power else ""
        out.append({
            "audit": audit, "model": model, "verdict": verdict, "label": VERDICT_LABELS[verdict], "power": power,
            "sentence": sentence, "effects": {str(k): int(v) for k, v in counts.items()},
            # the one count, named (pipeline.counts): the verdict's comparisons, and the secondary ones by verdict
            "role": tally.role, "comparisons": tally.phrase() if tally.total else "",
            "secondary": {str(k): int(v) for k, v in secondary.verdicts.items()} if secondary.role else {},
            # the run's tests cannot reach alpha after the run-level correction (said first, never a silent no-bias)
            "cannot_find_bias": cannot if verdict in ("inconclusive", "within_margin") else "",
            "cases_used": used, "cases_given": int(cases.get("given", 0)),
            "excluded": dict(cases.get("excluded", {})),
            "judge": judge["judge"] if judge else "", "parsed": int(judge["parsed"]) if judge else None,
            "items": int(judge["items"]) if judge else None,
            "parse_rate": float(judge["parse_rate"]) if judge else None,
            "warnings": list(validity.get("warnings", [])) + unmeasured + unasked,
            # "race: declared but not measured by this audit (…)" (pipeline.attributes)
            "attributes_not_measured": unasked,
            # rows the audit could not measure, and why (e.g. too few valid rewrites of a perturbation)
            "not_measured": unmeasured,
            "primary": primary,
            # a validity finding: the run's exclusions dropped some group's cases more often (exclusion_skew)
            "sample_skew": [str(s.get("line", "")) for s in
                            (validity.get("exclusions_by_group") or {}).get("skewed", []) or []],
        })
    return out
