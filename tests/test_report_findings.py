"""Findings (clinaudit.report.findings) from hand-built result tables: which rows become findings or
"inconclusive" entries, their ranking, the numbers in their sentences, the judge caveats, the
findings.json/.csv files and the Findings section as the report's first section (escaped)."""

from __future__ import annotations

import csv
import json
import math
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.report.findings import FINDING_FIELDS, SCHEMA, derive_findings, effect_scale, run_findings
from clinaudit.report.render import build_report
from clinaudit.rundir import RunDir
from clinaudit.stats.results import results_frame

NAN = math.nan
PERM = "sign-flip permutation over cases"


def _run(base: Path, name: str, audit: str, rows: list[dict], extra: dict[str, pd.DataFrame] | None = None) -> Path:
    """A finished run directory (manifest + tables/results.csv [+ extra tables]) of an audit without a section."""
    rd = RunDir(base / name)
    rd.start(spec={"audit": audit, "name": name}, models=[{"spec": "mock"}], seeds=[0], command="test")
    rd.write_table("results", results_frame(rows))
    for tname, df in (extra or {}).items():
        rd.write_table(tname, df)
    rd.finish(usage={}, audit=audit, status="complete", summary={})
    rd.close()
    return rd.path


def _shift_rows() -> list[dict]:
    common = dict(audit="shift_audit", metric="TSR", reference="baseline (minus noise floor)", test=PERM,
                  correction="bonferroni", family="F1", model="m1", question="MANAGE")
    return [
        # significant: 30 pp beyond a 5 pp floor
        dict(common, group="typo", value=0.30, raw=0.35, floor=0.05, ci_low=0.20, ci_high=0.40, n=48, n_cases=8,
             p=0.001, p_adj=0.004),
        # not significant, CI half-width 0.22 > 0.05 -> inconclusive, n_needed = ceil(8 * (0.22/0.05)^2) = 155
        dict(common, group="lowercase", value=0.02, raw=0.07, floor=0.05, ci_low=-0.20, ci_high=0.24, n=48,
             n_cases=8, p=0.8, p_adj=1.0),
        # descriptive: never a finding
        dict(common, metric="TSR_raw", group="typo", value=0.9, test="descriptive", correction="", family="",
             n=48, ci_low=0.8, ci_high=1.0),
        # a test but NaN p: never a finding
        dict(common, group="uppercase", value=0.5, ci_low=0.1, ci_high=0.9, n=48, n_cases=8, p=NAN, p_adj=NAN),
        # not significant with a narrow CI (half-width 0.03 <= margin): neither
        dict(common, group="whitespace", value=0.01, ci_low=-0.02, ci_high=0.04, n=48, n_cases=8, p=0.3, p_adj=0.5),
        # p < 0.05 but p_adj >= 0.05: the corrected p decides -> not a finding (CI half-width 0.04: not inconclusive)
        dict(common, group="exclamation", value=0.05, ci_low=0.01, ci_high=0.09, n=48, n_cases=8, p=0.01,
             p_adj=0.06),
        # "none" test with a tiny p: descriptive all the same
        dict(common, metric="share", group="x", value=0.7, test="none", p=0.0001, correction="none", n=10),
    ]


def _gap_rows() -> list[dict]:
    common = dict(audit="gap_audit", metric="recall_gap", test="bootstrap", correction="fdr_bh", family="recall|gender",
                  task="sepsis", attribute="gender")
    return [
        dict(common, group="F", reference="M", value=-0.45, ci_low=-0.60, ci_high=-0.30, n=400, p=0.0, p_adj=0.0),
        dict(common, group="M", reference="F", value=0.45, ci_low=0.30, ci_high=0.60, n=400, p=0.0, p_adj=0.0),  # mirror
        # another unit: 2.5 tokens is not comparable with a proportion -> ranked after every proportion finding
        dict(audit="gap_audit", metric="delta_len", group="F", reference="M", value=-2.5, ci_low=-4.0, ci_high=-1.0,
             n=30, test=PERM, p=0.01, correction="none", family=""),
        # percent metric: 12% -> 0.12 on the proportion scale; no correction -> p decides
        dict(audit="gap_audit", metric="incidence%", group="Black", reference="baseline", value=12.0, ci_low=6.0,
             ci_high=18.0, n=50, test="mcnemar", p=0.02, correction="", family="inc"),
    ]


