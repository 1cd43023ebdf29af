"""One run directory -> what the report shows of it: manifest, audit, overview, section views.

A section that cannot be built never breaks the report: the run then shows the
error (escaped) and its raw tables instead.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import traceback
from pathlib import Path
from typing import Any

import pandas as pd

from .base import Section, get_section_builder
from .formatting import DASH, format_summary_value, format_value
from .views import PageIds, RunInfo, block_view, error_view, raw_tables_view

__all__ = ["read_manifest", "audit_of", "run_overview", "load_run", "toc_entries"]


def read_manifest(path: Path) -> dict[str, Any]:
    """The run's manifest; a missing one is ``{}``, an unreadable or broken one an InputError naming it."""
    from ..errors import InputError

    file = path / "manifest.json"
    if not file.exists():
        return {}
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"broken manifest: not UTF-8 text ({exc.reason} at byte {exc.start})", file=str(file)) from None
    except ValueError as exc:
        raise InputError(f"broken manifest: not valid JSON ({exc}); the run may have been cut off while writing "
                         "it: re-run its command to rebuild it", file=str(file)) from None
    except OSError as exc:
        raise InputError(f"cannot read the manifest: {exc.strerror or exc}", file=str(file)) from None
    if not isinstance(data, dict):
        raise InputError(f"broken manifest: expected a JSON object, got {type(data).__name__}", file=str(file))
    return data


def audit_of(manifest: dict[str, Any]) -> str:
    """The audit a manifest describes: its ``audit`` field, the spec's, ``generate`` for
    ``clinaudit generate`` runs, else ``"unknown"``."""
    spec = _dict(manifest.get("spec"))
    if manifest.get("audit"):
        return str(manifest["audit"])
    if spec.get("audit"):
        return str(spec["audit"])
    if spec.get("command") == "generate" or (manifest.get("outputs") or {}).get("responses"):
        return "generate"
    return "unknown"


def _dict(value: Any) -> dict[str, Any]:
    """``value`` if it is a dict (a manifest field as written), else an empty dict."""
    return value if isinstance(value, dict) else {}


def _count_rows(path: Path) -> int | None:
    try:
        return len(pd.read_csv(path, usecols=[0]))
    except (OSError, ValueError, IndexError, pd.errors.ParserError, pd.errors.EmptyDataError):
        return None


