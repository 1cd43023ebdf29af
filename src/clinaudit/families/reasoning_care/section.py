"""Report section of the ``reasoning_care`` audit (P3, CARE).

Blocks, all built from the run's tables:

* headline :class:`Metric` blocks per target model: ΔAcc and the semantic drift's excess over
  the control floor (Cohen's d beside it), each with n vignettes, n pairs, floor, CI, test
  (null hypothesis) and family, and a table of every gap and drift with the same columns;
* the paper-shaped accuracy tables (P3 Table 1 overall, Table 3 per specialty);
* semantic drift: the gender drift next to the control drift (table) and their
  distributions overlaid (histogram, with the filter threshold);
* ΔLen distribution (histogram) with its unit, and rethink-ratio distributions male vs female;
* direction of bias per dimension (stacked bars + table) with the judge's parse rate next
  to it, and the bias-intensity distribution;
* answer and judge parse rates;
* a :class:`Compare` block: the four arms' answers to the item with the largest gender drift
  (:func:`compare_arms`, also used by ``clinaudit care-tables --compare``).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from ...pipeline import normalize_responses
from ...rundir import RunDir
from ...report.base import Compare, Figure, Metric, Section, Table, Text, register_section
from ...report.formatting import as_float
from .params import ARMS, AUDIT
from .specialty import specialty_label

__all__ = ["build", "compare_arms"]

_ARM_LABELS = {"male": "[Patient is male]", "female": "[Patient is female]", "id1": "[Patient ID: 001]",
               "id2": "[Patient ID: 002]"}


def _int(x: Any) -> str:
    v = as_float(x)
    return "?" if v is None else str(int(v))


def _num(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3g}"


def _txt(x: Any) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else str(x)


def _spec_label(key: str) -> str:
    return specialty_label(str(key))


def compare_arms(rundir: RunDir, case_id: str | None = None, model: str | None = None) -> Compare | None:
    """The four arms' responses to one item side by side (default: the largest gender drift)."""
    paired, resp = rundir.table_or_empty("paired"), normalize_responses(rundir.table_or_empty("responses"))
    if paired.empty or resp.empty:
        return None
    vt = rundir.table_or_empty("variants")  # variant_id -> arm (the variant's name)
    arm_of = dict(zip(vt["variant_id"].astype(str), vt["name"].astype(str))) if not vt.empty else {}
    sel = paired if model is None else paired[paired["model"] == model]
    if case_id is not None:
        sel = sel[sel["case_id"].astype(str) == str(case_id)]
    if sel.empty:
        return None
    row = sel.sort_values("drift_gender", ascending=False, na_position="last", kind="mergesort").iloc[0]
    m, cid = str(row["model"]), str(row["case_id"])
    ans = resp[(resp["stage"] == "answer") & (resp["model"] == m) & (resp["case_id"].astype(str) == cid)]
    variants = {}
    arms = ans["variant_id"].astype(str).map(arm_of)
    for arm in ARMS:
        r = ans[arms == arm]
        text = "" if r.empty else ("" if pd.isna(r.iloc[0]["text"]) else str(r.iloc[0]["text"]))
        letter = row.get(f"answer_{arm}")
        verdict = "unparseable" if pd.isna(letter) else f"answer {letter}"
        variants[f"{_ARM_LABELS[arm]} - {verdict}"] = text
    drift = as_float(row["drift_gender"])
    title = f"Four arms of case {cid} ({m}; gold {row.get('gold')}; gender drift {drift:.3f})" if drift is not None \
        else f"Four arms of case {cid} ({m})"
    return Compare(title=title, case_id=cid, variants=variants, highlight=["<think>", "</think>", "<answer>"])


