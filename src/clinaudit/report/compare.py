"""``clinaudit compare RUN_A RUN_B``: is run B (a new model, a model update) better or worse than run A?

Both runs must be finished runs of the same audit (:mod:`clinaudit.report.compare_check` refuses runs
that are unfinished, failed or hold no usable pairs, exit 3); they should come from the same spec apart
from the model (``models``, ``backends`` and ``name`` may differ) and hold the same cases. Everything else
that differs is listed in the comparison (``differences``) and printed by the CLI — the comparison is
still made, on the cases both runs have. When both runs hold several models, each model is compared with
its namesake in the other run.

For every metric of the audit (:func:`clinaudit.report.compare_metrics.metrics_for`: the metrics the
audit declares with per-pair scores, :mod:`clinaudit.metrics.declared`, each with its direction and margin) and every model pair, the per-pair scores of both runs go into one
:class:`clinaudit.stats.PairedFrame` with the run as the arm and run A as the control, clustered by
``case_id``, once **pooled** over every pair and once **per stratum** (each level of each of the metric's
stratum columns: perturbation, attribute, question …), so a change that cancels out in the pool (more
flips under UPPERCASE, fewer under "!") is not hidden:

* ``value`` = rate(B) − rate(A), its 95% CI a percentile bootstrap that resamples **cases** (every pair
  of a case, in both runs, moves together);
* ``p`` = sign-flip permutation test of the per-case differences d_c = mean_B(c) − mean_A(c)
  (H0: d_c symmetric about 0 — the runs are exchangeable within each case);
* ``p_adj`` = Holm (statsmodels ``multipletests``): the pooled rows of a model pair form one family (every
  metric); the stratum rows of one metric and model pair form another (every stratum of that metric).

Verdict per row (:func:`verdict`): **better** / **worse** when ``p_adj < alpha`` *and* the CI excludes 0,
signed by the metric's direction (a metric without a declared direction gets **higher** / **lower**);
otherwise **within_margin** when the 95% CI, widened by :func:`margin_interval` (``bound_low``,
``bound_high``: at least the exact paired interval of :func:`exact_paired_interval` for a rate, Clopper–Pearson
bounds of how far B moved above and below A, summed over cases; for another metric a CI of zero
width — every case moved by the same amount — widened to the exact Clopper–Pearson bound for "no case of n
differs", :func:`clinaudit.stats.all_equal_half_width`), lies inside ± the metric's margin by more than the
tolerance of :func:`clinaudit.stats.verdicts.inside_margin`, else **inconclusive** (with the cases a CI as
narrow as the margin would need). ``compare`` only reports; ``clinaudit gate`` decides what fails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, NotComparableError
from .compare_check import SPEC_MAY_DIFFER, check_finished, comparability, model_pairs, paired_table, read_run_manifest
from .compare_metrics import CHANGED, POOLED, VERDICTS, CompareMetric, metrics_for
from .findings import ALPHA, format_p

__all__ = ["Comparison", "compare_runs", "comparability", "COMPARISON_COLUMNS", "SPEC_MAY_DIFFER", "verdict",
           "margin_interval", "exact_paired_interval", "beyond_interval",
           "POOLED", "VERDICTS", "CHANGED"]


COMPARISON_COLUMNS = [
    "audit", "model_a", "model_b", "metric", "stratum", "level", "direction", "value_a", "value_b", "difference",
    "ci_low", "ci_high", "ci_method", "test", "p", "p_adj", "correction", "family", "margin", "verdict", "n_cases",
    "n_pairs_a", "n_pairs_b", "effect_size", "scale", "description", "null_hypothesis", "bound_low", "bound_high",
    "beyond_low", "beyond_high",
]
_CASE_COLUMNS = ["model_a", "model_b", "metric", "case_id", "a_mean", "b_mean", "difference"]


def _nan(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def exact_paired_interval(up: float, down: float, n_cases: int, alpha: float = ALPHA) -> tuple[float, float]:
    """Exact bounds of a paired difference of rates B − A over ``n_cases`` cases from its per-case
    differences d_c in [−1, 1]: ``up`` = Σ max(d_c, 0) (how much B is above A, summed over cases), ``down``
    = Σ max(−d_c, 0). B − A = mean(d+) − mean(d−) ≤ mean(d+), whose upper Clopper–Pearson ``1 − alpha/2``
    bound (``ceil(up)`` of ``n_cases``, statsmodels ``proportion_confint``) bounds the difference from above;
    likewise from below. Two identical runs (up = down = 0) give ± the all-cases-agree bound 1 − (α/2)^(1/n);
    1 case of 80 moving up gives an upper bound of 6.8 pp."""
    from ..stats.verdicts import rate_upper_bound

    n = int(n_cases)
    if n < 1:
        return -1.0, 1.0
    hi = rate_upper_bound(math.ceil(up - 1e-9), n, alpha)
    lo = -rate_upper_bound(math.ceil(down - 1e-9), n, alpha)
    return lo, hi


def beyond_interval(diff: float, lo: float, hi: float, up: float, down: float, n_cases: int,
                    alpha: float = ALPHA) -> tuple[float, float]:
    """The interval the gate's "worse beyond the margin" is read from: B − A = mean(d+) − mean(d−) lies
    above ``CP_low(up) − CP_high(down)`` and below ``CP_high(up) − CP_low(down)`` (Clopper–Pearson of
    ``up`` and ``down`` of ``n_cases``, each at ``alpha/2`` so that each bound holds with ``1 − alpha/2``),
    each bound taken where the bootstrap CI [lo, hi] is wider. Without the case sums: [lo, hi]."""
    from ..stats.verdicts import rate_interval

    n = int(n_cases or 0)
    if n < 1 or _nan(up) or _nan(down):
        return lo, hi
    u_lo, u_hi = rate_interval(math.ceil(up - 1e-9), n, alpha / 2)
    d_lo, d_hi = rate_interval(math.ceil(down - 1e-9), n, alpha / 2)
    elo, ehi = u_lo - d_hi, u_hi - d_lo
    return (elo if _nan(lo) else min(lo, elo)), (ehi if _nan(hi) else max(hi, ehi))


def margin_interval(diff: float, lo: float, hi: float, n_cases: int = 0, *, exact: tuple[float, float] | None = None,
                    scale: str = "", alpha: float = ALPHA) -> tuple[float, float]:
    """The interval of B − A that a margin is held against (by ``verdict``'s equivalence and by the gate's
    "worse beyond the margin"): the bootstrap CI [lo, hi], widened on both sides, whatever the side of the
    estimate, to at least the exact paired interval ``exact`` (:func:`exact_paired_interval`) when the metric
    is a rate (``scale == "proportion"``); a zero-width CI of any other metric is widened to the exact
    all-cases-agree bound for ``n_cases`` (:func:`clinaudit.stats.all_equal_half_width`)."""
    from ..stats import all_equal_half_width

    if scale == "proportion" and exact is not None and not (_nan(exact[0]) or _nan(exact[1])):
        elo, ehi = exact
        return (elo if _nan(lo) else min(lo, elo)), (ehi if _nan(hi) else max(hi, ehi))
    if not (_nan(lo) or _nan(hi)) and hi - lo <= 1e-12:  # every case moved by the same amount
        half = all_equal_half_width(n_cases) if n_cases else math.inf
        return diff - half, diff + half
    return lo, hi


def verdict(direction: str, diff: float, lo: float, hi: float, p_adj: float, alpha: float = ALPHA,
            margin: float | None = None, n_cases: int = 0, *, exact: tuple[float, float] | None = None,
            scale: str = "") -> str:
    """``better`` / ``worse`` (``higher`` / ``lower`` without a direction) when ``p_adj < alpha`` and the CI
    [lo, hi] excludes 0; else ``within_margin`` when the interval of :func:`margin_interval` lies inside
    ± ``margin`` by more than the tolerance (:func:`clinaudit.stats.verdicts.inside_margin`); else
    ``inconclusive``."""
    from ..stats.verdicts import inside_margin

    if any(_nan(x) for x in (diff, lo, hi)):
        return "inconclusive"
    if not _nan(p_adj) and p_adj < alpha and (lo > 0 or hi < 0) and diff != 0:
        up = diff > 0
        if direction == "higher":
            return "better" if up else "worse"
        if direction == "lower":
            return "worse" if up else "better"
        return "higher" if up else "lower"
    if margin is None or _nan(margin) or margin <= 0:
        return "inconclusive"
    lo, hi = margin_interval(diff, lo, hi, n_cases, exact=exact, scale=scale, alpha=alpha)
    return "within_margin" if inside_margin(lo, hi, margin, "two_sided") else "inconclusive"


# --------------------------------------------------------------------------- statistics

def _score(m: CompareMetric, paired: pd.DataFrame, run: Path | None) -> pd.DataFrame:
    """``m.score(paired)``; a value the metric cannot score is an error naming the run's paired table."""
    try:
        return m.score(paired)
    except (KeyError, ValueError, TypeError) as exc:
        text = " ".join(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc).split())[:300]
        where = str(run / "tables" / "paired.csv") if run is not None else "the paired table"
        raise InputError(f"metric '{m.name}' cannot score this paired table: {text}", file=where) from None


