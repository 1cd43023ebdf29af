"""``clinaudit view`` in a real headless Chromium (issue 43): the system's ``/usr/bin/chromium`` (Debian package),
driven by Playwright's driver (PyPI ``playwright``; ``playwright install`` is never run, no browser is downloaded).

The viewer runs as ``clinaudit view RUN --no-browser`` (its own process, on 127.0.0.1) over a mock treatment-shift
run and a mock note-generation run whose model answers carry script payloads; the tests filter the grid to the
flipped cases of one perturbation, open a case page, follow a finding's link from the report the viewer serves,
and check that no script of a payload ran (``window.__x`` unset, no page error, no dialog). Screenshots at
1,400 x 900 go to ``test-artifacts/viewer/`` (ignored by git; ``CLINAUDIT_TEST_ARTIFACTS`` moves them).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("headless Chromium not found at /usr/bin/chromium (install the Debian package: apt-get install "
                "chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (requirements/test.txt)")
pytest.importorskip("starlette")

ARTIFACTS = Path(os.environ.get("CLINAUDIT_TEST_ARTIFACTS") or ROOT / "test-artifacts") / "viewer"
SCRIPT = "<script>window.__x=1</script>"
IMG = '<img src=x onerror="window.__x=2">'
#: the viewer renders a run's report on request: 20 s on the shared 2-core machine at load 10, over Playwright's
#: default 30 s at load 15-20
REPORT_TIMEOUT_MS = 180_000
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


def _ts_spec(base: Path) -> Path:
    import yaml

    spec = yaml.safe_load((ROOT / "examples" / "treatment_shift-mock.yaml").read_text(encoding="utf-8"))
    spec["data"][0]["limit"] = 4
    spec["params"].update({"seeds": [0, 1], "perturbations": ["exclamation", "uppercase"], "n_resamples": 50})
    spec["backends"]["mock:b"]["rules"] = [
        {"match": "[A-Z]{6,} [A-Z]{6,}", "response": f"This sounds mild. You can manage this at home. {SCRIPT}"},
        {"match": ".", "response": f"Please come to the clinic this week. {IMG}"}]
    path = base / "ts.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    from clinaudit.pipeline import run_spec

    base = tmp_path_factory.mktemp("viewer-browser")
    run_spec(_ts_spec(base), base / "ts", progress=False)
    run_spec(ROOT / "examples" / "note_generation-mock.yaml", base / "ng", progress=False)
    return base / "ts", base / "ng"


@pytest.fixture(scope="module")
def server(runs) -> Iterator[str]:
    proc = subprocess.Popen([sys.executable, "-m", "clinaudit", "view", str(runs[0]), str(runs[1]), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        text = proc.stdout.readline() + proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", text)
        assert m, text
        yield m.group(0)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = ctx.new_page()
    pg.problems = []  # page errors, dialogs (alert ...), console errors

    def dialog(d):
        pg.problems.append(f"dialog: {d.message}")
        d.dismiss()

    pg.on("pageerror", lambda e: pg.problems.append(f"pageerror: {e}"))
    pg.on("dialog", dialog)
    pg.on("console", lambda m: pg.problems.append(f"console: {m.text}") if m.type == "error" else None)
    yield pg
    ctx.close()


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    return path


def changed(page, action) -> None:
    """Do ``action`` and wait until the script has re-rendered the grid from /api/grid (no navigation)."""
    def updates() -> int:
        return int(page.evaluate("Number(document.body.getAttribute('data-updates') || 0)"))

    before = updates()
    action()
    deadline = time.monotonic() + 60  # polled from here: the page's CSP forbids the eval wait_for_function uses
    while updates() <= before:
        assert time.monotonic() < deadline, "the grid was not re-rendered"
        page.wait_for_timeout(50)


def no_payload_ran(page) -> None:
    assert page.evaluate("typeof window.__x") == "undefined"
    assert page.evaluate("document.querySelectorAll('img[src=x]').length") == 0
    assert not [p for p in page.problems if "favicon" not in p], page.problems


def test_grid_filter_to_flipped_cases_of_one_perturbation_and_open_a_case(server, page):
    page.goto(server)
    assert page.evaluate("document.documentElement.getAttribute('data-js-ready')") == "1"
    total = int(page.inner_text("#count strong"))
    assert total == 48 + 85  # 48 treatment-shift answers, 84 notes + the excluded in-context example
    shot(page, "grid-all")
    # the selects apply on change, without a reload (the page's one script re-renders the grid; issue 51)
    changed(page, lambda: page.select_option("select[name=variant]", "uppercase"))
    changed(page, lambda: page.select_option("select[name=flipped]", "1"))
    assert "variant=uppercase" in page.url and "flipped=1" in page.url
    n = int(page.inner_text("#count strong"))
    rows = page.locator("#grid tbody tr")
    assert n >= 2 and rows.count() == n
    assert all("flipped" in (rows.nth(i).get_attribute("class") or "") for i in range(n))
    # the script payload of model b's answer shows as text
    assert SCRIPT in page.inner_text("#grid")
    shot(page, "grid-flipped-uppercase")
    no_payload_ran(page)
    with page.expect_navigation():
        rows.nth(0).locator("a.case-link").click()
    assert "/case?" in page.url
    assert page.locator("section.run-view").count() == 1
    assert page.locator("td.answer.flipped").count() >= 1
    assert page.locator("details.call").count() >= 12  # the case's target and judge calls
    page.locator("details.call").first.click()
    assert "Exact request (from the cache)" in page.inner_text("details.call >> nth=0")
    shot(page, "case-treatment-shift")
    no_payload_ran(page)


def test_note_generation_grid_and_case(server, page):
    page.goto(server + "&run=ng&variant=Black&flipped=1&question=Poverty")
    assert int(page.inner_text("#count strong")) == 12
    assert page.locator("ins").count() >= 12  # the appended demographic answer, marked in the text diff
    shot(page, "grid-notes-black-poverty")
    with page.expect_navigation():
        page.locator("a.case-link").first.click()
    assert page.locator("table.variants tbody tr").count() >= 14
    shot(page, "case-note-generation")
    no_payload_ran(page)


def test_a_findings_link_in_the_report_opens_the_filtered_grid(server, page):
    page.goto(server.replace("/?", "/report?run=ts&"), timeout=REPORT_TIMEOUT_MS)
    links = page.locator(".inconclusive-item .viewer-link a")
    assert links.count() > 0
    page.locator("details.inconclusive > summary").click()
    target = page.locator(".inconclusive-item .viewer-link a[href*='variant=uppercase'][href*='mock%3Ab']").first
    assert target.is_visible()  # shown because the viewer serves the report
    shot(page, "report-served")
    with page.expect_navigation():
        target.click()
    assert "/cases?" in page.url and "variant=uppercase" in page.url
    n = int(page.inner_text("#count strong"))
    assert n == 8  # 4 cases x 2 seeds of model b's upper-cased texts
    first = page.locator("#grid tbody tr").first
    assert "flipped" in (first.get_attribute("class") or "")  # sorted flipped first
    shot(page, "grid-from-finding")
    no_payload_ran(page)


def test_static_report_hides_the_viewer_links(runs, page, tmp_path):
    from clinaudit.report.render import build_report

    files = build_report([runs[0]], tmp_path / "report.html")
    page.goto(files.html.as_uri())
    assert page.locator(".viewer-link").count() > 0
    assert page.locator(".viewer-link:visible").count() == 0


def test_two_runs_side_by_side(server, runs, tmp_path, page):
    import shutil

    import yaml

    from clinaudit.pipeline import run_spec

    spec = yaml.safe_load(_ts_spec(tmp_path).read_text(encoding="utf-8"))
    spec["backends"]["mock:b"]["rules"] = [{"match": ".", "response": "Please come to the clinic this week."}]
    (tmp_path / "v2.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    v2 = tmp_path / "ts-v2"
    run_spec(tmp_path / "v2.yaml", v2, progress=False)
    proc = subprocess.Popen([sys.executable, "-m", "clinaudit", "view", str(runs[0]), str(v2), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        url = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", proc.stdout.readline() + proc.stdout.readline())
        assert url
        page.goto(url.group(0) + "&flipped=differs")
        n = int(page.inner_text("#count strong"))
        assert n >= 4 and n % 2 == 0
        shot(page, "two-runs-grid-differs")
        with page.expect_navigation():
            page.locator("a.case-link").first.click()
        assert "run=" not in page.url  # two runs: a case link opens the case under both (A | B)
        assert page.locator("section.run-view").count() == 2
        a, b = (page.locator("section.run-view").nth(i).bounding_box() for i in range(2))
        assert abs(a["y"] - b["y"]) < 2 and b["x"] >= a["x"] + a["width"] - 1  # side by side, not one below the other
        assert page.locator("section.run-view h2").nth(0).inner_text().startswith("A · run ")
        assert page.locator("#side-by-side tr.differs-row").count() >= 1
        assert page.locator("#side-by-side td.answer.differs").count() >= 2
        shot(page, "two-runs-case")
        no_payload_ran(page)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(v2)


def test_payload_ids_and_texts_run_no_script(tmp_path, page):
    """Script and formula payloads as case ids, case texts and answers: shown as text on the grid and on each case's
    page, nothing executed."""
    from clinaudit.viewer.synthetic import make_run

    payloads = (SCRIPT, IMG, "=cmd|' /C calc'!A0", "<svg onload=window.__x=3>", "\"><script>window.__x=4</script>")
    run = make_run(tmp_path / "payloads", cases=8, perturbations=2, seeds=1, payloads=payloads)
    proc = subprocess.Popen([sys.executable, "-m", "clinaudit", "view", str(run), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        url = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", proc.stdout.readline() + proc.stdout.readline())
        assert url
        page.goto(url.group(0) + "&per_page=100")
        text = page.inner_text("#grid")
        for p in payloads:
            assert p in text  # shown exactly, as text (the formula id without the run store's prefix)
        shot(page, "payload-grid")
        no_payload_ran(page)
        links = page.locator("a.case-link")
        hrefs = sorted({links.nth(i).get_attribute("href") for i in range(links.count())})
        for href in hrefs:
            page.goto(url.group(0).split("/?")[0] + href)
            assert page.locator("#case-id").inner_text() in set(payloads) | {f"c{i:06d}" for i in range(8)}
            no_payload_ran(page)
        shot(page, "payload-case")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


# ----------------------------------------------------------------------- every finding kind's link (issue 49)

@pytest.fixture(scope="module")
def link_server(runs, tmp_path_factory) -> Iterator[str]:
    """The viewer over the treatment-shift and note-generation runs plus a CARE run (two variants compared, a drift
    of the gender pair against the control pair) and an adaptive-attack run (no grid rows)."""
    from clinaudit.pipeline import run_spec

    base = tmp_path_factory.mktemp("viewer-links")
    run_spec(ROOT / "examples" / "reasoning_care-mock.yaml", base / "rc", progress=False)
    run_spec(ROOT / "examples" / "adaptive_attack-mock.yaml", base / "aa", progress=False)
    proc = subprocess.Popen([sys.executable, "-m", "clinaudit", "view", str(runs[0]), str(runs[1]), str(base / "rc"),
                             str(base / "aa"), "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        m = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", proc.stdout.readline() + proc.stdout.readline())
        assert m
        yield m.group(0)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _grid_column(page, name: str) -> list[str]:
    """The text (first line) of one column of the grid's rows."""
    return page.evaluate("""(name) => {
        const heads = [...document.querySelectorAll('#grid thead th')].map(th => th.textContent.trim());
        const i = heads.indexOf(name);
        return [...document.querySelectorAll('#grid tbody tr')].map(tr => tr.cells[i].childNodes[0].textContent.trim());
    }""", name)


