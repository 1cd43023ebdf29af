"""How the report prints values and tables: numbers, p-values, percentages, merged CIs, CSV downloads.

Every cell of the HTML report, of ``report.md`` and of ``tables.tex`` is formatted
here, so the three always print the same thing.
"""

from __future__ import annotations

import base64
import math
import numbers
import re
from pathlib import PurePath
from typing import Any

import pandas as pd

from ..stats.results import cell_float

__all__ = [
    "DASH",
    "json_ready",
    "as_float",
    "format_value",
    "format_summary_value",
    "display_frame",
    "header_rows",
    "slug",
    "csv_text",
    "data_uri",
    "METRIC_FRACTION",
    "PERCENT_NAME",
    "NOISE",
]

DASH = "–"  #: how a missing value prints
#: values this close to 0 are floating-point noise (a sum of rates that cancel: 3.7e-17) and print as 0; p-values
#: are not rounded this way (a real p can be that small)
NOISE = 1e-12

_P_COL = re.compile(r"^(p|q)([ _.-]?(value|val|adj|adjusted|raw|corrected|holm|bh|fdr|bonferroni|exact|perm))*$"
                    r"|(^|_)(p_?value|pval|p_adj)$|_p$", re.I)
_FRACTION_COL = re.compile(r"(^|[ _.-])(rate|rates|share|accuracy|acc|fraction|frac|prop|proportion|prevalence|"
                           r"agreement|coverage|parse[ _]rate)($|[ _.-])", re.I)
#: A column or metric label that already says its unit is a percentage (its values are not scaled).
PERCENT_NAME = re.compile(r"%|pct|percent|pp\b|points", re.I)
#: A metric label whose value in [0, 1] is a fraction the report prints as a percentage.
METRIC_FRACTION = re.compile(r"parse rate|accuracy|agreement|share of|proportion|fraction", re.I)


def json_ready(x: Any) -> Any:
    """``x`` as plain JSON values: NaN and infinities -> None, numpy scalars -> Python numbers, paths ->
    text, dict keys -> text, tuples -> lists (for ``json.dumps(..., allow_nan=False)``)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {str(k): json_ready(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_ready(v) for v in x]
    if isinstance(x, PurePath):
        return str(x)
    if hasattr(x, "item"):
        return json_ready(x.item())
    return x


#: ``x`` as a float, or None when it is not a number or is NaN (cells read back from a run's CSVs)
as_float = cell_float


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
    if a < NOISE:
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
    if (_FRACTION_COL.search(name) and not PERCENT_NAME.search(name) and len(vals)
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
    if not multi and "p_method" in names:
        _mark_bounds(cells, kinds, df["p_method"])
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


def _mark_bounds(cells: dict[str, list[str]], kinds: dict[str, str], method: pd.Series) -> None:
    """Rows whose p is a Monte Carlo upper bound (``p_method == "bound"``: no draw as extreme) print their p
    and adjusted p as ``< p``, never as a point value (an adjusted bound is a bound too; 1 stays 1)."""
    bound = [str(m) == "bound" for m in method.tolist()]
    for name, kind in kinds.items():
        if kind != "p":
            continue
        cells[name] = [f"< {c}" if b and c != DASH and not c.startswith("<") and as_float(c) != 1.0 else c
                       for c, b in zip(cells[name], bound)]


def header_rows(columns: pd.Index) -> list[list[dict[str, Any]]]:
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


def slug(text: str, default: str = "table") -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()[:60]
    return s or default


def csv_text(df: pd.DataFrame) -> str:
    from ..export import to_csv

    return to_csv(df, index=_named_index(df))


def data_uri(text: str, mime: str = "text/csv") -> str:
    return f"data:{mime};charset=utf-8;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")
