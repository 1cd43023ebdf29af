"""The Python API (clinaudit.api): every code block of docs/python-api.md runs, and the API's own contract."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

import clinaudit
from clinaudit.deid_reach import warns
from clinaudit.api import RunResults, compare_runs, make_spec, open_run, open_runs
from clinaudit.errors import InputError, SpecError
from clinaudit.exclusions import EXCLUSION_COLUMNS
from clinaudit.pipeline import RESPONSE_COLUMNS
from clinaudit.report.findings import FINDING_FIELDS
from clinaudit.stats.results import RESULT_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "python-api.md"


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_every_python_block_of_the_doc_runs_in_order(tmp_path, monkeypatch, capsys):
    blocks = python_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 8  # the walk-through: build, error, run, tables, findings, doc, display, report, open
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # the blocks run "from the repository root"
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__doc__"}
    for i, block in enumerate(blocks, 1):
        try:
            exec(compile(block, f"{DOC.name} block {i}", "exec"), namespace)
        except Exception as exc:  # pragma: no cover - the failure message names the block
            pytest.fail(f"docs/python-api.md block {i} failed: {type(exc).__name__}: {exc}\n{block}")
    out = capsys.readouterr().out
    # what the blocks claim in their comments holds
    assert "field 'params.seeds'" in out
    assert "file runs/no-such-run: no such run directory" in out
    res, cg, runs = namespace["res"], namespace["cg"], namespace["runs"]
    assert isinstance(res, RunResults) and res.status == "complete"
    assert (tmp_path / "runs/cg-demo/report.html").is_file() and (tmp_path / "runs/cg-demo/findings.json").is_file()
    assert (tmp_path / "runs/report.html").is_file()
    assert (cg.findings["kind"] == "finding").any()
    # the display lists at most 20 entries per kind and counts the rest
    n_unsure = int((cg.findings["kind"] == "inconclusive").sum())
    assert n_unsure > 20 and f"… and {n_unsure - 20} more" in cg._repr_html_()
    assert sorted(r.audit for r in runs) == ["classifier_gaps", "treatment_shift"]
    # how far de-identification reached, once per run (docs/python-api.md, by hand: four cased demo messages)
    assert namespace["reach"] == {
        "counts": {"cases": 4, "lower": 0, "cased": 4, "mode": "names", "deidentified": 4},
        "sentences": ["All 4 cases are cased text. On the project's held-out benchmark (46 origins, 2026-12-06), "
                      "de-identification removes 99.9 % of names in cased text (lowest: Korean 97.3 %)."],
        "warn": [False]}
    assert clinaudit.api.deid_reach(cg) == {"counts": None, "sentences": [], "warn": []}
    # the notebook display says it too, above the verdicts (the report's words; the runs named in a set of runs)
    shown = res._repr_html_()
    assert "<p>All 4 cases are cased text. On the project&#x27;s held-out benchmark" in shown
    assert shown.index("All 4 cases are cased text") < shown.index("<table>")
    assert "All 4 cases are cased text" not in cg._repr_html_()  # it reads no case text
    assert "All 4 cases are cased text" in runs._repr_html_()
    # the API's findings are the report's findings.json, entry for entry
    written = json.loads((tmp_path / "runs/cg-demo/findings.json").read_text(encoding="utf-8"))
    f = cg.findings
    assert f.loc[f["kind"] == "finding", "sentence"].tolist() == [e["sentence"] for e in written["findings"]]
    assert f.loc[f["kind"] == "inconclusive", "sentence"].tolist() == [e["sentence"] for e in written["inconclusive"]]


def test_readme_links_the_page():
    assert "(docs/python-api.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_public_names_are_lazy_reexports():
    assert clinaudit.open_run is open_run and clinaudit.RunResults is RunResults
    assert {"make_spec", "run_audit", "open_run", "open_runs", "compare_runs", "gate_run", "RunResults",
            "RunSet"} <= set(clinaudit.__all__)
    assert clinaudit.compare_runs is compare_runs


# --------------------------------------------------------------------------- a run directory by hand

def _fake_run(path: Path, results: list[dict], audit: str = "classifier_gaps") -> Path:
    (path / "tables").mkdir(parents=True)
    (path / "manifest.json").write_text(json.dumps({"audit": audit, "status": "complete", "spec": {"audit": audit},
                                                    "summary": {"cases": 3}}), encoding="utf-8")
    pd.DataFrame(results).to_csv(path / "tables" / "results.csv", index=False)
    return path


EVIL = "<script>alert('x')</script>&"


def _row(**kw):
    row = {"audit": "classifier_gaps", "metric": "recall_gap", "group": "F", "reference": "M", "value": 0.2,
           "n": 100, "ci_low": 0.1, "ci_high": 0.3, "ci_method": "bootstrap", "test": "bootstrap", "statistic": 0.2,
           "p": 0.001, "p_adj": 0.002, "correction": "fdr_bh", "family": "recall|gender"}
    row.update(kw)
    return row


def test_repr_html_escapes_model_and_user_text(tmp_path):
    run = _fake_run(tmp_path / "run", [_row(group=EVIL), _row(metric="accuracy_gap", value=0.01, p=0.5, p_adj=0.6,
                                                                ci_low=-0.2, ci_high=0.22, group="x\"y")])
    res = open_run(run)
    f = res.findings
    assert list(f.columns) == list(FINDING_FIELDS)
    assert f["kind"].tolist() == ["finding", "inconclusive"]
    html = res._repr_html_()
    assert "<script>" not in html and "alert(&#x27;x&#x27;)" in html
    assert "&lt;script&gt;" in html and "&amp;" in html and "x&quot;y" in html
    assert "1 finding(s), 1 inconclusive" in html
    rs = open_runs(tmp_path)
    assert "<script>" not in rs._repr_html_() and "&lt;script&gt;" in rs._repr_html_()
    assert "1 findings, 1 inconclusive" in repr(res)
    assert "<script>" not in html.replace("&lt;script&gt;", "")


def test_tables_are_frames_with_their_key_columns(tmp_path):
    run = _fake_run(tmp_path / "run", [_row()])
    # a 0.1 run's responses (response/variant) in today's layout; empty cells stay NaN
    pd.DataFrame({"model": ["m"], "variant": ["v1"], "response": ["NA"], "case_id": ["c1"]}).to_csv(
        run / "tables" / "responses.csv", index=False)
    pd.DataFrame({"k": [1, 2]}).to_csv(run / "tables" / "own.csv", index=False)
    res = open_run(run)
    assert list(res.metrics.columns[: len(RESULT_COLUMNS)]) == RESULT_COLUMNS
    assert res.metrics["value"].tolist() == [0.2]
    r = res.responses
    assert list(r.columns[: len(RESPONSE_COLUMNS)]) == RESPONSE_COLUMNS
    assert r.loc[0, "text"] == "NA" and r.loc[0, "variant_id"] == "v1"  # the text "NA" is not a missing value
    # standard tables the run lacks: empty, with their documented columns
    assert list(res.exclusions.columns) == EXCLUSION_COLUMNS and res.exclusions.empty
    assert list(res.cases.columns) == ["case_id", "dataset", "text"]
    assert list(res.paired.columns) == ["case_id"]
    assert res.table("own")["k"].tolist() == [1, 2]
    assert res.tables == ["own", "responses", "results"]
    assert res.summary == {"cases": 3} and res.audit == "classifier_gaps"
    with pytest.raises(InputError, match=r"no table 'nope' in this run; its tables: own, responses, results"):
        res.table("nope")


def test_missing_or_non_run_directory_is_a_clear_error(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(InputError) as exc:
        open_run(missing)
    assert str(missing) in str(exc.value) and "no such run directory" in str(exc.value)
    assert not missing.exists()  # opening never creates it
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"empty: not a run directory \(no manifest.json"):
        open_run(tmp_path / "empty")
    with pytest.raises(InputError, match="no such run directory"):
        open_runs(missing)


def test_make_spec_merges_params_and_validates(tmp_path):
    base = {"audit": "classifier_gaps", "name": "a",
            "params": {"predictions": "p.csv", "score_column": "s", "group_columns": ["gender"], "n_resamples": 100}}
    spec = make_spec(base, name="b", params={"n_resamples": 50})
    assert spec.name == "b" and spec.params == {**base["params"], "n_resamples": 50}
    assert make_spec(spec).model_dump() == spec.model_dump()
    with pytest.raises(SpecError, match=r"invalid audit spec <dict>: field 'audit'"):
        make_spec({**base, "audit": "no_such_audit"})
    with pytest.raises(SpecError, match="spec file not found"):
        make_spec(tmp_path / "missing.yaml")
    with pytest.raises(SpecError, match="expected a YAML path, a dict or an AuditSpec"):
        make_spec(42)


def test_the_notebook_display_states_the_reach_once_per_statement():
    # two runs saying the same statement share one paragraph naming both; a warning is red; everything escaped
    said = ["3 of 3 cases are lower-case transcripts <b>x</b>. Names it misses reach the audited model.",
            "All 2 cases are cased text."]
    assert [warns(x) for x in said] == [True, False]
    doc = {"runs": [{"title": "A & B", "deid_reach": said}, {"title": "C", "deid_reach": said},
                    {"title": "D", "deid_reach": []}]}
    html = clinaudit.api._reach_html(doc)
    assert html == ["<p><em>A &amp; B, C</em>: <span style='color:#b00020'>3 of 3 cases are lower-case transcripts "
                    "&lt;b&gt;x&lt;/b&gt;. Names it misses reach the audited model.</span> All 2 cases are cased text.</p>"]
    assert clinaudit.api._reach_html({"runs": [{"title": "solo", "deid_reach": said[1:]}]}) == [
        "<p>All 2 cases are cased text.</p>"]
    assert clinaudit.api._reach_html(None) == []
