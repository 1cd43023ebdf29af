"""Table exports shared by every audit and the report: CSV, Markdown and LaTeX.

The helpers are generic (no audit-specific names):

* :func:`format_number` / :data:`DASH` — one number → the string a paper prints
  (``"12.5"``; missing or undefined → ``"–"``);
* :func:`paper_table` — a long table (one row per row-key × column-key) → a wide,
  paper-shaped table whose columns are ``(column key…, metric)``, cells formatted;
* :func:`to_csv`, :func:`to_markdown`, :func:`to_latex` — one DataFrame → text
  (``to_markdown`` is written here: ``DataFrame.to_markdown`` needs ``tabulate``);
* :func:`write_exports` — all three files for one table into a folder.

Markdown and CSV flatten a column MultiIndex into one header row (``"gpt-4o · BL%"``);
LaTeX keeps it as grouped ``\\multicolumn`` headers (pandas Styler).

Exports are for people and their spreadsheets, so model text in them is made inert:

* CSV (:func:`to_csv`, on by default): a text cell or header that starts with ``=``, ``+``,
  ``-``, ``@``, a tab or a carriage return gets a leading ``'`` (the OWASP rule against CSV /
  formula injection), unless the whole cell is a plain number (``-0.5``, ``+3``, ``1e-3``),
  which stays a number; a cell that already starts with ``'`` gets one more (the escape is
  escaped: ``=1+2`` is written ``'=1+2`` and ``'=1+2`` is written ``''=1+2``, so both stay
  distinct and :func:`read_store_cell` reads either back). The one change an export makes that
  does not read back: a lone carriage return inside text becomes a newline (so the writer
  quotes the field and no spreadsheet splits the row there). Numeric columns are never touched.
* The run store (``RUN_DIR/tables/*.csv``: :meth:`clinaudit.rundir.RunDir.write_table`, the
  streamed ``responses`` table) is also safe to open: :func:`store_frame` applies the same rule
  (a cell that already starts with ``'`` gets one more), so the prefix is reversible;
  :func:`read_store_frame` (the run store's one reader: ``RunDir.read_table``, the Python API,
  ``compare``, the report, resume) takes exactly one leading ``'`` off, giving back the exact
  text. A carriage return is kept: :func:`store_csv` writes a table holding one with ``\r\n`` line
  ends, so the CSV writer quotes the cell (no spreadsheet splits the row there).
* Markdown (:func:`to_markdown`): ``[``, ``]``, ``<`` and ``>`` are backslash-escaped, so no
  cell can form a link, an image or raw HTML (a ``javascript:`` / ``data:`` / ``vbscript:``
  URL stays visible text), besides the ``|`` and newline escaping a table needs.
* LaTeX (:func:`to_latex`): every special character is escaped (``\\ & % $ # _ { } ~ ^``).
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .atomic import write_text

__all__ = [
    "DASH",
    "FORMULA_PREFIXES",
    "neutralize_cell",
    "neutralize_frame",
    "store_cell",
    "store_frame",
    "store_csv",
    "read_store_cell",
    "read_store_frame",
    "markdown_cell",
    "format_number",
    "flatten_columns",
    "to_csv",
    "to_markdown",
    "to_latex",
    "paper_table",
    "write_exports",
    "EXPORT_SUFFIXES",
]

#: What a paper prints for "no value" (e.g. maxΔBL when no group exceeds the baseline).
DASH = "–"

#: Export format -> file suffix.
EXPORT_SUFFIXES: dict[str, str] = {"csv": ".csv", "md": ".md", "latex": ".tex"}


def _missing(x: Any) -> bool:
    if x is None:
        return True
    try:
        return bool(pd.isna(x))
    except (TypeError, ValueError):
        return False


def format_number(x: Any, digits: int = 1, missing: str = DASH) -> str:
    """``12.3456 → "12.3"``; None/NaN → ``missing``; strings pass through unchanged."""
    if isinstance(x, str):
        return x
    if _missing(x):
        return missing
    if not isinstance(x, bool) and isinstance(x, numbers.Integral):
        return str(int(x))
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    return f"{v:.{digits}f}"


def flatten_columns(df: pd.DataFrame, sep: str = " · ") -> pd.DataFrame:
    """A copy whose column MultiIndex (if any) is joined into single strings."""
    out = df.copy()
    if isinstance(out.columns, pd.MultiIndex):
        out.columns = [sep.join(str(p) for p in col if str(p) != "") for col in out.columns]
    return out


def _with_index(df: pd.DataFrame, index: bool) -> pd.DataFrame:
    if not index:
        return df
    if isinstance(df.index, pd.MultiIndex) or df.index.name is not None or any(df.index.names):
        return df.reset_index()
    return df.reset_index(drop=False)


def _cell_text(x: Any, digits: int, missing: str) -> str:
    if isinstance(x, str):
        return x
    if _missing(x):
        return missing
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, numbers.Integral):
        return str(int(x))
    if isinstance(x, numbers.Real):
        return format_number(x, digits, missing)
    return str(x)


#: First characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection").
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_LONE_CR = re.compile(r"\r(?!\n)")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_STORE_FIRST = (*FORMULA_PREFIXES, "'")  # first characters of a cell that get the prefix (the prefix itself too)


def neutralize_cell(value: Any) -> Any:
    """``"=HYPERLINK(...)"`` -> ``"'=HYPERLINK(...)"``; numbers, plain-number strings and other values unchanged.

    The escape character is escaped too: a text already starting with ``'`` gets one more (``"'=1+2"`` ->
    ``"''=1+2"``), so ``=1+2`` and ``'=1+2`` stay distinct in an export (a spreadsheet shows each as it was, the
    first ``'`` being its text prefix) and :func:`read_store_cell` gives either back exactly.

    A lone carriage return inside text becomes a newline: CSV writers quote a field holding a newline
    but not one holding only ``\r``, which a spreadsheet would read as a row break (starting a new,
    unneutralised cell).
    """
    if not isinstance(value, str):
        return value
    if value[:1] in _STORE_FIRST and not _PLAIN_NUMBER.fullmatch(value):
        value = "'" + value
    if "\r" in value:
        value = _LONE_CR.sub("\n", value)
    return value


def store_cell(value: Any) -> Any:
    """A run-store cell: formula-like text gets the ``'`` of :func:`neutralize_cell`, reversibly (a text already
    starting with ``'`` gets one more, so :func:`read_store_cell` can take exactly one off). A carriage return is
    kept: the run store's writers quote a cell holding one (:func:`store_csv`)."""
    if isinstance(value, str) and value[:1] in _STORE_FIRST and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def read_store_cell(value: Any) -> Any:
    """The exact value of a run-store cell written by :func:`store_cell`."""
    return value[1:] if isinstance(value, str) and value[:1] == "'" else value