def run_overview(info: RunInfo) -> dict[str, Any]:
    m = info.manifest
    spec = _dict(m.get("spec"))
    runs = m.get("runs") or [{}]
    last = runs[-1] if isinstance(runs[-1], dict) else {}
    usage = last.get("usage_total") or {}
    per_model = last.get("usage") or {}
    status = str(m.get("status") or ("complete" if last.get("finished") else "unfinished (interrupted or running)"))
    if info.audit == "generate" and "finished" in last and not m.get("status"):
        status = "complete"
    summary = _dict(m.get("summary"))
    n_cases: Any = summary.get("cases")
    if not isinstance(n_cases, (int, float)):
        n_cases = None
        if (info.path / "tables" / "cases.csv").is_file():
            n_cases = _count_rows(info.path / "tables" / "cases.csv")
        elif info.audit == "generate" and (info.path / "tables" / "responses.csv").is_file():
            try:
                n_cases = int(pd.read_csv(info.path / "tables" / "responses.csv", usecols=[0]).iloc[:, 0].nunique())
            except (OSError, ValueError, pd.errors.EmptyDataError):
                n_cases = None
    models = [str(x.get("spec") or x.get("name") or x.get("model") or x) if isinstance(x, dict) else str(x)
              for x in (m.get("models") or [])]
    roles = _dict(spec.get("models"))
    role_text = [f"{r}: {', '.join(v) if isinstance(v, list) else v}" for r, v in roles.items()]
    data = []
    for d in m.get("data") or []:
        if isinstance(d, dict):
            data.append({"name": Path(str(d.get("path", "?"))).name, "path": str(d.get("path", "")),
                         "sha": str(d.get("sha256", ""))[:16], "bytes": d.get("bytes")})
    sources = []
    for s in spec.get("data") or []:
        if isinstance(s, dict):
            sources.append(", ".join(f"{k}={v}" for k, v in s.items() if v not in (None, {}, [], "") and k in (
                "format", "path", "limit", "split", "name")))
    cases_sha = None
    cpath = info.path / "tables" / "cases.csv"
    if cpath.is_file():
        cases_sha = hashlib.sha256(cpath.read_bytes()).hexdigest()[:16]
    started, finished = last.get("started"), last.get("finished")
    duration = None
    try:
        if started and finished:
            duration = (_dt.datetime.fromisoformat(finished) - _dt.datetime.fromisoformat(started)).total_seconds()
    except ValueError:
        duration = None
    tokens = int(usage.get("prompt_tokens", 0) or 0) + int(usage.get("completion_tokens", 0) or 0)
    all_usage = [r.get("usage_total") or {} for r in runs if isinstance(r, dict)]
    all_calls = sum(int(u.get("calls", 0) or 0) for u in all_usage)
    all_tokens = sum(int(u.get("prompt_tokens", 0) or 0) + int(u.get("completion_tokens", 0) or 0) for u in all_usage)
    sec_summary = _dict(info.section.summary) if info.section is not None else {}
    return {
        "audit": info.audit, "anchor": info.anchor, "path": str(info.path),
        "title": info.section.title if info.section is not None else info.audit,
        "name": str(spec.get("name") or ""), "status": status,
        "status_class": "ok" if status == "complete" else (
            "bad" if status.startswith(("failed", "not measured")) else "warn"),
        "status_short": status.split(":", 1)[0] if status.startswith(("failed", "not measured"))
        else status.split(" (", 1)[0],
        "status_detail": status.split(":", 1)[1].strip()
        if status.startswith(("failed", "not measured")) and ":" in status else "",
        "models": models, "roles": role_text,
        "cases": DASH if n_cases is None else format_value(n_cases),
        "calls": int(usage.get("calls", 0) or 0), "cache_hits": int(usage.get("cache_hits", 0) or 0),
        "failures": int(usage.get("failures", 0) or 0), "retries": int(usage.get("retries", 0) or 0),
        "tokens": tokens, "prompt_tokens": int(usage.get("prompt_tokens", 0) or 0),
        "completion_tokens": int(usage.get("completion_tokens", 0) or 0),
        "per_model": [{"model": k, **{kk: format_value(vv) if kk != "wall_s" else f"{float(vv):.1f} s"
                                     for kk, vv in v.items()}} for k, v in per_model.items() if isinstance(v, dict)],
        "started": started or DASH, "finished": finished or DASH,
        "duration": DASH if duration is None else f"{duration:.0f} s",
        "seeds": ", ".join(map(str, m.get("seeds") or [])) or DASH,
        "version": str(m.get("clinaudit_version", DASH)), "data": data, "sources": sources, "cases_sha": cases_sha,
        "n_resumes": max(0, len(runs) - 1), "n_runs": len(runs), "all_calls": all_calls, "all_tokens": all_tokens,
        "summary": [(str(k), format_summary_value(str(k), v)) for k, v in sec_summary.items()],
        "section_error": info.error,
    }


def load_run(path: Path, ids: PageIds) -> RunInfo:
    from ..rundir import RunDir

    manifest = read_manifest(path)
    info = RunInfo(path=path, manifest=manifest, audit=audit_of(manifest))
    info.anchor = ids.make(f"sec-{info.audit}")
    try:
        builder = get_section_builder(info.audit)
    except Exception as exc:  # noqa: BLE001 - a broken section module must not break the report
        builder = None
        info.error = f"the report section module for '{info.audit}' failed to import: {type(exc).__name__}: {exc}"
        info.error_trace = traceback.format_exc()
    if builder is None:
        info.error = info.error or f"no report section is registered for audit '{info.audit}'"
    else:
        rd = None
        try:
            rd = RunDir(path)
            sec = builder(rd)
            if not isinstance(sec, Section):
                raise TypeError(f"section builder returned {type(sec).__name__}, not Section")
            from .jury import extra_blocks  # judge juries, clinically relevant pairs: shown for every audit

            sec.blocks += extra_blocks(rd)
            info.section = sec
        except Exception as exc:  # noqa: BLE001
            info.error = f"the report section for '{info.audit}' failed: {type(exc).__name__}: {exc}"
            info.error_trace = traceback.format_exc()
        finally:
            if rd is not None:
                rd.close()
    if info.section is not None:
        for block in info.section.blocks:
            try:
                info.views.append(block_view(block, info.audit, ids, info))
            except Exception as exc:  # noqa: BLE001
                title = getattr(block, "title", "") or getattr(block, "label", "") or type(block).__name__
                info.views.append(error_view(f"could not render block '{title}': {type(exc).__name__}: {exc}",
                                              traceback.format_exc()))
    else:
        info.views.append(error_view(info.error or "section unavailable", info.error_trace))
        info.views.append(raw_tables_view(info, ids))
    return info


def toc_entries(info: RunInfo) -> list[dict[str, str]]:
    out = []
    for v in info.views:
        if v["type"] in ("table", "figure", "compare") and v.get("title"):
            out.append({"id": v["id"], "title": v["title"], "type": v["type"]})
    return out