def _judge_rows() -> list[dict]:
    common = dict(audit="note_audit", test="cochrans_q", correction="bonferroni", family="ΔCF:m", model="m2")
    return [
        dict(common, metric="ΔCF", group="", value=20.0, ci_low=10.0, ci_high=30.0, n=12, n_cases=12, p=0.001,
             p_adj=0.003, judge_model="jm1"),
        dict(common, metric="judge_parse_rate%", group="incidence", value=95.0, n=84, test="descriptive",
             correction="", family="", judge_model="jm1"),
    ]


_RELIABILITY = pd.DataFrame({
    "judge": ["incidence", "language"], "judge_model": ["jm1", "jm2"], "n": [84, 12], "parse_rate%": [95.0, 50.0],
    "reliability": ["85% agreement, κ = 0.68 (n=13); parse rate 95% (n=84)", "50% agreement (n=2); parse rate 50% (n=12)"],
})
_PARSE = pd.DataFrame({"judge": ["treatment_annotator"], "n": [100], "ok": [90], "unparseable": [8], "error": [2],
                       "rate": [0.9]})


@pytest.fixture()
def runs(tmp_path) -> list[Path]:
    return [_run(tmp_path, "shift", "shift_audit", _shift_rows(), {"parse_rates": _PARSE}),
            _run(tmp_path, "gaps", "gap_audit", _gap_rows()),
            _run(tmp_path, "notes", "note_audit", _judge_rows(), {"judge_reliability": _RELIABILITY})]


def test_ranking_across_runs_and_scales(runs):
    doc = derive_findings(runs)
    got = [(f["rank"], f["metric"], f["group"], f["scale"], round(f["size"], 6)) for f in doc["findings"]]
    # proportion scale first by |effect| (0.45 > 0.30 > 0.20 > 0.12), then the other unit (2.5 tokens)
    assert got == [(1, "recall_gap", "F", "proportion", 0.45), (2, "TSR", "typo", "proportion", 0.30),
                   (3, "ΔCF", "", "proportion", 0.20), (4, "incidence%", "Black", "proportion", 0.12),
                   (5, "delta_len", "F", "other", 2.5)]
    assert [e["group"] for e in doc["inconclusive"]] == ["lowercase"]
    by_dir = {Path(r["run_dir"]).name: r for r in doc["runs"]}
    assert by_dir["shift"]["skipped"] == {"descriptive": 2, "no_p": 1, "not_significant": 2, "mirror": 0,
                                          "not_measured": 0, "within_margin": 0}
    assert by_dir["gaps"]["skipped"]["mirror"] == 1
    assert by_dir["notes"]["findings"] == 1


def test_sentence_numbers(runs):
    doc = derive_findings(runs)
    tsr = doc["findings"][1]
    assert tsr["sentence"] == (
        "TSR for typo vs baseline (minus noise floor) (model m1, question MANAGE): +30.0 pp beyond its noise floor "
        "of 5.0 pp (95% CI +20.0 pp to +40.0 pp; 8 cases; sign-flip permutation over cases; "
        "p_adj = 0.004 (bonferroni within family 'F1')).")
    gap = doc["findings"][0]
    assert "-45.0 pp" in gap["sentence"] and "95% CI -60.0 pp to -30.0 pp" in gap["sentence"]
    # no n_cases: n counts the rows, so the sentence says "n = 400", not "400 cases" (issue 49 item 5)
    assert "; n = 400;" in gap["sentence"] and "p_adj < 0.001 (fdr_bh within family 'recall|gender')" in gap["sentence"]
    assert "task sepsis, attribute gender" in gap["sentence"]
    length = doc["findings"][4]
    assert "-2.5 (95% CI -4 to -1; n = 30" in length["sentence"]
    assert "p = 0.01 (no multiplicity correction)" in length["sentence"]
    inc = doc["findings"][3]
    assert inc["value"] == pytest.approx(0.12) and inc["ci_low"] == pytest.approx(0.06)
    assert "+12.0 pp (95% CI +6.0 pp to +18.0 pp; n = 50; mcnemar; p = 0.02 (" in inc["sentence"]


