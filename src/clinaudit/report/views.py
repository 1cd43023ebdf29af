"""Report blocks -> the view dicts the HTML template renders (one builder per block type).

Model output is untrusted: the views hold plain strings, which reach the page
through Jinja2 with autoescaping on; the only markup is a figure's SVG,
sanitised by :func:`~clinaudit.report.svg.sanitize_svg`.
"""

from __future__ import annotations

import difflib
import numbers
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .base import Compare, Figure, Metric, Section, Table, Text
from .formatting import (
    DASH,
    METRIC_FRACTION,
    PERCENT_NAME,
    csv_text,
    data_uri,
    display_frame,
    format_value,
    header_rows,
    slug,
)
from .svg import close_figure, figure_svg
from .textdiff import diff_segments
from ..atomic import write_text

__all__ = [
    "RunInfo",
    "PageIds",
    "table_view",
    "figure_view",
    "metric_view",
    "compare_view",
    "text_view",
    "block_view",
    "error_view",
    "raw_tables_view",
]

_LONG_CELL = 120  # characters shown before a long cell folds into a <details>
#: a table with more rows than this is folded (a click shows it; its CSV link stays visible)
TABLE_FOLD_ROWS = 5
#: a plain paragraph longer than this (characters) folds behind its first sentence
TEXT_FOLD_CHARS = 500
_MAX_RAW_CSV = 5 * 1024 * 1024  # raw run tables larger than this get no inline download in the fallback


@dataclass
class RunInfo:
    """One run directory as the report shows it: its manifest, section, block views and tables."""

    path: Path
    manifest: dict[str, Any]
    audit: str
    section: Section | None = None
    error: str | None = None
    error_trace: str | None = None
    anchor: str = ""
    views: list[dict[str, Any]] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame, str, str]] = field(default_factory=list)  # (title, display df, caption, stem)


#: a table's CSV larger than this is written next to the report instead of inlined as a data: link
INLINE_CSV_MAX = 1_000_000
#: at most this many bytes of CSV are inlined in one page; later tables go next to the report
INLINE_CSV_BUDGET = 8_000_000


class PageIds:
    """Unique HTML ids of one page (slugs, numbered on collision), and where its CSV downloads go.

    ``files_dir``: the folder next to the report for CSVs too large to inline (:data:`INLINE_CSV_MAX`,
    or once the page has inlined :data:`INLINE_CSV_BUDGET` bytes); ``None`` inlines every CSV."""

    def __init__(self, files_dir: Path | None = None) -> None:
        self.used: set[str] = set()
        self.files_dir = files_dir
        self.inline_left = INLINE_CSV_BUDGET
        self.files: list[Path] = []

    def csv_link(self, df: pd.DataFrame, name: str) -> dict[str, Any]:
        """``{"href", "file", "bytes"}`` for a table's CSV download: a ``data:`` URI, or (too large) a file
        written into ``files_dir`` linked by its relative path (``file`` is then its path)."""
        text = csv_text(df)
        size = len(text.encode("utf-8"))
        if self.files_dir is None or (size <= INLINE_CSV_MAX and size <= self.inline_left):
            self.inline_left -= size
            return {"href": data_uri(text), "file": None, "bytes": size}
        self.files_dir.mkdir(parents=True, exist_ok=True)
        stem, k = slug(name.removesuffix(".csv"), "table"), 2
        path = self.files_dir / f"{stem}.csv"
        while path in self.files:
            path, k = self.files_dir / f"{stem}-{k}.csv", k + 1
        write_text(path, text)
        self.files.append(path)
        return {"href": f"{self.files_dir.name}/{path.name}", "file": str(path), "bytes": size}

    def make(self, base: str) -> str:
        base = slug(base, "block")
        cand, i = base, 2
        while cand in self.used:
            cand, i = f"{base}-{i}", i + 1
        self.used.add(cand)
        return cand


