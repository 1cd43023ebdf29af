"""Audit specs (YAML), validated on load, and the audit-recipe registry.

A spec names one audit recipe and gives its data, models and parameters::

    audit: treatment_shift          # see `clinaudit audits`
    name: oncqa-gpt4o
    seed: 0
    data:
      - {format: csv, path: messages.csv, columns: {id: case_id, text: message}}
    models:
      target: [openai:gpt-4o-mini, embedded]
      judge: embedded
    backends:                       # per-spec backend options (never the key itself)
      openai:gpt-4o-mini: {base_url: https://api.openai.com/v1, api_key_env: OPENAI_API_KEY}
    runner: {concurrency: 16, max_retries: 6, timeout_s: 120}
    params: {...}                   # validated by the recipe's own model

Errors name the spec file and the field path (``params.seeds[1]``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pandas as pd
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .errors import SpecError
from .loaders.base import DataSource, load_sources, resolve_path
from .exclusions import Exclusions
from .executors.sharding import MAX_SHARDS
from .records import Case, to_frame
from .registry import Registry, registry
from .rundir import RunDir, check_reuse
from .pipeline.estimate import AuditRecipe, Estimate
from .runner import Runner, RunnerConfig

__all__ = [
    "AuditSpec",
    "RunnerSettings",
    "AuditContext",
    "Estimate",
    "get_recipe",
    "list_audits",
    "load_spec",
    "parse_spec_dict",
    "run_spec",
    "call_status",
]


class RunnerSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    concurrency: int = Field(default=8, ge=1)
    max_retries: int = Field(default=6, ge=0)
    timeout_s: float = Field(default=120.0, gt=0)
    rate_limit_per_min: float | None = Field(default=None, gt=0)
    retry_after_max_s: float = Field(default=60.0, ge=0)  # cap on a server's Retry-After (seconds)
    fail_fast: bool = False
    # where the uncached calls are sent from (docs/scale-out.md); `clinaudit run --executor` overrides it
    executor: Literal["local", "processes", "ray"] = "local"
    ray_address: str | None = None  # a running Ray cluster; none: a local Ray instance for the run
    # ray: actors (default: cluster CPUs/GPUs); processes: workers; both capped at the CPUs and at the work
    shards: int | None = Field(default=None, ge=1, le=MAX_SHARDS)


class AuditSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    audit: str
    name: str = ""
    seed: int = 0
    data: list[DataSource] = Field(default_factory=list)
    models: dict[str, str | list[str]] = Field(default_factory=dict)

    @field_validator("models")
    @classmethod
    def _models_named(cls, v: dict[str, str | list[str]]) -> dict[str, str | list[str]]:
        """Every role names at least one model, each a non-empty spec, none twice."""
        for role, val in v.items():
            specs = [val] if isinstance(val, str) else list(val)
            if not specs:
                raise ValueError(f"models.{role} is an empty list: name at least one model (see `clinaudit models`)")
            for m in specs:
                if not m.strip():
                    raise ValueError(f"models.{role} has an empty model spec")
            dup = sorted({m for m in specs if specs.count(m) > 1})
            if dup:
                raise ValueError(f"models.{role} lists {', '.join(dup)} more than once")
        return v

    backends: dict[str, dict[str, Any]] = Field(default_factory=dict)
    runner: RunnerSettings = Field(default_factory=RunnerSettings)
    cache: str = "run"  # "run" (RUN_DIR/cache.sqlite), "user" (~/.cache/clinaudit) or a path
    params: dict[str, Any] = Field(default_factory=dict)


EXCLUSIONS_TABLE = "exclusions"


@dataclass
class AuditContext:
    spec: AuditSpec
    params: BaseModel
    rundir: RunDir
    runner: Runner
    base_dir: Path | None = None
    progress: bool = True
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("clinaudit.audit"))
    _cases: list[Case] | None = None
    #: the run's exclusions ledger (tables/exclusions.csv): rows from exclude() and the audit's own table
    exclusions: Exclusions = field(default_factory=Exclusions)
    _excluded_table: pd.DataFrame | None = None
    #: True while the pipeline counts calls for the dry-run estimate (nothing is written)
    dry: bool = False
    #: set when a (pre-0.2) audit writes its own ``responses`` table instead of the framework's
    audit_wrote_responses: bool = False

    def cases(self) -> list[Case]:
        """All cases of all data sources (loaded once)."""
        if self._cases is None:
            self._cases = load_sources(list(self.spec.data), self.base_dir)
        return self._cases

    def resolve_path(self, path: str | Path | None) -> Path | None:
        """A path from the spec's params, relative paths taken from the spec file's folder."""
        return resolve_path(path, self.base_dir)

    def model(self, role: str, default: str | None = None) -> str:
        val = self.spec.models.get(role, default)
        if val is None:
            raise SpecError(f"spec field 'models.{role}' is required for audit '{self.spec.audit}'")
        return val[0] if isinstance(val, list) else val

    def models(self, role: str, default: list[str] | None = None) -> list[str]:
        val = self.spec.models.get(role, default)
        if val is None:
            raise SpecError(f"spec field 'models.{role}' is required for audit '{self.spec.audit}'")
        return [val] if isinstance(val, str) else list(val)

    def write_table(self, name: str, df: pd.DataFrame | list) -> Path:
        if isinstance(df, list):
            df = to_frame(df)
        if self.dry:  # counting calls for the estimate: the run store is not touched
            return self.rundir.table_path(name)
        if name == "responses":
            self.audit_wrote_responses = True
        if name == EXCLUSIONS_TABLE:
            # an audit's own exclusions table joins the one ledger (the last write replaces the earlier one)
            self._excluded_table = df
            return self._write_exclusions()
        return self.rundir.write_table(name, df)

    def exclude(self, stage: str, case_id: Any, reason: str, **detail: Any) -> None:
        """Record one exclusion (see :mod:`clinaudit.exclusions`); the ledger is written at once."""
        self.exclusions.add(stage, case_id, reason, **detail)
        self._write_exclusions()

    def exclusions_frame(self) -> pd.DataFrame:
        """The ledger: rows recorded with :meth:`exclude`, then the audit's own exclusions table."""
        ledger = Exclusions()
        ledger.extend(self.exclusions.frame())
        if self._excluded_table is not None and len(self._excluded_table):
            table = self._excluded_table.copy()
            if "stage" not in table.columns:
                table["stage"] = "cases"
            table["stage"] = table["stage"].fillna("cases").replace("", "cases")
            if "reason" not in table.columns:
                table["reason"] = "excluded"
            ledger.extend(table)
        return ledger.frame()

    def _write_exclusions(self) -> Path:
        if self.dry:
            return self.rundir.table_path(EXCLUSIONS_TABLE)
        return self.rundir.write_table(EXCLUSIONS_TABLE, self.exclusions_frame())


