"""Report section of the ``treatment_shift`` audit (P2, *The Medium is the Message*).

Blocks, all built from the run's tables:

* what was run (cases, models, perturbations, seeds, parser, noise floor);
* judge reliability first — annotator parse rate, strict vs tolerant parser
  disagreement, gender-inference parse rate and accuracy — since every number
  below rests on the annotator;
* headline :class:`Metric` blocks: per model, the perturbation × question with the
  largest treatment shift in excess of the noise floor (n cases, n pairs, floor,
  excess, CI, test, corrected p, family), and the test's null hypothesis;
* P2 Table 3 (TSR / RCR / RCER per perturbation and question, pooled over models);
* bar charts with bootstrap CIs of TSR, RCR and RCER per perturbation, model and
  question, and the noise floor they are measured against;
* gender gaps (recorded and model-inferred) and model agreement;
* clinicians as a reference rater (:func:`clinician_blocks`): their own shift, each model's
  shift in excess of it, accuracy against clinicians, excluded clinician labels;
* conversational settings: accuracy, its change per setting and perturbation (P2 Table 4);
* :class:`Compare` blocks: one case's perturbed inputs side by side, and one model's
  answers to them with their labels.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from ...pipeline import normalize_responses
from ...rundir import RunDir
from ...report.base import Compare, Figure, Metric, Section, Table, Text, register_section
from ...report.formatting import as_float
from .section_recipe import control_blocks, exclusion_blocks, gender_accuracy_blocks, table1_blocks

__all__ = ["build", "compare_inputs", "compare_answers", "clinician_blocks"]

AUDIT = "treatment_shift"
_QUESTIONS = ("MANAGE", "VISIT", "RESOURCE")
_METRIC_NAMES = {
    "TSR": "Treatment Shift Rate: share of answers whose label changed",
    "RCR": "Reduced Care Rate: share that moved from more care to less care",
    "RCER": "Reduced Care Error Rate: reduced care where clinicians said more care was right",
}



def _nan(x: Any) -> float:
    v = as_float(x)
    return float("nan") if v is None else v


def _pct(x: Any) -> str:
    v = as_float(x)
    return "n/a" if v is None else f"{100 * v:.1f}%"


def _reported(m: pd.DataFrame) -> pd.DataFrame:
    """Metric rows with the reported value: the excess over the noise floor (over 0 when there is no floor)."""
    m = m.copy()
    has = m["adjusted"].notna()
    # rows without an excess (a run written before the paired-statistics layer; the clinicians' own rows):
    # minus the floor when there is one, else the raw rate
    m["reported"] = m["adjusted"].where(has, m["value"])
    m["rep_low"] = m["adjusted_ci_low"].where(has, m["ci_low"])
    m["rep_high"] = m["adjusted_ci_high"].where(has, m["ci_high"])
    if "excess" in m.columns:
        ex = m["excess"].notna()
        m.loc[ex, "reported"] = m.loc[ex, "excess"]
        m.loc[ex, "rep_low"], m.loc[ex, "rep_high"] = m.loc[ex, "excess_ci_low"], m.loc[ex, "excess_ci_high"]
    m["basis"] = ["minus noise floor" if h else "raw (no noise floor)" for h in has]
    return m


#: Columns shown beside every shift, in this order (those present in the run's table).
SHIFT_COLUMNS = ("dataset", "model", "perturbation", "question", "metric", "n_cases", "n_pairs", "value",
                 "noise_floor", "n_floor", "excess", "excess_ci_low", "excess_ci_high", "test", "alternative", "p",
                 "p_adj", "p_method", "correction", "family", "null_hypothesis", "paper_test", "paper_p", "paper_p_adj", "note")
_OLD_SHIFT_COLUMNS = ("dataset", "model", "perturbation", "question", "metric", "value", "noise_floor", "adjusted",
                      "n", "ci_low", "ci_high", "adjusted_ci_low", "adjusted_ci_high", "test", "p", "p_adj", "p_method",
                      "correction", "family", "note")
GAP_COLUMNS = ("gender_source", "dataset", "model", "perturbation", "question", "metric", "n_cases_female",
               "n_cases_male", "n", "value_female", "floor_female", "value_male", "floor_male", "value", "ci_low",
               "ci_high", "test", "p", "p_adj", "p_method", "correction", "family", "null_hypothesis")


def _cols(df: pd.DataFrame, cols: tuple[str, ...]) -> list[str]:
    return [c for c in cols if c in df.columns]


def _bar_figure(m: pd.DataFrame, metric: str) -> Figure | None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure as MplFigure
    import numpy as np

    d = m[(m["metric"] == metric) & m["reported"].notna()]
    if d.empty:
        return None
    questions = [q for q in _QUESTIONS if q in set(d["question"])]
    models = sorted(d["model"].unique())
    perts = list(dict.fromkeys(d.sort_values("perturbation")["perturbation"]))
    fig = MplFigure(figsize=(4.2 * len(questions), 3.4))
    axes = fig.subplots(1, len(questions), sharey=True, squeeze=False)
    width = 0.8 / max(1, len(models))
    x = np.arange(len(perts))
    for ax, q in zip(axes[0], questions):
        for i, model in enumerate(models):
            s = d[(d["question"] == q) & (d["model"] == model)].set_index("perturbation").reindex(perts)
            val = 100 * s["reported"].to_numpy(float)
            lo = 100 * s["rep_low"].to_numpy(float)
            hi = 100 * s["rep_high"].to_numpy(float)
            err = np.vstack([np.nan_to_num(val - lo), np.nan_to_num(hi - val)])
            ax.bar(x + i * width - 0.4 + width / 2, val, width, yerr=np.clip(err, 0, None), capsize=2, label=model)
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_title(q)
        ax.set_xticks(x)
        ax.set_xticklabels(perts, rotation=45, ha="right", fontsize=8)
    axes[0][0].set_ylabel(f"{metric} (percentage points)")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    basis = ", ".join(sorted(set(d["basis"])))
    data = d[_cols(d, ("dataset", "model", "perturbation", "question", "metric", "n_cases", "n_pairs", "n", "value",
                       "noise_floor", "reported", "rep_low", "rep_high", "test", "p", "p_adj", "p_method", "family"))]
    return Figure(title=f"{metric} by perturbation ({basis})", fig=fig, data=data, name=f"{metric.lower()}_bars",
                  caption=f"{_METRIC_NAMES[metric]}. Bars: percentage points ({basis}); whiskers: 95% percentile "
                          "bootstrap CI over cases.")


def group_gap_blocks(rundir: Any) -> list[Any]:
    """One table per declared group column: each group's gap against the column's reference group (or why the
    column could not be measured)."""
    gg = rundir.table_or_empty("group_gaps")
    if gg.empty or "attribute" not in gg.columns:
        return []
    out: list[Any] = []
    cols = [c for c in ("dataset", "model", "perturbation", "question", "metric", "group", "reference", "value",
                        "value_a", "value_b", "n_cases_a", "n_cases_b", "ci_low", "ci_high", "test", "p", "p_adj",
                        "correction", "not_measured_reason") if c in gg.columns]
    for attr, t in gg.groupby(gg["attribute"].astype(str), sort=False):
        ref = str(t["reference"].dropna().astype(str).iloc[0]) if t["reference"].notna().any() else ""
        out.append(Table(f"Gaps by {attr} (each group − {ref})", t[cols].reset_index(drop=True),
                         name=f"group_gaps_{attr}",
                         caption=f"value_a: the group's shift minus its own noise floor; value_b: the same for the "
                                 f"reference group {ref!r} (fixed before the data: params.reference_groups, else the "
                                 "largest group); value: their gap, CI from a bootstrap over cases within each group, "
                                 "test: permutation of the group labels over cases; one row per non-reference "
                                 "group. not_measured_reason: why a group could not be measured."))
    return out


def _gap_figure(sub: pd.DataFrame) -> Figure | None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure as MplFigure
    import numpy as np

    d = sub[sub["metric"] == "TSR_gap"].dropna(subset=["value"])
    if d.empty:
        return None
    sources = list(dict.fromkeys(d["gender_source"]))
    fig = MplFigure(figsize=(5 * len(sources), 3.4))
    axes = fig.subplots(1, len(sources), squeeze=False, sharey=True)
    for ax, src in zip(axes[0], sources):
        s = d[d["gender_source"] == src].groupby("perturbation")[["value", "ci_low", "ci_high"]].mean()
        x = np.arange(len(s))
        val = 100 * s["value"].to_numpy(float)
        err = np.vstack([np.nan_to_num(val - 100 * s["ci_low"].to_numpy(float)),
                         np.nan_to_num(100 * s["ci_high"].to_numpy(float) - val)])
        ax.bar(x, val, yerr=np.clip(err, 0, None), capsize=2, color="#b5651d")
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xticks(x)
        ax.set_xticklabels(list(s.index), rotation=45, ha="right", fontsize=8)
        ax.set_title(f"{src.replace('_', '-')} gender")
    axes[0][0].set_ylabel("TSR excess, female − male (points)")
    fig.tight_layout()
    return Figure(title="Gender gap in treatment shift (female − male)", fig=fig, data=d, name="tsr_gender_gap",
                  caption="Gap of the shift in excess of each gender's own noise floor; mean over models and "
                          "questions of the per-cell gap; whiskers: mean of the per-cell bootstrap CIs (see the table "
                          "for each cell's floors, CI, test and corrected p).")


def compare_inputs(rundir: RunDir, case_id: str | None = None) -> Compare | None:
    """One case's baseline and perturbed inputs side by side (default: the case whose labels moved most)."""
    var = rundir.table_or_empty("variants")
    if var.empty:
        return None
    if case_id is None:
        paired = rundir.table_or_empty("paired")
        if not paired.empty:
            p = paired[paired["perturbation"] != "noise_floor"]
            flips = (p["T_b"] != p["T_p"]) & p["T_b"].notna() & p["T_p"].notna()
            counts = p[flips].groupby("case_id").size()
            case_id = str(counts.idxmax()) if len(counts) else None
        if case_id is None:
            case_id = str(var["case_id"].iloc[0])
    v = var[var["case_id"].astype(str) == str(case_id)]
    if v.empty:
        return None
    texts = {}
    for _, r in v.iterrows():
        label = str(r["name"])
        flags = r.get("flags")
        if isinstance(flags, str) and flags not in ("", "[]"):
            label += f" (flags: {', '.join(json.loads(flags))})"
        texts[label] = "" if pd.isna(r["text"]) else str(r["text"])
    return Compare(title=f"Case {case_id}: the inputs the models saw", case_id=str(case_id), variants=texts,
                   reference="baseline")


