"""Language-model association bias scores aggregated per category (METHODS §4.4, §5, P4 Table 3).

Input: one row per scored sentence — the template, the attribute, the
category, the demographic group and the target word filled in, and the
prior-adjusted log-probability score. Targets of the two groups are paired by
their position in the target lists (man↔woman, he↔she, male↔female, m↔f).

Two entry points:

* :func:`bias_score_summary` — one category table, paired Wilcoxon signed-rank (the paper's text);
* :func:`association_tests` — per model × category × compared group, any of the tests of
  :data:`ASSOCIATION_TESTS` (the frame-level sign-flip, the default and the only test whose rows
  can be ``bias``; the paired signed-rank of P4's text and the three unpaired tests P4's published
  code runs, labelled sentence-level), each difference with its n, its null hypothesis, its correction family and a
  percentile bootstrap CI that resamples *sentence frames* (template × attribute: the target
  words of one frame move together); :func:`group_mean_results` and :func:`association_summary`
  (the Table-3 shape) build on it.

Every test, bootstrap and correction comes from :mod:`clinaudit.stats`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["bias_score_summary", "ASSOCIATION_TESTS", "test_column_key", "add_pairing_columns",
           "association_tests", "group_mean_results", "association_summary", "TESTS_COLUMNS", "tests_table"]


def bias_score_summary(
    scores: pd.DataFrame,
    category_col: str = "category",
    group_col: str = "group",
    pair_cols: Sequence[str] = ("template", "attribute", "target_index"),
    score_col: str = "score",
    groups: Sequence[str] | None = None,
    correction: str = "bonferroni",
    alpha: float = 0.01,
    audit: str = "association",
) -> pd.DataFrame:
    """Per category: mean score per group and a paired Wilcoxon signed-rank test.

    Sentences of the two groups are matched on ``pair_cols`` (template ×
    attribute × target-pair index). For each category the test compares the
    matched scores (:func:`clinaudit.stats.wilcoxon_test`); p-values are
    corrected across categories (``correction="bonferroni"`` or ``"fdr_bh"``)
    and ``flag`` marks p < ``alpha`` (0.01 in P4 Table 3; on the raw p, as
    the paper does, with ``flag_adj`` on the corrected one).

    Returns a result table with one row per category: ``value`` = mean of
    group₁ − mean of group₂ over matched pairs, ``group``/``reference`` the two
    groups, ``n`` = matched pairs, extra columns ``category``,
    ``mean_<group>`` (over all that group's sentences), ``n_sentences``,
    ``flag`` and ``flag_adj``.
    """
    from ...results import result_row, results_frame
    from ...stats import apply_correction, wilcoxon_test

    pair_cols = list(pair_cols)
    gvals = list(groups) if groups is not None else sorted(pd.unique(scores[group_col].dropna().astype(str)))
    if len(gvals) != 2:
        raise ValueError(f"bias_score_summary compares exactly two groups, got {gvals}")
    g1, g2 = gvals
    rows: list[dict[str, Any]] = []
    d = scores.assign(_g=scores[group_col].astype(str))
    for cat, sub in d.groupby(category_col, sort=True):
        means = {f"mean_{g}": float(sub.loc[sub["_g"] == g, score_col].mean()) for g in gvals}
        wide = sub[sub["_g"].isin(gvals)].pivot_table(index=pair_cols, columns="_g", values=score_col, aggfunc="mean")
        if g1 in wide.columns and g2 in wide.columns:
            wide = wide[[g1, g2]].dropna()
            x, y = wide[g1].to_numpy(), wide[g2].to_numpy()
        else:
            x = y = np.array([])
        test = wilcoxon_test(x, y)
        rows.append(
            result_row(
                audit=audit,
                metric="log_prob_bias_score",
                group=g1,
                reference=g2,
                value=float(np.mean(x - y)) if x.size else math.nan,
                n=int(x.size),
                test=test.test,
                statistic=test.statistic,
                p=test.p,
                category=cat,
                n_sentences=int(len(sub)),
                note=test.note,
                **means,
            )
        )
    table = results_frame(rows)
    if len(table):
        table = apply_correction(table, family="categories", method=correction)
        table["flag"] = (table["p"] < alpha).to_numpy()
        table["flag_adj"] = (table["p_adj"] < alpha).to_numpy()
    return table


#: Tests of :func:`association_tests` by command-line name: the paired signed-rank test of the paper's
#: text, and the unpaired rank-sum, Kolmogorov–Smirnov and Student t tests of P4's published code.
#: ``sign-flip`` (ours) is the frame-level test: it treats the frame, not the sentence, as the unit.
ASSOCIATION_TESTS: tuple[str, ...] = ("signed-rank", "rank-sum", "ks", "t", "sign-flip")

_DESCRIPTION = {
    "signed-rank": "Wilcoxon signed-rank on pairs (same frame, same target position)",
    "rank-sum": "Wilcoxon rank-sum (unpaired)",
    "ks": "two-sample Kolmogorov-Smirnov (unpaired)",
    "t": "Student two-sample t, pooled variance (unpaired)",
    "sign-flip": "sign-flip permutation over sentence frames of the frame-mean paired difference",
}

#: the label of a test that treats sentences as independent units (the sentences of one frame share it)
_SENTENCE_LEVEL = ("sentence-level test: treats the sentences of one template frame as independent (they are "
                   "not), so its verdict is never bias; the frame-level test is sign-flip")

_SIGN_FLIP_NULL = ("the frame-level mean paired differences (group - reference) are symmetric about 0 "
                   "(each frame's sign flip equally likely)")


def _frame_sign_flip(px: np.ndarray, py: np.ndarray, frames: np.ndarray, seed: int,
                     n_permutations: int = 9999) -> tuple[Any, dict[str, Any]]:
    """The layer's sign-flip test on per-frame means of the paired differences (noise below tolerance = 0), and
    the row's ``p_method`` / ``n_permutations`` (Monte Carlo past 2^k > ``n_permutations``: p ≥ 1/(R + 1))."""
    from ...stats import StatResult, sign_flip_test, zero_small_differences

    d = zero_small_differences(px - py, np.maximum(np.abs(px), np.abs(py)))
    per_frame = pd.Series(d).groupby(pd.Series(frames, dtype=object), sort=True).mean().to_numpy()
    res = sign_flip_test(per_frame, n_permutations=n_permutations, seed=seed)
    return (StatResult("sign_flip_frames", res.statistic, res.p, int(per_frame.size), res.note),
            {"p_method": res.method, "n_permutations": res.n_permutations})


def frame_permutations(n_tests: int, alpha: float, least: int = 9999) -> int:
    """The sign flips each frame-level test draws: at least ``least``, and enough that Holm over the model's
    ``n_tests`` sign-flip rows can reach half of ``alpha`` with Monte Carlo p-values (n/(R + 1) < alpha/2), as
    classifier gaps raise theirs: with 120 categories and alpha 0.01, 24,000 (9,999 floored p_run at 0.012)."""
    from ...stats.resolution import draws_to_reach

    return max(least, draws_to_reach(max(n_tests, 1), alpha / 2))


def test_column_key(test: str) -> str:
    """``signed-rank`` → ``signed_rank``: the suffix of a test's columns in the summary (``p_signed_rank``)."""
    return test.replace("-", "_")


def add_pairing_columns(scores: pd.DataFrame) -> pd.DataFrame:
    """Add ``frame`` (template × attribute) and ``position`` (target index) when absent.

    ``frame`` is the unit of resampling of every CI and, with ``position``, the
    key that pairs a group's sentence with the reference group's sentence.
    Built from ``template_id`` (else ``template``) and ``attribute`` (when
    present) and ``target_index``.
    """
    out = scores.copy()
    if "frame" not in out.columns:
        tcol = "template_id" if "template_id" in out.columns else "template"
        key = out[tcol].astype(str)
        if "attribute" in out.columns:
            key = key + " | " + out["attribute"].astype(str)
        out["frame"] = key
    if "position" not in out.columns:
        out["position"] = out["target_index"]
    return out


def _frame_ci(values: np.ndarray, frames: np.ndarray, in_a: np.ndarray, in_b: np.ndarray | None,
              n_bootstrap: int, confidence: float, seed: int) -> tuple[float, float, str]:
    from ...stats.twosample import cluster_bootstrap_mean_difference

    if n_bootstrap < 1 or values.size == 0:
        return math.nan, math.nan, ""
    lo, hi = cluster_bootstrap_mean_difference(values, frames, in_a, in_b, n_resamples=n_bootstrap,
                                               confidence=confidence, seed=seed)
    method = (f"percentile bootstrap {confidence:.0%} ({n_bootstrap} resamples of sentence frames, "
              "template x attribute)")
    return lo, hi, method if not math.isnan(lo) else ""


def association_tests(
    scores: pd.DataFrame,
    groups: Sequence[str],
    tests: Sequence[str] = ("sign-flip", "signed-rank"),
    *,
    correction: str = "bonferroni",
    alpha: float = 0.01,
    n_bootstrap: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    audit: str = "association",
) -> pd.DataFrame:
    """Per model × category × compared group × test: difference, CI, test, corrected p.

    ``scores`` has one row per sentence with ``model``, ``category``,
    ``group``, ``score`` and the pairing columns ``frame`` and ``position``
    (:func:`add_pairing_columns`). ``groups[0]`` is the reference; every other
    group is compared with it (x = the group, y = the reference, so scipy's
    statistic is positive when the group scores higher).

    * ``signed-rank``: :func:`clinaudit.stats.wilcoxon_test` on the paired
      differences group − reference (same frame and position); ``value`` = their
      mean, ``n`` = pairs.
    * ``sign-flip``: the per-frame means of those paired differences, tested with
      the layer's sign-flip permutation test (:func:`clinaudit.stats.sign_flip_test`;
      exact up to 13 frames); the frame is the unit, as METHODS §5 asks; ``n`` = frames.
      The only test whose rows can be ``bias`` (the sentences of one frame share its template and
      attribute, so a sentence-level test of frame-level noise is significant in about a third of
      null runs: its rows are labelled ``test_unit = sentence`` and their verdicts are never ``bias``).
    * ``rank-sum`` / ``ks`` / ``t``: :func:`clinaudit.stats.two_sample_test` on
      all sentences of the two groups; ``value`` = mean(group) − mean(reference),
      ``n`` = sentences of both groups.

    The CI of ``value`` resamples frames (:func:`clinaudit.stats.cluster_bootstrap_mean_difference`).
    p-values are corrected over the categories and comparisons of one model
    (family ``categories:<model>``; with several tests, each test is its own
    family ``categories:<model>|<test>``: the tests are alternative analyses
    of the same hypotheses, not further hypotheses). ``flag`` = raw p <
    ``alpha`` (P4 Table 3), ``flag_adj`` on the corrected p.

    The sentence-level tests (every test but ``sign-flip``) are labelled so: ``test_unit`` =
    ``sentence`` and a ``note`` that says it (``frame`` for ``sign-flip``). ``alpha`` is written on
    every row: the verdicts use it as their level unless the spec sets ``verdicts.alpha``.

    Extra columns: ``model, category, test_option`` (the command-line name), ``test_unit``, ``alpha``,
    ``null_hypothesis, alternative, n_group, n_reference, n_pairs, n_frames,
    mean_group, mean_reference, flag, flag_adj``.
    """
    from ...results import result_row, results_frame
    from ...stats import apply_correction, wilcoxon_test
    from ...stats.twosample import NULL_HYPOTHESES, two_sample_test

    tests = list(dict.fromkeys(tests))
    unknown = [t for t in tests if t not in ASSOCIATION_TESTS]
    if unknown or not tests:
        raise ValueError(f"unknown test(s) {unknown}; choose from {', '.join(ASSOCIATION_TESTS)}")
    groups = [str(g) for g in groups]
    if len(groups) < 2:
        raise ValueError(f"need at least two groups to compare, got {groups}")
    ref = groups[0]
    d = scores.assign(group=scores["group"].astype(str), frame=scores["frame"].astype(str))
    rows: list[dict[str, Any]] = []
    cells = [(model, k, g, cat, sub)  # rows in the order model, compared group, category
             for model, by_model in d.groupby("model", sort=False)
             for k, g in enumerate(groups[1:])
             for cat, sub in by_model.groupby("category", sort=True)]
    n_flip = {m: sum(1 for c in cells if c[0] == m) for m in {c[0] for c in cells}}
    for model, k, g, cat, sub in cells:
        pair = sub[sub["group"].isin([g, ref])]
        is_g = (pair["group"] == g).to_numpy()
        is_r = (pair["group"] == ref).to_numpy()
        vals = pair["score"].to_numpy(dtype=float)
        frames = pair["frame"].to_numpy(dtype=object)
        x, y = vals[is_g], vals[is_r]
        wide = pair.pivot_table(index=["frame", "position"], columns="group", values="score", aggfunc="mean")
        if g in wide.columns and ref in wide.columns:
            wide = wide[[g, ref]].dropna()
            px, py = wide[g].to_numpy(), wide[ref].to_numpy()
            pframes = wide.index.get_level_values("frame").to_numpy(dtype=object)
        else:
            px = py = np.array([])
            pframes = np.array([], dtype=object)
        common = dict(audit=audit, metric="log_prob_bias_score", group=g, reference=ref, model=model,
                      category=cat, n_group=int(x.size), n_reference=int(y.size), n_pairs=int(px.size),
                      n_frames=int(pd.unique(frames).size), mean_group=float(x.mean()) if x.size else math.nan,
                      mean_reference=float(y.mean()) if y.size else math.nan, alternative="two-sided")
        for test in tests:
            how: dict[str, Any] = {}
            if test == "sign-flip":
                res, how = _frame_sign_flip(px, py, pframes, seed + k, frame_permutations(n_flip[model], alpha))
            if test in ("signed-rank", "sign-flip"):
                res = wilcoxon_test(px, py) if test == "signed-rank" else res
                value = float(np.mean(px - py)) if px.size else math.nan
                lo, hi, ci_method = _frame_ci(px - py, pframes, np.ones(px.size, bool), None, n_bootstrap,
                                              confidence, seed + k)
            else:
                res = two_sample_test(test, x, y)
                value = float(x.mean() - y.mean()) if x.size and y.size else math.nan
                lo, hi, ci_method = _frame_ci(vals, frames, is_g, is_r, n_bootstrap, confidence, seed + k)
            unit = "frame" if test == "sign-flip" else "sentence"
            note = res.note if unit == "frame" else "; ".join(x for x in (_SENTENCE_LEVEL, res.note) if x)
            rows.append(result_row(**common, value=value, n=res.n, ci_low=lo, ci_high=hi, ci_method=ci_method,
                                   test=res.test, statistic=res.statistic, p=res.p, note=note,
                                   test_option=test, test_description=_DESCRIPTION[test], test_unit=unit,
                                   null_hypothesis=NULL_HYPOTHESES.get(res.test, _SIGN_FLIP_NULL), **how))
    table = results_frame(rows)
    if len(table):
        cols = ["model"] if len(tests) == 1 else ["model", "test_option"]
        table = apply_correction(table, family_cols=cols, family="categories", method=correction)
        table["flag"] = (table["p"] < alpha).to_numpy()
        table["flag_adj"] = (table["p_adj"] < alpha).to_numpy()
        table["alpha"] = alpha  # the audit's level: the verdicts use it unless the spec sets verdicts.alpha
        table["note"] = _too_few_frames(table, alpha)
    return table


def _too_few_frames(table: pd.DataFrame, alpha: float) -> list[str]:
    """The rows' notes, with a word on every sign-flip row whose frames cannot give p below ``alpha``.

    With k frames the sign-flip test's smallest p is 2/2^k (:func:`clinaudit.stats.smallest_p`), times the
    correction's factor over the row's family: below that no data can make the row significant, so it
    can never be ``bias`` whatever the model does; the note says so and how many frames would do."""
    from ...stats.resolution import SIGN_FLIP_TEST, correction_factor, out_of_reach

    sizes = table.groupby("family")["family"].transform("size")
    notes = []
    for row, size in zip(table.to_dict("records"), sizes):
        note = str(row.get("note") or "") if pd.notna(row.get("note")) else ""
        k = row.get("n")
        if row.get("test_option") == "sign-flip" and pd.notna(k) and k >= 1:
            factor = correction_factor(str(row.get("correction") or ""), int(size))
            reach = out_of_reach(SIGN_FLIP_TEST, alpha, factor, n_cases=float(k), p_method=str(row.get("p_method") or ""),
                                 n_permutations=row.get("n_permutations"))
            if reach is not None:
                p_min, need = reach
                fam = f" x {int(size)} comparisons ({row.get('correction')})" if factor > 1 else ""
                note = "; ".join(x for x in (note, (
                    f"cannot be significant with {int(k)} frame(s): the smallest possible sign-flip p is "
                    f"{p_min:.3g}{fam}, not below alpha {alpha:g}"
                    + (f"; {need} frames (templates x attributes) would be needed" if need else ""))) if x)
        notes.append(note)
    return notes


def group_mean_results(scores: pd.DataFrame, groups: Sequence[str], *, n_bootstrap: int = 1000, seed: int = 0,
                       confidence: float = 0.95, audit: str = "association") -> pd.DataFrame:
    """Mean score per model × category × group with a percentile bootstrap CI resampling frames (descriptive)."""
    from ...results import result_row, results_frame

    d = scores.assign(group=scores["group"].astype(str), frame=scores["frame"].astype(str))
    rows = []
    for (model, cat), sub in d.groupby(["model", "category"], sort=True):
        for g in groups:
            part = sub[sub["group"] == str(g)]
            vals = part["score"].to_numpy(dtype=float)
            lo = hi = math.nan
            ci_method = ""
            if part["frame"].nunique() > 1:
                lo, hi, ci_method = _frame_ci(vals, part["frame"].to_numpy(dtype=object), np.ones(vals.size, bool),
                                              None, n_bootstrap, confidence, seed)
            rows.append(result_row(audit=audit, metric="mean_log_prob_bias_score", group=g,
                                   value=float(vals.mean()) if vals.size else math.nan, n=int(vals.size),
                                   ci_low=lo, ci_high=hi, ci_method=ci_method, test="none (descriptive)",
                                   category=cat, model=model, n_frames=int(part["frame"].nunique())))
    return results_frame(rows)


def _count(sub: pd.DataFrame, col: str) -> float:
    if col not in sub.columns:
        return math.nan
    vals = sub[col].dropna().astype(str)
    vals = vals[vals.str.strip() != ""]
    return float(vals.nunique()) if len(vals) else math.nan


def association_summary(tests: pd.DataFrame, means: pd.DataFrame, scores: pd.DataFrame, groups: Sequence[str],
                        prevalence: pd.DataFrame | None = None) -> pd.DataFrame:
    """The P4 Table 3 shape: one row per model × category × compared group.

    ``mean_<g>`` (with ``ci_low_<g>``/``ci_high_<g>``) for every group; the
    first test of ``tests`` fills ``difference, ci_low, ci_high, ci_method,
    n_pairs, test, null_hypothesis, statistic, p, p_adj, correction, family,
    significant, significant_adj``; every test adds ``p_<test>``,
    ``p_adj_<test>`` and ``significant_<test>`` (raw p < alpha, the Table-3
    star; test names with ``-`` → ``_``). Then ``n_sentences, n_frames,
    n_templates, n_attributes`` (NaN when the scores do not say),
    ``sample_template`` and ``share_<g>``/``n_mentioning`` with a prevalence table.
    """
    rows: list[dict[str, Any]] = []
    if len(tests) == 0:
        return pd.DataFrame(rows)
    order = list(dict.fromkeys(tests["test_option"]))
    for (model, cat, grp, ref), sub_t in tests.groupby(["model", "category", "group", "reference"], sort=False):
        first = sub_t[sub_t["test_option"] == order[0]].iloc[0]
        sub = scores[(scores["model"] == model) & (scores["category"] == cat)]
        row: dict[str, Any] = {"model": model, "category": cat}
        for g in groups:
            m = means[(means["model"] == model) & (means["category"] == cat) & (means["group"] == g)]
            row[f"mean_{g}"] = float(m["value"].iloc[0]) if len(m) else math.nan
            row[f"ci_low_{g}"] = float(m["ci_low"].iloc[0]) if len(m) else math.nan
            row[f"ci_high_{g}"] = float(m["ci_high"].iloc[0]) if len(m) else math.nan
        row.update({
            "comparison": f"{grp} vs {ref}",
            "difference": first["value"],
            "ci_low": first["ci_low"],
            "ci_high": first["ci_high"],
            "ci_method": first["ci_method"],
            "n_pairs": int(first["n_pairs"]),
            "test": first["test"],
            "null_hypothesis": first["null_hypothesis"],
            "statistic": first["statistic"],
            "p": first["p"],
            "p_adj": first["p_adj"],
            "correction": first["correction"],
            "family": first["family"],
            "significant": bool(first["flag"]),
            "significant_adj": bool(first["flag_adj"]),
        })
        for t in sub_t.itertuples(index=False):
            key = test_column_key(str(t.test_option))
            row[f"p_{key}"] = t.p
            row[f"p_adj_{key}"] = t.p_adj
            row[f"significant_{key}"] = bool(t.flag)
        row.update({
            "n_sentences": int(len(sub)),
            "n_frames": int(sub["frame"].nunique()) if "frame" in sub.columns else math.nan,
            "n_templates": _count(sub, "template_id"),
            "n_attributes": _count(sub, "attribute"),
            "sample_template": str(sub["template"].iloc[0]) if len(sub) and "template" in sub.columns else "",
            "note": first["note"],
        })
        if prevalence is not None:
            for g in groups:
                pv = prevalence[(prevalence["category"] == cat) & (prevalence["group"] == g)]
                row[f"share_{g}"] = float(pv["share"].iloc[0]) if len(pv) else math.nan
            pv = prevalence[prevalence["category"] == cat]
            row["n_mentioning"] = int(pv["n_mentioning"].iloc[0]) if len(pv) else 0
        rows.append(row)
    out = pd.DataFrame(rows)
    for col in ("n_frames", "n_templates", "n_attributes"):  # counts, empty when the scores do not say
        out[col] = pd.to_numeric(out[col], errors="coerce").round().astype("Int64")
    return out


#: Columns of the ``tests`` table (``OUT/tests.csv``), in order.
TESTS_COLUMNS: list[str] = [
    "model", "category", "group", "reference", "test", "scipy_test", "statistic", "p_value", "n", "n_group",
    "n_reference", "n_pairs", "n_frames", "mean_group", "mean_reference", "difference", "ci_low", "ci_high",
    "ci_method", "null_hypothesis", "alternative", "p_adj", "correction", "family", "significant",
    "significant_adj", "direction", "note",
]

#: how each test's statistic is signed, given the compared group g and the reference r
_DIRECTION = {
    "wilcoxon": "wilcoxon({g} − {r}) on paired sentences: W is the smaller signed-rank sum (unsigned); "
                "difference > 0 when {g} scores higher",
    "ranksums": "ranksums({g}, {r}): z > 0 when {g} tends to score higher",
    "ttest_ind": "ttest_ind({g}, {r}): t > 0 when mean({g}) > mean({r})",
    "ks_2samp": "ks_2samp({g}, {r}): D ≥ 0 (unsigned); difference > 0 when mean({g}) > mean({r})",
    "sign_flip_frames": "mean over frames of ({g} − {r}): > 0 when {g} scores higher",
}


def tests_table(tests: pd.DataFrame) -> pd.DataFrame:
    """:func:`association_tests` rows as the ``tests.csv`` table (:data:`TESTS_COLUMNS`).

    ``test`` is the command-line name (``signed-rank``, ``rank-sum``, ``ks``,
    ``t``), ``scipy_test`` the scipy function, ``p_value`` the raw p,
    ``difference`` the compared difference of means (paired for signed-rank)
    with its CI, ``significant`` raw p < alpha and ``significant_adj`` the
    corrected p < alpha; ``direction`` says how the statistic is signed (e.g.
    ``ranksums(male, female): z > 0 when male tends to score higher``).
    """
    if len(tests) == 0:
        return pd.DataFrame(columns=TESTS_COLUMNS)
    out = tests.rename(columns={"test": "scipy_test", "test_option": "test", "p": "p_value", "value": "difference",
                                "flag": "significant", "flag_adj": "significant_adj"})
    out["direction"] = [_DIRECTION.get(str(t), "").format(g=g, r=r)
                        for t, g, r in zip(out["scipy_test"], out["group"], out["reference"])]
    return out[TESTS_COLUMNS].reset_index(drop=True)
