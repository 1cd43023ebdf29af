"""Treatment-shift metrics from a label table (no model calls): pairing, statistics, outputs.

This module is the analysis half of the treatment-shift audit. The audit
(:mod:`clinaudit.families.treatment_shift.audit`) produces a *label table* from model
calls; ``clinaudit treatment-shift --labels FILE`` reads one from a file
(:mod:`.labels`, which documents the columns). Both end in :func:`analyze_labels`,
so the numbers are computed the same way.

Pairing (our reading of P2 §5; see :func:`build_paired`). The noise floor
compares the baseline with itself re-sampled, so it can only pair two
*different* seeds. To measure a perturbation the same way, a perturbed answer
at seed *s'* is paired with the baseline answer of the same case, model and
question at every *other* seed *s* ≠ *s'* whenever the baseline has two or more
seeds; a perturbation that changes nothing then shifts exactly as often as the
floor (excess 0). (Same-seed pairs would compare like with like only for the
perturbation: with seeded sampling they share the random stream.) The floor
counts each unordered pair {*s*, *s'*} of two baseline seeds of a case once.
With a single baseline seed (e.g. MedPerturb) every perturbed answer is paired
with that one baseline answer, there is no floor, values are raw rates and the
floor column is empty, with a note. V and the recorded gender come from the
baseline rows of the case.

Statistics (all from :class:`clinaudit.stats.PairedFrame`, cases = the unit):
rates pooled over pairs, the floor per dataset × model × question, the excess
rate − floor with a bootstrap CI over cases, and a one-sided sign-flip
permutation test over cases of the per-case excess (H1: the shift is above the
floor; without a re-sampled floor no test: ``NO_FLOOR_NO_TEST``, and the Table 3
stars follow the excess over the clinicians' shift), corrected over the perturbations; gender gaps
of the excess with each gender's own floor. P2's ANOVA is kept beside it as the
paper's method (it assumes independent pairs).

Outputs (:class:`LabelAnalysis`, :func:`write_outputs`): ``metrics.csv``,
``significance.csv``, ``subgroups.csv``, ``agreement.csv``, ``per_case.csv``,
``table3.csv`` (P2 Table 3 layout, pooled over datasets and models),
``results.csv`` (the project's tidy result table) and ``notes.txt``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...errors import InputError
from ...pipeline.pairing import NOISE_FLOOR, pair_with_baseline
from .labels import normalize_labels
from ...atomic import write_text

__all__ = [
    "METRICS_COLUMNS",
    "PAPER_METHOD",
    "NOISE_FLOOR",
    "LabelAnalysis",
    "build_paired",
    "analyze_labels",
    "results_table",
    "write_outputs",
]

#: Columns of ``metrics.csv`` in order.
METRICS_COLUMNS: list[str] = [
    "dataset", "model", "perturbation", "question", "metric", "value", "n", "n_cases", "n_pairs", "noise_floor",
    "n_floor", "adjusted", "ci_low", "ci_high", "adjusted_ci_low", "adjusted_ci_high", "excess", "excess_ci_low",
    "excess_ci_high", "test", "statistic", "p", "p_adj", "correction", "family", "alternative", "null_hypothesis",
    "effect_size", "paper_test", "paper_statistic", "paper_p", "paper_p_adj", "note",
]

#: How the paper's own test (ANOVA over pairs) is labelled wherever it is shown.
PAPER_METHOD = "paper's method (P2), assumes independent pairs"

#: the per-case differences of a cell's excess (:func:`clinaudit.stats.paired_spread`), for its equivalence interval
_EQ = ["eq_kind", "eq_mean", "eq_se", "eq_df", "eq_moving", "eq_n"]

_QUESTIONS = ("MANAGE", "VISIT", "RESOURCE")
_METRICS = ("TSR", "RCR", "RCER")
#: why an RCER row has no value (its verdict reason): the data has no clinician label V for the cases
NO_CLINICIAN_LABELS = ("no validated pairs: RCER counts reduced care where a clinician's label V of the case said "
                       "more care was right, and these cases carry none (params.validation_field, 'validation'); "
                       "TSR and RCR need no labels")
_BY = ["dataset", "model", "perturbation", "question"]


@dataclass
class LabelAnalysis:
    """Every table of a treatment-shift analysis (all pandas DataFrames) and its notes."""

    metrics: pd.DataFrame
    significance: pd.DataFrame
    subgroups: pd.DataFrame
    agreement: pd.DataFrame
    per_case: pd.DataFrame
    table3: pd.DataFrame
    results: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    #: further tables by name (clinicians as a reference rater, exclusions: :mod:`.clinicians`)
    extra: dict[str, pd.DataFrame] = field(default_factory=dict)

    def tables(self) -> dict[str, pd.DataFrame]:
        return {
            "metrics": self.metrics, "significance": self.significance, "subgroups": self.subgroups,
            "agreement": self.agreement, "per_case": self.per_case, "table3": self.table3, "results": self.results,
            **self.extra,
        }


# --------------------------------------------------------------------------- reading




# --------------------------------------------------------------------------- pairing


def _baseline_names(labels: pd.DataFrame, baseline: str | None) -> dict[str, str]:
    out = {}
    for ds, g in labels.groupby("dataset", sort=True):
        variants = set(g["variant"])
        if baseline is not None:
            if baseline not in variants:
                raise InputError(f"dataset {ds!r} has no {baseline!r} rows; variants: {', '.join(sorted(variants))}",
                                 field="variant")
            out[ds] = baseline
        elif "baseline" in variants:
            out[ds] = "baseline"
        elif "vignette" in variants:
            out[ds] = "vignette"
        else:
            raise InputError(f"dataset {ds!r} has no 'baseline' (or 'vignette') rows; variants: "
                             f"{', '.join(sorted(variants))}; name the baseline variant explicitly", field="variant")
    return out


def _first_valid(s: pd.Series) -> Any:
    s = s.dropna()
    return s.iloc[0] if len(s) else None


def build_paired(labels: pd.DataFrame, baseline: str | None = None, groups: Sequence[str] = ()) -> pd.DataFrame:
    """The per-case paired table: one row per pair of answers compared.

    Columns: ``dataset, case_id, model, perturbation, question, seed, seed_b, T_b,
    T_p, V, gender, inferred_gender``. ``T_b`` is the baseline answer at ``seed_b``,
    ``T_p`` the perturbed answer at ``seed``. Pairing (see the module docs), per
    dataset × case × model × question:

    - two or more baseline seeds: a perturbed answer at seed *s'* is paired with
      every baseline answer at a seed *s* ≠ *s'* (as the floor pairs are);
      ``noise_floor`` rows are the unordered pairs {*s*, *s'*} of two different
      baseline seeds, each once (``seed_b`` = the lower seed, ``seed`` the higher);
    - one baseline seed: every perturbed answer is paired with it (same seed when
      they share one; no floor rows);
    - no baseline answer: the perturbed row is kept with ``T_b`` missing (not usable).

    ``groups``: case-level group columns of ``labels`` (race, age band, ...) carried to every pair, after
    ``inferred_gender``.
    """
    lab = normalize_labels(labels)
    bnames = _baseline_names(lab, baseline)
    is_base = lab["variant"] == lab["dataset"].map(bnames)
    base = lab[is_base]
    case_keys = ["dataset", "case_id"]
    # case-level attributes from the baseline rows (fall back to any row of the case)
    attrs = []
    groups = [g for g in groups if g in lab.columns]
    for col in ("validation", "gender", *groups):
        keys = case_keys + (["question"] if col == "validation" else [])
        a = base.groupby(keys, sort=False)[col].agg(_first_valid)
        b = lab.groupby(keys, sort=False)[col].agg(_first_valid)
        attrs.append((col, keys, a.combine_first(b)))
    inf_a = base.groupby(case_keys + ["model"], sort=False)["inferred_gender"].agg(_first_valid)
    inf_b = base.groupby(case_keys, sort=False)["inferred_gender"].agg(_first_valid)

    # the shared baseline pairing (clinaudit.pipeline.pairing): perturbed vs baseline, and the noise floor
    paired = pair_with_baseline(lab, keys=["dataset", "case_id", "model", "question"], baseline=is_base,
                                arm="variant", seed="seed", value="label", floor=NOISE_FLOOR)
    paired = paired.rename(columns={"variant": "perturbation", "alt": "T_p", "ref": "T_b"})
    for col, keys, series in attrs:
        target = "V" if col == "validation" else col
        paired = paired.merge(series.rename(target).reset_index(), on=keys, how="left")
    paired = paired.merge(inf_a.rename("inferred_gender").reset_index(), on=case_keys + ["model"], how="left")
    fill = paired.merge(inf_b.rename("_inf_any").reset_index(), on=case_keys, how="left")["_inf_any"]
    paired["inferred_gender"] = paired["inferred_gender"].combine_first(fill)
    paired["seed_b"] = pd.to_numeric(paired["seed_b"], errors="coerce").astype("Int64")
    paired["V"] = pd.to_numeric(paired["V"], errors="coerce").astype(float)
    cols = ["dataset", "case_id", "model", "perturbation", "question", "seed", "seed_b", "T_b", "T_p", "V",
            "gender", "inferred_gender", *groups]
    order = {q: i for i, q in enumerate(_QUESTIONS)}
    paired = paired[cols].assign(_q=paired["question"].map(order))
    paired = paired.sort_values(["dataset", "model", "perturbation", "case_id", "seed", "seed_b", "_q"], kind="stable")
    return paired.drop(columns="_q").reset_index(drop=True)


# --------------------------------------------------------------------------- analysis


def _cells(paired: pd.DataFrame, by: list[str], *, n_resamples: int, n_permutations: int, seed: int,
           floor_zero: bool, correction: str, audit: str) -> pd.DataFrame:
    """Every metric cell through the paired-statistics layer, in the ``metrics.csv`` layout.

    Two :func:`treatment_shift_table` calls: the raw rate (its CI; compared with 0) and,
    when there are noise-floor pairs, the excess over the floor (its CI and the primary
    test). The primary test is the layer's one-sided sign-flip test over cases of the
    excess over the floor, or of the rate over 0 when there is no floor (declared 0 or
    none); corrected over the perturbations of one dataset × model × question × metric.
    """
    from .metrics import treatment_shift_table
    from ...stats import apply_correction

    data = paired[paired["perturbation"] != NOISE_FLOOR]
    if data.empty:
        return pd.DataFrame(columns=METRICS_COLUMNS)
    has_floor = bool((paired["perturbation"] == NOISE_FLOOR).any()) and not floor_zero
    kw: dict[str, Any] = dict(by=by, n_resamples=n_resamples, n_permutations=n_permutations, seed=seed, audit=audit,
              alternative="greater")
    keys = by + ["metric"]
    raw = treatment_shift_table(data, floor=0.0, **kw)
    out = raw[keys + ["raw", "n", "n_cases", "n_pairs", "ci_low", "ci_high"]].rename(columns={"raw": "value"})
    prim = treatment_shift_table(paired, **kw) if has_floor else raw
    prim = prim[keys + ["floor", "n_control_pairs", "value", "ci_low", "ci_high", "test", "statistic", "p",
                        "alternative", "null_hypothesis", "effect_size", "test_note", "p_method", "n_permutations",
                        "n_test_cases"] + [c for c in _EQ if c in prim.columns]].rename(columns={
        "floor": "noise_floor", "n_control_pairs": "n_floor", "value": "excess", "ci_low": "excess_ci_low",
        "ci_high": "excess_ci_high"})
    out = out.merge(prim, on=keys, how="left")
    if has_floor:
        out["adjusted"] = out["excess"]
    elif floor_zero:
        out["noise_floor"], out["adjusted"] = 0.0, out["value"]
    else:
        out["noise_floor"] = out["adjusted"] = np.nan
    out["adjusted_ci_low"] = out["excess_ci_low"].where(out["adjusted"].notna())
    out["adjusted_ci_high"] = out["excess_ci_high"].where(out["adjusted"].notna())
    fam = [c for c in by if c != "perturbation"] + ["metric"]
    out["family"] = "perturbations within " + out[fam].astype(str).agg("|".join, axis=1)
    out = apply_correction(out, family_cols=["family"], method=correction)
    paper = _paper_anova(paired, by, audit) if has_floor else pd.DataFrame()
    if len(paper):
        per = paper[paper["comparison"] == "perturbation vs noise floor"]
        per = per[keys + ["test", "statistic", "p"]].rename(
            columns={"test": "paper_test", "statistic": "paper_statistic", "p": "paper_p"})
        out = out.merge(per, on=keys, how="left")
        adj = apply_correction(out[["family", "paper_p"]].rename(columns={"paper_p": "p"}), family_cols=["family"],
                               method=correction)
        out["paper_p_adj"] = adj["p_adj"].to_numpy()
    notes = []
    for metric, n, floor_ok in zip(out["metric"], out["n"], out["adjusted"].notna()):
        if metric == "RCER" and not n:
            notes.append(NO_CLINICIAN_LABELS)
        elif floor_ok:
            notes.append("")
        else:
            notes.append("no noise floor (one baseline seed): value is the raw rate; no test (no floor, no null)")
    out["note"] = notes
    for c in METRICS_COLUMNS:
        if c not in out.columns:
            out[c] = np.nan if c not in ("paper_test",) else ""
    return out[METRICS_COLUMNS + [c for c in out.columns if c not in METRICS_COLUMNS]]


def _paper_anova(paired: pd.DataFrame, by: list[str], audit: str) -> pd.DataFrame:
    """P2's own test, kept as the paper's method: one-way ANOVA of each perturbation's per-pair
    scores against the noise-floor pairs' (P2 §4.3.2), plus one omnibus ANOVA across all
    perturbations and the floor per stratum × metric. It treats every pair as independent
    (seeds of one case are not); the primary test is the layer's case-level test."""
    from .metrics import score_table
    from ...results import result_row, results_frame
    from ...stats import anova_oneway

    rows: list[dict[str, Any]] = []
    fkeys = [c for c in by if c != "perturbation"]
    for metric in _METRICS:
        scored = score_table(paired, metric)
        for key, g in scored.groupby(fkeys, sort=True):
            labels = dict(zip(fkeys, key if isinstance(key, tuple) else (key,)))
            events = {str(k): v["score"].dropna().to_numpy(float) for k, v in g.groupby("perturbation", sort=True)}
            floor = events.pop(NOISE_FLOOR, None)
            groups = list(events.values()) + ([floor] if floor is not None else [])
            common = dict(audit=audit, metric=metric, correction="", **labels)
            if floor is not None:
                for pert, ev in events.items():
                    res = anova_oneway(ev, floor)
                    rows.append(result_row(
                        group=pert, reference=NOISE_FLOOR, value=ev.mean() - floor.mean() if len(ev) and len(floor)
                        else math.nan, n=res.n, test=f"anova_oneway vs noise floor ({PAPER_METHOD})",
                        statistic=res.statistic, p=res.p, comparison="perturbation vs noise floor",
                        perturbation=pert, note=res.note, **common))
            if len(groups) >= 2:
                res = anova_oneway(*groups)
                rows.append(result_row(
                    group="all perturbations" + (" + noise floor" if floor is not None else ""), reference="",
                    value=math.nan, n=res.n, test=f"anova_oneway omnibus ({PAPER_METHOD})", statistic=res.statistic,
                    p=res.p, comparison="omnibus across perturbations", perturbation="*", note=res.note, **common))
    return results_frame(rows)


def _agreement(labels: pd.DataFrame) -> pd.DataFrame:
    from .metrics import agreement_matrix

    rows = []
    for (ds, var, q), g in labels.groupby(["dataset", "variant", "question"], sort=True):
        models = sorted(pd.unique(g["model"]))
        if len(models) < 2:
            continue
        mat = agreement_matrix(g, item_cols=("case_id", "seed"), model_col="model", label_col="label")
        wide = g.dropna(subset=["label"]).pivot_table(index=["case_id", "seed"], columns="model", values="label",
                                                       aggfunc="first")
        for i, a in enumerate(models):
            for b in models[i + 1:]:
                n = int((wide[a].notna() & wide[b].notna()).sum()) if a in wide and b in wide else 0
                rows.append({"dataset": ds, "variant": var, "question": q, "model_a": a, "model_b": b,
                             "agreement": float(mat.loc[a, b]) if a in mat.index and b in mat.columns else math.nan,
                             "n": n})
    return pd.DataFrame(rows, columns=["dataset", "variant", "question", "model_a", "model_b", "agreement", "n"])


def _subgroups(paired: pd.DataFrame, by: list[str], n_resamples: int, n_permutations: int, seed: int,
               correction: str, floor_zero: bool, audit: str) -> pd.DataFrame:
    """Female − male gaps of the excess (each gender against its own floor), recorded and model-inferred."""
    from .metrics import subgroup_gap

    if floor_zero:  # declared floor 0: the floor pairs are not used (as for the metric cells)
        paired = paired[paired["perturbation"] != NOISE_FLOOR]
    frames = []
    for col, source in (("gender", "recorded"), ("inferred_gender", "model_inferred")):
        vals = paired[col].dropna().astype(str).str.lower()
        if not (vals.eq("female").any() and vals.eq("male").any()):
            continue
        for metric in _METRICS:
            t = subgroup_gap(paired, metric=metric, gender_col=col, by=by, n_resamples=n_resamples, seed=seed,
                             n_permutations=n_permutations, audit=audit)
            if len(t):
                frames.append(t.assign(gender_source=source))
    return _corrected_gaps(frames, ("dataset", "model", "question", "metric", "gender_source"),
                           "subgroup gaps over perturbations", correction, paired)


def _group_gaps(paired: pd.DataFrame, groups: Mapping[str, str], by: list[str], n_resamples: int,
                n_permutations: int, seed: int, correction: str, floor_zero: bool, audit: str,
                min_group_cases: int) -> pd.DataFrame:
    """Gaps of the excess of every group column against its reference group (:func:`.groups.group_gaps`),
    corrected over the perturbations and groups of one dataset × model × question × metric × attribute."""
    from .groups import group_gaps

    if floor_zero:
        paired = paired[paired["perturbation"] != NOISE_FLOOR]
    frames = [group_gaps(paired, attr, ref, metrics=_METRICS, by=by, n_resamples=n_resamples,
                         n_permutations=n_permutations, seed=seed, audit=audit, min_group_cases=min_group_cases)
              for attr, ref in groups.items() if attr in paired.columns]
    return _corrected_gaps([f for f in frames if len(f)], ("dataset", "model", "question", "metric", "attribute"),
                           "group gaps over perturbations and groups", correction, paired)


def _corrected_gaps(frames: list[pd.DataFrame], family_keys: tuple[str, ...], family: str, correction: str,
                    paired: pd.DataFrame) -> pd.DataFrame:
    """The gap tables of ``frames`` in one table, corrected within each family of ``family_keys`` (those present),
    RCER gaps of unlabelled data explained; an empty results table when there are none."""
    from ...results import results_frame
    from ...stats import apply_correction

    if not frames:
        return results_frame([])
    df = pd.concat(frames, ignore_index=True)
    fam_cols = [c for c in family_keys if c in df.columns]
    return _explain_rcer(apply_correction(df, family_cols=fam_cols, family=family, method=correction), paired)


def _explain_rcer(gaps: pd.DataFrame, paired: pd.DataFrame) -> pd.DataFrame:
    """RCER gap rows of data without any clinician label V carry :data:`NO_CLINICIAN_LABELS` as their note
    (their verdict reason), as the RCER cells do, instead of a bare 'no usable unit'."""
    has_labels = "V" in paired.columns and bool(paired["V"].notna().any())
    if has_labels or gaps.empty or "metric" not in gaps.columns:
        return gaps
    note = gaps["note"] if "note" in gaps.columns else pd.Series("", index=gaps.index)
    rcer = gaps["metric"].astype(str).str.startswith("RCER_") & pd.to_numeric(gaps["value"], errors="coerce").isna()
    blank = note.isna() | (note.astype(str).str.strip() == "")
    out = gaps.copy()
    out.loc[rcer & blank, "note"] = NO_CLINICIAN_LABELS
    return out


def _fmt_cell(value: float, lo: float, hi: float, sig: bool) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    s = f"{100 * value:.2f}"
    if not (math.isnan(lo) or math.isnan(hi)):
        s += f" [{100 * lo:.2f}, {100 * hi:.2f}]"
    return s + ("*" if sig else "")


def _table3(metrics_pooled: pd.DataFrame, reference: pd.DataFrame | None = None) -> pd.DataFrame:
    """P2 Table 3 layout: perturbation rows × (metric, question) columns, in percent.

    A star marks p_adj < 0.05 of the cell's own test (the excess over the noise floor); without a floor
    a cell has no test, and with ``reference`` (the pooled excess over the clinicians' shift, its
    ``flagged`` column) the star follows that comparison instead."""
    if metrics_pooled.empty:
        return pd.DataFrame()
    m = metrics_pooled.copy()
    sig = [bool(pa < 0.05) if not math.isnan(pa) else False for pa in m["p_adj"].astype(float)]
    if reference is not None and len(reference):
        keys = ["dataset", "perturbation", "question", "metric"]
        ref = reference.assign(metric=reference["metric"].str.replace("_excess_over_clinicians", "", regex=False))
        flag = m[keys].merge(ref[keys + ["flagged"]].drop_duplicates(keys), on=keys, how="left")["flagged"]
        sig = [s or f is True for s, f in zip(sig, flag.astype(object).where(flag.notna(), None))]
    m["cell"] = [_fmt_cell(v, lo, hi, st) for v, lo, hi, st in zip(m["excess"], m["excess_ci_low"],
                                                                   m["excess_ci_high"], sig)]
    m["column"] = m["metric"] + " " + m["question"]
    order = [f"{mt} {q}" for mt in _METRICS for q in _QUESTIONS]
    keys = [c for c in ("dataset", "perturbation") if c in m.columns]
    wide = m.pivot_table(index=keys, columns="column", values="cell", aggfunc="first")
    wide = wide[[c for c in order if c in wide.columns]].reset_index()
    wide.columns.name = None
    return wide


def _cell_rows(metrics: pd.DataFrame, audit: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(significance rows, result rows) of the metric cells: the primary (case-level) test of every cell."""
    from ...results import result_row, results_frame

    sig_rows, res_rows = [], []
    for _, r in metrics.iterrows():
        has = not (isinstance(r["adjusted"], float) and math.isnan(r["adjusted"]))
        common = dict(audit=audit, metric=r["metric"], group=r["perturbation"], n=r["n"], test=r["test"],
                      statistic=r["statistic"], p=r["p"], p_adj=r["p_adj"], correction=r["correction"],
                      family=r["family"], dataset=r["dataset"], model=r["model"], perturbation=r["perturbation"],
                      question=r["question"], n_cases=r["n_cases"], n_pairs=r["n_pairs"], floor=r["noise_floor"],
                      n_floor=r["n_floor"], alternative=r["alternative"], null_hypothesis=r["null_hypothesis"])
        sig_rows.append(result_row(
            reference=NOISE_FLOOR if has else "0", value=r["excess"], ci_low=r["excess_ci_low"],
            ci_high=r["excess_ci_high"], effect_size=r["effect_size"],
            comparison="excess over the noise floor (case-level)" if has else "shift rate (no noise floor: no test)",
            **common))
        res_rows.append(result_row(
            reference="baseline (minus noise floor)" if has else "baseline", value=r["excess"],
            ci_low=r["excess_ci_low"], ci_high=r["excess_ci_high"], ci_method="percentile bootstrap over cases",
            raw=r["value"], note=r["note"], p_method=r.get("p_method", ""), n_permutations=r.get("n_permutations"),
            n_test_cases=r.get("n_test_cases"), **{c: r[c] for c in _EQ if c in r and has}, **common))
    return results_frame(sig_rows), results_frame(res_rows)


def results_table(labels: pd.DataFrame, *, baseline: str | None = None, n_resamples: int = 1000, seed: int = 0,
                  correction: str = "bonferroni", floor_zero: bool = False, audit: str = "treatment_shift",
                  n_permutations: int = 9999, groups: Mapping[str, str] | None = None,
                  min_group_cases: int = 2) -> pd.DataFrame:
    """The ``results`` table of :func:`analyze_labels` alone (metric cells per model, then the gender gaps),
    computed the same way without the pooled Table 3, the paper's ANOVAs, agreement or clinician tables
    (for simulations: benchmarks/calibration.py)."""
    from ...results import results_frame

    paired = build_paired(normalize_labels(labels), baseline=baseline, groups=list(groups or {}))
    kw: dict[str, Any] = dict(n_resamples=n_resamples, n_permutations=n_permutations, seed=seed, floor_zero=floor_zero,
                              correction=correction, audit=audit)
    by = list(_BY)
    results = _cell_rows(_cells(paired, by, **kw), audit)[1]
    subgroups = _subgroups(paired, by, n_resamples, n_permutations, seed, correction, floor_zero, audit)
    by_group = _group_gaps(paired, groups or {}, by, n_resamples, n_permutations, seed, correction, floor_zero, audit,
                           min_group_cases)
    parts = [x for x in (results, subgroups, by_group) if len(x)]
    return results_frame(pd.concat(parts, ignore_index=True)) if len(parts) > 1 else results


def analyze_labels(
    labels: pd.DataFrame,
    *,
    baseline: str | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    correction: str = "bonferroni",
    floor_zero: bool = False,
    notes: Sequence[str] = (),
    audit: str = "treatment_shift",
    clinicians: pd.DataFrame | None = None,
    n_permutations: int = 9999,
    control: str | None = None,
    groups: Mapping[str, str] | None = None,
    min_group_cases: int = 2,
) -> LabelAnalysis:
    """TSR / RCR / RCER per dataset × model × perturbation × question: rate, floor, excess, CI, test.

    ``floor_zero`` declares the noise floor 0 (deterministic decoding, P2 Appendix F).
    ``correction`` (``bonferroni`` as in P2, or ``fdr_bh``) is applied over the
    perturbations of one dataset × model × question × metric. ``n_resamples``:
    bootstrap resamples of cases; ``n_permutations``: sign flips of the case-level test.
    ``clinicians``: human labels for every variant (:mod:`.clinicians`). ``control``: a
    perturbation every other one is also compared with (:mod:`.control`; table ``control``).
    ``groups``: group column -> its reference group; the gaps of every other group are results rows
    (``*_group_gap``) and table ``group_gaps`` (:mod:`.groups`; fewer than ``min_group_cases`` cases: not measured).
    """
    from ...results import results_frame

    notes = list(notes)
    lab = normalize_labels(labels)
    paired = build_paired(lab, baseline=baseline, groups=list(groups or {}))
    by = list(_BY)
    has_floor_rows = bool((paired["perturbation"] == NOISE_FLOOR).any())
    if has_floor_rows:
        notes.append("several baseline seeds: each perturbed answer at seed s' is paired with the baseline answers "
                     "at every other seed s != s' (as the noise floor pairs two different seeds); the floor counts "
                     "each unordered pair of baseline seeds once")
    if floor_zero:
        notes.append("noise floor declared 0 (deterministic decoding): adjusted = raw value; no p-value (nothing "
                     "re-sampled to test against)")
    elif not has_floor_rows:
        if not any("noise floor" in n for n in notes):
            notes.append("no re-sampled baseline (one seed per case): no noise floor; values are raw rates")
        notes.append("without a noise floor a shift rate carries no p-value (a sign-flip test of 'symmetric about "
                     "0' would give 2^-k for k changed cases whatever the data); with clinician labels, "
                     "significance and the Table 3 stars come from the excess over the clinicians' shift")
    kw: dict[str, Any] = dict(n_resamples=n_resamples, n_permutations=n_permutations, seed=seed, floor_zero=floor_zero,
              correction=correction, audit=audit)
    metrics = _cells(paired, by, **kw)
    # pooled over models (P2 Table 3 layout); the cases still cluster all models' pairs
    pooled_cells = _cells(paired.assign(model="ALL"), by, **kw) if len(paired) else pd.DataFrame()
    table3 = _table3(pooled_cells)
    paper = _paper_anova(paired, by, audit) if has_floor_rows and not floor_zero else results_frame([])
    if len(paper) == 0 and len(paired):
        paper = _paper_anova(paired[paired["perturbation"] != NOISE_FLOOR], by, audit)

    # significance: the primary (case-level) test of every cell, then the paper's ANOVAs
    sig, cell_results = _cell_rows(metrics, audit)
    if len(paper):
        from ...stats import apply_correction

        per = paper[paper["comparison"] == "perturbation vs noise floor"]
        omni = paper[paper["comparison"] != "perturbation vs noise floor"]
        parts = [sig]
        if len(per):
            parts.append(apply_correction(per, family_cols=["dataset", "model", "question", "metric"],
                                          family="perturbations vs noise floor", method=correction))
        if len(omni):
            parts.append(apply_correction(omni, family_cols=["dataset", "metric"],
                                          family="omnibus over models x questions", method=correction))
        sig = results_frame(pd.concat(parts, ignore_index=True))

    subgroups = _subgroups(paired, by, n_resamples, n_permutations, seed, correction, floor_zero, audit)
    by_group = _group_gaps(paired, groups or {}, by, n_resamples, n_permutations, seed, correction, floor_zero, audit,
                           min_group_cases)
    agreement = _agreement(lab)
    results = cell_results
    extra: dict[str, pd.DataFrame] = {"group_gaps": by_group} if groups else {}
    if control:
        from .control import control_comparison

        extra["control"] = control_comparison(paired, control, by=by, floor_label=NOISE_FLOOR, audit=audit,
                                              n_resamples=n_resamples, n_permutations=n_permutations, seed=seed,
                                              correction=correction)
        if extra["control"].empty:
            notes.append(f"control perturbation {control}: no pairs, so nothing is compared with it")
    for part in [subgroups, by_group, extra.get("control")]:
        if part is not None and len(part):
            results = results_frame(pd.concat([results, part], ignore_index=True))
    analysis = LabelAnalysis(metrics=metrics, significance=sig, subgroups=subgroups, agreement=agreement,
                             per_case=paired, table3=table3, results=results, notes=list(dict.fromkeys(notes)),
                             extra=extra)
    # ---- clinicians as a reference rater, accuracy vs clinicians, invalid clinician labels (clinicians.py)
    from .clinicians import add_clinician_tables

    no_floor = floor_zero or not has_floor_rows
    analysis = add_clinician_tables(analysis, labels, clinicians, baseline=baseline, n_resamples=n_resamples,
                                    seed=seed, correction=correction, audit=audit, n_permutations=n_permutations,
                                    pooled=no_floor)
    if no_floor and "excess_over_clinicians_pooled" in analysis.extra:  # Table 3 stars: the clinicians' reference
        analysis.table3 = _table3(pooled_cells, analysis.extra["excess_over_clinicians_pooled"])
    return analysis


def write_outputs(analysis: LabelAnalysis, out_dir: str | Path) -> list[Path]:
    """Write every table as ``<name>.csv`` plus ``notes.txt`` into ``out_dir``."""
    from ...export import to_csv

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, df in analysis.tables().items():
        p = out / f"{name}.csv"
        to_csv(df, p)  # user-facing outputs: formula-like cells neutralised
        paths.append(p)
    p = out / "notes.txt"
    write_text(p, "\n".join(analysis.notes) + ("\n" if analysis.notes else ""))
    paths.append(p)
    return paths
