"""Render run directories into one self-contained HTML report (plus Markdown/LaTeX table exports).

:func:`render_report` takes one or more run directories (or parents holding several,
e.g. a ``clinaudit demo`` output folder; run directories are found by their
``manifest.json``), asks each audit's section builder (:mod:`clinaudit.report.base`)
for its blocks and writes:

* ``report.html`` — one file that needs no network: CSS and a small script inline,
  figures as sanitised inline SVG, every table and every figure's numbers downloadable
  as CSV through ``data:`` links. A Content-Security-Policy allows only the page's own
  script (by hash), so even markup that slipped into the page could not run;
* ``report.md`` and ``tables.tex`` — every :class:`~clinaudit.report.base.Table` as a
  Markdown and a LaTeX (booktabs) table, next to the HTML.

Model output is untrusted: every string reaches the page through Jinja2 with
autoescaping on. The only markup the renderer produces itself is the SVG of
figures, which is parsed and re-serialised (comments, scripts, event handlers and
external references removed) before it is inlined.

A section that cannot be built never breaks the report: the section shows the error
(escaped) and the run's tables instead.
"""

from __future__ import annotations

import base64
import datetime as _dt
import difflib
import hashlib
import io
import json
import math
import numbers
import re
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .base import Compare, Figure, Metric, Section, Table, Text, get_section_builder

__all__ = [
    "render_report",
    "build_report",
    "discover_run_dirs",
    "audit_of",
    "format_value",
    "display_frame",
    "diff_segments",
    "sanitize_svg",
    "AUDIT_ORDER",
    "ReportFiles",
]

#: Order of audit sections in a report (others follow, by path).
AUDIT_ORDER = ["treatment_shift", "note_generation", "reasoning_care", "association", "classifier_gaps", "generate"]

_TEMPLATES = Path(__file__).parent / "templates"
DASH = "–"
_LONG_CELL = 240  # characters shown before a long cell folds into a <details>
_MAX_RAW_CSV = 5 * 1024 * 1024  # raw run tables larger than this get no inline download in the fallback


# --------------------------------------------------------------------------- discovery

def discover_run_dirs(paths: Path | str | Sequence[Path | str]) -> list[Path]:
    """Run directories named by ``paths``: each path itself when it holds ``manifest.json``,
    otherwise every run directory below it (at most three levels down), audits in
    :data:`AUDIT_ORDER`. Raises :class:`~clinaudit.errors.InputError` when a path holds none."""
    from ..errors import InputError

    if isinstance(paths, (str, Path)):
        paths = [paths]
    found: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise InputError("no such run directory", file=str(p))
        if p.is_file() and p.name == "manifest.json":
            p = p.parent
        if (p / "manifest.json").is_file():
            found.append(p)
            continue
        below = [m.parent for depth in ("*", "*/*", "*/*/*") for m in sorted(p.glob(f"{depth}/manifest.json"))
                 if not any(part.startswith(".") for part in m.relative_to(p).parts)]
        if not below:
            raise InputError("not a run directory (no manifest.json in it or below it)", file=str(p))
        below.sort(key=lambda d: (_audit_rank(audit_of(_read_manifest(d))), str(d)))
        found.extend(below)
    out: list[Path] = []
    for d in found:
        if d.resolve() not in {x.resolve() for x in out}:
            out.append(d)
    return out


def _audit_rank(audit: str) -> int:
    return AUDIT_ORDER.index(audit) if audit in AUDIT_ORDER else len(AUDIT_ORDER)


def _read_manifest(path: Path) -> dict[str, Any]:
    """The run's manifest; a missing one is ``{}``, an unreadable or broken one an InputError naming it."""
    from ..errors import InputError

    file = path / "manifest.json"
    if not file.exists():
        return {}
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"broken manifest: not UTF-8 text ({exc.reason} at byte {exc.start})", file=str(file)) from None
    except ValueError as exc:
        raise InputError(f"broken manifest: not valid JSON ({exc}); the run may have been cut off while writing "
                         "it: re-run its command to rebuild it", file=str(file)) from None
    except OSError as exc:
        raise InputError(f"cannot read the manifest: {exc.strerror or exc}", file=str(file)) from None
    if not isinstance(data, dict):
        raise InputError(f"broken manifest: expected a JSON object, got {type(data).__name__}", file=str(file))
    return data


def audit_of(manifest: dict[str, Any]) -> str:
    """The audit a manifest describes: its ``audit`` field, the spec's, ``generate`` for
    ``clinaudit generate`` runs, else ``"unknown"``."""
    spec = manifest.get("spec") if isinstance(manifest.get("spec"), dict) else {}
    if manifest.get("audit"):
        return str(manifest["audit"])
    if spec.get("audit"):
        return str(spec["audit"])
    if spec.get("command") == "generate" or (manifest.get("outputs") or {}).get("responses"):
        return "generate"
    return "unknown"


