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
import inspect
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

__all__ = ["DEMO_AUDITS", "AuditOutcome", "DemoResult", "demo_spec_for", "quick_variant", "run_demo"]

#: The audit families the demo runs, in report order.
DEMO_AUDITS: tuple[str, ...] = ("treatment_shift", "note_generation", "reasoning_care", "association",
                                "classifier_gaps")

_QUICK_CASES = 2  # data rows per source in the quick demo
_QUICK_RESAMPLES = 100


@dataclass
class AuditOutcome:
    """What happened to one audit of the demo."""

    audit: str
    status: str  # "ok" | "failed" | "skipped"
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
        return self.report is not None and not any(o.status == "failed" for o in self.outcomes)


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


def _run_one(audit: str, out_dir: Path, quick: bool, progress: bool) -> AuditOutcome:
    import yaml

    from .registry import registry
    from .spec import parse_spec_dict, run_spec

    spec_dict = demo_spec_for(audit, quick=quick)
    if spec_dict is None:
        return AuditOutcome(audit, "skipped", message=f"audit '{audit}' has no demo_spec() (yet)")
    module = registry("audit").module_of(audit)
    spec, params = parse_spec_dict(spec_dict, source=f"{module}.demo_spec()")
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "spec.yaml").write_text(
        "# The spec `clinaudit demo` ran here; re-run it with:\n"
        f"#   clinaudit run {out_dir / 'spec.yaml'} --out {out_dir}\n"
        + yaml.safe_dump(spec_dict, sort_keys=False, allow_unicode=True), encoding="utf-8")
    rundir = run_spec(spec, out_dir, params=params, progress=progress, command=f"clinaudit demo ({audit})")
    usage = (rundir.manifest.get("runs") or [{}])[-1].get("usage_total", {}) or {}
    return AuditOutcome(audit, "ok", run_dir=out_dir, calls=int(usage.get("calls", 0)),
                        cache_hits=int(usage.get("cache_hits", 0)), failures=int(usage.get("failures", 0)))


def run_demo(
    out: str | Path = "runs/demo",
    audits: list[str] | tuple[str, ...] | None = None,
    *,
    quick: bool = False,
    progress: bool = True,
    report: bool = True,
    stream: IO[str] | None = None,
) -> DemoResult:
    """Run the demo audits into ``out/<audit>/`` and render ``out/report.html``.

    A failing audit is reported (its traceback saved to ``out/<audit>/demo-error.txt``)
    and the next one runs; the report shows every audit that produced a run directory.
    """
    from .errors import ClinauditError

    stream = stream if stream is not None else sys.stderr
    out = Path(out)
    names = list(audits) if audits else list(DEMO_AUDITS)
    unknown = [a for a in names if a not in DEMO_AUDITS]
    if unknown:
        raise ClinauditError(f"unknown demo audit(s) {', '.join(unknown)}; choose from {', '.join(DEMO_AUDITS)}")
    result = DemoResult(out=out)
    t_all = time.monotonic()
    _say(stream, f"clinaudit demo{' (quick)' if quick else ''}: {len(names)} audit(s) into {out}/ "
                 "(embedded local models; stored calls are reused on a re-run)")
    for i, audit in enumerate(names, 1):
        tag = f"[{i}/{len(names)}] {audit}"
        _say(stream, f"{tag}: running ...")
        t0 = time.monotonic()
        try:
            outcome = _run_one(audit, out / audit, quick, progress)
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # noqa: BLE001 - one failing audit must not stop the demo
            outcome = AuditOutcome(audit, "failed", message=f"{type(exc).__name__}: {exc}")
            run_dir = out / audit
            if run_dir.is_dir():
                outcome.run_dir = run_dir
                (run_dir / "demo-error.txt").write_text(traceback.format_exc(), encoding="utf-8")
        outcome.seconds = time.monotonic() - t0
        result.outcomes.append(outcome)
        if outcome.status == "ok":
            _say(stream, f"{tag}: done in {outcome.seconds:.1f} s — {outcome.calls} model calls, "
                         f"{outcome.cache_hits} from cache, {outcome.failures} failed")
        elif outcome.status == "skipped":
            _say(stream, f"{tag}: skipped — {outcome.message}")
        else:
            where = f" (traceback: {outcome.run_dir / 'demo-error.txt'})" if outcome.run_dir else ""
            _say(stream, f"{tag}: FAILED after {outcome.seconds:.1f} s — {outcome.message}{where}")
    if report:
        from .report.render import build_report

        run_dirs = [o.run_dir for o in result.outcomes if o.run_dir is not None
                    and (o.run_dir / "manifest.json").is_file()]
        notes = [f"The demo could not run {o.audit}: {o.message}" for o in result.outcomes if o.status == "failed"]
        notes += [f"The demo skipped {o.audit}: {o.message}" for o in result.outcomes if o.status == "skipped"]
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
    n_failed = sum(o.status == "failed" for o in result.outcomes)
    _say(stream, f"clinaudit demo: {len(names) - n_failed} of {len(names)} audit(s) ok in {result.seconds:.1f} s"
                 + (f"; {n_failed} failed" if n_failed else ""))
    return result