def test_p_values_never_round_across_alpha():
    from clinaudit.report.findings import format_p

    assert format_p(0.049977) == "= 0.04998" and format_p(0.0504) == "= 0.0504" and format_p(0.05) == "= 0.05"
    assert format_p(0.0366) == "= 0.0366" and format_p(0.0) == "< 0.001" and format_p(1.0) == "= 1"


def test_inconclusive_rule(runs):
    (e,) = derive_findings(runs)["inconclusive"]
    h = (0.24 - (-0.20)) / 2
    assert e["ci_half_width"] == pytest.approx(h) and e["margin"] == 0.05
    assert e["n_needed"] == 155 == math.ceil(8 * (h / 0.05) ** 2)
    assert "not significant (p_adj = 1 (" in e["sentence"] and "about 155 cases" in e["sentence"]
    assert "half-width 22.0 pp > margin 5.0 pp" in e["sentence"] and "with 8 cases" in e["sentence"]
    # a wider margin makes it conclusive (neither a finding nor inconclusive)
    entries, skipped = run_findings(runs[0], margin=0.25)
    assert [x["kind"] for x in entries] == ["finding"] and skipped["not_significant"] == 3
    # other units have no margin: a wide non-significant length difference is not listed
    assert effect_scale("delta_len", [0.1]) == ("other", 1.0)
    assert effect_scale("TSR", [0.1, -0.3]) == ("proportion", 1.0)
    assert effect_scale("rate%", [40.0]) == ("proportion", 100.0)
    assert effect_scale("score_gap", [3.0]) == ("other", 1.0)


def test_judge_caveats_attach(runs):
    doc = derive_findings(runs)
    by_metric = {f["metric"]: f for f in doc["findings"]}
    assert by_metric["TSR"]["judge_caveats"] == [
        "judge 'treatment_annotator' parsed 90 of 100 outputs (90%); 8 unparseable, 2 error"]
    # the row names its judge model: only that judge's caveat
    assert by_metric["ΔCF"]["judge_caveats"] == [
        "judge 'incidence': 85% agreement, κ = 0.68 (n=13); parse rate 95% (n=84)"]
    assert by_metric["recall_gap"]["judge_caveats"] == []  # no judge in that run
    assert doc["inconclusive"][0]["judge_caveats"] == by_metric["TSR"]["judge_caveats"]


def test_json_and_csv_files(runs, tmp_path):
    files = build_report(runs, tmp_path / "out" / "report.html")
    assert files.findings_json == tmp_path / "out" / "findings.json"
    doc = json.loads(files.findings_json.read_text(encoding="utf-8"),
                     parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))
    assert doc["schema"] == SCHEMA
    assert set(doc) == {"schema", "rules", "runs", "findings", "inconclusive", "headline", "verdicts", "validity"}
    assert doc["rules"]["alpha"] == 0.05 and doc["rules"]["margin"] == 0.05
    for e in doc["findings"] + doc["inconclusive"]:
        assert list(e) == list(FINDING_FIELDS)
        assert e["source"] == "tables/results.csv" and isinstance(e["source_row"], int)
        assert e["section_anchor"].startswith("sec-") and e["table_anchor"]
    assert [e["kind"] for e in doc["findings"]] == ["finding"] * 5
    tsr = doc["findings"][1]
    assert tsr["source_row"] == 1 and tsr["stratum"] == {"model": "m1", "question": "MANAGE"}
    assert tsr["floor"] == 0.05 and tsr["raw"] == 0.35 and tsr["n_cases"] == 8 and tsr["p_adj"] == 0.004
    with files.findings_csv.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == list(FINDING_FIELDS)
    assert [r["kind"] for r in rows] == ["finding"] * 5 + ["inconclusive"]
    assert rows[1]["stratum"] == "model=m1; question=MANAGE" and rows[5]["n_needed"] == "155"
    # the page: Findings is the first section, listed first in the contents, sentences in rank order
    html = files.html.read_text(encoding="utf-8")
    assert re.findall(r'<section id="([^"]+)"', html)[0] == "findings"
    assert re.search(r'<nav id="toc".*?<li><a href="#([^"]+)"', html, re.S).group(1) == "findings"
    body = html.split('id="findings"', 1)[1].split("</section>", 1)[0]
    assert body.index("recall_gap for F vs M") < body.index("TSR for typo") < body.index("delta_len for F")
    assert "Judge caveat: judge &#39;treatment_annotator&#39; parsed 90 of 100" in body
    assert "about 155 cases" in body
    md = files.markdown.read_text(encoding="utf-8")  # report.md opens with the same Findings
    assert md.index("## Findings") < md.index("## ") + 1 and "1. recall\\_gap for F vs M" not in md
    assert "\n1. recall_gap for F vs M (task sepsis, attribute gender): -45.0 pp" in md
    assert "### Inconclusive\n\n1. TSR for lowercase" in md