# --------------------------------------------------------------------------- formatting

_P_COL = re.compile(r"^(p|q)([ _.-]?(value|val|adj|adjusted|raw|corrected|holm|bh|fdr|bonferroni|exact|perm))*$"
                    r"|(^|_)(p_?value|pval|p_adj)$|_p$", re.I)
_FRACTION_COL = re.compile(r"(^|[ _.-])(rate|rates|share|accuracy|acc|fraction|frac|prop|proportion|prevalence|"
                           r"agreement|coverage|parse[ _]rate)($|[ _.-])", re.I)
_PERCENT_NAME = re.compile(r"%|pct|percent|pp\b|points", re.I)
_METRIC_FRACTION = re.compile(r"parse rate|accuracy|agreement|share of|proportion|fraction", re.I)


def _is_missing(x: Any) -> bool:
    if x is None:
        return True
    if isinstance(x, str):
        return False
    try:
        return bool(pd.isna(x))
    except (TypeError, ValueError):
        return False


def _fmt_float(v: float) -> str:
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    a = abs(v)
    if a == 0:
        return "0"
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 100:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    if a >= 0.001:
        return f"{v:.3f}"
    return f"{v:.2e}"


def _fmt_p(v: float) -> str:
    if v == 0:
        return "0"
    if v < 0.001:
        return f"{v:.1e}"
    return f"{v:.3f}"


def format_value(x: Any, kind: str = "auto") -> str:
    """One value as the report prints it.

    ``kind``: ``"p"`` (p-values: three decimals, below 0.001 scientific), ``"pct"``
    (a fraction shown as a percentage), ``"int"``, ``"num"`` or ``"auto"``. Missing
    values print as an en dash; strings pass through unchanged.
    """
    if isinstance(x, str):
        return x
    if _is_missing(x):
        return DASH
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, numbers.Integral):
        return str(int(x))
    if isinstance(x, numbers.Real):
        v = float(x)
        if kind == "p":
            return _fmt_p(v)
        if kind == "pct":
            return f"{100 * v:.1f}%"
        if kind == "int" or (kind == "auto" and v.is_integer() and abs(v) < 1e15):
            return str(int(v))
        return _fmt_float(v)
    if isinstance(x, (list, tuple)):
        return ", ".join(format_value(v) for v in x)
    if isinstance(x, dict):
        return "; ".join(f"{k} ({format_value(v)})" if isinstance(v, dict) else f"{k}: {format_value(v)}"
                         for k, v in x.items())
    return str(x)


def format_summary_value(key: str, value: Any) -> str:
    """A summary-dict value: fractions under rate-like keys as %, p-values as p."""
    kind = "auto"
    if isinstance(value, float) and not isinstance(value, bool):
        if _P_COL.search(str(key)):
            kind = "p"
        elif _FRACTION_COL.search(str(key)) and 0 <= value <= 1:
            kind = "pct"
        elif not value.is_integer():
            kind = "num"
    return format_value(value, kind)


def _column_kind(name: str, s: pd.Series) -> str:
    if pd.api.types.is_bool_dtype(s) or not pd.api.types.is_numeric_dtype(s):
        return "text"
    if pd.api.types.is_integer_dtype(s):
        return "int"
    vals = pd.to_numeric(s, errors="coerce").dropna()
    if _P_COL.search(name):
        return "p"
    if (_FRACTION_COL.search(name) and not _PERCENT_NAME.search(name) and len(vals)
            and float(vals.min()) >= 0 and float(vals.max()) <= 1):
        return "pct"
    if len(vals) and bool((vals == vals.round()).all()) and float(vals.abs().max()) < 1e15:
        return "int"
    return "num"


def _ci_pairs(cols: list[str]) -> list[tuple[str, str, str]]:
    """(low column, high column, base name) for each CI bound pair in ``cols``."""
    out = []
    for c in cols:
        m = re.match(r"^(?P<base>.*?)(?P<sep>[ _]?)ci[ _](low|lo|lower)$", c, re.I)
        if not m:
            continue
        base = m.group("base")
        for hi_word in ("high", "hi", "upper"):
            hi = re.sub(r"(low|lo|lower)$", hi_word, c, flags=re.I)
            if hi in cols and hi != c:
                out.append((c, hi, base))
                break
    return out


def _named_index(df: pd.DataFrame) -> bool:
    return any(n is not None for n in df.index.names)