# (run, the finding's words in the report, variants its grid must show (every one of them, nothing else), the rows
# it describes: 4 cases x 2 seeds of model b for treatment shift; CARE's 27 vignettes per variant)
_KINDS = {
    "perturbation against the baseline": ("ts", "TSR for uppercase vs baseline (minus noise floor) (model mock:b",
                                          {"uppercase"}, 8),
    "gender gap within a perturbation": ("ts", "TSR_gap for female vs male (model mock:b", {"uppercase"}, 8),
    "counterfactual value against the baseline": ("ng", "ΔBL for Asian vs baseline", {"Asian"}, None),
    "largest gap between two counterfactuals": ("ng", "maxΔBL for Asian/Black vs baseline", {"Asian", "Black"}, None),
    "change of any counterfactual": ("ng", "ΔCF (model", None, None),
    "two variants against each other": ("rc", "delta_acc for male vs female (model mock:care, specialty all",
                                        {"male", "female"}, 54),
    "variant pairs against the control pair": ("rc", "drift_excess for gender vs control", {"male", "female", "id1",
                                                                                          "id2"}, 108),
}


@pytest.mark.parametrize("kind", list(_KINDS))
def test_every_finding_kinds_viewer_link_opens_the_rows_it_describes(link_server, page, kind):
    """Issue 49: a gender gap's link opened an empty grid (``variant=female``, a group of cases, not a variant). Each
    kind of finding's "cases in the viewer" link, clicked in the report the viewer serves, opens a non-empty grid of
    the variants the finding compares (a gap: its perturbation's rows, both sexes)."""
    run, words, variants, n_rows = _KINDS[kind]
    page.goto(link_server.replace("/?", f"/report?run={run}&"), timeout=REPORT_TIMEOUT_MS)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    item = page.locator("li.finding-item, li.inconclusive-item").filter(has_text=words).first
    link = item.locator(".viewer-link a")
    assert link.is_visible(), words
    with page.expect_navigation():
        link.click()
    n = int(page.inner_text("#count strong"))
    assert n > 0, page.url
    if n_rows is not None:
        assert n == n_rows, page.url
    page.goto(page.url + "&per_page=500")
    shown = set(_grid_column(page, "variant"))
    if variants is None:  # every counterfactual of the stratum, and no baseline answer alone
        assert len(shown) >= 2, shown
    else:
        assert shown == variants, (page.url, shown)
    if kind == "gender gap within a perturbation":
        assert set(_grid_column(page, "group")) == {"female", "male"}  # the rows of both groups compared
        assert set(_grid_column(page, "model")) == {"mock:b"}
    shot(page, "link-" + kind.replace(" ", "-"))
    no_payload_ran(page)


