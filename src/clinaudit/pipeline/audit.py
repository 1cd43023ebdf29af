"""An audit is a declaration over the shared stages; the pipeline runs it.

Modelled on inspect_ai's ``Task(dataset, solver, scorer)``: an audit names its
parameters and judges and fills in the stages it uses; the framework runs the
stages in order, writes each stage's table to the run store as soon as it exists
(in the layout of :mod:`clinaudit.pipeline.stages`), executes the audit's
prompts through the call log (which owns the ``responses`` table), records each
stage's row count and time in the manifest, and computes the dry-run estimate by
running the same stages against the cache only::

    from clinaudit.pipeline import Audit, register

    @register
    class NameSwap(Audit[NameSwapParams]):
        name = "name_swap"
        summary = "Patient messages with the name swapped: does the urgency answer change?"
        params_model = NameSwapParams
        judges = {"urgency": "urgency"}          # role -> registered judge (a spec may override)

        def variants(self, cases):  ...          # -> list[Variant] or a DataFrame
        def calls(self, variants): ...           # -> list[ModelRequest]; the framework calls the models
        def judgments(self, calls): ...          # calls.pairs(): [(request, response)]; self.stages.cases
        def paired(self, judgments): ...         # -> DataFrame keyed by case_id
        def results(self, paired): ...           # -> result table (clinaudit.stats)

A stage returns the value the next stage receives (and any later stage reads as
``self.stages.<stage>``: :class:`StageTables`); the framework writes its table
(a DataFrame as is, records through :func:`clinaudit.records.to_frame`, or an object's
``table`` attribute). ``None`` means the audit has no such stage (no table written).
Where the written table differs from what later stages need, a stage returns
:class:`StageOutput` ``(table, value)``; a ``calls`` stage that produces more than its requests
returns :class:`CallPlan` ``(requests, value)`` (the next stage reads ``calls.value``). Data one stage
produces for a later one travels this way, never as an attribute set on ``self`` (``__init__`` may
keep read-only configuration derived from the context: model names, seed).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Union, cast

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, field_validator
from typing_extensions import TypeVar  # a type parameter with a default (PEP 696): Audit[MyParams] stays valid

from ..errors import SpecError
from ..records import ModelRequest, ModelResponse, to_frame
from ..registry import origin_of, registry
from .calls import CallLog
from .estimate import AuditRecipe, Estimate
from .stages import LAYOUTS, conform

if TYPE_CHECKING:  # pragma: no cover
    from .context import AuditContext

__all__ = ["Audit", "Calls", "CallPlan", "StageOutput", "Staged", "StageTables", "JudgeChoice", "register",
           "register_audit", "run_stages", "estimate_stages"]

log = logging.getLogger("clinaudit.pipeline")

#: judge roles every audit has (role -> default registered judge); an audit's own ``judges`` and the
#: spec's ``params.judges`` override them. ``relevance``: is an attribute clinically relevant to a case
#: (clinaudit.perturb.relevance, docs/judges.md)
CORE_JUDGES: dict[str, str] = {"relevance": "clinical_relevance"}

#: the stages a declaration fills in, in the order the pipeline runs them
DECLARED_STAGES = ("cases", "variants", "calls", "judgments", "paired", "results")


# The stage contract, typed (docs/architecture.md): the value each stage hands on. An audit declares them as
# Audit[Params, Cases, Variants, Plan, Judged, Paired, Results]; each defaults to Any (Audit[Params]).
C = TypeVar("C", default=Any)  # what ``cases()`` hands on
Vr = TypeVar("Vr", default=Any)  # what ``variants(cases)`` hands on
K = TypeVar("K", default=Any)  # what ``calls(variants)`` hands on besides its requests (``CallPlan.value``)
J = TypeVar("J", default=Any)  # what ``judgments(calls)`` hands on
Pr = TypeVar("Pr", default=Any)  # what ``paired(judged)`` hands on
R = TypeVar("R", default=Any)  # what ``results(paired)`` hands on (to ``finish()``)
V = TypeVar("V", default=Any)


@dataclass
class Calls(Generic[K]):
    """The ``calls`` stage's output: the audit's requests and the models' responses, in order."""

    requests: list[ModelRequest]
    responses: list[ModelResponse]
    #: what the audit's ``calls`` stage handed on besides its requests (:class:`CallPlan`); None without a plan
    value: K = field(default=cast(Any, None))

    def pairs(self) -> list[tuple[ModelRequest, ModelResponse]]:
        return list(zip(self.requests, self.responses))

    def ok(self) -> list[tuple[ModelRequest, ModelResponse]]:
        """Pairs whose call succeeded (failed calls are in the responses table with their error)."""
        return [(q, r) for q, r in self.pairs() if r.error is None]