def _scores(m: CompareMetric, pa: pd.DataFrame, pb: pd.DataFrame,
            runs: tuple[Path | None, Path | None] = (None, None)) -> pd.DataFrame:
    sa, sb = _score(m, pa, runs[0]).dropna(subset=["score"]), _score(m, pb, runs[1]).dropna(subset=["score"])
    common = set(sa["case_id"]) & set(sb["case_id"])
    sa, sb = sa[sa["case_id"].isin(common)], sb[sb["case_id"].isin(common)]
    return pd.concat([sa.assign(run="A"), sb.assign(run="B")], ignore_index=True)


def _compare(frame: pd.DataFrame, by: list[str], metric: str, audit: str, **kw: Any) -> list[dict[str, Any]]:
    from ..stats import PairedFrame

    pf = PairedFrame(frame, case="case_id", arm="run", score="score", control="A", by=by)
    return list(pf.compare(metric=metric, audit=audit, **kw).to_dict("records"))


def _moves(frame: pd.DataFrame) -> tuple[float, float]:
    """(Σ max(d_c, 0), Σ max(−d_c, 0)) of the per-case differences d_c = mean_B(c) − mean_A(c) (cases with
    both runs), for :func:`exact_paired_interval`; NaN when a difference lies outside [−1, 1]."""
    ct = frame.groupby(["case_id", "run"])["score"].mean().unstack("run")
    if "A" not in ct.columns or "B" not in ct.columns:
        return math.nan, math.nan
    d = (ct["B"] - ct["A"]).dropna().to_numpy(dtype=float)
    if not len(d) or np.abs(d).max() > 1 + 1e-12:
        return math.nan, math.nan
    return float(np.clip(d, 0, None).sum()), float(np.clip(-d, 0, None).sum())