def test_a_finding_of_a_run_without_grid_rows_has_no_viewer_link(link_server, page):
    """Adaptive attack's calls name no variant, so the viewer shows none of its rows: its findings and verdict get no
    link (it would open an empty grid)."""
    page.goto(link_server.replace("/?", "/report?run=aa&"), timeout=REPORT_TIMEOUT_MS)
    assert page.locator("li.finding-item, li.inconclusive-item").count() > 0
    assert page.locator(".viewer-link").count() == 0


# --------------------------------------------------------------------------- a viewer to work in (issue 51)

def test_filters_apply_as_you_type_without_a_reload(server, page):
    page.goto(server)
    page.evaluate("window.__stay = 1")  # gone if the page reloads
    all_rows = int(page.inner_text("#count strong"))
    t = time.perf_counter()
    changed(page, lambda: page.type("input[name=q]", "come to the clinic", delay=20))
    deadline = time.monotonic() + 60  # a pause in typing on a loaded machine may update the grid midway: wait for all
    while "q=come+to+the+clinic" not in page.url or page.evaluate("document.getElementById('live-state')"
                                                                   ".textContent") != "filters apply as you type":
        assert time.monotonic() < deadline, page.url
        page.wait_for_timeout(50)
    took = time.perf_counter() - t
    n = int(page.inner_text("#count strong"))
    assert 0 < n < all_rows and "q=come+to+the+clinic" in page.url
    assert page.evaluate("window.__stay") == 1  # no reload
    rows = page.locator("#grid tbody tr")
    assert rows.count() == min(n, 50)
    assert all("clinic" in rows.nth(i).locator("td.text").nth(1).inner_text().lower() for i in range(rows.count()))
    changed(page, lambda: page.select_option("select[name=model]", "mock:b"))
    assert 0 < int(page.inner_text("#count strong")) < n and page.evaluate("window.__stay") == 1
    assert "model=mock%3Ab" in page.url
    assert took < 15
    # the grid the script rendered is the one the server renders for the same link
    shown = page.inner_text("#grid tbody")
    page.goto(page.url)
    assert page.inner_text("#grid tbody") == shown
    shot(page, "grid-live-filter")
    no_payload_ran(page)


