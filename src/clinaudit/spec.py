"""Audit specs (YAML), validated on load: the schema, and the audits a spec can name.

The run driver that executes a spec (``run_spec``) and the run context live with the stages,
in :mod:`clinaudit.pipeline`.

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

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .errors import InputError, SpecError
from .executors.sharding import MAX_SHARDS
from .loaders.base import DataSource
from .loaders.formats import read_yaml_file
from .registry import Registry, registry
from .runner import RunnerConfig

if TYPE_CHECKING:  # pragma: no cover
    from .pipeline.estimate import AuditRecipe

__all__ = [
    "AuditSpec",
    "DeidSettings",
    "VerdictSettings",
    "RunnerSettings",
    "get_recipe",
    "list_audits",
    "load_spec",
    "parse_spec_dict",
    "with_runner_settings",
]


class PrimarySelector(BaseModel):
    """One entry of ``verdicts.primary`` written as a mapping: a metric and, optionally, the strata it is primary in
    (each a value or a list of values of that column of ``tables/results.csv``)."""

    model_config = ConfigDict(extra="forbid")

    metric: str = Field(min_length=1, description="a metric the audit declares as an effect (e.g. TSR)")
    perturbation: str | list[str] | None = None
    question: str | list[str] | None = None
    group: str | list[str] | None = None
    attribute: str | list[str] | None = None
    task: str | list[str] | None = None

    def where(self) -> dict[str, list[str]]:
        """The strata the entry names: column -> the values it allows."""
        out = {}
        for col in ("perturbation", "question", "group", "attribute", "task"):
            v = getattr(self, col)
            if v is not None:
                out[col] = [v] if isinstance(v, str) else [str(x) for x in v]
        return out


class VerdictSettings(BaseModel):
    """The spec's ``verdicts:`` section: margins, significance level and validity thresholds."""

    model_config = ConfigDict(extra="forbid")

    alpha: float = Field(default=0.05, gt=0, lt=1, description="significance level of `bias` (on p_adj) and of "
                         "the equivalence bound (two one-sided tests at alpha/2 each)")
    margins: dict[str, float] = Field(default_factory=dict, description="metric (or audit/metric) -> margin in the "
                                      "metric's own units; overrides the declared margin")
    min_parse_rate: float = Field(default=0.5, ge=0, le=1, description="a judge parsing a smaller share of its "
                                  "answers leaves its audit not measured")
    min_units: int = Field(default=5, ge=1, description="fewest independent units (cases; positives/negatives per "
                           "group for recall/specificity gaps) behind a group for a finding")
    primary: list[str | PrimarySelector] | None = Field(
        default=None, description="the rows of the audit's primary question (docs/verdicts.md): metric names, or "
        "mappings {metric, perturbation, question, group, attribute, task}; tested first, and the headline and the "
        "gate decide on them (default: the metrics the audit declares primary)")
    exclusion_attributes: list[str] = Field(default_factory=list, description="case fields (or columns) to audit the "
                                            "exclusions by, beside the recorded sex / gender, race, ethnicity and "
                                            "age band found by name (clinaudit.exclusion_skew)")

    @field_validator("primary")
    @classmethod
    def _primary_named(cls, v: list[str | PrimarySelector] | None) -> list[str | PrimarySelector] | None:
        if v is None:
            return v
        if not v:
            raise ValueError("an empty list: name at least one metric, or leave primary out for the audit's default")
        for i, item in enumerate(v):
            if isinstance(item, str) and not item.strip():
                raise ValueError(f"entry {i} is an empty metric name")
        return v

    def primary_selectors(self) -> list[PrimarySelector] | None:
        """``primary`` with every entry a :class:`PrimarySelector` (None: the audit's declared default)."""
        if self.primary is None:
            return None
        return [PrimarySelector(metric=x) if isinstance(x, str) else x for x in self.primary]

    def margin_for(self, audit: str, metric: str, declared: float | None) -> float | None:
        for key in (f"{audit}/{metric}", metric):
            if key in self.margins:
                return float(self.margins[key])
        return declared


