"""``clinaudit view`` as a tool to work in (issue 51), without a browser: the summary band's flip rates and noise
floor recomputed independently from the run's tables, the grid's JSON (what the page's script renders), the
export of the filtered rows (formula-safe CSV), next/previous case, tables that fit, an unfinished run."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.viewer import load_runs
from clinaudit.viewer.synthetic import QUESTIONS, make_run

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from clinaudit.viewer.app import create_app  # noqa: E402

TOKEN = "t0ken-for-tests"
FORMULA = "=cmd|' /C calc'!A0"
SCRIPT = "<script>window.__x=1</script>"


def client(runs) -> TestClient:
    c = TestClient(create_app(runs, TOKEN), base_url="http://127.0.0.1", client=("127.0.0.1", 50000))
    assert c.get("/", params={"token": TOKEN}).status_code == 200
    return c


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return make_run(tmp_path_factory.mktemp("work") / "w", cases=20, perturbations=2, seeds=3, models=2,
                    flip_rate=0.3, payloads=(FORMULA, SCRIPT, "+1-2", "@SUM(1)"))


def _by_hand(run: Path) -> tuple[dict[tuple[str, str], tuple[int, int]], dict[str, tuple[int, int]]]:
    """Flips per (variant, model) and the baseline's disagreeing seed pairs per model, from labels.csv alone."""
    labels = pd.read_csv(run / "tables" / "labels.csv", keep_default_na=False, na_values=[""])
    wide = labels.pivot_table(index=["case_id", "variant", "model", "seed"], columns="question", values="label",
                              aggfunc="first", dropna=False).reindex(columns=list(QUESTIONS))
    flips: dict[tuple[str, str], list[int]] = {}
    for (case, variant, model, seed), lab in wide.iterrows():
        if variant == "baseline":
            continue
        base = wide.loc[(case, "baseline", model, seed)]
        both = lab.notna() & base.notna()
        if not both.any():
            continue
        k = flips.setdefault((variant, model), [0, 0])
        k[0] += int((lab[both] != base[both]).any())
        k[1] += 1
    noise: dict[str, list[int]] = {}
    base = wide.xs("baseline", level="variant")
    for (_case, model), g in base.groupby(level=["case_id", "model"]):
        keys = ["|".join("∅" if pd.isna(v) else str(int(v)) for v in row) for row in g.to_numpy()]
        n = noise.setdefault(model, [0, 0])
        for i in range(len(keys)):
            for j in range(i + 1, len(keys)):
                n[0] += keys[i] != keys[j]
                n[1] += 1
    return {k: (a, b) for k, (a, b) in flips.items()}, {m: (a, b) for m, (a, b) in noise.items()}


def test_summary_band_matches_a_recomputation_from_the_labels(run):
    c = client(load_runs([run]))
    d = c.get("/api/grid").json()
    flips, noise = _by_hand(run)
    shown = {(r["variant"], m): (cell["flips"], cell["n"]) for r in d["summary"]["rows"]
             for m, cell in r["cells"].items() if cell}
    assert shown == flips
    assert {m: (v["disagree"], v["pairs"]) for m, v in d["summary"]["noise"].items()} == noise
    assert all(p == 20 * 3 for _, p in noise.values())  # 20 cases x 3 seed pairs per model
    # filters apply to the band (not the flip filter: a rate needs the rows that did not flip too)
    one = c.get("/api/grid", params={"model": "mock:m1", "flipped": "1"}).json()["summary"]
    assert one["models"] == ["mock:m1"]
    assert {r["variant"]: (r["cells"]["mock:m1"]["flips"], r["cells"]["mock:m1"]["n"]) for r in one["rows"]} == \
        {v: n for (v, m), n in flips.items() if m == "mock:m1"}


