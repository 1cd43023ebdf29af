"""Note-generation helpers: ``judge-agreement`` and ``note-tables``.

* ``clinaudit judge-agreement --judgments F --human F --out DIR`` — percent agreement
  and Cohen's κ of each judge against human labels (P1 §4.3);
* ``clinaudit note-tables RUN_DIR --format csv|md|latex`` — the paper-shaped tables
  of a ``note_generation`` run (printed, and written to ``RUN_DIR/exports`` or
  ``--out``); ``--compare DIALOG_ID`` shows that dialog's counterfactual notes side
  by side with the context mentions marked.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from ...registry import register_command
from ...atomic import write_text

__all__ = ["add_judge_agreement", "add_note_tables"]

_SUFFIX = {"csv": ".csv", "md": ".md", "latex": ".tex"}


@register_command("judge-agreement", order=210)
def add_judge_agreement(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "judge-agreement",
        help="agreement and Cohen's kappa of LLM judges with human labels",
        description="Compare a run's judge decisions with human labels (P1 §4.3): percent agreement and Cohen's "
        "kappa per judge. The human file is a CSV with case_id, context, variant, label (and optionally source, "
        "model, judge, most_impacted); see docs/audits/note_generation.md. Unparseable judge outputs are left "
        "out (never counted as NO) and reported.",
    )
    p.add_argument("--judgments", type=Path, required=True,
                   help="a run's judgments table (RUN_DIR/tables/judgments.csv) or the run directory")
    p.add_argument("--human", type=Path, required=True, help="CSV of human labels")
    p.add_argument("--out", type=Path, required=True, help="folder for judge_agreement.csv / .md")
    p.set_defaults(func=cmd_judge_agreement)


@register_command("note-tables", order=220)
def add_note_tables(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "note-tables",
        help="paper-shaped tables (and side-by-side notes) of a note_generation run",
        description="Print and export the P1-shaped tables of a note_generation run directory (incidence: BL%%, "
        "maxΔBL, ΔCF, %%dlg per model; language disparity: %%Δ, Maj.%%). With --compare DIALOG_ID, show that "
        "dialog's counterfactual notes one after another with context mentions marked, and export them.",
    )
    p.add_argument("run_dir", type=Path, help="run directory of a note_generation audit")
    p.add_argument("--format", choices=sorted(_SUFFIX), default="md", help="output format (default md)")
    p.add_argument("--out", type=Path, default=None, help="export folder (default RUN_DIR/exports)")
    p.add_argument("--compare", metavar="DIALOG_ID", default=None, help="show this dialog's notes side by side")
    p.add_argument("--model", default=None, help="with --compare: target model (default: the first)")
    p.add_argument("--context", default=None, help="with --compare: context (default: the first)")
    p.add_argument("--source", choices=["doctor", "patient"], default=None, help="with --compare: D or P")
    p.add_argument("--attribute", default=None, help="with --compare: attribute (default: the first)")
    p.set_defaults(func=cmd_note_tables)


def _judgments_path(p: Path) -> Path:
    if p.is_dir():
        return p / "tables" / "judgments.csv"
    return p


def cmd_judge_agreement(args: argparse.Namespace) -> int:
    import pandas as pd

    from ...errors import InputError
    from ...export import to_csv, to_markdown
    from .agreement import judge_agreement, load_human_labels

    jpath = _judgments_path(args.judgments)
    if not jpath.exists():
        raise InputError("judgments table not found", file=str(jpath))
    from ...loaders.formats import read_csv_table

    read_csv_table(jpath)  # strict check: malformed CSV names the file and row
    try:
        from ...rundir import read_store_table

        judgments = read_store_table(jpath)
    except (ValueError, pd.errors.ParserError) as exc:
        raise InputError(f"cannot read the judgments table: {exc}", file=str(jpath)) from None
    if "judge_model" not in judgments.columns:
        judgments["judge_model"] = ""
    human = load_human_labels(args.human)
    table = judge_agreement(judgments, human)
    args.out.mkdir(parents=True, exist_ok=True)
    to_csv(table, args.out / "judge_agreement.csv")
    md = to_markdown(table, digits=2)
    write_text(args.out / "judge_agreement.md", md)
    print(md, end="")
    if table.empty:
        print("no judge had a human label to compare with (check case_id / context / variant keys)", file=sys.stderr)
    return 0


def _mark(text: str, terms: list[str], fmt: str) -> str:
    import re

    if fmt != "md" or not terms:
        return text
    pats = sorted({t for t in terms if t.strip()}, key=len, reverse=True)
    rx = re.compile("(" + "|".join(re.escape(t) for t in pats) + ")", re.I)
    return rx.sub(lambda m: f"**{m.group(1)}**", text)


def cmd_note_tables(args: argparse.Namespace) -> int:
    import pandas as pd

    from ...errors import InputError
    from ...export import to_csv, to_latex, to_markdown, write_exports
    from ...rundir import RunDir

    if not (args.run_dir / "tables").is_dir():
        raise InputError("not a run directory (no tables/ folder)", file=str(args.run_dir))
    rundir = RunDir(args.run_dir)
    out = args.out or (args.run_dir / "exports")
    if args.compare is not None:
        from .section import compare_notes

        try:
            cmp = compare_notes(rundir, args.compare, model=args.model, context=args.context, source=args.source,
                                attribute=args.attribute)
        except KeyError as exc:
            raise InputError(str(exc.args[0]), file=str(args.run_dir / "tables" / "notes.csv"),
                             field="case_id") from None
        df = pd.DataFrame({"variant": list(cmp.variants), "note": list(cmp.variants.values())})
        stem = f"compare_{args.compare}".replace("/", "_")
        write_exports(df, out, stem, formats=[args.format], caption=cmp.title)
        if args.format == "md":
            print(f"# {cmp.title}\n")
            for label, note in cmp.variants.items():
                print(f"## {label}\n\n{_mark(note, cmp.highlight, 'md')}\n")
        elif args.format == "csv":
            print(to_csv(df), end="")
        else:
            print(to_latex(df, cmp.title, f"tab:{stem}"))
        return 0
    names = [t for t in rundir.tables() if t.startswith(("paper_incidence_", "paper_language_disparity_"))]
    if not names:
        raise InputError("no paper tables in this run (is it a note_generation run that finished?)",
                         file=str(args.run_dir))
    for name in names:
        df = rundir.read_table(name)
        idx = [c for c in ("dataset", "context") if c in df.columns]
        table = df.set_index(idx) if idx else df
        if len(table.columns) and all(" · " in str(c) for c in table.columns):
            table.columns = pd.MultiIndex.from_tuples([tuple(str(c).split(" · ")) for c in table.columns])
        write_exports(table, out, name, formats=[args.format], caption=name.replace("_", " "), label=f"tab:{name}",
                      index=bool(idx))
        print(f"{name}:")
        if args.format == "md":
            print(to_markdown(table, index=bool(idx)))
        elif args.format == "csv":
            print(to_csv(table, index=bool(idx)))
        else:
            print(to_latex(table, name.replace("_", " "), f"tab:{name}", index=bool(idx)))
    print(f"written to {out}", file=sys.stderr)
    return 0
