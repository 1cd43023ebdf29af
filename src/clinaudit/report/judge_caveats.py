"""Judge caveats of a run: how reliable its judges were (parse rates, agreement), read from
``tables/judge_reliability.csv``, ``tables/parse_rates.csv`` or its ``judge_parse_rate`` result rows, and attached to
every finding whose numbers came from a judge (:mod:`clinaudit.report.findings`)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from ..export import read_store_frame
from .formatting import as_float

__all__ = ["judge_caveats", "caveats_for", "text_of"]


def text_of(x: Any) -> str:
    """A cell as stripped text: '' for None or a float NaN."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return str(x).strip()


def judge_caveats(run_dir: Path, results: pd.DataFrame | None = None) -> list[dict[str, Any]]:
    """The judge caveats of one run: ``[{judge, judge_model, parse_rate, text}]`` from
    ``tables/judge_reliability.csv``, ``tables/parse_rates.csv`` or its ``judge_parse_rate`` result rows."""
    tables = Path(run_dir) / "tables"
    out: list[dict[str, Any]] = []
    rel = tables / "judge_reliability.csv"
    if rel.is_file():
        df = read_store_frame(pd.read_csv(rel))
        for rec in df.to_dict("records"):
            rate = as_float(rec.get("parse_rate%"))
            rate = rate / 100.0 if rate is not None else as_float(rec.get("parse_rate"))
            text = text_of(rec.get("reliability")) or (f"parse rate {rate:.0%}" if rate is not None else "")
            out.append({"judge": text_of(rec.get("judge")), "judge_model": text_of(rec.get("judge_model")),
                        "parse_rate": rate, "text": f"judge '{text_of(rec.get('judge'))}': {text}"})
    pr = tables / "parse_rates.csv"
    if pr.is_file():
        df = read_store_frame(pd.read_csv(pr))
        for rec in df.to_dict("records"):
            n, ok = as_float(rec.get("n")), as_float(rec.get("ok"))
            rate = as_float(rec.get("rate"))
            if rate is None and n and ok is not None:
                rate = ok / n
            bad = ", ".join(f"{int(as_float(rec.get(k)) or 0)} {k}" for k in ("unparseable", "error") if k in rec)
            text = (f"judge '{text_of(rec.get('judge'))}' parsed {int(ok or 0)} of {int(n or 0)} outputs"
                    + (f" ({rate:.0%})" if rate is not None else "") + (f"; {bad}" if bad else ""))
            out.append({"judge": text_of(rec.get("judge")), "judge_model": text_of(rec.get("judge_model")),
                        "parse_rate": rate, "text": text})
    if not out and results is not None and "metric" in results.columns:
        rows = results[results["metric"].astype(str).str.startswith("judge_parse_rate")]
        for rec in rows.to_dict("records"):
            rate = as_float(rec.get("value"))
            if rate is not None and "%" in str(rec.get("metric")):
                rate /= 100.0
            out.append({"judge": text_of(rec.get("group")), "judge_model": text_of(rec.get("judge_model")),
                        "parse_rate": rate,
                        "text": f"judge parse rate ({text_of(rec.get('group')) or 'all'}): "
                                + (f"{rate:.0%}" if rate is not None else "–") + f" of {int(as_float(rec.get('n')) or 0)}"})
    return out


def caveats_for(row: dict[str, Any], caveats: list[dict[str, Any]]) -> list[str]:
    model = text_of(row.get("judge_model"))
    if model:
        mine = [c for c in caveats if c["judge_model"] in ("", model)]
        caveats = mine or caveats
    return [c["text"] for c in caveats]