def test_grid_json_is_what_the_page_shows(run):
    c = client(load_runs([run]))
    params = {"variant": "pert1", "flipped": "1", "sort": "case"}
    d = c.get("/api/grid", params=params).json()
    page = c.get("/", params=params).text
    assert f"<strong>{d['total']}</strong> of {d['n_all']} rows" in page
    assert d["total"] > 0 and len(d["rows"]) == min(50, d["total"])
    assert all(r["flip"] is True and r["variant"] == "pert1" for r in d["rows"])
    for r in d["rows"]:
        assert r["case_href"].startswith("/case?case=") and "flipped=1" in r["case_href"]
        assert all(kind in ("eq", "ins", "del", "note", "more") for kind, _ in r["pieces"])
    # texts are raw in the JSON (the script sets them as text): a payload comes back exactly, not as markup
    payload = c.get("/api/grid", params={"q": "window.__x"}).json()
    assert payload["total"] >= 1 and any(SCRIPT in (r["answer"] or "") for r in payload["rows"])
    assert c.get("/api/grid", params={"token": "x"}).status_code == 200  # the cookie is enough
    assert TestClient(create_app(load_runs([run]), TOKEN), base_url="http://127.0.0.1",
                      client=("127.0.0.1", 1)).get("/api/grid").status_code == 403


def test_export_of_the_filtered_rows_is_every_row_and_formula_safe(run):
    c = client(load_runs([run]))
    params = {"flipped": "1"}
    total = c.get("/api/grid", params=params).json()["total"]
    r = c.get("/export.csv", params=params)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(r.text)))
    assert len(rows) - 1 == total > 50  # every matching row, not one page
    cells = [v for row in rows for v in row]
    assert not [v for v in cells if v[:1] in ("=", "+", "@") or (v[:1] == "-" and not v[1:2].isdigit())]
    assert "'" + FORMULA in cells  # neutralised, still readable
    everything = list(csv.reader(io.StringIO(c.get("/export.csv").text)))
    assert "'" + FORMULA in [v for row in everything for v in row] and "'+1-2" in [v for row in everything for v in row]


def test_next_and_previous_case_under_the_filters(run):
    views = load_runs([run])
    c = client(views)
    params = {"variant": "pert0", "flipped": "1", "sort": "case"}
    rows = c.get("/api/grid", params={**params, "per_page": "500"}).json()["rows"]
    order = list(dict.fromkeys(r["case_id"] for r in rows))
    assert len(order) >= 3
    page = c.get("/case", params={"case": order[1], **params}).text
    assert f"case 2 of {len(order)}" in page
    nxt = c.get("/case", params={"case": order[2], **params})
    assert nxt.status_code == 200
    import re

    hrefs = dict(re.findall(r'<a href="([^"]+)" id="(prev|next)-case"', page))
    hrefs = {v: k.replace("&amp;", "&") for k, v in hrefs.items()}
    from urllib.parse import parse_qs, urlsplit

    prev, nxt_q = (parse_qs(urlsplit(hrefs[k]).query) for k in ("prev", "next"))
    assert prev["case"] == [order[0]] and nxt_q["case"] == [order[2]]
    assert nxt_q["flipped"] == ["1"] and nxt_q["variant"] == ["pert0"] and nxt_q["sort"] == ["case"]


def test_judgments_table_keys_shortened_and_labels_readable(run):
    c = client(load_runs([run]))
    page = c.get("/case", params={"case": "c000005"}).text
    table = page.split("<h3>Judgments", 1)[1].split("</table>", 1)[0]
    import re

    assert re.search(r'<td title="[0-9a-f]{64}">[0-9a-f]{10}…</td>', table)
    assert not re.search(r">[0-9a-f]{64}<", table)
    assert 'class="data fit"' in table


def test_an_unfinished_run_says_so(tmp_path):
    run = make_run(tmp_path / "killed", cases=3, perturbations=1, seeds=1)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["runs"][-1].pop("finished", None)
    manifest.pop("status", None)
    (run / "manifest.json").write_text(json.dumps(manifest))
    (view,) = load_runs([run])
    assert view.status.startswith("unfinished: started ")
    page = client([view]).get("/").text
    assert 'class="callout warn run-status"' in page and "is unfinished" in page and "resume" in page
    failed = make_run(tmp_path / "failed", cases=3, perturbations=1, seeds=1)
    manifest = json.loads((failed / "manifest.json").read_text())
    manifest["status"] = "failed: RuntimeError: boom"
    (failed / "manifest.json").write_text(json.dumps(manifest))
    (fview,) = load_runs([failed])
    assert fview.status == "failed: RuntimeError: boom"
    assert "is failed: RuntimeError: boom" in client([fview]).get("/").text
    (done,) = load_runs([make_run(tmp_path / "done", cases=3, perturbations=1, seeds=1)])
    assert done.status == "complete" and "run-status" not in client([done]).get("/").text
