"""Judge juries (issue 19 item 1): Krippendorff's α, the majority decision with ties, κ against human
labels, and the mock-backend example ``examples/jury-mock.yaml`` end to end. Expected values are
computed by hand (comments) or taken from Krippendorff's published example."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clinaudit.judges.jury import JURY, Jury, decide, jury_tables
from clinaudit.records import Judgment
from clinaudit.stats.agreement import krippendorff_alpha

REPO = Path(__file__).resolve().parents[1]

# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", the 4 observers x 12 units
# example with missing values; published nominal alpha = 0.743.
KRIPP = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
         [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]


def test_alpha_matches_krippendorffs_published_example():
    r = krippendorff_alpha(KRIPP, n_resamples=200, seed=1)
    assert round(r.alpha, 3) == 0.743
    import krippendorff

    ref = krippendorff.alpha(reliability_data=np.array(KRIPP, dtype=float), level_of_measurement="nominal")
    assert r.alpha == pytest.approx(ref, abs=1e-12)
    assert r.n_units == 11  # the 12th unit has one rating only: not pairable
    assert r.ci_low <= r.alpha <= r.ci_high
    # text labels are nominal too: the same table spelled as words gives the same alpha
    words = [[None if x is None else f"v{x}" for x in row] for row in KRIPP]
    assert krippendorff_alpha(words, n_resamples=0).alpha == pytest.approx(ref, abs=1e-12)


def test_alpha_small_table_by_hand_and_case_bootstrap():
    # A = 1 1 0 0, B = 1 0 0 0: coincidences o11 = 2, o00 = 4, o01 = o10 = 1; n1 = 3, n0 = 5, n = 8
    # alpha = 1 - (n - 1) (o01 + o10) / (2 n1 n0) = 1 - 7 * 2 / 30 = 8/15
    r = krippendorff_alpha([[1, 1, 0, 0], [1, 0, 0, 0]], cases=["a", "a", "b", "b"], n_resamples=300, seed=0)
    assert r.alpha == pytest.approx(8 / 15)
    assert r.n_cases == 2
    # two cases: a resample is {a,a}, {b,b} (alpha undefined or 1/0 data) or {a,b} (the table itself)
    assert r.ci_low <= 8 / 15 + 1e-9
    one_value = krippendorff_alpha([[1, 1], [1, 1]], n_resamples=10)
    assert math.isnan(one_value.alpha) and "undefined" in one_value.note


def _j(status: str, value: dict | None = None, item: str = "i1") -> Judgment:
    return Judgment(item_id=item, judge="treatment_annotator", status=status, value=value or {}, raw="x")


class _Judge:
    name = "treatment_annotator"
    verdict_fields = ("MANAGE", "VISIT")


def test_majority_tie_and_unparseable_are_never_no():
    models = ["a", "b", "c"]
    # c unparseable: a and b disagree on VISIT -> tie on VISIT, MANAGE decided (both 0)
    d = decide(_Judge(), [_j("ok", {"MANAGE": 0, "VISIT": 1}), _j("ok", {"MANAGE": 0, "VISIT": 0}),
                          _j("unparseable")], models)
    assert d.status == "tie" and d.meta["ties"] == ["VISIT"]
    assert d.value == {"MANAGE": 0}  # the tied field is absent, never a NO
    # 2 of 3 parsed verdicts agree: a majority
    d = decide(_Judge(), [_j("ok", {"MANAGE": 1, "VISIT": 1}), _j("ok", {"MANAGE": 0, "VISIT": 1}),
                          _j("ok", {"MANAGE": 1, "VISIT": 0})], models)
    assert d.status == "ok" and d.value == {"MANAGE": 1, "VISIT": 1}
    assert decide(_Judge(), [_j("unparseable"), _j("error"), _j("unparseable")], models).status == "unparseable"
    assert decide(_Judge(), [_j("error"), _j("error"), _j("error")], models).status == "error"


def _jury_with(votes: dict[str, list[tuple[str, dict]]]) -> Jury:
    from clinaudit.families.treatment_shift.judges import TreatmentAnnotator

    jury = Jury(TreatmentAnnotator(questions=("MANAGE",)), list(votes))
    n = len(next(iter(votes.values())))
    for i in range(n):
        vs = [_j(votes[m][i][0], votes[m][i][1], item=f"i{i}") for m in votes]
        jury.members += list(zip(votes, vs))
        jury.decisions.append(decide(jury.judge, vs, list(votes)))
    return jury


def test_kappa_against_human_labels_by_hand():
    human = pd.DataFrame({"judge": "treatment_annotator", "item_id": ["i0", "i1", "i2", "i3"], "field": "MANAGE",
                          "label": [1, 1, 0, 0]})
    ok = lambda v: ("ok", {"MANAGE": v})  # noqa: E731
    jury = _jury_with({"a": [ok(1), ok(1), ok(0), ok(0)], "b": [ok(1), ok(0), ok(0), ok(0)],
                       "c": [ok(1), ("unparseable", {}), ok(0), ok(1)]})
    t = jury_tables([jury], human=human, n_resamples=50)
    k = t["jury_kappa"].set_index("rater")
    assert k.loc["a", "kappa"] == pytest.approx(1.0)
    # b: po = 3/4; pe = 1/2 * 1/4 + 1/2 * 3/4 = 1/2; kappa = (3/4 - 1/2) / (1 - 1/2) = 1/2
    assert k.loc["b", "kappa"] == pytest.approx(0.5)
    # c: item i1 unparseable -> left out (n 3); labels h = 1,0,0 vs c = 1,0,1: po = 2/3,
    # pe = 1/3 * 2/3 + 2/3 * 1/3 = 4/9; kappa = (2/3 - 4/9) / (5/9) = 2/5
    assert k.loc["c", "n"] == 3 and k.loc["c", "n_without_verdict"] == 1
    assert k.loc["c", "kappa"] == pytest.approx(0.4)
    # jury: i0 1 (3 votes), i1 tie (a 1, b 0), i2 0, i3 0 (a, b) -> vs human on 3 items: all agree
    assert k.loc[JURY, "n"] == 3 and k.loc[JURY, "kappa"] == pytest.approx(1.0)
    pr = t["jury_parse_rates"].set_index("judge_model")
    assert pr.loc["c", "unparseable"] == 1 and pr.loc[JURY, "tie"] == 1
    dec = t["jury_decisions"].iloc[0]
    assert (dec["n_items"], dec["decided"], dec["ties"]) == (4, 3, 1)


def test_rule_based_judges_never_form_a_jury():
    from clinaudit.judges.jury import is_model_judge
    from clinaudit.families.treatment_shift.judges import TreatmentAnnotator
    from clinaudit.registry import registry

    assert is_model_judge(TreatmentAnnotator())
    assert not is_model_judge(registry("judge").get("mcq_answer")(choices=["a", "b"]))


@pytest.fixture(scope="module")
def jury_run(tmp_path_factory):
    """One run of examples/jury-mock.yaml (also read by tests/test_relevance.py's example test)."""
    from clinaudit.cli.main import main

    out = tmp_path_factory.mktemp("jury") / "run"
    assert main(["run", str(REPO / "examples" / "jury-mock.yaml"), "--out", str(out), "--no-progress"]) == 0
    return out


def test_jury_mock_example_runs_and_reports(jury_run):
    out = jury_run
    tables = out / "tables"
    j = pd.read_csv(tables / "judgments.csv")
    ann = j[j["judge"] == "treatment_annotator"]
    # 5 cases x 3 arms (baseline, gender_swap, uppercase) x 2 seeds = 30 target calls; j5's gender swap gives
    # the baseline's text back (the same request, one answer), so 28 answers: 3 jurors + the decision each
    assert (ann["jury"] == "member").sum() == 84 and (ann["jury"] == "decision").sum() == 28
    assert set(ann.loc[ann["jury"] == "decision", "judge_model"]) == {JURY}
    dec = ann[ann["jury"] == "decision"]
    assert (dec["status"] == "tie").sum() == 6  # the ECG answers: j1 RESOURCE YES, j2 NO, j3 unparseable
    k = pd.read_csv(tables / "jury_kappa.csv")
    k = k[k["field"] == "RESOURCE"].set_index("rater")
    # human V_RESOURCE: j1 (cough) 0 on its 6 answers, the other 22 answers 1
    # judge j2 says NO everywhere: 6/28 agree, kappa 0
    assert k.loc["mock:j2", "kappa"] == pytest.approx(0.0)
    assert k.loc["mock:j2", "percent_agreement"] == pytest.approx(100 * 6 / 28)
    # judge j1 says NO for the 6 answers of the pregnant patient (human 1): po = 22/28, j1 has 16 YES / 12 NO,
    # pe = (22*16 + 6*12) / 28^2 = 424/784, kappa = (616 - 424) / (784 - 424) = 8/15
    assert k.loc["mock:j1", "kappa"] == pytest.approx(8 / 15)
    # the jury: the 6 ties left out (22 items); it says NO for the pregnant patient's 6 answers, YES for j4, j5:
    # po = 16/22, jury 10 YES / 12 NO, pe = (6*12 + 16*10) / 22^2 = 232/484, kappa = (352 - 232)/(484 - 232) = 10/21
    assert k.loc[JURY, "n"] == 22 and k.loc[JURY, "n_without_verdict"] == 6
    assert k.loc[JURY, "kappa"] == pytest.approx(10 / 21)
    pr = pd.read_csv(tables / "jury_parse_rates.csv").set_index("judge_model")
    assert pr.loc["mock:j3", "unparseable"] == 6 and pr.loc["mock:j3", "parse_rate"] == pytest.approx(22 / 28)
    ag = pd.read_csv(tables / "jury_agreement.csv").set_index("field")
    assert set(ag.index) == {"MANAGE", "VISIT", "RESOURCE"} and (ag["n_cases"] == 5).all()
    # labels: a tied RESOURCE is NaN (not decided), never 0
    labels = pd.read_csv(tables / "labels.csv")
    tied = labels[(labels["judge_status"] == "tie") & (labels["question"] == "RESOURCE")]
    assert len(tied) == 6 and tied["label"].isna().all()
    # the report blocks every audit's section gets (the full page is rendered by tests/test_report_browser.py,
    # which runs every examples/*-mock.yaml)
    from clinaudit.report.jury import extra_blocks
    from clinaudit.rundir import RunDir

    rd = RunDir(out)
    try:
        titles = [getattr(b, "title", "") for b in extra_blocks(rd)]
    finally:
        rd.close()
    assert "Jury: inter-judge agreement (Krippendorff's α)" in titles and "Jury: Cohen's κ against human labels" in titles
    assert "Shifts by clinical relevance" in titles


def test_example_reports_clinically_relevant_pairs_apart(jury_run):
    """Issue 19 item 2 on examples/jury-mock.yaml: the target sends the gender-swapped pregnant patient (j2)
    home; the shift is reported apart (relevance_shifts) and the verdict counts only irrelevant pairs."""
    t = jury_run / "tables"
    rel = pd.read_csv(t / "relevance.csv").set_index("case_id")
    assert rel.loc["j2", "relevance"] == "relevant" and "pregnant" in rel.loc["j2", "evidence"]
    assert rel.loc["j5", "relevance_source"] == "column gender_relevant"
    sh = pd.read_csv(t / "relevance_shifts.csv").set_index(["relevance", "question"])
    # relevant: j2's MANAGE and VISIT flip on both cross-seed pairs (2 pairs), the floor is 0
    assert sh.loc[("relevant", "MANAGE"), "value"] == pytest.approx(1.0)
    assert sh.loc[("relevant", "MANAGE"), "n_pairs"] == 2
    # irrelevant: j1, j3, j4, j5 keep their answers: TSR 0 over 4 cases x 2 pairs
    assert sh.loc[("irrelevant", "MANAGE"), "value"] == pytest.approx(0.0)
    assert sh.loc[("irrelevant", "MANAGE"), "n_pairs"] == 8
    assert not sh.loc[("relevant", "MANAGE"), "counts_toward_verdict"]
    # the verdict (metrics, results) counts only the irrelevant pairs: gender_swap TSR 0 on 8 pairs
    m = pd.read_csv(t / "metrics.csv")
    g = m[(m["perturbation"] == "gender_swap") & (m["metric"] == "TSR") & (m["question"] == "MANAGE")].iloc[0]
    assert g["value"] == pytest.approx(0.0) and g["n_pairs"] == 8
    ex = pd.read_csv(t / "exclusions.csv")
    assert ((ex["case_id"] == "j2") & (ex["perturbation"] == "gender_swap")).sum() == 1
    assert np.isclose(pd.read_csv(t / "results.csv").query("group == 'gender_swap'")["n_pairs"].max(), 8)


def test_note_generation_jury_decides_and_each_juror_is_measured(tmp_path):
    """note_generation handles its judge models itself: with a list they form a jury. Judge j2 says NO and j3
    YES to everything, so the scripted mock:notes judge breaks every tie: the decisions equal its verdicts."""
    import yaml

    from clinaudit.cli.main import main

    spec = yaml.safe_load((REPO / "examples" / "note_generation-mock.yaml").read_text(encoding="utf-8"))
    spec["data"] = [{"format": "demo:dialogs", "limit": 3}]
    spec["models"]["judge"] = ["mock:notes", "mock:j2", "mock:j3"]
    spec["backends"]["mock:j2"] = {"rules": [{"match": "SET OF CLINICAL NOTES", "response": "DECISION: NO"},
                                             {"match": ".", "response": "NO"}]}
    spec["backends"]["mock:j3"] = {"rules": [{"match": "SET OF CLINICAL NOTES",
                                              "response": "DECISION: YES\nDEMOGRAPHIC MOST IMPACTED: Black"},
                                             {"match": ".", "response": "YES"}]}
    spec["params"].update(contexts=["Poverty"], sources=["doctor"], n_bootstrap=50)
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    out = tmp_path / "run"
    assert main(["run", str(path), "--out", str(out), "--no-progress"]) == 0
    j = pd.read_csv(out / "tables" / "judgments.csv")
    inc = j[j["judge"] == "incidence"]
    dec = inc[inc["jury"] == "decision"].set_index("item_id")["incidence"]
    notes = inc[(inc["jury"] == "member") & (inc["judge_model"] == "mock:notes")].set_index("item_id")["incidence"]
    assert len(dec) > 0 and (dec.sort_index() == notes.sort_index()).all()
    assert set(inc.loc[inc["jury"] == "member", "judge_model"]) == {"mock:notes", "mock:j2", "mock:j3"}
    # the metrics come from the jury's decisions
    assert set(pd.read_csv(out / "tables" / "incidence.csv")["judge_model"]) == {JURY}
    ag = pd.read_csv(out / "tables" / "judge_agreement.csv")
    ag = ag[ag["judge"] == "incidence"].set_index("judge_model")
    assert ag.loc[JURY, "kappa"] == pytest.approx(ag.loc["mock:notes", "kappa"])
    assert ag.loc["mock:j2", "kappa"] == pytest.approx(0.0)  # one label for every item: chance agreement only
    pr = pd.read_csv(out / "tables" / "jury_parse_rates.csv")
    assert set(pr["judge"]) == {"incidence", "language_disparity"}