def _flatten_index(df: pd.DataFrame) -> pd.DataFrame:
    """Named index levels become leading columns; an unnamed index (row numbers) is dropped."""
    if not _named_index(df):
        return df.reset_index(drop=True)
    if isinstance(df.columns, pd.MultiIndex):
        # index levels become columns whose header is the level name on the last header row
        names = [str(n) if n is not None else "" for n in df.index.names]
        out = df.reset_index()
        out.columns = pd.MultiIndex.from_tuples(
            [(("",) * (df.columns.nlevels - 1) + (names[i],)) if i < len(names) else tuple(c)
             for i, c in enumerate(out.columns)])
        return out
    return df.reset_index()


def display_frame(df: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, str]]:
    """The table as the report shows it: every cell a string, CI bounds merged.

    Returns the string frame and ``{column: kind}`` (``num``/``int``/``p``/``pct``/``text``),
    kinds of the display columns (a merged CI column takes its estimate's kind).
    Columns ``X_ci_low``/``X_ci_high`` (or ``ci_low``/``ci_high``) become one
    ``X 95% CI`` column ``[low, high]`` in the place of the lower bound.
    """
    df = _flatten_index(df)
    multi = isinstance(df.columns, pd.MultiIndex)
    keys = list(df.columns)
    names = [" · ".join(str(p) for p in k if str(p) != "") if multi else str(k) for k in keys]
    kinds = {names[i]: _column_kind(names[i], df.iloc[:, i]) for i in range(len(keys))}
    cells: dict[str, list[str]] = {}
    for i, name in enumerate(names):
        kind = kinds[name]
        col = df.iloc[:, i]
        fmt_kind = "auto" if kind == "text" else kind
        cells[name] = [format_value(v, fmt_kind) for v in col.tolist()]
    order = list(names)
    out_kinds = dict(kinds)
    if not multi:
        for low, high, base in _ci_pairs(names):
            est = next((c for c in ([base] if base else []) + ["value", "estimate", "mean", "rate", "gap", "diff",
                                                               "difference", "delta"] if c in kinds), None)
            kind = kinds.get(est, "num") if est else "num"
            if kind not in ("pct", "num", "int"):
                kind = "num"
            ci_kind = "num" if kind == "int" else kind
            lo_vals, hi_vals = df[low].tolist(), df[high].tolist()
            merged = [DASH if _is_missing(a) and _is_missing(b)
                      else f"[{format_value(a, ci_kind)}, {format_value(b, ci_kind)}]"
                      for a, b in zip(lo_vals, hi_vals)]
            label = f"{base} 95% CI".strip() if base else "95% CI"
            label = label.replace("_ 95%", " 95%")
            if label in cells and label not in (low, high):
                label = f"{label} ({low})"
            cells[label] = merged
            out_kinds[label] = "ci"
            order[order.index(low)] = label
            order.remove(high)
    out = pd.DataFrame({c: cells[c] for c in order}, dtype=object) if order else pd.DataFrame()
    if multi:
        out.columns = pd.MultiIndex.from_tuples([tuple(str(p) for p in k) for k in keys])
    if not len(out.columns) and len(df):
        out = pd.DataFrame(index=range(len(df)))
    return out, {c: out_kinds.get(c, "text") for c in order}


def _header_rows(columns: pd.Index) -> list[list[dict[str, Any]]]:
    """Header rows with colspans (grouped consecutive labels per MultiIndex level)."""
    if not isinstance(columns, pd.MultiIndex):
        return [[{"label": str(c), "span": 1} for c in columns]]
    rows = []
    tuples = [tuple(str(p) for p in c) for c in columns]
    for level in range(columns.nlevels):
        row: list[dict[str, Any]] = []
        prev: tuple[str, ...] | None = None
        for t in tuples:
            key = t[: level + 1]
            if level < columns.nlevels - 1 and prev == key and row:
                row[-1]["span"] += 1
            else:
                row.append({"label": t[level], "span": 1})
            prev = key
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- CSV / names

def _slug(text: str, default: str = "table") -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()[:60]
    return s or default


def _csv_text(df: pd.DataFrame) -> str:
    from ..export import to_csv

    return to_csv(df, index=_named_index(df))


def _data_uri(text: str, mime: str = "text/csv") -> str:
    return f"data:{mime};charset=utf-8;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


# --------------------------------------------------------------------------- SVG

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_SVG_ALLOWED = {"svg", "g", "path", "defs", "clipPath", "use", "text", "tspan", "style", "rect", "circle", "ellipse",
                "line", "polyline", "polygon", "image", "linearGradient", "radialGradient", "stop", "pattern", "mask",
                "title", "desc", "symbol", "marker"}
