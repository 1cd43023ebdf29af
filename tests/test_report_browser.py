"""The report in a real browser: headless Debian Chromium opens it, every section renders,
no script error or alert fires, and a screenshot is produced.

Needs ``/usr/bin/chromium`` (Debian package ``chromium``; ``apt-get install chromium``);
skipped with that reason when it is missing. Run with ``pytest -m browser``.
The page's own script writes script errors, failed loads, CSP violations,
``console.error`` and ``alert`` calls into ``<html data-js-errors>``, and sets
``data-js-ready`` once it ran; the tests read both from the DOM Chromium dumps after
the scripts ran, and also look for "Uncaught" in Chromium's console log.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clinaudit.report.base import get_section_builder
from clinaudit.report.render import build_report
from clinaudit.report.runs import audit_of

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("headless Chromium not found at /usr/bin/chromium (install the Debian package: "
                "apt-get install chromium)", allow_module_level=True)


def chromium(page: Path, tmp: Path, *extra: str, timeout: int = 180) -> subprocess.CompletedProcess:
    """Run headless Chromium on ``page`` (no network, throwaway profile) with ``extra`` flags."""
    profile = tmp / f"chromium-profile-{len(list(tmp.glob('chromium-profile-*')))}"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
           "--virtual-time-budget=5000", *extra, page.resolve().as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def dump_dom(page: Path, tmp: Path) -> tuple[str, str]:
    proc = chromium(page, tmp, "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, proc.stderr


def console_problems(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if "CONSOLE" in ln and re.search(r"Uncaught|Refused|Error", ln)]


def html_attr(dom: str, name: str) -> str | None:
    m = re.search(r"<html\b[^>]*\s" + re.escape(name) + r'="([^"]*)"', dom)
    return m.group(1) if m else None


def check_page(page: Path, tmp: Path, run_dirs: list[Path], expect_fallback: tuple[str, ...] = ()) -> str:
    """Open ``page``; assert every run's section rendered (as its builder's section, except the audits
    in ``expect_fallback``) and no script problem. Returns the DOM."""
    import json

    dom, stderr = dump_dom(page, tmp)
    assert html_attr(dom, "data-js-errors") == "", html_attr(dom, "data-js-errors")
    assert not console_problems(stderr), console_problems(stderr)
    sections = re.findall(r'<section id="([^"]+)" class="audit" data-section="([^"]+)" data-rendered="(\w+)"', dom)
    assert html_attr(dom, "data-js-ready") == str(len(sections) + 2)  # + the findings and the summary
    assert 'id="summary"' in dom and 'id="toc"' in dom
    # Findings first: the first section of the page and the first entry of the contents
    main = dom.split('<main id="top">', 1)[1]
    assert re.findall(r'<section id="([^"]+)"', main)[:2] == ["findings", "summary"]
    assert re.search(r'<nav id="toc".*?<li><a href="#([^"]+)"', dom, re.S).group(1) == "findings"
    assert "<h2>Findings</h2>" in main.split('id="summary"', 1)[0]
    audits = [audit_of(json.loads((d / "manifest.json").read_text())) for d in run_dirs]
    assert sorted(a for _, a, _ in sections) == sorted(audits)
    for anchor, audit, rendered in sections:
        assert f'href="#{anchor}"' in dom  # listed in the contents
        if audit in expect_fallback:
            assert rendered == "fallback"
        elif get_section_builder(audit) is not None:
            note = re.search(r'<section id="' + re.escape(anchor) + r'".*?Section problem:</strong>(.*?)</p>', dom, re.S)
            assert rendered == "section", f"{audit}: section fell back: {note.group(1).strip() if note else '?'}"
    return dom


def _mock_runs(base: Path) -> list[Path]:
    """Run dirs in seconds: every examples/*-mock.yaml, the classifier-gaps demo (no model calls), a generate run."""
    from clinaudit.cli.main import main
    from clinaudit.demo import demo_spec_for
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    runs = []
    for spec_file in sorted((ROOT / "examples").glob("*-mock.yaml")):
        out = base / spec_file.stem
        run_spec(spec_file, out, progress=False)
        runs.append(out)
    try:
        spec = demo_spec_for("classifier_gaps", quick=True)
    except ModuleNotFoundError:
        spec = None
    if spec is not None:
        s, params = parse_spec_dict(spec, "classifier_gaps demo")
        run_spec(s, base / "classifier_gaps", params=params, progress=False)
        runs.append(base / "classifier_gaps")
    src = base / "questions.csv"
    src.write_text("id,text\nq1,Is a temperature of 38.5 C a fever?\nq2,Should I take ibuprofen?\n", encoding="utf-8")
    assert main(["generate", "--input", str(src), "--id-column", "id", "--text-column", "text", "--model", "mock",
                 "--samples", "2", "--out", str(base / "generate"), "--no-progress"]) == 0
    runs.append(base / "generate")
    return runs


@pytest.fixture(scope="module")
def mock_report(tmp_path_factory) -> tuple[Path, list[Path]]:
    base = tmp_path_factory.mktemp("browser-runs")
    runs = _mock_runs(base / "runs")
    return build_report(runs, base / "report.html").html, runs


def test_every_section_renders_without_script_errors(mock_report, tmp_path):
    page, runs = mock_report
    dom = check_page(page, tmp_path, runs)
    assert dom.count("<script") == 1


def test_findings_section_first_with_its_files(mock_report, tmp_path):
    import json

    page, runs = mock_report
    doc = json.loads((page.parent / "findings.json").read_text(encoding="utf-8"))
    assert (page.parent / "findings.csv").is_file()
    assert {Path(r["run_dir"]) for r in doc["runs"]} == set(runs)
    dom = check_page(page, tmp_path, runs)
    findings = dom.split('<section id="findings"', 1)[1].split("</section>", 1)[0]
    for e in doc["findings"]:  # every finding shows, in rank order, linked to an anchor of the page
        assert f'id="finding-{e["rank"]}"' in findings
        assert f'id="{e["table_anchor"]}"' in dom
    if doc["inconclusive"]:
        assert "Inconclusive (" in findings


def test_screenshot(mock_report, tmp_path):
    from PIL import Image

    page, _ = mock_report
    png = tmp_path / "report.png"
    proc = chromium(page, tmp_path, f"--screenshot={png}", "--window-size=1280,2400", "--hide-scrollbars")
    assert proc.returncode == 0 and png.is_file(), proc.stderr[-2000:]
    with Image.open(png) as im:
        assert im.size == (1280, 2400)
        colors = im.convert("RGB").resize((64, 120)).getcolors(64 * 120)
        assert colors is not None and len(colors) > 20  # not a blank page


def test_malicious_output_stays_text_in_the_browser(tmp_path):
    sys.path.insert(0, str(Path(__file__).parent))
    from test_report_security import make_malicious_runs

    runs = make_malicious_runs(tmp_path / "runs")
    page = build_report(runs, tmp_path / "report.html").html
    dom = check_page(page, tmp_path, runs, expect_fallback=("test_malicious_error",))
    body = dom.split("<body", 1)[1]
    assert "<img" not in body.lower() and "<b>" not in body
    assert body.count("<script") == 0 and "alert:" not in (html_attr(dom, "data-js-errors") or "")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body


@pytest.mark.slow
def test_quick_demo_report_in_the_browser(tmp_path):
    """``clinaudit demo --quick`` with the embedded models (minutes), then its report in Chromium."""
    out = tmp_path / "demo"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.run([sys.executable, "-m", "clinaudit", "demo", "--quick", "--out", str(out), "--no-progress"],
                          capture_output=True, text=True, timeout=1800, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr[-4000:]
    page = out / "report.html"
    lines = proc.stdout.strip().splitlines()
    assert f"report: {page}" in lines
    runs = sorted(p.parent for p in out.glob("*/manifest.json"))
    assert len(runs) == 5
    # the demo ends with each audit's first-screen verdict per model and what the gate would decide on it
    assert {ln.split()[1].rstrip(":") for ln in lines if ln.startswith("verdict ")} == {r.name for r in runs}
    assert sum(ln.startswith("gate: `clinaudit gate ") for ln in lines) == 5 and lines[-1].startswith("gate: ")
    check_page(page, tmp_path, runs)
    # issue 20: findings.json has an entry (finding or inconclusive) for every audit of the demo
    import json

    doc = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    per_audit = {r["audit"]: r["findings"] + r["inconclusive"] for r in doc["runs"]}
    assert len(per_audit) == len(runs) and all(per_audit.values()), per_audit
    png = tmp_path / "demo.png"
    shot = chromium(page, tmp_path, f"--screenshot={png}", "--window-size=1280,2400", "--hide-scrollbars")
    assert shot.returncode == 0 and png.stat().st_size > 10_000
    # issue 34: the demo report fits in about 12,000 px at 1,400 px, nothing overflows; 12,010 px measured since
    # issue 49's counts name every verdict's comparisons in its coverage cell (508aaf6); 12,156 px since the
    # treatment-shift section says what de-identification changed, by group (a line and a two-row table;
    # clinaudit.deid_groups, issue 50's twentieth session): held to 12,200 px
    m = measure(page, tmp_path)
    assert m["height"] <= 12_200 and m["scrollWidth"] <= m["innerWidth"], m


