"""What ``clinaudit compare`` and ``clinaudit gate`` check before comparing two runs.

* :func:`check_finished`: a run whose manifest has no status, says ``running`` or ``failed …`` (or any
  status that does not start with ``complete``) is refused with :class:`~clinaudit.errors.NotComparableError`
  (the CLI exits 3): its tables are partial or empty, and a verdict on them would read as a clean bill of
  health.
* :func:`comparability`: what the runs share and where they differ beyond the model.
* :func:`model_pairs`: which model of run A is compared with which model of run B — the only model of
  each, the one chosen with ``model_a`` / ``model_b``, or, when a run holds several models, each model
  with its **namesake** in the other run (same model spec).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import InputError, NotComparableError
from .compare_metrics import read_run_table

__all__ = ["SPEC_MAY_DIFFER", "ModelChoiceError", "check_finished", "comparability", "model_pairs", "paired_table",
           "read_run_manifest"]

class ModelChoiceError(InputError):
    """A run with several models against a run with one model of another name: ``compare`` needs
    ``--model-a`` / ``--model-b`` (exit 2); ``gate``, which has no such choice, reports the runs as not
    comparable (exit 3)."""


#: spec fields two compared runs may differ in (the model under test and how it is reached)
SPEC_MAY_DIFFER = ("models", "backends", "name")


def read_run_manifest(run: Path) -> dict[str, Any]:
    """The run's manifest; :class:`InputError` naming the folder when it is not a run directory."""
    from .runs import read_manifest

    if run.is_file():
        raise InputError("not a run directory: a file, not a folder (give the folder a run wrote: its manifest.json, "
                         "tables/ ...)", file=str(run))
    if not run.is_dir():
        raise InputError("no such run directory", file=str(run))
    if not (run / "manifest.json").is_file():
        raise InputError("not a run directory (no manifest.json in it)", file=str(run))
    return read_manifest(run)


def check_finished(run: Path, manifest: dict[str, Any]) -> str:
    """The run's status when it is finished (``complete …``); else :class:`NotComparableError`."""
    status = str(manifest.get("status") or "").strip()
    runs = manifest.get("runs") or [{}]
    last = runs[-1] if isinstance(runs, list) and runs and isinstance(runs[-1], dict) else {}
    if not status or status == "running":
        raise NotComparableError("the run is unfinished (manifest status "
                                 f"'{status or 'none'}'); let it finish, or resume it with the same command, "
                                 "then compare", run=str(run))
    if not last.get("finished"):
        started = f" at {last['started']}" if last.get("started") else ""
        raise NotComparableError(f"the run is unfinished: its latest start{started} has not finished (it is still "
                                 f"running, or it was stopped); the manifest status '{status}' is that of an "
                                 "earlier start. Let it finish, or resume it with the same command, then compare",
                                 run=str(run))
    if status.startswith("failed"):
        raise NotComparableError(f"the run failed ({status}); fix the cause and re-run it before comparing",
                                 run=str(run))
    if not status.startswith("complete"):
        raise NotComparableError(f"the run did not measure what a comparison needs (manifest status '{status}')",
                                 run=str(run))
    return status


def paired_table(run: Path) -> pd.DataFrame:
    """``RUN/tables/paired.csv``; :class:`NotComparableError` when it is missing or has no usable pair."""
    paired = read_run_table(run, "paired")
    if "case_id" not in paired.columns or not len(paired):
        raise NotComparableError("the run has no usable pairs (tables/paired.csv is missing or empty), so there "
                                 "is nothing to compare", run=str(run))
    return paired


def _flatten(d: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(d, dict):
        out: dict[str, Any] = {}
        for k, v in d.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: d}


def _models(manifest: dict[str, Any]) -> list[str]:
    spec = manifest.get("spec") or {}
    target = (spec.get("models") or {}).get("target")
    if isinstance(target, str):
        return [target]
    if isinstance(target, list) and target:
        return [str(t) for t in target]
    return [str(m.get("spec")) for m in manifest.get("models") or [] if isinstance(m, dict)]


def _case_hashes(run: Path) -> dict[str, str]:
    cases = read_run_table(run, "cases")
    if "case_id" not in cases.columns:
        return {}
    text = cases["text"].astype(str) if "text" in cases.columns else pd.Series("", index=cases.index)
    return {str(c): hashlib.sha256(t.encode("utf-8")).hexdigest()[:16] for c, t in zip(cases["case_id"], text)}