def test_no_results_and_no_findings(tmp_path):
    empty = RunDir(tmp_path / "bare")
    empty.start(spec={"audit": "bare"}, models=[], seeds=[0], command="t")
    empty.finish(usage={}, audit="bare", status="complete", summary={})
    empty.close()
    files = build_report([empty.path], tmp_path / "r.html")
    assert files.findings_json == tmp_path / "r-findings.json" and files.findings_csv == tmp_path / "r-findings.csv"
    doc = json.loads(files.findings_json.read_text(encoding="utf-8"))
    assert doc["findings"] == [] and doc["runs"][0]["has_results"] is False
    # a run with no results measured nothing: never "no effect is significant" (issue 30)
    html = files.html.read_text(encoding="utf-8")
    assert "No effect is significant within its correction family" not in html
    assert doc["headline"] == "Nothing was measured: no usable pairs (tables/paired.csv is empty)."
    assert doc["verdicts"][0]["verdict"] == "not_measured" and "No findings: nothing was measured" in html


def test_broken_results_table_does_not_break_the_report(tmp_path):
    rd = RunDir(tmp_path / "broken")
    rd.start(spec={"audit": "broken"}, models=[], seeds=[0], command="t")
    rd.write_table("results", pd.DataFrame({"metric": ["x"], "nothing": [1]}))
    rd.finish(usage={}, audit="broken", status="complete", summary={})
    rd.close()
    files = build_report([rd.path], tmp_path / "report.html")
    html = files.html.read_text(encoding="utf-8")
    assert "Findings problem:" in html and "results.csv" in html and "field &#39;value&#39;" in html
    assert files.findings_json is None


def test_malicious_names_are_escaped_and_neutralised(tmp_path):
    sys.path.insert(0, str(Path(__file__).parent))
    from test_report_security import BAD, assert_inert

    formula = "=HYPERLINK(\"http://x\")"
    rows = [dict(audit="evil", metric=f"rate {BAD}", group=formula, reference=BAD, value=0.4, ci_low=0.3, ci_high=0.5,
                 n=20, test=BAD, p=0.001, p_adj=0.002, correction="bonferroni", family=BAD, model=BAD,
                 judge_model=BAD)]
    rel = pd.DataFrame({"judge": [BAD], "judge_model": [BAD], "n": [3], "parse_rate%": [100.0], "reliability": [BAD]})
    run = _run(tmp_path, "evil", "evil", rows, {"judge_reliability": rel})
    files = build_report([run], tmp_path / "report.html", title="t")
    html = files.html.read_text(encoding="utf-8")
    assert_inert(html)
    findings = html.split('id="findings"', 1)[1].split("</section>", 1)[0]
    assert findings.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 5  # metric, reference, model, test, family, caveat
    assert "&lt;img src=x onerror=alert(1)&gt;" in findings
    with files.findings_csv.open(encoding="utf-8", newline="") as fh:
        (row,) = list(csv.DictReader(fh))
    assert row["group"] == "'" + formula  # neutralised like every export
    doc = json.loads(files.findings_json.read_text(encoding="utf-8"))
    assert doc["findings"][0]["group"] == formula  # the JSON keeps the exact value
    md = files.markdown.read_text(encoding="utf-8").split("## Findings", 1)[1].split("\n## ", 1)[0]
    assert "<script" not in md and "<img" not in md and "&lt;script&gt;alert(1)&lt;/script&gt;" in md


# --------------------------------------------------------------------------- inconclusive: what the data could show