_URL_REF = re.compile(r"url\(\s*#([^)\s]+)\s*\)")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def sanitize_svg(svg: str, id_prefix: str) -> str:
    """An SVG document reduced to inert drawing markup, ready to inline in HTML.

    Parses the SVG (dropping comments, the XML declaration and DOCTYPE), keeps only
    drawing elements (no ``script``, ``foreignObject``, ``a`` or ``metadata``), drops
    event-handler attributes and any reference that is not in-document or an inline
    PNG/JPEG image, prefixes every id with ``id_prefix`` (several figures share one
    page) and re-serialises, which escapes all text.
    """
    import xml.etree.ElementTree as ET

    ET.register_namespace("", _SVG_NS)
    ET.register_namespace("xlink", _XLINK_NS)
    root = ET.fromstring(svg.encode("utf-8") if isinstance(svg, str) else svg)
    if _local(root.tag) != "svg":
        raise ValueError("not an SVG document")

    def strip(parent: Any) -> None:
        for child in list(parent):
            if not isinstance(child.tag, str) or _local(child.tag) not in _SVG_ALLOWED:
                parent.remove(child)
            else:
                strip(child)

    strip(root)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    ren = {old: f"{id_prefix}{old}" for old in ids}

    def fix_refs(value: str) -> str:
        value = _URL_REF.sub(lambda m: f"url(#{ren.get(m.group(1), m.group(1))})", value)
        if re.search(r"url\(\s*[^#\s)]", value) or "javascript:" in value.lower() or "expression(" in value.lower():
            value = re.sub(r"url\(\s*[^#\s)][^)]*\)", "none", value)
            value = value.replace("javascript:", "").replace("expression(", "(")
        return value

    for el in root.iter():
        for attr in list(el.attrib):
            name = _local(attr).lower()
            val = el.attrib[attr]
            if name.startswith("on"):
                del el.attrib[attr]
            elif name == "href":
                if val.startswith("#"):
                    el.attrib[attr] = "#" + ren.get(val[1:], val[1:])
                elif not re.match(r"data:image/(png|jpeg);base64,[A-Za-z0-9+/=\s]*$", val) or _local(el.tag) != "image":
                    del el.attrib[attr]
            elif name == "id":
                el.attrib[attr] = ren.get(val, val)
            else:
                el.attrib[attr] = fix_refs(val)
        if _local(el.tag) == "style" and el.text:
            el.text = fix_refs(el.text).replace("@import", "")
    root.set("class", "figure-svg")
    root.set("role", "img")
    return ET.tostring(root, encoding="unicode")


def _figure_svg(fig: Any, id_prefix: str) -> str:
    import matplotlib

    buf = io.StringIO()
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "clinaudit"}):
        fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)  # a report renders each figure once; pyplot would otherwise keep every one open
    return sanitize_svg(buf.getvalue(), id_prefix)


# --------------------------------------------------------------------------- Compare

_TOKEN = re.compile(r"\s+|[^\s]+")


def _term_mask(text: str, terms: Iterable[str]) -> list[bool]:
    mask = [False] * len(text)
    for term in sorted({t.strip() for t in terms if t and t.strip()}, key=len, reverse=True):
        pat = re.escape(term)
        if re.match(r"\w", term):
            pat = r"(?<!\w)" + pat
        if re.search(r"\w$", term):
            pat += r"(?!\w)"
        for m in re.finditer(pat, text, flags=re.I):
            for i in range(m.start(), m.end()):
                mask[i] = True
    return mask


def diff_segments(text: str, reference: str | None, highlight: Iterable[str] = (), *,
                  show_deleted: bool = True) -> list[dict[str, Any]]:
    """``text`` cut into segments for display: ``{"text", "ins", "del", "mark"}``.

    Words that ``text`` adds or changes relative to ``reference`` are ``ins``; words of
    the reference it dropped come as separate ``del`` segments at that place; spans
    matching a ``highlight`` term (case-insensitive, whole words) are ``mark``.
    With ``reference=None`` only the highlighting is applied; ``show_deleted=False``
    leaves out the ``del`` segments.
    """
    text = "" if text is None else str(text)
    ins = [False] * len(text)
    dels: dict[int, list[str]] = {}
    if reference is not None and str(reference) != text:
        a = _TOKEN.findall(str(reference))
        b = _TOKEN.findall(text)
        a_key = [t if t.strip() else " " for t in a]
        b_key = [t if t.strip() else " " for t in b]
        starts = [0]
        for t in b:
            starts.append(starts[-1] + len(t))
        sm = difflib.SequenceMatcher(None, a_key, b_key, autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op in ("replace", "insert"):
                for j in range(j1, j2):
                    if b[j].strip():
                        for k in range(starts[j], starts[j + 1]):
                            ins[k] = True
            if op in ("replace", "delete"):
                removed = "".join(a[i1:i2]).strip()
                if removed and show_deleted:
                    dels.setdefault(starts[j1], []).append(removed)
    mark = _term_mask(text, highlight)
    segs: list[dict[str, Any]] = []

    def push(chunk: str, i: bool, d: bool, m: bool) -> None:
        if segs and not d and not segs[-1]["del"] and segs[-1]["ins"] == i and segs[-1]["mark"] == m:
            segs[-1]["text"] += chunk
        else:
            segs.append({"text": chunk, "ins": i, "del": d, "mark": m})

    for pos in range(len(text) + 1):
        for removed in dels.get(pos, []):
            push(removed, False, True, False)
        if pos < len(text):
            ch = text[pos]
            push(ch, ins[pos] and not ch.isspace(), False, mark[pos])
    return segs


# --------------------------------------------------------------------------- views

@dataclass
class _RunInfo:
    path: Path
    manifest: dict[str, Any]
    audit: str
    section: Section | None = None
    error: str | None = None
    error_trace: str | None = None
    anchor: str = ""
    views: list[dict[str, Any]] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame, str, str]] = field(default_factory=list)  # (title, display df, caption, stem)


