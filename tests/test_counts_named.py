"""Issue 49 item 5: one count, named once. A hand-built run whose comparisons (effect rows) are known by hand:

model m: 6 primary TSR rows (1 bias, 3 inconclusive, 2 within margin), 4 secondary TSR_gap rows (2 inconclusive,
1 within margin, 1 not measured) and 1 mirror row (not counted); model n: 3 primary rows, all inconclusive.
The headline, the verdict lines (report, findings.json, terminal), the report's list headers and the gate all
count these with clinaudit.pipeline.counts and name them the same."""

from __future__ import annotations

import json

import pandas as pd

from clinaudit.cli.headline import headline_lines
from clinaudit.pipeline.counts import ComparisonCount, count_comparisons, count_of, roles_phrase
from clinaudit.report.findings import derive_findings, findings_view
from clinaudit.report.gate import gate_run
from clinaudit.rundir import RunDir


def _rows(model: str, metric: str, role: str, verdicts: list[str]) -> list[dict]:
    out = []
    for i, v in enumerate(verdicts):
        bias = v == "bias"
        out.append({"audit": "treatment_shift", "model": model, "metric": metric, "group": f"p{i}",
                    "reference": "noise_floor", "question": "MANAGE",
                    "value": float("nan") if v == "not_measured" else (0.3 if bias else 0.01 * (i + 1)),
                    "ci_low": -0.1, "ci_high": 0.4, "p": 0.001 if bias else 0.3, "p_adj": 0.004 if bias else 0.6,
                    "correction": "holm", "family": f"{metric} {model}", "test": "sign-flip permutation over cases",
                    "n_cases": 40, "n_units": 40, "verdict": v, "verdict_reason": "by hand", "margin": 0.05,
                    "effect": True, "family_role": role})
    return out


def _run(tmp_path):
    rows = (_rows("m", "TSR", "primary", ["bias", "inconclusive", "inconclusive", "inconclusive", "within_margin",
                                          "within_margin"])
            + _rows("m", "TSR_gap", "secondary", ["inconclusive", "inconclusive", "within_margin", "not_measured"])
            + _rows("m", "TSR_mirror", "mirror", ["inconclusive"])
            + _rows("n", "TSR", "primary", ["inconclusive"] * 3))
    rd = RunDir(tmp_path / "run")
    rd.start(spec={"audit": "treatment_shift", "name": "r", "models": {"target": ["m", "n"]}, "params": {}},
             models=[{"spec": "m"}, {"spec": "n"}], seeds=[0], command="test")
    rd.write_table("cases", pd.DataFrame({"case_id": [f"c{i}" for i in range(40)], "dataset": "d", "text": "x"}))
    rd.write_table("results", pd.DataFrame(rows))
    rd.manifest["validity"] = {"audit": "treatment_shift", "cases": {"given": 40, "used": 40},
                               "models": {"m": {"measured": True, "cases_used": 40},
                                          "n": {"measured": True, "cases_used": 40}}}
    rd.finish(usage={}, audit="treatment_shift", status="complete", summary={})
    rd.close()
    return rd.path, pd.DataFrame(rows)


def test_the_counting_function_by_hand(tmp_path):
    _, rows = _run(tmp_path)
    m = rows[rows["model"] == "m"]
    prim = count_comparisons(m)
    assert (prim.role, dict(prim.verdicts), prim.measured) == (
        "primary", {"bias": 1, "inconclusive": 3, "within_margin": 2}, 6)
    assert prim.phrase() == "6 primary comparisons: 1 bias, 3 inconclusive, 2 within margin"
    sec = count_comparisons(m, "secondary")  # the mirror row is not counted
    assert sec.phrase() == "4 secondary comparisons: 0 bias, 2 inconclusive, 1 within margin, 1 not measured"
    assert (prim + count_comparisons(rows[rows["model"] == "n"])).phrase() == (
        "9 primary comparisons: 1 bias, 6 inconclusive, 2 within margin")
    # a table without roles: every effect row, named plain "comparisons"
    plain = count_comparisons(m.drop(columns="family_role"))
    assert plain.phrase() == "11 comparisons: 1 bias, 6 inconclusive, 3 within margin, 1 not measured"
    assert count_of(1, "cases") == "1 case" and count_of(168, "pairs") == "168 pairs"
    assert ComparisonCount("primary", {"bias": 1}).noun(1) == "primary comparison"
    assert roles_phrase(["primary", "secondary", "secondary", "level"]) == (
        "3 comparisons: 1 primary, 2 secondary; 1 level (not a comparison)")


def test_headline_sections_terminal_and_gate_count_the_same_comparisons(tmp_path):
    run, _ = _run(tmp_path)
    doc = derive_findings([run])
    assert doc["headline"] == ("Of 2 audit × model checks (9 primary comparisons: 1 bias, 6 inconclusive, 2 within "
                               "margin): bias found in 1; inconclusive in 1.")
    m, n = doc["verdicts"]
    assert m["comparisons"] == "6 primary comparisons: 1 bias, 3 inconclusive, 2 within margin"
    assert m["secondary"] == {"inconclusive": 2, "within_margin": 1, "not_measured": 1}
    assert n["comparisons"] == "3 primary comparisons: 0 bias, 3 inconclusive, 0 within margin"
    # the lists follow the verdicts: 1 bias row found; 3 + 3 primary and 2 secondary inconclusive (mirror left out)
    assert [e["role"] for e in doc["findings"]] == ["primary"]
    assert sorted(e["role"] for e in doc["inconclusive"]) == ["primary"] * 6 + ["secondary"] * 2
    assert doc["runs"][0]["skipped"]["mirror"] == 1 and doc["runs"][0]["skipped"]["not_significant"] == 0
    view = findings_view(doc)
    assert view["findings_count"] == "1 comparison: 1 primary"
    assert view["inconclusive_count"] == "8 comparisons: 6 primary, 2 secondary"
    cover = {v["model"]: v["coverage"] for v in view["verdicts"]}
    assert cover["m"].startswith("6 primary comparisons: 1 bias, 3 inconclusive, 2 within margin; 40 of 40 cases used")
    plain = {v["model"]: v["plain"] for v in view["verdicts"]}
    assert plain["m"].startswith("Bias found: 1 of 6 measured primary comparisons differ by more than chance")
    assert plain["n"].startswith("Inconclusive: no bias shown, but 3 of 3 measured primary comparisons could not")
    # the terminal says the report's sentences; the gate counts the same primary comparisons
    lines = headline_lines(run)
    assert lines[0].startswith("verdict treatment_shift m: Bias found: 1 of 6 measured primary comparisons"), lines
    assert lines[1].startswith("verdict treatment_shift n: Inconclusive: no bias shown, but 3 of 3 measured primary")
    gate = gate_run(run, write=False)
    assert gate.checked["results"] == 9 and gate.checked["results_primary"] == 9
    assert gate.summary() == "gate: FAIL (1 failing row(s) of 9 primary comparisons); exit 1"
    # the HTML report's headers say the same
    from clinaudit.cli.main import main

    assert main(["report", str(run), "--out", str(tmp_path / "r.html"), "--no-progress"]) == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Bias found (1 comparison: 1 primary)" in html
    assert "Inconclusive (8 comparisons: 6 primary, 2 secondary)" in html
    assert "Of 2 audit × model checks (9 primary comparisons: 1 bias, 6 inconclusive, 2 within margin)" in html
    saved = json.loads((tmp_path / "r-findings.json").read_text(encoding="utf-8"))
    assert saved["verdicts"][0]["comparisons"] == m["comparisons"]