def comparability(run_a: Path, run_b: Path, ma: dict[str, Any] | None = None,
                  mb: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the two runs share and where they differ: ``audit``, ``models_a``/``models_b``,
    ``differences`` (spec fields other than :data:`SPEC_MAY_DIFFER`, data fingerprints, cases), the
    cases only in A / only in B / with a different text. Raises :class:`NotComparableError` for two audits."""
    from .runs import audit_of

    ma = read_run_manifest(run_a) if ma is None else ma
    mb = read_run_manifest(run_b) if mb is None else mb
    audit_a, audit_b = audit_of(ma), audit_of(mb)
    for run, audit in ((run_a, audit_a), (run_b, audit_b)):
        if audit == "unknown":  # not another audit: a manifest that does not say which
            raise InputError("incomplete manifest: it names no audit (no 'audit' field, none in its 'spec', no "
                             "generate outputs); re-run the audit into that folder, or restore the manifest "
                             "clinaudit wrote", file=str(Path(run) / "manifest.json"))
    if audit_a != audit_b:
        raise NotComparableError(f"the runs are of different audits ({audit_a} vs {audit_b}); compare runs of one "
                                 "spec", run=f"{run_a}, {run_b}")
    fa = {k: v for k, v in _flatten(ma.get("spec") or {}).items() if k.split(".")[0] not in SPEC_MAY_DIFFER}
    fb = {k: v for k, v in _flatten(mb.get("spec") or {}).items() if k.split(".")[0] not in SPEC_MAY_DIFFER}
    diffs = [f"spec field '{k}': A = {json.dumps(fa.get(k), default=str)}, B = {json.dumps(fb.get(k), default=str)}"
             for k in sorted(set(fa) | set(fb)) if fa.get(k) != fb.get(k)]
    if json.dumps(ma.get("data"), sort_keys=True, default=str) != json.dumps(mb.get("data"), sort_keys=True, default=str):
        diffs.append("the data files' fingerprints differ (manifest 'data')")
    ha, hb = _case_hashes(run_a), _case_hashes(run_b)
    only_a, only_b = sorted(set(ha) - set(hb)), sorted(set(hb) - set(ha))
    changed = sorted(c for c in set(ha) & set(hb) if ha[c] != hb[c])
    if only_a or only_b:
        diffs.append(f"cases: {len(only_a)} only in A, {len(only_b)} only in B (compared on the {len(set(ha) & set(hb))} "
                     "cases both have)")
    if changed:
        diffs.append(f"{len(changed)} case(s) have the same id but a different text: " + ", ".join(changed[:10]))
    return {"audit": audit_a, "models_a": _models(ma), "models_b": _models(mb), "differences": diffs,
            "comparable": not diffs, "cases_only_a": only_a, "cases_only_b": only_b, "cases_changed": changed,
            "status_a": str(ma.get("status") or ""), "status_b": str(mb.get("status") or "")}


def _run_models(paired: pd.DataFrame) -> list[str]:
    if "model" not in paired.columns:
        return [""]
    return sorted(paired["model"].astype(str).unique())


def model_pairs(pa: pd.DataFrame, pb: pd.DataFrame, run_a: Path, run_b: Path, *, model_a: str | None = None,
                model_b: str | None = None) -> tuple[list[tuple[str, str]], list[str]]:
    """``[(model of A, model of B), …]`` to compare, and notes on models left uncompared.

    One model each (or the ones named): that pair. Several in a run: each model with its namesake in the
    other run; the models without one are named in the notes. No namesake at all:
    :class:`NotComparableError`. A run with several models against a run with one model of another name:
    :class:`InputError` asking to choose one (``--model-a`` / ``--model-b``)."""
    ms_a, ms_b = _run_models(pa), _run_models(pb)
    for m, ms, which, run in ((model_a, ms_a, "A", run_a), (model_b, ms_b, "B", run_b)):
        if m is not None and m not in ms:
            raise InputError(f"model '{m}' is not in run {which} (its models: {', '.join(ms)})", file=str(run))
    sel_a = [model_a] if model_a is not None else ms_a
    sel_b = [model_b] if model_b is not None else ms_b
    if len(sel_a) == 1 and len(sel_b) == 1:
        return [(sel_a[0], sel_b[0])], []
    common = [m for m in sel_a if m in sel_b]
    if len(sel_a) > 1 and len(sel_b) > 1:
        if not common:
            raise NotComparableError(f"both runs hold several models and none has a namesake in the other (A: "
                                     f"{', '.join(sel_a)}; B: {', '.join(sel_b)}); choose one model of each with "
                                     "--model-a and --model-b", run=f"{run_a}, {run_b}")
    elif not common:
        which, run, ms = ("A", run_a, sel_a) if len(sel_a) > 1 else ("B", run_b, sel_b)
        raise ModelChoiceError(f"run {which} holds several models ({', '.join(ms)}) and none is named like the "
                               f"other run's; choose one with --model-{which.lower()}", file=str(run))
    notes = [f"model '{m}' of run A has no namesake in run B (not compared)" for m in sel_a if m not in common]
    notes += [f"model '{m}' of run B has no namesake in run A (not compared)" for m in sel_b if m not in common]
    return [(m, m) for m in common], notes