@dataclass
class ReportFiles:
    """Paths written by :func:`build_report`."""

    html: Path
    markdown: Path
    latex: Path
    failed_sections: list[str] = field(default_factory=list)


class _Ids:
    def __init__(self) -> None:
        self.used: set[str] = set()

    def make(self, base: str) -> str:
        base = _slug(base, "block")
        cand, i = base, 2
        while cand in self.used:
            cand, i = f"{base}-{i}", i + 1
        self.used.add(cand)
        return cand


def _table_view(block: Table, audit: str, ids: _Ids, info: _RunInfo) -> dict[str, Any]:
    df = block.df if isinstance(block.df, pd.DataFrame) else pd.DataFrame(block.df)
    stem = block.name or _slug(block.title)
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
                cell["text"], cell["full"] = s[:160].rstrip() + "…", s
            row.append(cell)
        rows.append(row)
    return {
        "type": "table", "id": ids.make(f"{audit}-{stem}"), "title": block.title, "caption": block.caption,
        "header": _header_rows(shown.columns), "rows": rows, "total": total, "shown": len(shown),
        "csv_href": _data_uri(_csv_text(df)), "csv_name": f"{audit}-{_slug(stem)}.csv",
        "ncols": len(cols),
    }


def _figure_view(block: Figure, audit: str, ids: _Ids) -> dict[str, Any]:
    fid = ids.make(f"{audit}-{block.name or block.title or 'figure'}")
    svg = _figure_svg(block.fig, f"{fid}-")
    from markupsafe import Markup

    data = block.data if isinstance(block.data, pd.DataFrame) else pd.DataFrame(block.data)
    stem = block.name or _slug(block.title, "figure")
    return {"type": "figure", "id": fid, "title": block.title, "caption": block.caption,
            "svg": Markup(svg),  # sanitised and re-serialised by sanitize_svg: all text escaped
            "csv_href": _data_uri(_csv_text(data)), "csv_name": f"{audit}-{_slug(stem)}-numbers.csv",
            "n_rows": len(data)}


def _metric_view(block: Metric) -> dict[str, Any]:
    v = block.value
    as_pct = (not isinstance(v, (str, bool)) and isinstance(v, numbers.Real) and 0 <= float(v) <= 1
              and _METRIC_FRACTION.search(block.label) is not None and not _PERCENT_NAME.search(block.label))
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


def _compare_view(block: Compare, audit: str, ids: _Ids) -> dict[str, Any]:
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
        segs = diff_segments(variants[label], None if is_ref else variants.get(ref), block.highlight or [],
                             show_deleted=shared >= 0.5)
        n_changed = sum(1 for s in segs if s["ins"] or s["del"])
        cols.append({"label": label, "segments": segs, "reference": is_ref, "changes": n_changed,
                     "words": len(words), "shared": f"{100 * shared:.0f}%", "mostly_different": shared < 0.5})
    return {"type": "compare", "id": ids.make(f"{audit}-compare-{block.case_id}"), "title": block.title,
            "case_id": block.case_id, "columns": cols, "reference": ref,
            "highlight": [h for h in (block.highlight or []) if h and len(h) <= 80][:20]}


def _text_view(block: Text) -> dict[str, Any]:
    paras = [p.strip() for p in re.split(r"\n\s*\n", str(block.text)) if p.strip()]
    return {"type": "text", "kind": block.kind if block.kind in ("p", "note", "warning") else "p", "paras": paras}


def _block_view(block: Any, audit: str, ids: _Ids, info: _RunInfo) -> dict[str, Any]:
    if isinstance(block, Table):
        return _table_view(block, audit, ids, info)
    if isinstance(block, Figure):
        return _figure_view(block, audit, ids)
    if isinstance(block, Metric):
        return _metric_view(block)
    if isinstance(block, Compare):
        return _compare_view(block, audit, ids)
    if isinstance(block, Text):
        return _text_view(block)
    raise TypeError(f"unknown report block type {type(block).__name__}")