# The shared registry of audits (clinaudit.registry, kind "audit"): an audit's module (built-in or
# plugin) registers it with @clinaudit.pipeline.register.
_RECIPES: Registry[AuditRecipe] = registry("audit")


def get_recipe(name: str) -> AuditRecipe:
    try:
        return _RECIPES.get(name)
    except ModuleNotFoundError as exc:
        if exc.name == _RECIPES.module_of(name):
            raise SpecError(f"audit '{name}' is not available in this version of clinaudit") from exc
        raise
    except KeyError:
        raise SpecError(f"unknown audit '{name}'; known audits: {', '.join(_RECIPES.names())}") from None


def list_audits() -> dict[str, str]:
    """Every audit a spec can name (built-ins and plugins) with its one-line summary."""
    return {name: recipe.summary for name, recipe in _RECIPES.items()}


def _format_loc(loc: tuple[Any, ...]) -> str:
    s = ""
    for part in loc:
        s += f"[{part}]" if isinstance(part, int) else (("." if s else "") + str(part))
    return s


def _validation_message(exc: ValidationError, source: str, prefix: str = "") -> str:
    """``invalid audit spec FILE: field 'x.y': message`` (one line; one more line per further error)."""
    items = []
    for err in exc.errors():
        loc = _format_loc(tuple(err["loc"]))
        loc = f"{prefix}.{loc}" if prefix and loc else (prefix or loc)
        msg = str(err["msg"]).removeprefix("Value error, ")
        items.append(f"field '{loc}': {msg}")
    if len(items) == 1:
        return f"invalid audit spec {source}: {items[0]}"
    return "\n".join([f"invalid audit spec {source}: {len(items)} errors:"] + [f"  {i}" for i in items])


def parse_spec_dict(data: Any, source: str = "<spec>") -> tuple[AuditSpec, BaseModel]:
    """Validate a spec mapping and its recipe parameters."""
    if not isinstance(data, dict):
        raise SpecError(f"invalid audit spec {source}: the top level must be a mapping")
    try:
        spec = AuditSpec.model_validate(data)
    except ValidationError as exc:
        raise SpecError(_validation_message(exc, source)) from None
    if spec.backends:
        from .models.options import validate_backend_options

        used = [m for v in spec.models.values() for m in ([v] if isinstance(v, str) else v)]
        spec.backends = validate_backend_options(spec.backends, source, used_models=used, params=spec.params)
    try:
        recipe = get_recipe(spec.audit)
    except SpecError as exc:
        raise SpecError(f"invalid audit spec {source}: field 'audit': {exc}") from None
    try:
        params = recipe.params_model.model_validate(spec.params)
    except ValidationError as exc:
        raise SpecError(_validation_message(exc, source, prefix="params")) from None
    roles = getattr(recipe.declaration, "judges", None)
    for role in dict(getattr(params, "judges", None) or {}):
        if roles is not None and role not in roles:
            raise SpecError(f"invalid audit spec {source}: field 'params.judges.{role}': audit '{spec.audit}' has "
                            f"no judge role '{role}'; its roles: {', '.join(roles) or '(none)'}")
    return spec, params


