"""Report section of the ``association`` audit (P4 Table 3).

Blocks, all built from the run's tables:

* what was scored and how (method, mask mode, placeholders, or the existing score files; tests, their
  null hypotheses, correction and family);
* one headline :class:`Metric` per model: the category with the smallest corrected p, with n, CI,
  test and family;
* the Table-3-shaped summary (mean score per group, the difference with its CI, n pairs, the first
  test's p and corrected p, significance, number of sentences and templates, corpus share per group
  when a notes table was given);
* every test run (``tables/tests.csv``): difference, CI, n, test, null hypothesis, p, p_adj, family;
* the sentences excluded from existing score files, with the reason;
* a bar chart of the mean score per group per category with bootstrap CIs (its numbers attached);
* the template lines that were skipped or repaired on load.
"""

from __future__ import annotations

import pandas as pd

from ...rundir import RunDir
from ...report.base import Figure, Metric, Section, Table, Text, register_section

__all__ = ["build", "mean_score_figure"]

AUDIT = "association"

_TEST_TEXT = {
    "signed-rank": "Wilcoxon signed-rank on the paired differences group − reference, pairs = same frame and "
                   "target position (H0: the differences are symmetric about 0; |d| below 1e-12 + 1e-9·|score| "
                   "counts as 0; sentence-level: never a finding)",
    "rank-sum": "Wilcoxon rank-sum, unpaired, sentence-level (H0: both groups' scores come from one distribution)",
    "ks": "two-sample Kolmogorov–Smirnov, unpaired, sentence-level (H0: identical score distributions)",
    "t": "Student two-sample t, pooled variance, unpaired, sentence-level (H0: equal means)",
    "sign-flip": "sign-flip permutation over sentence frames of the frame-mean paired difference (H0: the "
                 "frame-level differences are symmetric about 0; the frame is the unit)",
}



def mean_score_figure(means: pd.DataFrame, model: str) -> Figure | None:
    """Bars: mean log-probability bias score per category (x) and group (bars), 95% bootstrap CIs."""
    from matplotlib.figure import Figure as MplFigure

    data = means[(means["metric"] == "mean_log_prob_bias_score") & (means["model"].astype(str) == str(model))]
    if data.empty:
        return None
    cats = sorted(dict.fromkeys(data["category"].astype(str)))
    groups = list(dict.fromkeys(data["group"].astype(str)))
    fig = MplFigure(figsize=(max(5.0, 0.9 * len(cats) * max(1, len(groups)) / 2), 3.4))
    ax = fig.add_subplot(1, 1, 1)
    width = 0.8 / max(1, len(groups))
    for gi, g in enumerate(groups):
        sub = data[data["group"].astype(str) == g].set_index(data[data["group"].astype(str) == g]["category"]
                                                             .astype(str)).reindex(cats)
        x = [i + (gi - (len(groups) - 1) / 2) * width for i in range(len(cats))]
        vals = sub["value"].astype(float).to_numpy()
        lo = (vals - sub["ci_low"].astype(float).to_numpy())
        hi = (sub["ci_high"].astype(float).to_numpy() - vals)
        err = [pd.Series(lo).fillna(0).clip(lower=0).to_numpy(), pd.Series(hi).fillna(0).clip(lower=0).to_numpy()]
        ax.bar(x, vals, width=width, label=g, yerr=err, capsize=2)
    ax.axhline(0, color="0.3", linewidth=0.8)
    ax.set_xticks(range(len(cats)))
    ax.set_xticklabels(cats, fontsize=8)
    ax.set_ylabel("mean bias score (log-prob ratio)")
    ax.legend(fontsize=7, ncol=min(4, len(groups)))
    ax.set_title(f"Mean prior-adjusted score per group — {model}", fontsize=9)
    fig.tight_layout()
    cols = ["model", "category", "group", "value", "n", "ci_low", "ci_high", "ci_method"]
    return Figure(
        title=f"Mean score per group and category — {model}",
        fig=fig,
        data=data[[c for c in cols if c in data.columns]].rename(columns={"value": "mean_score", "n": "n_sentences"})
        .reset_index(drop=True),
        caption="Mean prior-adjusted log-probability bias score of each group's target words per category "
        "(higher: the model finds the target more likely given the attribute than given the masked or "
        "placeholder attribute). Error bars: 95% percentile bootstrap CI over sentences.",
        name=f"association_means_{model}",
    )


def _bias_keys(results: pd.DataFrame) -> set[tuple[str, str]]:
    """(model, category) of the group comparisons whose verdict is ``bias`` (results.csv, docs/verdicts.md)."""
    if results.empty or "verdict" not in results.columns or "category" not in results.columns:
        return set()
    rows = results[results["verdict"].astype(str).eq("bias") & results["p_adj"].notna()] if "p_adj" in results.columns \
        else results[results["verdict"].astype(str).eq("bias")]
    return {(str(m), str(c)) for m, c in zip(rows["model"], rows["category"])}