def _error_view(message: str, trace: str | None = None) -> dict[str, Any]:
    return {"type": "error", "message": message, "trace": trace}


def _raw_tables_view(info: _RunInfo, ids: _Ids) -> dict[str, Any]:
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
            "href": None if df is None else _data_uri(_csv_text(df)),  # an export: formula cells neutralised
            "file": f"{info.audit}-{p.stem}.csv", "bytes": size,
        })
    return {"type": "rawtables", "id": ids.make(f"{info.audit}-tables"), "tables": rows,
            "dir": str(tdir)}


def _count_rows(path: Path) -> int | None:
    try:
        return len(pd.read_csv(path, usecols=[0]))
    except (OSError, ValueError, IndexError, pd.errors.ParserError, pd.errors.EmptyDataError):
        return None


def _run_overview(info: _RunInfo) -> dict[str, Any]:
    m = info.manifest
    spec = m.get("spec") if isinstance(m.get("spec"), dict) else {}
    runs = m.get("runs") or [{}]
    last = runs[-1] if isinstance(runs[-1], dict) else {}
    usage = last.get("usage_total") or {}
    per_model = last.get("usage") or {}
    status = str(m.get("status") or ("complete" if last.get("finished") else "unfinished (interrupted or running)"))
    if info.audit == "generate" and "finished" in last and not m.get("status"):
        status = "complete"
    summary = m.get("summary") if isinstance(m.get("summary"), dict) else {}
    n_cases: Any = summary.get("cases")
    if not isinstance(n_cases, (int, float)):
        n_cases = None
        if (info.path / "tables" / "cases.csv").is_file():
            n_cases = _count_rows(info.path / "tables" / "cases.csv")
        elif info.audit == "generate" and (info.path / "tables" / "responses.csv").is_file():
            try:
                n_cases = int(pd.read_csv(info.path / "tables" / "responses.csv", usecols=[0]).iloc[:, 0].nunique())
            except (OSError, ValueError, pd.errors.EmptyDataError):
                n_cases = None
    models = [str(x.get("spec") or x.get("name") or x.get("model") or x) if isinstance(x, dict) else str(x)
              for x in (m.get("models") or [])]
    roles = spec.get("models") if isinstance(spec.get("models"), dict) else {}
    role_text = [f"{r}: {', '.join(v) if isinstance(v, list) else v}" for r, v in roles.items()]
    data = []
    for d in m.get("data") or []:
        if isinstance(d, dict):
            data.append({"name": Path(str(d.get("path", "?"))).name, "path": str(d.get("path", "")),
                         "sha": str(d.get("sha256", ""))[:16], "bytes": d.get("bytes")})
    sources = []
    for s in spec.get("data") or []:
        if isinstance(s, dict):
            sources.append(", ".join(f"{k}={v}" for k, v in s.items() if v not in (None, {}, [], "") and k in (
                "format", "path", "limit", "split", "name")))
    cases_sha = None
    cpath = info.path / "tables" / "cases.csv"
    if cpath.is_file():
        cases_sha = hashlib.sha256(cpath.read_bytes()).hexdigest()[:16]
    started, finished = last.get("started"), last.get("finished")
    duration = None
    try:
        if started and finished:
            duration = (_dt.datetime.fromisoformat(finished) - _dt.datetime.fromisoformat(started)).total_seconds()
    except ValueError:
        duration = None
    tokens = int(usage.get("prompt_tokens", 0) or 0) + int(usage.get("completion_tokens", 0) or 0)
    all_usage = [r.get("usage_total") or {} for r in runs if isinstance(r, dict)]
    all_calls = sum(int(u.get("calls", 0) or 0) for u in all_usage)
    all_tokens = sum(int(u.get("prompt_tokens", 0) or 0) + int(u.get("completion_tokens", 0) or 0) for u in all_usage)
    sec_summary = info.section.summary if info.section is not None and isinstance(info.section.summary, dict) else {}
    return {
        "audit": info.audit, "anchor": info.anchor, "path": str(info.path),
        "title": info.section.title if info.section is not None else info.audit,
        "name": str(spec.get("name") or ""), "status": status,
        "status_class": "ok" if status == "complete" else ("bad" if status.startswith("failed") else "warn"),
        "status_short": status.split(":", 1)[0] if status.startswith("failed") else status.split(" (", 1)[0],
        "status_detail": status.split(":", 1)[1].strip() if status.startswith("failed") and ":" in status else "",
        "models": models, "roles": role_text,
        "cases": DASH if n_cases is None else format_value(n_cases),
        "calls": int(usage.get("calls", 0) or 0), "cache_hits": int(usage.get("cache_hits", 0) or 0),
        "failures": int(usage.get("failures", 0) or 0), "retries": int(usage.get("retries", 0) or 0),
        "tokens": tokens, "prompt_tokens": int(usage.get("prompt_tokens", 0) or 0),
        "completion_tokens": int(usage.get("completion_tokens", 0) or 0),
        "per_model": [{"model": k, **{kk: format_value(vv) if kk != "wall_s" else f"{float(vv):.1f} s"
                                     for kk, vv in v.items()}} for k, v in per_model.items() if isinstance(v, dict)],
        "started": started or DASH, "finished": finished or DASH,
        "duration": DASH if duration is None else f"{duration:.0f} s",
        "seeds": ", ".join(map(str, m.get("seeds") or [])) or DASH,
        "version": str(m.get("clinaudit_version", DASH)), "data": data, "sources": sources, "cases_sha": cases_sha,
        "n_resumes": max(0, len(runs) - 1), "n_runs": len(runs), "all_calls": all_calls, "all_tokens": all_tokens,
        "summary": [(str(k), format_summary_value(str(k), v)) for k, v in sec_summary.items()],
        "section_error": info.error,
    }


