"""``clinaudit view`` (issue 43) without a browser: the grid's rows, flips, filters, search and paging on mock
runs; the case page's calls from the cache; two runs side by side; the token and loopback guard (in-process and on
a real server started by the CLI); escaping of payload texts; the run directory unchanged after use."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.viewer import load_runs
from clinaudit.viewer.synthetic import make_run

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from clinaudit.viewer.app import create_app  # noqa: E402
from clinaudit.viewer.data import GridQuery, Viewer, diff_html  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = "<script>window.__x=1</script>"
IMG = '<img src=x onerror="window.__x=2">'
FORMULA = "=cmd|' /C calc'!A0"
PAYLOADS = (SCRIPT, IMG, FORMULA, "@SUM(1)")
TOKEN = "t0ken-for-tests"


def snapshot(path: Path) -> dict[str, tuple[str, float]]:
    """Every file under ``path`` with its SHA-256 and modification time."""
    return {str(p.relative_to(path)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime)
            for p in sorted(path.rglob("*")) if p.is_file()}


def client(app, host: str = "127.0.0.1") -> TestClient:
    return TestClient(app, base_url="http://127.0.0.1", client=(host, 50000))


@pytest.fixture(scope="module")
def ts_run(tmp_path_factory) -> Path:
    """A treatment-shift mock run where model b answers 'manage at home' to the upper-cased text (a flip)."""
    import yaml

    from clinaudit.pipeline import run_spec

    base = tmp_path_factory.mktemp("view-ts")
    spec = yaml.safe_load((ROOT / "examples" / "treatment_shift-mock.yaml").read_text(encoding="utf-8"))
    spec["data"][0]["limit"] = 4
    spec["params"]["seeds"] = [0, 1]
    spec["params"]["perturbations"] = ["exclamation", "uppercase"]
    spec["params"]["n_resamples"] = 50
    spec["backends"]["mock:b"]["rules"] = [
        {"match": "[A-Z]{6,} [A-Z]{6,}", "response": f"This sounds mild. You can manage this at home. {SCRIPT}"},
        {"match": ".", "response": f"Please come to the clinic this week. {IMG}"}]
    path = base / "ts.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    run_spec(path, base / "ts", progress=False)
    return base / "ts"


@pytest.fixture(scope="module")
def ng_run(tmp_path_factory) -> Path:
    from clinaudit.pipeline import run_spec

    out = tmp_path_factory.mktemp("view-ng") / "ng"
    run_spec(ROOT / "examples" / "note_generation-mock.yaml", out, progress=False)
    return out


def test_treatment_shift_grid_rows_flips_and_labels(ts_run):
    (run,) = load_runs([ts_run])
    g = run.grid
    # one row per target answer: 4 cases x (baseline + 2 perturbations) x 2 seeds x 2 models
    assert len(g) == 4 * 3 * 2 * 2
    assert set(run.questions) == {"MANAGE", "VISIT", "RESOURCE"}
    labels = pd.read_csv(ts_run / "tables" / "labels.csv", keep_default_na=False, na_values=[""])
    # independent recomputation of the flips from tables/labels.csv: a perturbed answer's label differs from the
    # baseline's label of the same case, model, seed and question
    base = labels[labels["variant"] == "baseline"].set_index(["case_id", "model", "seed", "question"])["label"]
    pert = labels[labels["variant"] != "baseline"]
    flipped = {(r.case_id, r.variant, r.model, r.seed) for r in pert.itertuples()
               if r.label != base[(r.case_id, r.model, r.seed, r.question)]}
    got = {(r.case_id, r.variant, r.model, r.seed) for r in g[g["flip"].fillna(False)].itertuples()}
    assert got == flipped
    # model b flips on the upper-cased text only; model a never
    assert {(v, m) for _, v, m, _ in got} == {("uppercase", "mock:b")}
    assert len(got) >= 2 and {s for *_, s in got} == {0, 1}  # the mock's rule: cases whose baseline it does not match
    assert g.loc[g["is_baseline"], "flip"].isna().all()
    assert (g["judge_status"] == "ok").all()
    assert set(g["group"].dropna()) <= {"female", "male"}


def test_filters_search_sort_and_paging(ts_run):
    viewer = Viewer(load_runs([ts_run]))
    n_flip = int(viewer.grid["flip"].fillna(False).sum())
    rows, total, notes = viewer.select(GridQuery.parse({"flipped": "1", "variant": "uppercase"}))
    assert total == n_flip and n_flip >= 2 and not notes
    assert set(rows["model"]) == {"mock:b"}
    rows, total, _ = viewer.select(GridQuery.parse({"flipped": "1", "variant": "exclamation"}))
    assert total == 0
    rows, total, _ = viewer.select(GridQuery.parse({"question": "MANAGE", "flipped": "1"}))
    assert total == n_flip
    rows, total, _ = viewer.select(GridQuery.parse({"model": "mock:a"}))
    assert total == 24 and set(rows["model"]) == {"mock:a"}
    # full-text search: in answers (case-insensitive, literal text, not a pattern)
    home = viewer.grid["answer"].str.contains("manage this at home", regex=False)
    rows, total, _ = viewer.select(GridQuery.parse({"q": "MANAGE THIS AT HOME"}))
    assert total == int(home.sum()) >= n_flip
    rows, total, _ = viewer.select(GridQuery.parse({"q": "onerror="}))
    assert total == 24 - int(home.sum())  # model b's other answer
    # paging: 48 rows, 10 a page -> 5 pages, the last holds 8; sort by flip puts the flipped first
    seen = []
    for page in range(1, 6):
        rows, total, _ = viewer.select(GridQuery.parse({"per_page": "10", "page": str(page), "sort": "flip"}))
        seen.extend(rows["request_key"])
        if page == 1:
            assert rows["flip"].fillna(False).head(n_flip).all() and not rows["flip"].fillna(False)[n_flip:].any()
    assert len(seen) == 48 and len(set(seen)) == 48
    # a filter on a column the run lacks is reported, not silently applied
    _, total, notes = viewer.select(GridQuery.parse({"context": "Poverty"}))
    assert total == 48 and notes


def test_note_generation_grid_counterfactuals_and_exclusions(ng_run):
    viewer = Viewer(load_runs([ng_run]))
    g = viewer.grid
    notes = pd.read_csv(ng_run / "tables" / "notes.csv", keep_default_na=False, na_values=[""])
    assert len(g[g["excluded"].isna()]) == len(notes) == 84
    # the excluded in-context example has a row of its own, with its reason
    ex = g[g["excluded"].notna()]
    assert list(ex["case_id"]) == ["DEMO-ACI-001"] and list(ex["excluded"]) == ["in_context_example"]
    # flips: a counterfactual note's incidence label differs from the baseline note of the same augmented dialog
    paired = pd.read_csv(ng_run / "tables" / "paired.csv", keep_default_na=False, na_values=[""])
    paired["base"] = paired["variant_id"].str.replace(r"::[^:]+::s0$", "::baseline::s0", regex=True)
    inc = paired.set_index("variant_id")["incidence"]
    expect = set(paired.loc[(paired["group"] != "baseline") & (paired["incidence"].to_numpy()
                                                                != inc.reindex(paired["base"]).to_numpy()),
                            "variant_id"])
    assert set(g.loc[g["flip"].fillna(False), "variant_id"]) == expect and expect
    rows, total, _ = viewer.select(GridQuery.parse({"variant": "Black", "flipped": "1", "question": "Poverty"}))
    # 6 dialogs x 2 sources (doctor, patient), each flipped by the scripted note for a Black patient
    assert total == len({v for v in expect if "race=Black" in v and ":Poverty|" in v}) == 12
    assert set(rows["context"]) == {"Poverty"} and set(rows["variant"]) == {"Black"}
    rows, total, _ = viewer.select(GridQuery.parse({"excluded": "in_context_example"}))
    assert total == 1


def test_case_page_shows_cached_prompts_and_judgments(ts_run):
    app = create_app(load_runs([ts_run]), TOKEN)
    c = client(app)
    r = c.get("/case", params={"token": TOKEN, "run": "ts", "case": "pm01"})
    assert r.status_code == 200
    page = r.text
    responses = pd.read_csv(ts_run / "tables" / "responses.csv", keep_default_na=False, na_values=[""])
    mine = responses[responses["case_id"] == "pm01"]
    # every call of the case with its request key; the exact request from the cache (its messages)
    for key in mine["request_key"]:
        assert key in page
    assert page.count("Exact request (from the cache)") == mine["request_key"].nunique() + (
        len(mine) - mine["request_key"].nunique())
    assert "Raw response (from the cache)" in page
    assert "treatment_annotator" in page  # the judgments
    assert "uppercase" in page and "exclamation" in page


@pytest.mark.slow  # another mock run (10-20 s)
def test_two_runs_side_by_side_mark_differing_flips(ts_run, tmp_path):
    import shutil

    import yaml

    from clinaudit.pipeline import run_spec

    spec = yaml.safe_load((ts_run.parent / "ts.yaml").read_text(encoding="utf-8"))
    spec["backends"]["mock:b"]["rules"] = [{"match": ".", "response": "Please come to the clinic this week."}]
    other = tmp_path / "ts2"
    p = tmp_path / "ts2.yaml"
    p.write_text(yaml.safe_dump(spec), encoding="utf-8")
    run_spec(p, other, progress=False)
    viewer = Viewer(load_runs([ts_run, other]))
    n_flip = int(viewer.grid.loc[viewer.grid["run"] == "ts", "flip"].fillna(False).sum())
    assert not viewer.grid.loc[viewer.grid["run"] == "ts2", "flip"].fillna(False).any()
    rows, total, _ = viewer.select(GridQuery.parse({"flipped": "differs"}))
    # the flipped answers of run ts and their unflipped counterparts in ts2
    assert total == 2 * n_flip and set(rows["run"]) == {"ts", "ts2"}
    case = str(viewer.grid.loc[viewer.grid["flip"].fillna(False), "case_id"].iloc[0])
    app = create_app(load_runs([ts_run, other]), TOKEN)
    r = client(app).get("/case", params={"token": TOKEN, "case": case})
    assert r.status_code == 200
    assert r.text.count('data-run="') == 2
    # the side-by-side table: one row per variant x seed x model (both runs have both models), the case's flipped
    # answers in run ts beside the same answers in ts2 outlined
    n_case = int(viewer.grid.loc[(viewer.grid["case_id"] == case) & (viewer.grid["run"] == "ts"), "flip"]
                 .fillna(False).sum())
    table = r.text.split('id="side-by-side"', 1)[1].split("</section>", 1)[0]
    assert table.count("<tr class=") == 3 * 2 * 2  # variants x seeds x models
    assert table.count('<tr class="differs-row">') == n_case >= 1
    assert table.count("flip differs between runs") == 2 * n_case
    shutil.rmtree(other)


def test_token_and_loopback_are_required(ts_run):
    app = create_app(load_runs([ts_run]), TOKEN)
    assert client(app).get("/").status_code == 403
    assert client(app).get("/", params={"token": "wrong"}).status_code == 403
    assert client(app, host="10.0.0.7").get("/", params={"token": TOKEN}).status_code == 403
    assert client(app, host="192.168.1.20").get("/case", params={"token": TOKEN, "case": "pm01"}).status_code == 403
    # a page fetched through another host name (DNS rebinding) is refused too
    c = TestClient(app, base_url="http://evil.example", client=("127.0.0.1", 50000))
    assert c.get("/", params={"token": TOKEN}).status_code == 403
    ok = client(app)
    r = ok.get("/", params={"token": TOKEN})
    assert r.status_code == 200 and "HttpOnly" in r.headers["set-cookie"]
    assert "default-src 'none'" in r.headers["content-security-policy"]
    assert ok.get("/static/viewer.js").status_code == 200  # the cookie carries the token from then on


@pytest.mark.slow  # a server process and the report rendered (10-20 s)
@pytest.mark.cli_errors_expected
def test_view_command_serves_on_loopback_only_and_leaves_the_run_unchanged(ts_run):
    import httpx

    before = snapshot(ts_run)
    proc = subprocess.Popen([sys.executable, "-m", "clinaudit", "view", str(ts_run), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() + proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", line)
        assert m, line + proc.stderr.read()
        port, token = int(m.group(1)), m.group(2)
        # bound to 127.0.0.1 only: the port is not open on another address of this machine
        import socket

        addrs = {a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)} - {"127.0.0.1"}
        for addr in addrs:
            with socket.socket() as s:
                s.settimeout(1)
                assert s.connect_ex((addr, port)) != 0
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/").status_code == 403
        r = httpx.get(base + "/", params={"token": token, "flipped": "1", "variant": "uppercase"})
        assert r.status_code == 200 and re.search(r"<strong>[1-9]\d*</strong> of 48 rows", r.text)
        cookies = r.cookies
        assert httpx.get(base + "/case", params={"case": "pm03", "run": "ts"}, cookies=cookies).status_code == 200
        t = time.time()
        assert httpx.get(base + "/report", params={"run": "ts"}, cookies=cookies, timeout=120).status_code == 200
        assert time.time() - t < 120
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert snapshot(ts_run) == before
    assert not list(ts_run.glob("cache.sqlite-*"))


@pytest.mark.cli_errors_expected
def test_view_without_the_web_stack_says_what_to_install(ts_run, monkeypatch, capsys):
    from clinaudit.cli.main import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn -> ImportError
    assert main(["view", str(ts_run), "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'clinaudit[view]'" in err and len(err.strip().splitlines()) == 1


@pytest.mark.cli_errors_expected
def test_view_refuses_a_folder_that_is_no_run(tmp_path):
    from clinaudit.cli.main import main

    assert main(["view", str(tmp_path / "missing"), "--no-browser"]) == 2
    assert main(["view", str(tmp_path), "--no-browser"]) == 2


def test_payloads_escaped_and_formula_texts_exact(tmp_path):
    run = make_run(tmp_path / "pay", cases=6, perturbations=2, seeds=1, payloads=PAYLOADS)
    before = snapshot(run)
    viewer = Viewer(load_runs([run]))
    # formula-like ids and texts come back exactly (the run store's encoding is undone)
    assert FORMULA in set(viewer.grid["case_id"]) and "@SUM(1)" in set(viewer.grid["case_id"])
    app = create_app(load_runs([run]), TOKEN)
    c = client(app)
    pages = [c.get("/", params={"token": TOKEN}).text,
             c.get("/", params={"q": "window.__x"}).text]
    for cid in PAYLOADS:
        pages.append(c.get("/case", params={"run": "pay", "case": cid}).text)
    for page in pages:
        assert "<script>window" not in page and "<img src=x" not in page
        assert page.count("<script") == 1  # the viewer's own script tag only
    assert "&lt;script&gt;window.__x=1&lt;/script&gt;" in pages[0]
    assert "&lt;img src=x onerror=&#34;window.__x=2&#34;&gt;" in pages[0]
    assert "=cmd|&#39; /C calc&#39;!A0" in pages[0]
    assert snapshot(run) == before


def test_diff_marks_changes_and_escapes():
    d = str(diff_html("The patient is <b>fine</b>.", "The patient is NOT <b>fine</b>!"))
    assert "<ins> NOT</ins>" in d
    assert "&lt;b&gt;fine&lt;/b&gt;" in d and "<b>" not in d
    assert "<del>.</del><ins>!</ins>" in d
    assert str(diff_html("same", "same")) == "same"


def test_report_links_to_the_viewer_are_hidden_in_the_static_file(ts_run, tmp_path):
    from clinaudit.report.render import build_report

    files = build_report([ts_run], tmp_path / "report.html")
    html = files.html.read_text(encoding="utf-8")
    links = re.findall(r'class="viewer-link" hidden[^>]*>(?: · )?<a href="([^"]+)"|<a class="viewer-link" hidden '
                       r'href="([^"]+)"', html)
    hrefs = [a or b for a, b in links]
    assert hrefs and all(h.startswith("cases?run=ts") for h in hrefs)
    assert any("variant=uppercase" in h and "model=mock%3Ab" in h for h in hrefs)


def test_every_case_page_renders(ts_run, ng_run):
    runs = load_runs([ts_run, ng_run])
    app = create_app(runs, TOKEN)
    c = client(app)
    c.get("/", params={"token": TOKEN})
    for run in runs:
        for case_id in sorted(set(run.grid["case_id"].dropna())):
            r = c.get("/case", params={"run": run.key, "case": case_id})
            assert r.status_code == 200, (run.key, case_id)
            assert "<h2>run " in r.text
    assert c.get("/case", params={"case": "no-such-case"}).status_code == 404


@pytest.mark.slow  # another mock run (10-20 s)
def test_other_audits_a_jury_tie_and_care_answers(tmp_path):
    """A jury's tie is shown as the answer's judge status; CARE's answers are rows with the judge's parsed letter
    (its judgment shares the answer's request key); every case page renders."""
    from clinaudit.pipeline import run_spec

    for name in ("jury", "reasoning_care"):
        run_spec(ROOT / "examples" / f"{name}-mock.yaml", tmp_path / name, progress=False)
    jury, care = load_runs([tmp_path / "jury", tmp_path / "reasoning_care"])
    labels = pd.read_csv(tmp_path / "jury" / "tables" / "labels.csv", keep_default_na=False, na_values=[""])
    tied = set(labels.loc[labels["judge_status"] == "tie", "response_key"])
    assert tied and set(jury.grid.loc[jury.grid["judge_status"] == "tie", "request_key"]) == tied
    responses = pd.read_csv(tmp_path / "reasoning_care" / "tables" / "responses.csv", keep_default_na=False,
                            na_values=[""])
    answers = responses[responses["stage"] == "answer"]
    g = care.grid[care.grid["excluded"].isna()]
    assert len(g) == len(answers.drop_duplicates(["request_key", "variant_id"]))
    judgments = pd.read_csv(tmp_path / "reasoning_care" / "tables" / "judgments.csv", keep_default_na=False,
                            na_values=[""])
    mcq = judgments[judgments["judge"].str.startswith("mcq_answer")]  # the answers' letters (not the CoT phases)
    letters = dict(zip(mcq["request_key"], mcq["value"].map(lambda v: __import__("json").loads(v).get("answer"))))
    shown = dict(zip(g["request_key"], g["label::mcq_answer"]))
    assert letters and set(letters) <= set(shown)
    assert {k: shown[k] for k in letters if k in shown} == {k: v for k, v in letters.items() if k in shown}
    app = create_app([jury, care], TOKEN)
    c = client(app)
    c.get("/", params={"token": TOKEN})
    for run in (jury, care):
        for case_id in sorted(set(run.grid["case_id"].dropna())):
            assert c.get("/case", params={"run": run.key, "case": case_id}).status_code == 200


def test_a_folder_of_runs_is_searched_for_them(tmp_path):
    make_run(tmp_path / "runs" / "a", cases=3, perturbations=1, seeds=1)
    make_run(tmp_path / "runs" / "nested" / "a", cases=2, perturbations=1, seeds=1)
    runs = load_runs([tmp_path / "runs"])
    assert sorted(r.key for r in runs) == ["a", "a-2"]
    assert sorted(len(r.grid) for r in runs) == [2 * 2, 3 * 2]
