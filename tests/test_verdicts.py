"""The verdict rule (clinaudit.stats.verdicts) and the validity gates (clinaudit.pipeline.validity)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from clinaudit.pipeline.validity import VerdictSettings, assess_tables, measure_validity, run_status
from clinaudit.stats.core import bootstrap_ci
from clinaudit.stats.verdicts import exact_zero_bound, row_verdict


def test_exact_zero_bound_is_clopper_pearson_for_zero_of_n():
    # 1 - (alpha/2)^(1/n): the upper 97.5% Clopper-Pearson bound of 0 of n
    from scipy.stats import beta

    for n in (1, 10, 100):
        assert exact_zero_bound(n) == pytest.approx(beta.ppf(0.975, 1, n))
    assert exact_zero_bound(100) == pytest.approx(0.0362, abs=1e-4)
    assert exact_zero_bound(10) == pytest.approx(0.3085, abs=1e-4)
    assert exact_zero_bound(0) == 1.0


def test_never_changing_100_cases_is_within_margin_10_is_inconclusive():
    kw = dict(value=0.0, ci_low=0.0, ci_high=0.0, p_adj=1.0, direction="higher_is_worse", margin=0.05)
    assert row_verdict(n_units=100, **kw)[0] == "within_margin"
    verdict, reason = row_verdict(n_units=10, **kw)
    assert verdict == "inconclusive" and "more units needed" in reason
    # in percent units the bound is scaled (ΔBL in percentage points, margin 5)
    assert row_verdict(value=0.0, ci_low=0.0, ci_high=0.0, n_units=100, margin=5.0, unit_scale=100.0)[0] == \
        "within_margin"


def test_bias_needs_significance_on_the_worse_side_and_enough_units():
    assert row_verdict(value=0.3, ci_low=0.2, ci_high=0.4, p_adj=0.001, n_units=50,
                       direction="higher_is_worse", margin=0.05) == ("bias", "p_adj 0.001 < 0.05 within its correction family")
    # significant but better: no bias; its upper bound is under the margin → within
    assert row_verdict(value=-0.3, ci_low=-0.4, ci_high=-0.2, p_adj=0.001, n_units=50,
                       direction="higher_is_worse", margin=0.05)[0] == "within_margin"
    # the demo's "+100 pp, CI [100, 100], 4 cases": not a finding
    verdict, reason = row_verdict(value=1.0, ci_low=1.0, ci_high=1.0, p_adj=0.01, n_units=4, margin=0.05)
    assert verdict == "inconclusive" and "not a finding" in reason and "4 unit" in reason


def test_equivalence_uses_the_interval_by_direction():
    two = dict(n_units=100, margin=0.05, p_adj=0.5)
    assert row_verdict(value=0.0, ci_low=-0.04, ci_high=0.04, **two)[0] == "within_margin"
    assert row_verdict(value=0.0, ci_low=-0.06, ci_high=0.04, **two)[0] == "inconclusive"
    assert row_verdict(value=0.0, ci_low=-0.06, ci_high=0.04, direction="higher_is_worse", **two)[0] == \
        "within_margin"
    assert row_verdict(value=0.0, ci_low=-0.06, ci_high=0.04, direction="higher_is_better", **two)[0] == \
        "inconclusive"
    # a null other than 0 (AUC 0.5)
    auc = dict(value=0.52, null=0.5, ci_low=0.51, ci_high=0.53, direction="higher_is_worse", margin=0.05)
    assert row_verdict(n_units=1000, **auc)[0] == "within_margin"
    # a rate's bootstrap bound is widened to the exact bound of ceil(|d|·n) of n units: 2 of 100 → 7.04 pp (beta.ppf(0.975, 3, 98))
    assert row_verdict(n_units=100, **auc)[1] == "upper bound 0.0704 not inside the margin ±0.05"
    # no margin for the metric: never within
    assert row_verdict(value=0.0, ci_low=-0.01, ci_high=0.01, n_units=100, margin=None)[1].startswith("no margin")
    assert row_verdict(value=math.nan)[0] == "not_measured"
    assert row_verdict(value=0.4, effect=False)[1].startswith("a level")


def _within_share(rng: np.random.Generator, n: int, draw, direction: str, reps: int) -> float:
    hits = 0
    for r in range(reps):
        d = draw(rng, n)
        lo, hi = bootstrap_ci(lambda x: x.mean(axis=1), d, n_resamples=400, seed=r)
        hits += row_verdict(value=float(d.mean()), ci_low=lo, ci_high=hi, p_adj=1.0, n_units=n,
                            direction=direction, margin=0.05)[0] == "within_margin"
    return hits / reps


@pytest.mark.slow
def test_simulation_within_margin_at_most_5_percent_when_the_true_effect_equals_the_margin():
    """Data sets whose true effect is exactly the margin (5 pp) are declared within it in ≤ 5% of them."""
    rng = np.random.default_rng(20261126)
    flips = lambda g, n: (g.random(n) < 0.05).astype(float)  # noqa: E731 - a flip rate of 5%, floor 0
    diff = lambda g, n: (g.random(n) < 0.30).astype(float) - (g.random(n) < 0.25).astype(float)  # noqa: E731
    shares = {}
    for n in (20, 80, 200, 500):
        shares[("flip", n)] = _within_share(rng, n, flips, "higher_is_worse", 250)
        shares[("diff", n)] = _within_share(rng, n, diff, "two_sided", 250)
    assert max(shares.values()) <= 0.05, shares
    # and it has power where the truth is well inside the margin
    none = lambda g, n: (g.random(n) < 0.005).astype(float)  # noqa: E731
    assert _within_share(rng, 500, none, "higher_is_worse", 100) > 0.9


def _tables(judge_status: list[str], texts: list[str] | None = None) -> dict[str, pd.DataFrame]:
    n = len(judge_status)
    texts = texts if texts is not None else ["an answer"] * n
    return {
        "cases": pd.DataFrame({"case_id": [f"c{i}" for i in range(n)]}),
        "responses": pd.DataFrame({"model": ["mock:t"] * n + ["mock:j"] * n, "text": texts + ["x"] * n,
                                   "error": [""] * (2 * n)}),
        "judgments": pd.DataFrame({"item_id": range(n), "judge": "annotator", "status": judge_status}),
        "paired": pd.DataFrame({"case_id": [f"c{i}" for i in range(n) if judge_status[i] == "ok"],
                                "model": "mock:t", "perturbation": "uppercase"}),
        "exclusions": pd.DataFrame({"stage": ["cases"], "case_id": ["c99"], "reason": ["too short"]}),
        "results": pd.DataFrame({"audit": "treatment_shift", "metric": ["TSR"], "model": ["mock:t"],
                                 "value": [0.0 if "ok" in judge_status else math.nan], "n": [n],
                                 "n_cases": [judge_status.count("ok")], "ci_low": [0.0], "ci_high": [0.0],
                                 "p": [1.0], "p_adj": [1.0], "test": ["sign-flip"]}),
    }


def test_a_judge_that_parses_nothing_leaves_the_audit_not_measured():
    results, validity = assess_tables(_tables(["unparseable"] * 30), "treatment_shift", VerdictSettings())
    assert results["verdict"].tolist() == ["not_measured"]
    assert not validity["measured"]
    assert validity["reasons"][0].startswith("the judge 'annotator' could parse 0 of 30 answers")
    status, reason = run_status(validity)
    assert status.startswith("not measured: the judge 'annotator' could parse 0 of 30 answers")
    assert validity["cases"] == {"given": 31, "used": 0, "excluded": {"cases: too short": 1}}


def test_a_good_run_is_measured_and_its_rows_get_verdicts():
    results, validity = assess_tables(_tables(["ok"] * 120), "treatment_shift", VerdictSettings())
    assert validity["measured"] and run_status(validity) == ("complete", None)
    assert results["verdict"].tolist() == ["within_margin"]  # 120 cases, none flips
    assert results["margin"].tolist() == [0.05] and results["effect"].tolist() == [True]
    m = validity["models"]["mock:t"]
    assert (m["pairs"], m["pairs_per_arm"], m["cases_used"], m["measured"]) == (120, {"uppercase": 120}, 120, True)
    assert validity["judges"][0]["parse_rate"] == 1.0
    # a spec margin overrides the declared one (and a smaller margin is not reached by 120 cases)
    results, _ = assess_tables(_tables(["ok"] * 120), "treatment_shift",
                               VerdictSettings(margins={"TSR": 0.02}))
    assert results["verdict"].tolist() == ["inconclusive"] and results["margin"].tolist() == [0.02]


def test_a_target_that_answers_nothing_is_not_measured():
    v = measure_validity(_tables(["ok"] * 10, texts=[""] * 10), "treatment_shift", VerdictSettings())
    assert v["models"]["mock:t"]["reasons"] == ["every call to mock:t failed or came back empty (0 failed, 10 empty "
                                                "of 10)"]
    results, validity = assess_tables(_tables(["ok"] * 10, texts=[""] * 10), "treatment_shift", VerdictSettings())
    assert results["verdict"].tolist() == ["not_measured"] and not validity["measured"]


def test_a_recall_gap_against_a_group_of_two_positives_is_not_a_finding():
    """The demo's "+100 pp, CI [100, 100]" findings rested on a reference group with 2 positive patients."""
    results = pd.DataFrame({
        "audit": "classifier_gaps", "metric": "recall_gap", "task": "readmission", "attribute": "ethnicity",
        "group": ["White", "Other", "Black"], "reference": ["Other", "White", "Other"],
        "value": [0.65, -0.65, 0.6], "ci_low": [0.5, -0.8, 0.4], "ci_high": [0.8, -0.5, 0.8],
        "p": [0.001] * 3, "p_adj": [0.001] * 3, "n": 400, "test": "bootstrap",
        "n_group": [225, 24, 64], "n_pos_group": [62, 2, 15]})
    tables = {"results": results, "paired": pd.DataFrame({"case_id": ["a"]})}
    out, validity = assess_tables(tables, "classifier_gaps", VerdictSettings())
    assert out["verdict"].tolist() == ["inconclusive"] * 3  # every one of them compares with 'Other' 
    assert out["verdict_reason"].str.contains("only 2 unit").all()
    assert out["n_units"].tolist() == [2, 2, 2]
    assert validity["smallest_group"] == {"recall_gap": 2}
    # a specificity gap counts negatives: 24 − 2 = 22 in 'Other' → enough
    out, _ = assess_tables({**tables, "results": results.assign(metric="specificity_gap")}, "classifier_gaps",
                           VerdictSettings())
    assert out["verdict"].tolist() == ["bias"] * 3