def _load_run(path: Path, ids: _Ids) -> _RunInfo:
    from ..rundir import RunDir

    manifest = _read_manifest(path)
    info = _RunInfo(path=path, manifest=manifest, audit=audit_of(manifest))
    info.anchor = ids.make(f"sec-{info.audit}")
    try:
        builder = get_section_builder(info.audit)
    except Exception as exc:  # noqa: BLE001 - a broken section module must not break the report
        builder = None
        info.error = f"the report section module for '{info.audit}' failed to import: {type(exc).__name__}: {exc}"
        info.error_trace = traceback.format_exc()
    if builder is None:
        info.error = info.error or f"no report section is registered for audit '{info.audit}'"
    else:
        rd = None
        try:
            rd = RunDir(path)
            sec = builder(rd)
            if not isinstance(sec, Section):
                raise TypeError(f"section builder returned {type(sec).__name__}, not Section")
            info.section = sec
        except Exception as exc:  # noqa: BLE001
            info.error = f"the report section for '{info.audit}' failed: {type(exc).__name__}: {exc}"
            info.error_trace = traceback.format_exc()
        finally:
            if rd is not None:
                rd.close()
    if info.section is not None:
        for block in info.section.blocks:
            try:
                info.views.append(_block_view(block, info.audit, ids, info))
            except Exception as exc:  # noqa: BLE001
                title = getattr(block, "title", "") or getattr(block, "label", "") or type(block).__name__
                info.views.append(_error_view(f"could not render block '{title}': {type(exc).__name__}: {exc}",
                                              traceback.format_exc()))
    else:
        info.views.append(_error_view(info.error or "section unavailable", info.error_trace))
        info.views.append(_raw_tables_view(info, ids))
    return info


def _toc_entries(info: _RunInfo) -> list[dict[str, str]]:
    out = []
    for v in info.views:
        if v["type"] in ("table", "figure", "compare") and v.get("title"):
            out.append({"id": v["id"], "title": v["title"], "type": v["type"]})
    return out


# --------------------------------------------------------------------------- exports

def _md_cell(s: Any) -> str:
    """Table cell text for report.md (``to_markdown`` adds the Markdown escapes)."""
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_MD_TEXT_SPECIAL = re.compile(r"([\\\[\]])")


def _md_text(s: Any) -> str:
    """Heading/caption text for report.md: like :func:`_md_cell`, plus ``\\ [ ]`` escaped so that no link
    or image (``[x](javascript:...)``) can form, and on one line."""
    text = _md_cell(s).replace("\r", " ").replace("\n", " ")
    return _MD_TEXT_SPECIAL.sub(r"\\\1", text)


def _tex_comment(s: Any) -> str:
    """Text for a LaTeX ``%`` comment line: one line, so nothing after it can become LaTeX code."""
    return re.sub(r"[\r\n\f\v\x85\u2028\u2029]+", " ", str(s))


def _tex_label(s: Any) -> str:
    return re.sub(r"[^A-Za-z0-9_.:-]+", "-", str(s)) or "x"


def _markdown_export(title: str, runs: list[_RunInfo], generated: str) -> str:
    from ..export import to_markdown

    title = _md_text(title)
    parts = [f"# {title}", "", f"Tables of the clinaudit report generated {generated}. Cells are as printed in "
             "the HTML report (fractions as %, CIs merged); `<` and `>` in model text are escaped as HTML entities.",
             ""]
    for info in runs:
        heading = info.section.title if info.section is not None else f"{info.audit} (section unavailable)"
        parts += [f"## {_md_text(heading)}", "", f"Run directory: {_md_text(info.path)}", ""]
        if not info.tables:
            parts += ["_No tables._", ""]
        for ttitle, disp, caption, _stem in info.tables:
            parts += [f"### {_md_text(ttitle)}", ""]
            if caption:
                parts += [_md_text(caption), ""]
            try:
                md_df = disp.map(_md_cell)
                md_df.columns = [_md_cell(" · ".join(c) if isinstance(c, tuple) else c) for c in md_df.columns]
                parts += [to_markdown(md_df, index=False), ""]
            except Exception as exc:  # noqa: BLE001
                parts += [f"_table could not be exported: {type(exc).__name__}: {exc}_", ""]
    return "\n".join(parts)


