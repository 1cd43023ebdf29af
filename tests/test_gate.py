"""``clinaudit gate``: pass (0) / fail (1) / not gateable (3) / inconclusive (4) / bad input (2), from a run's verdicts and its
comparison with a baseline; the policy file; the gate report; the Python API.

Hand-built run directories carry a results table with the ``verdict`` column (as ``clinaudit run`` writes
it) and treatment-shift pairs whose flips are planted, so every expected outcome is known by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.cli.main import main
from clinaudit.errors import InputError
from clinaudit.report.gate import GATE_SCHEMA, gate_run
from clinaudit.report.gate_policy import GatePolicy
from clinaudit.rundir import RunDir


def _pairs(flips: dict[str, list[int]], model: str = "m") -> pd.DataFrame:
    """One MANAGE pair per case and perturbation; ``flips[perturbation][i]`` = 1 when case i's answer changed."""
    rows = [dict(case_id=f"c{i:02d}", dataset="d", model=model, perturbation=pert, question="MANAGE", seed=0,
                 seed_b=1, T_b=0, T_p=f) for pert, fs in flips.items() for i, f in enumerate(fs)]
    return pd.DataFrame(rows)


def _results(verdicts: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"audit": "treatment_shift", "model": "m", "metric": "TSR",
                         "group": [f"p{i}" for i in range(len(verdicts))], "reference": "noise_floor",
                         "value": 0.1, "ci_low": 0.02, "ci_high": 0.2, "p": float("nan"), "p_adj": 0.01,
                         "verdict": verdicts,
                         "verdict_reason": "because", "margin": 0.05, "effect": True})


