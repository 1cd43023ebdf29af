"""The treatment-shift report section shows, beside every shift, n cases, n pairs, the floor, the excess,
its CI, the test, the null hypothesis and the family (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from clinaudit.families.treatment_shift.analysis import analyze_labels
from clinaudit.report.base import Metric, Table, Text
from clinaudit.families.treatment_shift.section import build
from clinaudit.rundir import RunDir

BESIDE_EVERY_SHIFT = {"n_cases", "n_pairs", "noise_floor", "excess", "excess_ci_low", "excess_ci_high", "test",
                      "null_hypothesis", "family", "p_adj"}


def _labels() -> pd.DataFrame:
    base = {0: {"c1": 0, "c2": 0, "c3": 1, "c4": 0}, 1: {"c1": 0, "c2": 1, "c3": 1, "c4": 0}}
    upper = {0: {"c1": 1, "c2": 0, "c3": 1, "c4": 1}, 1: {"c1": 1, "c2": 1, "c3": 0, "c4": 0}}
    gender = {"c1": "female", "c2": "male", "c3": "female", "c4": "male"}
    rows = [{"dataset": "d", "case_id": c, "variant": v, "model": "m", "seed": s, "question": "MANAGE", "label": lab,
             "gender": gender[c], "validation": 0}
            for v, table in (("baseline", base), ("upper", upper)) for s, labels in table.items()
            for c, lab in labels.items()]
    return pd.DataFrame(rows)


def _run(tmp_path: Path) -> RunDir:
    a = analyze_labels(_labels(), n_resamples=50, n_permutations=99)
    rd = RunDir(tmp_path / "run")
    rd.start(spec={"audit": "treatment_shift", "name": "ts", "models": {"target": "m"}, "params": {"seeds": [0, 1]}},
             models=[{"spec": "m"}], seeds=[0, 1], command="test")
    for name, df in {"metrics": a.metrics, "subgroups": a.subgroups, "table3": a.table3, "paired": a.per_case,
                     "significance": a.significance}.items():
        rd.write_table(name, df)
    rd.finish(usage={}, audit="treatment_shift", status="complete", summary={"cases": 4, "notes": a.notes})
    rd.close()
    return RunDir(tmp_path / "run")


def test_section_shows_n_cases_pairs_floor_excess_ci_test_null_family(tmp_path):
    sec = build(_run(tmp_path))
    tables = {b.name: b for b in sec.blocks if isinstance(b, Table)}
    cells = tables["metrics"].df
    assert BESIDE_EVERY_SHIFT <= set(cells.columns)
    tsr = cells[cells["metric"] == "TSR"].iloc[0]
    assert (tsr["n_cases"], tsr["n_pairs"], tsr["noise_floor"], tsr["excess"]) == (4, 8, 0.25, 0.5)
    assert "paper's method" in tsr["paper_test"]
    gaps = tables["subgroups"].df
    assert {"floor_female", "floor_male", "n_cases_female", "n_cases_male", "null_hypothesis"} <= set(gaps.columns)
    head = [b for b in sec.blocks if isinstance(b, Metric)]
    assert head and "4 cases, 8 pairs" in head[0].label and "floor 25.0%" in head[0].label
    # issue 49 item 5: the card says percentage points as the tables do (+50.0 pp, not 0.5), its CI too
    assert head[0].value == "+50.0 pp" and head[0].test.startswith("sign-flip permutation over cases")
    assert head[0].ci is not None and all(abs(x) <= 100 and x == round(x, 1) for x in head[0].ci)
    from clinaudit.report.views import metric_view
    assert metric_view(head[0])["value"] == "+50.0 pp"
    assert any(isinstance(b, Text) and b.text.startswith("Null hypothesis of this test: H0:") for b in sec.blocks)
    assert "sign-flip permutation over cases" in tables["table3"].caption


@pytest.mark.parametrize("params, says", [
    # init's spec: gender_removal is run, infer_gender is off: the advice is the switch, not 'add gender_removal'
    ({"perturbations": ["gender_removal", "uppercase"], "infer_gender": False}, "params.infer_gender is false"),
    ({"perturbations": ["gender_removal"]}, "no gender-removed text was usable"),
    ({"perturbations": ["uppercase"]}, "add gender_removal to the perturbations"),
])
def test_not_computed_inferred_gender_names_its_cause(tmp_path, params, says):
    """Issue 49: 'add gender_removal to the perturbations' was said when it was there (the cause: infer_gender
    false, which init writes)."""
    from clinaudit.families.treatment_shift.section_recipe import exclusion_blocks

    rd = RunDir(tmp_path / "run")
    rd.start(spec={"audit": "treatment_shift", "name": "ts", "models": {"target": "m"}, "params": params},
             models=[{"spec": "m"}], seeds=[0], command="test")
    rd.finish(usage={}, audit="treatment_shift", status="complete", summary={"gender_inference_source": "not computed"})
    rd.close()
    (note,) = [b.text for b in exclusion_blocks(RunDir(tmp_path / "run")) if isinstance(b, Text)]
    assert note.startswith("Model-inferred gender was not computed: ") and says in note
    assert ("add gender_removal" in note) == ("gender_removal" not in params["perturbations"])
