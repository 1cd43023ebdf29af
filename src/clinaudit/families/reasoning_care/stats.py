"""Statistics of the CARE audit (P3): every gap, drift and direction test through the paired layer.

Each comparison is a :class:`clinaudit.stats.PairedFrame` with **case = vignette**:

* semantic drift: arm = the male/female pair (Γ_gender), control = the ID1/ID2 pair
  (Γ_control, the noise floor); excess = mean Γ_gender − mean Γ_control, one-sided
  (H1: above the floor); Cohen's d (pooled SD, P3's effect size) beside it
  (:func:`.metrics.drift_effect`);
* signed gaps ΔAcc, ΔLen, Δrethink (male − female per vignette): tested against 0
  (``gap_floor: zero``, default) or against the control pair's gap
  (``gap_floor: control``: excess = gap − (ID1 − ID2)); the control pair's own gap is a row
  of its own either way;
* direction of bias: per judged vignette +1 Female-leaning, −1 Male-leaning, 0 Tie; the
  sign-flip test over vignettes of mean = 0 is the exact sign test with ties excluded.

Every test row carries n cases, n pairs, the floor, the excess, its case-resampled CI, the
test and its null hypothesis; p-values are corrected within the declared families by
:func:`clinaudit.stats.apply_correction`. Descriptive rows (accuracy per arm, shares, means)
get bootstrap CIs from :func:`clinaudit.stats.bootstrap_ci` over vignettes and no test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...results import results_frame
from ...stats import PairedFrame, apply_correction, bootstrap_ci
from .judges import PHASE1_DIMENSIONS, PHASE1_TITLES, PHASE2_DIMENSIONS, PHASE2_TITLES, direction_of
from .metrics import delta_len, drift_effect
from .params import ARMS, AUDIT
from .specialty import DEFAULT_SPECIALTY_LEXICON, OTHER

__all__ = ["statistics", "mean_ci", "INFERENCE_COLUMNS"]

#: Columns shown beside every drift / gap in the CARE tables.
INFERENCE_COLUMNS: list[str] = ["n_cases", "n_pairs", "floor", "excess", "ci_low", "ci_high", "test",
                                "null_hypothesis", "p", "p_adj", "correction", "family"]


def mean_ci(x: Sequence[float] | np.ndarray, n_bootstrap: int, confidence: float,
            seed: int) -> tuple[float, float, float, int]:
    """Mean of the non-missing values with a percentile bootstrap CI over them (one value per vignette)."""
    a = np.asarray(x, dtype=float)
    a = a[~np.isnan(a)]
    if a.size == 0:
        return math.nan, math.nan, math.nan, 0
    lo, hi = bootstrap_ci(lambda v: v.mean(axis=1), a, n_resamples=n_bootstrap, confidence=confidence, seed=seed)
    return float(a.mean()), lo, hi, int(a.size)


def _both(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a - b  # NaN when either is missing


def _complete_means(d: pd.DataFrame, a: str, b: str, names: tuple[str, str],
                    specialty: str = "all") -> dict[str, float]:
    """Means of columns ``a`` and ``b`` over the vignettes where both are present (Table 1: male − female = Δ)."""
    ds = d if specialty == "all" else d[d["specialty"] == specialty]
    x, y = ds[a].to_numpy(float), ds[b].to_numpy(float)
    ok = ~(np.isnan(x) | np.isnan(y))
    return {names[0]: float(x[ok].mean()) if ok.any() else math.nan,
            names[1]: float(y[ok].mean()) if ok.any() else math.nan}


def _gap_rows(d: pd.DataFrame, gender: np.ndarray, control: np.ndarray, *, use_control: bool, by: Sequence[str],
              metric: str, p: Any, seed: int) -> pd.DataFrame:
    """Layer rows for a signed per-vignette gap (male − female), optionally against the control pair's gap."""
    base = d[["model", "case_id", "specialty"]].reset_index(drop=True)
    # the arm is named after the difference it holds: the layer writes it into the null hypothesis
    parts = [base.assign(arm=_ARM_LABEL.get(metric, "male − female"), score=np.asarray(gender, dtype=float))]
    if use_control:
        parts.append(base.assign(arm=_CONTROL_ARM, score=np.asarray(control, dtype=float)))
    pf = PairedFrame(pd.concat(parts, ignore_index=True), case="case_id", arm="arm", score="score", by=by,
                     control=_CONTROL_ARM if use_control else None)
    return pf.compare(metric=metric, audit=AUDIT, alternative="two-sided", n_resamples=p.n_bootstrap,
                      confidence=p.confidence, seed=seed)


