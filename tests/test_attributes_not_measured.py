"""Issue 49 item 3, last sentence: "where an audit cannot measure a declared attribute, the first screen says so".

The run's attributes are those of its cases (validity block ``exclusions_by_group.attributes``); an audit whose
comparisons are about none of them says, per attribute, "<name>: declared but not measured by this audit (…)" on
the first screen (a warning of the verdict line), in findings.json and on the terminal."""

from __future__ import annotations

import pandas as pd
import pytest
import yaml

from clinaudit.cli.main import main
from clinaudit.pipeline.attributes import measured_attributes, unmeasured_attributes
from clinaudit.pipeline.validity import verdict_lines
from clinaudit.report.verdict_view import verdicts_view


def _rows(audit: str, groups: list[tuple[str, str]], **cols: object) -> pd.DataFrame:
    return pd.DataFrame([{"audit": audit, "model": "m", "metric": "x", "group": g, "reference": r, "value": 0.1,
                          "ci_low": -0.2, "ci_high": 0.4, "p": 0.5, "p_adj": 0.5, "n_cases": 20,
                          "verdict": "inconclusive", "verdict_reason": "by hand", "effect": True, **cols}
                         for g, r in groups])


# the row shapes of each audit's results (from its mock example run): what its comparisons are about
SHAPES = {
    # sex-swapped vignettes: male vs female; nothing about race
    "reasoning_care": (lambda: _rows("reasoning_care", [("male_vs_female", "female_minus_male"), ("id1", "id2")]),
                       {"sex"}),
    # counterfactual notes of the attributes it rewrites (here gender only)
    "note_generation": (lambda: _rows("note_generation", [("Female", "baseline"), ("Male", "baseline")],
                                      attribute="gender"), {"sex"}),
    # attack vs control: no demographic attribute at all
    "adaptive_attack": (lambda: _rows("adaptive_attack", [("attack", "control")]), set()),
}


@pytest.mark.parametrize("audit", sorted(SHAPES))
def test_an_audit_says_which_declared_attributes_it_does_not_measure(audit):
    make, measures = SHAPES[audit]
    rows = make()
    assert measured_attributes(rows) == measures
    validity = {"audit": audit, "cases": {"given": 20, "used": 20}, "models": {"m": {"measured": True}},
                "exclusions_by_group": {"attributes": ["sex", "race_ethnicity"]}}
    (line,) = verdict_lines(rows, validity, audit)
    said = line["attributes_not_measured"]
    expected = [] if "sex" in measures else ["sex"]
    assert [s.split(":")[0] for s in said] == expected + ["race_ethnicity"]
    race = said[-1]
    assert race.startswith("race_ethnicity: declared but not measured by this audit (")
    assert "treatment_shift reports gaps by any column" in race
    assert (f"{audit} reports gaps by sex / gender only;" in race) == ("sex" in measures)
    assert (f"{audit} reports no gap by a demographic attribute of the cases;" in race) == (not measures)
    # the first screen shows it among the line's warnings (escaped by the template like every warning)
    (view,) = verdicts_view({"verdicts": [line], "inconclusive": []})
    assert race in view["warnings"]


def test_an_attribute_the_audit_measures_is_not_said():
    rows = _rows("treatment_shift", [("female", "male"), ("Black", "White")]).assign(attribute=[None, "race_ethnicity"])
    assert measured_attributes(rows) == {"sex", "race"}
    validity = {"exclusions_by_group": {"attributes": ["gender", "race", "age_band"]}}
    assert unmeasured_attributes(rows, validity, "treatment_shift") == [
        "age_band: declared but not measured by this audit (name its column in params.group_columns to report gaps "
        "by it; clinaudit init does for race, ethnicity, race_ethnicity, language, insurance, …)"]
    assert unmeasured_attributes(rows, {}, "treatment_shift") == []  # no attribute known: nothing to say


def test_treatment_shift_with_a_race_column_left_out_of_group_columns_says_so(tmp_path, capsys):
    """A CSV with sex and race_ethnicity through init, then group_columns removed: the sex gap is measured, race is
    not, and the terminal and findings.json say so (before: silence)."""
    from tests.families.treatment_shift.test_treatment_shift_groups import _csv, _init_mock

    spec, doc, _ = _init_mock(tmp_path, _csv(tmp_path), capsys)
    for k in ("group_columns", "reference_groups"):
        doc["params"].pop(k, None)
    spec.write_text(yaml.safe_dump(doc), encoding="utf-8")
    out = tmp_path / "r"
    assert main(["run", str(spec), "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    line = next(x for x in printed.splitlines() if "declared but not measured" in x)
    assert line.startswith("verdict treatment_shift mock:t: race: declared but not measured by this audit (name its column "
                           "in params.group_columns"), line
    assert "sex: declared" not in printed and "gender: declared" not in printed  # the sex gap rows are there
    assert main(["report", str(out), "--out", str(tmp_path / "r.html"), "--no-progress"]) == 0
    import json

    found = json.loads((tmp_path / "r-findings.json").read_text(encoding="utf-8"))
    assert [x.split(":")[0] for x in found["verdicts"][0]["attributes_not_measured"]] == ["race"]
    assert "race: declared but not measured by this audit" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_the_audits_that_report_group_columns_come_from_their_registrations():
    # no list of audits in the package (test_no_lists): an audit whose parameters declare group_columns
    from clinaudit.pipeline.attributes import reports_group_columns

    assert reports_group_columns("treatment_shift") and reports_group_columns("classifier_gaps")
    assert not reports_group_columns("note_generation") and not reports_group_columns("reasoning_care")
    assert not reports_group_columns("no_such_audit")