def make_large_generate_run(path: Path, n_responses: int = 100_000) -> Path:
    """A synthetic ``clinaudit generate`` run directory with ``n_responses`` responses (two samples per input
    row, 40–90 words each, from a pool of 500 texts), written through RunDir like a real run."""
    import numpy as np
    import pandas as pd

    from clinaudit.rundir import RunDir

    rng = np.random.default_rng(0)
    words = np.array("the patient should rest drink fluids and call the clinic if fever persists above 38 C for "
                     "two days take ibuprofen with food <b>not</b> & \"quoted\" =SUM(A1)".split())
    pool = np.array([" ".join(words[rng.integers(0, len(words), size=k)]) for k in rng.integers(40, 90, size=500)],
                    dtype=object)
    n_ids = n_responses // 2
    df = pd.DataFrame({"id": np.repeat(np.char.add("q", np.arange(n_ids).astype(str)), 2),
                       "sample": np.tile([0, 1], n_ids), "seed": np.tile([0, 1], n_ids), "model": "mock",
                       "response": pool[rng.integers(0, len(pool), size=2 * n_ids)], "finish_reason": "stop",
                       "prompt_tokens": 20, "completion_tokens": rng.integers(40, 90, size=2 * n_ids),
                       "cached": False, "error": None})
    rd = RunDir(path)
    rd.start(spec={"command": "generate", "id_column": "id", "model": "mock", "samples": 2, "temperature": 0.7,
                   "input": "synthetic.csv"}, models=[{"spec": "mock"}], seeds=[0, 1], command="generate")
    rd.write_table("responses", df)
    rd.finish(usage={}, audit="generate", status="complete", summary={"responses": len(df)})
    rd.close()
    return path


