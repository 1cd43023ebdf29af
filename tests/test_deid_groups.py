"""De-identification by group (clinaudit.deid_groups): what it changed in the cases as loaded, by group and by arm,
hand-computed; and a run that writes ``tables/deid_changes.csv``, its summary and its report lines."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.deid_groups import arm_differences, change_rates, change_sentences, change_summary, changed_cases
from clinaudit.exclusion_skew import case_attributes
from clinaudit.pipeline.identifiers import remove_listed_names
from clinaudit.records import Case

ROOT = Path(__file__).resolve().parent.parent


def _case(i: str, text: str, **fields: object) -> Case:
    return Case(case_id=i, dataset="t", text=text, fields=dict(fields))


def test_changed_cases_and_arms_hand_counted() -> None:
    before = [
        _case("a:1", "My husband Thabo drove me in.", pair_id="a", sex="F"),
        _case("a:2", "My husband Thabo drove me in. Woah.", pair_id="a", sex="F"),
        _case("b:1", "I have a rash on my arm.", pair_id="b", sex="M"),
        _case("b:2", "I have a rash on my arm, doctor.", pair_id="b", sex="M"),
        _case("c:1", "Dr. Okonkwo saw me and Dr. Okonkwo called.", pair_id="c", sex="M"),
        _case("c:2", "Dr. Okonkwo saw me.", pair_id="c", sex="M"),
    ]
    after = remove_listed_names(before)
    changed = changed_cases(before, after)
    assert changed == {"a:1": 1, "a:2": 1, "c:1": 2, "c:2": 1}
    # a: one [NAME] in each arm; b: none; c: two against one
    assert arm_differences(before, changed) == {"contexts": 3, "differ": 1, "examples": ["c"]}


def test_change_rates_test_the_groups_as_exclusions_are() -> None:
    """10 female cases all changed, 10 male none: Fisher's exact two-sided p = 2 / C(20, 10)."""
    cases = [_case(f"f{i}", "x", sex="female") for i in range(10)] + [_case(f"m{i}", "x", sex="male")
                                                                       for i in range(10)]
    rates = change_rates(case_attributes(cases), {f"f{i}" for i in range(10)})
    sex = rates[rates["attribute"] == "sex"].set_index("group")
    assert sex.loc["female", "n_changed"] == 10 and sex.loc["male", "n_changed"] == 0
    assert sex.loc["female", "rate"] == 1.0 and sex.loc["male", "rate"] == 0.0
    assert sex.loc["female", "p"] == pytest.approx(2 / comb(20, 10))
    assert bool(sex.loc["female", "differs"])
    summary = change_summary(rates, {f"f{i}": 1 for i in range(10)}, 20, {"contexts": 0, "differ": 0})
    assert summary["changed"] == 10 and summary["names_added"] == 10 and summary["tested"] == ["sex"]
    (line,) = change_sentences(summary)
    assert "sex: female 100% of 10 vs male 0% of 10" in line and "Fisher exact" in line


def test_no_sentence_when_nothing_differs() -> None:
    rates = change_rates(pd.DataFrame(), set())
    assert rates.empty
    assert change_sentences(change_summary(rates, {}, 5, {"contexts": 2, "differ": 0})) == []
    assert change_sentences(None) == []


def test_a_run_writes_the_table_the_summary_and_the_report_lines(tmp_path: Path) -> None:
    """A treatment-shift run (mock models) on messages where only the female patients name someone: every female
    case is changed, no male one; the run says so first and writes the shares by group."""
    from clinaudit.api import run_audit
    from clinaudit.report.render import build_report

    rows = [{"case_id": f"f{i}", "sex": "female", "message": f"My husband Sipho{i % 3} says my cough got worse."}
            for i in range(8)]
    rows += [{"case_id": f"m{i}", "sex": "male", "message": "My cough got worse this week."} for i in range(8)]
    pd.DataFrame(rows).assign(message=lambda d: d["message"].str.replace(r"\d", "", regex=True)).to_csv(
        tmp_path / "msgs.csv", index=False)
    spec = (ROOT / "examples" / "treatment_shift-mock.yaml").read_text(encoding="utf-8")
    spec = spec.replace("  - format: demo:patient_messages     # fields: ehr_context, recorded_gender, specialty\n"
                        "    limit: 8\n", "  - format: csv\n    path: msgs.csv\n    columns: {id: case_id, text: message}\n")
    spec = spec.replace("seeds: [0, 1, 42]", "seeds: [0]").replace("n_resamples: 200", "n_resamples: 20")
    (tmp_path / "spec.yaml").write_text(spec, encoding="utf-8")
    run_audit(tmp_path / "spec.yaml", tmp_path / "run")
    summary = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))["summary"]
    changes = summary["deid_changes"]
    assert changes["cases"] == 16 and changes["changed"] == 8 and changes["names_added"] == 8
    assert set(changes["differs"]) == {"sex"}  # p = 2 / C(16, 8) = 1.6e-4 < 0.05
    table = pd.read_csv(tmp_path / "run" / "tables" / "deid_changes.csv")
    assert set(table["group"]) == {"female", "male"} and table["n_changed"].sum() == 8
    build_report(tmp_path / "run", tmp_path / "report" / "report.html")
    page = (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    assert "De-identification changed the text of some groups" in page and "De-identification by group" in page
    assert "Sipho" not in page
    # findings.json carries the same counts and sentences, per run (twenty-first session)
    findings = json.loads((tmp_path / "report" / "findings.json").read_text(encoding="utf-8"))
    (run,) = findings["runs"]
    assert {k: run["deid_changes"][k] for k in ("cases", "changed", "names_added")} == {
        "cases": 16, "changed": 8, "names_added": 8}
    assert run["deid_changes"]["sentences"] == change_sentences(changes)
    assert run["deid_changes"]["sentences"][0].startswith("De-identification changed the text of some groups")


def test_run_changes_none_without_a_summary(tmp_path: Path) -> None:
    from clinaudit.deid_groups import run_changes

    assert run_changes(tmp_path) is None  # no manifest
    (tmp_path / "manifest.json").write_text('{"summary": {}}', encoding="utf-8")
    assert run_changes(tmp_path) is None