@dataclass
class CallPlan(Generic[K]):
    """A ``calls`` stage result that hands on more than its requests (e.g. consultations run turn by turn in
    the stage): the framework sends ``requests`` and the next stage receives ``Calls(..., value=value)``."""

    requests: Sequence[ModelRequest]
    value: K = field(default=cast(Any, None))  # None when not given (0.2 code builds CallPlan(requests))


@dataclass
class StageOutput(Generic[V]):
    """A stage result whose table differs from the value handed to the next stage.

    ``table=None``: the stage writes no table (as if it returned None) but still hands ``value`` on.
    """

    table: pd.DataFrame | None
    value: V = field(default=cast(Any, None))  # None when not given (0.2 code builds StageOutput(table))


#: what a stage returns: the value it hands on (written as its table), or a StageOutput, or None (stage unused)
Staged = Union[V, StageOutput[V], None]


class StageTables(Generic[C, Vr, K, J, Pr, R]):
    """What the earlier stages of a run handed on, for any later stage: ``self.stages.cases`` in ``calls``.

    The framework sets each field as its stage finishes (the value the next stage receives, not
    the written table; None before its stage has run), so an audit need not keep its cases or
    variants on ``self``.
    """

    cases: C
    variants: Vr
    calls: Calls[K]
    judgments: J
    paired: Pr
    results: R

    def __init__(self) -> None:
        for stage in DECLARED_STAGES:
            setattr(self, stage, None)


class JudgeChoice(BaseModel):
    """Mix into an audit's parameters so a spec can name its judges: ``params.judges: {role: name}``."""

    judges: dict[str, str] = Field(default_factory=dict, description="judge role -> registered judge name "
                                   "(see `clinaudit judges`)")

    @field_validator("judges")
    @classmethod
    def _known_judges(cls, v: dict[str, str]) -> dict[str, str]:
        known = registry("judge")
        for role, name in v.items():
            if name not in known:
                raise ValueError(f"judges.{role}: unknown judge '{name}'; known judges: {', '.join(known.names())}")
        return v


class NoParams(BaseModel):
    """The parameters of an audit that takes none (a spec's ``params:`` must then be empty)."""

    model_config = ConfigDict(extra="forbid")


#: an audit's parameters model (the spec's ``params:``, validated)
P = TypeVar("P", bound=BaseModel)


