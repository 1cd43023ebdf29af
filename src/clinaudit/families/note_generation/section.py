"""Report section of the ``note_generation`` audit (P1).

Blocks, all built from the run's tables:

* headline :class:`Metric` blocks (largest maxΔBL per model × dataset × attribute, with
  the baseline, n dialogs, n pairs, CI, test and its H0, corrected p and family);
* the paper-shaped incidence tables (P1 Tables 2–4) with the incidence judge's
  reliability stated right above them, and bar charts of incidence by group with CIs;
* the shifts (each counterfactual value vs the baseline, ``tables/incidence_shifts``): n dialogs,
  n pairs, the baseline, ΔBL with its CI, the test with its null hypothesis, p, p_adj, family;
* the language-disparity tables (P1 Tables 5–6) with that judge's reliability;
* judge reliability (parse rates; agreement and κ with human labels, or a plain
  "reliability unknown" when no labels were given);
* rejected augmentations, excluded dialogs (with the count of dialogs excluded, or kept, because
  identifiers or gendered terms remained after de-identification) and the residual identifiers;
* a :class:`Compare` block: the counterfactual notes of one dialog side by side,
  context mentions highlighted (:func:`compare_notes`, also used by
  ``clinaudit note-tables --compare``).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd

from ...rundir import RunDir
from ...report.base import Compare, Figure, Metric, Section, Table, Text, register_section

__all__ = ["build", "compare_notes", "pick_compare_case"]

AUDIT = "note_generation"



def _s(x: Any) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return str(x)


def pick_compare_case(notes: pd.DataFrame, paired: pd.DataFrame) -> dict[str, str] | None:
    """The (model, dataset, context, source, attribute, case_id) whose notes are most worth showing.

    Preference: a dialog whose incidence differs across its counterfactual values
    (first such in table order), else the first dialog with notes.
    """
    if notes.empty:
        return None
    keys = ["model", "dataset", "context", "source", "attribute", "case_id"]
    if not paired.empty and "incidence" in paired.columns:
        cf = paired[paired["group"].astype(str) != "baseline"].dropna(subset=["incidence"])
        if len(cf):
            spread = cf.groupby(keys, sort=False)["incidence"].agg(lambda s: s.nunique())
            varied = spread[spread > 1]
            if len(varied):
                return dict(zip(keys, map(str, varied.index[0])))
    first = notes.iloc[0]
    return {k: str(first[k]) for k in keys}


def compare_notes(rundir: RunDir, case_id: str, *, model: str | None = None, context: str | None = None,
                  source: str | None = None, attribute: str | None = None) -> Compare:
    """The counterfactual notes of one dialog side by side (label = group, with its incidence).

    When the run holds several models / contexts / sources / attributes for the dialog
    the first is used unless one is named. Highlighted: the context's mention words,
    the demographic values and the sentences the augmentation added.
    """
    from .judges import highlight_terms

    notes = rundir.table_or_empty("notes")
    if notes.empty:
        raise KeyError("the run has no notes table")
    sel = notes[notes["case_id"].astype(str) == str(case_id)]
    if sel.empty:
        known = ", ".join(map(str, list(dict.fromkeys(notes["case_id"].astype(str)))[:20]))
        raise KeyError(f"no notes for dialog {case_id!r}; dialogs in this run: {known}")
    for col, val in (("model", model), ("context", context), ("source", source), ("attribute", attribute)):
        if val is not None:
            sub = sel[sel[col].astype(str) == str(val)]
            if sub.empty:
                raise KeyError(f"no notes for dialog {case_id!r} with {col} {val!r}; have: "
                               f"{', '.join(sorted(set(sel[col].astype(str))))}")
            sel = sub
    first = sel.iloc[0]
    sel = sel[(sel["model"] == first["model"]) & (sel["context"] == first["context"])
              & (sel["source"] == first["source"]) & (sel["attribute"] == first["attribute"])]
    paired = rundir.table_or_empty("paired")
    inc: dict[str, str] = {}
    if not paired.empty:
        p = paired[(paired["case_id"].astype(str) == str(case_id)) & (paired["model"] == first["model"])
                   & (paired["context"] == first["context"]) & (paired["source"] == first["source"])
                   & (paired["attribute"] == first["attribute"])]
        if "judge_model" in p.columns and len(p):
            p = p[p["judge_model"] == p["judge_model"].iloc[0]]
        for rec in p.to_dict("records"):
            v = rec.get("incidence")
            inc[str(rec["group"])] = "unparseable" if v is None or (isinstance(v, float) and math.isnan(v)) else (
                "YES" if float(v) == 1 else "NO")
    variants: dict[str, str] = {}
    for rec in sel.to_dict("records"):
        g = str(rec["group"])
        label = f"{g} (incidence: {inc[g]})" if g in inc else g
        variants[label] = _s(rec["note"]) or f"[no note: {_s(rec.get('error'))}]"
    terms = highlight_terms(str(first["context"]), [str(g) for g in sel["group"]])
    var = rundir.table_or_empty("variants")
    if not var.empty:
        aug = var[(var["family"] == "augmentation") & (var["case_id"].astype(str) == str(case_id))
                  & (var["name"] == f"{first['source']}:{first['context']}")]
        for prov in aug["provenance"].head(1):
            try:
                for a in json.loads(prov).get("additions") or []:
                    added = str(a.get("added", "")).strip()
                    if added and len(added) <= 200:
                        terms.append(added)
            except (TypeError, ValueError):
                pass
    src = {"doctor": "D", "patient": "P"}.get(str(first["source"]), str(first["source"]))
    title = (f"Dialog {case_id}: notes by {first['model']} under each {first['attribute']} value "
             f"({src}: {first['context']})")
    reference = next(iter(variants)) if variants else None
    return Compare(title=title, case_id=str(case_id), variants=variants, highlight=terms, reference=reference)


def _rate_figure(rates: pd.DataFrame, title: str) -> Figure | None:
    from matplotlib.figure import Figure as MplFigure

    if rates.empty:
        return None
    rows = list(dict.fromkeys(rates["row"]))
    groups = list(dict.fromkeys(rates["group"]))
    fig = MplFigure(figsize=(max(5.0, 1.2 * len(rows) * max(1, len(groups)) / 3), 3.4))
    ax = fig.add_subplot(1, 1, 1)
    width = 0.8 / max(1, len(groups))
    for gi, g in enumerate(groups):
        sub = rates[rates["group"] == g].set_index("row").reindex(rows)
        x = [i + (gi - (len(groups) - 1) / 2) * width for i in range(len(rows))]
        vals = sub["rate"].astype(float).to_numpy()
        lo = (vals - sub["ci_low"].astype(float).to_numpy()).clip(min=0)
        hi = (sub["ci_high"].astype(float).to_numpy() - vals).clip(min=0)
        ax.bar(x, vals, width=width, label=str(g), yerr=[lo, hi], capsize=2,
               color=None if g != "baseline" else "0.6")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(rows, rotation=0, fontsize=8)
    ax.set_ylabel("incidence (%)")
    ax.set_ylim(0, 105)
    ax.legend(fontsize=7, ncol=min(4, len(groups)), loc="upper right")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return Figure(title=title, fig=fig, data=rates.reset_index(drop=True),
                  caption="Incidence of the context in the generated notes by demographic value (baseline in grey); "
                  "error bars: bootstrap CI resampling dialogs.")


def _reliability_text(rel: pd.DataFrame, judge: str) -> Text:
    if rel.empty:
        return Text(f"{judge} judge: no judgments.", kind="warning")
    sub = rel[rel["judge"] == judge]
    if sub.empty:
        return Text(f"{judge} judge: no judgments in this run.", kind="note")
    parts = [f"{r['judge_model']}: {r['reliability']}" for r in sub.to_dict("records")]
    unknown = any("unknown" in str(r["reliability"]) for r in sub.to_dict("records"))
    text = f"Judge reliability ({judge}) — " + "; ".join(parts) + "."
    if unknown:
        text += (" No human labels were given, so how often this judge is right is unknown; treat the numbers "
                 "below as unvalidated (params.human_labels adds agreement and Cohen's κ).")
    return Text(text, kind="warning" if unknown else "note")


def _int(v: Any) -> str:
    try:
        return str(int(v))
    except (TypeError, ValueError):
        return "?"


def _shift_table(rundir: RunDir) -> pd.DataFrame:
    """The ΔBL rows as the report shows them (tables/incidence_shifts)."""
    sh = rundir.table_or_empty("incidence_shifts")
    if sh.empty or "n_pairs" not in sh.columns:  # runs made before the paired layer have no shift table
        return pd.DataFrame()
    src = {"doctor": "D:", "patient": "P:"}
    out = pd.DataFrame({
        "model": sh["model"], "dataset": sh["dataset"], "attribute": sh["attribute"],
        "row": [f"{src.get(s, s)} {c}" for s, c in zip(sh["source"], sh["context"])], "value": sh["group"],
        "n dialogs": sh["n_dialogs"], "n pairs": sh["n_pairs"], "BL% (baseline)": sh["BL%"].map(_fmt),
        "rate%": sh["rate%"].map(_fmt),
        "ΔBL (pp) [95% CI]": [f"{_fmt(v)} [{_fmt(lo)}, {_fmt(hi)}]"
                              for v, lo, hi in zip(sh["ΔBL"], sh["ci_low"], sh["ci_high"])],
        "test": sh["test"], "H0": sh["H0"], "p": sh["p"], "p_adj": sh["p_adj"], "correction": sh["correction"],
        "family": sh["family"],
    })
    return out.reset_index(drop=True)


def _fmt(v: Any, digits: int = 1) -> str:
    from ...export import format_number

    return format_number(v, digits)


@register_section(AUDIT)
def build(rundir: RunDir) -> Section:
    """The note-generation section from a run directory."""
    man = rundir.manifest
    summary_in = man.get("summary", {}) or {}
    sec = Section(title="Note generation: stereotype contexts × demographic counterfactuals (P1)", audit=AUDIT)
    incidence = rundir.table_or_empty("incidence")
    rates = rundir.table_or_empty("incidence_rates")
    results = rundir.table_or_empty("results")
    rel = rundir.table_or_empty("judge_reliability")
    disparity = rundir.table_or_empty("language_disparity")
    rejections = rundir.table_or_empty("rejections")
    excluded = rundir.table_or_empty("excluded")
    notes = rundir.table_or_empty("notes")
    paired = rundir.table_or_empty("paired")

    inc_rel = rel[rel["judge"] == "incidence"]["reliability"].iloc[0] if not rel.empty and (
        rel["judge"] == "incidence").any() else "no judgments"
    residual = rundir.table_or_empty("residual_identifiers")
    rule = excluded["rule"] if "rule" in excluded.columns else pd.Series([], dtype=object)
    n_res_excluded = int((rule == "residual_identifiers").sum())
    n_res_kept = int(residual.loc[residual["action"] == "kept", "case_id"].nunique()) if len(residual) else 0
    sec.summary = {
        "dialogs audited": summary_in.get("dialogs_audited", incidence["n_dialogs"].max() if len(incidence) else 0),
        "dialogs excluded": f"{len(excluded)} ({n_res_excluded} with residual identifiers)",
        "augmentations": f"{summary_in.get('augmentations_accepted', '?')} accepted, "
                         f"{summary_in.get('augmentations_rejected', len(rejections))} rejected by the gate",
        "notes": len(notes),
        "incidence judge": inc_rel,
    }
    sec.blocks.append(Text(
        "Each dialog was de-identified, given a stereotypical context in the doctor's (D:) or patient's (P:) turns, "
        "and ended with an appended demographic question whose answer is either a placeholder token (baseline) or "
        "one counterfactual value. An LLM judge decided whether each generated note mentions the context. BL% is "
        "the incidence on baseline notes; maxΔBL the largest increase of a value over the baseline (\"–\": no value "
        "exceeds it); ΔCF the range across values; %dlg the share of dialogs whose incidence changes across "
        "values. Every shift (ΔBL = rate(value) − BL%) is shown with its dialogs (n dialogs), the dialogs judged "
        "under both the baseline and the value (n pairs), the baseline, a percentile bootstrap CI resampling "
        "dialogs, and a sign-flip permutation test over dialogs of the per-dialog difference I(value) − "
        "I(baseline) (H0: within a dialog, the baseline and the value are exchangeable; with one 0/1 pair per "
        "dialog this is the exact McNemar / sign test while every flip is enumerated), corrected within its family "
        "(the values of one row). ΔCF is tested with Cochran's Q (dialogs judged under every value)."))
    if n_res_excluded:
        sec.blocks.append(Text(
            f"{n_res_excluded} dialog(s) excluded because identifiers or gendered terms remained after "
            "de-identification (a name, a first-person age or a gendered word would give the model a demographic cue "
            "besides the counterfactual one); each is listed with the terms found under \"Excluded dialogs\" "
            "(deid.exclude_residual: true, params.residual_kinds, residual_allow).", kind="warning"))
    if n_res_kept:
        sec.blocks.append(Text(
            f"{n_res_kept} dialog(s) were kept although identifiers or gendered terms remained after "
            "de-identification (deid.exclude_residual: false): their notes may react to that cue as well "
            "as to the counterfactual value. The terms are listed under \"Residual identifiers\".", kind="warning"))
    if len(rejections):
        reasons = rejections["reason"].value_counts().to_dict()
        sec.blocks.append(Text(
            f"{len(rejections)} augmentation(s) failed the additions-only gate (original turns dropped or "
            f"reordered, or nothing added) and were not used: "
            + ", ".join(f"{k}: {v}" for k, v in reasons.items()) + ".", kind="warning"))
    # headline metrics
    if len(results):
        mx = results[(results["metric"] == "maxΔBL") & results["value"].notna()]
        for _, g in mx.groupby(["model", "dataset", "attribute"], sort=False):
            r = g.loc[g["value"].astype(float).idxmax()]
            counts = ""
            if "floor" in r.index and pd.notna(r.get("floor")):
                counts = (f"; baseline {_fmt(r['floor'])}%, {_int(r.get('n_cases'))} dialogs, "
                          f"{_int(r.get('n_test_cases'))} pairs")
            test = str(r["test"]) + (f" — {r['null_hypothesis']}" if _s(r.get("null_hypothesis")) else "")
            sec.blocks.append(Metric(
                label=f"largest maxΔBL — {r['model']}, {r['dataset']}, {r['attribute']}: "
                      f"{r['source']} {r['context']}, {r['group']} (percentage points{counts})",
                value=round(float(r["value"]), 1), n=int(r["n"]),
                ci=(float(r["ci_low"]), float(r["ci_high"])) if pd.notna(r["ci_low"]) else None,
                test=test, p=float(r["p"]) if pd.notna(r["p"]) else None,
                p_adj=float(r["p_adj"]) if pd.notna(r["p_adj"]) else None, family=_s(r["family"])))
    # incidence tables
    sec.blocks.append(_reliability_text(rel, "incidence"))
    for name in sorted(t for t in rundir.tables() if t.startswith("paper_incidence_")):
        attr = name.removeprefix("paper_incidence_").replace("_", "+")
        sec.blocks.append(Table(title=f"Context incidence disparities — {attr} (P1 Tables 2–4 layout)",
                                df=rundir.table_or_empty(name), name=name,
                                caption=f"BL(%), maxΔBL (group abbreviation and percentage points), ΔCF and %dlg "
                                        f"per model. Incidence judge: {inc_rel}."))
    if len(incidence):
        ci = incidence.copy()
        cols = ["model", "dataset", "attribute", "row", "n_dialogs", "n_missing"]
        for m in ("BL%", "ΔCF", "%dlg"):
            ci[f"{m} [95% CI]"] = [f"{_fmt(v)} [{_fmt(lo)}, {_fmt(hi)}]" for v, lo, hi in
                                   zip(ci[m], ci[f"{m}_ci_low"], ci[f"{m}_ci_high"])]
        ci["maxΔBL [95% CI]"] = [f"{_s(lab)} [{_fmt(lo)}, {_fmt(hi)}]" for lab, lo, hi in
                                 zip(ci["maxΔBL_label"], ci["maxΔBL_ci_low"], ci["maxΔBL_ci_high"])]
        extra = [c for c in ("maxΔBL_n_pairs", "maxΔBL_test", "maxΔBL_p", "maxΔBL_p_adj", "maxΔBL_family", "ΔCF_test",
                             "ΔCF_p") if c in ci.columns]
        sec.blocks.append(Table(title="Incidence metrics with confidence intervals", name="incidence_ci",
                                df=ci[cols + ["BL% [95% CI]", "maxΔBL [95% CI]", "ΔCF [95% CI]", "%dlg [95% CI]"]
                                      + extra],
                                caption="n_dialogs: dialogs of the row; n_missing: judgments that were unparseable or "
                                        "failed (excluded, never NO). maxΔBL carries the test of its value (n pairs: "
                                        "dialogs judged under both; p_adj within the family named); ΔCF: Cochran's Q."))
    if len(rates):
        for (model, dataset, attribute), g in rates.groupby(["model", "dataset", "attribute"], sort=False):
            src = {"doctor": "D:", "patient": "P:"}
            g = g.assign(row=[f"{src.get(s, s)} {c}" for s, c in zip(g["source"], g["context"])])
            fig = _rate_figure(g[["row", "group", "rate", "n", "ci_low", "ci_high"]],
                               f"Incidence by {attribute} — {model}, {dataset}")
            if fig is not None:
                sec.blocks.append(fig)
    shifts = _shift_table(rundir)
    if len(shifts):
        sec.blocks.append(Table(
            title="Shifts: each counterfactual value vs the baseline", df=shifts, name="incidence_shifts",
            caption="n dialogs: dialogs with a judged note under the value; n pairs: dialogs judged under both the "
                    "baseline and the value (the unit of the test); BL%: the baseline; ΔBL = rate − BL% in percentage "
                    "points with its 95% CI (percentile bootstrap resampling dialogs); test and H0: the sign-flip "
                    "permutation test over dialogs of I(value) − I(baseline); p_adj corrected within the family named "
                    "in the last column."))
    # language disparity
    dis_tables = sorted(t for t in rundir.tables() if t.startswith("paper_language_disparity_"))
    if dis_tables or len(disparity):
        sec.blocks.append(_reliability_text(rel, "language_disparity"))
        for name in dis_tables:
            attr = name.removeprefix("paper_language_disparity_").replace("_", "+")
            sec.blocks.append(Table(title=f"Language disparities on incident contexts — {attr} (P1 Tables 5–6 "
                                          "layout)", df=rundir.table_or_empty(name), name=name,
                                    caption="%Δ: share of dialogs (with ≥2 positive counterfactuals) judged to show "
                                            "major differences; in brackets the most impacted group(s) and their "
                                            "share of YES decisions (ties listed together)."))
        if len(disparity):
            d = disparity[["model", "dataset", "attribute", "row", "n_dialogs", "n_yes", "n_missing", "%Δ",
                           "%Δ_ci_low", "%Δ_ci_high", "Maj.", "Maj.%"]]
            sec.blocks.append(Table(title="Language disparity details", df=d, name="language_disparity"))
    elif len(incidence):
        sec.blocks.append(Text("Language disparity: no dialog had two or more counterfactual notes with the context, "
                               "so the language-disparity judge was not run.", kind="note"))
    # judge reliability
    if len(rel):
        sec.blocks.append(Table(title="Judge reliability", df=rel, name="judge_reliability",
                                caption="Parse rate: share of judge outputs that matched the answer format after "
                                        "retries; unparseable outputs are missing values, never NO."))
    agr = rundir.table_or_empty("judge_agreement")
    if len(agr):
        sec.blocks.append(Table(title="Judge agreement with human labels (P1 §4.3)", df=agr, name="judge_agreement"))
    # data handling
    if len(rejections):
        sec.blocks.append(Table(title="Rejected augmentations", name="rejections",
                                df=rejections[[c for c in ["case_id", "context", "source", "reason", "attempts",
                                                           "detail"] if c in rejections.columns]]))
    if len(excluded):
        sec.blocks.append(Table(title="Excluded dialogs", df=excluded, name="excluded"))
    if len(residual):
        sec.blocks.append(Table(title="Residual identifiers", df=residual, name="residual_identifiers",
                                caption="What still looked identifying after de-identification, per dialog, and "
                                        "whether the dialog was excluded or kept."))
    # side-by-side notes
    pick = pick_compare_case(notes, paired)
    if pick is not None:
        try:
            sec.blocks.append(compare_notes(rundir, pick["case_id"], model=pick["model"], context=pick["context"],
                                            source=pick["source"], attribute=pick["attribute"]))
        except KeyError:
            pass
    return sec
