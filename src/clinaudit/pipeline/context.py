"""The run context: what every stage of a run reaches (spec, parameters, run directory, call log, ledger).

:func:`make_context` builds it for a spec and a run directory; :mod:`clinaudit.pipeline.driver`
runs an audit with it. The spec's schema stays in :mod:`clinaudit.spec`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

import pandas as pd
from pydantic import BaseModel

from ..errors import SpecError
from ..exclusions import Exclusions
from ..judges.jury import Jury
from ..loaders.base import load_sources, resolve_path
from ..records import Case, to_frame
from ..rundir import RunDir
from ..runner import Runner, RunnerConfig
from ..spec import AuditSpec
from .calls import CallLog

__all__ = ["AuditContext", "make_context", "EXCLUSIONS_TABLE"]


EXCLUSIONS_TABLE = "exclusions"


@dataclass
class AuditContext:
    spec: AuditSpec
    params: BaseModel
    rundir: RunDir
    #: the framework's proxy of the runner: records every call (and counts them for the dry-run estimate)
    runner: CallLog
    base_dir: Path | None = None
    progress: bool = True
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("clinaudit.audit"))
    _cases: list[Case] | None = None
    #: the run's exclusions ledger (tables/exclusions.csv): rows from exclude() and the audit's own table
    exclusions: Exclusions = field(default_factory=Exclusions)
    _excluded_table: pd.DataFrame | None = None
    _attributes: pd.DataFrame | None = None
    #: True while the pipeline counts calls for the dry-run estimate (nothing is written)
    dry: bool = False
    #: ``clinaudit run --limit N``: only the first N cases of the spec's data (recorded in the manifest's run)
    case_limit: int | None = None
    #: the estimate of a large input (``clinaudit run`` before it starts, ``--dry-run``): when the data holds more
    #: cases than this, the stages count a seeded random sample of this many and the estimate is scaled
    #: (:meth:`scale_count`, ``Estimate.scale``); ``None``: every case
    sample_cases: int | None = None
    #: the number of cases the data holds when ``sample_cases`` sampled them (else None)
    total_cases: int | None = None
    #: the judge juries the run's stages asked for (``Audit.judge`` with several judge models); the
    #: pipeline adds their jurors' rows to the judgments table and writes the jury tables
    juries: list[Jury] = field(default_factory=list)
    #: the cases as loaded: how many, how many lower-case, how they were de-identified (clinaudit.deid_reach);
    #: None while no case was read from the spec's data
    deid_reach: dict[str, Any] | None = None
    #: the cases de-identification changed as they were loaded ({case id: [NAME]s added}) and the contexts whose
    #: arms it changed differently (clinaudit.deid_groups); None while the framework de-identified no case
    deid_changed: dict[str, int] | None = None
    deid_arms: dict[str, Any] | None = None

    def cases(self) -> list[Case]:
        """All cases of all data sources (loaded once)."""
        if self._cases is None:
            cases = load_sources(list(self.spec.data), self.base_dir)[:self.case_limit]
            if self.sample_cases is not None and len(cases) > self.sample_cases:
                import random

                self.total_cases = len(cases)
                keep = sorted(random.Random(self.spec.seed).sample(range(len(cases)), self.sample_cases))
                cases = [cases[i] for i in keep]
            self.deid_reach = self._reach_counts(cases)  # the style of the texts as loaded (clinaudit.deid_reach)
            if not self._deidentifies_cases():  # the names the data lists never reach a prompt or a file
                from .identifiers import remove_listed_names

                given, cases = cases, remove_listed_names(cases, detect=self.spec.deid.names)
                from ..deid_groups import arm_differences, changed_cases

                self.deid_changed = changed_cases(given, cases)  # what it changed, by group (clinaudit.deid_groups)
                self.deid_arms = arm_differences(given, self.deid_changed)
            self._cases = cases
            self._attributes = None
        return self._cases

    def scale_count(self, n: int) -> int:
        """A count over the sampled cases scaled to every case of the data (``n`` itself when nothing was sampled)."""
        if self.total_cases is None or not self._cases:
            return n
        return round(n * self.total_cases / len(self._cases))

    def _reach_counts(self, cases: list[Case]) -> dict[str, Any]:
        """How the run de-identifies its cases and how many are lower-case (:func:`clinaudit.deid_reach.reach_counts`):
        an audit that de-identifies its cases itself does it with every name found unless its
        ``params.deidentify`` is false; the framework with every name found unless ``deid.names`` is false (then
        only the names a case lists)."""
        from ..deid_reach import reach_counts
        from ..perturb.deid import known_names

        if self._deidentifies_cases():
            mode = "names" if getattr(self.params, "deidentify", True) else "none"
        else:
            mode = "names" if self.spec.deid.names else "listed"
        listed = sum(1 for c in cases if known_names(c)) if mode == "listed" else 0
        return reach_counts((c.text for c in cases), mode, listed)

    def _deidentifies_cases(self) -> bool:
        """Whether the audit de-identifies its cases itself (its class sets ``deidentifies_cases``)."""
        from ..spec import get_recipe

        try:
            recipe = get_recipe(self.spec.audit)
        except Exception:  # noqa: BLE001 - an unknown audit (a test's stand-in): the framework removes the names
            return False
        return bool(getattr(recipe.declaration, "deidentifies_cases", False))

    def case_attributes(self) -> pd.DataFrame | None:
        """The demographic attributes of every case loaded from the spec's data (recorded sex / gender, race,
        age band, the spec's declared columns; :func:`clinaudit.exclusion_skew.case_attributes`), or None when
        the audit read no cases from the spec's data (its cases table is used)."""
        if self._cases is None:
            return None
        if self._attributes is None:
            from ..exclusion_skew import case_attributes, declared_attributes

            self._attributes = case_attributes(self._cases, declared_attributes(self.spec))
        return self._attributes

    @overload
    def resolve_path(self, path: str | Path) -> Path: ...
    @overload
    def resolve_path(self, path: None) -> None: ...
    def resolve_path(self, path: str | Path | None) -> Path | None:
        """A path from the spec's params, relative paths taken from the spec file's folder."""
        return resolve_path(path, self.base_dir)

    def model(self, role: str, default: str | None = None) -> str:
        """The one model the spec names for ``role`` (``models.<role>: name``); a list is refused.

        A role that takes several models (``target``, ``judge``: a jury) is read with :meth:`models`.
        """
        val = self.spec.models.get(role, default)
        if val is None:
            raise SpecError(f"spec field 'models.{role}' is required for audit '{self.spec.audit}'")
        if isinstance(val, (list, tuple)):
            raise SpecError(f"invalid audit spec: field 'models.{role}': audit '{self.spec.audit}' uses one {role} "
                            f"model, got a list of {len(val)} ({', '.join(map(str, val)) or 'none'}); name one model")
        return val

    def models(self, role: str, default: list[str] | None = None) -> list[str]:
        """Every model the spec names for ``role`` (a single name is a list of one)."""
        val = self.spec.models.get(role, default)
        if val is None:
            raise SpecError(f"spec field 'models.{role}' is required for audit '{self.spec.audit}'")
        return [val] if isinstance(val, str) else list(val)

    def write_table(self, name: str, df: pd.DataFrame | list[Any]) -> Path:
        if isinstance(df, list):
            df = to_frame(df)
        if self.dry:  # counting calls for the estimate: the run store is not touched
            return self.rundir.table_path(name)
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
        # every row carries the demographic attributes of its case (audited by group: exclusion_skew)
        from ..exclusion_skew import ledger_with_attributes

        return ledger_with_attributes(ledger.frame(), self.case_attributes())

    def _write_exclusions(self) -> Path:
        if self.dry:
            return self.rundir.table_path(EXCLUSIONS_TABLE)
        return self.rundir.write_table(EXCLUSIONS_TABLE, self.exclusions_frame())




def _used_models(spec: AuditSpec) -> list[str]:
    return [m for v in spec.models.values() for m in ([v] if isinstance(v, str) else v)]


def make_context(
    spec: AuditSpec, params: BaseModel, out_dir: str | Path, *, base_dir: Path | None = None, progress: bool = True,
    runner: Runner | CallLog | None = None, case_limit: int | None = None,
) -> AuditContext:
    from ..cache import default_cache_path
    from ..models.options import with_state_dir

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
    # the framework records every call (the responses table)
    log = runner if isinstance(runner, CallLog) else CallLog(runner, path=rundir.table_path("responses"))
    return AuditContext(spec=spec, params=params, rundir=rundir, runner=log, base_dir=base_dir, progress=progress,
                        case_limit=case_limit)