def _metric_rows(m: CompareMetric, frame: pd.DataFrame, audit: str, kw: dict[str, Any]) -> list[dict[str, Any]]:
    """The pooled row and one row per level of each stratum column (levels both runs have)."""
    empty = {"value": math.nan, "n_test_cases": 0, "n_pairs": 0, "n_control_pairs": 0, "rate": math.nan,
             "floor": math.nan, "p": math.nan}
    if not len(frame):
        return [dict(empty, stratum=POOLED, level="")]
    up, down = _moves(frame)
    rows = [dict(r, stratum=POOLED, level="", _up=up, _down=down) for r in _compare(frame, [], m.name, audit, **kw)]
    for col in m.strata:
        if col not in frame.columns:
            continue
        f = frame.assign(**{col: frame[col].astype(str)})
        f = f[~frame[col].isna().to_numpy()]
        levels = set(f.loc[f["run"] == "A", col]) & set(f.loc[f["run"] == "B", col])
        if len(levels) < 2:  # one level is the pooled row again
            continue
        f = f[f[col].isin(levels)]
        moves = {lv: _moves(g) for lv, g in f.groupby(col)}
        rows += [dict(r, stratum=col, level=str(r[col]), _up=moves.get(str(r[col]), (math.nan,) * 2)[0],
                      _down=moves.get(str(r[col]), (math.nan,) * 2)[1])
                 for r in _compare(f, [col], m.name, audit, **kw)]
    return rows


def _per_case(m: CompareMetric, frame: pd.DataFrame) -> pd.DataFrame:
    if not len(frame):
        return pd.DataFrame(columns=_CASE_COLUMNS)
    ct = frame.groupby(["case_id", "run"])["score"].mean().unstack("run")
    out = pd.DataFrame({"metric": m.name, "case_id": ct.index.astype(str),
                        "a_mean": ct.get("A", pd.Series(np.nan, index=ct.index)).to_numpy(),
                        "b_mean": ct.get("B", pd.Series(np.nan, index=ct.index)).to_numpy()})
    out["difference"] = out["b_mean"] - out["a_mean"]
    return out


