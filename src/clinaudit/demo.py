"""``clinaudit demo``: every audit family on the built-in demo data, then one report.

Each audit recipe provides ``demo_spec()`` (in the module that registers the audit, e.g.
``clinaudit.families.<family>.audit``): a spec
over the project's own demo data with the embedded local models, sized to run in
about a minute on two CPU cores. :func:`run_demo` runs them one after the other into
``OUT/<audit>/`` (each with its own response cache, so a second demo makes no model
calls), keeps going when one fails, and renders ``OUT/report.html``.

``quick=True`` shrinks every spec further (fewer cases, one seed, fewer resamples):
the browser test uses it.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import inspect
import os
import re
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .executors.processes import usable_cpus
from .atomic import write_text

__all__ = ["demo_audits", "AuditOutcome", "DemoResult", "default_jobs", "demo_spec_for", "quick_variant", "run_demo",
           "run_guarded", "thread_share", "usable_cpus"]

def demo_audits() -> tuple[str, ...]:
    """The audits the demo runs, in report order: every built-in audit whose module defines a
    ``demo_spec()`` (read from its source, nothing imported; a new family's demo needs no list)."""
    from .family_index import audit_order
    from .registry import registry

    out = []
    for audit in audit_order():
        module = registry("audit").module_of(audit)
        spec = importlib.util.find_spec(module) if module else None
        if spec is not None and spec.origin and _DEMO_SPEC.search(Path(spec.origin).read_text(encoding="utf-8")):
            out.append(audit)
    return tuple(out)


_DEMO_SPEC = re.compile(r"^def demo_spec\(", re.MULTILINE)


def __getattr__(name: str) -> Any:
    if name == "DEMO_AUDITS":  # the name earlier code imports: the audits the demo runs
        return demo_audits()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_QUICK_CASES = 2  # data rows per source in the quick demo
_MAX_JOBS = 3  # demo worker processes at most (each loads its own models)
_HEARTBEAT_S = 30.0
#: modules the audits and the report import (never torch: forked workers must load it themselves)
_PRELOAD = ("scipy.stats", "statsmodels.stats.multitest", "sklearn.metrics", "clinaudit.pipeline", "clinaudit.stats")
_START_METHOD: str | None = None  # worker start method; None: fork unless torch is loaded here, else spawn
_QUICK_RESAMPLES = 100


@dataclass
class AuditOutcome:
    """What happened to one audit of the demo."""

    audit: str
    status: str  # "ok" | "failed" | "skipped" | "not_measured" (the run measured nothing; its message says why)
    seconds: float = 0.0
    run_dir: Path | None = None
    message: str = ""
    calls: int = 0
    cache_hits: int = 0
    failures: int = 0


@dataclass
class DemoResult:
    out: Path
    outcomes: list[AuditOutcome] = field(default_factory=list)
    report: Path | None = None
    report_error: str | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when no audit failed and the report was written."""
        return self.report is not None and not any(o.status in ("failed", "not_measured") for o in self.outcomes)


def demo_spec_for(audit: str, quick: bool = False) -> dict[str, Any] | None:
    """The recipe's ``demo_spec()`` (``None`` when it has none), shrunk when ``quick``.

    A recipe whose ``demo_spec`` accepts ``quick`` is asked for its own quick variant.
    """
    from .registry import registry

    name = registry("audit").module_of(audit)
    if name is None:
        return None
    try:
        mod = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise
    fn = getattr(mod, "demo_spec", None)
    if fn is None:
        return None
    takes_quick = "quick" in inspect.signature(fn).parameters
    spec = fn(quick=quick) if takes_quick else fn()
    spec = copy.deepcopy(spec)
    if quick and not takes_quick:
        spec = quick_variant(spec)
    return spec


def quick_variant(spec: dict[str, Any]) -> dict[str, Any]:
    """A smaller copy of a demo spec: at most two cases per data source, one seed, two
    perturbations, one judged item, two templates per category and 100 resamples —
    each applied only where the recipe has that parameter."""
    from .spec import get_recipe

    out = copy.deepcopy(spec)
    for src in out.get("data") or []:
        if isinstance(src, dict):
            src["limit"] = min(int(src.get("limit") or _QUICK_CASES), _QUICK_CASES)
    params = out.setdefault("params", {})
    try:
        fields = set(get_recipe(str(out.get("audit"))).params_model.model_fields)
    except Exception:  # noqa: BLE001 - unknown audit: leave the params alone, the run will say why
        fields = set(params)
    for key in ("n_bootstrap", "n_resamples", "n_permutations"):
        if key in fields:
            params[key] = min(int(params.get(key) or _QUICK_RESAMPLES), _QUICK_RESAMPLES)
    if isinstance(params.get("seeds"), list) and params["seeds"]:
        params["seeds"] = params["seeds"][:1]
    if isinstance(params.get("perturbations"), list) and len(params["perturbations"]) > 2:
        params["perturbations"] = params["perturbations"][:2]
    if "max_judged_items" in fields:
        params["max_judged_items"] = min(int(params.get("max_judged_items") or 1), 1)
    if "max_templates_per_category" in fields:
        params["max_templates_per_category"] = min(int(params.get("max_templates_per_category") or 2), 2)
    out["name"] = f"{out.get('name') or out.get('audit')}-quick"
    return out


def _say(stream: IO[str], msg: str) -> None:
    print(msg, file=stream, flush=True)


def _say_outcome(stream: IO[str], tag: str, outcome: AuditOutcome) -> None:
    if outcome.status == "ok":
        _say(stream, f"{tag}: done in {outcome.seconds:.1f} s — {outcome.calls} model calls, "
                     f"{outcome.cache_hits} from cache, {outcome.failures} failed")
    elif outcome.status == "skipped":
        _say(stream, f"{tag}: skipped — {outcome.message}")
    elif outcome.status == "not_measured":
        _say(stream, f"{tag}: NOT MEASURED after {outcome.seconds:.1f} s — {outcome.message}")
    else:
        where = f" (traceback: {outcome.run_dir / 'demo-error.txt'})" if outcome.run_dir else ""
        _say(stream, f"{tag}: FAILED after {outcome.seconds:.1f} s — {outcome.message}{where}")


def run_guarded(audit: str, out_dir: Path, quick: bool, progress: bool) -> AuditOutcome:
    """One demo audit; a failure becomes a ``failed`` outcome (traceback in ``out_dir/demo-error.txt``)."""
    t0 = time.monotonic()
    try:
        outcome = _run_one(audit, out_dir, quick, progress)
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # noqa: BLE001 - one failing audit must not stop the demo
        outcome = AuditOutcome(audit, "failed", message=f"{type(exc).__name__}: {exc}")
        if out_dir.is_dir():
            outcome.run_dir = out_dir
            (out_dir / "demo-error.txt").write_text(traceback.format_exc(), encoding="utf-8")
    outcome.seconds = time.monotonic() - t0
    return outcome


def _worker_init(threads: int, budget: Any = None) -> None:
    """A demo worker process: its share of the CPUs for torch (set before torch is imported, and after);
    ``budget`` (a shared integer) then moves that share while the worker runs."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bars from two processes
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(threads)
    if budget is not None:
        from .models.hf_runtime import set_thread_budget

        set_thread_budget(lambda: budget.value)


def _run_parallel(names: list[str], out: Path, quick: bool, jobs: int, cpus: int, stream: IO[str],
                  tags: dict[str, str]) -> list[AuditOutcome]:
    """The audits in ``jobs`` worker processes sharing ``cpus`` CPUs (:func:`thread_share`), the costliest
    first; outcomes in the order of ``names``.

    On Linux, workers are forked while this process has not loaded torch (no re-import, nothing
    torch-related to inherit), else spawned. No progress bars (they would overwrite each other): a line per
    finished audit, and every ``_HEARTBEAT_S`` seconds the ones still running.
    """
    import concurrent.futures as cf
    import multiprocessing as mp

    method = _START_METHOD or ("fork" if sys.platform.startswith("linux") and "torch" not in sys.modules
                               else "spawn")
    if method == "fork":
        _preload(names)
    order = sorted(names, key=lambda a: -_demo_cost(a))
    outcomes: dict[str, AuditOutcome] = {}
    started = time.monotonic()
    ctx = mp.get_context(method)
    threads = thread_share(cpus, jobs, len(names))
    budget = ctx.Value("i", threads)  # torch threads per worker; grows as audits finish and CPUs free up
    with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_init,
                                initargs=(threads, budget)) as pool:
        futures = {pool.submit(run_guarded, audit, out / audit, quick, False): audit for audit in order}
        pending = set(futures)
        try:
            while pending:
                finished, pending = cf.wait(pending, timeout=_HEARTBEAT_S, return_when=cf.FIRST_COMPLETED)
                for fut in finished:
                    audit = futures[fut]
                    try:
                        outcome = fut.result()
                    except Exception as exc:  # noqa: BLE001 - e.g. a worker killed by the OOM killer
                        outcome = AuditOutcome(audit, "failed", message=f"{type(exc).__name__}: {exc}",
                                               seconds=time.monotonic() - started)
                    outcomes[audit] = outcome
                    _say_outcome(stream, tags[audit], outcome)
                if finished and pending:
                    budget.value = thread_share(cpus, jobs, len(pending))
                if pending and not finished:
                    left = ", ".join(futures[f] for f in futures if f in pending)
                    _say(stream, f"... {time.monotonic() - started:.0f} s: still running or queued: {left}")
        except KeyboardInterrupt:
            # stop the workers now (each has stored every model call it completed) instead of waiting for
            # their audits to finish; the executor has no public way to do this
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return [outcomes[a] for a in names]


