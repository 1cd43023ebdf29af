"""The one import surface for extending clinaudit: ``from clinaudit.extend import ...``.

A plugin (or a new built-in family) needs nothing else. Every registration function is named
``register_<kind>`` (docs/extending.md):

==========================  ==================================================================
``register_audit``          class decorator on an :class:`Audit` subclass (``name``, stages)
``register_backend``        decorator on a :class:`Backend` subclass (``prefix``, ``options_model=``)
``register_command``        decorator on ``register(subparsers)`` (``order=`` in ``clinaudit --help``)
``register_judge``          decorator on a :class:`Judge` subclass
``register_loader``         decorator on ``f(source, base_dir) -> list[Case]``
``register_metric``         decorator on ``f(ref, alt) -> one score per pair``
``register_metric_decls``   ``register_metric_decls(audit, MetricDecl(...), ...)``: an audit's verdict rules
``register_section``        decorator on ``build(rundir) -> Section`` for one audit
``register_transform``      decorator on ``f(case, rng, **params) -> list[Variant]``
==========================  ==================================================================

The older names stay importable from their modules (``clinaudit.pipeline.register``,
``clinaudit.metrics.declared.declare_metrics``) and are the same functions.

Besides the decorators it hands on the stage types (:class:`Audit`, :class:`JudgeChoice`,
:class:`StageOutput`, :class:`CallPlan`, :class:`Calls`, :class:`StageTables`,
:class:`AuditContext`), the records (:class:`Case`, :class:`Variant`, :class:`ModelRequest`,
:class:`ModelResponse`), the judge base (:class:`Judge`, :class:`Unparseable`, :func:`run_judge`),
the paired-statistics layer (:class:`PairedFrame`), the report blocks, and the helpers a plugin's
tests use (:func:`make_spec`, :func:`run_audit`, :func:`open_run`, :func:`loaded_plugins`).
"""

from __future__ import annotations

from .api import make_spec, open_run, run_audit
from .errors import BackendError, InputError, SpecError
from .judges.base import Judge, Unparseable, run_judge
from .loaders.base import DataSource, register_loader
from .metrics.declared import MetricDecl, register_metric_decls
from .models.base import Backend, RetryableError, register_backend
from .perturb.registry import case_rng, register_transform
from .pipeline import (
    Audit,
    AuditContext,
    CallPlan,
    Calls,
    JudgeChoice,
    StageOutput,
    StageTables,
    pair_with_baseline,
    register_audit,
)
from .records import Case, ModelRequest, ModelResponse, Variant, to_frame
from .registry import RegistryError, loaded_plugins, register_command, register_judge, register_metric, registry
from .report.base import Compare, Figure, Metric, Section, Table, Text, register_section
from .stats import PairedFrame

__all__ = [
    # registration, one pattern: register_<kind>
    "register_audit",
    "register_backend",
    "register_command",
    "register_judge",
    "register_loader",
    "register_metric",
    "register_metric_decls",
    "register_section",
    "register_transform",
    "registry",
    "RegistryError",
    # stages
    "Audit",
    "AuditContext",
    "CallPlan",
    "Calls",
    "JudgeChoice",
    "StageOutput",
    "StageTables",
    "pair_with_baseline",
    # records
    "Case",
    "DataSource",
    "ModelRequest",
    "ModelResponse",
    "Variant",
    "to_frame",
    "case_rng",
    # judges, backends, metrics
    "Judge",
    "Unparseable",
    "run_judge",
    "Backend",
    "RetryableError",
    "MetricDecl",
    "PairedFrame",
    # report blocks
    "Section",
    "Table",
    "Text",
    "Metric",
    "Figure",
    "Compare",
    # errors
    "BackendError",
    "InputError",
    "SpecError",
    # for a plugin's tests
    "make_spec",
    "run_audit",
    "open_run",
    "loaded_plugins",
]