def _text_columns(df: pd.DataFrame) -> list[int]:
    return [i for i, dt in enumerate(df.dtypes) if not (pd.api.types.is_numeric_dtype(dt)
                                                         or pd.api.types.is_bool_dtype(dt)
                                                         or pd.api.types.is_datetime64_any_dtype(dt))]


def _str_mask(col: pd.Series, py: Callable[[str], Any], arrow: Callable[[Any], Any]) -> np.ndarray:
    """Which cells of ``col`` are text passing the test, as a boolean array: ``arrow(chunked_array)`` (pyarrow compute,
    no Python per cell) for pandas' pyarrow-backed text columns (what ``read_csv`` and lists of strings give),
    ``py(cell)`` per cell for an object column."""
    if getattr(col.dtype, "storage", None) == "pyarrow":
        import pyarrow.compute as pc

        try:
            hits = pc.fill_null(arrow(col.array.__arrow_array__()), False)
            return np.asarray(hits.to_numpy(zero_copy_only=False), dtype=bool).copy()
        except (TypeError, ValueError, NotImplementedError):  # pyarrow: not a text type (a list, a struct ...)
            pass
    return np.fromiter((isinstance(v, str) and bool(py(v)) for v in col.to_numpy()), dtype=bool, count=len(col))


def _starts_with_any(prefixes: tuple[str, ...]) -> Callable[[Any], Any]:
    def test(arr: Any) -> Any:
        import pyarrow as pa
        import pyarrow.compute as pc

        return pc.is_in(pc.utf8_slice_codeunits(arr, 0, 1), value_set=pa.array(list(prefixes)))
    return test


def _starts_with(prefix: str) -> Callable[[Any], Any]:
    def test(arr: Any) -> Any:
        import pyarrow.compute as pc

        return pc.starts_with(arr, prefix)
    return test