@pytest.mark.slow
def test_a_100k_response_run_renders_small_fast_and_responsive(tmp_path):
    """Issue 20 item 4: 100,000 responses -> under a minute, an HTML file under 20 MB that Chromium opens
    without script errors; the table shows its first rows and the full CSV is a file next to the report."""
    import time

    import pandas as pd

    run = make_large_generate_run(tmp_path / "big")
    t0 = time.perf_counter()
    files = build_report(run, tmp_path / "report.html")
    render_s = time.perf_counter() - t0
    size = files.html.stat().st_size
    print(f"\n100k responses: render {render_s:.1f} s, report.html {size / 1e6:.2f} MB")
    assert render_s < 60 and size < 20_000_000
    html = files.html.read_text(encoding="utf-8")
    assert "first 200 of 100000 rows; the CSV has all of them" in html
    assert [p.name for p in files.downloads] == ["generate-responses.csv"]
    assert 'href="report-files/generate-responses.csv"' in html
    full = pd.read_csv(files.downloads[0])
    assert len(full) == 100_000 and full["response"].str.startswith("=").sum() == 0  # formula cells neutralised
    t0 = time.perf_counter()
    dom = check_page(files.html, tmp_path, [run])
    open_s = time.perf_counter() - t0
    print(f"Chromium: page loaded and its script ran in {open_s:.1f} s")
    assert open_s < 60 and dom.count("<tr>") < 1_000  # the page holds only the shown rows