def _correct(table: pd.DataFrame, audit: str) -> pd.DataFrame:
    """Holm within each family: a model pair's pooled rows; a model pair's stratum rows of one metric."""
    from ..stats.core import correct_pvalues

    table = table.copy()
    table["p_adj"], table["correction"], table["family"] = math.nan, "", ""
    pooled = table["stratum"] == POOLED
    fam = np.where(pooled, "compare " + audit + " " + table["model_b"].astype(str) + ": every metric (pooled)",
                   "compare " + audit + " " + table["model_b"].astype(str) + " " + table["metric"].astype(str)
                   + ": every stratum")
    table["family"] = fam
    for idx in table.groupby("family").groups.values():
        p = table.loc[idx, "p"].astype(float).to_numpy()
        table.loc[idx, "p_adj"] = correct_pvalues(p, method="holm")
        table.loc[idx, "correction"] = "holm"
    return table


def _g(r: dict[str, Any], k: str) -> float:
    v = r.get(k)
    try:
        v = float(v)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan
    return v


def _fmt(v: float, scale: str) -> str:
    if _nan(v):
        return "–"
    return f"{v * 100:+.1f} pp" if scale == "proportion" else f"{v:+.3g}"


def _where(r: dict[str, Any]) -> str:
    return "" if r["stratum"] == POOLED else f" under {r['stratum']} = {r['level']}"


def _sentence(r: dict[str, Any], alpha: float, family_size: int) -> str:
    sc = r["scale"]
    a = "–" if _nan(r["value_a"]) else (f"{r['value_a']:.1%}" if sc == "proportion" else f"{r['value_a']:.3g}")
    b = "–" if _nan(r["value_b"]) else (f"{r['value_b']:.1%}" if sc == "proportion" else f"{r['value_b']:.3g}")
    ci = f"95% CI {_fmt(r['ci_low'], sc)} to {_fmt(r['ci_high'], sc)}"
    what = "metrics" if r["stratum"] == POOLED else "strata"
    p = "p_adj –" if _nan(r["p_adj"]) else f"p_adj {format_p(r['p_adj'], alpha)} (Holm over {family_size} {what})"
    way = {"lower": "lower is better", "higher": "higher is better"}.get(r["direction"], "no declared direction")
    head = f"{r['metric']}{_where(r)} ({way}): {a} in A ({r['model_a'] or 'run A'}) vs {b} in B " \
           f"({r['model_b'] or 'run B'}), difference B − A {_fmt(r['difference'], sc)} ({ci}; {r['n_cases']} cases; " \
           f"{r['test'] or 'no test'}; {p})"
    v = r["verdict"]
    if v in ("better", "worse"):
        return f"B is {v.upper()} on {head}."
    if v in ("higher", "lower"):
        return f"B is {v} on {head}."
    if v == "within_margin":
        return f"Within the margin (±{_fmt(r['margin'], sc).lstrip('+')}): {head}."
    return f"Inconclusive: {head}."


# --------------------------------------------------------------------------- the result

@dataclass
class Comparison:
    """The result of :func:`compare_runs`: ``table`` (one row per model pair, metric and stratum level,
    :data:`COMPARISON_COLUMNS`; the pooled rows have ``stratum == "pooled"``), ``per_case`` (model pair,
    metric, case_id, a_mean, b_mean, difference; pooled), ``info`` (:func:`comparability`, plus
    ``model_pairs`` and ``model_notes``), ``findings`` / ``inconclusive`` (sentences) and the files written
    (``out``)."""

    run_a: Path
    run_b: Path
    table: pd.DataFrame
    per_case: pd.DataFrame
    info: dict[str, Any]
    findings: list[dict[str, Any]] = field(default_factory=list)
    inconclusive: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)

    def verdicts(self, strata: bool = False) -> dict[str, str]:
        """``{metric: verdict}`` of the pooled rows (keys ``model: metric`` when several models were
        compared); with ``strata``, every row (keys ``… [stratum=level]``)."""
        t = self.table if strata else self.table[self.table["stratum"] == POOLED]
        several = self.table["model_b"].nunique() > 1
        out = {}
        for r in t.to_dict("records"):
            key = (f"{r['model_b']}: " if several else "") + str(r["metric"])
            if r["stratum"] != POOLED:
                key += f" [{r['stratum']}={r['level']}]"
            out[key] = str(r["verdict"])
        return out

    def changed(self) -> pd.DataFrame:
        """The rows, pooled or per stratum, whose verdict says the runs differ (:data:`CHANGED`)."""
        return self.table[self.table["verdict"].isin(CHANGED)].reset_index(drop=True)

    def __repr__(self) -> str:
        v = ", ".join(f"{k}: {x}" for k, x in self.verdicts().items())
        n = len(self.changed())
        return f"Comparison({self.info['audit']}: {self.run_a} -> {self.run_b}; {v}; {n} row(s) changed)"

    def _repr_html_(self) -> str:
        from .compare_render import comparison_html

        return comparison_html(self)