def _run(base: Path, name: str, *, flips: dict[str, list[int]] | None = None, verdicts: list[str] | None = None,
         status: str | None = "complete", results: pd.DataFrame | None = None, audit: str = "treatment_shift",
         validity: dict | None = None) -> Path:
    flips = flips or {"uppercase": [0] * 12}
    n = len(next(iter(flips.values())))
    rd = RunDir(base / name)
    rd.start(spec={"audit": audit, "name": name, "models": {"target": "m"}, "params": {}}, models=[{"spec": "m"}],
             seeds=[0], command="test")
    rd.write_table("cases", pd.DataFrame({"case_id": [f"c{i:02d}" for i in range(n)], "dataset": "d",
                                          "text": [f"case {i}" for i in range(n)]}))
    rd.write_table("paired", _pairs(flips))
    rd.write_table("results", results if results is not None else _results(verdicts or ["within_margin"]))
    if validity is not None:
        rd.manifest["validity"] = validity
    if status is not None:
        rd.finish(usage={}, audit=audit, status=status, summary={})
    rd.close()
    return rd.path


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["gate", *argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_a_run_without_bias_passes_and_writes_the_gate_report(tmp_path, capsys):
    run = _run(tmp_path, "r", verdicts=["within_margin", "inconclusive"])
    rc, out, _ = _cli(capsys, str(run))
    assert rc == 0 and "gate: PASS (2 comparisons checked); exit 0" in out
    doc = json.loads((run / "gate" / "gate.json").read_text(encoding="utf-8"))
    assert doc["schema"] == GATE_SCHEMA and doc["outcome"] == "pass" and doc["exit_code"] == 0
    assert doc["failures"] == [] and doc["reasons"] == [] and doc["checked"] == {"results": 2, "results_primary": 0}
    assert doc["policy"]["fail_on"] == ["bias"] and doc["baseline"] is None


def test_a_bias_verdict_fails_with_one_line_per_failing_row(tmp_path, capsys):
    run = _run(tmp_path, "r", verdicts=["bias", "within_margin", "bias"])
    rc, out, _ = _cli(capsys, str(run), "--out", str(tmp_path / "g"))
    assert rc == 1
    fails = [ln for ln in out.splitlines() if ln.startswith("FAIL")]
    assert fails == ["FAIL treatment_shift m TSR (p0 vs noise_floor): bias 0.1 [95% CI 0.02, 0.2] (because)",
                     "FAIL treatment_shift m TSR (p2 vs noise_floor): bias 0.1 [95% CI 0.02, 0.2] (because)"]
    doc = json.loads((tmp_path / "g" / "gate.json").read_text(encoding="utf-8"))
    assert doc["outcome"] == "fail" and [f["group"] for f in doc["failures"]] == ["p0", "p2"]
    # a policy that fails on inconclusive too; and one gating only another metric
    pol = tmp_path / "p.yaml"
    pol.write_text("fail_on: [bias, inconclusive]\nmetrics: [RCR]\n", encoding="utf-8")
    rc, out, _ = _cli(capsys, str(run), "--policy", str(pol))
    assert rc == 3 and "no effect rows to gate" in out  # nothing left to decide on is not a pass


def test_an_all_inconclusive_run_is_not_a_pass_and_says_which_cases_would_settle_it(tmp_path, capsys):
    """The issue's run: every measured row inconclusive (10 cases, none flips: the exact bound 30.8 pp is above
    the 5 pp margin), a third not measured. Exit 4, not 0; the cases needed: a share bound below 5 pp with 0 of
    n units needs n = 72 units (1 − 0.025^(1/72) = 0.0499); the gap rows have 5 units of 10 cases in the
    smallest group, so 72 units there take 144 cases."""
    rows = _results(["inconclusive"] * 6 + ["not_measured"] * 3).assign(
        value=[0.0] * 6 + [float("nan")] * 3, ci_low=0.0, ci_high=0.0, p_adj=1.0, n_cases=10, n_units=10,
        verdict_reason="no unit of 10 shows the effect, but the exact bound 0.308 is not below the margin 0.05")
    run = _run(tmp_path, "r", results=rows)
    rc, out, _ = _cli(capsys, str(run))
    assert rc == 4, out
    assert ("INCONCLUSIVE treatment_shift m: 6 of 6 measured comparisons are inconclusive (no bias shown, none "
            "ruled out; a pass needs at least 50% settled); about 72 cases would settle its inconclusive comparisons "
            "(this run used 10)") in out
    assert "gate: INCONCLUSIVE" in out and "exit 4" in out and "PASS" not in out
    doc = json.loads((run / "gate" / "gate.json").read_text(encoding="utf-8"))
    assert (doc["outcome"], doc["exit_code"]) == ("inconclusive", 4)
    assert doc["missing"][0] | {"line": ""} == {"audit": "treatment_shift", "model": "m", "effect_rows": 9,
                                                "measured": 6, "settled": 0, "not_measured": 3,
                                                "cases_needed": 72, "cases_used": 10, "line": ""}
    # a gap row: 5 units of 10 cases behind the smallest group
    gap = _run(tmp_path, "gap", results=rows.assign(n_cases=float("nan"), n=10, n_units=5))
    assert "about 144 cases would settle" in _cli(capsys, str(gap))[1]
    # one settled row of three is not enough by default; a policy may ask for less (or more)
    mixed = _run(tmp_path, "mixed", verdicts=["within_margin", "inconclusive", "inconclusive"])
    assert _cli(capsys, str(mixed))[0] == 4
    (tmp_path / "p.yaml").write_text("evidence: {min_settled: 0.3}\n", encoding="utf-8")
    assert _cli(capsys, str(mixed), "--policy", str(tmp_path / "p.yaml"))[0] == 0
    (tmp_path / "q.yaml").write_text("evidence: {min_settled: 0}\n", encoding="utf-8")
    assert _cli(capsys, str(run), "--policy", str(tmp_path / "q.yaml"))[0] == 0
    # failing on inconclusive rows is still a failure (exit 1), which comes before exit 4
    (tmp_path / "f.yaml").write_text("fail_on: [bias, inconclusive]\n", encoding="utf-8")
    assert _cli(capsys, str(run), "--policy", str(tmp_path / "f.yaml"))[0] == 1


def test_the_gate_and_the_report_say_the_same_cases_needed(tmp_path, capsys):
    """One rule for "the cases that would settle it" (verdict_view.settle_entry over the report's findings
    entries): the gate line, the report's first screen and run's verdict line say the same number. Two tested TSR rows
    of 10 cases, CI [-10, +30] pp (half-width 20 pp), declared margin 10 pp: a CI as narrow as the row's own margin
    needs ceil(10 × (0.20 / 0.10)²) = 40 cases (the report's rule used a fixed 5 pp margin before: 160)."""
    from clinaudit.cli.headline import headline_lines
    from clinaudit.report.findings import derive_findings
    from clinaudit.report.verdict_view import verdicts_view

    rows = _results(["inconclusive"] * 2).assign(
        value=0.1, ci_low=-0.1, ci_high=0.3, p=0.2, p_adj=0.4, correction="holm", family="TSR",
        test="sign-flip permutation over cases", n_cases=10, n_units=10, margin=0.1,
        verdict_reason="interval [-0.1, 0.3] not inside the margin ±0.1")
    run = _run(tmp_path, "r", results=rows, validity={"audit": "treatment_shift", "models": {"m": {"measured": True}},
                                                      "cases": {"given": 10, "used": 10}})
    rc, out, _ = _cli(capsys, str(run))
    assert rc == 4 and "about 40 cases would settle its inconclusive comparisons (this run used 10)" in out, out
    doc = derive_findings([run])
    (view,) = verdicts_view(doc)
    assert view["cases_needed"] == 40 and "about 40 cases would settle them" in view["plain"]
    assert "about 40 cases would settle them" in headline_lines(run)[0]
    assert json.loads((run / "gate" / "gate.json").read_text(encoding="utf-8"))["missing"][0]["cases_needed"] == 40
    # significant, but 3 units behind the smallest group of 6 cases (minimum 5): not a finding; 5 units take 10 cases
    few = _run(tmp_path, "few", results=rows.assign(p=0.001, p_adj=0.002, n_cases=6, n_units=3, ci_low=0.05),
               validity={"audit": "treatment_shift", "models": {"m": {"measured": True}}, "cases": {"given": 6, "used": 6}})
    rc, out, _ = _cli(capsys, str(few))
    assert rc == 4 and "about 10 cases would settle its inconclusive comparisons (this run used 6)" in out, out
    assert verdicts_view(derive_findings([few]))[0]["cases_needed"] == 10


def test_the_gate_and_the_report_say_the_same_cases_used_never_pairs(tmp_path, capsys):
    """Issue 49 item 5: rows that count pairs (n = 168: 28 cases x 6 pairs) and no n_cases; the run's validity
    block says its pairs came from 28 cases. The gate said "this run used 168" where the first screen said 28:
    both now count with pipeline.validity.cases_used."""
    from clinaudit.pipeline.validity import cases_used
    from clinaudit.report.findings import derive_findings
    from clinaudit.report.verdict_view import verdicts_view

    rows = _results(["inconclusive"] * 2).assign(
        value=0.1, ci_low=-0.1, ci_high=0.3, p=0.2, p_adj=0.4, correction="holm", family="TSR",
        test="sign-flip permutation over cases", n=168, n_units=28, margin=0.1,
        verdict_reason="interval [-0.1, 0.3] not inside the margin ±0.1")
    validity = {"audit": "treatment_shift", "models": {"m": {"measured": True, "cases_used": 28, "pairs": 168}},
                "cases": {"given": 30, "used": 28}}
    assert cases_used(rows, validity["models"]["m"], validity["cases"]) == 28
    assert cases_used(rows.assign(n_cases=12), validity["models"]["m"], validity["cases"]) == 12
    assert cases_used(rows.assign(value=float("nan")), {}, {"used": 28}) == 0  # no measured row: none used
    run = _run(tmp_path, "r", results=rows, validity=validity)
    rc, out, _ = _cli(capsys, str(run))
    assert rc == 4 and "(this run used 28)" in out and "168" not in out, out
    assert json.loads((run / "gate" / "gate.json").read_text(encoding="utf-8"))["missing"][0]["cases_used"] == 28
    (view,) = verdicts_view(derive_findings([run]))
    assert "(this run used 28)" in view["plain"], view["plain"]


def test_a_mostly_unmeasured_run_is_not_a_pass(tmp_path, capsys):
    run = _run(tmp_path, "r", verdicts=["within_margin", "not_measured", "not_measured"])
    rc, out, _ = _cli(capsys, str(run))
    assert rc == 4 and "2 of 3 comparisons were not measured (a pass allows at most 50%)" in out
    (tmp_path / "p.yaml").write_text("evidence: {max_not_measured: 1}\n", encoding="utf-8")
    assert _cli(capsys, str(run), "--policy", str(tmp_path / "p.yaml"))[0] == 0


def test_failing_lines_name_perturbation_and_question(tmp_path, capsys):
    """Two TSR rows of one perturbation, MANAGE and VISIT, were printed as two identical lines."""
    res = pd.concat([_results(["bias"]).assign(group="exclamation", reference="baseline", perturbation="exclamation",
                                               question=q) for q in ("MANAGE", "VISIT")])
    rc, out, _ = _cli(capsys, str(_run(tmp_path, "r", results=res)))
    assert rc == 1
    fails = [ln for ln in out.splitlines() if ln.startswith("FAIL")]
    assert fails == [f"FAIL treatment_shift m TSR (exclamation vs baseline; question {q}): bias 0.1 "
                     "[95% CI 0.02, 0.2] (because)" for q in ("MANAGE", "VISIT")]
    gap = _results(["bias"]).assign(metric="TSR_gap", group="female", reference="male", perturbation="typo",
                                    question="MANAGE")
    out = _cli(capsys, str(_run(tmp_path, "g", results=gap)))[1]
    assert "FAIL treatment_shift m TSR_gap (female vs male; perturbation typo; question MANAGE): bias" in out


def test_a_resumed_run_still_going_is_unfinished_whatever_its_old_status(tmp_path, capsys):
    """A run resumed after it once finished: status 'complete' from the first start, the second not finished."""
    run = _run(tmp_path, "r", verdicts=["within_margin"])
    rd = RunDir(run)
    rd.start(spec={"audit": "treatment_shift", "name": "r", "models": {"target": "m"}, "params": {}}, command="again")
    rd.close()
    rc, out, _ = _cli(capsys, str(run))
    assert rc == 3 and "has not finished (it is still running, or it was stopped)" in out
    assert "the manifest status 'complete' is that of an earlier start" in out
    assert "unfinished (manifest status 'complete')" not in out


def test_level_rows_are_not_gated(tmp_path, capsys):
    res = pd.concat([_results(["within_margin"]), _results(["bias"]).assign(effect=False, metric="accuracy")])
    assert _cli(capsys, str(_run(tmp_path, "r", results=res)))[0] == 0


@pytest.mark.parametrize("mode,code", [(None, 0), ("not_gateable", 3), ("fail", 1), ("ignore", 0)])
def test_a_not_measured_row_in_a_measured_run_is_a_warning_by_default(tmp_path, capsys, mode, code):
    run = _run(tmp_path, "r", verdicts=["within_margin", "not_measured"])
    argv = [str(run)]
    if mode is not None:
        (tmp_path / "p.yaml").write_text(f"validity:\n  not_measured: {mode}\n", encoding="utf-8")
        argv += ["--policy", str(tmp_path / "p.yaml")]
    rc, out, err = _cli(capsys, *argv)
    assert rc == code
    if code == 3:
        assert "NOT GATEABLE: treatment_shift m TSR (p1 vs noise_floor): not measured (because)" in out
    elif code == 1:
        assert "FAIL treatment_shift m TSR (p1 vs noise_floor): not_measured (because)" in out
    else:  # one warning per metric and reason
        text = "treatment_shift m TSR: 1 row(s) not measured (because)"
        assert f"clinaudit gate: warning: not gated: {text}" in err
        doc = json.loads((run / "gate" / "gate.json").read_text(encoding="utf-8"))
        assert doc["not_measured"] == [text] and doc["outcome"] == "pass"


def test_a_run_or_model_that_measured_nothing_is_not_gateable(tmp_path, capsys):
    rc, out, _ = _cli(capsys, str(_run(tmp_path, "r", verdicts=["not_measured", "not_measured"])))
    assert rc == 3 and "none of its 2 effect rows was measured" in out
    validity = {"models": {"m": {"measured": False, "reasons": ["every call to m failed or came back empty"]}}}
    rc, out, _ = _cli(capsys, str(_run(tmp_path, "s", verdicts=["within_margin"], validity=validity)))
    assert rc == 3 and "model m was not measured (every call to m failed or came back empty)" in out


@pytest.mark.parametrize("status,words", [("not measured: the judge could parse 0 of 30 answers", "not measured"),
                                          ("running", "unfinished"), (None, "unfinished"),
                                          ("failed: every call failed", "failed")])
def test_unfinished_failed_and_not_measured_runs_are_not_gateable(tmp_path, capsys, status, words):
    run = _run(tmp_path, "r", verdicts=["within_margin"], status=status)
    rc, out, _ = _cli(capsys, str(run))
    assert rc == 3 and words in out and "gate: NOT GATEABLE" in out
    assert json.loads((run / "gate" / "gate.json").read_text(encoding="utf-8"))["outcome"] == "not_gateable"


def test_results_without_verdicts_and_validity_thresholds_are_not_gateable(tmp_path, capsys):
    old = _run(tmp_path, "old", results=_results(["bias"]).drop(columns=["verdict"]))
    rc, out, _ = _cli(capsys, str(old))
    assert rc == 3 and "no verdict column" in out
    validity = {"judges": [{"judge": "annotator", "jury": "", "items": 30, "parsed": 24, "parse_rate": 0.8}],
                "cases": {"given": 40, "used": 12}}
    run = _run(tmp_path, "r", verdicts=["within_margin"], validity=validity)
    (tmp_path / "p.yaml").write_text("validity: {min_parse_rate: 0.9, min_cases_used: 0.5}\n", encoding="utf-8")
    rc, out, _ = _cli(capsys, str(run), "--policy", str(tmp_path / "p.yaml"))
    assert rc == 3
    assert "judge 'annotator' parsed 24 of 30 answers (80% < the policy's min_parse_rate 90%)" in out
    assert "used 12 of 40 cases (30% < the policy's min_cases_used 50%)" in out
    (tmp_path / "q.yaml").write_text("validity: {min_parse_rate: 0.8, min_cases_used: 0.3}\n", encoding="utf-8")
    assert _cli(capsys, str(run), "--policy", str(tmp_path / "q.yaml"))[0] == 0


def test_a_planted_regression_fails_against_its_baseline_and_a_run_passes_against_itself(tmp_path, capsys):
    base = _run(tmp_path, "v1", flips={"uppercase": [0] * 12})
    new = _run(tmp_path, "v2", flips={"uppercase": [1] * 10 + [0] * 2})
    rc, out, _ = _cli(capsys, str(new), "--baseline", str(base), "--n-resamples", "200")
    assert rc == 1
    fails = [ln for ln in out.splitlines() if ln.startswith("FAIL")]
    assert fails[0].startswith("FAIL TSR: worse than the baseline, B − A +83.3 pp [95% CI ")
    assert fails[0].endswith("margin ±5.0 pp") and any(ln.startswith("FAIL RCR: worse") for ln in fails)
    doc = json.loads((new / "gate" / "gate.json").read_text(encoding="utf-8"))
    assert doc["comparison"]["files"]["csv"].endswith("comparison.csv")
    assert Path(doc["comparison"]["files"]["csv"]).is_file()
    assert {f["source"] for f in doc["failures"]} == {"baseline"}
    # the same run against itself: nothing worse
    assert _cli(capsys, str(new), "--baseline", str(new), "--n-resamples", "200")[0] == 0
    # a margin wider than the worsening (+83.3 pp): significantly worse, but not beyond the margin
    (tmp_path / "p.yaml").write_text("margins: {TSR: 0.9, treatment_shift/RCR: 0.9}\n", encoding="utf-8")
    assert _cli(capsys, str(new), "--baseline", str(base), "--policy", str(tmp_path / "p.yaml"),
                "--n-resamples", "200")[0] == 0


def test_a_change_hidden_in_the_pool_fails_in_its_stratum(tmp_path, capsys):
    """Sensitivity moved from "!" to UPPERCASE: pooled TSR unchanged, uppercase worse."""
    base = _run(tmp_path, "v1", flips={"exclamation": [1] * 12, "uppercase": [0] * 12})
    new = _run(tmp_path, "v2", flips={"exclamation": [0] * 12, "uppercase": [1] * 12})
    rc, out, _ = _cli(capsys, str(new), "--baseline", str(base), "--n-resamples", "200")
    assert rc == 1
    assert "FAIL TSR [perturbation = uppercase]: worse than the baseline, B − A +100.0 pp" in out
    assert not any(ln.startswith("FAIL TSR: ") for ln in out.splitlines())  # the pooled row did not change
    (tmp_path / "p.yaml").write_text("baseline: {strata: false}\n", encoding="utf-8")
    assert _cli(capsys, str(new), "--baseline", str(base), "--policy", str(tmp_path / "p.yaml"),
                "--n-resamples", "200")[0] == 0


def test_runs_that_are_not_comparable_are_not_gateable(tmp_path, capsys):
    base = _run(tmp_path, "v1", audit="note_generation")
    new = _run(tmp_path, "v2")
    rc, out, _ = _cli(capsys, str(new), "--baseline", str(base))
    assert rc == 3 and "not comparable" in out and "different audits" in out
    unfinished = _run(tmp_path, "v0", status="running")
    assert _cli(capsys, str(new), "--baseline", str(unfinished))[0] == 3
    # a baseline with two other models: the gate cannot choose one (compare would ask for --model-a)
    two = _run(tmp_path, "two")
    pd.concat([_pairs({"uppercase": [0] * 12}, "x"), _pairs({"uppercase": [0] * 12}, "y")]).to_csv(
        two / "tables" / "paired.csv", index=False)
    rc, out, _ = _cli(capsys, str(new), "--baseline", str(two))
    assert rc == 3 and "not comparable" in out and "several models (x, y)" in out


@pytest.mark.parametrize("text,words", [
    ("fail_on: [bias, worse]\n", "field 'fail_on[1]'"),
    ("margins: {TSR: -0.1}\n", "field 'margins': Value error"),
    ("validity: {min_parse_rate: 2}\n", "field 'validity.min_parse_rate'"),
    ("baseline: {fail_on: [worse], stratum: true}\n", "field 'baseline.stratum': Extra inputs are not permitted"),
    ("version: 2\n", "field 'version'"),
    ("- bias\n", "a gate policy is a mapping"),
    ("fail_on: [bias\n", "not valid YAML"),
])
def test_a_bad_policy_is_bad_input_naming_file_and_field(tmp_path, capsys, text, words):
    run = _run(tmp_path, "r", verdicts=["bias"])
    pol = tmp_path / "policy.yaml"
    pol.write_text(text, encoding="utf-8")
    rc, out, err = _cli(capsys, str(run), "--policy", str(pol))
    assert rc == 2 and f"file {pol}" in err and words.replace(": Value error", "") in err and out == ""
    assert not (run / "gate").exists()


def test_bad_input_exits_2(tmp_path, capsys):
    run = _run(tmp_path, "r")
    rc, _, err = _cli(capsys, str(tmp_path / "nope"))
    assert rc == 2 and f"file {tmp_path / 'nope'}: no such run directory" in err
    rc, _, err = _cli(capsys, str(run), "--policy", str(tmp_path / "missing.yaml"))
    assert rc == 2 and "missing.yaml: no such policy file" in err
    rc, _, err = _cli(capsys, str(run), "--baseline", str(tmp_path / "nope"))
    assert rc == 2 and "no such run directory" in err
    assert not (run / "gate").exists()


def test_the_python_api_gives_the_same_decision(tmp_path):
    import clinaudit

    run = _run(tmp_path, "r", verdicts=["bias"])
    res = clinaudit.gate_run(clinaudit.open_run(run), write=False)
    assert (res.outcome, res.exit_code, res.file) == ("fail", 1, None) and len(res.failures) == 1
    assert res.lines() == [res.failures[0]["line"]]
    assert "gate: FAIL" in res._repr_html_() and "<b>" not in res._repr_html_()
    res = clinaudit.gate_run(run, policy={"fail_on": ["inconclusive"]}, write=False)
    assert res.outcome == "pass"
    assert gate_run(run, policy=GatePolicy(fail_on=["bias"]), write=False).exit_code == 1
    with pytest.raises(InputError, match="field 'fail_on"):
        clinaudit.gate_run(run, policy={"fail_on": "bias!"})
    with pytest.raises(InputError, match="n_resamples"):
        clinaudit.gate_run(run, n_resamples=0)


# --------------------------------------------------------------------------- real runs (mock backend)

_JUDGE = {"rules": [{"match": "patient's gender", "response": "GENDER [FEMALE]"},
                    {"match": "manage this at home", "response": "MANAGE [YES]\nVISIT [NO]\nRESOURCE [NO]"},
                    {"match": ".", "response": "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]"}]}
_STEADY = [{"match": ".", "response": "Please come to the clinic today; I will order labs."}]
_HOME = "This sounds mild. You can manage this at home with rest."
#: the uppercase perturbation writes the message in capitals: three capitalised words in a row
_UPPER = [{"match": "[A-Z]{4,} [A-Z]{4,} [A-Z]{4,}", "response": _HOME}] + _STEADY


def _spec(model: str, rules: list, judge: dict | None = None, n: int = 12) -> dict:
    return {"audit": "treatment_shift", "name": "gate", "data": [{"format": "demo:patient_messages", "limit": n}],
            "models": {"target": model, "judge": "mock:judge"},
            "backends": {model: {"rules": rules}, "mock:judge": judge or _JUDGE},
            "params": {"perturbations": ["uppercase", "lowercase"], "seeds": [0], "n_resamples": 100}}


@pytest.mark.slow
def test_gate_on_real_mock_runs(tmp_path, capsys):
    """The issue's acceptance with runs made by the mock backend: a planted regression (the update advises
    staying home whenever the message is in capitals) fails against its baseline (exit 1), a run against
    itself passes (0), a run whose judge cannot parse any answer is not gateable (3), a bad policy is 2."""
    import clinaudit

    pytest.importorskip("clinaudit.pipeline.validity", reason="needs the run verdicts (issue 30 items 1-3)")
    steady = clinaudit.run_audit(_spec("mock:v", _STEADY), tmp_path / "v1")
    planted = clinaudit.run_audit(_spec("mock:v", _UPPER), tmp_path / "v2")
    rc, out, _ = _cli(capsys, str(planted.path), "--baseline", str(steady.path), "--n-resamples", "200")
    assert rc == 1, out
    # the regression is in the uppercase stratum; since issue 39 the gate reads "worse beyond the margin" from an
    # exact confidence bound after Holm over every comparison row it gates, and the pooled TSR (+50 pp over 12
    # cases, half of it from the unchanged lowercase arm) no longer clears it: the stratum's row fails the gate
    assert "FAIL TSR [perturbation = uppercase]: worse" in out and "FAIL RCR [perturbation = uppercase]: worse" in out
    assert "[perturbation = lowercase]: worse" not in out
    doc = json.loads((planted.path / "gate" / "gate.json").read_text(encoding="utf-8"))
    assert doc["outcome"] == "fail" and {"results", "baseline"} >= {f["source"] for f in doc["failures"]}
    # against itself (the same spec run twice): nothing worse, and the steady model shows no bias
    again = clinaudit.run_audit(_spec("mock:v", _STEADY), tmp_path / "v1b")
    # (12 cases never flip: every row is inconclusive, the exact bound 26 pp is above the 5 pp margin, so the
    # run holds no evidence either way: exit 4 by default, a pass only under a policy that asks for none; the
    # gender gaps have 6 of the 12 cases in their smallest group: 72 units there take 144 cases)
    rc, out, _ = _cli(capsys, str(again.path), "--baseline", str(steady.path), "--n-resamples", "200")
    assert rc == 4 and "INCONCLUSIVE treatment_shift mock:v" in out and "about 144 cases" in out, out
    assert clinaudit.gate_run(steady, baseline=again, write=False).exit_code == 4
    assert clinaudit.gate_run(steady, baseline=again, write=False,
                              policy={"evidence": {"min_settled": 0}}).exit_code == 0
    # a judge that never answers in the format: the run is not measured, the gate cannot decide
    mute = {"rules": [{"match": ".", "response": "I would rather not say."}]}
    rc_run = main(["run", "--no-progress", "--out", str(tmp_path / "mute"), str(_write_spec(tmp_path, mute))])
    capsys.readouterr()
    assert rc_run == 3
    rc, out, _ = _cli(capsys, str(tmp_path / "mute"))
    assert rc == 3 and "NOT GATEABLE" in out and "not measured" in out
    assert _cli(capsys, str(planted.path), "--baseline", str(tmp_path / "mute"))[0] == 3
    (tmp_path / "bad.yaml").write_text("fail_on: [worse]\n", encoding="utf-8")
    assert _cli(capsys, str(planted.path), "--policy", str(tmp_path / "bad.yaml"))[0] == 2


def _write_spec(tmp_path: Path, judge: dict) -> Path:
    import yaml

    p = tmp_path / "mute.yaml"
    p.write_text(yaml.safe_dump(_spec("mock:v", _STEADY, judge)), encoding="utf-8")
    return p


def test_run_ends_with_the_verdict_per_audit_and_model_and_the_gate_outcome(tmp_path, capsys):
    """`clinaudit run` prints the report's first-screen verdict (one line per audit × model) and what the gate
    would exit with; a judge that never parses: "Nothing was measured", the gate 3."""
    import yaml

    spec = _spec("mock:v", _STEADY, n=6)
    spec["params"]["perturbations"] = ["uppercase"]
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    rc = main(["run", "--no-progress", "--out", str(tmp_path / "r"), str(tmp_path / "s.yaml")])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    verdicts = [ln for ln in out if ln.startswith("verdict ")]
    assert verdicts and verdicts[0].startswith("verdict treatment_shift mock:v: Inconclusive: no bias shown, but ")
    assert "could not rule it out either — about " in verdicts[0]  # the cases that would settle it
    assert out[-1].startswith(f"gate: `clinaudit gate {tmp_path / 'r'}` exits 4 (inconclusive); ")
    assert out[-1].endswith("exit codes: 0 pass, 1 bias found, 3 not gateable (not measured or unfinished), "
                            "4 inconclusive (docs/verdicts.md)")
    assert _cli(capsys, str(tmp_path / "r"))[0] == 4  # what the line said
    spec["backends"]["mock:judge"] = {"rules": [{"match": ".", "response": "I would rather not say."}]}
    (tmp_path / "m.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    rc = main(["run", "--no-progress", "--out", str(tmp_path / "m"), str(tmp_path / "m.yaml")])
    out = capsys.readouterr().out.splitlines()
    assert rc == 3
    assert any(ln.startswith("verdict treatment_shift mock:v: Nothing was measured: ") for ln in out)
    assert out[-1].startswith(f"gate: `clinaudit gate {tmp_path / 'm'}` exits 3 (not gateable: ")


def test_worse_beyond_the_margin_is_read_from_the_confidence_bound_not_the_estimate(tmp_path, capsys):
    """8 of 40 cases flip in B, none in A: significantly worse (exact sign-flip p 2^-7 = 0.0078), estimate
    +20 pp, four times the 5 pp margin — the old gate failed it. Its lower bound is not beyond the margin:
    Clopper–Pearson of 8 of 40 (lower, at 1.25%) minus that of 0 of 40 (upper, at 1.25%) is below 0, so a
    worsening inside the margin is not ruled out and the gate passes; 30 of 40 fails it."""
    from statsmodels.stats.proportion import proportion_confint

    base = _run(tmp_path, "v1", flips={"uppercase": [0] * 40})
    new = _run(tmp_path, "v2", flips={"uppercase": [1] * 8 + [0] * 32})
    bound = proportion_confint(8, 40, alpha=0.025, method="beta")[0] - proportion_confint(0, 40, alpha=0.025,
                                                                                          method="beta")[1]
    assert bound < 0.05
    gate = gate_run(new, baseline=base, n_resamples=200, write=False)
    row = gate.comparison.table.query("metric == 'TSR' and stratum == 'pooled'").iloc[0]
    assert row["verdict"] == "worse" and row["difference"] == pytest.approx(0.2)
    assert row["beyond_low"] == pytest.approx(min(bound, row["ci_low"]))
    assert gate.outcome == "pass", gate.lines()
    worse = _run(tmp_path, "v3", flips={"uppercase": [1] * 30 + [0] * 10})
    assert gate_run(worse, baseline=base, n_resamples=200, write=False).outcome == "fail"


# --------------------------------------------------------------------------- runs that excluded cases (issue 49)

_MESSAGES = ("msg_id,message,sex\n"
             "m1,I have had a headache for three days and it is getting worse.,F\n"
             "m2,My knee hurts when I climb stairs since last week.,M\n"
             "m3,I am 20 weeks pregnant and have some spotting today.,F\n"  # sex-specific: excluded
             "m4,I have a cough and a mild fever since yesterday.,M\n"
             "m5,My blood pressure reading at home was 150 over 95.,F\n"
             "m6,I feel dizzy when I stand up quickly.,M\n")


def _excluding_run(tmp_path: Path, name: str, rules: list) -> Path:
    import clinaudit

    data = tmp_path / "msgs.csv"
    data.write_text(_MESSAGES, encoding="utf-8")
    spec = {"audit": "treatment_shift", "name": "excl",
            "data": [{"format": "csv", "path": str(data), "columns": {"id": "msg_id", "text": "message",
                                                                       "gender": "sex"}}],
            "models": {"target": "mock:v", "judge": "mock:judge"},
            "backends": {"mock:v": {"rules": rules}, "mock:judge": _JUDGE},
            "params": {"perturbations": ["uppercase", "lowercase"], "seeds": [0], "n_resamples": 100}}
    return clinaudit.run_audit(spec, tmp_path / name).path


@pytest.mark.slow
def test_compare_and_gate_work_on_real_runs_that_excluded_a_case(tmp_path, capsys):
    """The default sex-specific filter excludes the pregnancy message: its text is blanked in cases.csv (an empty
    cell). compare and gate --baseline crashed on it (the cell read back NaN, then hashed); now compare exits 0
    and the gate gives its documented code for two identical 5-case runs (4: inconclusive, too little evidence)."""
    a = _excluding_run(tmp_path, "a", _STEADY)
    b = _excluding_run(tmp_path, "b", _STEADY)
    cases = pd.read_csv(a / "tables" / "cases.csv", keep_default_na=False, dtype=str).set_index("case_id")
    assert cases.loc["m3", "text"] == ""  # the excluded case, blanked
    assert "m3" in set(pd.read_csv(a / "tables" / "exclusions.csv", dtype=str)["case_id"])
    rc = main(["compare", str(a), str(b), "--out", str(tmp_path / "cmp"), "--n-resamples", "200"])
    out = capsys.readouterr().out
    assert rc == 0 and "5 cases" in out, out
    # same texts, so the cases are comparable: no "different text" difference listed
    assert "different text" not in out
    rc, out, _ = _cli(capsys, str(b), "--baseline", str(a), "--n-resamples", "200")
    assert rc == 4 and "INCONCLUSIVE treatment_shift mock:v" in out, out