def test_summary_band_flip_rate_per_variant_and_model(server, page):
    page.goto(server + "&run=ts")
    band = page.locator("#summary-table")
    assert band.is_visible()
    heads = band.locator("thead th").all_inner_texts()
    assert heads == ["variant", "mock:a", "mock:b"]
    cells = {r.locator("td").first.inner_text(): r.locator("td").all_inner_texts()[1:]
             for r in band.locator("tbody tr").all()}
    # model b answers 'manage at home' to upper-cased texts: its flip rate there is what the grid counts
    grid = page.context.new_page()
    grid.goto(server + "&run=ts&variant=uppercase&model=mock:b&flipped=1")
    k = int(grid.inner_text("#count strong"))
    grid.goto(server + "&run=ts&variant=uppercase&model=mock:b&flipped=0")
    n = k + int(grid.inner_text("#count strong"))
    grid.close()
    assert k >= 2 and n == 8  # 4 cases x 2 seeds
    assert cells["uppercase"][1].startswith(f"{100 * k / n:.1f}% ({k}/{n})")
    assert cells["exclamation"][1].startswith("0.0% (0/8)")
    assert "noise floor (baseline re-samples)" in cells and cells["noise floor (baseline re-samples)"][0].endswith(
        "pairs)")
    # the band follows the filters
    changed(page, lambda: page.select_option("select[name=model]", "mock:a"))
    assert band.locator("thead th").all_inner_texts() == ["variant", "mock:a"]
    shot(page, "grid-summary-band")
    no_payload_ran(page)