def _preload(names: list[str]) -> None:
    """Import what every audit (and the report after them) needs once, before the workers are forked:
    forked workers inherit the modules instead of each importing them again (scipy.stats alone ~1 s)."""
    from .registry import registry

    for mod in (*_PRELOAD, *(registry("audit").module_of(a) for a in names)):
        if mod:
            try:
                importlib.import_module(mod)
            except ImportError:  # the worker will say what is missing
                pass


def _run_one(audit: str, out_dir: Path, quick: bool, progress: bool) -> AuditOutcome:
    import yaml

    from .registry import registry
    from .spec import parse_spec_dict
    from .pipeline import run_spec

    spec_dict = demo_spec_for(audit, quick=quick)
    if spec_dict is None:
        return AuditOutcome(audit, "skipped", message=f"audit '{audit}' has no demo_spec() (yet)")
    module = registry("audit").module_of(audit)
    spec, params = parse_spec_dict(spec_dict, source=f"{module}.demo_spec()")
    out_dir.mkdir(parents=True, exist_ok=True)
    write_text(out_dir / "spec.yaml",
               "# The spec `clinaudit demo` ran here; re-run it with:\n"
               f"#   clinaudit run {out_dir / 'spec.yaml'} --out {out_dir}\n"
               + yaml.safe_dump(spec_dict, sort_keys=False, allow_unicode=True))
    rundir = run_spec(spec, out_dir, params=params, progress=progress, command=f"clinaudit demo ({audit})")
    usage = (rundir.manifest.get("runs") or [{}])[-1].get("usage_total", {}) or {}
    status = str(rundir.manifest.get("status", ""))
    measured = not status.startswith("not measured")  # a demo audit must measure something (docs/verdicts.md)
    return AuditOutcome(audit, "ok" if measured else "not_measured", run_dir=out_dir,
                        message="" if measured else status, calls=int(usage.get("calls", 0)),
                        cache_hits=int(usage.get("cache_hits", 0)), failures=int(usage.get("failures", 0)))


