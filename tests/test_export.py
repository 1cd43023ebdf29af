"""Shared table exports: CSV, Markdown (no tabulate), LaTeX, paper-shaped tables."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from clinaudit.export import (
    DASH,
    flatten_columns,
    format_number,
    paper_table,
    to_csv,
    to_latex,
    to_markdown,
    write_exports,
)


def _long() -> pd.DataFrame:
    return pd.DataFrame({
        "row": ["D: Poverty", "D: Poverty", "P: Poverty", "P: Poverty"],
        "model": ["gpt", "llama", "gpt", "llama"],
        "BL%": [64.54, 58.1, 98.9, math.nan],
        "maxΔBL": ["B(5.4)", "O(8.6)", DASH, "L(2.2)"],
        "n": [93, 93, 93, 90],
    })


def test_format_number():
    assert format_number(12.345) == "12.3"
    assert format_number(12.345, 2) == "12.35"
    assert format_number(None) == DASH and format_number(float("nan")) == DASH and format_number(pd.NA) == DASH
    assert format_number(7) == "7" and format_number(np.int64(7)) == "7"
    assert format_number("A/B(3.0)") == "A/B(3.0)"
    assert format_number(float("inf")) == "∞"
    assert format_number(None, missing="n/a") == "n/a"


def test_paper_table_layout_and_order():
    t = paper_table(_long(), rows=["row"], columns=["model"], values=["BL%", "maxΔBL"],
                    value_labels={"BL%": "BL(%)"}, column_order=["llama", "gpt"])
    assert list(t.index) == ["D: Poverty", "P: Poverty"]
    assert list(t.columns) == [("llama", "BL(%)"), ("llama", "maxΔBL"), ("gpt", "BL(%)"), ("gpt", "maxΔBL")]
    assert t.loc["D: Poverty", ("gpt", "BL(%)")] == "64.5"
    assert t.loc["P: Poverty", ("llama", "BL(%)")] == DASH
    assert t.loc["P: Poverty", ("gpt", "maxΔBL")] == DASH
    # a missing (row, column) combination prints the dash
    t2 = paper_table(_long().iloc[:3], rows=["row"], columns=["model"], values=["n"])
    assert t2.loc["P: Poverty", ("llama", "n")] == DASH and t2.loc["P: Poverty", ("gpt", "n")] == "93"
    t3 = paper_table(_long(), rows=["row"], columns=["model"], values=["n"], row_order=["P: Poverty"],
                     formatters={"n": lambda v: f"n={v}"})
    assert list(t3.index) == ["P: Poverty", "D: Poverty"] and t3.iloc[0, 0] == "n=93"
    with pytest.raises(KeyError, match="nope"):
        paper_table(_long(), rows=["row"], columns=["model"], values=["nope"])


def test_markdown_escapes_and_aligns():
    df = pd.DataFrame({"name": ["a|b", "line\nbreak", None], "x": [1.25, math.nan, 3.0], "k": [1, 2, 3]})
    md = to_markdown(df)
    lines = md.strip().splitlines()
    assert lines[0] == "| name | x | k |"
    assert lines[1] == "| --- | ---: | ---: |"
    assert lines[2] == "| a\\|b | 1.2 | 1 |"  # 1.25 -> 1.2 (round half to even)
    assert lines[3] == f"| line break | {DASH} | 2 |"
    assert lines[4] == f"| {DASH} | 3.0 | 3 |"


def test_markdown_multiindex_and_index():
    t = paper_table(_long(), rows=["row"], columns=["model"], values=["BL%"])
    md = to_markdown(t, index=True)
    assert md.splitlines()[0] == "| row | gpt · BL% | llama · BL% |"
    assert "| D: Poverty | 64.5 | 58.1 |" in md
    flat = flatten_columns(t)
    assert list(flat.columns) == ["gpt · BL%", "llama · BL%"]


def test_latex_escapes_and_multicolumn():
    t = paper_table(_long(), rows=["row"], columns=["model"], values=["BL%", "maxΔBL"])
    tex = to_latex(t, caption="Rates in % & more_stuff", label="tab:x", index=True)
    assert r"\caption{Rates in \% \& more\_stuff}" in tex
    assert r"\label{tab:x}" in tex
    assert r"\multicolumn{2}{c}{gpt}" in tex
    assert r"max$\Delta$BL" in tex and r"BL\%" in tex
    assert "P: Poverty & 98.9 & -- &" in tex
    assert r"\toprule" in tex and r"\bottomrule" in tex
    plain = to_latex(pd.DataFrame({"a_b": ["x#y"], "v": [0.5]}))
    assert r"a\_b" in plain and r"x\#y" in plain and "0.5" in plain


def test_csv_and_write_exports(tmp_path):
    t = paper_table(_long(), rows=["row"], columns=["model"], values=["BL%"])
    text = to_csv(t, tmp_path / "sub" / "t.csv", index=True)
    assert text.splitlines()[0] == "row,gpt · BL%,llama · BL%"
    assert (tmp_path / "sub" / "t.csv").read_text(encoding="utf-8") == text
    paths = write_exports(t, tmp_path / "out", "tab", caption="Cap", label="tab:t", index=True)
    assert sorted(paths) == ["csv", "latex", "md"]
    assert paths["md"].read_text(encoding="utf-8").startswith("**Cap**\n\n| row |")
    assert paths["latex"].suffix == ".tex"
    with pytest.raises(ValueError, match="unknown export format"):
        write_exports(t, tmp_path, "x", formats=["pdf"])