def test_export_of_the_filtered_rows_is_formula_safe(server, page, tmp_path):
    import pandas as pd

    page.goto(server + "&run=ts&variant=uppercase&flipped=1")
    n = int(page.inner_text("#count strong"))
    with page.expect_download() as info:
        page.click("#export")
    path = tmp_path / "rows.csv"
    info.value.save_as(path)
    df = pd.read_csv(path, keep_default_na=False)
    assert len(df) == n and set(df["variant"]) == {"uppercase"} and set(df["flip"]) == {True}
    assert SCRIPT in df["answer"].iloc[0] or any(SCRIPT in a for a in df["answer"])
    no_payload_ran(page)


def test_next_and_previous_case_follow_the_grid_filters(server, page):
    page.goto(server + "&run=ts&variant=uppercase&flipped=1&sort=case")
    order = list(dict.fromkeys(a.inner_text() for a in page.locator("a.case-link").all()))
    assert len(order) >= 2
    with page.expect_navigation():
        page.locator("a.case-link").first.click()
    assert page.inner_text("#case-id") == order[0]
    assert page.inner_text("#case-position").startswith(f"case 1 of {len(order)}")
    with page.expect_navigation():
        page.click("#next-case")
    assert page.inner_text("#case-id") == order[1]
    with page.expect_navigation():
        page.click("#prev-case")
    assert page.inner_text("#case-id") == order[0]
    with page.expect_navigation():
        page.click("#back")
    assert "variant=uppercase" in page.url and int(page.inner_text("#count strong")) >= 2
    no_payload_ran(page)


def test_case_page_tables_fit_the_page(server, page):
    page.goto(server.replace("/?", "/case?run=ts&case=pm01&"))
    assert page.locator("table.data").count() >= 1
    fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert fits, page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    key = page.locator("table.data td[title]").first
    assert re.fullmatch(r"[0-9a-f]{10}…", key.inner_text()) and re.fullmatch(r"[0-9a-f]{64}", key.get_attribute(
        "title"))
    texts = " ".join(page.locator("table.data").first.all_inner_texts())
    assert '{"' not in texts  # a judge's JSON shown as 'key: value'
    shot(page, "case-tables-fit")
    no_payload_ran(page)


def test_an_unfinished_run_says_so(tmp_path, page):
    import json

    from clinaudit.viewer.synthetic import make_run

    run = make_run(tmp_path / "killed", cases=3, perturbations=1, seeds=1)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["runs"][-1].pop("finished", None)
    manifest.pop("status", None)
    (run / "manifest.json").write_text(json.dumps(manifest))
    (run / "tables" / "responses.csv").unlink()  # a killed run: the answers are written at the end
    proc = subprocess.Popen([sys.executable, "-m", "clinaudit", "view", str(run), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        head = proc.stdout.readline() + proc.stdout.readline() + proc.stdout.readline()
        assert "note: run killed is unfinished" in head
        url = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", head)
        assert url
        page.goto(url.group(0))
        banner = page.locator(".run-status")
        assert banner.is_visible() and "unfinished" in banner.inner_text() and "resume" in banner.inner_text()
        shot(page, "unfinished-run")
        no_payload_ran(page)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