def test_compare_report_in_the_browser(tmp_path):
    """``clinaudit compare``'s report: Findings first, no script error, every example it links exists."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_compare import _run

    from clinaudit.report.compare import compare_runs

    a = _run(tmp_path, "a", [0] * 8, model="old")
    b = _run(tmp_path, "b", [1] * 8, model="new", texts={"c00": "<script>alert(1)</script>stay home"})
    comp = compare_runs(a, b, tmp_path / "cmp", n_resamples=200)
    dom, stderr = dump_dom(comp.files["html"], tmp_path)
    assert html_attr(dom, "data-js-errors") == "" and not console_problems(stderr)
    assert html_attr(dom, "data-js-ready") == "4"  # findings, comparability, metrics, examples
    main = dom.split('<main id="top">', 1)[1]
    assert re.findall(r'<section id="([^"]+)"', main) == ["findings", "comparability", "metrics", "examples"]
    findings = main.split('id="comparability"', 1)[0]
    assert "B is WORSE on TSR" in findings
    for anchor in re.findall(r'href="#([^"]+)"', findings):
        assert f'id="{anchor}"' in dom
    assert "<script>alert" not in dom.split("<body", 1)[1]


def test_a_run_whose_judge_parses_nothing_says_so_first(tmp_path):
    """Issue 30: a judge that cannot parse any answer → exit 3, status not complete, `not_measured` in results
    and findings, and the report's first sentence names the parse rate (in the browser)."""
    import json

    import pandas as pd
    import yaml

    from clinaudit.cli.main import main

    cases = tmp_path / "cases.csv"
    cases.write_text("case_id,message\n" + "".join(f"c{i},Patient CASE{i} reports a mild cough.\n"
                                                     for i in range(30)), encoding="utf-8")
    spec = {"audit": "treatment_shift", "name": "nothing-parses",
            "data": [{"format": "csv", "path": str(cases), "columns": {"id": "case_id", "text": "message"}}],
            "models": {"target": "mock:t", "judge": "mock:j"},
            "backends": {"mock:t": {"answer": "Rest and fluids."}, "mock:j": {"answer": "I cannot tell."}},
            "params": {"perturbations": ["uppercase"], "seeds": [0], "n_resamples": 50,
                       "gender_inference_on": "baseline", "filter_sex_specific": False}}
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    run = tmp_path / "run"
    assert main(["run", str(tmp_path / "spec.yaml"), "--out", str(run), "--no-progress", "--report"]) == 3
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"].startswith("not measured: the judge 'treatment_annotator' could parse 0 of 60")
    res = pd.read_csv(run / "tables" / "results.csv")
    assert len(res) and (res["verdict"] == "not_measured").all()
    doc = json.loads((run / "findings.json").read_text(encoding="utf-8"))
    assert doc["findings"] == [] and [v["verdict"] for v in doc["verdicts"]] == ["not_measured"]
    assert doc["validity"][str(run)]["judges"][-1]["parse_rate"] == 0.0
    dom = check_page(run / "report.html", tmp_path, [run])
    findings = dom.split('<section id="findings"', 1)[1].split("</section>", 1)[0]
    first = re.sub(r"<[^>]+>", "", re.search(r'<p class="headline"[^>]*>(.*?)</p>', findings, re.S).group(1))
    assert first.startswith("Nothing was measured: the judge 'treatment_annotator' could parse 0 of 60 answers"), \
        first
    assert findings.index('class="headline"') < findings.index("<table")  # the first thing said
    assert "No effect is significant" not in findings and "not measured" in findings


# --------------------------------------------------------------------------- issue 34: a page people can read

