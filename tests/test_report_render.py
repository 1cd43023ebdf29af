"""Report renderer: formatting, diffs, SVG sanitising, sections, fallbacks and exports (fast, no models)."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.report.base import Compare, Figure, Metric, Section, Table, Text, register_section
from clinaudit.report.formatting import display_frame, format_value
from clinaudit.report.render import build_report, discover_run_dirs, render_report
from clinaudit.report.svg import sanitize_svg
from clinaudit.report.textdiff import diff_segments
from clinaudit.rundir import RunDir


# --------------------------------------------------------------------------- helpers

def make_run(path: Path, audit: str, tables: dict[str, pd.DataFrame] | None = None, *, summary=None,
             status: str = "complete", name: str = "") -> Path:
    rd = RunDir(path)
    rd.start(spec={"audit": audit, "name": name or f"{audit}-test", "models": {"target": "mock"},
                   "data": [{"format": "demo:patient_messages", "limit": 3}]},
             models=[{"spec": "mock"}], seeds=[0], command="test")
    for tname, df in (tables or {}).items():
        rd.write_table(tname, df)
    rd.finish(usage={"mock": {"calls": 5, "cache_hits": 2, "failures": 1, "retries": 0, "prompt_tokens": 40,
                              "completion_tokens": 10, "wall_s": 0.1}},
              audit=audit, status=status, summary=summary or {})
    rd.close()
    return path


def _line_figure(title: str = "A figure"):
    from matplotlib.figure import Figure as MplFigure

    fig = MplFigure(figsize=(3, 2))
    ax = fig.add_subplot(1, 1, 1)
    ax.plot([0, 1, 2], [1, 3, 2])
    ax.set_title(title)
    return fig


@register_section("test_blocks")
def _blocks_section(rundir) -> Section:
    df = rundir.read_table("results")
    return Section(
        title="Synthetic section with every block",
        audit="test_blocks",
        summary={"judge parse rate": 0.975, "cases": 3},
        blocks=[
            Text("First paragraph.\n\nSecond paragraph."),
            Text("A note.", kind="note"),
            Metric(label="gap", value=0.1234, n=40, ci=(0.01, 0.2), test="paired bootstrap", p=0.00001234,
                   p_adj=0.0002, family="gaps|model"),
            Table(title="Results", df=df, caption="results table", name="results"),
            Table(title="Long table", df=pd.DataFrame({"i": range(30)}), max_rows=10),
            Figure(title="Line", fig=_line_figure(), data=pd.DataFrame({"x": [0, 1, 2], "y": [1, 3, 2]})),
            Compare(title="Variants", case_id="c1",
                    variants={"baseline": "The patient has chest pain.", "typo": "The patiant has chest pain!"},
                    highlight=["chest pain"]),
        ],
    )


@register_section("test_broken")
def _broken_section(rundir) -> Section:
    raise RuntimeError("boom <b>bold</b>")


@pytest.fixture()
def results_df() -> pd.DataFrame:
    return pd.DataFrame({
        "group": ["a", "b"], "value": [0.5, 0.25], "n": [10, 12], "ci_low": [0.4, 0.1], "ci_high": [0.6, 0.3],
        "test": ["t", "t"], "p": [0.0000123, 0.2], "p_adj": [0.0000246, 0.4], "family": ["f", "f"],
    })


# --------------------------------------------------------------------------- formatting

def test_format_value_kinds():
    assert format_value(None) == "–"
    assert format_value(float("nan")) == "–"
    assert format_value(3) == "3"
    assert format_value(3.0) == "3"
    assert format_value(0.1234, "num") == "0.123"
    assert format_value(12.3456) == "12.35"
    assert format_value(0.000012, "p") == "1.2e-05"
    assert format_value(0.0312, "p") == "0.031"
    assert format_value(0.975, "pct") == "97.5%"
    assert format_value("<b>") == "<b>"  # strings pass through (escaped later by Jinja)
    assert format_value(True) == "yes"
    # floating-point noise is no result (issue 44: a drift excess of 3.70e-17, a CI [0, 1.11e-16]); p-values keep it
    assert format_value(3.7e-17) == "0" and format_value(-1.11e-16, "num") == "0"
    assert format_value(2.5e-9) == "2.50e-09" and format_value(1e-13, "p") == "1.0e-13"
    from clinaudit.report.findings import _fmt

    assert _fmt(3.7e-17, "other") == "0" and _fmt(-1e-16, "proportion") == "0.0 pp" and _fmt(0.02, "proportion") == \
        "+2.0 pp"


def test_display_frame_merges_ci_and_formats(results_df):
    disp, kinds = display_frame(results_df)
    assert list(disp.columns) == ["group", "value", "n", "95% CI", "test", "p", "p_adj", "family"]
    assert disp["95% CI"].tolist() == ["[0.400, 0.600]", "[0.100, 0.300]"]
    assert disp["p"].tolist() == ["1.2e-05", "0.200"]
    assert kinds["p"] == "p" and kinds["n"] == "int"


def test_display_frame_prints_a_monte_carlo_bound_as_less_than():
    # p_method "bound": no permutation draw was as extreme, p = 1/(N+1) is an upper bound (issue 28)
    df = pd.DataFrame({"metric": ["a", "b", "c"], "p": [1 / 10_000, 0.0333, float("nan")],
                       "p_adj": [3 / 10_000, 0.0999, float("nan")], "p_method": ["bound", "exact", "bound"]})
    disp, _ = display_frame(df)
    assert disp["p"].tolist() == ["< 1.0e-04", "0.033", "–"]
    assert disp["p_adj"].tolist() == ["< 3.0e-04", "0.100", "–"]
    clipped = pd.DataFrame({"p": [0.4], "p_adj": [1.0], "p_method": ["bound"]})
    assert display_frame(clipped)[0]["p_adj"].tolist() == ["1.000"]  # an adjusted p clipped at 1 is not "< 1"


def test_display_frame_percent_and_prefixed_ci():
    df = pd.DataFrame({"model": ["m"], "parse_rate": [0.5], "BL%": [12.5], "BL%_ci_low": [10.0],
                       "BL%_ci_high": [15.0]})
    disp, _ = display_frame(df)
    assert disp["parse_rate"].iloc[0] == "50.0%"
    assert disp["BL%"].iloc[0] == "12.50"
    assert disp["BL% 95% CI"].iloc[0] == "[10, 15]" or disp["BL% 95% CI"].iloc[0] == "[10.00, 15.00]"


def test_display_frame_index_handling():
    df = pd.DataFrame({"x": [1.5, 2.5]}, index=[7, 9])  # filtered rows: unnamed index dropped
    disp, _ = display_frame(df)
    assert list(disp.columns) == ["x"]
    named = pd.DataFrame({"x": [1.5]}, index=pd.Index(["r1"], name="row"))
    disp, _ = display_frame(named)
    assert list(disp.columns) == ["row", "x"]
    multi = pd.DataFrame([[1, 2]], columns=pd.MultiIndex.from_tuples([("gpt", "BL%"), ("gpt", "ΔCF")]),
                         index=pd.Index(["Poverty"], name="context"))
    disp, _ = display_frame(multi)
    assert isinstance(disp.columns, pd.MultiIndex) and disp.iloc[0].tolist() == ["Poverty", "1", "2"]


def test_diff_segments_marks_insertions_deletions_and_terms():
    segs = diff_segments("The patient has severe chest pain.", "The patient has chest pain.", ["chest pain"])
    ins = "".join(s["text"] for s in segs if s["ins"])
    assert ins == "severe"
    assert any(s["mark"] and "chest pain" in s["text"] for s in segs)
    segs = diff_segments("The patient has pain.", "The patient has chest pain.")
    assert [s["text"] for s in segs if s["del"]] == ["chest"]
    assert "".join(s["text"] for s in segs if not s["del"]) == "The patient has pain."
    assert not any(s["ins"] or s["del"] for s in diff_segments("same text", "same text"))


def test_sanitize_svg_removes_active_content():
    svg = ('<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
           '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'
           '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">'
           '<!-- --><script>alert(2)</script>--><script>alert(1)</script> -->'
           '<script>alert(3)</script><foreignObject><div>x</div></foreignObject>'
           '<defs><clipPath id="c1"><rect width="1" height="1"/></clipPath></defs>'
           '<g clip-path="url(#c1)" onclick="alert(4)"><text>&lt;script&gt;alert(5)&lt;/script&gt;</text></g>'
           '<use xlink:href="#c1"/><use xlink:href="http://evil/x.svg#a"/>'
           '<image xlink:href="javascript:alert(6)"/></svg>')
    out = sanitize_svg(svg, "f1-")
    assert "<script" not in out and "alert(2)" not in out and "alert(3)" not in out
    assert "onload" not in out and "onclick" not in out and "foreignObject" not in out
    assert "javascript:" not in out and "evil" not in out and "<!--" not in out
    assert 'id="f1-c1"' in out and "url(#f1-c1)" in out and 'href="#f1-c1"' in out
    assert "&lt;script&gt;alert(5)" in out


# --------------------------------------------------------------------------- rendering

def test_render_every_block(tmp_path, results_df):
    run = make_run(tmp_path / "r1", "test_blocks", {"results": results_df, "cases": pd.DataFrame({"case_id": [1]})})
    out = render_report(run)
    assert out == run / "report.html"
    html = out.read_text(encoding="utf-8")
    assert 'id="sec-test-blocks"' in html and 'data-rendered="section"' in html
    assert "Synthetic section with every block" in html
    assert "97.5%" in html  # summary: parse rate as a percentage
    assert "p = 1.2e-05" in html and "p<sub>adj</sub> = 2.0e-04" in html and "family: gaps|model" in html
    assert "95% CI [0.010, 0.200]" in html and "n = 40" in html
    assert "<svg" in html and 'class="figure-svg"' in html
    assert "<ins>severe" not in html and "<ins>patiant</ins>" in html and "<mark>chest pain</mark>" in html
    assert "Showing the first 10 of 30 rows" in html
    # CSV downloads: data URIs holding the full tables
    hrefs = re.findall(r'href="data:text/csv;charset=utf-8;base64,([A-Za-z0-9+/=]+)" download="([^"]+)"', html)
    names = {n for _, n in hrefs}
    assert {"test_blocks-results.csv", "test_blocks-long-table.csv", "test_blocks-line-numbers.csv"} <= names
    long_csv = base64.b64decode(dict((n, h) for h, n in hrefs)["test_blocks-long-table.csv"]).decode()
    assert len(long_csv.strip().splitlines()) == 31
    # self-contained: no external references
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "<link" not in html
    md = (run / "report.md").read_text(encoding="utf-8")
    tex = (run / "tables.tex").read_text(encoding="utf-8")
    assert "### Results" in md and "| group |" in md
    assert "\\begin{table}" in tex and "\\toprule" in tex


def test_fallback_without_builder_and_when_builder_fails(tmp_path, results_df):
    make_run(tmp_path / "runs" / "a", "no_such_audit", {"results": results_df})
    make_run(tmp_path / "runs" / "b", "test_broken", {"metrics": results_df})
    files = build_report(tmp_path / "runs", tmp_path / "out" / "r.html", title="T")
    html = files.html.read_text(encoding="utf-8")
    assert "no report section is registered for audit &#39;no_such_audit&#39;" in html
    assert "RuntimeError: boom &lt;b&gt;bold&lt;/b&gt;" in html and "<b>bold</b>" not in html
    assert html.count('data-rendered="fallback"') == 2
    assert "no_such_audit-results.csv" in html and "test_broken-metrics.csv" in html
    assert len(files.failed_sections) == 2
    assert files.markdown.name == "r.md" and files.latex.name == "r-tables.tex"


def test_discover_run_dirs(tmp_path, results_df):
    make_run(tmp_path / "demo" / "classifier_gaps", "classifier_gaps")
    make_run(tmp_path / "demo" / "treatment_shift", "treatment_shift")
    found = discover_run_dirs(tmp_path / "demo")
    assert [p.name for p in found] == ["treatment_shift", "classifier_gaps"]
    assert discover_run_dirs([found[1], tmp_path / "demo"]) == [found[1], found[0]]
    from clinaudit.errors import InputError

    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no manifest.json"):
        discover_run_dirs(tmp_path / "empty")
    with pytest.raises(InputError, match="no such run directory"):
        discover_run_dirs(tmp_path / "missing")


def test_summary_shows_status_calls_and_fingerprints(tmp_path):
    run = make_run(tmp_path / "r", "no_such_audit", {"cases": pd.DataFrame({"case_id": ["a", "b", "c"]})},
                   status="failed: ValueError: x")
    html = render_report(run).read_text(encoding="utf-8")
    assert ">failed<" in html and "ValueError: x" in html and 'class="badge bad"' in html
    assert "5 new, 2 cached, 1 failed" in html
    assert "format=demo:patient_messages, limit=3" in html
    assert "tables/cases.csv as used" in html


def test_cli_report(tmp_path, results_df, capsys):
    from clinaudit.cli.main import main

    run = make_run(tmp_path / "r", "test_blocks", {"results": results_df})
    assert main(["report", str(run), "--out", str(tmp_path / "x.html"), "--title", "My <title>"]) == 0
    assert capsys.readouterr().out.strip() == f"report: {tmp_path / 'x.html'}"
    html = (tmp_path / "x.html").read_text(encoding="utf-8")
    assert "<title>My &lt;title&gt;</title>" in html
    assert main(["report", str(tmp_path / "nope")]) == 2


def test_generate_run_section(tmp_path, capsys):
    from clinaudit.cli.main import main

    src = tmp_path / "in.csv"
    pd.DataFrame({"id": ["q1", "q2"], "text": ["What is a fever?", "Is 38.5 C high?"]}).to_csv(src, index=False)
    assert main(["generate", "--input", str(src), "--id-column", "id", "--text-column", "text", "--model", "mock",
                 "--samples", "2", "--out", str(tmp_path / "gen"), "--no-progress"]) == 0
    html = render_report(tmp_path / "gen").read_text(encoding="utf-8")
    assert 'id="sec-generate"' in html and 'data-rendered="section"' in html
    assert "Generated responses" in html and "sample 1 (seed 1)" in html


# --------------------------------------------------------------------------- demo runner (mock specs)

def _mock_demo_spec(audit: str, quick: bool = False):
    """A tiny treatment-shift spec on the mock backend, standing in for every recipe's demo_spec."""
    if audit == "association":
        return None  # exercises "skipped"
    if audit == "reasoning_care":
        return {"audit": "treatment_shift", "params": {"no_such_param": 1}}  # fails validation: "failed"
    return {
        "audit": "treatment_shift", "name": f"{audit}-mock", "seed": 0,
        "data": [{"format": "demo:patient_messages", "limit": 2}],
        "models": {"target": "mock:a", "judge": "mock:j"},
        "backends": {"mock:a": {"rules": [{"match": ".", "response": "Please come in today."}]},
                     "mock:j": {"rules": [{"match": ".", "response": "MANAGE [NO]\nVISIT [YES]\nRESOURCE [NO]"}]}},
        "params": {"perturbations": ["uppercase"], "seeds": [0], "n_resamples": 20, "infer_gender": False},
    }


