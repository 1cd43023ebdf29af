"""``clinaudit perturbations`` and ``clinaudit perturb``.

Example::

    clinaudit perturb --input baseline.csv --id-column case_id --text-column case_vignette \\
        --perturbation exclamation,typo --mode compat --out perturbed.csv

writes every input column plus ``perturbation``, ``perturbed_text`` and ``flags``,
one row per (input row, perturbation), rows in input order.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..registry import register_command
from .common import (add_backend_args, add_runner_args, backend_options_from_args, nonneg_float, positive_int,
                     probability, regex, runner_config_from_args)

__all__ = ["add_perturbations", "add_perturb", "cmd_perturbations", "cmd_perturb"]


@register_command("perturbations", order=70, progress=False)
def add_perturbations(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perturbations", help="list the registered perturbations",
                       description="List the registered input transformations with one-line descriptions.")
    p.set_defaults(func=cmd_perturbations)


@register_command("perturb", order=80)
def add_perturb(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "perturb",
        help="perturb the text column of a CSV/JSONL file",
        description="Apply one or more perturbations to the text column of every input row and write the input's "
        "columns plus `perturbation`, `perturbed_text` and `flags` (one row per row and perturbation). LLM "
        "rewrites need --model; their calls are cached (--cache), so re-running costs nothing.",
        epilog="Examples:\n"
        "  clinaudit perturb --input baseline.csv --id-column case_id --text-column case_vignette \\\n"
        "      --perturbation exclamation,uppercase,lowercase,typo,whitespace --mode compat --out regex.csv\n"
        "  clinaudit perturb --input msgs.csv --id-column id --text-column message --perturbation typo \\\n"
        "      --seed 3 --protect ehr --out typo.csv\n"
        "  clinaudit perturb --input msgs.csv --id-column id --text-column message \\\n"
        "      --perturbation gender_swap,uncertain --model embedded --out rewrites.csv\n"
        "Run `clinaudit perturbations` for the names.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--input", type=Path, required=True, help="input file: .csv, or .jsonl (one JSON object per line)")
    p.add_argument("--id-column", required=True, help="column holding a unique row id")
    p.add_argument("--text-column", required=True, help="column holding the text to perturb")
    p.add_argument("--perturbation", required=True, help="perturbation name(s), comma-separated")
    p.add_argument("--mode", choices=("default", "compat"), default="default",
                   help="default: per-case seeded generator; compat: reproduce the published P2 code (regex only)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--p", type=probability, default=None, dest="prob",
                   help="probability / share for regex perturbations (default: published values)")
    p.add_argument("--protect", action="append", type=regex, default=None, metavar="PATTERN",
                   help="never touch text matching this regex (repeatable); 'ehr' protects tabular EHR lines")
    p.add_argument("--model", default=None, help="model spec for LLM perturbations (e.g. embedded, openai:gpt-4o-mini)")
    p.add_argument("--embedder", default=None,
                   help="embedding model for the similarity gate of LLM rewrites (default embedded-embedder)")
    p.add_argument("--temperature", type=nonneg_float, default=0.0, help="sampling temperature of LLM rewrites (default 0)")
    p.add_argument("--max-tokens", type=positive_int, default=None, help="max tokens of LLM rewrites (default: from the text length)")
    p.add_argument("--cache", type=Path, default=None,
                   help="response cache file (default $CLINAUDIT_CACHE_DIR/responses.sqlite or ~/.cache/clinaudit)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the response cache")
    p.add_argument("--limit", type=positive_int, default=None, help="use only the first N input rows")
    p.add_argument("--provenance", action="store_true", help="add `variant_id`, `description` and `provenance` columns")
    p.add_argument("--out", type=Path, required=True, help="output CSV file")
    add_backend_args(p)
    add_runner_args(p)
    p.set_defaults(func=cmd_perturb)


def cmd_perturbations(args: argparse.Namespace) -> int:
    from ..perturb import list_transforms
    from .common import plain_text

    for name, t in list_transforms().items():
        modes = "/".join(t.modes)
        print(f"{name:18s} [{t.kind}, {modes}] {plain_text(t.summary)}")
    print("\nKind 'audit': applied by an audit with inputs of its own, not row-wise by `clinaudit perturb`. "
          "Case filters (filter_sex_specific, filter_min_turns) and template expansion (expand_templates) are "
          "Python functions (see docs/perturbations.md)")
    return 0


def _read_table(path: Path, id_column: str, text_column: str, limit: int | None) -> Any:  # a DataFrame
    import pandas as pd

    from ..errors import InputError

    if not path.is_file():
        raise InputError("file not found", file=str(path))
    try:
        if path.suffix.lower() in (".jsonl", ".ndjson"):
            df = pd.read_json(path, lines=True, dtype=False)
            df = df.astype(object).where(df.notna(), "")
            df = df.map(lambda v: v if isinstance(v, str) else str(v))
        else:
            from ..loaders.formats import read_csv_table

            # the strict reader first: an unterminated quote is an error naming the row, never swallowed rows
            read_csv_table(path)
            df = pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)
    except (ValueError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the file: {exc}", file=str(path)) from None
    for col in (id_column, text_column):
        if col not in df.columns:
            raise InputError(f"no such column (columns: {', '.join(map(str, df.columns))})", file=str(path), field=col)
    if limit is not None:
        df = df.iloc[:limit]
    seen: dict[str, int] = {}
    for i, v in enumerate(df[id_column].tolist(), start=1):
        if str(v).strip() == "":
            raise InputError("empty id", file=str(path), row=i, field=id_column)
        if v in seen:
            raise InputError(f"duplicate id {v!r} (first in row {seen[v]})", file=str(path), row=i, field=id_column)
        seen[v] = i
    return df


def cmd_perturb(args: argparse.Namespace) -> int:
    import pandas as pd

    from ..cache import ResponseCache, default_cache_path
    from ..errors import InputError
    from ..perturb import get_transform, perturb_cases
    from ..records import Case, canonical_json
    from ..runner import Runner

    names = [n.strip() for n in args.perturbation.split(",") if n.strip()]
    if not names:
        raise InputError("no perturbation named", field="--perturbation")
    transforms = [get_transform(n) for n in names]
    df = _read_table(args.input, args.id_column, args.text_column, args.limit)
    cases = [
        Case(case_id=str(r[args.id_column]), text=str(r[args.text_column]), source=str(args.input), source_row=i)
        for i, r in enumerate(df.to_dict("records"), start=1)
    ]
    runner = None
    llm = [t.name for t in transforms if t.kind == "llm"]
    params: dict[str, Any] = {}
    if args.prob is not None:
        params["p"] = args.prob
    if llm:
        if not args.model:
            raise InputError(f"LLM perturbations ({', '.join(llm)}) need --model", field="--model")
        specs = {args.model, args.embedder or "embedded-embedder"}
        cache = None if args.no_cache else ResponseCache(args.cache or default_cache_path())
        runner = Runner(cache, runner_config_from_args(args),
                        backend_options={s: backend_options_from_args(args, s) for s in specs})
        params["temperature"] = args.temperature
        if args.max_tokens:
            params["max_tokens"] = args.max_tokens
    protected = args.protect if args.protect else None
    variants = perturb_cases(cases, names, mode=args.mode, seed=args.seed, runner=runner, model=args.model,
                             embedder=args.embedder, protected=protected, **params)
    by_key = {(v.case_id, v.name): v for v in variants}
    rows = []
    records = df.to_dict("records")
    for case, rec in zip(cases, records):
        for name in names:
            v = by_key.get((case.case_id, name))
            if v is None:
                continue
            row = dict(rec)
            row["perturbation"] = name
            row["perturbed_text"] = v.text
            row["flags"] = ";".join(v.flags)
            if args.provenance:
                row["variant_id"] = v.variant_id
                row["description"] = v.description
                row["provenance"] = canonical_json(v.provenance)
            rows.append(row)
    out = pd.DataFrame(rows, columns=list(df.columns) + ["perturbation", "perturbed_text", "flags"]
                       + (["variant_id", "description", "provenance"] if args.provenance else []))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    from ..export import store_csv

    store_csv(out, args.out)  # safe to open in a spreadsheet (reversibly: read_store_table)
    flagged = sum(1 for v in variants if v.flags)
    msg = f"wrote {len(out)} rows ({len(cases)} cases x {len(names)} perturbations) to {args.out}"
    if flagged:
        msg += f"; {flagged} flagged by quality gates"
    if runner is not None:
        u = runner.total_usage()
        msg += f"; model calls: {u.calls} new, {u.cache_hits} from cache, {u.failures} failed"
    print(msg, file=sys.stderr)
    return 0
