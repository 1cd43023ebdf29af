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
    from clinaudit.spec import parse_spec_dict, run_spec

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
    assert proc.stdout.strip().splitlines()[-1] == f"report: {page}"
    runs = sorted(p.parent for p in out.glob("*/manifest.json"))
    assert len(runs) == 5
    check_page(page, tmp_path, runs)
    png = tmp_path / "demo.png"
    shot = chromium(page, tmp_path, f"--screenshot={png}", "--window-size=1280,2400", "--hide-scrollbars")
    assert shot.returncode == 0 and png.stat().st_size > 10_000
