"""The incidence and language-disparity numbers of one run (METHODS §4.1; docs/metrics.md §5).

Point estimates from :mod:`.metrics`; descriptive CIs, ΔBL's paired tests and ΔCF's
Cochran's Q from :mod:`clinaudit.stats`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ...records import stable_hash
from .params import AUDIT, NoteGenerationParams

__all__ = ["AGE_ABBREVIATIONS", "CELL", "source_prefix", "attribute_sets", "n_values", "group_of", "group_order",
           "abbreviations", "abbr", "cell_seed", "shift_table", "incidence_metrics", "disparity_metrics",
           "results_table"]

#: Paper-style short labels for age bins (P1 Table 3).
AGE_ABBREVIATIONS: dict[str, str] = {"18-39": "18+", "40-64": "40+", "65-84": "65+", "85-99": "85+"}


def source_prefix(source: str) -> str:
    """``"doctor" → "D:"``, ``"patient" → "P:"`` (P1's row labels)."""
    return {"doctor": "D:", "patient": "P:"}.get(source, f"{source}:")



def attribute_sets(context: Any, params: NoteGenerationParams) -> list[tuple[str, ...]]:
    if params.attributes is None:
        return [(a,) for a in context.attributes]
    out = []
    for a in params.attributes:
        parts = tuple(a.split("+"))
        if all(p in context.attributes for p in parts):
            out.append(parts)
    return out


def n_values(attrs: tuple[str, ...], params: NoteGenerationParams) -> int:
    from ...perturb.counterfactual import ATTRIBUTE_VALUES

    n = 1
    for a in attrs:
        n *= len(params.values.get(a, ATTRIBUTE_VALUES[a]))
    return n


def group_of(name: str, attrs: tuple[str, ...]) -> str:
    if name == "baseline":
        return "baseline"
    return name.split("=", 1)[1] if len(attrs) == 1 else name


def group_order(attrs: tuple[str, ...], params: NoteGenerationParams) -> list[str]:
    import itertools

    from ...perturb.counterfactual import ATTRIBUTE_VALUES

    vals = [params.values.get(a, ATTRIBUTE_VALUES[a]) for a in attrs]
    if len(attrs) == 1:
        return ["baseline", *vals[0]]
    return ["baseline"] + ["|".join(f"{a}={v}" for a, v in zip(attrs, combo)) for combo in itertools.product(*vals)]


def abbreviations(attribute: str) -> dict[str, str]:
    from .metrics import GROUP_ABBREVIATIONS

    return {**GROUP_ABBREVIATIONS, **AGE_ABBREVIATIONS}


def abbr(group: str, attribute: str) -> str:
    """P1's short form of a (tied, possibly intersectional) group: ``"Asian/Black" → "A/B"``."""
    from .metrics import abbreviate_group

    ab = abbreviations(attribute)
    return "/".join("|".join(abbreviate_group(p.split("=", 1)[-1], ab) for p in tied.split("|"))
                    for tied in group.split("/"))


def cell_seed(seed: int, *parts: Any) -> int:
    return int(stable_hash("clinaudit-ng-boot-v1", seed, *parts, length=8), 16)


CELL = ["model", "dataset", "context", "source", "attribute"]
# columns of a ΔBL row of the paired layer that the maxΔBL row of its group carries too
_SHIFT_CARRY = ["test", "statistic", "p", "p_adj", "correction", "family", "alternative", "null_hypothesis", "rate",
                "floor", "n_cases", "n_test_cases", "n_pairs", "n_control_pairs", "effect_size", "effect_size_name",
                "test_note"]
_CF_NULL = ("H0: a dialog's incidence has the same probability under every counterfactual value (Cochran's Q, "
            "dialogs as blocks); H1: it differs for some value")


def shift_table(cell: pd.DataFrame, key: tuple[Any, ...], groups: list[str], params: NoteGenerationParams,
                 cell_seed: int) -> pd.DataFrame:
    """ΔBL per counterfactual value of one cell, from the paired layer (case = dialog, control arm = baseline)."""
    from ...stats import PairedFrame

    pf = PairedFrame(cell[CELL + ["case_id", "group", "incidence"]], case="case_id", arm="group",
                     score="incidence", by=CELL, control="baseline")
    t = pf.compare(metric="ΔBL", audit=AUDIT, scale=100.0, n_resamples=params.n_bootstrap,
                   n_permutations=params.n_permutations, confidence=params.confidence, seed=cell_seed,
                   family="ΔBL", family_cols=CELL, correction=params.correction)
    order = {g: i for i, g in enumerate(groups)}
    t = t.assign(_o=[order.get(g, len(order)) for g in t["group"]]).sort_values("_o", kind="stable")
    return t.drop(columns="_o").reset_index(drop=True)


def incidence_metrics(paired: pd.DataFrame, params: NoteGenerationParams, seed: int,
                       judge_model: str, reliability: str) -> tuple[pd.DataFrame, pd.DataFrame, list[dict[str, Any]]]:
    """Per cell: the incidence summary (+CIs), per-group rates and the result rows.

    Point estimates: :func:`.metrics.incidence_summary`. Descriptive CIs (BL%, rate, maxΔBL, ΔCF,
    %dlg): :func:`clinaudit.stats.bootstrap_ci` over dialogs, the same resamples for every number of a cell.
    ΔBL (each value vs the baseline): the paired layer. ΔCF: Cochran's Q (:mod:`clinaudit.stats.omnibus`).
    """
    from .metrics import (
        incidence_matrix,
        incidence_summary,
        resampled_delta_cf,
        resampled_max_delta_bl,
        resampled_pct_dlg,
        resampled_rates,
    )
    from ...stats import bootstrap_ci
    from ...stats.omnibus import cochrans_q_test

    summaries: list[dict[str, Any]] = []
    rates: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    df = paired[paired["judge_model"] == judge_model]
    conf = params.confidence
    ci_method = f"percentile bootstrap over dialogs ({params.n_bootstrap} resamples)"
    for key, cell in df.groupby(CELL, sort=False):
        model, dataset, context, source, attribute = key
        attrs = tuple(attribute.split("+"))
        groups = group_order(attrs, params)
        s = incidence_summary(cell, case_col="case_id", group_col="group", value_col="incidence")
        M, _ = incidence_matrix(cell, groups)
        cseed = cell_seed(seed, *key)

        def ci(stat: Any, M: np.ndarray = M, cseed: int = cseed) -> tuple[float, float]:
            return bootstrap_ci(stat, M, n_resamples=params.n_bootstrap, confidence=conf, seed=cseed)

        rate_ci = [ci(lambda R, g=g: resampled_rates(R)[:, g]) for g in range(len(groups))]
        extra = dict(zip(CELL, key), judge_model=judge_model, judge_reliability=reliability)
        row_label = f"{source_prefix(source)} {context}"
        n_obs = (~np.isnan(M)).sum(axis=0)
        n_bl = int(n_obs[0])
        rows.append(dict(audit=AUDIT, metric="BL%", group="baseline", value=s["BL%"], n=n_bl, n_cases=n_bl,
                         ci_low=rate_ci[0][0], ci_high=rate_ci[0][1], ci_method=ci_method, test="descriptive",
                         **extra))
        rates.append(dict(extra, group="baseline", rate=s["BL%"], n=n_bl, ci_low=rate_ci[0][0],
                          ci_high=rate_ci[0][1]))
        for gi, g in enumerate(groups[1:], start=1):
            rate = s["rate"].get(g, math.nan)
            rates.append(dict(extra, group=g, rate=rate, n=int(n_obs[gi]), ci_low=rate_ci[gi][0],
                              ci_high=rate_ci[gi][1]))
            rows.append(dict(audit=AUDIT, metric="rate%", group=g, value=rate, n=int(n_obs[gi]),
                             n_cases=int(n_obs[gi]), ci_low=rate_ci[gi][0], ci_high=rate_ci[gi][1],
                             ci_method=ci_method, test="descriptive", **extra))
        shifts = shift_table(cell, key, groups, params, cseed)
        by_group: dict[str, dict[str, Any]] = {}
        for r in shifts.to_dict("records"):
            r.update(judge_model=judge_model, judge_reliability=reliability, row=row_label)
            by_group[str(r["group"])] = r
            rows.append(r)
        max_group = s["maxΔBL_group"]
        first = max_group.split("/")[0] if max_group else None
        no_bl = math.isnan(s["BL%"])
        label = ("n/a" if no_bl else "–") if max_group is None else f"{abbr(max_group, attribute)}({s['maxΔBL']:.1f})"
        t = by_group.get(first) if first else None
        mx_ci = ci(resampled_max_delta_bl)
        carried = {c: t.get(c) for c in _SHIFT_CARRY} if t else {}
        rows.append(dict(
            audit=AUDIT, metric="maxΔBL", group=max_group or "", reference="baseline", value=s["maxΔBL"],
            n=t["n"] if t else n_bl, ci_low=mx_ci[0], ci_high=mx_ci[1],
            ci_method=ci_method + "; CI of max_g(rate(g) − BL%)", label=label, row=row_label, **{
                **carried, "test": t["test"] if t else ("undefined (no parsed baseline judgment)" if no_bl
                                                        else "none (no value exceeds the baseline)")},
            **extra))
        q = cochrans_q_test(M[:, 1:])
        cf_ci = ci(resampled_delta_cf)
        rows.append(dict(audit=AUDIT, metric="ΔCF", group="", reference="", value=s["ΔCF"], n=q.n, n_cases=q.n,
                         ci_low=cf_ci[0], ci_high=cf_ci[1], ci_method=ci_method, test=q.test, statistic=q.statistic,
                         p=q.p, null_hypothesis=_CF_NULL, note=q.note, **extra))
        complete = int((~np.isnan(M[:, 1:]).any(axis=1)).sum()) if M.shape[1] > 1 else 0
        dlg_ci = ci(resampled_pct_dlg)
        rows.append(dict(audit=AUDIT, metric="%dlg", group="", value=s["%dlg"], n=complete, n_cases=complete,
                         ci_low=dlg_ci[0], ci_high=dlg_ci[1], ci_method=ci_method, test="descriptive", **extra))
        summaries.append(dict(
            extra, row=row_label, n_dialogs=s["n_dialogs"], n_missing=s["n_missing"],
            **{"BL%": s["BL%"], "BL%_ci_low": rate_ci[0][0], "BL%_ci_high": rate_ci[0][1],
               "maxΔBL": s["maxΔBL"], "maxΔBL_group": max_group or "", "maxΔBL_label": label,
               "maxΔBL_ci_low": mx_ci[0], "maxΔBL_ci_high": mx_ci[1],
               "maxΔBL_n_pairs": t["n_test_cases"] if t else math.nan,
               "maxΔBL_test": t["test"] if t else "", "maxΔBL_p": t["p"] if t else math.nan,
               "maxΔBL_p_adj": t["p_adj"] if t else math.nan, "maxΔBL_family": t["family"] if t else "",
               "ΔCF": s["ΔCF"], "ΔCF_ci_low": cf_ci[0], "ΔCF_ci_high": cf_ci[1], "ΔCF_test": q.test,
               "ΔCF_p": q.p, "%dlg": s["%dlg"], "%dlg_ci_low": dlg_ci[0], "%dlg_ci_high": dlg_ci[1]},
        ))
    return pd.DataFrame(summaries), pd.DataFrame(rates), rows


def disparity_metrics(disp: pd.DataFrame, params: NoteGenerationParams, seed: int, judge_model: str,
                       reliability: str) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    from .metrics import language_disparity_summary
    from ...stats import bootstrap_ci

    out: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    if disp.empty:
        return pd.DataFrame(out), rows
    ci_method = f"bootstrap percentile ({params.n_bootstrap} resamples of judged dialogs)"
    for key, cell in disp.groupby(CELL, sort=False):
        attribute = key[4]
        d = cell.assign(decision=cell["decision"].where(cell["status"] == "ok"),
                        most_impacted=cell["most_impacted"].where(cell["most_impacted"] != "", None))
        s = language_disparity_summary(d, abbreviations=abbreviations(attribute))
        extra = dict(zip(CELL, key), judge_model=judge_model, judge_reliability=reliability)
        valid = d["decision"].dropna().astype(str).str.upper()
        yes = (valid == "YES").to_numpy(dtype=float)
        lo, hi = bootstrap_ci(lambda x: 100.0 * x.mean(axis=1), yes, n_resamples=params.n_bootstrap,
                              confidence=params.confidence, seed=cell_seed(seed, "pctd", *key)) if len(yes) else (
            math.nan, math.nan)
        rows.append(dict(audit=AUDIT, metric="%Δ", group="", value=s["%Δ"], n=s["n_dialogs"], ci_low=lo, ci_high=hi,
                         ci_method=ci_method, test="descriptive", **extra))
        mlo = mhi = math.nan
        if s["Maj."]:
            top = s["Maj."].split("/")[0]
            imp = d.loc[d["decision"].astype(str).str.upper() == "YES", "most_impacted"]
            ind = (imp.fillna("").astype(str) == top).to_numpy(dtype=float)
            if len(ind):
                mlo, mhi = bootstrap_ci(lambda x: 100.0 * x.mean(axis=1), ind, n_resamples=params.n_bootstrap,
                                        confidence=params.confidence, seed=cell_seed(seed, "maj", *key))
        if s["n_yes"]:
            rows.append(dict(audit=AUDIT, metric="Maj.%", group=s["Maj."] or "", value=s["Maj.%"], n=s["n_yes"],
                             ci_low=mlo, ci_high=mhi, ci_method=ci_method + "; share of the (first) majority group",
                             test="descriptive", label=s["label"], **extra))
        out.append(dict(extra, row=f"{source_prefix(key[3])} {key[2]}", **{
            "%Δ": s["%Δ"], "%Δ_ci_low": lo, "%Δ_ci_high": hi, "Maj.": s["Maj."] or "", "Maj._abbr": s["Maj._abbr"] or "",
            "Maj.%": s["Maj.%"], "label": s["label"], "n_dialogs": s["n_dialogs"], "n_yes": s["n_yes"],
            "n_missing": s["n_missing"]}))
    return pd.DataFrame(out), rows



def results_table(rows: list[dict[str, Any]], reliability: pd.DataFrame, agreement: pd.DataFrame | None,
                  params: NoteGenerationParams) -> pd.DataFrame:
    """The results table: the metric rows, ΔCF corrected over its family, then the judges' reliability rows.

    ΔBL rows come corrected from the paired layer (family: the values of one cell); ΔCF's family is the
    contexts × sources of one model × dataset × attribute.
    """
    from ...stats import apply_correction
    from ...stats.results import results_frame

    res = results_frame(rows)
    if len(res) and (res["metric"] == "ΔCF").any():
        dcf = res["metric"] == "ΔCF"
        corrected = apply_correction(res[dcf], family_cols=["model", "dataset", "attribute"], family="ΔCF",
                                     method=params.correction)
        res.loc[dcf, ["p_adj", "correction", "family"]] = corrected[["p_adj", "correction", "family"]].to_numpy()
    jr = []
    for r in reliability.to_dict("records") if len(reliability) else []:
        jr.append(dict(audit=AUDIT, metric="judge_parse_rate%", group=r["judge"], value=r["parse_rate%"], n=r["n"],
                       test="descriptive", judge_model=r["judge_model"], judge_reliability=r["reliability"]))
    if agreement is not None:
        for r in agreement.to_dict("records"):
            jr.append(dict(audit=AUDIT, metric="judge_agreement%", group=f"{r['judge']}:{r['field']}",
                           value=r["percent_agreement"], n=r["n"], test="percent agreement vs human labels",
                           judge_model=r["judge_model"], judge_reliability=r["reliability"]))
            jr.append(dict(audit=AUDIT, metric="judge_kappa", group=f"{r['judge']}:{r['field']}", value=r["kappa"],
                           n=r["n"], test="cohens_kappa", statistic=r["kappa"], note=r["kappa_note"],
                           judge_model=r["judge_model"], judge_reliability=r["reliability"]))
    if jr:
        res = results_frame(list(res.to_dict("records")) + jr)
    return res
