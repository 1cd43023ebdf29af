"""``clinaudit compare RUN_A RUN_B``: is run B (a new model, a model update) better or worse than run A?

Both runs must be runs of the same audit; they should come from the same spec apart from the model
(``models``, ``backends`` and ``name`` may differ) and hold the same cases. Everything else that
differs is listed in the comparison (``differences``) and printed by the CLI — the comparison is still
made, on the cases both runs have.

For every metric of the audit (:func:`clinaudit.report.compare_metrics.declared_compare_metrics`, each with its
direction) the per-pair scores of both runs go into one :class:`clinaudit.stats.PairedFrame` with the
run as the arm and run A as the control, clustered by ``case_id``:

* ``value`` = rate(B) − rate(A) (pooled scores), its 95% CI a percentile bootstrap that resamples
  **cases** (every pair of a case, in both runs, moves together);
* ``p`` = sign-flip permutation test of the per-case differences d_c = mean_B(c) − mean_A(c)
  (H0: d_c symmetric about 0 — the runs are exchangeable within each case);
* ``p_adj`` = Holm over every metric of the comparison (one family).

Verdict per metric: **better** / **worse** when ``p_adj < alpha`` *and* the CI excludes 0, signed by
the metric's direction; **no detectable change** otherwise (a metric without a declared direction gets
**higher** / **lower**). A "no detectable change" whose CI half-width exceeds the margin (proportion
metrics) is also listed as *inconclusive*, with the cases a CI as narrow as the margin would need.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from .compare_metrics import CompareMetric, metrics_for, read_run_table
from .findings import ALPHA, MARGIN, format_p

__all__ = ["Comparison", "compare_runs", "comparability", "COMPARISON_COLUMNS", "SPEC_MAY_DIFFER", "verdict"]

#: spec fields two compared runs may differ in (the model under test and how it is reached)
SPEC_MAY_DIFFER = ("models", "backends", "name")

COMPARISON_COLUMNS = [
    "audit", "metric", "direction", "value_a", "value_b", "difference", "ci_low", "ci_high", "ci_method", "test",
    "p", "p_adj", "correction", "family", "verdict", "n_cases", "n_pairs_a", "n_pairs_b", "effect_size",
    "model_a", "model_b", "scale", "description", "null_hypothesis",
]


# --------------------------------------------------------------------------- reading runs

def _manifest(run: Path) -> dict[str, Any]:
    from .runs import read_manifest

    if not (run / "manifest.json").is_file():
        raise InputError("not a run directory (no manifest.json in it)", file=str(run))
    return read_manifest(run)


def _flatten(d: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(d, dict):
        out: dict[str, Any] = {}
        for k, v in d.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: d}


def _models(manifest: dict[str, Any]) -> list[str]:
    spec = manifest.get("spec") or {}
    target = (spec.get("models") or {}).get("target")
    if isinstance(target, str):
        return [target]
    if isinstance(target, list) and target:
        return [str(t) for t in target]
    return [str(m.get("spec")) for m in manifest.get("models") or [] if isinstance(m, dict)]


def _case_hashes(run: Path) -> dict[str, str]:
    cases = read_run_table(run, "cases")
    if "case_id" not in cases.columns:
        return {}
    text = cases["text"].astype(str) if "text" in cases.columns else pd.Series("", index=cases.index)
    return {str(c): hashlib.sha256(t.encode("utf-8")).hexdigest()[:16] for c, t in zip(cases["case_id"], text)}


def comparability(run_a: Path, run_b: Path) -> dict[str, Any]:
    """What the two runs share and where they differ: ``audit``, ``models_a``/``models_b``,
    ``differences`` (spec fields other than :data:`SPEC_MAY_DIFFER`, data fingerprints, cases), the
    cases only in A / only in B / with a different text. Raises :class:`InputError` for two audits."""
    from .runs import audit_of

    ma, mb = _manifest(run_a), _manifest(run_b)
    audit_a, audit_b = audit_of(ma), audit_of(mb)
    if audit_a != audit_b:
        raise InputError(f"the runs are of different audits ({audit_a} vs {audit_b}); compare runs of one spec",
                         file=f"{run_a}, {run_b}")
    fa = {k: v for k, v in _flatten(ma.get("spec") or {}).items() if k.split(".")[0] not in SPEC_MAY_DIFFER}
    fb = {k: v for k, v in _flatten(mb.get("spec") or {}).items() if k.split(".")[0] not in SPEC_MAY_DIFFER}
    diffs = [f"spec field '{k}': A = {json.dumps(fa.get(k), default=str)}, B = {json.dumps(fb.get(k), default=str)}"
             for k in sorted(set(fa) | set(fb)) if fa.get(k) != fb.get(k)]
    if json.dumps(ma.get("data"), sort_keys=True, default=str) != json.dumps(mb.get("data"), sort_keys=True, default=str):
        diffs.append("the data files' fingerprints differ (manifest 'data')")
    ha, hb = _case_hashes(run_a), _case_hashes(run_b)
    only_a, only_b = sorted(set(ha) - set(hb)), sorted(set(hb) - set(ha))
    changed = sorted(c for c in set(ha) & set(hb) if ha[c] != hb[c])
    if only_a or only_b:
        diffs.append(f"cases: {len(only_a)} only in A, {len(only_b)} only in B (compared on the {len(set(ha) & set(hb))} "
                     "cases both have)")
    if changed:
        diffs.append(f"{len(changed)} case(s) have the same id but a different text: " + ", ".join(changed[:10]))
    ma_models, mb_models = _models(ma), _models(mb)
    return {"audit": audit_a, "models_a": ma_models, "models_b": mb_models, "differences": diffs,
            "comparable": not diffs, "cases_only_a": only_a, "cases_only_b": only_b, "cases_changed": changed,
            "status_a": str(ma.get("status") or ""), "status_b": str(mb.get("status") or "")}


def _select_model(paired: pd.DataFrame, model: str | None, which: str, run: Path) -> tuple[pd.DataFrame, str]:
    if "model" not in paired.columns or not len(paired):
        return paired, model or ""
    models = sorted(paired["model"].astype(str).unique())
    if model is None:
        if len(models) > 1:
            raise InputError(f"run {which} holds several models ({', '.join(models)}); choose one with "
                             f"--model-{which.lower()}", file=str(run))
        return paired, models[0] if models else ""
    if model not in models:
        raise InputError(f"model '{model}' is not in run {which} (its models: {', '.join(models)})", file=str(run))
    return paired[paired["model"].astype(str) == model].reset_index(drop=True), model


# --------------------------------------------------------------------------- statistics

def verdict(direction: str, diff: float, lo: float, hi: float, p_adj: float, alpha: float = ALPHA) -> str:
    """``better`` / ``worse`` (``higher`` / ``lower`` without a direction) when ``p_adj < alpha`` and the CI
    [lo, hi] excludes 0; else ``no detectable change``."""
    if any(x is None or (isinstance(x, float) and math.isnan(x)) for x in (diff, lo, hi, p_adj)):
        return "no detectable change"
    if not (p_adj < alpha and (lo > 0 or hi < 0)) or diff == 0:
        return "no detectable change"
    up = diff > 0
    if direction == "higher":
        return "better" if up else "worse"
    if direction == "lower":
        return "worse" if up else "better"
    return "higher" if up else "lower"


def _metric_row(m: CompareMetric, pa: pd.DataFrame, pb: pd.DataFrame, audit: str, *, n_resamples: int,
                n_permutations: int, seed: int) -> tuple[dict[str, Any], pd.DataFrame]:
    from ..stats import PairedFrame

    sa, sb = m.score(pa), m.score(pb)
    sa, sb = sa.dropna(subset=["score"]), sb.dropna(subset=["score"])
    common = set(sa["case_id"]) & set(sb["case_id"])
    sa, sb = sa[sa["case_id"].isin(common)], sb[sb["case_id"].isin(common)]
    frame = pd.concat([sa.assign(run="A"), sb.assign(run="B")], ignore_index=True)
    if not len(frame):
        row = {"audit": audit, "metric": m.name, "value": math.nan, "n_cases": 0, "n_pairs": 0,
               "n_control_pairs": 0, "rate": math.nan, "floor": math.nan, "p": math.nan}
        return row, pd.DataFrame(columns=["metric", "case_id", "a_mean", "b_mean", "difference"])
    pf = PairedFrame(frame, case="case_id", arm="run", score="score", control="A")
    row = pf.compare(metric=m.name, audit=audit, n_resamples=n_resamples, n_permutations=n_permutations,
                     seed=seed).iloc[0].to_dict()
    ct = pf.case_table().pivot(index="case_id", columns="run", values="mean")
    per_case = pd.DataFrame({"metric": m.name, "case_id": ct.index.astype(str),
                             "a_mean": ct.get("A", pd.Series(np.nan, index=ct.index)).to_numpy(),
                             "b_mean": ct.get("B", pd.Series(np.nan, index=ct.index)).to_numpy()})
    per_case["difference"] = per_case["b_mean"] - per_case["a_mean"]
    return row, per_case


def _number_or_nan(rec: dict[str, Any], key: str) -> float:
    """``rec[key]`` as a float; NaN where it is missing, None or NaN."""
    v = rec.get(key)
    return float(v) if v is not None and v == v else math.nan


def _fmt(v: float, scale: str) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    return f"{v * 100:+.1f} pp" if scale == "proportion" else f"{v:+.3g}"


def _sentence(r: dict[str, Any], alpha: float) -> str:
    sc = r["scale"]
    a = "–" if math.isnan(r["value_a"]) else (f"{r['value_a']:.1%}" if sc == "proportion" else f"{r['value_a']:.3g}")
    b = "–" if math.isnan(r["value_b"]) else (f"{r['value_b']:.1%}" if sc == "proportion" else f"{r['value_b']:.3g}")
    ci = f"95% CI {_fmt(r['ci_low'], sc)} to {_fmt(r['ci_high'], sc)}"
    p = "p_adj –" if math.isnan(r["p_adj"]) else f"p_adj {format_p(r['p_adj'], alpha)} (Holm over {r['n_metrics']} metrics)"
    way = {"lower": "lower is better", "higher": "higher is better"}.get(r["direction"], "no declared direction")
    head = f"{r['metric']} ({way}): {a} in A ({r['model_a'] or 'run A'}) vs {b} in B ({r['model_b'] or 'run B'}), " \
           f"difference B − A {_fmt(r['difference'], sc)} ({ci}; {r['n_cases']} cases; {r['test'] or 'no test'}; {p})"
    if r["verdict"] in ("better", "worse"):
        return f"B is {r['verdict'].upper()} on {head}."
    if r["verdict"] in ("higher", "lower"):
        return f"B is {r['verdict']} on {head}."
    return f"No detectable change in {head}."


@dataclass
class Comparison:
    """The result of :func:`compare_runs`: ``table`` (one row per metric, :data:`COMPARISON_COLUMNS`),
    ``per_case`` (metric, case_id, a_mean, b_mean, difference), ``info`` (:func:`comparability`),
    ``findings`` / ``inconclusive`` (sentences) and the files written (``out``)."""

    run_a: Path
    run_b: Path
    table: pd.DataFrame
    per_case: pd.DataFrame
    info: dict[str, Any]
    findings: list[dict[str, Any]] = field(default_factory=list)
    inconclusive: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)

    def verdicts(self) -> dict[str, str]:
        return dict(zip(self.table["metric"], self.table["verdict"]))

    def __repr__(self) -> str:
        v = ", ".join(f"{k}: {x}" for k, x in self.verdicts().items())
        return f"Comparison({self.info['audit']}: {self.run_a} -> {self.run_b}; {v})"


def compare_runs(run_a: str | Path, run_b: str | Path, out: str | Path | None = None, *,
                 model_a: str | None = None, model_b: str | None = None, alpha: float = ALPHA,
                 margin: float = MARGIN, n_resamples: int = 2000, n_permutations: int = 9999,
                 seed: int = 0) -> Comparison:
    """Compare run B with run A (see the module doc); with ``out``, write ``comparison.csv``,
    ``comparison_cases.csv``, ``comparison.json`` and ``report.html`` into that folder."""
    from ..checks import check_alpha, check_int, check_margin
    from ..stats import apply_correction

    alpha, margin = check_alpha(alpha), check_margin(margin)
    n_resamples, n_permutations = check_int(n_resamples, "n_resamples"), check_int(n_permutations, "n_permutations")
    seed = check_int(seed, "seed", minimum=0)
    run_a, run_b = Path(run_a), Path(run_b)
    for r in (run_a, run_b):
        if not r.is_dir():
            raise InputError("no such run directory", file=str(r))
    info = comparability(run_a, run_b)
    audit = info["audit"]
    pa, model_a = _select_model(read_run_table(run_a, "paired"), model_a, "A", run_a)
    pb, model_b = _select_model(read_run_table(run_b, "paired"), model_b, "B", run_b)
    for r, p in ((run_a, pa), (run_b, pb)):
        if "case_id" not in p.columns:
            raise InputError("the run has no paired table with a case_id column (did it finish?)",
                             file=str(r / "tables" / "paired.csv"), field="case_id")
    metrics = metrics_for(audit, pa)
    rows, cases = [], []
    for m in metrics:
        row, per_case = _metric_row(m, pa, pb, audit, n_resamples=n_resamples, n_permutations=n_permutations,
                                    seed=seed)
        row.update(metric=m.name, direction=m.direction, scale=m.scale, description=m.description)
        rows.append(row)
        cases.append(per_case)
    table = pd.DataFrame(rows)
    if len(table) and "p" in table.columns:
        table = apply_correction(table, family=f"compare {audit}: every metric", method="holm")
    out_rows = []
    for r in table.to_dict("records"):
        g = partial(_number_or_nan, r)
        rec = {"audit": audit, "metric": r["metric"], "direction": r["direction"], "value_a": g("floor"),
               "value_b": g("rate"), "difference": g("value"), "ci_low": g("ci_low"), "ci_high": g("ci_high"),
               "ci_method": r.get("ci_method", ""), "test": r.get("test", "") or "", "p": g("p"),
               "p_adj": g("p_adj"), "correction": r.get("correction", ""), "family": r.get("family", ""),
               "n_cases": int(r.get("n_test_cases") or 0), "n_pairs_a": int(r.get("n_control_pairs") or 0),
               "n_pairs_b": int(r.get("n_pairs") or 0), "effect_size": g("effect_size"), "model_a": model_a,
               "model_b": model_b, "scale": r["scale"], "description": r["description"],
               "null_hypothesis": r.get("null_hypothesis", "")}
        rec["verdict"] = verdict(rec["direction"], rec["difference"], rec["ci_low"], rec["ci_high"], rec["p_adj"], alpha)
        out_rows.append(rec)
    result = pd.DataFrame(out_rows, columns=COMPARISON_COLUMNS)
    per_case = pd.concat(cases, ignore_index=True) if cases else pd.DataFrame(
        columns=["metric", "case_id", "a_mean", "b_mean", "difference"])
    comp = Comparison(run_a, run_b, result, per_case, info)
    _derive_findings(comp, alpha, margin)
    if out is not None:
        from .compare_render import write_comparison

        comp.files = write_comparison(comp, Path(out), alpha=alpha, margin=margin)
    return comp


def _derive_findings(comp: Comparison, alpha: float, margin: float) -> None:
    n_metrics = int(comp.table["p"].notna().sum()) if len(comp.table) else 0
    for rec in comp.table.to_dict("records"):
        rec = dict(rec, n_metrics=n_metrics)
        half = (rec["ci_high"] - rec["ci_low"]) / 2 if not (math.isnan(rec["ci_low"]) or math.isnan(rec["ci_high"])) \
            else math.nan
        entry = {"metric": rec["metric"], "verdict": rec["verdict"], "difference": rec["difference"],
                 "ci_low": rec["ci_low"], "ci_high": rec["ci_high"], "p_adj": rec["p_adj"], "n_cases": rec["n_cases"],
                 "scale": rec["scale"], "sentence": _sentence(rec, alpha), "ci_half_width": half}
        if rec["verdict"] != "no detectable change":
            comp.findings.append(entry)
        elif rec["scale"] == "proportion" and not math.isnan(half) and half > margin and rec["n_cases"]:
            entry["n_needed"] = int(math.ceil(rec["n_cases"] * (half / margin) ** 2))
            entry["sentence"] += (f" The CI half-width {half * 100:.1f} pp exceeds the margin {margin * 100:g} pp: "
                                  f"about {entry['n_needed']} cases would narrow it to the margin.")
            comp.inconclusive.append(entry)
    comp.findings.sort(key=lambda e: (e["scale"] != "proportion", -abs(e["difference"])))