_PROBE = """<script>window.addEventListener('load', function () {
  var d = document.documentElement, fonts = [];
  document.querySelectorAll('svg text').forEach(function (t) {
    var r = t.getBoundingClientRect(), fs = parseFloat(getComputedStyle(t).fontSize);
    if (r.height > 0) fonts.push(fs * r.height / (t.getBBox().height || r.height));
  });
  var p = document.createElement('pre'); p.id = 'MEASURED';
  p.textContent = JSON.stringify({height: d.scrollHeight, scrollWidth: d.scrollWidth, innerWidth: innerWidth,
    svgFontPx: fonts, emptyCharts: Array.prototype.map.call(document.querySelectorAll('.empty-chart'),
      function (e) { return [e.closest('figure').id, e.textContent, e.getBoundingClientRect().height]; })});
  document.body.appendChild(p);
});</script>"""


def measure(page: Path, tmp: Path, width: int = 1400) -> dict:
    """Open a copy of ``page`` at ``width`` px with a measuring script added (the copy drops the CSP that
    would block it); returns the page's height, widths, the rendered size of every SVG label (CSS px) and
    the empty-chart sentences."""
    import html as htmllib
    import json

    text = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page.read_text(encoding="utf-8"))
    probe = page.parent / f"measure-{page.name}"
    probe.write_text(text.replace("</body>", _PROBE + "</body>"), encoding="utf-8")
    proc = chromium(probe, tmp, "--dump-dom", f"--window-size={width},900", "--hide-scrollbars")
    assert proc.returncode == 0, proc.stderr[-2000:]
    m = re.search(r'<pre id="MEASURED">(.*?)</pre>', proc.stdout, re.S)
    assert m, proc.stdout[-2000:]
    return json.loads(htmllib.unescape(m.group(1)))


#: the audits of ``clinaudit demo``
DEMO_AUDITS = ("treatment_shift", "reasoning_care", "note_generation", "association", "classifier_gaps")


def test_the_demo_like_report_fits_in_12000_px_without_horizontal_overflow(mock_report, tmp_path):
    """Issue 34: the demo's five audits (their mock runs) at 1,400 px: nothing wider than the window (wide
    tables scroll inside their card), every chart label at least 11 px, and at most 18,000 px tall (the mock
    runs hold more perturbations, tables and charts than the demo: 16,587 px measured; the demo's own
    report is held to 12,000 px by the slow quick-demo test); the whole nine-run report has no horizontal
    overflow either."""
    import json

    _, runs = mock_report
    by_audit: dict[str, Path] = {}
    for r in runs:  # one run per demo audit (the first of its mock specs)
        by_audit.setdefault(audit_of(json.loads((r / "manifest.json").read_text())), r)
    demo = [by_audit[a] for a in DEMO_AUDITS]
    page = build_report(demo, tmp_path / "demo-like.html").html
    m = measure(page, tmp_path)
    print(f"\ndemo-like report at 1400 px: {m['height']} px tall, scrollWidth {m['scrollWidth']}")
    assert m["height"] <= 18_000, m["height"]
    assert m["scrollWidth"] <= m["innerWidth"] == 1400
    assert m["svgFontPx"] and min(m["svgFontPx"]) >= 11 - 0.05, sorted(m["svgFontPx"])[:5]
    whole = measure(mock_report[0], tmp_path)
    assert whole["scrollWidth"] <= whole["innerWidth"] == 1400