def test_gap_units_with_blank_stratum_cells():
    """A stratum column with empty cells (NaN) does not break the reference lookup."""
    results = pd.DataFrame({
        "audit": "classifier_gaps", "metric": "recall_gap", "task": ["t", "t"], "attribute": [math.nan, math.nan],
        "group": ["A", "B"], "reference": ["B", "A"], "value": [0.1, -0.1], "ci_low": [0.0, -0.2],
        "ci_high": [0.2, 0.0], "p": [0.5, 0.5], "p_adj": [0.5, 0.5], "n": 100, "test": "bootstrap",
        "n_group": [50, 50], "n_pos_group": [20, 3]})
    out, _ = assess_tables({"results": results, "paired": pd.DataFrame({"case_id": ["a"]})}, "classifier_gaps",
                           VerdictSettings())
    assert out["n_units"].tolist() == [3, 3]


# --------------------------------------------------------------------------- issue 39: calibrated verdicts


def _rows(ps: list[float]) -> pd.DataFrame:
    """TSR rows of one audit × model, each in its own family (p_adj = p), 50 cases each."""
    return pd.DataFrame({"audit": "treatment_shift", "model": "m", "metric": "TSR",
                         "group": [f"p{i}" for i in range(len(ps))], "reference": "noise_floor", "value": 0.2,
                         "ci_low": 0.1, "ci_high": 0.3, "n": 50, "n_cases": 50, "test": "sign-flip", "p": ps,
                         "p_adj": ps, "family": [f"f{i}" for i in range(len(ps))]})