class Audit(Generic[P, C, Vr, K, J, Pr, R]):
    """Subclass to declare an audit (see the module docstring), typed over its parameters and its stages.

    ``class MyAudit(Audit[MyParams])`` with ``params_model = MyParams``: ``self.params`` is then a
    ``MyParams`` for the type checker as it is at run time (the spec's ``params:`` validated
    against ``params_model``). ``Audit[MyParams, Cases, Variants, Plan, Judged, Paired, Results]``
    declares what each stage hands on, so the type checker holds every stage's input against the
    previous stage's output, and ``self.stages.<stage>`` has that type (the built-in audits do).
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    params_model: ClassVar[type[BaseModel]] = NoParams
    #: judge role -> default registered judge name (``params.judges`` overrides per role)
    judges: ClassVar[dict[str, str]] = {}

    def __init__(self, ctx: "AuditContext"):
        self.ctx = ctx
        self.params: P = cast(P, ctx.params)
        #: the earlier stages' outputs (filled by the framework as the stages run)
        self.stages: StageTables[C, Vr, K, J, Pr, R] = StageTables()

    # ---- the stages (override those the audit uses)
    def cases(self) -> Staged[C]:
        return cast(C, self.ctx.cases())  # the spec's data: list[Case]

    def variants(self, cases: C) -> Staged[Vr]:
        return None

    def calls(self, variants: Vr) -> Sequence[ModelRequest] | CallPlan[K] | None:
        return None

    def judgments(self, calls: Calls[K]) -> Staged[J]:
        return None

    def paired(self, judgments: J) -> Staged[Pr]:
        return None

    def results(self, paired: Pr) -> Staged[R]:
        return None

    def finish(self) -> dict[str, Any]:
        """After the stages: write the audit's further tables; return the run summary."""
        return {}

    def estimate_notes(self) -> list[str]:
        """Lines added to the dry-run estimate (e.g. what is an upper bound)."""
        return []

    # ---- services
    @property
    def dry(self) -> bool:
        """True while the pipeline is counting calls for the estimate (answers come from the cache only)."""
        return bool(getattr(self.ctx, "dry", False))

    def judge_name(self, role: str) -> str:
        chosen: dict[str, str] = dict(getattr(self.params, "judges", None) or {})
        if role in chosen:
            return chosen[role]
        roles = {**CORE_JUDGES, **self.judges}
        if role not in roles:
            raise SpecError(f"audit '{self.name}' has no judge role '{role}'; roles: {', '.join(roles)}")
        return roles[role]

    def judge(self, role: str, **kwargs: Any) -> Any:
        """The judge for ``role``: the registered judge the spec names (``params.judges``) or the default.

        When the spec names several judge models (``models.judge: [a, b, c]``) and the judge calls a
        model, a :class:`~clinaudit.judges.jury.Jury` of those models is returned instead (it runs
        through :func:`~clinaudit.judges.base.run_judge` like a judge; its jurors' verdicts and the jury
        tables are written by the pipeline).
        """
        judge = registry("judge").get(self.judge_name(role))(**kwargs)
        models = self.jury_models()
        from ..judges.jury import Jury, is_model_judge

        if len(models) < 2 or not is_model_judge(judge):
            return judge
        jury = Jury(judge, models, role=role)
        self.ctx.juries.append(jury)  # the run's, not the audit's: the pipeline writes their tables
        return jury

    def jury_models(self) -> list[str]:
        """The spec's judge models (``models.judge``); two or more make every model-based judge a jury."""
        models = getattr(getattr(self.ctx, "spec", None), "models", None) or {}
        val = models.get("judge")
        if val is None:
            return []
        return [val] if isinstance(val, str) else list(val)

    def jury_cases(self) -> dict[str, str] | None:
        """Item id → case id of the jury items (the cluster of the α bootstrap); default: read from the
        ``judgments`` table's ``case_id`` column where it has one, else each item its own case."""
        return None

    def jury_human_labels(self) -> pd.DataFrame | None:
        """Human labels to measure the jurors against (columns ``judge, item_id, field, label``), if any."""
        return None


def _table(stage: str, value: Any, audit: str) -> pd.DataFrame | None:
    if value is None:
        return None
    if isinstance(value, StageOutput):
        if value.table is None:
            return None
        table = value.table
    elif isinstance(value, pd.DataFrame):
        table = value
    elif isinstance(value, (list, tuple)) and (not value or hasattr(value[0], "to_row")):
        table = to_frame(list(value))
    elif hasattr(value, "table"):
        table = value.table
    else:
        raise TypeError(f"audit '{audit}': stage '{stage}' returned {type(value).__name__}, not a table")
    return conform(stage, table, audit)


def _passed_on(stage: str, value: Any) -> Any:
    """What the next stage receives: a StageOutput's value; for an audit without a ``calls`` stage, no calls."""
    if stage == "calls" and value is None:
        return Calls([], [], value=None)
    return value.value if isinstance(value, StageOutput) else value


def _juries(audit: Audit[Any]) -> list[Any]:
    return [j for j in audit.ctx.juries if j.members]


