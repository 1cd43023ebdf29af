"""Issue 48: a primary question per audit tested first (serial gatekeeping), one row per question (mirrors not
counted), one family over every model of an audit; the headline and the gate decide on the primary rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

from clinaudit.errors import SpecError
from clinaudit.pipeline.validity import assign_verdicts, verdict_lines
from clinaudit.spec import VerdictSettings, parse_spec_dict
from clinaudit.stats.gatekeeping import serial_gatekeeping

NO_REASONS = {"reasons": [], "models": {}}


def test_serial_gatekeeping_by_hand():
    # primary Holm of (0.01, 0.04): 0.02, 0.04; secondary Holm of (0.001, 0.2): 0.002, 0.2 → max with the gate 0.04
    got = serial_gatekeeping(np.array([0.01, 0.04, 0.001, 0.2]), np.array([True, True, False, False]))
    assert got.tolist() == pytest.approx([0.02, 0.04, 0.04, 0.2])
    # one primary row not rejected (Holm 0.3): no secondary row can be below it
    got = serial_gatekeeping(np.array([0.01, 0.3, 0.001]), np.array([True, True, False]))
    assert got.tolist() == pytest.approx([0.02, 0.3, 0.3])
    # no primary row: the secondary rows are one Holm family
    got = serial_gatekeeping(np.array([0.01, 0.02]), np.array([False, False]))
    assert got.tolist() == pytest.approx(list(multipletests([0.01, 0.02], method="holm")[1]))
    with pytest.raises(ValueError, match="NaN"):
        serial_gatekeeping(np.array([np.nan]), np.array([True]))


def _ts(metric: str, ps: list[float], model: str = "m", **cols: object) -> pd.DataFrame:
    """Treatment-shift effect rows: one per perturbation, narrow CIs far above a 5 pp margin (bias when p_run < alpha)."""
    return pd.DataFrame({"audit": "treatment_shift", "model": model, "metric": metric, "question": "MANAGE",
                         "perturbation": [f"p{i}" for i in range(len(ps))], "group": [f"p{i}" for i in range(len(ps))],
                         "reference": "noise_floor", "value": 0.3, "ci_low": 0.2, "ci_high": 0.4, "n": 200,
                         "n_cases": 200, "test": "sign-flip", "p": ps, "p_adj": ps, "family": metric, **cols})


def test_primary_rows_are_tested_first_and_secondary_only_through_them():
    """TSR is treatment shift's declared primary metric: its 2 rows are Holm over 2 (0.02, 0.04 → bias); the RCR
    rows are tested after them (both primary rows rejected): Holm over 2 of (0.001, 0.2) = 0.002, 0.2, each at
    least the gate 0.04. With a primary row at 0.3 no RCR row can be bias, however small its p."""
    rows = pd.concat([_ts("TSR", [0.01, 0.02]), _ts("RCR", [0.001, 0.2])], ignore_index=True)
    out = assign_verdicts(rows, NO_REASONS, VerdictSettings())
    assert out["family_role"].tolist() == ["primary", "primary", "secondary", "secondary"]
    assert out["p_run"].tolist() == pytest.approx([0.02, 0.02, 0.02, 0.2])
    assert out["verdict"].tolist() == ["bias", "bias", "bias", "inconclusive"]
    assert out["run_family"].iloc[2] == ("run secondary: treatment_shift, Holm over 2 secondary rows, tested only "
                                         "if all 2 primary rows are rejected (serial gatekeeping)")
    rows.loc[1, ["p", "p_adj"]] = 0.3
    out = assign_verdicts(rows, NO_REASONS, VerdictSettings())
    assert out["p_run"].tolist() == pytest.approx([0.02, 0.3, 0.3, 0.3])
    assert out["verdict"].tolist() == ["bias", "inconclusive", "inconclusive", "inconclusive"]


def test_the_spec_sets_its_own_primary_rows():
    rows = pd.concat([_ts("TSR", [0.01, 0.02]), _ts("RCR", [0.001, 0.2])], ignore_index=True)
    settings = VerdictSettings(primary=[{"metric": "RCR", "perturbation": "p0"}])
    out = assign_verdicts(rows, NO_REASONS, settings)
    assert out["family_role"].tolist() == ["secondary", "secondary", "primary", "secondary"]
    # primary: RCR p0 alone (0.001); secondary Holm over (0.01, 0.02, 0.2) = 0.03, 0.04, 0.2
    assert out["p_run"].tolist() == pytest.approx([0.03, 0.04, 0.001, 0.2])
    assert "(the spec's verdicts.primary)" in out["run_family"].iloc[2]
    # a spec naming no tested row: every effect is primary (one Holm family over the 4, as before primaries)
    out = assign_verdicts(rows, NO_REASONS, VerdictSettings(primary=["RCER"]))
    assert set(out["family_role"]) == {"primary"}
    assert out["p_run"].tolist() == pytest.approx(list(multipletests([0.01, 0.02, 0.001, 0.2], method="holm")[1]))


def _spec(primary: object) -> dict:
    return {"audit": "treatment_shift", "models": {"target": "mock:t"}, "verdicts": {"primary": primary}}


def test_verdicts_primary_is_validated_on_load_naming_the_field():
    spec, _ = parse_spec_dict(_spec(["TSR", {"metric": "RCR", "perturbation": ["typo", "uppercase"]}]))
    sel = spec.verdicts.primary_selectors()
    assert [s.metric for s in sel] == ["TSR", "RCR"] and sel[1].where() == {"perturbation": ["typo", "uppercase"]}
    with pytest.raises(SpecError, match=r"field 'verdicts.primary\[1\].metric': 'TRS' is not a metric of audit "
                                        r"'treatment_shift'; its effects: TSR, RCR"):
        parse_spec_dict(_spec(["TSR", {"metric": "TRS"}]))
    with pytest.raises(SpecError, match=r"field 'verdicts.primary\[0\]': 'accuracy' is a level, not an effect"):
        parse_spec_dict(_spec(["accuracy"]))
    with pytest.raises(SpecError, match=r"field 'verdicts.primary.*pertubation.*unknown field"):
        parse_spec_dict(_spec([{"metric": "TSR", "pertubation": "typo"}]))
    with pytest.raises(SpecError, match=r"field 'verdicts.primary': an empty list"):
        parse_spec_dict(_spec([]))


def test_a_mirrored_row_is_one_question_counted_once():
    """F−M and M−F of one attribute ask one question: the second is a mirror, outside the Holm family, with its
    twin's p_run; the family counts 2 rows (the gap and the other attribute's), not 3."""
    rows = pd.DataFrame({"audit": "classifier_gaps", "model": "", "metric": "recall_gap", "task": "t",
                         "attribute": ["sex", "sex", "race"], "group": ["F", "M", "Black"],
                         "reference": ["M", "F", "White"], "value": [0.1, -0.1, 0.05], "ci_low": [0.05, -0.15, 0.0],
                         "ci_high": [0.15, -0.05, 0.1], "n": 500, "n_cases": 500, "test": "permutation",
                         "p": [0.01, 0.01, 0.04], "p_adj": [0.01, 0.01, 0.04]})
    out = assign_verdicts(rows, NO_REASONS, VerdictSettings(), run_audit="classifier_gaps")
    assert out["family_role"].tolist() == ["primary", "mirror", "primary"]
    assert out["p_run"].tolist() == pytest.approx([0.02, 0.02, 0.04])  # Holm over 2, not 3 (0.03, 0.03, 0.04)
    assert out["run_family"].iloc[1] == "mirror of another row (F vs M): the same question, counted once"


def test_the_headline_decides_on_the_primary_rows_and_says_which():
    """Primary TSR rows within the margin (tight CIs at 0), a secondary RCR row inconclusive: the audit's verdict is
    within_margin, and the sentence names the primary rows and the secondary ones tested after them."""
    tsr = _ts("TSR", [0.9, 0.8]).assign(value=0.0, ci_low=-0.01, ci_high=0.01, n=2000, n_cases=2000)
    rcr = _ts("RCR", [0.5]).assign(value=0.02, ci_low=-0.05, ci_high=0.09)
    out = assign_verdicts(pd.concat([tsr, rcr], ignore_index=True), NO_REASONS, VerdictSettings())
    assert out["verdict"].tolist() == ["within_margin", "within_margin", "inconclusive"]
    line = verdict_lines(out, {"models": {"m": {"reasons": []}}, "reasons": [], "cases": {}}, "treatment_shift")[0]
    assert line["verdict"] == "within_margin" and line["effects"] == {"within_margin": 2}
    assert line["primary"] == ("The verdict is on the 2 primary comparisons (TSR; the audit's declared primary metric "
                               "TSR); 1 secondary comparison was tested after them (serial gatekeeping).")
    assert line["sentence"].endswith(line["primary"])
    from clinaudit.report.verdict_view import verdicts_view

    assert verdicts_view({"verdicts": [line]})[0]["primary"] == line["primary"]  # shown under the plain sentence


def test_the_gate_decides_on_the_primary_rows_unless_the_policy_says_all(tmp_path):
    from clinaudit.report.gate import gate_run
    from clinaudit.rundir import RunDir

    tsr = _ts("TSR", [0.9, 0.8]).assign(value=0.0, ci_low=-0.01, ci_high=0.01, n=2000, n_cases=2000)
    rcr = _ts("RCR", [0.5, 0.6, 0.7]).assign(value=0.02, ci_low=-0.05, ci_high=0.09)
    out = assign_verdicts(pd.concat([tsr, rcr], ignore_index=True), NO_REASONS, VerdictSettings())
    rd = RunDir(tmp_path / "run")
    rd.start(spec={"audit": "treatment_shift", "name": "t", "models": {"target": "m"}, "params": {}},
             models=[{"spec": "m"}], seeds=[0], command="test")
    rd.write_table("results", out)
    rd.finish(usage={}, audit="treatment_shift", status="complete", summary={})
    rd.close()
    assert gate_run(rd.path, write=False).outcome == "pass"  # 2 of 2 primary rows settled
    # every row: 2 of 5 settled < half → inconclusive
    assert gate_run(rd.path, write=False, policy={"rows": "all"}).outcome == "inconclusive"