def compare_answers(rundir: RunDir, case_id: str, model: str | None = None, seed: int | None = None) -> Compare | None:
    """One model's answers to one case's variants (one seed), each labelled with its annotation."""
    resp, labels = rundir.table_or_empty("responses"), rundir.table_or_empty("labels")
    if resp.empty or labels.empty:
        return None
    resp = normalize_responses(resp)  # run dirs of 0.1 named the columns response / variant
    # variant_id -> variant name (0.1 run dirs held the name itself, which maps to itself)
    var = rundir.table_or_empty("variants")
    names = dict(zip(var["variant_id"].astype(str), var["name"].astype(str))) if not var.empty else {}
    resp = resp.assign(variant_name=[names.get(str(v), str(v)) for v in resp["variant_id"]])
    t = resp[(resp["stage"] == "target") & (resp["case_id"].astype(str) == str(case_id))]
    if t.empty:
        return None
    model = model or str(t["model"].iloc[0])
    seed = int(t["seed"].iloc[0]) if seed is None else seed
    t = t[(t["model"] == model) & (t["seed"] == seed)]
    lab = labels[(labels["case_id"].astype(str) == str(case_id)) & (labels["model"] == model) & (labels["seed"] == seed)]
    texts = {}
    for _, r in t.iterrows():
        ls = lab[lab["variant"] == r["variant_name"]]
        tags = []
        for q in _QUESTIONS:
            row = ls[ls["question"] == q]
            if len(row):
                v = as_float(row.iloc[0]["label"])
                tags.append(f"{q} {'?' if v is None else ('YES' if v else 'NO')}")
        texts[f"{r['variant_name']} [{', '.join(tags)}]"] = "" if pd.isna(r["text"]) else str(r["text"])
    if not texts:
        return None
    ref = next((k for k in texts if k.startswith("baseline")), None)
    return Compare(title=f"Case {case_id}: answers of {model} (seed {seed}) with their annotations", case_id=str(case_id),
                   variants=texts, reference=ref)