def _with_jurors(audit: Audit[Any], table: pd.DataFrame | None) -> pd.DataFrame | None:
    """The judgments table with every juror's verdict added (``jury = member``) next to the decisions.

    Rows of a jury's judge get ``jury = decision`` and ``judge_model = jury``; other rows ``jury`` empty.
    An audit that writes its jurors' rows itself (a ``jury`` column) is left as it is.
    """
    juries = _juries(audit)
    if not juries or table is None or "jury" in table.columns:
        return table
    from ..judges.jury import JURY, member_rows

    names = {j.name for j in juries}
    t = table.copy()
    is_dec = t["judge"].isin(names)
    t["jury"] = ["decision" if d else "" for d in is_dec]
    if "judge_model" not in t.columns:
        t["judge_model"] = ""
    t["judge_model"] = [JURY if d else m for d, m in zip(is_dec, t["judge_model"].astype(object).fillna(""))]
    members = member_rows(juries)
    if "case_id" in t.columns:  # the jurors' rows carry the decision rows' case (the item is the same)
        cases = t[is_dec].drop_duplicates("item_id").set_index("item_id")["case_id"]
        members["case_id"] = members["item_id"].map(cases)
    return pd.concat([t, members], ignore_index=True)


def _write_jury_tables(audit: Audit[Any], ctx: "AuditContext", summary: dict[str, Any]) -> None:
    juries = _juries(audit)
    if not juries:
        return
    from ..judges.jury import jury_tables

    cases = audit.jury_cases()
    if cases is None and ctx.rundir.has_table(LAYOUTS["judgments"].table):
        jt = ctx.rundir.read_table(LAYOUTS["judgments"].table) if hasattr(ctx.rundir, "read_table") else None
        if jt is not None and "case_id" in jt.columns:
            cases = {str(i): str(c) for i, c in zip(jt["item_id"], jt["case_id"]) if pd.notna(c)}
    n_res = int(getattr(audit.params, "n_resamples", None) or getattr(audit.params, "n_bootstrap", None) or 1000)
    tables = jury_tables(juries, cases=cases, human=audit.jury_human_labels(), n_resamples=n_res,
                         seed=int(getattr(ctx.spec, "seed", 0) or 0))
    for name, df in tables.items():
        ctx.write_table(name, df)
    summary["jury"] = {"judge_models": juries[0].models, "judges": sorted({j.name for j in juries}),
                       "decision": "majority of parsed verdicts (ties reported as ties)"}


def _write(ctx: "AuditContext", stage: str, table: pd.DataFrame) -> None:
    if not getattr(ctx, "dry", False):
        ctx.write_table(LAYOUTS[stage].table, table)


def _run_stage(audit: Audit[Any], stage: str, value: Any, send: Callable[[list[ModelRequest]], Any]) -> Any:
    """One stage's output from the previous stage's value; ``calls`` requests go through ``send``."""
    if stage == "cases":
        return audit.cases()
    if stage == "calls":
        planned = audit.calls(value)
        if planned is None:
            return None
        extra = planned.value if isinstance(planned, CallPlan) else None
        reqs = list(planned.requests if isinstance(planned, CallPlan) else planned)
        return Calls(reqs, list(send(reqs)) if reqs else [], value=extra)
    return getattr(audit, stage)(value)