def _replace(col: pd.Series, mask: Any, fn: Callable[[str], str]) -> pd.Series:
    values = col.to_numpy(dtype=object, copy=True)
    values[mask] = [fn(v) for v in values[mask]]  # only the cells that change: a few in a large table
    keep = pd.api.types.is_object_dtype(col) or (pd.api.types.is_string_dtype(col)
                                                 and not isinstance(col.dtype, pd.CategoricalDtype))
    return pd.Series(values, index=col.index, name=col.name, dtype=col.dtype if keep else object)


def _rewrite(df: pd.DataFrame, cols: list[Any], todo: list[tuple[int, np.ndarray]],
             fn: Callable[[str], str]) -> pd.DataFrame:
    """``df`` with ``fn`` applied to the masked cells of each ``(column position, mask)`` of ``todo`` and its column
    names set to ``cols``; ``df`` itself when nothing changes."""
    if not todo and cols == list(df.columns):
        return df
    out = df.copy()
    for i, mask in todo:
        out.isetitem(i, _replace(out.iloc[:, i], mask, fn))
    out.columns = cols
    return out


def store_frame(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` as the run store writes it (:func:`store_cell` on text cells and column names).

    Vectorised: pyarrow's compute functions find the cells to change in pandas' text columns (most columns have
    none), and only those are rewritten."""
    cols = [store_cell(c) if isinstance(c, str) else c for c in df.columns]
    todo = []
    for i in _text_columns(df):
        col = df.iloc[:, i]
        first = _str_mask(col, lambda v: v[:1] in _STORE_FIRST, _starts_with_any(_STORE_FIRST))
        if not first.any():
            continue
        at = first.nonzero()[0]  # a few cells: those starting with a formula character or ', checked one by one
        first[at[[_PLAIN_NUMBER.fullmatch(v) is not None for v in col.iloc[at]]]] = False  # "-0.5" stays a number
        if first.any():
            todo.append((i, first))
    return _rewrite(df, cols, todo, lambda v: "'" + v)


def store_csv(df: pd.DataFrame, path: str | Path, *, mode: str = "w", header: bool = True) -> None:
    """Write ``df`` to the run-store CSV ``path`` (:func:`store_frame`); ``mode="a"`` appends.

    Lines end in ``"\n"``, or in ``"\r\n"`` when a text cell or a column name holds a carriage return: Python's CSV
    writer quotes a field holding a character of its line end, so a lone ``\r`` is quoted (no spreadsheet or reader
    ends the row there) and reads back exactly."""
    encoded = store_frame(df)
    text = encoded.to_csv(index=False, header=header, lineterminator="\n")
    if "\r" in text:  # a carriage return in a cell or a name (one search of the text: cheaper than of every column)
        text = encoded.to_csv(index=False, header=header, lineterminator="\r\n")
    if mode == "a":  # appending a chunk of rows (the streamed responses table)
        with open(path, mode, encoding="utf-8", newline="") as fh:
            fh.write(text)
    else:  # a whole table: atomically, the previous version or the new one
        write_text(path, text, newline="")


def read_store_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A run-store table as read by ``pandas.read_csv`` -> its exact values (:func:`read_store_cell`), vectorised.

    A column whose cells were all neutralised (e.g. ``'-x``) comes back as text; a column of plain
    numbers was never touched."""
    if not len(df.columns):
        return df
    cols = [read_store_cell(c) if isinstance(c, str) else c for c in df.columns]
    todo = []
    for i in _text_columns(df):
        col = df.iloc[:, i]
        if not (pd.api.types.is_object_dtype(col) or pd.api.types.is_string_dtype(col)):
            continue
        mask = _str_mask(col, lambda v: v[:1] == "'", _starts_with("'"))
        if mask.any():
            todo.append((i, mask))
    return _rewrite(df, cols, todo, lambda v: v[1:])


def neutralize_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` whose text cells and column names are :func:`neutralize_cell`-ed (numeric columns kept)."""
    out = df.copy()
    for i in range(out.shape[1]):
        col = out.iloc[:, i]
        if not (pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col)
                or pd.api.types.is_datetime64_any_dtype(col)):
            out.isetitem(i, col.map(neutralize_cell))
    out.columns = [neutralize_cell(c) if isinstance(c, str) else c for c in out.columns]
    return out


def to_csv(df: pd.DataFrame, path: str | Path | None = None, *, index: bool = False, safe: bool = True) -> str:
    """CSV text of ``df`` (column MultiIndex flattened); also written to ``path`` when given.

    ``safe`` (default): formula-like text cells and headers are neutralised (:func:`neutralize_frame`),
    as every user-facing CSV must be. ``safe=False`` writes the values exactly (for data files that
    clinaudit or another program reads back).
    """
    flat = _with_index(flatten_columns(df), index)
    if safe:
        flat = neutralize_frame(flat)
    text = flat.to_csv(index=False)
    if path is not None:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        write_text(p, text)  # atomically: the previous version or the new one, never a cut file
    return text


_MD_SPECIAL = re.compile(r"([\\|\[\]<>])")


def markdown_cell(s: str) -> str:
    """Public name of the Markdown cell escaping (for hand-built Markdown tables)."""
    return _md_escape(s)


def _md_escape(s: str) -> str:
    """One Markdown table cell: backslash-escape ``\\ | [ ] < >`` (no link, image, autolink or raw HTML
    can form, so a ``javascript:`` URL stays text); newlines become spaces."""
    s = s.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    return _MD_SPECIAL.sub(r"\\\1", s)


def to_markdown(df: pd.DataFrame, *, index: bool = False, digits: int = 1, missing: str = DASH,
                align_numbers: bool = True) -> str:
    """A GitHub-flavoured Markdown pipe table.

    Floats are printed with ``digits`` decimals, missing values as ``missing``;
    ``|`` and newlines inside cells are escaped. Numeric columns are right-aligned.
    """
    flat = _with_index(flatten_columns(df), index)
    header = [_md_escape(str(c)) for c in flat.columns]
    rows = [[_md_escape(_cell_text(v, digits, missing)) for v in rec] for rec in flat.itertuples(index=False)]
    aligns = []
    for c in flat.columns:
        numeric = align_numbers and pd.api.types.is_numeric_dtype(flat[c]) and not pd.api.types.is_bool_dtype(flat[c])
        aligns.append("---:" if numeric else "---")
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(aligns) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_LATEX_UNICODE = {
    "Δ": r"$\Delta$",
    "κ": r"$\kappa$",
    "–": "--",
    "—": "---",
    "≥": r"$\geq$",
    "≤": r"$\leq$",
    "±": r"$\pm$",
    "·": r"$\cdot$",
    "∞": r"$\infty$",
}


def _latex_escape(s: str) -> str:
    s = re.sub(r"[\r\n\f\v\x85\u2028\u2029]+", " ", s)  # a blank line inside a cell would end the paragraph
    out = "".join(_LATEX_SPECIAL.get(ch, ch) for ch in s)
    for k, v in _LATEX_UNICODE.items():
        out = out.replace(k, v)
    return out


def to_latex(df: pd.DataFrame, caption: str = "", label: str = "", *, index: bool = False, digits: int = 1,
             missing: str = DASH, position: str = "htbp") -> str:
    """A LaTeX ``table`` (booktabs rules) via the pandas Styler.

    Every cell, header and caption is escaped (``% _ & $ # { }``; Δ, κ and – become
    math/ASCII forms so the output compiles with pdflatex). A column MultiIndex
    becomes grouped ``\\multicolumn`` headers. Needs ``\\usepackage{booktabs}``.
    """
    work = df.copy()
    if not index:
        work = work.reset_index(drop=True)
    cells = work.map(lambda v: _latex_escape(_cell_text(v, digits, missing)))
    if isinstance(cells.columns, pd.MultiIndex):
        cells.columns = pd.MultiIndex.from_tuples(
            [tuple(_latex_escape(str(p)) for p in col) for col in cells.columns])
    else:
        cells.columns = [_latex_escape(str(c)) for c in cells.columns]
    if index:
        if isinstance(cells.index, pd.MultiIndex):
            cells.index = pd.MultiIndex.from_tuples([tuple(_latex_escape(str(p)) for p in ix) for ix in cells.index],
                                                    names=[_latex_escape(str(n)) if n else n for n in cells.index.names])
        else:
            cells.index = pd.Index([_latex_escape(str(ix)) for ix in cells.index],
                                   name=_latex_escape(str(cells.index.name)) if cells.index.name else None)
    styler = cells.style
    if not index:
        styler = styler.hide(axis="index")
    return styler.to_latex(
        caption=_latex_escape(caption) if caption else None,
        label=label or None,
        position=position,
        hrules=True,
        multicol_align="c",
        multirow_align="t",
        column_format=None,
    )


def paper_table(
    df: pd.DataFrame,
    rows: Sequence[str],
    columns: Sequence[str],
    values: Sequence[str],
    *,
    formatters: Mapping[str, Callable[[Any], str]] | None = None,
    digits: int = 1,
    missing: str = DASH,
    row_order: Sequence[Any] | None = None,
    column_order: Sequence[Any] | None = None,
    value_labels: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Long → wide, paper-shaped table with formatted string cells.

    ``df`` has one row per (``rows`` key, ``columns`` key). The result is indexed
    by the ``rows`` keys and has a column MultiIndex ``(*columns keys, metric)``
    with one block of ``values`` per column key, e.g. rows = context, columns =
    model, values = [BL%, maxΔBL, ΔCF, %dlg] gives P1's Table 2 layout.
    ``formatters`` maps a value column to ``f(value) -> str`` (default
    :func:`format_number`); missing cells print ``missing``. Row and column keys
    keep their first-seen order unless ``row_order`` / ``column_order`` are given.
    ``value_labels`` renames the metric level (``{"max_dBL": "maxΔBL"}``).
    """
    rows, columns, values = list(rows), list(columns), list(values)
    missing_cols = [c for c in rows + columns + values if c not in df.columns]
    if missing_cols:
        raise KeyError(f"columns not in the table: {missing_cols}")
    fmts = dict(formatters or {})

    def fmt(col: str, v: Any) -> str:
        if col in fmts:
            return fmts[col](v)
        return format_number(v, digits, missing)

    def key(rec: Mapping[str, Any], cols: list[str]) -> tuple[Any, ...]:
        return tuple(rec[c] for c in cols)

    records = df.to_dict("records")
    row_keys: list[tuple[Any, ...]] = list(dict.fromkeys(key(r, rows) for r in records))
    col_keys: list[tuple[Any, ...]] = list(dict.fromkeys(key(r, columns) for r in records))
    if row_order is not None:
        wanted = [k if isinstance(k, tuple) else (k,) for k in row_order]
        row_keys = [k for k in wanted if k in row_keys] + [k for k in row_keys if k not in wanted]
    if column_order is not None:
        wanted = [k if isinstance(k, tuple) else (k,) for k in column_order]
        col_keys = [k for k in wanted if k in col_keys] + [k for k in col_keys if k not in wanted]
    labels = dict(value_labels or {})
    cells: dict[tuple[Any, ...], dict[tuple[Any, ...], str]] = {rk: {} for rk in row_keys}
    for r in records:
        rk, ck = key(r, rows), key(r, columns)
        for v in values:
            cells[rk][ck + (labels.get(v, v),)] = fmt(v, r[v])
    out_cols = [ck + (labels.get(v, v),) for ck in col_keys for v in values]
    data = [[cells[rk].get(c, missing) for c in out_cols] for rk in row_keys]
    index: pd.Index
    if len(rows) == 1:
        index = pd.Index([rk[0] for rk in row_keys], name=rows[0])
    else:
        index = pd.MultiIndex.from_tuples(row_keys, names=rows)
    col_index = pd.MultiIndex.from_tuples(out_cols, names=[*columns, "metric"]) if out_cols else pd.Index([])
    return pd.DataFrame(data, index=index, columns=col_index, dtype=object)


def write_exports(
    df: pd.DataFrame,
    out_dir: str | Path,
    stem: str,
    *,
    formats: Sequence[str] = ("csv", "md", "latex"),
    caption: str = "",
    label: str = "",
    index: bool = False,
    digits: int = 1,
) -> dict[str, Path]:
    """Write ``<stem>.csv`` / ``.md`` / ``.tex`` into ``out_dir``; returns format -> path."""
    unknown = [f for f in formats if f not in EXPORT_SUFFIXES]
    if unknown:
        raise ValueError(f"unknown export format(s) {unknown}; use {', '.join(EXPORT_SUFFIXES)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for f in formats:
        p = out / f"{stem}{EXPORT_SUFFIXES[f]}"
        if f == "csv":
            to_csv(df, p, index=index)
        elif f == "md":
            text = (f"**{caption}**\n\n" if caption else "") + to_markdown(df, index=index, digits=digits)
            write_text(p, text)
        else:
            write_text(p, to_latex(df, caption, label, index=index, digits=digits))
        paths[f] = p
    return paths
