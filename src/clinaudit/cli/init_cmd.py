"""``clinaudit init AUDIT --data FILE``: write a commented, ready-to-run spec for one's own CSV / JSONL file."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..registry import register_command
from .common import positive_int

__all__ = ["register"]


@register_command("init", order=10)
def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "init", help="write a ready-to-run spec for your own CSV/JSONL file",
        description="Read the columns of a CSV or JSONL file, guess their roles (id, text, gender and other "
        "demographics, labels) and write a commented audit spec for it: the embedded offline models as target "
        "and judge, the parameters that matter with their defaults. What was guessed is printed; the spec is "
        "validated before it is written, so `clinaudit run SPEC --out RUN` works without edits.")
    p.add_argument("audit", metavar="AUDIT", help="the audit recipe (clinaudit audits), e.g. treatment_shift")
    p.add_argument("--data", type=Path, required=True, help="your data file (.csv, or .jsonl with one object a line)")
    p.add_argument("--out", type=Path, default=None, help="the spec to write (default: AUDIT.yaml here)")
    p.add_argument("--limit", type=positive_int, default=None, help="audit only the first N rows (data.limit)")
    p.add_argument("--encoding", default=None, metavar="ENC",
                   help="the data file's text encoding when it is not UTF-8, e.g. cp1252 (a CSV Excel saved on "
                   "Windows) or latin-1; written into the spec (data options.encoding)")
    p.add_argument("--force", action="store_true", help="overwrite the spec file if it exists")
    p.set_defaults(func=cmd_init)


def cmd_init(args: argparse.Namespace) -> int:
    from ..scaffold import init_spec

    out = args.out or Path(f"{args.audit}.yaml")
    path, cols = init_spec(args.audit, args.data, out, limit=args.limit, force=args.force,
                            encoding=args.encoding)
    print(f"{args.data}: {cols.n_rows} rows, format {cols.format}; guessed:")
    for line in cols.guessed():
        print(f"  {line}")
    for note in cols.notes:
        print(f"  note: {note}")
    print(f"wrote {path} (check the guessed columns in it); next:\n"
          f"  clinaudit run {path} --out runs/{args.audit} --dry-run    # validate and estimate\n"
          f"  clinaudit run {path} --out runs/{args.audit} --report")
    return 0