def thread_share(cpus: int, jobs: int, audits_left: int) -> int:
    """Torch threads per worker while ``audits_left`` audits are still to finish on ``jobs`` workers."""
    return max(1, cpus // max(1, min(jobs, audits_left)))


def _demo_cost(audit: str) -> int:
    """The relative cost of an audit's demo on the embedded model (its module's ``DEMO_COST``, measured; 1 if
    it gives none), so the longest start first."""
    from .registry import registry

    module = registry("audit").module_of(audit)
    return int(getattr(importlib.import_module(module), "DEMO_COST", 1)) if module else 1


def default_jobs(n_audits: int | None = None) -> tuple[int, int]:
    """``(worker processes, torch threads each)`` for this machine's usable CPUs.

    The embedded model is small: one forward pass barely profits from a second thread (measured
    on 2 cores: decoding a batch of 4 took 152 ms per step on one thread and no less on two),
    so two audits on one thread each get more done than one audit on two. At most three workers
    (each holds its own copy of the models); the CPUs are split between them.
    """
    cpus = usable_cpus()
    n_audits = len(demo_audits()) if n_audits is None else n_audits
    jobs = max(1, min(_MAX_JOBS, cpus, n_audits))
    return jobs, thread_share(cpus, jobs, n_audits)


def run_demo(
    out: str | Path = "runs/demo",
    audits: list[str] | tuple[str, ...] | None = None,
    *,
    quick: bool = False,
    progress: bool = True,
    report: bool = True,
    stream: IO[str] | None = None,
    jobs: int | None = None,
) -> DemoResult:
    """Run the demo audits into ``out/<audit>/`` and render ``out/report.html``.

    A failing audit is reported (its traceback saved to ``out/<audit>/demo-error.txt``)
    and the next one runs; the report shows every audit that produced a run directory.
    ``jobs`` worker processes run audits side by side (default: :func:`default_jobs`);
    ``jobs=1`` runs them one after the other in this process.
    """
    from .errors import ClinauditError

    stream = stream if stream is not None else sys.stderr
    out = Path(out)
    known = demo_audits()
    names = list(audits) if audits else list(known)
    unknown = [a for a in names if a not in known]
    if unknown:
        raise ClinauditError(f"unknown demo audit(s) {', '.join(unknown)}; choose from {', '.join(known)}")
    if jobs is not None and int(jobs) < 1:
        raise ClinauditError(f"jobs must be at least 1, got {jobs}")
    n_jobs = min(int(jobs), len(names)) if jobs is not None else default_jobs(len(names))[0]
    result = DemoResult(out=out)
    t_all = time.monotonic()
    where = f" in {n_jobs} worker processes" if n_jobs > 1 else ""
    _say(stream, f"clinaudit demo{' (quick)' if quick else ''}: {len(names)} audit(s) into {out}/{where} "
                 "(embedded local models; stored calls are reused on a re-run)")
    tags = {audit: f"[{i}/{len(names)}] {audit}" for i, audit in enumerate(names, 1)}
    if n_jobs == 1:
        for audit in names:
            _say(stream, f"{tags[audit]}: running ...")
            outcome = run_guarded(audit, out / audit, quick, progress)
            result.outcomes.append(outcome)
            _say_outcome(stream, tags[audit], outcome)
    else:
        result.outcomes = _run_parallel(names, out, quick, n_jobs, usable_cpus(), stream, tags)
    if report:
        from .report.render import build_report

        run_dirs = [o.run_dir for o in result.outcomes if o.run_dir is not None
                    and (o.run_dir / "manifest.json").is_file()]
        notes = [f"The demo could not run {o.audit}: {o.message}" for o in result.outcomes if o.status == "failed"]
        notes += [f"The demo skipped {o.audit}: {o.message}" for o in result.outcomes if o.status == "skipped"]
        notes += [f"The demo's {o.audit} audit measured nothing: {o.message}" for o in result.outcomes
                  if o.status == "not_measured"]
        if run_dirs:
            try:
                files = build_report(run_dirs, out / "report.html",
                                     title="clinaudit demo report" + (" (quick)" if quick else ""), notes=notes)
                result.report = files.html
            except Exception as exc:  # noqa: BLE001
                result.report_error = f"{type(exc).__name__}: {exc}"
                _say(stream, f"report: FAILED — {result.report_error}")
        else:
            result.report_error = "no audit produced a run directory"
            _say(stream, "report: not written (no audit produced a run directory)")
    result.seconds = time.monotonic() - t_all
    n_failed = sum(o.status in ("failed", "not_measured") for o in result.outcomes)
    _say(stream, f"clinaudit demo: {len(names) - n_failed} of {len(names)} audit(s) ok in {result.seconds:.1f} s"
                 + (f"; {n_failed} failed" if n_failed else ""))
    return result