class DeidSettings(BaseModel):
    """The spec's ``deid:`` section (docs/deidentification.md): whether every audit's case texts are de-identified
    (``names``, default true), and what de-identification does with a possible name it could not explain. By default it is replaced by ``[NAME]`` and reported in the de-identification table, and the
    dialog is audited; ``exclude_residual: true`` excludes such dialogs instead (listed with their reason)."""

    model_config = ConfigDict(extra="forbid")

    exclude_residual: bool = Field(default=False, description="exclude dialogs in which a possible name or another "
                                   "identifier remained after de-identification (replaced by default)")
    names: bool = Field(default=True, description="replace every name the detector and naming rules find in the "
                        "case texts of every audit before any stage (issue 50); false for a model the hospital runs "
                        "itself: only the names the data lists are replaced")


class RunnerSettings(BaseModel):
    """The spec's ``runner:``; every default is the runner's own (:class:`clinaudit.runner.RunnerConfig`)."""

    model_config = ConfigDict(extra="forbid")
    concurrency: int = Field(default=RunnerConfig.concurrency, ge=1)
    max_retries: int = Field(default=RunnerConfig.max_retries, ge=0)
    timeout_s: float = Field(default=RunnerConfig.timeout_s, gt=0)
    rate_limit_per_min: float | None = Field(default=RunnerConfig.rate_limit_per_min, gt=0)
    retry_after_max_s: float = Field(default=RunnerConfig.retry_after_max_s, ge=0)  # cap on a server's Retry-After
    fail_fast: bool = RunnerConfig.fail_fast
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
    # margins, significance level and validity thresholds of the verdicts (docs/verdicts.md)
    verdicts: VerdictSettings = Field(default_factory=VerdictSettings)
    # what de-identification does with a residual identifier (docs/deidentification.md)
    deid: DeidSettings = Field(default_factory=DeidSettings)


# The shared registry of audits (clinaudit.registry, kind "audit"): an audit's module (built-in or
# plugin) registers it with @clinaudit.pipeline.register.
_RECIPES: "Registry[AuditRecipe]" = registry("audit")


def get_recipe(name: str) -> AuditRecipe:
    try:
        return _RECIPES.get(name)
    except ModuleNotFoundError as exc:
        if exc.name == _RECIPES.module_of(name):
            raise SpecError(f"audit '{name}' is not available in this version of clinaudit") from exc
        raise
    except KeyError:
        raise SpecError(f"unknown audit '{name}'; known audits: {', '.join(_RECIPES.names())}"
                        f"{_RECIPES.did_you_mean(name)}") from None


def list_audits() -> dict[str, str]:
    """Every audit a spec can name (built-ins and plugins) with its one-line summary."""
    return {name: recipe.summary for name, recipe in _RECIPES.items()}


def _format_loc(loc: tuple[Any, ...]) -> str:
    s = ""
    for part in loc:
        s += f"[{part}]" if isinstance(part, int) else (("." if s else "") + str(part))
    return s


def _fields_at(model: Any, loc: tuple[Any, ...]) -> list[str]:
    """The field names of the pydantic model that ``loc`` leads into from ``model`` (none when it cannot tell)."""
    import typing

    for part in loc:
        fields = getattr(model, "model_fields", None)
        if fields is None or part not in fields:
            return []
        ann = fields[part].annotation
        models = [a for a in (ann, *typing.get_args(ann)) if isinstance(a, type) and issubclass(a, BaseModel)]
        if not models:
            return []
        model = models[0]
    return list(getattr(model, "model_fields", {}) or [])


def _validation_message(exc: ValidationError, source: str, prefix: str = "", model: Any = None) -> str:
    """``invalid audit spec FILE: field 'x.y': message`` (one line; one more line per further error). An unknown
    field of ``model`` gets the closest known name ("did you mean"), as unknown backend options do."""
    import difflib

    items = []
    for err in exc.errors():
        loc = _format_loc(tuple(err["loc"]))
        loc = f"{prefix}.{loc}" if prefix and loc else (prefix or loc)
        msg = str(err["msg"]).removeprefix("Value error, ")
        if err.get("type") == "extra_forbidden" and model is not None and err["loc"]:
            known = _fields_at(model, tuple(err["loc"])[:-1])
            close = difflib.get_close_matches(str(err["loc"][-1]), known, n=1, cutoff=0.6)
            msg = "unknown field" + (f"; did you mean '{close[0]}'?" if close else
                                     f"; known fields: {', '.join(known)}" if known else "")
        items.append(f"field '{loc}': {msg}")
    if len(items) == 1:
        return f"invalid audit spec {source}: {items[0]}"
    return "\n".join([f"invalid audit spec {source}: {len(items)} errors:"] + [f"  {i}" for i in items])