def _tiny_rows() -> list[dict]:
    common = dict(audit="tiny", metric="TSR", reference="baseline (minus noise floor)", test=PERM,
                  correction="bonferroni", family="F", model="m")
    return [
        # 2 cases, both changed: the bootstrap CI collapses to [0.5, 0.5] and the exact sign-flip p is 0.5.
        # Nothing can be significant with 2 cases: the smallest p is 2 / 2^2 = 0.5 (x 3 tests under bonferroni).
        dict(common, group="typo", value=0.5, ci_low=0.5, ci_high=0.5, n=4, n_cases=2, n_test_cases=2, p=0.5,
             p_adj=1.0),
        # 20 cases, none changed: CI [0, 0], p = 1. The test could detect an effect (2/2^20), but a zero-width
        # bootstrap CI says nothing: the exact bound for "0 of 20 cases" is 1 - 0.025^(1/20) = 16.8 pp > 5 pp.
        dict(common, group="uppercase", value=0.0, ci_low=0.0, ci_high=0.0, n=40, n_cases=20, n_test_cases=20,
             p=1.0, p_adj=1.0),
        # 200 cases, none changed: the exact bound 1 - 0.025^(1/200) = 1.8 pp <= margin: conclusive, not listed
        dict(common, group="lowercase", value=0.0, ci_low=0.0, ci_high=0.0, n=400, n_cases=200, n_test_cases=200,
             p=1.0, p_adj=1.0),
        # a gap between 1 female and 1 male case: 2 relabellings, the permutation test's smallest p is 1
        dict(common, metric="TSR_gap", group="female", reference="male", test="permutation of subgroup labels "
             "over cases", value=0.0, ci_low=0.0, ci_high=0.0, n=4, n_cases_female=1, n_cases_male=1, p=1.0,
             p_adj=1.0, family="G"),
    ]


def test_inconclusive_when_the_test_cannot_reach_significance_or_every_case_agrees(tmp_path):
    """On main's rule (CI half-width > margin only) none of these rows was listed: the demo's treatment-shift
    and note-generation runs (2–3 cases, collapsed bootstrap CIs) had no Findings entry at all."""
    from scipy.stats import beta

    run = _run(tmp_path, "tiny", "tiny", _tiny_rows())
    doc = derive_findings([run])
    assert doc["findings"] == []
    got = {e["group"]: e for e in doc["inconclusive"]}
    assert set(got) == {"typo", "uppercase", "female"}  # not lowercase (200 cases agreeing)
    typo = got["typo"]
    # smallest p with 2 cases = 0.5; x 3 tests in family F (bonferroni) -> 1.5 >= 0.05
    assert "smallest possible p is 0.5 × 3 tests under bonferroni" in typo["reason"]
    # cases for 2 / 2^n * 3 < 0.05: n = 7 (2/128*3 = 0.047); the exact bound needs more: 1 - 0.025^(1/n) <= 0.05
    n_bound = next(n for n in range(1, 1000) if beta.ppf(0.975, 1, n) <= 0.05)
    assert n_bound == 72 and typo["n_needed"] == max(7, n_bound)
    up = got["uppercase"]
    bound = beta.ppf(0.975, 1, 20)  # Clopper-Pearson upper bound for 0 of 20, computed independently
    assert bound == pytest.approx(1 - 0.025 ** (1 / 20))
    assert f"±{bound * 100:.1f} pp" in up["reason"] and "smallest possible p" not in up["reason"]
    assert up["n_needed"] == 72 and "inconclusive" in up["sentence"]
    assert "smallest possible p is 1" in got["female"]["reason"]
    by_dir = {r["run_dir"]: r for r in doc["runs"]}
    assert by_dir[str(run)]["skipped"]["not_significant"] == 1  # lowercase


