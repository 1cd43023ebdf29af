"""``clinaudit care-tables``: print or export the CARE (reasoning audit) tables of a run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any
from ...registry import register_command
from ...atomic import write_text

__all__ = ["register", "CARE_TABLES"]

#: name -> title, in print order
CARE_TABLES: dict[str, str] = {
    "care_table1": "Table 1 - accuracy by arm (male, female, control ID1/ID2)",
    "care_table3": "Table 3 - accuracy by specialty",
    "care_drift": "Semantic drift: gender vs control, Cohen's d",
    "care_length": "Response length gap (ΔLen)",
    "care_rethink": "Rethink ratio male vs female",
    "care_direction": "Direction of bias (CoT audit)",
    "care_intensity": "Bias intensity (Phase I)",
    "care_items": "Per-item export (both CoTs, judge verdicts and quoted evidence)",
}

_EPILOG = """examples:
  clinaudit care-tables runs/care                       # print Table 1, Table 3, drift, ΔLen, direction
  clinaudit care-tables runs/care --table care_drift    # one table
  clinaudit care-tables runs/care --export out/ --format md
  clinaudit care-tables runs/care --compare c12         # the four arms' answers to one case"""


@register_command("care-tables", order=310)
def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "care-tables",
        help="print or export the CARE reasoning-audit tables of a run",
        description="Print (or export as CSV / Markdown) the paper-shaped tables of a finished "
        "`reasoning_care` run: accuracy (P3 Tables 1 and 3), semantic drift vs the control pair, ΔLen, "
        "rethink ratio, direction of bias, bias intensity and the per-item export.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run_dir", type=Path, help="run directory of a reasoning_care audit")
    p.add_argument("--table", action="append", choices=list(CARE_TABLES), default=None,
                   help="table(s) to show (repeatable; default: all except care_items)")
    p.add_argument("--export", type=Path, default=None, help="write the tables into this folder instead of printing")
    p.add_argument("--format", choices=["csv", "md"], default="csv", help="export format (default csv)")
    p.add_argument("--compare", metavar="CASE_ID", default=None,
                   help="print the four arms' responses to this case (use 'top' for the largest gender drift)")
    p.set_defaults(func=cmd_care_tables)


def _markdown(df: Any) -> str:  # a DataFrame
    from ...export import markdown_cell

    cols = [markdown_cell(str(c)) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in df.itertuples(index=False):
        cells = []
        for v in row:
            s = "" if v is None or (isinstance(v, float) and v != v) else (f"{v:.4g}" if isinstance(v, float) else str(v))
            cells.append(markdown_cell(s))  # | [ ] < > escaped: no link or HTML from model text
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def cmd_care_tables(args: argparse.Namespace) -> int:
    import pandas as pd

    from ...errors import InputError
    from ...export import to_csv
    from ...rundir import RunDir

    if not (args.run_dir / "tables").is_dir():
        raise InputError("not a run directory (no tables/ folder)", file=str(args.run_dir))
    rd = RunDir(args.run_dir)
    if not rd.has_table("care_table1"):
        raise InputError("no CARE tables here: run a spec with `audit: reasoning_care` first", file=str(args.run_dir))
    if args.compare:
        from .section import compare_arms

        cmp = compare_arms(rd, None if args.compare == "top" else args.compare)
        if cmp is None:
            raise InputError(f"case {args.compare!r} not found in the paired table", file=str(rd.table_path("paired")))
        print(cmp.title)
        for label, text in cmp.variants.items():
            print(f"\n--- {label}\n{text}")
        return 0
    names = args.table or [n for n in CARE_TABLES if n != "care_items"]
    if args.export:
        args.export.mkdir(parents=True, exist_ok=True)
    for name in names:
        if not rd.has_table(name):
            print(f"clinaudit: note: {name} is not in this run", file=sys.stderr)
            continue
        try:
            df = rd.read_table(name)
        except pd.errors.EmptyDataError:
            df = pd.DataFrame()
        if args.export:
            path = args.export / f"{name}.{args.format}"
            if args.format == "csv":
                to_csv(df, path)  # an export: formula-like cells neutralised
            else:
                write_text(path, f"## {CARE_TABLES[name]}\n\n" + _markdown(df))
            print(f"wrote {path}")
        else:
            print(f"\n== {CARE_TABLES[name]} ({name}, {len(df)} rows)")
            with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_colwidth", 40):
                print(df.to_string(index=False) if len(df) else "(empty)")
    return 0