def compare_runs(run_a: str | Path, run_b: str | Path, out: str | Path | None = None, *,
                 model_a: str | None = None, model_b: str | None = None, alpha: float = ALPHA,
                 margin: float | None = None, margins: dict[str, float] | None = None, n_resamples: int = 2000,
                 n_permutations: int = 9999, seed: int = 0) -> Comparison:
    """Compare run B with run A (see the module doc); with ``out``, write ``comparison.csv``,
    ``comparison_cases.csv``, ``comparison.json`` and ``report.html`` into that folder.

    ``margin`` overrides every metric's declared margin, ``margins`` (``{metric or audit/metric: margin}``)
    single ones.
    Raises :class:`~clinaudit.errors.NotComparableError` (CLI exit 3) for unfinished or failed runs, runs
    without usable pairs, or two multi-model runs without a namesake."""
    from ..checks import check_alpha, check_int, check_margin, check_number

    alpha = check_alpha(alpha)
    margin = None if margin is None else check_margin(margin)
    margins = {str(k): check_number(v, f"margins.{k}", 0.0, None, low_open=True) for k, v in (margins or {}).items()}
    n_resamples, n_permutations = check_int(n_resamples, "n_resamples"), check_int(n_permutations, "n_permutations")
    seed = check_int(seed, "seed", minimum=0)
    run_a, run_b = Path(run_a), Path(run_b)
    ma, mb = read_run_manifest(run_a), read_run_manifest(run_b)
    info = comparability(run_a, run_b, ma, mb)
    check_finished(run_a, ma)
    check_finished(run_b, mb)
    audit = info["audit"]
    pa, pb = paired_table(run_a), paired_table(run_b)
    pairs, notes = model_pairs(pa, pb, run_a, run_b, model_a=model_a, model_b=model_b)
    info.update(model_pairs=[list(p) for p in pairs], model_notes=notes)
    info["differences"] = info["differences"] + notes
    kw = {"n_resamples": n_resamples, "n_permutations": n_permutations, "seed": seed}
    rows: list[dict[str, Any]] = []
    cases = []
    for mod_a, mod_b in pairs:
        sub_a = pa[pa["model"].astype(str) == mod_a] if "model" in pa.columns else pa
        sub_b = pb[pb["model"].astype(str) == mod_b] if "model" in pb.columns else pb
        for m in metrics_for(audit, sub_a.reset_index(drop=True)):
            frame = _scores(m, sub_a.reset_index(drop=True), sub_b.reset_index(drop=True), (run_a, run_b))
            mg = m.margin if margin is None else margin
            mg = margins.get(f"{audit}/{m.name}", margins.get(m.name, mg))
            for r in _metric_rows(m, frame, audit, kw):
                rows.append(dict(r, metric=m.name, direction=m.direction, scale=m.scale, description=m.description,
                                 model_a=mod_a, model_b=mod_b, margin=math.nan if mg is None else float(mg)))
            cases.append(_per_case(m, frame).assign(model_a=mod_a, model_b=mod_b))
    if not any(int(r.get("n_test_cases") or 0) for r in rows):
        raise NotComparableError("no case has a usable score in both runs (no usable pairs), so there is nothing "
                                 "to compare", run=f"{run_a}, {run_b}")
    for mod_a, mod_b in pairs:  # a model pair without one usable case: its rows are inconclusive; say why
        if not any(int(r.get("n_test_cases") or 0) for r in rows if r["model_b"] == mod_b and r["model_a"] == mod_a):
            note = (f"model '{mod_b}' of run B vs '{mod_a}' of run A: no case has a usable score in both runs "
                    "(its rows are inconclusive)")
            info["model_notes"].append(note)
            info["differences"].append(note)
    table = _correct(pd.DataFrame(rows), audit)
    out_rows = []
    for r in table.to_dict("records"):
        rec = {"audit": audit, "model_a": r["model_a"], "model_b": r["model_b"], "metric": r["metric"],
               "stratum": r["stratum"], "level": r["level"], "direction": r["direction"], "value_a": _g(r, "floor"),
               "value_b": _g(r, "rate"), "difference": _g(r, "value"), "ci_low": _g(r, "ci_low"),
               "ci_high": _g(r, "ci_high"), "ci_method": r.get("ci_method") or "", "test": r.get("test") or "",
               "p": _g(r, "p"), "p_adj": _g(r, "p_adj"), "correction": r["correction"], "family": r["family"],
               "margin": r["margin"], "n_cases": int(r.get("n_test_cases") or 0),
               "n_pairs_a": int(r.get("n_control_pairs") or 0), "n_pairs_b": int(r.get("n_pairs") or 0),
               "effect_size": _g(r, "effect_size"), "scale": r["scale"], "description": r["description"],
               "null_hypothesis": r.get("null_hypothesis") or ""}
        exact = exact_paired_interval(_g(r, "_up"), _g(r, "_down"), rec["n_cases"], alpha) \
            if rec["n_cases"] and not (_nan(_g(r, "_up")) or _nan(_g(r, "_down"))) else None
        rec["verdict"] = verdict(rec["direction"], rec["difference"], rec["ci_low"], rec["ci_high"], rec["p_adj"],
                                 alpha, rec["margin"], rec["n_cases"], exact=exact, scale=rec["scale"])
        rec["bound_low"], rec["bound_high"] = margin_interval(
            rec["difference"], rec["ci_low"], rec["ci_high"], rec["n_cases"], exact=exact, scale=rec["scale"],
            alpha=alpha)
        if rec["scale"] == "proportion":
            rec["beyond_low"], rec["beyond_high"] = beyond_interval(
                rec["difference"], rec["ci_low"], rec["ci_high"], _g(r, "_up"), _g(r, "_down"), rec["n_cases"], alpha)
        else:
            rec["beyond_low"], rec["beyond_high"] = rec["ci_low"], rec["ci_high"]
        out_rows.append(rec)
    result = pd.DataFrame(out_rows, columns=COMPARISON_COLUMNS)
    per_case = pd.concat(cases, ignore_index=True)[_CASE_COLUMNS] if cases else pd.DataFrame(columns=_CASE_COLUMNS)
    comp = Comparison(run_a, run_b, result, per_case, info)
    _derive_findings(comp, alpha)
    if out is not None:
        from .compare_render import write_comparison

        comp.files = write_comparison(comp, Path(out), alpha=alpha)
    return comp


