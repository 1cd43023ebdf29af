"""Core commands: ``models``, ``audits``, ``judges``, ``run`` (``generate`` is in :mod:`.generate_cmd`)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..registry import register_command
from .common import add_executor_args, nonneg_int, positive_int

if TYPE_CHECKING:  # pragma: no cover
    from pydantic import BaseModel

    from ..spec import AuditSpec

__all__ = ["add_models", "add_audits", "add_judges", "add_run"]


@register_command("models", order=20, progress=False)
def add_models(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("models", help="list model backends", description="List the model backends and their spec syntax.")
    p.set_defaults(func=cmd_models)


@register_command("audits", order=30, progress=False)
def add_audits(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("audits", help="list audit recipes usable in a spec",
                       description="List the audit recipes a spec's `audit:` field can name.")
    p.set_defaults(func=cmd_audits)


@register_command("judges", order=40, progress=False)
def add_judges(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("judges", help="list the judges a spec can name",
                       description="List the registered judges (built-in and plugins); a spec names one per "
                       "role with `params.judges: {ROLE: NAME}` where the audit supports it.")
    p.set_defaults(func=cmd_judges)


@register_command("run", order=50)
def add_run(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="run an audit spec (YAML)",
        description="Run an audit described by a YAML spec into a run directory. Prints the estimated number of "
        "model calls first. Re-running the same command resumes: stored calls are never repeated.",
    )
    p.add_argument("spec", type=Path, help="audit spec (YAML); see docs/specs.md")
    p.add_argument("--out", type=Path, required=True, help="run directory to create or resume")
    p.add_argument("--dry-run", action="store_true",
                   help="validate the spec and print the estimate (calls, tokens, cost, time); makes no calls but "
                   "one probe call per model whose time per call is not in the cache yet (stored, not repeated)")
    p.add_argument("--no-probe", action="store_true",
                   help="no probe calls (the time then comes from the cache's recorded answers only): with --dry-run, "
                   "and before a run on a local model (which otherwise times its own first call)")
    p.add_argument("--max-calls", type=nonneg_int, default=None,
                   help="refuse to start if the run needs more new model calls than this")
    p.add_argument("--limit", type=positive_int, default=None, metavar="N",
                   help="audit only the first N cases of the spec's data (a quick look before a full run; "
                   "recorded in the manifest)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--report", action="store_true", help="render RUN_DIR/report.html when the run ends")
    add_executor_args(p, overrides="; overrides the spec's runner.executor")
    reuse = p.add_mutually_exclusive_group()
    reuse.add_argument("--resume", action="store_true",
                       help="only resume: fail unless --out already holds a run of this same spec "
                       "(without either flag: create the directory, or resume the same spec there)")
    reuse.add_argument("--force", action="store_true",
                       help="start over in --out even if it holds a run of another audit or spec "
                       "(its tables are removed; stored model answers are kept and reused)")
    p.set_defaults(func=cmd_run)


def cmd_models(args: argparse.Namespace) -> int:
    from ..models.base import list_backends
    from .common import plain_text

    for b in list_backends():
        print(f"{b['prefix']:18s} {plain_text(b['summary'])}\n{'':18s} capabilities: {', '.join(b['capabilities'])}")
    return 0


def cmd_judges(args: argparse.Namespace) -> int:
    from ..registry import registry
    from .common import plain_text

    for name, judge in registry("judge").items():
        doc = (getattr(judge, "__doc__", None) or "").strip().splitlines()
        print(f"{name:22s} {plain_text(doc[0]) if doc else ''}")
    return 0


def cmd_audits(args: argparse.Namespace) -> int:
    from ..spec import list_audits

    from .common import plain_text

    for name, summary in list_audits().items():
        print(f"{name:18s} {plain_text(summary)}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from ..rundir import RunDirLock, check_reuse
    from ..spec import load_spec

    spec, params = load_spec(args.spec)
    if not args.dry_run:  # an unusable executor (e.g. Ray not installed) is refused before anything runs
        from ..executors import make_executor

        make_executor(args.executor or spec.runner.executor, address=args.ray_address or spec.runner.ray_address,
                      shards=args.shards or spec.runner.shards)
    # Refuse a directory of another spec, or one another process is writing, before estimating anything.
    check_reuse(args.out, spec.model_dump(mode="json"), spec.audit, force=args.force, resume=args.resume)
    if args.dry_run:
        return _run_locked(args, spec, params)
    lock = RunDirLock(args.out).acquire(" ".join(sys.argv))
    try:
        return _run_locked(args, spec, params)
    finally:
        lock.release()


#: the estimate before a run (and ``--dry-run``) counts the stages on a seeded random sample of this many cases when
#: the data holds more, and scales the counts (100,000 patient messages: seconds, not the 40 min of counting each)
ESTIMATE_SAMPLE_CASES = 500

#: ``--dry-run``: seconds an endpoint may take to answer ``GET /models`` unless the spec sets ``runner.timeout_s``
DRY_RUN_READ_S = 5.0


def _check_endpoints(path: Path, spec: AuditSpec, runner: Any) -> int:
    """``--dry-run``'s endpoint check (:mod:`clinaudit.models.endpoint_check`): one error line per endpoint that
    cannot work (naming the endpoint, the variable and the spec field), exit 2; notes on stderr."""
    from ..models.endpoint_check import check_endpoints

    used = sorted({m for v in spec.models.values() for m in ([v] if isinstance(v, str) else v)})
    # one short try per endpoint (a stuck server is found in seconds), or the spec's own runner.timeout_s
    read_s = spec.runner.timeout_s if "timeout_s" in spec.runner.model_fields_set else DRY_RUN_READ_S
    report = check_endpoints(runner, used, spec.backends, read_s=read_s)
    for note in report.notes:
        print(f"clinaudit run: note: {note}", file=sys.stderr)
    for where, msg in report.errors:
        print(f"clinaudit: error: file {path}, field '{where}': {msg}", file=sys.stderr)
    if report.errors:
        return 2
    if report.checked:
        print(f"endpoints checked: {'; '.join(report.checked)}", file=sys.stderr)
    return 0


def _run_locked(args: argparse.Namespace, spec: AuditSpec, params: BaseModel) -> int:
    from ..spec import get_recipe
    from ..pipeline import make_context, run_spec

    recipe = get_recipe(spec.audit)
    probe_errors: dict[str, str] = {}
    if args.dry_run:  # every endpoint reachable, its model listed, its key set and taken (no model call)
        ctx = make_context(spec, params, args.out, base_dir=args.spec.resolve().parent, progress=False,
                           case_limit=args.limit)
        try:
            bad = _check_endpoints(args.spec, spec, getattr(ctx.runner, "inner", ctx.runner))
        finally:
            ctx.rundir.close()
        if bad:
            return bad
    if recipe.estimate is not None:
        ctx = make_context(spec, params, args.out, base_dir=args.spec.resolve().parent, progress=False,
                           case_limit=args.limit)
        ctx.sample_cases = ESTIMATE_SAMPLE_CASES  # a large input is counted on a sample, then scaled
        est = recipe.estimate(ctx)
        if ctx.total_cases is not None:
            sampled = len(ctx.cases())
            est.scale(ctx.total_cases / sampled,
                      f"counted on a seeded random sample of {sampled:,} of the data's {ctx.total_cases:,} cases and "
                      f"scaled x{ctx.total_cases / sampled:,.1f} (calls, tokens and time; the sample's notes below are "
                      "its own counts): an estimate to within the variation between cases")
        runner = getattr(ctx.runner, "inner", ctx.runner)
        config = getattr(runner, "config", None)
        if args.dry_run and dataclasses.is_dataclass(config) and not isinstance(config, type):
            # the probe tries once: a server that never answers costs runner.timeout_s, not timeout_s x retries
            setattr(runner, "config", dataclasses.replace(config, max_retries=0))  # noqa: B010 (a runner, or a log)
        try:  # a time per model: the cache's recorded times, else (--dry-run) one probe call per model
            # a run on a local model: its own first call timed (no extra call), so the time is said before it starts
            est.add_time(runner, probe=args.dry_run and not args.no_probe, local_call=not args.no_probe)
        finally:
            ctx.rundir.close()
            if config is not None:
                setattr(runner, "config", config)  # noqa: B010
        est.slow_server_note(float(getattr(runner.config, "timeout_s", 120.0)),
                             [f"params.{k}" for k in type(params).model_fields if k.endswith("max_tokens")])
        print(est.to_text(spec.backends), file=sys.stderr)
        probe_errors = dict(est.probe_errors)
        new_calls = est.total_calls() - sum(est.cached.values())
        if args.max_calls is not None and new_calls > args.max_calls:
            print(f"clinaudit: refusing to start: {new_calls} new calls > --max-calls {args.max_calls}", file=sys.stderr)
            return 3
    if args.dry_run:
        if probe_errors:  # a model that cannot answer one call: the run would fail the same way
            for model, error in sorted(probe_errors.items()):
                slow = (" (one try, no retries; for a slow server raise runner.timeout_s in the spec)"
                        if "timed out" in error else "")
                print(f"clinaudit: error: file {args.spec}: the probe call to {model} failed: {error}{slow} (the run "
                      "would fail the same way; --no-probe skips the probe)", file=sys.stderr)
            return 1
        print(f"spec {args.spec} is valid (audit '{spec.audit}')")
        return 0
    rundir = run_spec(args.spec, args.out, progress=not args.no_progress, command=" ".join(sys.argv),
                      force=args.force, resume=args.resume, executor=args.executor, ray_address=args.ray_address,
                      shards=args.shards, limit=args.limit)
    usage = rundir.manifest.get("runs", [{}])[-1].get("usage_total", {})
    print(f"run directory: {rundir.path}")
    print(f"model calls: {int(usage.get('calls', 0))} new, {int(usage.get('cache_hits', 0))} from cache, "
          f"{int(usage.get('failures', 0))} failed")
    if args.report:
        from ..report import render_report

        out = render_report(rundir.path)
        print(f"report: {out}")
    status = str(rundir.manifest.get("status", ""))
    failure = (rundir.manifest.get("summary") or {}).get("failure")
    if status.startswith("failed"):
        print(f"clinaudit: error: run failed: {failure}", file=sys.stderr)
        return 1
    if failure:
        print(f"clinaudit run: warning: {failure}", file=sys.stderr)
        return 1
    from .headline import headline_lines

    for line in headline_lines(rundir.path, spec.audit):  # the report's first-screen verdict, and the gate's
        print(line)
    validity = rundir.manifest.get("validity") or {}
    if status.startswith("not measured"):
        print(f"clinaudit: {spec.audit}: {status} (see tables/results.csv: verdict; docs/verdicts.md)",
              file=sys.stderr)
        return 3
    if validity.get("partial"):
        from ..pipeline.counts import count_comparisons, count_of

        n = int((validity.get("verdicts") or {}).get("not_measured", 0))
        res = rundir.table_or_empty("results")  # by role, as the verdict lines count them (pipeline.counts)
        roles = [(c.not_measured, c.role) for c in (count_comparisons(res), count_comparisons(res, "secondary"))
                 if c.role and c.not_measured]
        n = sum(k for k, _ in roles) if roles else n  # mirrors are not counted, as on the first screen
        split = f": {', '.join(f'{k} {r}' for k, r in roles)}" if roles else ""
        print(f"clinaudit run: warning: {spec.audit}: {count_of(n, 'comparisons')} not measured{split} (verdict "
              f"not_measured in tables/results.csv; their reasons in verdict_reason)", file=sys.stderr)
    return 0