def test_run_demo_skips_and_survives_failures(tmp_path, monkeypatch):
    import io

    import clinaudit.demo as demo

    monkeypatch.setattr(demo, "demo_spec_for", _mock_demo_spec)
    log = io.StringIO()
    res = demo.run_demo(tmp_path / "d", ["association", "reasoning_care"], progress=False, stream=log, jobs=1)
    text = log.getvalue()
    assert [o.status for o in res.outcomes] == ["skipped", "failed"]
    assert "[1/2] association: skipped" in text
    assert "[2/2] reasoning_care: FAILED" in text and "no_such_param" in text
    assert not res.ok and res.report is None and "no audit produced a run directory" in text


@pytest.mark.slow
def test_run_demo_reports_failures_and_reuses_the_cache(tmp_path, monkeypatch):
    import io

    import clinaudit.demo as demo

    monkeypatch.setattr(demo, "demo_spec_for", _mock_demo_spec)
    res = demo.run_demo(tmp_path / "d", ["treatment_shift", "association", "reasoning_care"], progress=False,
                        stream=io.StringIO(), jobs=1)
    assert [o.status for o in res.outcomes] == ["ok", "skipped", "failed"]
    assert not res.ok and res.report == tmp_path / "d" / "report.html"
    html = res.report.read_text(encoding="utf-8")
    assert "The demo could not run reasoning_care" in html and "The demo skipped association" in html
    assert (tmp_path / "d" / "treatment_shift" / "spec.yaml").is_file()
    assert res.outcomes[0].calls > 0
    res2 = demo.run_demo(tmp_path / "d", ["treatment_shift"], progress=False, stream=io.StringIO(), jobs=1)
    assert res2.ok and res2.outcomes[0].calls == 0 and res2.outcomes[0].cache_hits >= res.outcomes[0].calls