def _latex_export(title: str, runs: list[_RunInfo], generated: str) -> str:
    from ..export import to_latex

    parts = [f"% {_tex_comment(title)}: tables exported by clinaudit ({generated}).",
             "% Needs \\usepackage{booktabs}. Cells are as printed in the HTML report.", ""]
    for info in runs:
        parts.append(f"% ---- {_tex_comment(info.audit)}: {_tex_comment(info.path)}")
        for ttitle, disp, caption, stem in info.tables:
            cap = ttitle + (f". {caption}" if caption else "")
            try:
                parts += [to_latex(disp, caption=cap, label=f"tab:{_tex_label(info.audit)}:{_slug(stem)}"), ""]
            except Exception as exc:  # noqa: BLE001
                parts += [f"% table '{_tex_comment(ttitle)}' could not be exported: {type(exc).__name__}", ""]
    return "\n".join(parts)


# --------------------------------------------------------------------------- main

def _default_out(paths: Sequence[Path | str]) -> Path:
    if len(paths) == 1 and Path(paths[0]).is_dir():
        return Path(paths[0]) / "report.html"
    return Path("report.html")


def _templates_env() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
        autoescape=True,  # every template, whatever its suffix
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = format_value
    return env


def build_report(
    run_dirs: Path | str | Sequence[Path | str],
    out: Path | str | None = None,
    title: str | None = None,
    *,
    notes: Sequence[str] = (),
) -> ReportFiles:
    """Render the report and its exports; returns the paths written.

    ``notes`` are shown (escaped) at the top of the summary, e.g. audits the demo could not run.
    """
    from markupsafe import Markup

    from .. import __version__

    paths = [run_dirs] if isinstance(run_dirs, (str, Path)) else list(run_dirs)
    dirs = discover_run_dirs(paths)
    out_path = Path(out) if out is not None else _default_out(paths)
    if out_path.is_dir():
        out_path = out_path / "report.html"
    out_path.parent.mkdir(parents=True, exist_ok=True)
    ids = _Ids()
    ids.used.update({"summary", "toc", "top", "footer"})
    runs = [_load_run(d, ids) for d in dirs]
    audits = [r.audit for r in runs]
    if title is None:
        title = ("clinaudit report: " + ", ".join(dict.fromkeys(a.replace("_", " ") for a in audits))) if audits \
            else "clinaudit report"
    generated = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    overview = [_run_overview(r) for r in runs]
    totals = {k: sum(o[k] for o in overview) for k in ("calls", "cache_hits", "failures", "tokens", "retries")}
    script = (_TEMPLATES / "report.js").read_text(encoding="utf-8").strip()
    css = (_TEMPLATES / "report.css").read_text(encoding="utf-8")
    script_hash = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    env = _templates_env()
    html = env.get_template("report.html.j2").render(
        title=title, generated=generated, version=__version__, runs=runs, overview=overview, totals=totals,
        toc=[{"anchor": r.anchor, "title": (r.section.title if r.section is not None else r.audit),
              "failed": r.section is None, "entries": _toc_entries(r)} for r in runs],
        notes=list(notes),
        # our own static CSS/JS (no model text): inlined verbatim; the CSP allows only this script's hash
        css=Markup(css), script=Markup(script), script_hash=script_hash,
    )
    out_path.write_text(html, encoding="utf-8")
    md_path = out_path.with_suffix(".md")
    tex_path = out_path.parent / ("tables.tex" if out_path.stem == "report" else f"{out_path.stem}-tables.tex")
    md_path.write_text(_markdown_export(title, runs, generated), encoding="utf-8")
    tex_path.write_text(_latex_export(title, runs, generated), encoding="utf-8")
    return ReportFiles(html=out_path, markdown=md_path, latex=tex_path,
                       failed_sections=[f"{r.audit} ({r.path})" for r in runs if r.section is None])


def render_report(run_dirs: Path | str | list, out: Path | None = None, title: str | None = None) -> Path:
    """Render one self-contained HTML report from run directories; returns the HTML path.

    ``run_dirs``: a run directory, a folder holding several (found by their
    ``manifest.json``), or a list of either. ``out`` defaults to ``RUN_DIR/report.html``
    for a single directory argument, else ``./report.html``. ``report.md`` and
    ``tables.tex`` (every table of the report) are written next to it.
    """
    return build_report(run_dirs, out, title).html