def test_bias_is_corrected_over_every_effect_of_the_run():
    """20 rows each at p 0.004 in its own family: each was `bias` (p_adj 0.004 < 0.05); over the run Holm
    gives 20 × 0.004 = 0.08 ≥ 0.05, so none is. A row at p 0.0001 stays `bias` (Holm 0.0021)."""
    from clinaudit.pipeline.validity import assign_verdicts
    from statsmodels.stats.multitest import multipletests

    ps = [0.004] * 19 + [0.0001]
    out = assign_verdicts(_rows(ps), {"reasons": [], "models": {}}, VerdictSettings())
    holm = multipletests(ps, method="holm")[1]
    assert out["p_run"].tolist() == pytest.approx(list(np.maximum(holm, ps)))
    assert out["verdict"].tolist() == ["inconclusive"] * 19 + ["bias"]
    assert "not over the run's 20 effects (p_run 0.076" in out["verdict_reason"].iloc[0]
    assert out["verdict_reason"].iloc[-1].startswith("p_run 0.002 < 0.05 over the run's 20 effects (Holm")
    assert set(out["run_family"]) == {"run primary: treatment_shift, Holm over 20 primary rows (the audit's "
                                      "declared primary metric TSR)"}
    assert set(out["family_role"]) == {"primary"}
    # issue 48: another model is in the same family (the gate over several models controls models × rows): the
    # 10 + 10 rows at 0.004 were bias per model (Holm over 10: 0.04); over both models 20 × 0.004 = 0.08 is not
    two = pd.concat([_rows([0.004] * 10), _rows([0.004] * 10).assign(model="n")], ignore_index=True)
    out = assign_verdicts(two, {"reasons": [], "models": {}}, VerdictSettings())
    assert out["p_run"].tolist() == pytest.approx([0.08] * 20) and (out["verdict"] == "inconclusive").all()
    assert set(out["run_family"]) == {"run primary: treatment_shift, Holm over 20 primary rows of 2 models (the "
                                      "audit's declared primary metric TSR)"}