def test_an_all_zero_chart_is_one_sentence(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from clinaudit.report.base import Figure, Section, register_section

    def chart(values):
        fig, ax = plt.subplots(figsize=(4, 2))
        ax.bar(["a", "b"], values)
        return fig

    @register_section("zero_chart_test")
    def _section(rundir) -> Section:
        zero = pd.DataFrame({"group": ["a", "b"], "value": [0.0, 0.0], "ci_low": [0.0, 0.0], "n": [5, 5],
                             "p": [1.0, 1.0]})
        return Section(title="Zero chart", audit="zero_chart_test", blocks=[
            Figure(title="All zero", fig=chart([0.0, 0.0]), data=zero, name="zeros"),
            Figure(title="Not zero", fig=chart([0.0, 0.2]), data=zero.assign(value=[0.0, 0.2]), name="some")])

    sys.path.insert(0, str(Path(__file__).parent))
    from test_report_render import make_run

    run = make_run(tmp_path / "z", "zero_chart_test")
    page = build_report(run, tmp_path / "report.html").html
    dom = check_page(page, tmp_path, [run])
    zeros = dom.split('id="zero-chart-test-zeros"', 1)[1].split("</figure>", 1)[0]
    some = dom.split('id="zero-chart-test-some"', 1)[1].split("</figure>", 1)[0]
    assert "<svg" not in zeros and "Every plotted value is 0" in zeros and "numbers (CSV, 2 rows)" in zeros
    assert "<svg" in some and "empty-chart" not in some
    m = measure(page, tmp_path)
    assert [e[0] for e in m["emptyCharts"]] == ["zero-chart-test-zeros"]
    assert 0 < m["emptyCharts"][0][2] < 60  # one line, not an empty box


#: statistics words that belong one click away (in a folded <details>), not on the first screen (issue 44)
JARGON = re.compile(r"effect rows?|\bunits?\b|exact bound|n_needed|\bfamil(y|ies)\b", re.I)


def measure_layout(page: Path, tmp: Path, width: int = 1400, height: int = 900) -> tuple[int, list[str], str]:
    """Open a copy of ``page`` at ``width`` × ``height`` with a probe script (the copy drops the page's CSP, which
    admits only its own script) that lists every ``.table-wrap`` scrolling sideways; returns (tables, the wide
    ones, the DOM)."""
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page.read_text(encoding="utf-8"))
    probe = ("<script>window.addEventListener('load', () => setTimeout(() => {"
             "const all = [...document.querySelectorAll('.table-wrap')];"
             "const wide = all.filter(w => w.scrollWidth > w.clientWidth + 1).map(w => ((w.querySelector('table') || w)"
             ".id || (w.closest('[id]') || {}).id || '?') + ' ' + w.clientWidth + '<' + w.scrollWidth);"
             "document.documentElement.setAttribute('data-tables', all.length);"
             "document.documentElement.setAttribute('data-wide', wide.join('|'));}, 100));</script></body>")
    copy = tmp / f"layout-{page.name}"
    copy.write_text(html.replace("</body>", probe), encoding="utf-8")
    proc = chromium(copy, tmp, f"--window-size={width},{height}", "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    wide = html_attr(dom, "data-wide")
    return int(html_attr(dom, "data-tables") or 0), [w for w in (wide or "").split("|") if w], dom


def first_screen_jargon(dom: str) -> list[str]:
    """Jargon words in the Findings section outside folded <details> elements."""
    section = dom.split('<section id="findings"', 1)[1].split('<section id="summary"', 1)[0]
    while "<details" in section:  # nested details: remove innermost first
        section = re.sub(r"<details\b(?:(?!<details\b).)*?</details>", " ", section, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", section)
    return sorted({m.group(0).lower() for m in JARGON.finditer(text)})


def test_first_screen_in_plain_words_and_no_table_scrolls_sideways(tmp_path):
    """A mock treatment-shift run that shows nothing either way (every row inconclusive, some not measured): at
    1,400 × 900 no table of its report scrolls sideways; the first screen holds no statistics jargon outside a
    folded details element, and the inconclusive verdict says how many cases would settle it."""
    import clinaudit

    judge = {"rules": [{"match": "patient's gender", "response": "GENDER [FEMALE]"},
                       {"match": ".", "response": "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]"}]}
    spec = {"audit": "treatment_shift", "name": "layout", "data": [{"format": "demo:patient_messages", "limit": 10}],
            "models": {"target": "mock:v", "judge": "mock:judge"},
            "backends": {"mock:v": {"rules": [{"match": ".", "response": "Please come in today."}]},
                         "mock:judge": judge},
            "params": {"perturbations": ["uppercase", "exclamation"], "seeds": [0], "n_resamples": 100}}
    run = clinaudit.run_audit(spec, tmp_path / "run")
    page = build_report([run.path], tmp_path / "report.html").html
    n, wide, dom = measure_layout(page, tmp_path)
    assert n >= 8 and wide == [], wide
    assert first_screen_jargon(dom) == []
    assert re.search(r"about \d+ cases would settle it", dom)
    # the statistics are one click away: the folded details of the verdict hold the test's words
    assert '<details class="stats"><summary>statistics</summary>' in dom
