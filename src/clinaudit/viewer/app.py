"""The viewer's web app (Starlette, server-side rendering with Jinja2; no build step, one small script).

Every request must come from the loopback interface (the server binds 127.0.0.1 only; a request whose client or
``Host`` is anything else is refused) and carry the viewer's token, in the URL (``?token=...``, as Jupyter does)
or in the cookie the first such request sets. Pages are rendered with autoescaping: every text from a run (ids,
model answers, judge outputs, prompts) is escaped. Nothing is written anywhere.
"""

from __future__ import annotations

import hmac
import html
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pandas as pd

from .data import FILTERS, SORTS, GridQuery, RunView, Viewer, diff_html

__all__ = ["create_app", "LOOPBACK", "COOKIE"]

LOOPBACK = frozenset({"127.0.0.1", "::1"})
_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})
COOKIE = "clinaudit_view_token"
_HERE = Path(__file__).resolve().parent
_CSP = ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; "
        "base-uri 'none'; frame-ancestors 'none'")


def _env() -> Any:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_HERE / "templates")), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["short"] = lambda s, n=240: ("" if s is None or s is pd.NA else
                                             (str(s) if len(str(s)) <= n else str(s)[:n] + " …"))
    return env


class _Guard:
    """ASGI middleware: loopback clients and hosts only, and the token (query or cookie) on every request."""

    def __init__(self, app: Any, token: str):
        self.app = app
        self.token = token

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.requests import Request
        from starlette.responses import PlainTextResponse

        request = Request(scope)
        client = scope.get("client") or ("", 0)
        host = (request.headers.get("host") or "").rsplit(":", 1)[0] if not (request.headers.get("host") or "")\
            .startswith("[") else (request.headers.get("host") or "").split("]")[0] + "]"
        if client[0] not in LOOPBACK or host not in _HOSTS:
            await PlainTextResponse("clinaudit view: only this computer (127.0.0.1) may connect", 403)(
                scope, receive, send)
            return
        given = request.query_params.get("token") or ""
        cookie = request.cookies.get(COOKIE) or ""
        if not (hmac.compare_digest(given, self.token) or hmac.compare_digest(cookie, self.token)):
            await PlainTextResponse("clinaudit view: missing or wrong token; open the URL the command printed "
                                    "(it ends in ?token=...)", 403)(scope, receive, send)
            return
        set_cookie = hmac.compare_digest(given, self.token) and not hmac.compare_digest(cookie, self.token)

        async def send_with_cookie(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if set_cookie:
                    headers.append((b"set-cookie", f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                                    .encode("latin-1")))
                headers.append((b"cache-control", b"no-store"))
                headers.append((b"x-content-type-options", b"nosniff"))
                headers.append((b"referrer-policy", b"no-referrer"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def create_app(runs: list[RunView], token: str) -> Any:
    """The viewer's ASGI app over ``runs`` (already loaded), guarded by ``token``."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, PlainTextResponse, Response
    from starlette.routing import Route

    viewer = Viewer(runs)
    env = _env()
    reports: dict[str, str] = {}

    def page(name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        body = env.get_template(name).render(runs=viewer.runs, multi=len(viewer.runs) > 1, **ctx)
        return HTMLResponse(body, status_code=status, headers={"content-security-policy": _CSP})

    def grid(request: Request) -> Response:
        params = dict(request.query_params)
        params.pop("token", None)
        repeated = {k: request.query_params.getlist(k) for k in FILTERS if len(request.query_params.getlist(k)) > 1}
        query = GridQuery.parse(params, repeated)
        rows, total, notes = viewer.select(query)
        # a filter given several values (a report's link to a finding comparing two variants): said above the grid
        notes = [f"{k}: {' or '.join(query.filters[k])} (the finding's rows)" for k in repeated if k in query.filters] \
            + notes
        pages = max(1, -(-total // query.per_page))
        base: dict[str, Any] = {k: v for k, v in params.items() if k != "page" and v}
        base.update({k: list(query.filters[k]) for k in repeated if k in query.filters})

        def link(**change: Any) -> str:
            q = {**base, **{k: str(v) for k, v in change.items() if v not in (None, "")}}
            for k, v in change.items():
                if v in (None, ""):
                    q.pop(k, None)
            return "?" + urlencode(q, doseq=True)

        return page("grid.html.j2", rows=_grid_rows(viewer, rows, query), total=total, query=query, notes=notes,
                    options=viewer.options, questions=viewer.questions, filters=FILTERS, sorts=SORTS,
                    params=params, pages=pages, link=link, n_all=len(viewer.grid))

    def case(request: Request) -> Response:
        case_id = request.query_params.get("case", "")
        run = request.query_params.get("run", "")
        keys = [viewer.resolve_run(run)] if run else list(viewer.runs)
        keys = [k for k in keys if k is not None]
        views = [v for v in (_case_view(viewer.runs[k], case_id) for k in keys) if v is not None]
        if not views:
            return page("message.html.j2", status=404, title="No such case",
                        message=f"case {case_id!r} is not in {'run ' + repr(run) if run else 'these runs'}")
        pairs = _mark_differences(views) if len(views) > 1 else []
        return page("case.html.j2", case_id=case_id, views=views, questions=viewer.questions, pairs=pairs)

    def report(request: Request) -> Response:
        run = viewer.resolve_run(request.query_params.get("run", "")) or next(iter(viewer.runs))
        if run not in reports:
            reports[run] = _render_report(viewer.runs[run])
        return HTMLResponse(reports[run])

    def static(request: Request) -> Response:
        name = request.path_params["name"]
        types = {"viewer.css": "text/css", "viewer.js": "text/javascript"}
        if name not in types:
            return PlainTextResponse("not found", 404)
        return Response((_HERE / "static" / name).read_bytes(), media_type=types[name])

    def favicon(request: Request) -> Response:
        return Response(status_code=204)

    app = Starlette(routes=[Route("/", grid), Route("/cases", grid), Route("/case", case),
                            Route("/report", report), Route("/static/{name}", static),
                            Route("/favicon.ico", favicon)])
    return _Guard(app, token)


def _grid_rows(viewer: Viewer, rows: pd.DataFrame, query: GridQuery) -> list[dict[str, Any]]:
    out = []
    questions = [query.question] if query.question else viewer.questions
    for rec in rows.to_dict("records"):
        run = viewer.runs[str(rec["run"])]
        vid = rec.get("variant_id")
        text = base = None
        if isinstance(vid, str) and vid in run.variants.index:
            v = run.variants.loc[vid]
            text = v["text"]
            base = _reference_text(run, vid, v["baseline_id"], v["case_id"])
        labels = []
        for q in questions:
            lab = rec.get(f"label::{q}")
            if _na(lab):
                continue
            labels.append({"question": q, "label": lab, "flip": rec.get(f"flip::{q}") is True,
                           "noise": bool(rec.get(f"noise::{q}"))})
        out.append({**{k: (None if _na(v) else v) for k, v in rec.items()},
                    "diff": diff_html(base, text, context=60) if text is not None else "",
                    "labels": labels, "flip": None if rec.get("flip") is pd.NA else bool(rec.get("flip"))})
    return out


def _case_view(run: RunView, case_id: str) -> dict[str, Any] | None:
    g = run.grid[run.grid["case_id"] == case_id]
    in_cases = case_id in run.cases.index
    if not len(g) and not in_cases:
        return None
    variants = run.variants[run.variants["case_id"] == case_id]
    calls = run.calls_of_case(case_id)
    cached = run.cached_calls(calls["request_key"].dropna().astype(str).tolist()) if "request_key" in calls else {}
    # one column per model × seed, one row per variant (the baseline first)
    cols = g[["model", "seed"]].drop_duplicates().sort_values(["model", "seed"]).astype(object) \
        .where(lambda d: d.notna(), None).to_records(index=False).tolist() if len(g) else []
    cells: dict[tuple[Any, ...], dict[str, Any]] = {}
    for rec in g.to_dict("records"):
        seed = None if _na(rec.get("seed")) else rec.get("seed")
        cells[(rec["variant_id"], rec["model"], seed)] = {
            "answer": rec.get("answer"), "flip": rec.get("flip") is True, "status": rec.get("judge_status"),
            "labels": [{"question": q, "label": rec.get(f"label::{q}"), "flip": rec.get(f"flip::{q}") is True,
                        "noise": bool(rec.get(f"noise::{q}"))}
                       for q in run.questions if not _na(rec.get(f"label::{q}"))],
            "request_key": rec.get("request_key"), "differs": False}
    answered = {k[0] for k in cells}
    # the baselines first, then the variants with answers, then those no model answered (augmentation inputs ...)
    order = sorted(variants.index, key=lambda v: (v not in answered, str(variants.loc[v, "baseline_id"]) != v, str(v)))
    vrows = []
    for vid in order:
        v = variants.loc[vid]
        bid = v["baseline_id"]
        base = _reference_text(run, vid, bid, case_id)
        vrows.append({"variant_id": vid, "label": v["label"], "family": None if _na(v["family"]) else v["family"],
                      "description": None if _na(v["description"]) else v["description"],
                      "diff": diff_html(base, v["text"]), "is_baseline": isinstance(bid, str) and vid == bid,
                      "answered": vid in answered,
                      "cells": [cells.get((vid, m, s)) for m, s in cols]})
    judg = run.judgments
    keys = set(calls["request_key"].dropna().astype(str)) if "request_key" in calls else set()
    if len(judg):
        sel = pd.Series(False, index=judg.index)
        for col, vals in (("request_key", keys), ("item_id", keys), ("case_id", {case_id}),
                          ("variant_id", set(variants.index))):
            if col in judg:
                sel |= judg[col].astype("string").isin(vals).fillna(False)
        judg = judg[sel]
    exclusions = run.exclusions
    if "case_id" in exclusions:
        exclusions = exclusions[exclusions["case_id"].astype("string") == case_id]
    extra = {name: df[df["case_id"] == case_id] for name, df in run.extra_tables.items()}
    extra = {k: v for k, v in extra.items() if len(v)}
    paired = run.paired
    if "V" in paired.columns and "case_id" in paired.columns:
        clin = paired[(paired["case_id"].astype("string") == case_id) & paired["V"].notna()]
        if len(clin):
            extra["clinician labels (paired V)"] = clin
    call_rows = []
    for rec in calls.to_dict("records") if len(calls) else []:
        key = rec.get("request_key")
        c = cached.get(str(key)) if isinstance(key, str) else None
        req = c["request"] if c else None
        call_rows.append({**{k: (None if _na(v) else v) for k, v in rec.items()},
                          "cached_request": json.dumps(req, indent=1, ensure_ascii=False) if req is not None else None,
                          "cached_response": json.dumps(c["response"], indent=1, ensure_ascii=False) if c else None,
                          "backend": c["backend"] if c else None})
    case_text = run.cases.loc[case_id, "text"] if case_id in run.cases.index and "text" in run.cases else None
    return {"run": run, "columns": [{"model": m, "seed": s} for m, s in cols], "variants": vrows,
            "judgments": _table(judg), "exclusions": _table(exclusions), "extra": {k: _table(v) for k, v in
                                                                                   extra.items()},
            "calls": call_rows, "cache": run.cache() is not None, "case_text": case_text,
            "verdict": next((str(x) for x in g["verdict"].dropna().unique()), None) if len(g) else None}


def _reference_text(run: RunView, vid: str, bid: Any, case_id: Any) -> Any:
    """The text a variant's change is shown against: its baseline variant's, or (for a baseline, or a variant
    with none) the case's text as loaded."""
    if isinstance(bid, str) and bid != vid and bid in run.variants.index:
        return run.variants.loc[bid, "text"]
    if isinstance(case_id, str) and case_id in run.cases.index and "text" in run.cases:
        return run.cases.loc[case_id, "text"]
    return None


def _na(v: Any) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and v != v)


def _table(df: pd.DataFrame) -> dict[str, Any]:
    df = df.astype(object).where(df.notna(), None)
    return {"columns": [str(c) for c in df.columns], "rows": df.to_numpy().tolist()}


def _mark_differences(views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Two runs side by side: a cell whose flip differs from the same variant and seed in another run is marked.
    Returns the rows of the side-by-side table: one per variant × seed (× model, when the runs share it), each
    run's cell beside the others'."""
    counts: dict[Any, int] = {}
    for v in views:
        for m in {c["model"] for c in v["columns"]}:
            counts[m] = counts.get(m, 0) + 1

    def key(row: dict[str, Any], col: dict[str, Any]) -> tuple[Any, ...]:
        # a model in both runs is compared with itself (two versions), else the runs' models with each other
        return (row["variant_id"], col["seed"], col["model"] if counts.get(col["model"], 0) > 1 else None)

    seen: dict[tuple[Any, ...], set[bool]] = {}
    for v in views:
        for row in v["variants"]:
            for col, cell in zip(v["columns"], row["cells"]):
                if cell is not None:
                    seen.setdefault(key(row, col), set()).add(cell["flip"])
    rows: dict[tuple[Any, ...], dict[str, Any]] = {}
    for v in views:
        for row in v["variants"]:
            for col, cell in zip(v["columns"], row["cells"]):
                if cell is None:
                    continue
                k = key(row, col)
                if len(seen.get(k, set())) > 1:
                    cell["differs"] = True
                entry = rows.setdefault(k, {"variant": row["label"], "seed": col["seed"], "shared_model": k[2],
                                            "differs": False, "cells": {}})
                entry["cells"][v["run"].key] = {**cell, "model": col["model"]}
                entry["differs"] = entry["differs"] or cell["differs"]
    return sorted(rows.values(), key=lambda r: not r["differs"])  # the rows whose flips differ first


def _render_report(run: RunView) -> str:
    """The run's report as the viewer serves it: rendered into a temporary folder (nothing is written to the run
    directory), marked ``data-viewer`` so its script shows the links to the viewer's grid."""
    import tempfile

    from ..report.render import build_report

    with tempfile.TemporaryDirectory(prefix="clinaudit-view-") as tmp:
        files = build_report([run.path], Path(tmp) / "report.html")
        text = files.html.read_text(encoding="utf-8")
    return text.replace("<html", '<html data-viewer="1"', 1) if "<html" in text else html.escape(text)