def with_runner_settings(spec: AuditSpec, **given: Any) -> AuditSpec:
    """``spec`` with runner settings given on the command line (``None`` values ignored), validated like the
    spec's own ``runner:`` (an error names the field, e.g. ``runner.shards``)."""
    given = {k: v for k, v in given.items() if v is not None}
    if not given:
        return spec
    try:
        settings = RunnerSettings.model_validate({**spec.runner.model_dump(), **given})
    except ValidationError as exc:
        raise SpecError(_validation_message(exc, "(command line)", prefix="runner", model=RunnerSettings)) from None
    return spec.model_copy(update={"runner": settings})


def parse_spec_dict(data: Any, source: str = "<spec>") -> tuple[AuditSpec, BaseModel]:
    """Validate a spec mapping and its recipe parameters."""
    if not isinstance(data, dict):
        raise SpecError(f"invalid audit spec {source}: the top level must be a mapping")
    try:
        spec = AuditSpec.model_validate(data)
    except ValidationError as exc:
        raise SpecError(_validation_message(exc, source, model=AuditSpec)) from None
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
        raise SpecError(_validation_message(exc, source, prefix="params", model=recipe.params_model)) from None
    _check_primary(spec, source)
    roles = getattr(recipe.declaration, "judges", None)
    for role in dict(getattr(params, "judges", None) or {}):
        if roles is not None and role not in roles:
            raise SpecError(f"invalid audit spec {source}: field 'params.judges.{role}': audit '{spec.audit}' has "
                            f"no judge role '{role}'; its roles: {', '.join(roles) or '(none)'}")
    return spec, params


def _check_primary(spec: AuditSpec, source: str) -> None:
    """Every metric of ``verdicts.primary`` is an effect the audit declares (when it declares any)."""
    from .metrics.declared import declared_metrics

    selectors = spec.verdicts.primary_selectors()
    declared = declared_metrics(spec.audit)
    if not selectors or not declared:
        return
    effects = [name for name, d in declared.items() if d.effect]
    for i, sel in enumerate(selectors):
        d = declared.get(sel.metric)
        if d is None or not d.effect:
            what = "a level, not an effect" if d is not None else f"not a metric of audit '{spec.audit}'"
            field = f"verdicts.primary[{i}]" + ("" if isinstance((spec.verdicts.primary or [])[i], str) else ".metric")
            raise SpecError(f"invalid audit spec {source}: field '{field}': '{sel.metric}' is {what}; its effects: "
                            f"{', '.join(effects)}")


def _similar_file(p: Path) -> str:
    """``"; did you mean 'spec.yaml'?"`` naming the YAML file of ``p``'s folder closest to its name (``""``: none)."""
    import difflib

    try:
        names = sorted(f.name for f in p.parent.iterdir() if f.suffix.lower() in (".yaml", ".yml") and f.is_file())
    except OSError:
        return ""
    close = difflib.get_close_matches(p.name, names, n=1, cutoff=0.6)
    return f"; did you mean '{p.parent / close[0]}'?" if close else ""


def load_spec(path: str | Path) -> tuple[AuditSpec, BaseModel]:
    p = Path(path)
    if not p.exists():
        raise SpecError(f"spec file not found: {p}{_similar_file(p)}")
    if not p.is_file():
        raise SpecError(f"invalid audit spec {p}: not a file")
    try:
        data = read_yaml_file(p)
    except InputError as exc:
        raise SpecError(f"invalid audit spec {p}: {exc.reason}") from None
    return parse_spec_dict(data, source=str(p))


#: names that lived in this module in 0.1 and moved (old name -> new module); importing one from here still
#: works, with one DeprecationWarning naming the new place
MOVED_SINCE_0_1 = {"run_spec": "clinaudit.pipeline", "call_status": "clinaudit.pipeline",
                   "AuditContext": "clinaudit.pipeline", "make_context": "clinaudit.pipeline"}


def __getattr__(name: str) -> Any:
    if name not in MOVED_SINCE_0_1:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    import warnings

    new = MOVED_SINCE_0_1[name]
    warnings.warn(f"clinaudit.spec.{name} moved to {new}.{name}; import it from there (the old place goes in 0.4)",
                  DeprecationWarning, stacklevel=2)
    # imported by name at the time of use: the pipeline imports this module, so a static import would be a circle
    return getattr(importlib.import_module(new), name)