def run_stages(audit_cls: type[Audit[Any]], ctx: "AuditContext") -> dict[str, Any]:
    """Run a declared audit: every stage in order, each table written as soon as it exists."""
    audit = audit_cls(ctx)
    value: Any = None
    record: dict[str, Any] = {}
    for stage in DECLARED_STAGES:
        t0 = time.monotonic()
        out = _run_stage(audit, stage, value,
                         lambda reqs: ctx.runner.generate(reqs, desc=f"{audit.name}: model calls"))
        rows = None
        if stage != "calls":
            table = _table(stage, out, audit.name)
            if stage == "judgments":
                table = _with_jurors(audit, table)
            if table is not None:
                _write(ctx, stage, table)
                rows = len(table)
        else:
            rows = None if out is None else len(out.requests)
        if out is not None and not (isinstance(out, StageOutput) and out.table is None):
            record[stage] = {"rows": rows, "seconds": round(time.monotonic() - t0, 3),
                             "table": f"tables/{LAYOUTS[stage].table}.csv"}
            log.info("%s: stage %s: %s rows in %.1f s", audit.name, stage, rows, time.monotonic() - t0)
        value = _passed_on(stage, out)
        setattr(audit.stages, stage, value)
    summary = audit.finish() or {}
    if not getattr(ctx, "dry", False):
        _write_jury_tables(audit, ctx, summary)
        # the same run-directory layout for every audit: a stage the audit does not use, and an empty
        # exclusions ledger, are written as tables with their key columns and no rows
        for stage in DECLARED_STAGES:
            if stage != "calls" and not ctx.rundir.has_table(LAYOUTS[stage].table):
                ctx.write_table(LAYOUTS[stage].table, conform(stage, pd.DataFrame(), audit.name))
        if not ctx.rundir.has_table("exclusions"):
            ctx.write_table("exclusions", ctx.exclusions_frame())
        ctx.rundir.manifest["stages"] = record
        ctx.rundir.save_manifest()
    return summary


def estimate_stages(audit_cls: type[Audit[Any]], ctx: "AuditContext") -> "Estimate":
    """The dry-run estimate of a declared audit: its stages run against the cache only.

    Every distinct request the stages would send is counted once per model (first
    attempts); cached answers are used, so later stages are exact where earlier outputs
    are cached. Where an earlier output is not cached, the audit sees a unique
    placeholder text (``finish_reason`` :data:`~clinaudit.pipeline.calls.NOT_CACHED`;
    ``Audit.dry`` is true), so its later calls are counted as if every earlier output
    were usable: an upper bound where the audit would drop some (``estimate_notes``
    says what).
    """
    inner = ctx.runner.inner if isinstance(ctx.runner, CallLog) else ctx.runner
    dry_log = CallLog(inner, dry=True)
    saved_runner, saved_dry = ctx.runner, getattr(ctx, "dry", False)
    ctx.runner, ctx.dry = dry_log, True
    try:
        audit = audit_cls(ctx)
        value: Any = None
        for stage in ("cases", "variants", "calls", "judgments"):
            value = _passed_on(stage, _run_stage(audit, stage, value, dry_log.generate))
            setattr(audit.stages, stage, value)
        notes = list(audit.estimate_notes())
    finally:
        ctx.runner, ctx.dry = saved_runner, saved_dry
    count = dry_log.count
    est = Estimate()
    for model, keys in count.keys.items():
        est.calls[model] = len(keys)
        est.cached[model] = len(count.hits.get(model, set()) & keys)
        est.prompt_tokens[model] = round(count.prompt_words.get(model, 0) * 4 / 3)
    est.samples = dict(count.samples)
    est.more_samples = {k: list(v) for k, v in count.more_samples.items()}
    est.shapes = {m: {k: [n, list(reqs)] for k, (n, reqs) in shapes.items()} for m, shapes in count.shapes.items()}
    if count.placeholders:
        notes.append(f"{count.placeholders} call(s) not cached yet: the calls that depend on their outputs are "
                     "counted as if every output were usable (an upper bound)")
    notes.append("counted by running the audit's stages against the cache; prompt tokens ≈ words × 4/3; "
                 "retries of unparseable judge outputs come on top")
    est.notes.extend(notes)
    return est


def register(cls: type[Audit[Any]]) -> type[Audit[Any]]:
    """Class decorator: register a declared audit under ``cls.name`` (kind ``audit``)."""
    if not cls.name:
        raise ValueError(f"{cls.__name__}: a declared audit needs a name")
    run: Callable[[Any], Any] = lambda ctx: run_stages(cls, ctx)  # noqa: E731
    estimate: Callable[[Any], Any] = lambda ctx: estimate_stages(cls, ctx)  # noqa: E731
    registry("audit").add(cls.name, AuditRecipe(cls.name, cls.summary, cls.params_model, run, estimate, declaration=cls),
                            origin=origin_of(cls))
    return cls


register_audit = register  # the name of the one pattern (clinaudit.extend: register_<kind>)
