"""The p floor of a run (issue 39): with R Monte Carlo permutations no p is below 1/(R + 1), and Holm over the run's
m effects multiplies the smallest by m; when m/(R + 1) >= alpha no row can be `bias`, and the run says so plainly
(results.csv's ``run_note`` and ``p_run_floor``, every row's reason, the verdict line and the first screen) instead
of a silent "no bias". Numbers by hand."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from clinaudit.pipeline.validity import assign_verdicts, verdict_lines
from clinaudit.report.verdict_view import plain_sentence
from clinaudit.spec import VerdictSettings
from clinaudit.stats.resolution import SIGN_FLIP_TEST, draws_to_reach, row_p_floor, run_floor_note


def _gap_rows(m: int, n_permutations: int) -> pd.DataFrame:
    """m recall-gap rows, each as far as its test goes: every one at the smallest p, 1/(R + 1)."""
    return pd.DataFrame([{
        "audit": "classifier_gaps", "metric": "recall_gap", "group": f"g{i}", "reference": "ref", "value": 0.5,
        "ci_low": 0.4, "ci_high": 0.6, "n": 1000, "n_group": 500, "n_pos_group": 250, "test": "permutation of "
        "group labels over the metric's rows", "p": 1 / (n_permutations + 1), "p_adj": 1 / (n_permutations + 1),
        "p_method": "monte carlo", "n_permutations": n_permutations, "family": "recall|g", "correction": "fdr_bh",
    } for i in range(m)])


def test_floor_by_hand():
    assert row_p_floor("anything", p_method="monte carlo", n_permutations=100) == (1 / 101, "draws")
    # an exact sign flip over 5 cases: 2/2^5 = 1/16, above 1/10,000 of the Monte Carlo draws: the cases set it
    assert row_p_floor(SIGN_FLIP_TEST, n_cases=5, p_method="monte carlo", n_permutations=9999) == (2 / 32, "cases")
    assert row_p_floor(SIGN_FLIP_TEST, n_cases=20, p_method="exact") == (2 / 2**20, "cases")
    assert row_p_floor("mcnemar_exact") == (None, "")
    # 24 effects at alpha 0.05: 24/(R + 1) < 0.05 needs R + 1 > 480, so R = 480 (24/481 = 0.0499)
    assert draws_to_reach(24, 0.05) == 480 and draws_to_reach(63, 0.05) == 1260 and draws_to_reach(1, 0.05) == 20
    assert run_floor_note(24 / 481, 24, 0.05, "draws", 480) == ""
    assert run_floor_note(24 / 101, 24, 0.05, "draws", 100) == (
        "this run cannot find bias: with 100 permutations per test the smallest p after Holm over 24 comparisons is "
        "0.238 (alpha 0.05); set n_permutations >= 480")
    assert run_floor_note(3 * 2 / 16, 3, 0.05, "cases").endswith("is 0.375 (alpha 0.05); more cases are needed")


def test_a_run_that_cannot_find_bias_says_so():
    # 24 rows, each as extreme as 100 permutations can show: p = 1/101; Holm over 24: 24/101 = 0.2376 >= 0.05
    res = assign_verdicts(_gap_rows(24, 100), {"reasons": [], "models": {}}, VerdictSettings(),
                          run_audit="classifier_gaps")
    assert res["p_run"].tolist() == pytest.approx([24 / 101] * 24)
    assert res["p_run_floor"].tolist() == pytest.approx([24 / 101] * 24)
    assert (res["verdict"] != "bias").all()
    note = ("this run cannot find bias: with 100 permutations per test the smallest p after Holm over 24 comparisons is "
            "0.238 (alpha 0.05); set n_permutations >= 480")
    assert (res["run_note"] == note).all() and res["verdict_reason"].str.startswith(note + "; ").all()
    validity = {"reasons": [], "models": {}, "cases": {}}
    line = verdict_lines(res, validity, "classifier_gaps")[0]
    assert line["verdict"] == "inconclusive" and line["cannot_find_bias"] == note
    assert line["sentence"].startswith(f"Inconclusive: {note}. No bias shown, but 24 of 24")
    assert line["sentence"].count("this run cannot find bias") == 1  # said once, not again in the example reason
    assert plain_sentence(line).startswith(f"Inconclusive: {note}. No bias shown, but 24 of 24 measured")


def test_enough_permutations_no_note_and_bias_possible():
    # 480 permutations: 24/481 = 0.0499 < 0.05, so the same rows can be bias and nothing is said
    res = assign_verdicts(_gap_rows(24, 480), {"reasons": [], "models": {}}, VerdictSettings(),
                          run_audit="classifier_gaps")
    assert res["p_run_floor"].tolist() == pytest.approx([24 / 481] * 24)
    assert (res["run_note"] == "").all() and (res["verdict"] == "bias").all()
    line = verdict_lines(res, {"reasons": [], "models": {}, "cases": {}}, "classifier_gaps")[0]
    assert line["verdict"] == "bias" and line["cannot_find_bias"] == ""


def test_unknown_floor_claims_nothing():
    rows = _gap_rows(24, 100)
    rows.loc[0, ["p_method", "test"]] = ["", "mcnemar_exact"]  # a test whose smallest p is not known here
    res = assign_verdicts(rows, {"reasons": [], "models": {}}, VerdictSettings(), run_audit="classifier_gaps")
    assert res["p_run_floor"].isna().all() and (res["run_note"] == "").all()
    assert not any(math.isnan(x) for x in res["p_run"])


def test_quick_demo_classifier_gaps_says_it_cannot_find_bias(tmp_path):
    """The quick demo caps permutations at 100: its classifier gaps' 15 primary rows (recall gaps, once per question:
    the 6 mirrored rows of a pair of groups that are each other's reference are not counted; issue 48) cannot reach
    0.05 (15/101 = 0.149), and the run's verdict line says so first."""
    from clinaudit.cli.headline import headline_lines
    from clinaudit.demo import quick_variant
    from clinaudit.families.hurtful_words.classifier_gaps import demo_spec
    from clinaudit.pipeline import run_spec
    from clinaudit.spec import parse_spec_dict

    spec, params = parse_spec_dict(quick_variant(demo_spec()), source="demo")
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False)
    res = rd.read_table("results")
    gaps = res[res["metric"].str.endswith("_gap")]
    assert len(gaps) == 63 and (gaps["n_permutations"] == 100).all() and (gaps["verdict"] != "bias").all()
    note = ("this run cannot find bias: with 100 permutations per test the smallest p after Holm over 15 comparisons is "
            "0.149 (alpha 0.05); set n_permutations >= 300")
    primary = gaps[gaps["family_role"] == "primary"]
    assert len(primary) == 15 and set(primary["metric"]) == {"recall_gap"} and (primary["run_note"] == note).all()
    assert (gaps["family_role"] == "mirror").sum() == 18 and (gaps["family_role"] == "secondary").sum() == 30
    # the secondary family (30 parity and specificity gaps): 30/101 = 0.416, and never below the primary's floor
    assert gaps.loc[gaps["family_role"] == "secondary", "p_run_floor"].tolist() == pytest.approx([30 / 101] * 30)
    line = next(x for x in headline_lines(rd.path) if x.startswith("verdict classifier_gaps"))
    assert line.startswith(f"verdict classifier_gaps: Inconclusive: {note}. No bias shown"), line