def _verdict_level(manifest: dict, results: pd.DataFrame) -> float:
    """The level the association rows' verdicts used: the audit's own ``alpha`` written on its rows
    (``--alpha``, ``params.alpha``) unless the spec set ``verdicts.alpha`` (pipeline.validity.assign_verdicts).

    The manifest records the verdict settings with their defaults filled in, so a ``verdicts.alpha``
    different from the default counts as set; one set to the default value itself cannot be told apart."""
    from ...spec import VerdictSettings

    level = ((manifest.get("validity") or {}).get("thresholds") or {}).get("alpha")
    default = VerdictSettings.model_fields["alpha"].default
    if level is not None and float(level) != default:
        return float(level)
    rows = pd.to_numeric(results["alpha"], errors="coerce").dropna() if "alpha" in results.columns else pd.Series()
    return float(rows.iloc[0]) if len(rows) and rows.nunique() == 1 else float(level if level is not None else default)


@register_section(AUDIT)
def build(rundir: RunDir) -> Section:
    """The association section from a run directory."""
    man = rundir.manifest
    summary_in = man.get("summary", {}) or {}
    params = ((man.get("spec") or {}).get("params") or {})
    sec = Section(title="Language-model association: log-probability bias scores (P4 Table 3)", audit=AUDIT)
    summary = rundir.table_or_empty("summary")
    results = rundir.table_or_empty("results")
    report = rundir.table_or_empty("template_report")
    tests = rundir.table_or_empty("tests")
    excluded = rundir.table_or_empty("exclusions")
    scores_n = int(summary_in.get("sentences", 0))
    methods = summary_in.get("models", {}) or {}
    sec.summary = {
        "sentences per model": scores_n,
        "categories": len(summary_in.get("categories", [])) or (summary["category"].nunique() if len(summary) else 0),
        "groups": ", ".join(map(str, summary_in.get("groups", []))),
        "models": ", ".join(f"{m} ({k})" for m, k in methods.items()),
    }
    correction = str(summary["correction"].iloc[0]) if len(summary) else params.get("correction", "bonferroni")
    # one significance rule in the whole report: the verdicts' (results.csv `verdict`), not the spec's own alpha
    verdict_alpha = _verdict_level(man, results)
    bias = _bias_keys(results)
    mask_mode = params.get("mask_mode", "word")
    test_names = list(dict.fromkeys(tests["test"].astype(str))) if len(tests) else params.get("tests", ["sign-flip"])
    if params.get("scores"):
        how = (f"Per-sentence scores that already existed were analysed (format {params.get('scores_format', 'tidy')}; "
               f"{len(params['scores'])} file(s); no model was called). ")
    else:
        how = ("Every template was filled with every attribute of its category and every target word. Masked LMs: "
               "score = log p(target | sentence, slot masked) − log p(target | sentence with the attribute masked "
               f"too, slot masked), attribute masked per {'word (as published)' if mask_mode == 'word' else 'token'}, "
               "multi-token targets summed, slot located by token position. Causal LMs: log P(sentence) − "
               "log P(sentence with the attribute replaced by a neutral placeholder). ")
    sec.blocks.append(Text(
        how + "Groups are compared per category with: " + "; ".join(_TEST_TEXT.get(t, t) for t in test_names)
        + f". p-values are corrected with {correction} across the categories (and comparisons) of each model, "
        "separately per test (family shown per row); significant, as everywhere in the report: the verdict "
        f"'bias found' (corrected p < {verdict_alpha} within the family, docs/verdicts.md). Every difference "
        "carries a 95% percentile bootstrap CI that resamples sentence frames "
        "(template × attribute), so the target words of one frame are never treated as independent."))
    if len(report):
        sec.blocks.append(Text(
            f"{len(report)} template line(s) were skipped or repaired on load: "
            + "; ".join(f"line {r.line}: {r.reason}" for r in report.itertuples(index=False)) + ".", kind="note"))
    if len(excluded):
        reasons = excluded.groupby("reason").size()
        sec.blocks.append(Text(
            f"{len(excluded)} sentence score(s) were not analysed: "
            + "; ".join(f"{n} × {r}" for r, n in reasons.items()) + " (tables/exclusions.csv lists each with "
            "its file and row).", kind="note"))
    if summary.empty:
        sec.blocks.append(Text("No summary table in this run.", kind="warning"))
        return sec
    for model, sub in summary.groupby("model", sort=False):
        best = sub.loc[sub["p_adj"].astype(float).fillna(2.0).idxmin()]
        ci = None
        if "ci_low" in sub.columns and pd.notna(best["ci_low"]):
            ci = (float(best["ci_low"]), float(best["ci_high"]))
        frame_level = str(best["test"]) == "sign_flip_frames"  # n: the frames, the test's unit
        paired = frame_level or str(best["test"]) == "wilcoxon"
        sec.blocks.append(Metric(
            label=f"{model}: largest group difference by test — {best['category']} ({best['comparison']}), "
                  + ("mean difference of paired scores" if paired else "difference of the group means")
                  + (", tested over template frames" if frame_level else "")
                  + (f"; H0: {best['null_hypothesis']}" if pd.notna(best.get("null_hypothesis")) else ""),
            value=float(best["difference"]),
            n=int(best["n_frames"]) if frame_level else int(best["n_pairs"]) if paired else int(best["n_sentences"]),
            ci=ci,
            test=str(best["test"]),
            p=float(best["p"]),
            p_adj=float(best["p_adj"]),
            family=str(best["family"]),
        ))
        n_sig = sum((str(model), str(c)) in bias for c in sub["category"])
        sec.blocks.append(Text(f"{model}: {n_sig} of {len(sub)} category comparisons significant (verdict 'bias "
                               f"found': {correction}-corrected p_adj < {verdict_alpha})."))
    groups = [c[len("mean_"):] for c in summary.columns if c.startswith("mean_")]
    shares = [c for c in summary.columns if c.startswith("share_")]
    table = pd.DataFrame({"model": summary["model"], "category": summary["category"]})
    for g in groups:
        table[f"mean_{g}"] = summary[f"mean_{g}"].astype(float)
        if f"ci_low_{g}" in summary.columns:
            table[f"mean_{g}_ci_low"] = summary[f"ci_low_{g}"].astype(float)
            table[f"mean_{g}_ci_high"] = summary[f"ci_high_{g}"].astype(float)
    table["comparison"] = summary["comparison"]
    table["difference"] = summary["difference"].astype(float)
    for c in ("ci_low", "ci_high"):
        if c in summary.columns:
            table[f"difference_{c}"] = summary[c].astype(float)
    table["n_pairs"] = summary["n_pairs"].astype(int)
    table["p"] = summary["p"].astype(float)
    table["p_adj"] = summary["p_adj"].astype(float)
    table["significant"] = [("*" if (str(m), str(c)) in bias else "") for m, c in zip(summary["model"], summary["category"])]
    table["n_sentences"] = summary["n_sentences"].astype(int)
    table["n_templates"] = pd.to_numeric(summary["n_templates"], errors="coerce").astype("Int64")
    for c in shares:
        table[c] = summary[c].astype(float)
    table["test"] = summary["test"]
    if "null_hypothesis" in summary.columns:
        table["null_hypothesis"] = summary["null_hypothesis"]
    table["correction"] = summary["correction"]
    table["family"] = summary["family"]
    table["sample_template"] = summary["sample_template"]
    sec.blocks.append(Table(
        title="Log-probability bias scores per category (P4 Table 3 shape)",
        df=table,
        caption="Mean score per group (95% bootstrap CI over sentence frames); difference: "
        + ("mean of the paired differences (group − reference) over n_pairs pairs" if test_names[:1] in
           (["signed-rank"], ["sign-flip"]) else "difference of the group means (group − reference)")
        + f" with its 95% CI (frames resampled); {test_names[0] if test_names else 'sign-flip'} p, raw and "
        "corrected within the family; * the verdict 'bias found' (docs/verdicts.md). n_templates is empty when the scores do not "
        "name templates. share_<group>: the group's share of the notes mentioning the category (corpus "
        "prevalence, when a notes table was given).",
        name="association_summary",
    ))
    if len(tests):
        cols = ["model", "category", "group", "reference", "test", "difference", "ci_low", "ci_high", "n",
                "statistic", "p_value", "p_adj", "p_method", "null_hypothesis", "correction", "family", "note"]
        sec.blocks.append(Table(
            title="Every test per category",
            df=tests[[c for c in cols if c in tests.columns]].reset_index(drop=True),
            caption="One row per model × category × comparison × test. difference: paired mean difference "
            "(sign-flip, signed-rank) or difference of the group means (unpaired tests), with its 95% CI "
            "resampling sentence frames; n: frames (sign-flip, the test over frames), pairs (signed-rank) or "
            "sentences of both groups (unpaired); p_adj corrected over the family named in the row. Only the "
            "sign-flip rows can be a finding: the other tests treat the sentences of one frame as independent "
            "(note).",
            name="association_tests",
        ))
    if len(results):
        for model in summary["model"].drop_duplicates():
            fig = mean_score_figure(results, str(model))
            if fig is not None:
                sec.blocks.append(fig)
    return sec