def test_run_demo_in_worker_processes_keeps_the_order_and_the_outcomes(tmp_path, monkeypatch):
    """jobs=2: the audits run in two forked worker processes; outcomes and report as with jobs=1."""
    import io

    import clinaudit.demo as demo

    monkeypatch.setattr(demo, "demo_spec_for", _mock_demo_spec)
    monkeypatch.setattr(demo, "_START_METHOD", "fork")  # the workers inherit the patched specs
    log = io.StringIO()
    res = demo.run_demo(tmp_path / "d", ["treatment_shift", "association", "reasoning_care"], progress=False,
                        stream=log, jobs=2)
    text = log.getvalue()
    assert [o.audit for o in res.outcomes] == ["treatment_shift", "association", "reasoning_care"]
    assert [o.status for o in res.outcomes] == ["ok", "skipped", "failed"]
    assert "in 2 worker processes" in text and "[1/3] treatment_shift: done in" in text
    assert "[2/3] association: skipped" in text and "[3/3] reasoning_care: FAILED" in text
    assert res.outcomes[0].calls > 0 and res.outcomes[0].seconds > 0
    assert res.report == tmp_path / "d" / "report.html" and "The demo could not run reasoning_care" in \
        res.report.read_text(encoding="utf-8")


def test_default_jobs_splits_the_cpus(monkeypatch):
    import clinaudit.demo as demo

    for cpus, n, want in [(1, 5, (1, 1)), (2, 5, (2, 1)), (4, 5, (3, 1)), (16, 5, (3, 5)), (16, 1, (1, 16))]:
        monkeypatch.setattr(demo.os, "sched_getaffinity", lambda _pid, c=cpus: set(range(c)))
        assert demo.default_jobs(n) == want


