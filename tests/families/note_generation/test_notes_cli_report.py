"""`clinaudit note-tables` / `clinaudit judge-agreement` and the note_generation report section."""

from __future__ import annotations

from pathlib import Path

import pytest

from clinaudit.cli.main import main
from clinaudit.report.base import Compare, Figure, Metric, Table, Text, get_section_builder
from clinaudit.rundir import RunDir
from clinaudit.spec import parse_spec_dict
from clinaudit.pipeline import run_spec

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "note_generation-mock.yaml"


@pytest.fixture(scope="module")
def mock_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ngcli") / "run"
    run_spec(EXAMPLE, out, progress=False)
    return out


def test_note_tables_formats(mock_run, tmp_path, capsys):
    assert main(["note-tables", str(mock_run), "--format", "md", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "| demo:dialogs | D: Poverty | 0.0 | A/B(100.0) | 100.0 | 100.0 |" in out
    assert (tmp_path / "paper_incidence_race.md").exists()
    assert main(["note-tables", str(mock_run), "--format", "latex", "--out", str(tmp_path)]) == 0
    tex = (tmp_path / "paper_incidence_race.tex").read_text(encoding="utf-8")
    assert r"\multicolumn{4}{c}{mock:notes}" in tex
    assert main(["note-tables", str(mock_run), "--format", "csv", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "paper_language_disparity_race.csv").exists()


def test_note_tables_compare(mock_run, tmp_path, capsys):
    assert main(["note-tables", str(mock_run), "--compare", "0", "--context", "Poverty", "--source", "patient",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Dialog 0: notes by mock:notes under each race value (P: Poverty)")
    assert "## Black (incidence: YES)" in out and "## White (incidence: NO)" in out
    assert "cannot **afford** treatment" in out
    assert (tmp_path / "compare_0.md").exists()
    assert main(["note-tables", str(mock_run), "--compare", "nope", "--out", str(tmp_path)]) == 2
    assert "no notes for dialog 'nope'" in capsys.readouterr().err


def test_judge_agreement_command(mock_run, tmp_path, capsys):
    from clinaudit.data import demo_path

    assert main(["judge-agreement", "--judgments", str(mock_run), "--human", str(demo_path("human_labels.csv")),
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "| incidence | mock:notes | decision | 13 |" in out
    assert (tmp_path / "judge_agreement.csv").exists()
    bad = tmp_path / "bad.csv"
    bad.write_text("case_id,context,variant,label\nd1,Poverty,baseline,sure\n", encoding="utf-8")
    assert main(["judge-agreement", "--judgments", str(mock_run), "--human", str(bad), "--out", str(tmp_path)]) == 2
    assert "row 1, field 'label'" in capsys.readouterr().err


def test_report_section_blocks(mock_run):
    build = get_section_builder("note_generation")
    assert build is not None
    sec = build(RunDir(mock_run))
    kinds = [type(b) for b in sec.blocks]
    assert Table in kinds and Figure in kinds and Metric in kinds and Compare in kinds
    titles = [getattr(b, "title", "") for b in sec.blocks]
    assert any("P1 Tables 2–4" in t for t in titles) and any("P1 Tables 5–6" in t for t in titles)
    assert "Judge agreement with human labels (P1 §4.3)" in titles
    # reliability stated next to the judge-based tables
    i = next(k for k, b in enumerate(sec.blocks) if isinstance(b, Table) and "Tables 2–4" in b.title)
    rel = [b for b in sec.blocks[:i] if isinstance(b, Text) and "Judge reliability (incidence)" in b.text]
    assert rel and "agreement" in rel[-1].text and "κ" in rel[-1].text
    cmp = next(b for b in sec.blocks if isinstance(b, Compare))
    assert len(cmp.variants) >= 3 and "afford" in cmp.highlight
    fig = next(b for b in sec.blocks if isinstance(b, Figure))
    assert {"group", "rate", "ci_low", "ci_high"} <= set(fig.data.columns)
    m = next(b for b in sec.blocks if isinstance(b, Metric))
    assert m.n and m.test and m.family
    # beside every shift: n dialogs, n pairs, the baseline, the difference and its CI, the test with H0, the family
    assert "baseline" in m.label and "dialogs" in m.label and "pairs" in m.label and "H0:" in m.test
    sh = next(b for b in sec.blocks if isinstance(b, Table) and b.name == "incidence_shifts").df
    assert {"n dialogs", "n pairs", "BL% (baseline)", "ΔBL (pp) [95% CI]", "test", "H0", "p", "p_adj",
            "family"} <= set(sh.columns)
    row = sh[(sh["row"] == "D: Poverty") & (sh["value"] == "Black")].iloc[0]
    # demo MTS dialogs 0-3: baseline 0/4, Black 4/4 (scripted mock) -> ΔBL 100 over 4 dialog pairs
    assert (row["n dialogs"], row["n pairs"], row["BL% (baseline)"]) == (4, 4, "0.0")
    assert row["ΔBL (pp) [95% CI]"].startswith("100.0 [") and row["test"] == "sign-flip permutation over cases"
    assert row["family"].startswith("ΔBL:") and row["H0"].startswith("H0:")
    assert "incidence judge" in sec.summary
    assert "0 with residual identifiers" in sec.summary["dialogs excluded"]


def test_report_says_reliability_unknown_without_labels(tmp_path):
    import yaml

    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["params"].pop("human_labels")
    data["params"]["contexts"] = ["Poverty"]
    data["data"] = [{"format": "demo:dialogs", "limit": 2}]
    spec, params = parse_spec_dict(data)
    run_spec(spec, tmp_path / "run", params=params, progress=False)
    sec = get_section_builder("note_generation")(RunDir(tmp_path / "run"))
    warn = [b for b in sec.blocks if isinstance(b, Text) and b.kind == "warning" and "reliability" in b.text.lower()]
    assert warn and "unknown" in warn[0].text and "parse rate 100%" in warn[0].text
    assert "reliability unknown" in sec.summary["incidence judge"]