def _derive_findings(comp: Comparison, alpha: float) -> None:
    sizes = comp.table.groupby("family")["p"].apply(lambda s: s.notna().sum()).to_dict()
    for rec in comp.table.to_dict("records"):
        half = math.nan if _nan(rec["ci_low"]) or _nan(rec["ci_high"]) else (rec["ci_high"] - rec["ci_low"]) / 2
        entry = {k: rec[k] for k in ("model_a", "model_b", "metric", "stratum", "level", "verdict", "difference",
                                     "ci_low", "ci_high", "p_adj", "n_cases", "scale", "margin")}
        entry.update(sentence=_sentence(rec, alpha, sizes.get(rec["family"], 0)), ci_half_width=half)
        if rec["verdict"] in CHANGED:
            comp.findings.append(entry)
        elif rec["verdict"] == "inconclusive":
            mg = rec["margin"]
            if not _nan(mg) and mg > 0 and not _nan(half) and half > 0 and rec["n_cases"]:
                entry["n_needed"] = int(math.ceil(rec["n_cases"] * (half / mg) ** 2))
                entry["sentence"] += (f" The CI half-width {_fmt(half, rec['scale']).lstrip('+')} exceeds the margin "
                                      f"{_fmt(mg, rec['scale']).lstrip('+')}: about {entry['n_needed']} cases would "
                                      "narrow it to the margin.")
            comp.inconclusive.append(entry)
    comp.findings.sort(key=lambda e: (e["verdict"] != "worse", e["stratum"] != POOLED, e["scale"] != "proportion",
                                      -abs(e["difference"])))
