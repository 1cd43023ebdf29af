"""How far a run's de-identification reaches (issue 50, :mod:`clinaudit.deid_reach`): the style of a text, the
packaged held-out measurement and its writer, and what a run writes and its report says first."""

from __future__ import annotations

from markupsafe import escape
import importlib.util
import json
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.deid_reach import (
    check_measurement,
    measurement,
    reach_counts,
    reach_sentences,
    text_style,
    warns,
)

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "src" / "clinaudit" / "data" / "demo"


def _esc(text: str) -> str:
    """``text`` as the report's Jinja2 autoescape writes it."""
    return str(escape(text))


def _writer():
    spec = importlib.util.spec_from_file_location("deid_reach_write", ROOT / "benchmarks" / "deid_reach_write.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["deid_reach_write"] = mod
    spec.loader.exec_module(mod)
    return mod


# --------------------------------------------------------------------------- the style of a text

@pytest.mark.parametrize("text, style", [
    ("[doctor] hi martha , how are you ?\n[patient] i'm okay , thanks .", "lower"),  # ACI-Bench
    ("doctor: how are you?\npatient_guest: she is fine.", "lower"),  # labels are not words of the text
    ("Guest_family: she is fine\nDoctor_2: good", "lower"),
    ("[NAME] said the pain is worse", "lower"),  # a placeholder is not a word
    ("Doctor: How are you?\nPatient: Fine.", "cased"),  # MTS-Dialog
    ("doctor: how are you?\npatient: i saw Dr. smith", "cased"),  # mixed: cased
    ("[doctor] your mri was fine\n[patient] and the COVID test ?", "cased"),  # one capital word: mixed
    ("i feel bad. Help", "cased"),
    ("", "cased"),  # nothing to judge
    ("123 / 80", "cased"),  # no lower-case letter
])
def test_text_style(text, style):
    assert text_style(text) == style


def test_text_style_a_stray_capital_in_a_long_transcript():
    # ACI-Bench's D2N114: "Julie" once in 1,254 lower-case words was a cased text; fewer than 1 word in 100 with a
    # capital is a stray word of a lower-case transcript, 1 in 100 or more is mixed style
    def transcript(lower_words: int, capitals: int) -> str:
        return "[doctor] " + " ".join(["okay"] * lower_words) + "\n[patient] " + " ".join(["Julie"] * capitals)

    assert text_style(transcript(99, 1)) == "cased"  # 1 in 100: not fewer than 1 in 100
    assert text_style(transcript(100, 1)) == "lower"  # 1 in 101
    assert text_style(transcript(100, 2)) == "cased"  # 2 in 102
    assert text_style(transcript(1253, 1)) == "lower"  # D2N114's share


def test_every_aci_bench_dialog_is_lower_case():
    # the ACI-Bench files are lower-case transcripts, every dialog of them (167; D2N114 with its stray "Julie")
    import csv
    data = ROOT.parent / "shared" / "data" / "aci-bench"
    if not data.exists():
        pytest.skip("../shared/data is not beside the repository")
    styles = [text_style(r["dialogue"]) for f in sorted(data.glob("*.csv")) if "metadata" not in f.name
              for r in csv.DictReader(f.open(encoding="utf-8"))]
    assert len(styles) >= 167 and set(styles) == {"lower"}


def test_reach_counts_by_mode():
    texts = ["hi there", "Hi there", "[patient] ok", "Doctor: Fine."]
    assert reach_counts(texts, "names", 0) == {"cases": 4, "lower": 2, "cased": 2, "mode": "names", "deidentified": 4}
    assert reach_counts(texts, "listed", 1)["deidentified"] == 1
    assert reach_counts(texts, "none", 0)["deidentified"] == 0
    with pytest.raises(ValueError):
        reach_counts(texts, "some", 0)


# --------------------------------------------------------------------------- the measurement and its writer

#: a synthetic held-out table: origin -> style -> [names, left]
SYNTH = {"A": {"cased": [10, 0], "lower": [20, 2]},
         "B": {"cased": [10, 1], "lower": [20, 0]},
         "C": {"cased": [10, 0], "lower": [20, 1]}}
#: the same table as bench_deid_origin.py prints it (print_origins)
SYNTH_PRINTED = """
| origin | names (cased / lower) | removed, cased | removed, lower case | removed, all |
|---|---:|---:|---:|---:|
| A | 10 / 20 | 100.0 % | 90.0 % | 93.3 % |
| B | 10 / 20 | 90.0 % | 100.0 % | 96.7 % |
| C | 10 / 20 | 100.0 % | 95.0 % | 96.7 % |
cased: lowest 90.0 % (B), highest 100.0 %, spread 10.0 pp; overall 96.7 % of 30 names
"""


def test_writer_on_a_synthetic_table(tmp_path):
    w = _writer()
    doc = w.reach_document(SYNTH, "abc1234", "2026-12-05")
    cased, lower = doc["styles"]["cased"], doc["styles"]["lower"]
    # by hand: cased 29 of 30 removed = 96.7 %, B 9 of 10 = 90.0 % (below 95: the lowest); lower 57 of 60 = 95.0 %,
    # A 18 of 20 = 90.0 % below 95, C 19 of 20 = 95.0 % not below it
    assert (cased["names"], cased["removed"], cased["removed_pct"]) == (30, 29, 96.7)
    assert cased["lowest"] == [{"origin": "B", "removed_pct": 90.0}]
    assert (lower["names"], lower["removed"], lower["removed_pct"]) == (60, 57, 95.0)
    assert lower["lowest"] == [{"origin": "A", "removed_pct": 90.0}]
    assert (lower["highest_pct"], lower["spread_pp"], cased["spread_pp"]) == (100.0, 10.0, 10.0)
    assert (doc["origins"], doc["revision"], doc["date"]) == (3, "abc1234", "2026-12-05")
    assert w.parse_table(SYNTH_PRINTED) == SYNTH  # the printed table read back into the same counts
    path = w.write_reach(tmp_path / "reach.json", doc)
    assert check_measurement(json.loads(path.read_text(encoding="utf-8"))) == doc
    # every origin at or above 95 %: the lowest one is named all the same
    high = {"A": {"cased": [10, 0], "lower": [20, 0]}, "B": {"cased": [20, 1], "lower": [20, 0]}}
    assert w.reach_document(high, "r", "d")["styles"]["cased"]["lowest"] == [{"origin": "B", "removed_pct": 95.0}]


def test_writer_refuses_a_row_no_counts_give():
    w = _writer()
    with pytest.raises(ValueError, match="no whole count"):
        w.parse_table("| A | 10 / 20 | 95.0 % | 90.0 % | 91.7 % |")  # 95 % of 10 names
    with pytest.raises(ValueError, match="'all' column"):
        w.parse_table("| A | 10 / 20 | 100.0 % | 90.0 % | 99.0 % |")
    bad = _writer().reach_document(SYNTH, "r", "d")
    bad["styles"]["lower"]["removed_pct"] = 97.0
    with pytest.raises(ValueError, match="lower: removed_pct"):
        check_measurement(bad)


def test_packaged_measurement_schema_and_docs():
    """The packaged file is well formed, measured the 46 origins, and docs/deidentification.md states its numbers."""
    m = measurement()
    assert m["origins"] == 46 and m["revision"] and re.fullmatch(r"\d{4}-\d{2}-\d{2}", m["date"])
    docs = (ROOT / "docs" / "deidentification.md").read_text(encoding="utf-8")
    for style, word in (("cased", "cased"), ("lower", "lower case")):
        s = m["styles"][style]
        lowest = ", ".join(f"{x['origin']} {x['removed_pct']:.1f} %" for x in s["lowest"])
        line = f"{word}: {s['removed_pct']:.1f} % of {s['names']:,} names, lowest {lowest}, spread {s['spread_pp']:.1f} pp"
        assert line in docs, line
    assert f"held-out half of {m['revision']}, {m['date']}" in docs


# --------------------------------------------------------------------------- what a run writes and says

def _lower_sentence(n: int, lower: int) -> str:
    m = json.loads((ROOT / "src" / "clinaudit" / "data" / "deid_reach.json").read_text(encoding="utf-8"))
    s = m["styles"]["lower"]
    lowest = ", ".join(f"{x['origin']} {x['removed_pct']:.1f} %" for x in s["lowest"])
    return (f"{lower} of {n} cases are lower-case transcripts. On the project's held-out benchmark (46 origins, "
            f"{m['date']}), de-identification removes {s['removed_pct']:.1f} % of names in lower-case text; "
            f"lowest: {lowest}. Names it misses reach the audited model.")


def test_sentences_by_hand():
    counts = {"cases": 50, "lower": 42, "cased": 8, "mode": "names", "deidentified": 50}
    got = reach_sentences(counts)
    assert got[0] == ("42 of 50 cases are lower-case transcripts. On the project's held-out benchmark (46 origins, "
                      "2026-12-06), de-identification removes 98.3 % of names in lower-case text; lowest: Czech "
                      "96.0 %. Names it misses reach the audited model.")
    assert got[1] == "The other 8 cases are cased: 99.9 % of names removed there (lowest: Korean 97.3 %)."
    assert reach_sentences({**counts, "lower": 0, "cased": 50}) == [
        "All 50 cases are cased text. On the project's held-out benchmark (46 origins, 2026-12-06), "
        "de-identification removes 99.9 % of names in cased text (lowest: Korean 97.3 %)."]
    assert reach_sentences({**counts, "mode": "listed", "deidentified": 3}) == [
        "Only listed names were removed (deid.names is off): names in the text were sent as written. "
        "3 of 50 cases list a name."]
    assert reach_sentences({"cases": 0}) == [] and reach_sentences(None) == []
    # a warning where names may have reached the model, not the cased line that says how much was removed
    assert [warns(x) for x in got] == [True, False]
    assert not warns(reach_sentences({**counts, "lower": 0, "cased": 50})[0])
    assert warns(reach_sentences({**counts, "mode": "listed", "deidentified": 3})[0])
    assert warns(reach_sentences({**counts, "mode": "none", "deidentified": 0})[0])


def _run(tmp_path: Path, lower: list[bool], extra: str = "") -> Path:
    from clinaudit.pipeline import run_spec
    from clinaudit.report.render import build_report

    msgs = pd.read_csv(DEMO / "patient_messages.csv", dtype=str, keep_default_na=False).head(len(lower))
    msgs["message"] = [m.lower() if lo else m for m, lo in zip(msgs["message"], lower)]
    msgs.to_csv(tmp_path / "msgs.csv", index=False)
    spec = (ROOT / "examples" / "treatment_shift-mock.yaml").read_text(encoding="utf-8")
    spec = spec.replace("  - format: demo:patient_messages     # fields: ehr_context, recorded_gender, specialty\n"
                        "    limit: 8\n", "  - format: csv\n    path: msgs.csv\n    columns: {id: case_id, text: message}\n")
    spec = spec.replace("seeds: [0, 1, 42]", "seeds: [0]").replace("n_resamples: 200", "n_resamples: 20")
    assert "msgs.csv" in spec
    (tmp_path / "spec.yaml").write_text(spec + extra, encoding="utf-8")
    rd = run_spec(tmp_path / "spec.yaml", tmp_path / "run", progress=False)
    build_report(rd.path, rd.path / "report" / "report.html")
    return rd.path


def _top(run: Path) -> str:
    """The report's first screen (the findings section: the verdicts table)."""
    page = (run / "report" / "report.html").read_text(encoding="utf-8")
    return page[page.index('id="findings"'):page.index('id="summary"')]


def test_mock_run_of_lower_case_cases(tmp_path):
    run = _run(tmp_path, [True, True, True, False, False])
    table = pd.read_csv(run / "tables" / "deid_reach.csv")
    assert table.set_index("style")["cases"].to_dict() == {"lower": 3, "cased": 2}
    assert set(table["deid"]) == {"names"} and set(table["cases_deidentified"]) == {5}
    assert list(table["removed_pct_measured"]) == [98.3, 99.9]
    assert table["lowest_origins"][0] == "Czech 96.0 %"
    summary = json.loads((run / "manifest.json").read_text(encoding="utf-8"))["summary"]["deid_reach"]
    assert summary == {"cases": 5, "lower": 3, "cased": 2, "mode": "names", "deidentified": 5}
    top = _top(run)
    cased = "The other 2 cases are cased: 99.9 % of names removed there (lowest: Korean 97.3 %)."
    # two models (mock:a, mock:b): two verdict rows, the run's sentences once, above the verdicts table, unnamed
    assert top.count('<tr class="verdict-') == 2
    assert top.count(_esc(_lower_sentence(5, 3))) == 1  # escaped as the report escapes (project&#39;s)
    assert top.count(_esc(cased)) == 1 and top.count('class="small deid-reach-run"') == 1
    assert top.index(_esc(_lower_sentence(5, 3))) < top.index(_esc(cased)) < top.index('id="verdicts"')
    assert f'<span class="bad-text deid-reach">{_esc(_lower_sentence(5, 3))}</span>' in top  # a warning
    assert f'<span class="muted deid-reach">{_esc(cased)}</span>' in top
    assert "</a> (de-identification): " not in top  # one run: no name
    findings = json.loads((run / "report" / "findings.json").read_text(encoding="utf-8"))
    assert [r["deid_reach"] for r in findings["runs"]] == [[_lower_sentence(5, 3), cased]]
    assert len(findings["verdicts"]) == 2 and not any("deid_reach" in v for v in findings["verdicts"])
    md = (run / "report" / "report.md").read_text(encoding="utf-8")
    assert md.count("lower-case transcripts") == 1 and md.count("The other 2 cases are cased") == 1
    first_verdict = md.index("\n- treatment")
    assert md.index("lower-case transcripts") < first_verdict and "On the project" in md[:first_verdict]
    from clinaudit import api

    assert api.deid_reach(run) == {"counts": {"cases": 5, "lower": 3, "cased": 2, "mode": "names", "deidentified": 5},
                                   "sentences": [_lower_sentence(5, 3), cased], "warn": [True, False]}
    assert api.deid_reach(api.open_run(run)) == api.deid_reach(str(run)) == api.open_run(run).deid_reach
    assert api.deid_reach(tmp_path) == {"counts": None, "sentences": [], "warn": []}  # not a run directory
    # a report of three runs: one block per distinct statement, naming the runs that make it as the report names
    # them, each linked to its section (run2 is a copy of run: the same sentences; run3 says its cases are cased)
    import shutil

    from clinaudit.report.render import build_report

    shutil.copytree(run, tmp_path / "run2")
    shutil.copytree(run, tmp_path / "run3")
    manifest = json.loads((tmp_path / "run3" / "manifest.json").read_text(encoding="utf-8"))
    manifest["summary"]["deid_reach"] = {**manifest["summary"]["deid_reach"], "lower": 0, "cased": 5}
    (tmp_path / "run3" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    build_report([run, tmp_path / "run2", tmp_path / "run3"], tmp_path / "both" / "report.html")
    page = (tmp_path / "both" / "report.html").read_text(encoding="utf-8")
    both = page[page.index('id="findings"'):page.index('id="summary"')]
    assert both.count('<tr class="verdict-') == 6 and both.count('class="small deid-reach-run"') == 2
    assert both.count(_esc(_lower_sentence(5, 3))) == 1 and both.count("</a> (de-identification): ") == 2
    first = both[both.index('class="small deid-reach-run"'):both.index(_esc(_lower_sentence(5, 3)))]
    assert first.count("<a href=") == 2 and "</a>, <a href=" in first  # run and run2 share the block
    assert both.count(_esc("All 5 cases are cased text.")) == 1
    assert both.rindex(_esc(cased)) < both.index('id="verdicts"')
    md2 = (tmp_path / "both" / "report.md").read_text(encoding="utf-8")
    assert md2.count("lower-case transcripts") == 2 and md2.count("\n_") >= 2
    from clinaudit.cli.headline import headline_lines

    assert f"de-identification: {_lower_sentence(5, 3)}" in headline_lines(run)


def test_mock_run_of_cased_cases(tmp_path):
    run = _run(tmp_path, [False, False])
    table = pd.read_csv(run / "tables" / "deid_reach.csv")
    assert table.set_index("style")["cases"].to_dict() == {"lower": 0, "cased": 2}
    top = _top(run)
    assert _esc("All 2 cases are cased text. On the project's held-out benchmark (46 origins, 2026-12-06), "
                       "de-identification removes 99.9 % of names in cased text (lowest: Korean 97.3 %).") in top
    assert "lower-case transcript" not in top


def test_mock_run_with_deid_names_off(tmp_path):
    run = _run(tmp_path, [True, False, False], extra="\ndeid:\n  names: false\n")
    table = pd.read_csv(run / "tables" / "deid_reach.csv")
    assert set(table["deid"]) == {"listed"} and set(table["cases_deidentified"]) == {0}  # the CSV lists no name
    assert table.set_index("style")["cases"].to_dict() == {"lower": 1, "cased": 2}
    top = _top(run)
    assert _esc("Only listed names were removed (deid.names is off): names in the text were sent as written. "
                       "0 of 3 cases list a name.") in top
    assert "Names it misses" not in top
