"""Issue 30 item 6: the verdict rules in the Python API and its notebook display."""

from __future__ import annotations

import pytest

import clinaudit
from clinaudit.api import NotMeasuredWarning


def _spec(tmp_path, judge_answer: str) -> dict:
    cases = tmp_path / "cases.csv"
    cases.write_text("case_id,message\n" + "".join(f"c{i},Patient CASE{i} reports <b>a cough</b>.\n"
                                                     for i in range(12)), encoding="utf-8")
    return {"audit": "treatment_shift", "name": "api-verdicts",
            "data": [{"format": "csv", "path": str(cases), "columns": {"id": "case_id", "text": "message"}}],
            "models": {"target": "mock:t", "judge": "mock:j"},
            "backends": {"mock:t": {"answer": "Rest and fluids."}, "mock:j": {"answer": judge_answer}},
            "params": {"perturbations": ["uppercase"], "seeds": [0, 1], "n_resamples": 50,
                       "gender_inference_on": "baseline", "filter_sex_specific": False}}


def test_run_audit_warns_and_results_say_not_measured(tmp_path):
    with pytest.warns(NotMeasuredWarning, match="could parse 0 of 48 answers"):
        run = clinaudit.run_audit(_spec(tmp_path, "<script>no idea</script>"), tmp_path / "run")
    assert run.status.startswith("not measured") and run.measured is False
    assert run.headline.startswith("Nothing was measured: the judge 'treatment_annotator' could parse 0 of 48")
    v = run.verdicts
    assert v[["audit", "model", "verdict", "parsed", "items"]].values.tolist() == [
        ["treatment_shift", "mock:t", "not_measured", 0, 48]]
    assert (run.metrics["verdict"] == "not_measured").all()
    html = run._repr_html_()
    assert html.index("Nothing was measured") < html.index("finding(s)")
    assert "<script>" not in html
    runs = clinaudit.open_runs(tmp_path / "run")
    assert runs.verdicts["verdict"].tolist() == ["not_measured"] and runs.headline == run.headline


def test_a_measured_run_has_verdicts_and_no_warning(tmp_path, recwarn):
    run = clinaudit.run_audit(_spec(tmp_path, "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]"), tmp_path / "run")
    assert not [w for w in recwarn if issubclass(w.category, NotMeasuredWarning)]
    assert run.status == "complete" and run.measured
    # 12 cases that never change: the exact bound 1 − 0.025^(1/12) = 26.4 pp is above 5 pp
    assert run.verdicts["verdict"].tolist() == ["inconclusive"]
    tsr = run.metrics[(run.metrics["metric"] == "TSR")]
    assert set(tsr["verdict"]) == {"inconclusive"} and tsr["verdict_reason"].str.contains("more units needed").all()
    assert run.validity["models"]["mock:t"]["pairs_per_arm"] == {"noise_floor": 36, "uppercase": 72}


def test_a_partly_measured_run_exits_0_with_one_warning_line(tmp_path, capsys):
    import yaml

    from clinaudit.cli.main import main

    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(_spec(tmp_path, "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]")), encoding="utf-8")
    assert main(["run", str(spec), "--out", str(tmp_path / "run"), "--no-progress"]) == 0
    err = capsys.readouterr().err
    # RCER needs the cases' validated labels, which these cases do not have: its 3 rows are not measured
    warnings = [ln for ln in err.splitlines() if "not measured" in ln]
    assert warnings == ["clinaudit run: warning: treatment_shift: 3 comparisons not measured: 3 secondary (verdict not_measured "
                        "in tables/results.csv; their reasons in verdict_reason)"]


def test_a_run_resumes_under_other_margins_and_one_made_before_verdicts_resumes(tmp_path):
    import json

    spec = _spec(tmp_path, "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]")
    run = clinaudit.run_audit(spec, tmp_path / "run")
    assert run.metrics["margin"].dropna().unique().tolist() == [0.05]
    # new margins: the same directory resumes (no model call repeated) and the verdicts are recomputed
    again = clinaudit.run_audit({**spec, "verdicts": {"margins": {"TSR": 0.5}}}, tmp_path / "run")
    tsr = again.metrics[again.metrics["metric"] == "TSR"]
    assert tsr["margin"].unique().tolist() == [0.5] and set(tsr["verdict"]) == {"within_margin"}  # 12 cases: 26 pp
    assert again.manifest["runs"][-1]["usage_total"]["calls"] == 0
    # a manifest written before the spec had `verdicts:` resumes as the same spec
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    del manifest["spec"]["verdicts"]
    (tmp_path / "run" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert clinaudit.run_audit(spec, tmp_path / "run").status == "complete"


def test_a_failure_of_the_verdicts_keeps_the_run_and_says_so(tmp_path, capsys, monkeypatch):
    import json

    import yaml

    from clinaudit.cli.main import main
    from clinaudit.pipeline import driver

    def broken(*args, **kwargs):
        raise TypeError("planted")

    monkeypatch.setattr(driver, "assess_run", broken)
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(_spec(tmp_path, "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]")), encoding="utf-8")
    assert main(["run", str(spec), "--out", str(tmp_path / "run"), "--no-progress"]) == 1
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "complete (verdicts unavailable)"
    err = capsys.readouterr().err
    assert "the verdicts could not be computed (TypeError: planted)" in err and "Traceback" not in err
    log = (tmp_path / "run" / "logs" / "run.log").read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in log and "TypeError: planted" in log  # for the bug report