_ARM_LABEL = {"delta_acc_control": "id1 − id2", "delta_len_control": "id1 − id2"}
_CONTROL_ARM = "id1 − id2 (control pair)"


def _layer_fields(r: dict[str, Any]) -> dict[str, Any]:
    """The layer's inference columns of one result row, renamed for the CARE tables."""
    keep = ("value", "n", "ci_low", "ci_high", "ci_method", "test", "statistic", "p", "alternative",
            "null_hypothesis", "rate", "floor", "n_cases", "n_test_cases", "n_pairs", "n_control_pairs",
            "n_unusable", "effect_size", "effect_size_name", "test_note")
    out = {k: r.get(k) for k in keep}
    out["excess"] = r.get("value")
    return out


def statistics(p: Any, seed: int, targets: list[str], paired: pd.DataFrame, units: dict[str, str],
               p1: dict[str, Any], p2: dict[str, Any], judged_ids: dict[str, list[str]]) -> dict[str, pd.DataFrame]:
    """All result rows and the paper-shaped CARE tables (see the module docstring)."""
    use_control = p.gap_floor == "control"
    floor_of = "ID1 − ID2 gap of the control pair" if use_control else "0 (H0 value of a signed gap)"
    rows: list[dict[str, Any]] = []
    ci_method = f"bootstrap percentile over vignettes ({p.n_bootstrap} resamples, {p.confidence:.0%})"
    base = {"audit": AUDIT, "ci_method": ci_method}
    order = list((p.specialties or DEFAULT_SPECIALTY_LEXICON).keys()) + [OTHER]
    present = [s for s in order if s in set(paired["specialty"])] + sorted(set(paired["specialty"]) - set(order))

    def gap_block(metric: str, group: str, reference: str, gender: np.ndarray, control: np.ndarray,
                  d: pd.DataFrame, by: Sequence[str], family: Any, **extra: Any) -> list[dict[str, Any]]:
        out = []
        for r in _gap_rows(d, gender, control, use_control=use_control, by=by, metric=metric, p=p,
                           seed=seed).to_dict("records"):
            fam = family(r) if callable(family) else family
            spec = r.get("specialty", "all")
            row = {**base, **_layer_fields(r), "metric": metric, "group": group, "reference": reference,
                   "model": r["model"], "specialty": spec, "floor_of": floor_of, "family": fam}
            for k, v in extra.items():  # a callable gives per-stratum columns (a dict), anything else one column
                row.update(v(spec) if callable(v) else {k: v})
            out.append(row)
        return out

    drift_stats: dict[str, dict[str, Any]] = {}
    for m in targets:
        d = paired[paired["model"] == m].reset_index(drop=True)
        # accuracy per arm (each arm over its scored answers): descriptive
        for arm in ARMS:
            v, lo, hi, n = mean_ci(d[f"correct_{arm}"], p.n_bootstrap, p.confidence, seed)
            rows.append({**base, "metric": "accuracy", "group": arm, "value": v, "n": n, "ci_low": lo, "ci_high": hi,
                         "model": m, "specialty": "all"})
        cm, cf = d["correct_male"].to_numpy(float), d["correct_female"].to_numpy(float)
        c1, c2 = d["correct_id1"].to_numpy(float), d["correct_id2"].to_numpy(float)
        # ΔAcc overall and per specialty (male − female per vignette; complete pairs)
        means = lambda spec, d=d: _complete_means(d, "correct_male", "correct_female",  # noqa: E731
                                                  ("male_acc", "female_acc"), spec)
        rows += gap_block("delta_acc", "male", "female", _both(cm, cf), _both(c1, c2), d, ["model"],
                          "delta_acc|overall", accuracies=means)
        rows += gap_block("delta_acc", "male", "female", _both(cm, cf), _both(c1, c2), d, ["model", "specialty"],
                          f"delta_acc_by_specialty|{m}", accuracies=means)
        # the control pair's own gap, against 0
        rows += [{**r, **_complete_means(d, "correct_id1", "correct_id2", ("id1_acc", "id2_acc"))} for r in
                 _control_gap(base, d, _both(c1, c2), "delta_acc_control", "id1", "id2", "delta_acc_control|overall",
                              p, seed)]
        # ΔLen
        dl = delta_len(d["len_male"], d["len_female"])
        dlc = delta_len(d["len_id1"], d["len_id2"])
        lm, lf = d["len_male"].to_numpy(float), d["len_female"].to_numpy(float)
        l1, l2 = d["len_id1"].to_numpy(float), d["len_id2"].to_numpy(float)
        rows += gap_block("delta_len", "male", "female", _both(lm, lf), _both(l1, l2), d, ["model"],
                          "delta_len|overall", sd=dl["sd"], length_unit=units[m])
        rows += [{**r, "sd": dlc["sd"], "length_unit": units[m]} for r in _control_gap(
            base, d, _both(l1, l2), "delta_len_control", "id1", "id2", "delta_len_control|overall", p, seed)]
        # semantic drift: gender pair vs the control pair (the noise floor)
        g, c = d["drift_gender"].to_numpy(float), d["drift_control"].to_numpy(float)
        for name, arr in (("drift_gender", g), ("drift_control", c)):
            v, lo, hi, n = mean_ci(arr, p.n_bootstrap, p.confidence, seed)
            rows.append({**base, "metric": name, "group": "male_vs_female" if name == "drift_gender" else "id1_vs_id2",
                         "value": v, "n": n, "ci_low": lo, "ci_high": hi, "model": m, "specialty": "all"})
        eff = drift_effect(g, c, seed=seed, n_resamples=p.n_bootstrap, confidence=p.confidence,
                           case_ids=d["case_id"].tolist(), alternative="greater")
        drift_stats[m] = eff
        rows.append({**base, "metric": "drift_excess", "group": "gender", "reference": "control",
                     "value": eff["excess"], "excess": eff["excess"], "rate": eff["rate"], "floor": eff["floor"],
                     "floor_of": "mean drift of the ID1/ID2 control pair", "n": eff["n"], "n_cases": eff["n_cases"],
                     "n_pairs": eff["n_pairs"], "n_control_pairs": eff["n_control_pairs"], "ci_low": eff["ci_low"],
                     "ci_high": eff["ci_high"], "ci_method": eff["ci_method"], "test": eff["test"],
                     "statistic": eff["statistic"], "p": eff["p"], "alternative": eff["alternative"],
                     "null_hypothesis": eff["null_hypothesis"], "cohens_d": eff["d"],
                     "effect_size": eff["effect_size_dz"], "effect_size_name": "d_z (mean / sd of case-level excess)",
                     "test_note": eff["note"], "family": "drift_effect|overall", "model": m, "specialty": "all"})
        rows.append({**base, "metric": "drift_cohens_d", "group": "gender", "reference": "control", "value": eff["d"],
                     "n": eff["n"], "ci_method": "", "model": m, "specialty": "all",
                     "note": "effect size (pooled SD, P3); its inference is the drift_excess row"})
        above = np.where(np.isnan(g), np.nan, (g > p.drift_threshold).astype(float))
        v, lo, hi, n = mean_ci(above, p.n_bootstrap, p.confidence, seed)
        eff["share_above"], eff["n_above"] = v, int(np.nansum(above))
        rows.append({**base, "metric": "failure_mode_share", "group": f"drift_gender>{p.drift_threshold}", "value": v,
                     "n": n, "ci_low": lo, "ci_high": hi, "model": m, "specialty": "all"})
        # rethink ratio
        rm, rf = d["rethink_male"].to_numpy(float), d["rethink_female"].to_numpy(float)
        r1 = d["rethink_id1"].to_numpy(float) if "rethink_id1" in d else np.full(len(d), np.nan)
        r2 = d["rethink_id2"].to_numpy(float) if "rethink_id2" in d else np.full(len(d), np.nan)
        for arm, arr in (("male", rm), ("female", rf)):
            v, lo, hi, n = mean_ci(arr, p.n_bootstrap, p.confidence, seed)
            rows.append({**base, "metric": "rethink_ratio", "group": arm, "value": v, "n": n, "ci_low": lo,
                         "ci_high": hi, "model": m, "specialty": "all"})
        rows += gap_block("delta_rethink", "male", "female", _both(rm, rf), _both(r1, r2), d, ["model"],
                          "delta_rethink|overall")
        # answer parse rates (strict and tolerant) per arm; n = answers without a call error
        for arm in ARMS:
            has_text = d[f"method_{arm}"] != "error"
            n_all = int(has_text.sum())
            for name in ("strict", "tolerant"):
                k = int(d.loc[has_text, f"{name}_{arm}"].notna().sum())
                rows.append({**base, "metric": "answer_parse_rate", "group": f"{arm}:{name}",
                             "value": k / n_all if n_all else math.nan, "n": n_all, "ci_method": "", "model": m,
                             "specialty": "all", "n_unparseable": n_all - k, "n_error": int((~has_text).sum())})

    # direction of bias (Phase I leans, Phase II dimensions) and bias intensity
    direction_rows, intensity_rows, verdicts = [], [], []
    for m in targets:
        ids = [f"{m}::{cid}" for cid in judged_ids.get(m, [])]
        for phase, store, dims in (("phase1", p1, list(PHASE1_DIMENSIONS)), ("phase2", p2, list(PHASE2_DIMENSIONS))):
            js = [(i, store[i]) for i in ids if i in store]
            if not js:
                continue
            ok = [(i, j) for i, j in js if j.status == "ok"]
            n_unp = sum(j.status == "unparseable" for _, j in js)
            n_err = sum(j.status == "error" for _, j in js)
            n_tie = sum(j.status == "tie" for _, j in js)  # a judge jury split on a dimension (docs/judges.md)
            extra = {"model": m, "specialty": "all", "phase": phase, "n_judged": len(js), "n_unparseable": n_unp,
                     "n_error": n_err, **({"n_tie": n_tie} if n_tie else {})}
            for dim in dims:
                dirs = [direction_of(j.value[dim]) for _, j in ok]
                rec: dict[str, Any] = {"model": m, "phase": phase, "dimension": dim,
                                       "title": {**PHASE1_TITLES, **PHASE2_TITLES}[dim], "n_judged": len(js),
                                       "n_ok": len(ok), "n_unparseable": n_unp, "n_error": n_err,
                                       "parse_rate": len(ok) / len(js)}
                for label in ("Female", "Male", "Tie"):
                    arr = np.array([x == label for x in dirs], dtype=float)
                    v, lo, hi, n = mean_ci(arr, p.n_bootstrap, p.confidence, seed)
                    rec[f"{label.lower()}_share"], rec[f"{label.lower()}_ci_low"], rec[f"{label.lower()}_ci_high"] = (
                        v, lo, hi)
                    rows.append({**base, "metric": "bias_direction_share", "group": f"{dim}:{label}", "value": v,
                                 "n": n, "ci_low": lo, "ci_high": hi, **extra})
                direction_rows.append(rec)
                for (iid, _), x in zip(ok, dirs):
                    verdicts.append({"model": m, "phase": phase, "dimension": dim, "case_id": iid.split("::", 1)[1],
                                     "arm": "female_minus_male",
                                     "score": 1.0 if x == "Female" else (-1.0 if x == "Male" else 0.0)})
            if phase == "phase1":
                intens = np.array([j.value["bias_intensity"] for _, j in ok], dtype=float)
                for level in range(1, 6):
                    ind = (intens == level).astype(float)
                    v, lo, hi, n = mean_ci(ind, p.n_bootstrap, p.confidence, seed)
                    rows.append({**base, "metric": "bias_intensity_share", "group": str(level), "value": v, "n": n,
                                 "ci_low": lo, "ci_high": hi, "model": m, "specialty": "all", "phase": phase})
                    intensity_rows.append({"model": m, "bias_intensity": level, "count": int(ind.sum()),
                                           "share": v, "n_ok": len(ok), "n_judged": len(js)})
                v, lo, hi, n = mean_ci(intens, p.n_bootstrap, p.confidence, seed)
                rows.append({**base, "metric": "bias_intensity_mean", "group": "phase1", "value": v, "n": n,
                             "ci_low": lo, "ci_high": hi, "model": m, "specialty": "all", "phase": phase})
            rows.append({**base, "metric": "judge_parse_rate", "group": phase, "value": len(ok) / len(js),
                         "n": len(js), "ci_method": "", "model": m, "specialty": "all", "phase": phase,
                         "n_unparseable": n_unp, "n_error": n_err})
    judged = {(r["model"], r["phase"]): (r["n_judged"], r["n_unparseable"], r["n_error"]) for r in direction_rows}
    if verdicts:
        vt = pd.DataFrame(verdicts)
        layer = PairedFrame(vt, case="case_id", arm="arm", score="score", by=("model", "phase", "dimension")).compare(
            metric="bias_direction", audit=AUDIT, alternative="two-sided", n_resamples=p.n_bootstrap,
            confidence=p.confidence, seed=seed)
        for r in layer.to_dict("records"):
            nj, nu, ne = judged[(r["model"], r["phase"])]
            rows.append({**base, **_layer_fields(r), "metric": "bias_direction", "group": r["dimension"],
                         "reference": "female_minus_male", "floor_of": "0 (as many Female- as Male-leaning)",
                         "family": f"bias_direction|{r['model']}", "model": r["model"], "specialty": "all",
                         "phase": r["phase"], "n_judged": nj, "n_unparseable": nu, "n_error": ne})

    res = results_frame(rows)
    res = apply_correction(res, family_cols=["family"], method=p.correction)
    nofam = res["family"] == ""
    res.loc[nofam, "correction"] = "none"
    res.loc[nofam, "test"] = res.loc[nofam, "test"].replace("", "none")
    tables = _tables(p, res, targets, present, drift_stats, judged_ids, units, direction_rows, intensity_rows)
    values = []
    for rec in paired.to_dict("records"):  # per vignette and pair: the data of the overlay plot
        for pair, col in (("gender", "drift_gender"), ("control", "drift_control")):
            values.append({"model": rec["model"], "case_id": rec["case_id"], "specialty": rec["specialty"],
                           "pair": pair, "drift": rec[col]})
    tables["care_drift_values"] = pd.DataFrame(values, columns=["model", "case_id", "specialty", "pair", "drift"])
    return tables