def load_spec(path: str | Path) -> tuple[AuditSpec, BaseModel]:
    p = Path(path)
    if not p.exists():
        raise SpecError(f"spec file not found: {p}")
    if not p.is_file():
        raise SpecError(f"invalid audit spec {p}: not a file")
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise SpecError(f"invalid audit spec {p}: not UTF-8 text ({exc.reason} at byte offset {exc.start}); "
                        "save the spec as UTF-8") from None
    except OSError as exc:
        raise SpecError(f"cannot read the audit spec {p}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise SpecError(f"invalid audit spec {p}: not valid YAML: {' '.join(str(exc).split())}") from None
    return parse_spec_dict(data, source=str(p))


def _used_models(spec: AuditSpec) -> list[str]:
    return [m for v in spec.models.values() for m in ([v] if isinstance(v, str) else v)]


def make_context(
    spec: AuditSpec, params: BaseModel, out_dir: str | Path, *, base_dir: Path | None = None, progress: bool = True,
    runner: Runner | None = None,
) -> AuditContext:
    from .cache import default_cache_path
    from .models.options import with_state_dir

    cache_path = None if spec.cache == "run" else (default_cache_path() if spec.cache == "user" else Path(spec.cache))
    rundir = RunDir(out_dir, cache_path=cache_path)
    if runner is None:
        r = spec.runner
        runner = Runner(
            cache=rundir.cache,
            config=RunnerConfig(
                concurrency=r.concurrency, max_retries=r.max_retries, timeout_s=r.timeout_s,
                rate_limit_per_min=r.rate_limit_per_min, retry_after_max_s=r.retry_after_max_s, progress=progress,
                fail_fast=r.fail_fast,
            ),
            # backends that keep state between runs (openai-batch: its batch ids) keep it in the run directory
            backend_options=with_state_dir(spec.backends, _used_models(spec), rundir.path / "batches",
                                           params=spec.params),
        )
    from .pipeline.calls import CallLog

    if not isinstance(runner, CallLog):  # the framework records every call (the responses table)
        runner = CallLog(runner, path=rundir.table_path("responses"))
    return AuditContext(spec=spec, params=params, rundir=rundir, runner=runner, base_dir=base_dir, progress=progress)


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
) -> RunDir:
    """Run an audit spec into ``out_dir`` (resumable: re-running reuses the cache).

    One writer per run directory: the directory is locked for the whole run
    (:class:`~clinaudit.rundir.RunDirBusyError` if another process holds it). A directory that
    holds a run of another audit or spec is refused (:class:`~clinaudit.rundir.RunDirReuseError`)
    unless ``force`` (its tables are removed; the cache stays). ``resume`` requires an earlier run
    of the same spec there. ``executor``, ``ray_address``, ``shards`` override the spec's ``runner:``
    settings of the same names (where the uncached calls are sent from; see :mod:`clinaudit.executors`).
    """
    base_dir = None
    if not isinstance(spec, AuditSpec):
        base_dir = Path(spec).resolve().parent
        spec, params = load_spec(spec)
    if params is None:
        params = get_recipe(spec.audit).params_model.model_validate(spec.params)
    recipe = get_recipe(spec.audit)
    spec = _with_executor(spec, executor, ray_address, shards)
    from .executors import make_executor

    execution = make_executor(spec.runner.executor, address=spec.runner.ray_address, shards=spec.runner.shards)
    ctx = make_context(spec, params, out_dir, base_dir=base_dir, progress=progress, runner=runner)
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


def _with_executor(spec: AuditSpec, executor: str | None, address: str | None, shards: int | None) -> AuditSpec:
    """``spec`` with the executor settings given on the command line (validated like the spec's own)."""
    given = {k: v for k, v in (("executor", executor), ("ray_address", address), ("shards", shards)) if v is not None}
    if not given:
        return spec
    try:
        settings = RunnerSettings.model_validate({**spec.runner.model_dump(), **given})
    except ValidationError as exc:
        raise SpecError(_validation_message(exc, "(command line)", prefix="runner")) from None
    return spec.model_copy(update={"runner": settings})


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
    if not ctx.audit_wrote_responses:  # the framework's responses table: every call, deduplicated
        ctx.rundir.write_table("responses", ctx.runner.frame())
    status, failure = call_status(ctx.runner.usage)
    if failure:
        summary = {**summary, "failure": failure}
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
