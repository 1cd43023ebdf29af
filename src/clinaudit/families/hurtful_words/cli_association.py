"""Commands of the HurtfulWords (P4) audits: ``association``, ``prevalence``.

One ``add_<command>(sub)`` function builds each sub-parser, registered with
``@register_command(name, order=)``, and one ``cmd_<command>(args)`` runs it.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from ...cli.common import open_unit, positive_int, report_dropped
from ...registry import register_command

__all__ = ["add_association", "cmd_association", "add_prevalence", "cmd_prevalence"]


# --------------------------------------------------------------------------- association


@register_command("association", order=410)
def add_association(sub: argparse._SubParsersAction) -> None:
    from ...cli.common import add_runner_args

    p = sub.add_parser(
        "association",
        help="log-probability bias scores of a language model on clinical templates (P4 Table 3)",
        description="Fill every template with every attribute of its category and every target word, score each "
        "sentence with the model (masked LMs: prior-adjusted masked log-probability as in P4; causal LMs: "
        "sentence log-likelihood against a neutral placeholder), and compare groups per category with a "
        "sign-flip test over template frames (the frame is the unit; it decides the verdict), beside P4's "
        "Wilcoxon signed-rank on paired target words (sentence-level, never a finding), or the tests of --tests. "
        "Writes "
        "OUT/scores.csv, OUT/tests.csv and OUT/summary.csv (P4 Table 3 shape) and a full run directory "
        "(OUT/tables, manifest, cache; resumable). With --scores, no model is called: the statistics are "
        "computed from per-sentence scores that already exist (a tidy table or HurtfulWords' TSV).",
    )
    p.add_argument("--templates", type=Path, default=None,
                   help="templates (HurtfulWords templates.txt or YAML); required unless --scores")
    p.add_argument("--attributes", type=Path, default=None,
                   help="attributes CSV (attribute,category,subgroup) or YAML; required unless --scores")
    p.add_argument("--targets", type=Path, default=None,
                   help="YAML {groups: {name: [words...]}}, words paired across groups by position "
                   "(default: male man/he/male/m vs female woman/she/female/f)")
    p.add_argument("--target-set", default=None, help="a named set under 'sets:' in the targets YAML")
    p.add_argument("--model", action="append", default=None, metavar="SPEC",
                   help="model spec, e.g. hf-mlm:/models/bert, hf:/models/llama, embedded (repeatable; "
                   "required unless --scores)")
    p.add_argument("--scores", action="append", type=Path, default=None, metavar="FILE",
                   help="per-sentence scores that already exist (repeatable, one model per file): no model calls")
    p.add_argument("--scores-format", choices=["tidy", "hurtfulwords"], default="tidy",
                   help="tidy: CSV with category, group, score, template_id, attribute, target_index (e.g. an "
                   "earlier OUT/scores.csv); hurtfulwords: the TSV of HurtfulWords' scoring script (categories, "
                   "demographic, tgt_text, log_probs, pred_sent). Default tidy")
    p.add_argument("--scores-model", action="append", default=None, metavar="NAME",
                   help="model name of each --scores file, in order (default: tidy 'model' column, else the "
                   "file name)")
    p.add_argument("--tests", default=None, metavar="LIST",
                   help="comma-separated tests: sign-flip (permutation over template frames of the per-frame "
                   "mean paired difference: the frame is the unit, the only test whose rows can be bias), "
                   "signed-rank (paired by frame and target position, the paper's text), rank-sum, ks, t "
                   "(unpaired, as P4's published code); the last four treat sentences as independent and are "
                   "labelled sentence-level. The first fills the summary's p. Default sign-flip,signed-rank; "
                   "with --scores-format hurtfulwords the published rank-sum,t,ks")
    p.add_argument("--method", choices=["auto", "masked", "causal"], default="auto",
                   help="scoring (default auto: masked for hf-mlm models, sentence likelihood otherwise)")
    p.add_argument("--mask-mode", choices=["word", "token"], default="word",
                   help="prior sentence: one mask per attribute word (published, default) or per token")
    p.add_argument("--batch-size", type=positive_int, default=None, help="sentences per forward pass of a local model")
    p.add_argument("--placeholder", action="append", default=[], metavar="CATEGORY=TEXT",
                   help="causal prior: replace the attribute of CATEGORY by TEXT (repeatable)")
    p.add_argument("--groups", default=None, help="comma-separated groups to compare, reference first")
    p.add_argument("--categories", default=None, help="comma-separated categories to keep (default all)")
    p.add_argument("--max-templates-per-category", type=positive_int, default=None, metavar="N",
                   help="use only the first N templates of each category (quick runs)")
    p.add_argument("--correction", choices=["bonferroni", "fdr_bh", "holm"], default="bonferroni",
                   help="multiplicity correction across categories (default bonferroni)")
    p.add_argument("--alpha", type=open_unit, default=0.01,
                   help="significance level of the tests and of the rows' verdicts (default 0.01, as P4)")
    p.add_argument("--notes", type=Path, default=None,
                   help="optional notes table for the corpus-prevalence columns (see `clinaudit prevalence`)")
    p.add_argument("--text-column", default="text", help="note text column (with --notes)")
    p.add_argument("--group-column", default="group", help="group column (with --notes)")
    p.add_argument("--n-bootstrap", type=int, default=1000,
                   help="bootstrap resamples of sentence frames for every CI (default 1000; 0: no CIs)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap CIs (default 0)")
    p.add_argument("--out", type=Path, required=True, help="output / run directory (created or resumed)")
    add_runner_args(p)
    p.set_defaults(func=cmd_association)


def _csv_list(text: str | None, option: str | None = None) -> list[str] | None:
    """The items of a comma-separated option value (None when the option was not given); with ``option``, a value
    that names nothing (``--categories ''``) is an error naming that option."""
    if text is None:
        return None
    items = [x.strip() for x in text.split(",") if x.strip()]
    if option is not None and not items:
        from ...errors import InputError

        raise InputError(f"{option} {text!r} names nothing: give comma-separated values, or leave the option out "
                         "for all", field=option)
    return items


def _tests_list(text: str) -> list[str]:
    from ...errors import InputError
    from .association_stats import ASSOCIATION_TESTS

    tests = _csv_list(text) or []
    unknown = [t for t in tests if t not in ASSOCIATION_TESTS]
    if unknown or not tests:
        raise InputError(f"unknown test(s) {', '.join(unknown) or '(none given)'}; choose from "
                         f"{', '.join(ASSOCIATION_TESTS)}", field="--tests")
    return list(dict.fromkeys(tests))


def cmd_association(args: argparse.Namespace) -> int:
    from ...errors import InputError
    from ...spec import parse_spec_dict
    from ...pipeline import run_spec

    tests = _tests_list(args.tests) if args.tests is not None else None
    placeholders = {}
    for item in args.placeholder:
        cat, sep, text = item.partition("=")
        if not sep or not cat.strip() or not text.strip():
            raise InputError(f"--placeholder expects CATEGORY=TEXT, got {item!r}", field="--placeholder")
        placeholders[cat.strip()] = text.strip()
    common = {
        "groups": _csv_list(args.groups, "--groups"),
        "categories": _csv_list(args.categories, "--categories"),
        "tests": tests,
        "correction": args.correction,
        "alpha": args.alpha,
        "n_bootstrap": args.n_bootstrap,
    }
    if args.scores:
        given = [name for name, v in (("--templates", args.templates), ("--model", args.model)) if v]
        if given:
            raise InputError(f"--scores analyses existing scores: drop {' and '.join(given)}", field=given[0])
        names = args.scores_model or []
        if names and len(names) != len(args.scores):
            raise InputError(f"{len(names)} --scores-model name(s) for {len(args.scores)} --scores file(s)",
                             field="--scores-model")
        params: dict = {
            **common,
            "scores": [{"path": str(f.resolve()), "model": names[i] if names else None}
                       for i, f in enumerate(args.scores)],
            "scores_format": args.scores_format,
        }
        if args.attributes is not None:
            params["attributes"] = str(args.attributes.resolve())
        models: dict = {}
    else:
        missing = [name for name, v in (("--templates", args.templates), ("--attributes", args.attributes),
                                        ("--model", args.model)) if not v]
        if missing:
            raise InputError(f"{', '.join(missing)} required (or give --scores)", field=missing[0])
        params = {
            **common,
            "templates": str(args.templates.resolve()),
            "attributes": str(args.attributes.resolve()),
            "targets": str(args.targets.resolve()) if args.targets else None,
            "target_set": args.target_set,
            "method": args.method,
            "mask_mode": args.mask_mode,
            "placeholders": placeholders,
            "max_templates_per_category": args.max_templates_per_category,
            "batch_size": args.batch_size,
        }
        models = {"target": list(args.model)}
    if args.notes is not None:
        params["prevalence"] = {"notes": str(args.notes.resolve()), "text_column": args.text_column,
                                "group_column": args.group_column}
    spec_dict = {
        "audit": "association",
        "name": "association",
        "seed": args.seed,
        "models": models,
        "runner": {"concurrency": args.concurrency, "max_retries": args.max_retries, "timeout_s": args.timeout,
                   "rate_limit_per_min": args.rate_limit},
        "params": params,
    }
    spec, p = parse_spec_dict(spec_dict, source="command line")
    rundir = run_spec(spec, args.out, params=p, progress=not args.no_progress, command=" ".join(sys.argv))
    for name in ("scores", "tests", "summary", "exclusions"):
        if rundir.has_table(name):
            shutil.copyfile(rundir.table_path(name), args.out / f"{name}.csv")
    _print_summary(args.out / "summary.csv")
    _print_direction(args.out / "tests.csv")
    summary = rundir.manifest.get("summary") or {}
    return report_dropped("association", int(summary.get("score_rows_excluded", 0)),
                          int(summary.get("score_rows_read", 0)), "score rows",
                          "score missing, NaN, inf or -inf", str(args.out / "exclusions.csv"))


def _print_direction(path: Path) -> None:

    from ...rundir import read_store_table

    if path.exists():
        for d in dict.fromkeys(read_store_table(path)["direction"].dropna().astype(str)):
            print(f"direction: {d}")


def _print_summary(path: Path) -> None:
    import pandas as pd

    from ...rundir import read_store_table

    df = read_store_table(path)  # the exact values (the file's cells carry the spreadsheet-safety prefix)
    cols = [c for c in df.columns if c.startswith("mean_")] + ["p", "p_adj", "n_sentences"]
    show = df[["model", "category", *cols]]
    with pd.option_context("display.width", 160, "display.max_columns", 20, "display.float_format", "{:.4g}".format):
        print(show.to_string(index=False))
    print(f"\nwrote {path.parent / 'tests.csv'} and {path}")


# --------------------------------------------------------------------------- prevalence


@register_command("prevalence", order=420)
def add_prevalence(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "prevalence",
        help="share of each group among notes mentioning a category's attributes (P4 Table 3 'Gender Ratio')",
        description="For each attribute category, find the notes that mention any of its attribute strings "
        "(case-insensitive, whole words) and report the share of each group among them with n and a binomial "
        "confidence interval. With --patient-column, patients are counted instead of notes.",
    )
    p.add_argument("--notes", type=Path, required=True, help="notes table (CSV, TSV or JSON Lines)")
    p.add_argument("--text-column", required=True, help="column holding the note text")
    p.add_argument("--group-column", required=True, help="column holding the group (e.g. gender)")
    p.add_argument("--patient-column", default=None, help="count patients (this id column) instead of notes")
    p.add_argument("--attributes", type=Path, required=True, help="attributes CSV (attribute,category,subgroup) or YAML")
    p.add_argument("--groups", default=None, help="comma-separated groups to report, in order (default all)")
    p.add_argument("--ci-method", default="wilson",
                   help="binomial CI method of statsmodels proportion_confint (default wilson)")
    p.add_argument("--out", type=Path, required=True, help="output directory (writes prevalence.csv, results.csv)")
    p.set_defaults(func=cmd_prevalence)


def cmd_prevalence(args: argparse.Namespace) -> int:
    from .prevalence import category_prevalence, load_notes, prevalence_results
    from ...export import to_csv
    from ...perturb.templates import load_attributes

    notes = load_notes(args.notes, args.text_column, args.group_column, args.patient_column)
    attrs: dict[str, list[str]] = {}
    for a in load_attributes(args.attributes):
        attrs.setdefault(a.category, []).append(a.attribute)
    prev = category_prevalence(notes, attrs, patient_col="patient" if args.patient_column else None,
                               groups=_csv_list(args.groups, "--groups"), ci_method=args.ci_method)
    args.out.mkdir(parents=True, exist_ok=True)
    to_csv(prev, args.out / "prevalence.csv")  # exports: formula-like cells neutralised
    to_csv(prevalence_results(prev), args.out / "results.csv")
    print(prev[["category", "group", "n_group", "n_mentioning", "share", "ci_low", "ci_high"]].to_string(index=False))
    print(f"\nwrote {args.out / 'prevalence.csv'}")
    return 0