def _hist_figure(title: str, data: pd.DataFrame, value: str, group: str, caption: str, xlabel: str,
                 threshold: float | None = None, name: str = "") -> Figure:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure as MplFigure
    import numpy as np

    fig = MplFigure(figsize=(6, 3.2))
    ax = fig.subplots()
    vals = data[value].astype(float).dropna()
    bins: Any = np.histogram_bin_edges(vals, bins=min(20, max(5, len(vals)))) if len(vals) else 10
    for g, sub in data.groupby(group, sort=False):
        ax.hist(sub[value].astype(float).dropna(), bins=bins, alpha=0.55, label=str(g))
    if threshold is not None:
        ax.axvline(threshold, color="black", linestyle="--", linewidth=1, label=f"threshold {threshold:g}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("items")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return Figure(title=title, fig=fig, data=data.reset_index(drop=True), caption=caption, name=name)


def _direction_figure(direction: pd.DataFrame) -> Figure:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure as MplFigure

    d = direction.copy()
    labels = [f"{r.model}: {r.title}" for r in d.itertuples()]
    fig = MplFigure(figsize=(7, 0.35 * len(d) + 1.2))
    ax = fig.subplots()
    left = [0.0] * len(d)
    for col, color, lab in (("female_share", "#d6604d", "Female-leaning"), ("male_share", "#4393c3", "Male-leaning"),
                            ("tie_share", "#bababa", "Tie / no difference")):
        vals = d[col].fillna(0).astype(float).tolist()
        ax.barh(labels, vals, left=left, color=color, label=lab)
        left = [a + b for a, b in zip(left, vals)]
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("share of parsed verdicts")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    data = d[["model", "phase", "dimension", "female_share", "male_share", "tie_share", "n_ok", "n_judged"]]
    return Figure(title="Direction of bias per dimension", fig=fig, data=data.reset_index(drop=True),
                  caption="Share of the judge's parsed verdicts leaning Female / Male / neither, per dimension "
                  "(Phase I leans and Phase II dimensions). n_ok parsed of n_judged items.", name="care_direction")


@register_section(AUDIT)
def build(rundir: RunDir) -> Section:
    """The CARE section from a finished run directory."""
    sec = Section(title="Reasoning audit (CARE): gender counterfactuals, semantic drift, CoT audit", audit=AUDIT)
    cases = rundir.table_or_empty("cases")
    t1, t3 = rundir.table_or_empty("care_table1"), rundir.table_or_empty("care_table3")
    drift, values = rundir.table_or_empty("care_drift"), rundir.table_or_empty("care_drift_values")
    length, rethink, paired = rundir.table_or_empty("care_length"), rundir.table_or_empty("care_rethink"), rundir.table_or_empty("paired")
    direction, intensity, res = rundir.table_or_empty("care_direction"), rundir.table_or_empty("care_intensity"), rundir.table_or_empty("results")
    if t1.empty:
        sec.blocks.append(Text("This run has no CARE tables (the audit did not finish).", kind="warning"))
        return sec

    kept = int((cases["status"] == "kept").sum()) if not cases.empty else 0
    excluded = int((cases["status"] == "excluded").sum()) if not cases.empty else 0
    summ = rundir.manifest.get("summary", {}) or {}
    lang = summ.get("language") or {}
    sec.summary["cases"] = kept
    sec.summary["excluded (sex-specific / filters)"] = excluded
    if lang:
        sec.summary["reasoning language"] = f"{lang.get('name')} ({lang.get('code')}); rethink cues: " \
            f"{lang.get('rethink_cues')}"
    sec.blocks.append(Text(
        f"{kept} multiple-choice vignettes were neutralized and prefixed four ways ([Patient is male], "
        f"[Patient is female], and the control pair [Patient ID: 001] / [Patient ID: 002]); {excluded} were "
        "excluded (sex-specific conditions, gendered terms or names left after neutralization, or other "
        "filters; listed with their reasons in the exclusions table). Each target model "
        "answered every variant with the P3 Fig. 8 protocol. The control pair measures the model's own noise "
        "floor: a gender effect is only meaningful against it."))
    for w in summ.get("warnings", []) or []:
        sec.blocks.append(Text(str(w), kind="warning"))
    exclusions = rundir.table_or_empty("exclusions")
    if not exclusions.empty:
        sec.blocks.append(Table("Excluded vignettes", exclusions, name="care_exclusions",
                                caption="Every excluded case with the filter that removed it and why (the matched "
                                "sex-specific term, or the gendered terms / names left after neutralization)."))

    # headline metrics: every gap / drift with n cases, n pairs, its floor, the excess, CI, test (H0), family
    if not res.empty:
        for rec in res[(res["metric"].isin(["delta_acc", "drift_excess"])) & (res["specialty"] == "all")].to_dict(
                "records"):
            lo, hi = as_float(rec["ci_low"]), as_float(rec["ci_high"])
            floor = as_float(rec.get("floor"))
            where = (f"{rec['model']}; {_int(rec.get('n_cases'))} vignettes, {_int(rec.get('n_pairs'))} pairs; "
                     f"floor {_num(floor)}: {_txt(rec.get('floor_of'))}")
            value = as_float(rec["value"])
            shown: float | str = value if value is not None else "n/a"
            ci = (lo, hi) if lo is not None and hi is not None else None
            if rec["metric"] == "delta_acc":
                # a difference of accuracies, in percentage points as every other audit's card and the findings say it
                rate = as_float(rec.get("rate"))
                label = (f"ΔAcc male − female = {'n/a' if rate is None else f'{100 * rate:+.1f} pp'}, excess over the "
                         f"floor in percentage points ({where})")
                shown = f"{100 * value:+.1f} pp" if value is not None else "n/a"
                ci = (round(100 * lo, 1), round(100 * hi, 1)) if lo is not None and hi is not None else None
            else:
                label = (f"Semantic drift Γ_gender = {_num(as_float(rec.get('rate')))}, excess over the control floor "
                         f"({where}; Cohen's d {_num(as_float(rec.get('cohens_d')))})")
            sec.blocks.append(Metric(
                label=label, value=shown, n=int(rec["n"]), ci=ci,
                test=f"{rec['test']} - {_txt(rec.get('null_hypothesis'))}", p=as_float(rec["p"]), p_adj=as_float(rec["p_adj"]),
                family=_txt(rec.get("family"))))
        inf = res[res["family"].notna() & (res["family"].astype(str) != "")]
        if not inf.empty:
            cols = ["model", "metric", "group", "reference", "specialty", "phase", "rate", "n_cases", "n_pairs", "floor",
                    "floor_of", "value", "ci_low", "ci_high", "test", "null_hypothesis", "p", "p_adj", "p_method", "correction",
                    "family"]
            shown = inf[[c for c in cols if c in inf.columns]].rename(columns={"value": "excess"})
            sec.blocks.append(Table(
                "Every gap and drift with its inference", shown, name="care_inference",
                caption="rate: the gap or drift as measured (male − female, or Γ_gender); floor: what it is compared "
                "with (floor_of: the ID1/ID2 control pair's drift, 0 for a signed gap, or the control pair's gap with "
                "params.gap_floor: control); excess = rate − floor with a percentile bootstrap CI resampling "
                "vignettes; test and its null hypothesis: sign-flip permutation over vignettes; p_adj within the "
                "family (params.correction). n_cases vignettes, n_pairs pairs."))

    # accuracy tables
    answer_rates = res[res["metric"] == "answer_parse_rate"] if not res.empty else pd.DataFrame()
    if not answer_rates.empty:
        tol = answer_rates[answer_rates["group"].astype(str).str.endswith(":tolerant")]
        worst = as_float(tol["value"].min())
        shown = f"{worst:.0%}" if worst is not None else "n/a"
        sec.summary["answer parse rate (tolerant, worst arm)"] = shown
        sec.blocks.append(Text(
            "Answers no parser can read are unparseable: excluded from accuracy, never counted as right or wrong "
            f"(lowest tolerant parse rate over arms: {shown}; see the parse-rate table below).", kind="note"))
    sec.blocks.append(Table(
        "Table 1 - accuracy by arm (P3 Table 1 shape)", t1,
        caption="Accuracy over vignettes where both arms of a pair have a readable answer; Δ = male − female; "
        "floor (floor_of) and excess = Δ − floor with a bootstrap CI resampling vignettes; sign-flip permutation "
        "test over vignettes (null_hypothesis; for one pair per vignette it is the exact McNemar test); p_adj "
        "corrected across target models (family). ID1/ID2 is the control pair: its own gap delta_control, p_control.",
        name="care_table1"))
    if not t3.empty:
        t3s = t3.copy()
        t3s["specialty"] = t3s["specialty"].map(_spec_label)
        sec.blocks.append(Table(
            "Table 3 - accuracy by specialty (P3 Table 3 shape)", t3s,
            caption="Per specialty (keyword tagging; configurable lexicon), same columns as Table 1. p_adj: "
            "Benjamini–Hochberg (or the configured method) over the specialties of one model.", name="care_table3"))

    # drift
    if not drift.empty:
        sec.blocks.append(Table(
            "Semantic drift: gender vs control", drift,
            caption="δ = |1 − cos| between the embeddings of paired responses. mean_gender: male/female pairs; "
            "floor = mean_control: ID1/ID2 pairs (the noise floor); excess = mean_gender − floor with a bootstrap CI "
            "resampling vignettes (both pairs of a vignette together); one-sided sign-flip permutation test over "
            "vignettes of the per-vignette excess (null_hypothesis); Cohen's d (pooled SD, P3's effect size; > 0.5 "
            "conventionally large) and d_z of the per-vignette excess beside it.", name="care_drift"))
    if not values.empty:
        v = values.copy()
        v["series"] = v["model"].astype(str) + " · " + v["pair"].astype(str)
        thr = as_float(drift["threshold"].iloc[0]) if not drift.empty else None
        sec.blocks.append(_hist_figure(
            "Drift distribution: gender pairs vs control pairs", v, "drift", "series",
            "Γ_gender (male vs female) overlaid on Γ_control (ID1 vs ID2); the dashed line is the failure-mode "
            "threshold: items above it were sent to the CoT judge.", "semantic drift δ", thr, name="care_drift_values"))

    # lengths and rethink ratio
    if not paired.empty:
        unit = str(length["unit"].iloc[0]) if not length.empty else "tokens"
        dl = paired[["model", "case_id", "delta_len"]].copy()
        sec.blocks.append(_hist_figure(
            "ΔLen distribution (male − female)", dl, "delta_len", "model",
            f"Response length difference per item in {unit}; summary (μ, σ, floor, excess, test) in the table below.",
            f"ΔLen ({unit})", 0.0, name="care_delta_len"))
        if not length.empty:
            sec.blocks.append(Table("Response length gap", length, name="care_length",
                                    caption="μ and σ of ΔLen; floor, excess = μ − floor with a bootstrap CI "
                                    "resampling vignettes, sign-flip permutation test over vignettes "
                                    "(null_hypothesis), family; the control pair's ΔLen (and its p) next to it."))
        rr = pd.concat([
            paired[["model", "case_id", "rethink_male"]].rename(columns={"rethink_male": "rethink_ratio"}).assign(arm="male"),
            paired[["model", "case_id", "rethink_female"]].rename(columns={"rethink_female": "rethink_ratio"}).assign(
                arm="female"),
        ], ignore_index=True)
        rr["series"] = rr["model"].astype(str) + " · " + rr["arm"]
        sec.blocks.append(_hist_figure(
            "Rethink ratio: male vs female", rr[["model", "case_id", "arm", "series", "rethink_ratio"]],
            "rethink_ratio", "series",
            "Share of reasoning steps that revisit a conclusion (cue lexicon of the reasoning language: wait, "
            "however, reconsider, ... / 等等，, 其实, 重新考虑, ...). "
            "Overlapping distributions mean equal reasoning effort (P3 §5.4).", "rethink ratio", None,
            name="care_rethink_values"))
        if not rethink.empty:
            sec.blocks.append(Table("Rethink ratio", rethink, name="care_rethink",
                                    caption="Means per arm; delta = male − female per vignette; floor, excess with "
                                    "a bootstrap CI resampling vignettes, sign-flip permutation test over vignettes "
                                    "(null_hypothesis), family."))

    # CoT audit
    if direction.empty:
        sec.blocks.append(Text("No item passed the failure-mode filter (or the CoT audit was switched off): "
                               "there are no judge verdicts.", kind="note"))
    else:
        parse = direction.groupby(["model", "phase"], sort=False)[["n_judged", "n_ok", "n_unparseable", "n_error"]].first()
        parts = [f"{m} {ph}: {int(r.n_ok)}/{int(r.n_judged)} parsed ({int(r.n_unparseable)} unparseable, "
                 f"{int(r.n_error)} failed calls)" for (m, ph), r in parse.iterrows()]
        sec.summary["judge parse rate"] = "; ".join(parts)
        sec.blocks.append(Text("Judge reliability - " + "; ".join(parts) + ". Shares below are over parsed verdicts "
                               "only; unparseable verdicts are counted, never read as 'no difference'.", kind="note"))
        sec.blocks.append(_direction_figure(direction))
        sec.blocks.append(Table(
            "Direction of bias", direction, name="care_direction",
            caption="Female-/Male-leaning/Tie shares with bootstrap CIs; female_minus_male = excess over the floor 0 "
            "with a bootstrap CI (ci_low, ci_high) resampling judged vignettes; sign-flip permutation test over "
            "vignettes of +1 Female / −1 Male / 0 Tie (the exact sign test, ties excluded), corrected over the "
            "dimensions of one model (family)."))
        if not intensity.empty:
            sec.blocks.append(Table("Bias intensity (Phase I)", intensity, name="care_intensity",
                                    caption="1 = negligible … 5 = completely different medical advice."))
    if not answer_rates.empty:
        cols = ["model", "group", "value", "n", "n_unparseable", "n_error"]
        sec.blocks.append(Table("Answer parse rates (strict vs tolerant)", answer_rates[[c for c in cols if c in
                                                                                        answer_rates.columns]],
                                name="care_answer_parse"))
    cmp = compare_arms(rundir)
    if cmp is not None:
        sec.blocks.append(cmp)
    return sec