def table_view(block: Table, audit: str, ids: PageIds, info: RunInfo) -> dict[str, Any]:
    df = block.df if isinstance(block.df, pd.DataFrame) else pd.DataFrame(block.df)
    stem = block.name or slug(block.title)
    total = len(df)
    limit = max(1, int(block.max_rows or 200))
    shown, kinds = display_frame(df.head(limit))  # only the rows shown are formatted
    caption = block.caption
    if total > limit:
        caption = (caption + " " if caption else "") + f"(first {limit} of {total} rows; full table in the CSV)"
    info.tables.append((block.title, shown, caption, stem))
    cols = [(" · ".join(c) if isinstance(c, tuple) else str(c)) for c in shown.columns]
    rows = []
    for rec in shown.itertuples(index=False):
        row = []
        for c, v in zip(cols, rec):
            s = str(v)
            kind = kinds.get(c, "text")
            cell = {"text": s, "num": kind in ("num", "int", "p", "pct", "ci"), "full": None}
            if len(s) > _LONG_CELL:
                cell["text"], cell["full"] = s[:64].rstrip() + "…", s
            row.append(cell)
        rows.append(row)
    return {
        "type": "table", "id": ids.make(f"{audit}-{stem}"), "title": block.title, "caption": block.caption,
        "header": header_rows(shown.columns), "rows": rows, "total": total, "shown": len(shown),
        "ncols": len(cols), "fold": total > TABLE_FOLD_ROWS, **_download(ids, df, f"{audit}-{slug(stem)}.csv"),
    }


def _download(ids: PageIds, df: pd.DataFrame, name: str) -> dict[str, Any]:
    link = ids.csv_link(df, name)
    return {"csv_href": link["href"], "csv_name": name, "csv_file": link["file"],
            "csv_mb": f"{link['bytes'] / 1e6:.1f} MB"}


def figure_view(block: Figure, audit: str, ids: PageIds) -> dict[str, Any]:
    fid = ids.make(f"{audit}-{block.name or block.title or 'figure'}")
    from markupsafe import Markup

    data = block.data if isinstance(block.data, pd.DataFrame) else pd.DataFrame(block.data)
    stem = block.name or slug(block.title, "figure")
    empty = all_zero_effects(data)
    if empty:  # an empty box says nothing: one sentence instead (the numbers stay downloadable)
        close_figure(block.fig)
        svg, note = "", ("Every plotted value is 0 (no difference in any cell), so the chart is not drawn; "
                         "its numbers are in the CSV.")
    else:
        svg, note = figure_svg(block.fig, f"{fid}-"), None
    return {"type": "figure", "id": fid, "title": block.title, "caption": block.caption,
            "svg": Markup(svg),  # sanitised and re-serialised by sanitize_svg: all text escaped
            "empty": note, "n_rows": len(data), **_download(ids, data, f"{audit}-{slug(stem)}-numbers.csv")}


#: numeric columns of a figure's numbers that are not what it plots (counts, p-values, seeds)
_NOT_PLOTTED = re.compile(r"^(n|n_.*|.*_n|k|seed|seeds|p|p_adj|p_.*|.*_p|.*count.*|.*permutations|statistic)$", re.I)


def all_zero_effects(data: pd.DataFrame, tol: float = 1e-12) -> bool:
    """Whether every plotted number of a figure's data is 0 (or missing): its numeric columns other than
    counts, p-values and seeds (:data:`_NOT_PLOTTED`). A figure with no such column is not empty."""
    cols = [c for c in data.columns if not _NOT_PLOTTED.match(str(c))
            and pd.api.types.is_numeric_dtype(data[c]) and not pd.api.types.is_bool_dtype(data[c])]
    if data.empty or not cols:
        return False
    vals = data[cols].astype(float).to_numpy()
    finite = vals[~pd.isna(vals)]
    return bool(finite.size == 0 or (abs(finite) <= tol).all())


def metric_view(block: Metric) -> dict[str, Any]:
    v: object = block.value  # declared float | str; numpy numbers and ints too
    as_pct = (not isinstance(v, (str, bool)) and isinstance(v, numbers.Real) and 0 <= float(v) <= 1
              and METRIC_FRACTION.search(block.label) is not None and not PERCENT_NAME.search(block.label))
    value = v if isinstance(v, str) else format_value(v, "pct" if as_pct else "auto")
    if not isinstance(v, str) and re.fullmatch(r"-?[\d,]+\.\d*0", value):
        value = value.rstrip("0").rstrip(".")  # 12.50 -> 12.5 (a table keeps its column's decimals)
    ci = None
    if block.ci is not None:
        try:
            lo, hi = block.ci
            ci = f"[{format_value(lo, 'num')}, {format_value(hi, 'num')}]"
        except (TypeError, ValueError):
            ci = str(block.ci)
    return {"type": "metric", "label": block.label, "value": value,
            "n": None if block.n is None else format_value(block.n), "ci": ci, "test": block.test,
            "p": None if block.p is None else format_value(block.p, "p"),
            "p_adj": None if block.p_adj is None else format_value(block.p_adj, "p"), "family": block.family}


