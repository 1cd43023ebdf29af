"""The run driver: a spec into a run directory, through the audit's stages.

:func:`run_spec` validates the spec (:mod:`clinaudit.spec`), locks the run directory, builds
the run context (:mod:`.context`) and the executor, runs the audit's stages
(:func:`clinaudit.pipeline.audit.run_stages`, through its registered recipe), writes the
framework's ``responses`` table and the manifest with the run's status.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..exclusion_skew import declared_attributes
from ..rundir import RunDir, check_reuse
from ..runner import Runner
from ..spec import AuditSpec, get_recipe, load_spec, with_runner_settings
from .context import AuditContext, make_context
from .estimate import AuditRecipe
from .validity import assess_run, run_status

__all__ = ["run_spec", "call_status", "drop_excluded_text"]


def run_spec(
    spec: AuditSpec | str | Path,
    out_dir: str | Path,
    *,
    params: BaseModel | None = None,
    progress: bool = True,
    runner: Runner | None = None,
    command: str = "",
    force: bool = False,
    resume: bool = False,
    executor: str | None = None,
    ray_address: str | None = None,
    shards: int | None = None,
    limit: int | None = None,
) -> RunDir:
    """Run an audit spec into ``out_dir`` (resumable: re-running reuses the cache).

    One writer per run directory: the directory is locked for the whole run
    (:class:`~clinaudit.rundir.RunDirBusyError` if another process holds it). A directory that
    holds a run of another audit or spec is refused (:class:`~clinaudit.rundir.RunDirReuseError`)
    unless ``force`` (its tables are removed; the cache stays). ``resume`` requires an earlier run
    of the same spec there. ``executor``, ``ray_address``, ``shards`` override the spec's ``runner:``
    settings of the same names (where the uncached calls are sent from; see :mod:`clinaudit.executors`).
    ``limit`` audits only the first ``limit`` cases of the spec's data (``clinaudit run --limit``; recorded
    in the manifest's entry for this run).
    """
    base_dir = None
    if not isinstance(spec, AuditSpec):
        base_dir = Path(spec).resolve().parent
        spec, params = load_spec(spec)
    if params is None:
        params = get_recipe(spec.audit).params_model.model_validate(spec.params)
    recipe = get_recipe(spec.audit)
    spec = with_runner_settings(spec, executor=executor, ray_address=ray_address, shards=shards)
    from ..executors import make_executor

    execution = make_executor(spec.runner.executor, address=spec.runner.ray_address, shards=spec.runner.shards)
    ctx = make_context(spec, params, out_dir, base_dir=base_dir, progress=progress, runner=runner, case_limit=limit)
    execution.attach(ctx.runner.runner)
    try:
        ctx.rundir.lock(command or f"run_spec({spec.audit})")
        if check_reuse(ctx.rundir.path, spec.model_dump(mode="json"), spec.audit, force=force,
                       resume=resume) == "force":
            ctx.rundir.start_over()
    except BaseException:
        ctx.rundir.close()
        raise
    try:
        return _run_in(ctx, recipe, spec, base_dir, command)
    finally:
        execution.close()
        ctx.runner.runner.executor = None  # a runner given by the caller goes back as it came


def _run_in(ctx: AuditContext, recipe: AuditRecipe, spec: AuditSpec, base_dir: Path | None, command: str) -> RunDir:
    """The body of :func:`run_spec` once the run directory is locked."""
    log = ctx.rundir.attach_log()
    data_files = [s.resolved_path(base_dir) for s in spec.data if s.path]
    model_specs = sorted({m for v in spec.models.values() for m in ([v] if isinstance(v, str) else v)})
    ctx.rundir.start(
        spec=spec.model_dump(mode="json"),
        models=[{"spec": m, "options": _public_options(spec.backends.get(m, {}))} for m in model_specs],
        seeds=[spec.seed],
        data_files=[p for p in data_files if p is not None],
        command=command,
        **({"case_limit": ctx.case_limit} if ctx.case_limit is not None else {}),
    )
    log.info("audit %s started: %s", spec.audit, spec.name)
    try:
        summary = recipe.run(ctx) or {}
    except BaseException as exc:
        # Completed calls are already in the cache; record how far the run got, then re-raise.
        ctx.rundir.finish(usage=ctx.runner.usage, audit=spec.audit, status=f"failed: {type(exc).__name__}: {exc}")
        log.error("audit %s stopped: %s: %s", spec.audit, type(exc).__name__, exc)
        ctx.rundir.close()
        raise
    if ctx.case_limit is not None and ctx._cases is None:
        note = f"--limit {ctx.case_limit} had no effect: the {spec.audit} audit reads no cases from the spec's data"
        log.warning(note)
        summary = {**summary, "limit_note": note}
    ctx.rundir.write_table("responses", ctx.runner.frame())  # every call, deduplicated
    if ctx.deid_reach is not None:  # how far de-identification reached: counts only (clinaudit.deid_reach)
        from ..deid_reach import TABLE, reach_table

        ctx.rundir.write_table(TABLE, reach_table(ctx.deid_reach))
        summary = {**summary, "deid_reach": dict(ctx.deid_reach)}
    if ctx.deid_changed is not None:  # what de-identification changed, by group (clinaudit.deid_groups)
        from ..deid_groups import TABLE as CHANGES, change_rates, change_summary

        import pandas as pd

        attributes = ctx.case_attributes()
        rates = change_rates(pd.DataFrame() if attributes is None else attributes, ctx.deid_changed,
                             alpha=spec.verdicts.alpha, seed=spec.seed)
        ctx.rundir.write_table(CHANGES, rates)
        summary = {**summary, "deid_changes": change_summary(rates, ctx.deid_changed, len(ctx.cases()),
                                                             ctx.deid_arms or {})}
    drop_excluded_text(ctx)
    status, failure = call_status(ctx.runner.usage)
    try:
        validity = assess_run(ctx.rundir, spec.audit, spec.verdicts, attributes=ctx.case_attributes(),
                              declared=declared_attributes(spec))
    except Exception as exc:  # a bug in the verdicts must not lose the run: it says so and exits 1
        # the traceback goes to the run's log (INFO) and to the terminal only with -v: the user sees one line
        log.error("audit %s: the verdicts could not be computed (%s: %s)", spec.audit, type(exc).__name__, exc)
        log.info("audit %s: where the verdicts failed", spec.audit, exc_info=True)
        validity = {"measured": True, "error": f"{type(exc).__name__}: {exc}"}
        failure = failure or (f"the verdicts could not be computed ({type(exc).__name__}: {exc}); the results have "
                              "no verdict column (please report it)")
        status = "complete (verdicts unavailable)" if status == "complete" else status
    if failure:
        summary = {**summary, "failure": failure}
    elif not validity["measured"]:  # nothing could be measured: never `complete` (clinaudit run exits 3)
        status, reason = run_status(validity)
        summary = {**summary, "not_measured": reason}
    ledger = ctx.exclusions_frame()
    if len(ledger):  # every exclusion counted by stage and reason in the run summary
        counts = ledger.groupby(["stage", "reason"], sort=True).size()
        summary = {**summary, "excluded_by_reason": {f"{st}: {r}": int(n) for (st, r), n in counts.items()}}
    ctx.rundir.finish(usage=ctx.runner.usage, summary=summary, audit=spec.audit, status=status)
    if status == "complete":
        log.info("audit %s finished", spec.audit)
    else:
        log.error("audit %s: %s", spec.audit, status)
    ctx.rundir.close()
    return ctx.rundir


def drop_excluded_text(ctx: AuditContext) -> int:
    """Nothing of an excluded case's text stays in the run directory: the cases table's ``text`` (and its
    ``fields``, which may hold more text) of every case the ledger excludes as a whole is emptied once the
    audit has finished (its id, dataset, source row and the audit's own columns stay; the ledger gives the
    reason). Returns the number of rows emptied."""
    from ..exclusion_skew import excluded_case_ids

    if ctx.dry or not ctx.rundir.has_table("cases"):
        return 0
    excluded = excluded_case_ids(ctx.exclusions_frame())
    if not excluded:
        return 0
    cases = ctx.rundir.table_or_empty("cases")
    if "case_id" not in cases.columns or "text" not in cases.columns:
        return 0
    mask = cases["case_id"].astype(str).isin(excluded)
    if not mask.any():
        return 0
    cases["text"] = cases["text"].astype(object)
    cases.loc[mask, "text"] = ""
    if "fields" in cases.columns:
        cases["fields"] = cases["fields"].astype(object)
        cases.loc[mask, "fields"] = "{}"
    ctx.rundir.write_table("cases", cases)
    return int(mask.sum())


def call_status(usage: dict[str, Any]) -> tuple[str, str | None]:
    """Run status from the model-call accounting of this invocation.

    ``("complete", None)`` when no call failed; ``("failed: <reason>", reason)`` when every
    call to some model failed (its results would be empty or all unparseable);
    ``("complete (<n> of <m> model calls failed)", reason)`` when only some failed.
    """
    all_failed, failed, attempted = [], 0, 0
    for spec_name, u in sorted(usage.items()):
        calls, hits, fails = int(u.calls), int(u.cache_hits), int(u.failures)
        failed += fails
        attempted += calls + hits + fails
        if fails and not calls and not hits:
            all_failed.append(f"{spec_name} ({fails} call(s))")
    if all_failed:
        reason = (f"every model call to {', '.join(all_failed)} failed after retries; see logs/run.log "
                  f"for the errors, fix the backend and re-run the same command")
        return f"failed: {reason}", reason
    if failed:
        reason = (f"{failed} of {attempted} model calls failed after retries (their rows are marked as errors); "
                  f"re-run the same command to retry them")
        return f"complete ({failed} of {attempted} model calls failed)", reason
    return "complete", None


def _public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Backend options safe for the manifest: names of env vars, never their values."""
    hidden = {"api_key", "key", "token", "password", "responder"}
    return {k: v for k, v in options.items() if k.lower() not in hidden}