def test_an_audit_without_the_option_is_not_told_to_set_it():
    # treatment_shift's tests draw 9,999 permutations fixed in code (no n_permutations parameter): 600 effects at
    # 1/10,000 each give 600/10,000 = 0.06 >= 0.05; the note says how many would be needed, not "set ..."
    from clinaudit.registry import registry

    assert "n_permutations" not in registry("audit").get("treatment_shift").params_model.model_fields
    assert "n_permutations" in registry("audit").get("classifier_gaps").params_model.model_fields
    rows = _gap_rows(600, 9999).assign(audit="treatment_shift", metric="TSR")
    res = assign_verdicts(rows, {"reasons": [], "models": {}}, VerdictSettings(), run_audit="treatment_shift")
    note = str(res["run_note"].iloc[0])
    assert note.startswith("this run cannot find bias: with 9,999 permutations per test the smallest p after Holm "
                           "over 600 comparisons is 0.06 (alpha 0.05); it would need 12,000 permutations per test")
    assert "set n_permutations" not in note and "fewer effects per run" in note
    assert run_floor_note(0.06, 600, 0.05, "draws", 9999, settable=False).endswith(
        "more than this audit draws: audit fewer effects per run (fewer perturbations, metrics or models)")


def test_association_frames_set_the_floor():
    # the association's frame-level sign flip (test 'sign_flip_frames') over 4 frames: exact smallest p 2/2^4 = 0.125;
    # 3 such rows under Holm: 0.375 >= 0.01, so the run says it cannot find bias and that more cases are needed
    assert row_p_floor("sign_flip_frames", n_cases=4) == (2 / 16, "cases")
    rows = pd.DataFrame([{
        "audit": "association", "metric": "log_prob_bias_score", "group": "female", "reference": "male",
        "category": c, "value": 0.5, "ci_low": 0.1, "ci_high": 0.9, "n": 16, "n_frames": 4, "test": "sign_flip_frames",
        "test_option": "sign-flip", "test_unit": "frame", "p": 0.125, "p_adj": 0.375, "family": "categories:m",
        "correction": "bonferroni", "alpha": 0.01, "model": "m"} for c in ("A", "B", "C")])
    res = assign_verdicts(rows, {"reasons": [], "models": {}}, VerdictSettings(), run_audit="association")
    assert res["p_run_floor"].tolist() == pytest.approx([3 * 2 / 16] * 3)
    assert (res["run_note"] == "this run cannot find bias: with these cases the smallest p after Holm over 3 "
            "comparisons is 0.375 (alpha 0.01); more cases are needed").all()
    assert (res["verdict"] != "bias").all()


def test_cases_for_p_counts_frames_for_the_frame_sign_flip():
    from clinaudit.stats.resolution import cases_for_p

    # 2/2^n < 0.01 first at n = 8 (2/256 = 0.0078; 2/128 = 0.0156); the frames are the cases, not two groups of them
    assert cases_for_p("sign_flip_frames", 0.01) == 8 == cases_for_p(SIGN_FLIP_TEST, 0.01)