def compare_view(block: Compare, audit: str, ids: PageIds) -> dict[str, Any]:
    variants = {str(k): ("" if v is None else str(v)) for k, v in (block.variants or {}).items()}
    labels = list(variants)
    ref = block.reference if block.reference in variants else (labels[0] if labels else None)
    cols = []
    ref_words = variants.get(ref, "").split() if ref is not None else []
    for label in labels:
        is_ref = label == ref
        words = variants[label].split()
        shared = difflib.SequenceMatcher(None, ref_words, words, autojunk=False).ratio() if not is_ref else 1.0
        # a text that shares little with the reference reads better with only its own words marked
        segs = diff_segments(variants[label], None if is_ref or ref is None else variants.get(ref), block.highlight or [],
                             show_deleted=shared >= 0.5)
        n_changed = sum(1 for s in segs if s["ins"] or s["del"])
        cols.append({"label": label, "segments": segs, "reference": is_ref, "changes": n_changed,
                     "words": len(words), "shared": f"{100 * shared:.0f}%", "mostly_different": shared < 0.5})
    return {"type": "compare", "id": ids.make(f"{audit}-compare-{block.case_id}"), "title": block.title,
            "case_id": block.case_id, "columns": cols, "reference": ref,
            "highlight": [h for h in (block.highlight or []) if h and len(h) <= 80][:20]}


def text_view(block: Text) -> dict[str, Any]:
    paras = [p.strip() for p in re.split(r"\n\s*\n", str(block.text)) if p.strip()]
    kind = block.kind if block.kind in ("p", "note", "warning") else "p"
    # a long explanation folds behind its first sentence (notes and warnings always show)
    fold = kind == "p" and sum(map(len, paras)) > TEXT_FOLD_CHARS
    lead = ""
    if fold:
        first = re.split(r"(?<=[.:;])\s", paras[0], maxsplit=1)[0]
        lead = (first if len(first) <= 200 else first[:200].rstrip() + "…") + " (more)"
    return {"type": "text", "kind": kind, "paras": paras, "fold": fold, "lead": lead}


def block_view(block: Any, audit: str, ids: PageIds, info: RunInfo) -> dict[str, Any]:
    if isinstance(block, Table):
        return table_view(block, audit, ids, info)
    if isinstance(block, Figure):
        return figure_view(block, audit, ids)
    if isinstance(block, Metric):
        return metric_view(block)
    if isinstance(block, Compare):
        return compare_view(block, audit, ids)
    if isinstance(block, Text):
        return text_view(block)
    raise TypeError(f"unknown report block type {type(block).__name__}")


def error_view(message: str, trace: str | None = None) -> dict[str, Any]:
    return {"type": "error", "message": message, "trace": trace}


def raw_tables_view(info: RunInfo, ids: PageIds) -> dict[str, Any]:
    rows = []
    tdir = info.path / "tables"
    for p in sorted(tdir.glob("*.csv")) if tdir.is_dir() else []:
        try:
            size = p.stat().st_size
            df = pd.read_csv(p, keep_default_na=False, na_values=[""]) if size <= _MAX_RAW_CSV else None
        except (OSError, ValueError, pd.errors.ParserError, pd.errors.EmptyDataError):
            df, size = None, p.stat().st_size if p.exists() else 0
        rows.append({
            "name": p.stem, "rows": DASH if df is None else len(df), "cols": DASH if df is None else len(df.columns),
            "columns": "" if df is None else ", ".join(map(str, df.columns[:12])) + (" …" if df is not None and len(
                df.columns) > 12 else ""),
            "href": None if df is None else data_uri(csv_text(df)),  # an export: formula cells neutralised
            "file": f"{info.audit}-{p.stem}.csv", "bytes": size,
        })
    return {"type": "rawtables", "id": ids.make(f"{info.audit}-tables"), "tables": rows,
            "dir": str(tdir)}
