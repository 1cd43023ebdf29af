"""The exclusions ledger (clinaudit.exclusions) and AuditContext.exclude."""

from __future__ import annotations

import pandas as pd
import pytest

from clinaudit.exclusions import EXCLUSION_COLUMNS, Exclusions


def test_rows_keep_order_columns_and_extras():
    ex = Exclusions()
    ex.add("variants", "c1", "failed_rewrite", detail="HTTP 500", item="uncertain")
    ex.add("cases", 7, "residual_identifiers", detail="he, Mr.", source="d.csv", row=9, dataset="mts")
    df = ex.frame()
    assert list(df.columns[: len(EXCLUSION_COLUMNS)]) == EXCLUSION_COLUMNS
    assert df["case_id"].tolist() == ["c1", "7"] and df.loc[1, "row"] == 9 and df.loc[1, "dataset"] == "mts"
    assert ex.counts().to_dict("records") == [{"stage": "cases", "reason": "residual_identifiers", "n": 1},
                                             {"stage": "variants", "reason": "failed_rewrite", "n": 1}]


def test_extend_from_a_table_needs_a_stage():
    ex = Exclusions()
    ex.extend(pd.DataFrame({"case_id": ["a", "b"], "reason": ["short", "short"]}), stage="cases")
    assert len(ex) == 2 and set(ex.frame()["stage"]) == {"cases"}
    with pytest.raises(ValueError, match="stage"):
        ex.extend([{"case_id": "x", "reason": "r"}])


def test_empty_ledger_has_the_columns():
    assert list(Exclusions().frame().columns) == EXCLUSION_COLUMNS
    assert Exclusions().counts().empty


def test_audit_context_ledger_merges_exclude_and_the_audits_table(tmp_path):
    """A real audit's own exclusions table lands in the one ledger, counted in the run summary."""
    import json
    from pathlib import Path

    from clinaudit.pipeline import run_spec

    example = Path(__file__).resolve().parents[1] / "examples" / "reasoning_care-mock.yaml"
    rd = run_spec(example, tmp_path / "run", progress=False)
    ledger = pd.read_csv(rd.path / "tables" / "exclusions.csv", keep_default_na=False)
    assert list(ledger.columns[: len(EXCLUSION_COLUMNS)]) == EXCLUSION_COLUMNS
    summary = json.loads((rd.path / "manifest.json").read_text()).get("summary", {})
    if len(ledger):
        assert sum(summary["excluded_by_reason"].values()) == len(ledger)


def test_exclude_writes_the_ledger_at_once(tmp_path):
    from types import SimpleNamespace

    from clinaudit.rundir import RunDir
    from clinaudit.pipeline import AuditContext

    rd = RunDir(tmp_path / "r")
    ctx = AuditContext(spec=SimpleNamespace(audit="x"), params=None, rundir=rd, runner=None)
    ctx.exclude("variants", "c1", "failed_rewrite", detail="HTTP 500")
    ctx.write_table("exclusions", pd.DataFrame({"case_id": ["c2"], "reason": ["too_short"]}))
    ctx.write_table("exclusions", pd.DataFrame({"case_id": ["c3"], "reason": ["too_short"], "stage": ["cases"]}))
    df = pd.read_csv(tmp_path / "r" / "tables" / "exclusions.csv", keep_default_na=False)
    assert df[["stage", "case_id", "reason"]].values.tolist() == [["variants", "c1", "failed_rewrite"],
                                                                 ["cases", "c3", "too_short"]]
    rd.close()