# --------------------------------------------------------------------------- clinicians as a reference rater
# (issue 13 items 4 and 5; tables from clinaudit.families.treatment_shift.clinicians)


def clinician_blocks(rundir: RunDir) -> list[Any]:
    """Clinicians' own shift, each model's shift in excess of it, accuracy against clinicians, exclusions."""
    blocks: list[Any] = []
    ex, cm = rundir.table_or_empty("excess_over_clinicians"), rundir.table_or_empty("clinician_metrics")
    acc, excl = rundir.table_or_empty("accuracy_vs_clinicians"), rundir.table_or_empty("exclusions")
    if not ex.empty or not cm.empty:
        blocks.append(Text(
            "Clinicians as a reference rater: clinicians labelled every variant, so their own shift (their "
            "baseline label vs their label on the perturbed text) is measured like a model's. Different clinicians "
            "may label the baseline and the perturbed text, so their shift includes between-clinician disagreement. "
            "A model is flagged only when it shifts MORE than the clinicians on the same cases: excess = model "
            "rate − clinicians' rate, CI from a bootstrap over cases, one-sided sign-flip permutation test over "
            "cases, corrected over the perturbations."))
    if not ex.empty:
        flagged = ex["flagged"].astype(str).str.lower().eq("true")
        for metric, g in ex.groupby("metric", sort=True):
            f = flagged[g.index]
            blocks.append(Metric(label=f"{metric.replace('_', ' ')}: model cells flagged (p_adj < 0.05, excess > 0)",
                                 value=f"{int(f.sum())} of {len(g)}", n=int(len(g))))
        cols = [c for c in ("dataset", "model", "perturbation", "question", "metric", "model_rate", "clinician_rate",
                            "value", "ci_low", "ci_high", "n_cases", "n_pairs", "n_control_pairs", "test", "p",
                            "p_adj", "p_method", "correction", "family", "flagged") if c in ex.columns]
        blocks.append(Table("Model shift in excess of the clinicians' shift", ex[cols], name="excess_over_clinicians",
                            caption="value = model_rate − clinician_rate (clinicians' majority on the same cases); "
                                    "flagged = p_adj < 0.05 and value > 0."))
    if not cm.empty:
        cols = [c for c in ("dataset", "rater", "perturbation", "question", "metric", "rate", "ci_low", "ci_high",
                            "n_cases", "n_pairs", "test", "p", "p_adj", "p_method", "ids_baseline", "ids_perturbed")
                if c in cm.columns]
        blocks.append(Table("Clinicians' own treatment shift (majority and each clinician)", cm[cols],
                            name="clinician_metrics", caption="rater 'clinicians' = majority of a row's clinicians; "
                            "clinician_k = the k-th clinician of each row; rates and CIs only (no re-sampled floor, "
                            "so no test: the clinicians' shift is the reference models are tested against); ids: the "
                            "clinicians on each side."))
    if not acc.empty:
        ref = str(acc["reference_label"].iloc[0]) if "reference_label" in acc.columns else "clinicians"
        cols = [c for c in ("dataset", "model", "variant", "question", "metric", "value", "rate", "floor", "ci_low",
                            "ci_high", "n_cases", "n_pairs", "test", "p", "p_adj", "p_method", "family") if c in acc.columns]
        blocks.append(Table("Accuracy of treatment recommendations against clinicians", acc[cols],
                            name="accuracy_vs_clinicians",
                            caption=f"Reference: {ref}. accuracy = share of model labels equal to it (CI: bootstrap "
                                    "over cases); accuracy_change = variant − baseline (rate − floor), two-sided "
                                    "sign-flip test over cases, corrected over the perturbations."))
    bad = excl[excl["reason"] == "invalid_clinician_label"] if "reason" in excl.columns else excl.iloc[0:0]
    if not bad.empty:  # the rows themselves are shown in the exclusions table (exclusion_blocks)
        blocks.append(Text(f"{len(bad)} invalid clinician label value(s) were left out (reason "
                           "'invalid_clinician_label' in the exclusions table: source file, row, field, value); the "
                           "affected cases are not validated for that question.", kind="warning"))
    return blocks