def test_thread_share_gives_the_freed_cpus_to_the_audits_left():
    # 4 CPUs, 3 workers: one thread each at first (4 // 3); with 2 audits left, 2 threads each. (The share
    # was once worked out from threads x workers = 3 CPUs, which left one CPU idle: 1 thread each.)
    from clinaudit.demo import thread_share

    assert [thread_share(4, 3, left) for left in (5, 3, 2, 1)] == [1, 1, 2, 4]
    assert [thread_share(2, 2, left) for left in (5, 1)] == [1, 2]
    assert thread_share(1, 3, 3) == 1 and thread_share(16, 3, 0) == 16


def test_quick_variant_shrinks_only_known_params():
    from clinaudit.demo import quick_variant

    spec = {"audit": "treatment_shift", "name": "x", "data": [{"format": "demo:patient_messages", "limit": 4}],
            "params": {"perturbations": ["a", "b", "c"], "seeds": [0, 1], "n_resamples": 200}}
    q = quick_variant(spec)
    assert q["data"][0]["limit"] == 2 and q["params"]["seeds"] == [0] and q["params"]["perturbations"] == ["a", "b"]
    assert q["params"]["n_resamples"] == 100 and "n_bootstrap" not in q["params"] and q["name"] == "x-quick"
    assert spec["params"]["seeds"] == [0, 1]  # the original is untouched