def test_findings_link_side_by_side_examples_of_their_cases(tmp_path):
    """A finding on perturbation 'typo' shows the model's baseline and typo answers of the cases whose answers
    differ most (at most three), in the page and in findings.json."""
    rows = [dict(audit="shift_audit", metric="TSR", group="typo", reference="baseline (minus noise floor)",
                 value=0.75, ci_low=0.5, ci_high=1.0, n=4, n_cases=4, test=PERM, p=0.01, correction="",
                 family="", model="m1")]
    cases = ["c1", "c2", "c3", "c4"]
    variants = pd.DataFrame({
        "variant_id": [f"{c}::baseline" for c in cases] + [f"{c}::typo" for c in cases],
        "case_id": cases * 2, "family": ["baseline"] * 4 + ["perturbation"] * 4,
        "name": ["baseline"] * 4 + ["typo"] * 4, "text": [f"input {c}" for c in cases] * 2})
    base = "Please come to the clinic today so we can examine you"
    typo_answers = {"c1": base, "c2": "Stay home and rest <script>x</script>", "c3": "Please stay home today",
                    "c4": "Stay at home, drink fluids and rest; nothing to worry about"}
    responses = pd.DataFrame({
        "request_key": [f"k{i}" for i in range(10)], "stage": ["target"] * 8 + ["judge", "judge"],
        "model": ["m1"] * 10, "case_id": cases * 2 + ["c1", "c2"],
        "variant_id": [f"{c}::baseline" for c in cases] + [f"{c}::typo" for c in cases] + ["c1::typo", "c2::typo"],
        "seed": [0] * 10, "text": [base] * 4 + [typo_answers[c] for c in cases] + ["VISIT [NO]", "VISIT [NO]"]})
    run = _run(tmp_path, "ex", "shift_audit", rows, {"variants": variants, "responses": responses})
    files = build_report([run], tmp_path / "report.html")
    doc = json.loads(files.findings_json.read_text(encoding="utf-8"))
    (f,) = doc["findings"]
    # ranked by how much the typo answer differs from the baseline answer: c4 and c2 share no word, then c3
    assert [x["case_id"] for x in f["examples"]] == ["c2", "c4", "c3"]
    html = files.html.read_text(encoding="utf-8")
    block = html.split('id="findings"', 1)[1].split('id="summary"', 1)[0]
    for x in f["examples"]:
        assert f'id="{x["id"]}"' in block and f'href="#{x["id"]}"' in block
    assert "&lt;script&gt;x&lt;/script&gt;" in block and "<script>x" not in block and "VISIT [NO]" not in block
    assert "3 side-by-side examples" in block


def test_a_control_arm_is_not_called_a_noise_floor(tmp_path):
    """Note generation's ΔBL has the baseline notes' rate as its floor: the sentence names the baseline."""
    row = dict(audit="note_generation", metric="ΔBL", group="Black", reference="baseline", value=-50.0, raw=50.0,
               floor=100.0, ci_low=-80.0, ci_high=-20.0, n=12, n_cases=12, test=PERM, p=0.001, p_adj=0.002,
               correction="bonferroni", family="ΔBL")
    (e,) = derive_findings([_run(tmp_path, "ng", "note_generation", [row])])["findings"]
    assert "-50.0 pp against baseline's 100.0% (95% CI -80.0 pp to -20.0 pp" in e["sentence"]
    assert "noise floor" not in e["sentence"]


def test_every_measured_effect_row_is_listed_even_without_a_test(tmp_path):
    """Issue 44: rows every case agreed on get no test (no p-value); the run calls them inconclusive, and they were
    missing from the findings list and findings.json (the headline counted 60 effects, the list 30). Each measured
    effect row is now a finding or an inconclusive entry, with the run's reason and the cases that would settle it:
    10 cases, none flips, exact bound above 5 pp -> 72 cases (1 - 0.025^(1/72) < 0.05)."""
    rows = [dict(audit="treatment_shift", metric="TSR", group=g, reference="baseline", value=0.0, n=10, n_cases=10,
                 n_units=10, ci_low=0.0, ci_high=0.0, test="", p=float("nan"), p_adj=float("nan"),
                 correction="bonferroni", family="f", effect=True, verdict="inconclusive", margin=0.05,
                 verdict_reason="no unit of 10 shows the effect, but the exact bound 0.308 is not below the margin "
                                "0.05: more units needed") for g in ("typo", "uppercase")]
    rows.append(dict(rows[0], metric="accuracy", effect=False, verdict="inconclusive", group="", reference=""))
    rows.append(dict(rows[0], group="lowercase", value=float("nan"), verdict="not_measured"))
    found, skipped = run_findings(_run(tmp_path, "r", "treatment_shift", rows))
    assert [(e["kind"], e["group"], e["n_needed"]) for e in found] == [("inconclusive", "typo", 72),
                                                                       ("inconclusive", "uppercase", 72)]
    assert "no p-value" in found[0]["sentence"] and "about 72 cases would be needed" in found[0]["sentence"]
    assert skipped["descriptive"] == 1 and skipped["not_measured"] == 1  # the level row and the unmeasured one