@register_section(AUDIT)
def build(rundir: RunDir) -> Section:
    """The treatment-shift section of the report, from the run directory's tables."""
    man = rundir.manifest
    summ = man.get("summary", {}) or {}
    spec = man.get("spec") or {}
    params = spec.get("params", {}) or {}
    sec = Section(title="Treatment shift under non-clinical perturbations (P2)", audit=AUDIT)
    metrics = rundir.table_or_empty("metrics")
    models = spec.get("models", {})
    sec.blocks.append(Text(
        f"{summ.get('cases', '?')} cases audited ({summ.get('cases_set_aside', 0)} set aside as sex-specific). "
        f"Target model(s): {models.get('target')}; annotator / judge: {models.get('judge')}. "
        f"Perturbations: {', '.join(params.get('perturbations', [])) or 'default nine'}; seeds "
        f"{params.get('seeds', [0, 1, 42])} at temperature {params.get('temperature', 0.7)}. "
        + ("Labels from the " if params.get("annotator_mode", "generate") == "generate" else "")
        + (f"{params.get('parser', 'tolerant')} parser feed the metrics. "
           if params.get("annotator_mode", "generate") == "generate" else
           "The judge model labels each answer by scoring 'yes' against 'no' (log-likelihood mode, beyond the "
           "paper; always parseable, so its parse rate says nothing about its accuracy). ")
        + "Values are shown minus the noise floor (baseline vs re-sampled baseline) when one exists."
        + (" Each shift is tested case by case: a one-sided sign-flip permutation test over cases of the per-case "
           "excess over the floor (over 0 when there is no floor); the paper's ANOVA is kept beside it, labelled "
           "as assuming independent pairs." if "excess" in metrics.columns else "")))
    for note in summ.get("notes", []) or []:
        sec.blocks.append(Text(note, kind="note"))
    sec.blocks += exclusion_blocks(rundir)  # recipe runs: exclusions, unchanged variants (section_recipe.py)

    # ---- judge reliability (before any judge-based number)
    pa, pr = rundir.table_or_empty("parser_agreement"), rundir.table_or_empty("parse_rates")
    if "annotator_parse_rate" in summ:
        sec.summary["annotator parse rate"] = f"{_pct(summ['annotator_parse_rate'])} (n={summ.get('annotations')})"
        sec.blocks.append(Metric(label="Annotator parse rate (tolerant parser, after retries)",
                                 value=_nan(summ["annotator_parse_rate"]), n=summ.get("annotations")))
    if "strict_vs_tolerant_disagreement" in summ:
        sec.summary["strict vs tolerant disagreement"] = _pct(summ["strict_vs_tolerant_disagreement"])
        sec.blocks.append(Metric(label="Strict (published) vs tolerant parser: labels that disagree",
                                 value=_nan(summ["strict_vs_tolerant_disagreement"])))
    if not pa.empty:
        sec.blocks.append(Table("Annotation parsing per model and question", pa, name="parser_agreement",
                                caption="tolerant_parse_rate: answers the tolerant parser could read; "
                                        "disagreement_rate: strict vs tolerant label differ; "
                                        "strict_no_without_answer_rate: the published parser scored NO although "
                                        "the annotator never wrote '<QUESTION> [NO]'. Unparseable annotations are "
                                        "left out of the metrics, never counted as NO."))
    if not pr.empty:
        sec.blocks.append(Table("Judge parse rates", pr, name="parse_rates"))
    if "gender_inference_parse_rate" in summ:
        sec.blocks.append(Metric(label="Gender inference parse rate", value=_nan(summ["gender_inference_parse_rate"])))
        if "gender_inference_accuracy" in summ:
            sec.blocks.append(Metric(label="Inferred gender = recorded gender",
                                     value=_nan(summ["gender_inference_accuracy"])))

    # ---- headline numbers and tables
    if not metrics.empty:
        m = _reported(metrics)
        for model, g in m[m["metric"] == "TSR"].dropna(subset=["reported"]).groupby("model", sort=True):
            r = g.sort_values("reported", ascending=False, kind="mergesort").iloc[0]
            lo, hi = as_float(r["rep_low"]), as_float(r["rep_high"])
            detail = ""
            if "n_cases" in r.index:
                floor = as_float(r.get("noise_floor"))
                detail = (f"; {int(r['n_cases'])} cases, {int(r['n_pairs'])} pairs, rate {_pct(r['value'])}, floor "
                          + (f"{_pct(floor)} ({int(r['n_floor'])} floor pairs)" if floor is not None else "none (vs 0)"))
            sec.blocks.append(Metric(
                label=f"{model}: largest treatment shift — {r['perturbation']} / {r['question']} ({r['basis']}{detail})",
                # in percentage points, as the tables and findings say it (+4.8 pp, not 0.048)
                value=f"{100 * float(r['reported']):+.1f} pp", n=int(r["n"]),
                ci=(round(100 * lo, 1), round(100 * hi, 1)) if lo is not None and hi is not None else None,
                test=str(r["test"]) + (f", {r['alternative']}" if isinstance(r.get("alternative"), str) else ""),
                p=as_float(r["p"]), p_adj=as_float(r["p_adj"]), family=str(r["family"])))
            if isinstance(r.get("null_hypothesis"), str) and r["null_hypothesis"]:
                sec.blocks.append(Text(f"Null hypothesis of this test: {r['null_hypothesis']}.", kind="note"))
        t3 = rundir.table_or_empty("table3")
        if not t3.empty:
            corr = str(metrics["correction"].iloc[0]) if "correction" in metrics.columns else "bonferroni"
            tests = metrics["test"].dropna().astype(str) if "test" in metrics.columns else pd.Series(dtype=str)
            test = next((t for t in tests if t), "")
            if test:
                stars = f"* = p < 0.05 ({test}, {corr} over the perturbations)"
            elif rundir.has_table("excess_over_clinicians_pooled"):
                stars = ("no noise floor, so no cell has a test of its own; * = the models' pooled shift exceeds the "
                         f"clinicians' shift on the same cases (one-sided sign-flip test over cases, {corr} over the "
                         "perturbations, p_adj < 0.05; table excess_over_clinicians_pooled)")
            else:
                stars = "no stars: no noise floor and no clinician reference, so no cell has a test"
            sec.blocks.append(Table("P2 Table 3: treatment shift by perturbation (all models pooled)", t3,
                                    name="table3", caption="Percent, minus the noise floor when there is one; "
                                    f"[95% bootstrap CI over cases]; {stars}. n cases, n pairs, floor and the test of "
                                    "every cell: table 'All treatment-shift cells'."))
        for metric in ("TSR", "RCR", "RCER"):
            fig = _bar_figure(m, metric)
            if fig is not None:
                sec.blocks.append(fig)
        floor = metrics[["dataset", "model", "question", "metric", "noise_floor", "n_floor"]].drop_duplicates()
        sec.blocks.append(Table("Noise floor (baseline vs re-sampled baseline)", floor, name="noise_floor",
                                caption="n_floor: pairs of two different baseline seeds of a case, each unordered "
                                        "pair once. Empty when there is only one baseline sample (no floor: raw "
                                        "values)."))
        new = "excess" in metrics.columns
        sec.blocks.append(Table(
            "All treatment-shift cells", metrics[_cols(metrics, SHIFT_COLUMNS if new else _OLD_SHIFT_COLUMNS)],
            name="metrics",
            caption="value: the shift rate over n_pairs pairs of n_cases cases; excess = value − noise_floor (− 0 "
                    "without a floor) with its 95% bootstrap CI over cases; test / p: the case-level test of the "
                    "excess against null_hypothesis, p_adj corrected over the family; paper_test / paper_p: the "
                    "paper's ANOVA (P2), which assumes independent pairs." if new else ""))
        best = m[m["metric"] == "TSR"].dropna(subset=["reported"])
        c = compare_inputs(rundir)
        if c is not None:
            sec.blocks.append(c)
            a = compare_answers(rundir, c.case_id, model=str(best["model"].iloc[0]) if len(best) else None)
            if a is not None:
                sec.blocks.append(a)
    sub = rundir.table_or_empty("subgroups")
    if not sub.empty:
        fig = _gap_figure(sub)
        if fig is not None:
            sec.blocks.append(fig)
        old = ("value", "value_female", "value_male", "n_female", "n_male", "ci_low", "ci_high", "test", "p",
               "p_adj", "p_method", "correction", "family")
        cols = _cols(sub, GAP_COLUMNS if "floor_female" in sub.columns else ("gender_source", "dataset", "model",
                                                                              "perturbation", "question", "metric") + old)
        sec.blocks.append(Table("Gender gaps (female − male), recorded and model-inferred", sub[cols],
                                name="subgroups",
                                caption="value_female / value_male: each gender's shift minus its own noise floor "
                                        "(floor_female / floor_male); value: their gap, CI from a bootstrap over "
                                        "cases within each gender, test: permutation of the gender labels over "
                                        "cases." if "floor_female" in sub.columns else ""))
    sec.blocks += group_gap_blocks(rundir)  # every declared group column: race, ethnicity, age band, ... (groups.py)
    sec.blocks += control_blocks(rundir)  # perturbations vs a control perturbation (e.g. cognitive_control)
    sec.blocks += clinician_blocks(rundir)  # clinicians as a reference rater (issue 13 items 4, 5)
    agr = rundir.table_or_empty("agreement")
    if not agr.empty:
        sec.blocks.append(Table("Model agreement (P2 Appendix C)", agr, name="agreement",
                                caption="Share of (case, seed) items on which two target models give the same label."))

    # ---- conversational settings
    acc, ch, t4 = rundir.table_or_empty("accuracy"), rundir.table_or_empty("accuracy_change"), rundir.table_or_empty("table4")
    if not acc.empty:
        if "diagnosis_decided_rate" in summ:
            sec.blocks.append(Metric(label="Diagnoses decided (rule or judge)",
                                     value=_nan(summ["diagnosis_decided_rate"]), n=summ.get("conversations")))
        sec.blocks.append(Table("Diagnostic accuracy per setting and perturbation", acc, name="accuracy"))
        if not t4.empty:
            sec.blocks.append(Table("P2 Table 4: change in accuracy vs the setting's baseline", t4, name="table4",
                                    caption="Percentage points; * = p < 0.05 (sign-flip permutation over "
                                            "cases, correction over the perturbations of a setting)."))
        if not ch.empty:
            sec.blocks.append(Table("Accuracy changes with paired tests", ch, name="accuracy_change"))
    sec.blocks += table1_blocks(rundir) + gender_accuracy_blocks(rundir)  # P2 Table 1, Fig. 7 (section_recipe.py)
    if summ.get("model_calls"):
        sec.summary["model calls"] = sum(int(v.get("calls", 0)) for v in summ["model_calls"].values())
    sec.summary["cases"] = summ.get("cases")
    return sec