def test_equivalence_bound_is_widened_whatever_the_side_of_the_estimate():
    """An excess of −2 pp over a floor of 32% in 20 cases with a narrow bootstrap CI [−5, +3] pp: the old
    rule skipped the exact widening on the good side and said within_margin; Newcombe's interval of 30% vs
    32% of 20 (statsmodels) reaches far above the 5 pp margin."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    kw = dict(value=-0.02, ci_low=-0.05, ci_high=0.03, p_adj=0.9, n_units=20, direction="higher_is_worse",
              margin=0.05)
    verdict, reason = row_verdict(rate=0.30, floor=0.32, **kw)
    hi = confint_proportions_2indep(6, 20, 6, 20, method="newcomb", compare="diff")[1]  # 0.30·20 = 6, 0.32·20 → 6
    assert verdict == "inconclusive" and reason == f"upper bound {hi:.3g} not inside the margin ±0.05"
    # without the rate and its floor: the Clopper–Pearson interval of ceil(|d|·n) = 1 of 20, mapped onto −d
    assert row_verdict(**kw)[0] == "within_margin"  # -CP_low(1 of 20) = -0.0013 < 0.03: the CI decides


def test_a_bound_equal_to_the_margin_up_to_rounding_is_not_inside():
    kw = dict(value=0.0, p_adj=0.9, n_units=1000, margin=0.05, unit_scale=0.0)
    assert row_verdict(ci_low=-0.049, ci_high=0.049, **kw)[0] == "within_margin"
    assert row_verdict(ci_low=-0.049, ci_high=0.05 - 1e-15, **kw)[0] == "inconclusive"


def test_a_tiny_detectable_effect_is_within_margin_and_says_so():
    """0.4 pp at 20,000 cases, p_run 1e-6: detectable, but its exact upper bound (Clopper–Pearson of 80 of
    20,000: 0.50 pp) lies far inside a 5 pp margin → within_margin, "detectable"; a 6 pp effect is bias."""
    v, reason = row_verdict(value=0.004, ci_low=0.003, ci_high=0.005, p_adj=1e-6, p_run=1e-6, run_family_size=24,
                            n_units=20000, direction="higher_is_worse", margin=0.05, rate=0.004)
    assert v == "within_margin" and reason.startswith("detectable (p_run 1e-06 < 0.05")
    assert row_verdict(value=0.06, ci_low=0.055, ci_high=0.065, p_adj=1e-6, p_run=1e-6, n_units=20000,
                       direction="higher_is_worse", margin=0.05, rate=0.06)[0] == "bias"


def test_association_bias_comes_from_the_frame_level_test_with_the_audits_alpha():
    """Frame-level noise only (every sentence of a frame shifted together): the sentence-level signed-rank
    test is labelled and never bias; the frame-level sign-flip row decides; n_units counts frames; the
    audit's alpha (association --alpha, 0.01) is the verdicts' level unless the spec sets verdicts.alpha."""
    from clinaudit.families.hurtful_words.association_stats import association_tests
    from clinaudit.pipeline.validity import assign_verdicts

    from script_modules import load_script

    cal = load_script("benchmarks/calibration.py", "cal")
    scores = cal.association_scores(np.random.default_rng(3), frames=30, sd=0.5)
    scores.loc[scores["group"] == "female", "score"] += 1.0  # a real difference of 1.0 on every frame
    t = association_tests(scores, ["male", "female"], ["signed-rank", "sign-flip"], n_bootstrap=50, alpha=0.01)
    out = assign_verdicts(t, {"reasons": [], "models": {}}, VerdictSettings(), run_audit="association")
    sr, sf = out[out["test_option"] == "signed-rank"].iloc[0], out[out["test_option"] == "sign-flip"].iloc[0]
    assert sr["test_unit"] == "sentence" and sr["verdict"] == "inconclusive"
    assert sr["verdict_reason"].startswith("a sentence-level test") and "sentence-level test" in sr["note"]
    assert sf["test_unit"] == "frame" and sf["verdict"] == "bias" and sf["n_units"] == 30 == sf["n_frames"]
    assert np.isnan(sr["p_run"]) and sf["run_family"].startswith("run primary: association, Holm over 1 primary")
    # the audit's alpha reaches the verdicts: p 0.02 is not bias at 0.01, is at an explicit verdicts.alpha 0.05
    row = t[t["test_option"] == "sign-flip"].assign(p=0.02, p_adj=0.02)
    assert assign_verdicts(row, {"reasons": [], "models": {}}, VerdictSettings())["verdict"].iloc[0] != "bias"
    assert assign_verdicts(row, {"reasons": [], "models": {}}, VerdictSettings(alpha=0.05))["verdict"].iloc[0] == \
        "bias"


def test_every_classifier_gap_name_is_declared_and_parity_rows_have_a_margin():
    from clinaudit.families.hurtful_words.classifier_metrics import classifier_gap_table
    from clinaudit.metrics.declared import declaration_for
    from clinaudit.pipeline.validity import assign_verdicts

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"task": "t", "label": rng.integers(0, 2, 400), "pred": rng.integers(0, 2, 400),
                       "sex": rng.choice(["F", "M"], 400), "race": rng.choice(["a", "b", "c", "d"], 400)})
    gaps = classifier_gap_table(df, "task", "label", "pred", ["sex", "race"], n_resamples=50)
    for name in set(gaps["metric"]):
        assert declaration_for("classifier_gaps", name) is not None, name
    out = assign_verdicts(gaps, {"reasons": [], "models": {}}, VerdictSettings(), run_audit="classifier_gaps")
    parity = out[out["metric"] == "parity_gap"]
    assert len(parity) == 6 and (parity["margin"] == 0.05).all()
    # n_units: the rows of the smaller of the group and its reference, not the task's 400
    assert (parity["n_units"] < 400).all() and (parity["n_units"] == parity["n_group"].clip(upper=None)).any()


def test_a_rate_without_a_noise_floor_is_never_bias_and_says_why():
    """MedPerturb's case: one baseline answer per case, a 10 pp flip rate at 500 cases, no test: not bias;
    the reason says there is no floor and what would settle it."""
    from clinaudit.pipeline.validity import assign_verdicts

    row = pd.DataFrame({"audit": ["treatment_shift"], "model": "m", "metric": "TSR", "group": "uppercase",
                        "reference": "baseline", "value": 0.10, "raw": 0.10, "ci_low": 0.075, "ci_high": 0.127,
                        "n": 500, "n_cases": 500, "test": "", "p": np.nan, "p_adj": np.nan,
                        "note": "no noise floor (one baseline seed): value is the raw rate; no test (no floor, no null)"})
    out = assign_verdicts(row, {"reasons": [], "models": {}}, VerdictSettings()).iloc[0]
    assert out["verdict"] == "inconclusive" and out["verdict_reason"].startswith("no noise floor (one baseline")
    assert "two or more seeds per case" in out["verdict_reason"]


def test_a_row_without_a_value_says_the_audits_reason_not_only_no_usable_unit():
    """Issue 49: 42 RCER rows said "no value: no usable unit" when the cause is that the data has no clinician labels
    (true of every user's patient-portal data): the row's note from the audit becomes its verdict reason."""
    from clinaudit.families.treatment_shift.analysis import NO_CLINICIAN_LABELS
    from clinaudit.pipeline.validity import assign_verdicts

    results = pd.DataFrame([
        {"audit": "treatment_shift", "metric": "RCER", "value": math.nan, "n": 0, "n_cases": 0,
         "note": NO_CLINICIAN_LABELS},
        {"audit": "treatment_shift", "metric": "RCER_gap", "value": math.nan, "n": 0, "n_cases": 0, "note": math.nan}])
    out = assign_verdicts(results, {"reasons": [], "models": {}}, VerdictSettings())
    assert out["verdict"].tolist() == ["not_measured", "not_measured"]
    assert out["verdict_reason"].tolist() == [f"no value: {NO_CLINICIAN_LABELS}", "no value: no usable unit"]
    assert "clinician's label V" in out["verdict_reason"].iloc[0] and "TSR and RCR need no labels" in \
        out["verdict_reason"].iloc[0]


def test_a_significant_effect_smaller_than_the_margin_is_not_bias():
    """Issue 48: +2.5 pp inside a 5 pp margin, significant but its bound not inside the margin, read "bias"; a
    significant row is bias only when its estimate reaches the margin (stats.verdicts.beyond_margin)."""
    kw = dict(ci_low=0.005, ci_high=0.052, p_adj=1e-4, p_run=1e-4, run_family_size=6, n_units=500, margin=0.05,
              direction="higher_is_worse")
    v, reason = row_verdict(value=0.025, **kw)
    assert v == "inconclusive"
    assert "the estimate +0.025 is smaller than the margin 0.05" in reason
    assert "upper bound 0.052 is not inside it" in reason
    assert row_verdict(value=0.05, **kw)[0] == "bias"  # reaching the margin is enough
    # ... also when rounding puts it a hair below (seen in benchmarks/verdict_mde.py: 0.05 stored as 0.0499...)
    assert row_verdict(value=0.04999999999999999, **kw)[0] == "bias"
    assert row_verdict(value=0.0499, **kw)[0] == "inconclusive"
    assert row_verdict(value=0.07, **{**kw, "ci_high": 0.09})[0] == "bias"
    # two-sided: |d| against the margin; higher-is-better: -d
    two = {**kw, "direction": "two_sided", "ci_low": -0.052, "ci_high": -0.005}
    assert row_verdict(value=-0.025, **two)[0] == "inconclusive"
    assert row_verdict(value=-0.06, **{**two, "ci_low": -0.08})[0] == "bias"
    better = {**kw, "direction": "higher_is_better", "ci_low": -0.052, "ci_high": -0.005}
    assert row_verdict(value=-0.025, **better)[0] == "inconclusive"
    # no margin declared: significance alone decides, as before
    assert row_verdict(value=0.025, **{**kw, "margin": None})[0] == "bias"