def test_a_classifier_gap_counts_what_would_settle_it_in_rows_of_its_smaller_group(tmp_path):
    """A classifier gap's unit is the rows (patients) of its smaller group, not cases: its CI narrows with them. A
    parity gap over 5,000 test rows, 1,000 of them in the smaller group, CI [-30, +56.24] pp (half-width 43.12 pp):
    ceil(1,000 × (0.4312 / 0.05)²) = ceil(74,373.4) = 74,374 rows in the smaller group, more than the 5,000 rows this data has, said so
    in plain words and rounded; a recall gap where every row agrees, 40 positives in the smaller group: the exact bound
    1 − 0.025^(1/40) = 8.8 pp > 5 pp, and 72 rows there would bring it under (this data has 40)."""
    from clinaudit.cli.headline import headline_lines
    from clinaudit.report.verdict_view import verdicts_view

    common = dict(audit="classifier_gaps", reference="M", group="F", test="bootstrap", correction="fdr_bh",
                  task="t1", attribute="sex", n=5000, n_group=1000, p=0.6, p_adj=0.7, verdict="inconclusive",
                  verdict_reason="interval not inside the margin",
                  effect=True, margin=0.05)
    rows = [dict(common, metric="parity_gap", family="positive_rate|sex", value=0.1312, ci_low=-0.30,
                 ci_high=0.5624, n_units=1000),
            dict(common, metric="recall_gap", family="recall|sex", value=0.0, ci_low=0.0, ci_high=0.0, p=1.0,
                 p_adj=1.0, n_units=40)]
    rd = RunDir(tmp_path / "cg")  # a finished run whose manifest carries its validity block, as a real run's does
    rd.start(spec={"audit": "classifier_gaps", "name": "cg"}, models=[], seeds=[0], command="test")
    rd.write_table("results", results_frame(rows))
    rd.manifest["validity"] = {"audit": "classifier_gaps", "models": {}, "reasons": [],
                               "cases": {"given": 5000, "used": 5000}}
    rd.finish(usage={}, audit="classifier_gaps", status="complete", summary={})
    rd.close()
    run = rd.path
    doc = derive_findings([run])
    by = {e["metric"]: e for e in doc["inconclusive"]}
    assert (by["parity_gap"]["n_needed"], by["parity_gap"]["n_needed_unit"]) == (74374, "rows in the smaller group")
    assert ("with 1000 rows in the smaller group; settling it would need about 74,000 rows in the smaller group: more "
            "than this data has (1,000 in the smaller group, 5,000 rows in all).") in by["parity_gap"]["sentence"]
    assert "cases would be needed" not in by["parity_gap"]["sentence"]
    assert by["recall_gap"]["n_needed"] == 72 and by["recall_gap"]["sentence"].endswith(
        "settling it would need about 72 rows in the smaller group (this data has 40).")
    # the first screen, run's verdict line and the gate say the same, in the same unit
    (view,) = verdicts_view(doc)
    assert view["cases_needed"] == 74374 and "cases" not in view["needed_text"]
    assert "settling them would need about 74,000 rows in the smaller group: more than this data has" in view["plain"]
    assert "about 74,000 rows in the smaller group: more than this data has" in headline_lines(run)[0]
    from clinaudit.report.gate import gate_run

    (line,) = gate_run(run, write=False).lines()
    assert line.endswith("settling its inconclusive comparisons would need about 74,000 rows in the smaller group: more "
                         "than this data has (1,000 in the smaller group, 5,000 rows in all)")


def test_a_row_without_n_cases_is_not_said_in_cases(tmp_path):
    """Issue 49 item 5: a row that counts pairs (n = 168) and no n_cases said "168 cases"; its sentence now says
    "n = 168", a row with n_cases still says cases."""
    common = dict(audit="shift_audit", metric="TSR", reference="baseline", test=PERM, correction="bonferroni",
                  family="F1", model="m1", question="MANAGE", value=0.30, ci_low=0.20, ci_high=0.40, p=0.001,
                  p_adj=0.004)
    run = _run(tmp_path, "r", "shift_audit", [dict(common, group="typo", n=168),
                                              dict(common, group="upper", n=168, n_cases=28)])
    found = {e["group"]: e for e in run_findings(run)[0]}
    assert (found["typo"]["n_cases"], found["typo"]["n_is_cases"]) == (168, False)
    assert "n = 168" in found["typo"]["sentence"] and "168 cases" not in found["typo"]["sentence"]
    assert found["upper"]["n_is_cases"] and "28 cases" in found["upper"]["sentence"]