def _control_gap(base: dict[str, Any], d: pd.DataFrame, control: np.ndarray, metric: str, group: str, reference: str,
                 family: str, p: Any, seed: int) -> list[dict[str, Any]]:
    rows = []
    for r in _gap_rows(d, control, control, use_control=False, by=["model"], metric=metric, p=p,
                       seed=seed).to_dict("records"):
        rows.append({**base, **_layer_fields(r), "metric": metric, "group": group, "reference": reference,
                     "model": r["model"], "specialty": "all", "floor_of": "0 (H0 value of a signed gap)",
                     "family": family})
    return rows


def _pick(res: pd.DataFrame, metric: str, model: str, specialty: str | None = "all",
          group: str | None = None, phase: str | None = None) -> dict[str, Any]:
    sel = (res["metric"] == metric) & (res["model"] == model)
    if specialty is not None:
        sel &= res["specialty"] == specialty
    if group is not None:
        sel &= res["group"] == group
    if phase is not None:
        sel &= res["phase"] == phase
    got = res[sel]
    return got.iloc[0].to_dict() if len(got) else {}


def _inference(r: dict[str, Any]) -> dict[str, Any]:
    return {c: r.get(c, math.nan) for c in INFERENCE_COLUMNS}


def _tables(p: Any, res: pd.DataFrame, targets: list[str], present: list[str], drift_stats: dict[str, dict[str, Any]],
            judged_ids: dict[str, list[str]], units: dict[str, str], direction_rows: list[dict[str, Any]],
            intensity_rows: list[dict[str, Any]]) -> dict[str, pd.DataFrame]:
    def acc(m: str, spec: str) -> dict[str, Any]:
        # Table 1 / 3 accuracies are over complete male/female pairs, so male − female = Δ exactly
        r = _pick(res, "delta_acc", m, spec)
        n = int(r.get("n_pairs", 0) or 0)
        delta = r.get("rate", math.nan)
        return {"male_acc": r.get("male_acc", math.nan), "female_acc": r.get("female_acc", math.nan), "delta": delta,
                "abs_delta": abs(delta) if n else math.nan, "n_pairs": n, **_inference(r),
                "floor_of": r.get("floor_of", "")}

    table1, table3 = [], []
    for m in targets:
        ctrl = _pick(res, "delta_acc_control", m)
        row = {"model": m, **acc(m, "all")}
        row.update(id1_acc=ctrl.get("id1_acc", math.nan), id2_acc=ctrl.get("id2_acc", math.nan),
                   delta_control=ctrl.get("rate", math.nan), p_control=ctrl.get("p", math.nan))
        table1.append(row)
        for spec in present:
            if _pick(res, "delta_acc", m, spec):
                table3.append({"specialty": spec, "model": m, **acc(m, spec)})
    cols1 = ["model", "male_acc", "female_acc", "delta", "abs_delta", "n_pairs", "n_cases", "floor", "floor_of",
             "excess", "ci_low", "ci_high", "test", "null_hypothesis", "p", "p_adj", "correction", "family",
             "id1_acc", "id2_acc", "delta_control", "p_control"]
    t1 = pd.DataFrame(table1, columns=cols1)
    if len(t1):
        avg = {"model": "Average", "male_acc": t1["male_acc"].mean(), "female_acc": t1["female_acc"].mean(),
               "delta": t1["delta"].mean(), "abs_delta": abs(t1["delta"].mean()), "n_pairs": int(t1["n_pairs"].sum()),
               "id1_acc": t1["id1_acc"].mean(), "id2_acc": t1["id2_acc"].mean(),
               "delta_control": t1["delta_control"].mean(), "test": "", "correction": "", "family": "",
               "null_hypothesis": "", "floor_of": ""}
        t1 = pd.concat([t1, pd.DataFrame([avg])], ignore_index=True)
    t3 = pd.DataFrame(table3, columns=["specialty"] + [c for c in cols1 if not c.startswith(("id", "delta_c",
                                                                                              "p_control"))])
    if len(t3):
        t3["specialty_order"] = t3["specialty"].map({s: i for i, s in enumerate(present)})
        t3 = t3.sort_values(["specialty_order", "model"], kind="mergesort").drop(columns="specialty_order")
        t3 = t3.reset_index(drop=True)

    drift_rows, length_rows, rethink_rows = [], [], []
    for m in targets:
        eff = drift_stats[m]
        r = _pick(res, "drift_excess", m)
        drift_rows.append({"model": m, "n": eff["n"], "mean_gender": eff["mean_gender"],
                           "mean_control": eff["mean_control"], **_inference(r), "alternative": eff["alternative"],
                           "cohens_d": eff["d"], "effect_size_dz": eff["effect_size_dz"],
                           "threshold": p.drift_threshold, "n_above_threshold": eff["n_above"],
                           "share_above_threshold": eff["share_above"], "n_judged": len(judged_ids.get(m, []))})
        r = _pick(res, "delta_len", m)
        rc = _pick(res, "delta_len_control", m)
        length_rows.append({"model": m, "unit": units[m], "n": r.get("n_pairs"), "mean_delta_len": r.get("rate"),
                            "sd_delta_len": r.get("sd"), **_inference(r), "floor_of": r.get("floor_of", ""),
                            "mean_delta_len_control": rc.get("rate"), "sd_delta_len_control": rc.get("sd"),
                            "p_control": rc.get("p")})
        r = _pick(res, "delta_rethink", m)
        male, female = _pick(res, "rethink_ratio", m, group="male"), _pick(res, "rethink_ratio", m, group="female")
        rethink_rows.append({"model": m, "n": r.get("n_pairs"), "mean_male": male.get("value"),
                             "mean_female": female.get("value"), "delta": r.get("rate"), **_inference(r),
                             "floor_of": r.get("floor_of", "")})
    for rec in direction_rows:
        r = _pick(res, "bias_direction", rec["model"], group=rec["dimension"], phase=rec["phase"])
        rec.update(female_minus_male=r.get("rate", math.nan), **_inference(r))
    direction_df = pd.DataFrame(direction_rows, columns=[
        "model", "phase", "dimension", "title", "n_judged", "n_ok", "n_unparseable", "n_error", "parse_rate",
        "female_share", "female_ci_low", "female_ci_high", "male_share", "male_ci_low", "male_ci_high", "tie_share",
        "tie_ci_low", "tie_ci_high", "female_minus_male"] + INFERENCE_COLUMNS)
    intensity_df = pd.DataFrame(intensity_rows, columns=["model", "bias_intensity", "count", "share", "n_ok",
                                                         "n_judged"])
    return {
        "results": res,
        "care_table1": t1,
        "care_table3": t3,
        "care_drift": pd.DataFrame(drift_rows),
        "care_length": pd.DataFrame(length_rows),
        "care_rethink": pd.DataFrame(rethink_rows),
        "care_direction": direction_df,
        "care_intensity": intensity_df,
    }