def test_cli_demo_rejects_unknown_audits(capsys):
    from clinaudit.cli.main import main

    assert main(["demo", "--audits", "nope", "--out", "/nonexistent/x"]) == 2
    assert "unknown demo audit(s) nope" in capsys.readouterr().err


def test_metric_and_compare_views():
    from clinaudit.report.views import PageIds, compare_view, metric_view

    assert metric_view(Metric(label="judge parse rate", value=0.975, n=40))["value"] == "97.5%"
    assert metric_view(Metric(label="ΔBL (percentage points)", value=0.5))["value"] == "0.5"
    v = compare_view(Compare(title="t", case_id="c", variants={
        "ref": "one two three four five six", "close": "one two THREE four five six",
        "far": "completely unrelated words here"}), "a", PageIds())
    close, far = v["columns"][1], v["columns"][2]
    assert not close["mostly_different"] and any(s["del"] for s in close["segments"])
    assert far["mostly_different"] and not any(s["del"] for s in far["segments"])


def test_the_first_screen_labels_the_embedded_model_a_toy():
    from clinaudit.report.verdict_view import verdicts_view

    lines = [{"audit": "treatment_shift", "model": m, "verdict": "inconclusive", "label": "inconclusive",
              "sentence": "s", "cases_used": 3, "cases_given": 3} for m in ("embedded", "openai:gpt-4o")]
    toy, real = verdicts_view({"verdicts": lines})
    assert toy["toy"].startswith("a toy model (SmolLM2-135M-Instruct, offline)") and real["toy"] == ""
    template = (Path(__file__).resolve().parents[1] / "src/clinaudit/report/templates/report.html.j2").read_text()
    assert '{% if v.toy %}<div class="small bad-text toy-model">{{ v.toy }}</div>{% endif %}' in template
