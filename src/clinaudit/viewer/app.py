"""The viewer's web app (Starlette, server-side rendering with Jinja2; no build step, one small script).

Every request must come from the loopback interface (the server binds 127.0.0.1 only; a request whose client or
``Host`` is anything else is refused) and carry the viewer's token in the URL (``?token=...``, as Jupyter does),
or this viewer's session cookie: named after its port (``clinaudit_view_PORT``, so two viewers do not replace
each other's) and holding a value of this instance's own, not the token. The browser the command opens gets the
cookie through a one-time code (``/login?once=...``, from a private file the browser is pointed at), so the token
is on no process's command line. Pages are rendered with autoescaping: every text from a run (ids, model
answers, judge outputs, prompts) is escaped. Nothing is written anywhere.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import re
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pandas as pd

from .api import export_frame, grid_rows, neighbours, query_params, row_json, summary
from .case import case_view, mark_differences
from .data import FILTERS, SORTS, GridQuery, RunView, Viewer

__all__ = ["create_app", "LOOPBACK", "cookie_name", "report_csp", "CSP"]

LOOPBACK = frozenset({"127.0.0.1", "::1"})
_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})
_HERE = Path(__file__).resolve().parent
CSP = ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


def cookie_name(port: int) -> str:
    """The session cookie of the viewer on ``port`` (cookies are not port-scoped: one name per port)."""
    return f"clinaudit_view_{int(port)}"


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def report_csp(page: str) -> str:
    """The viewer's Content-Security-Policy for a served report: the same as every page's, but for the report's
    own inline script, allowed by its hash, and inline styles, allowed as the report's own policy allows them (its
    script sets styles; a style cannot run script)."""
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
    script_src = " ".join(["'self'", *dict.fromkeys(_sha256(x) for x in scripts)])
    return CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'").replace(
        "script-src 'self'", f"script-src {script_src}")


def _env() -> Any:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_HERE / "templates")), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["short"] = lambda s, n=240: ("" if s is None or s is pd.NA else
                                             (str(s) if len(str(s)) <= n else str(s)[:n] + " …"))
    return env


class _Guard:
    """ASGI middleware: loopback clients and hosts only, and the token (query) or this instance's session cookie
    on every request; ``/login?once=CODE`` swaps a one-time code (:meth:`once`) for the cookie."""

    def __init__(self, app: Any, token: str, port: int):
        self.app = app
        self.token = token
        self.cookie = cookie_name(port)
        self.session = secrets.token_urlsafe(32)  # the cookie's value: this instance's, not the token
        self._codes: set[str] = set()

    def once(self) -> str:
        """A code that opens this viewer once (``/login?once=CODE``), then is spent."""
        code = secrets.token_urlsafe(24)
        self._codes.add(code)
        return code

    def _spend(self, code: str) -> bool:
        for c in list(self._codes):
            if hmac.compare_digest(c, code):
                self._codes.discard(c)
                return True
        return False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.requests import Request
        from starlette.responses import PlainTextResponse, RedirectResponse

        request = Request(scope)
        client = scope.get("client") or ("", 0)
        host = (request.headers.get("host") or "").rsplit(":", 1)[0] if not (request.headers.get("host") or "")\
            .startswith("[") else (request.headers.get("host") or "").split("]")[0] + "]"
        if client[0] not in LOOPBACK or host not in _HOSTS:
            await PlainTextResponse("clinaudit view: only this computer (127.0.0.1) may connect", 403)(
                scope, receive, send)
            return
        cookie_header = f"{self.cookie}={self.session}; Path=/; HttpOnly; SameSite=Strict"
        if scope.get("path") == "/login":
            if self._spend(request.query_params.get("once") or ""):
                response = RedirectResponse("/", 303)
                response.headers.append("set-cookie", cookie_header)
                response.headers["cache-control"] = "no-store"
                response.headers["referrer-policy"] = "no-referrer"
                await response(scope, receive, send)
            else:
                await PlainTextResponse("clinaudit view: this one-time link was used already (or is wrong); open "
                                        "the URL the command printed (it ends in ?token=...)", 403)(
                    scope, receive, send)
            return
        given = request.query_params.get("token") or ""
        cookie = request.cookies.get(self.cookie) or ""
        by_token = hmac.compare_digest(given, self.token)
        by_cookie = hmac.compare_digest(cookie, self.session)
        if not (by_token or by_cookie):
            await PlainTextResponse("clinaudit view: missing or wrong token; open the URL the command printed "
                                    "(it ends in ?token=...)", 403)(scope, receive, send)
            return
        set_cookie = by_token and not by_cookie

        async def send_with_cookie(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if set_cookie:
                    headers.append((b"set-cookie", cookie_header.encode("latin-1")))
                headers.append((b"cache-control", b"no-store"))
                headers.append((b"x-content-type-options", b"nosniff"))
                headers.append((b"referrer-policy", b"no-referrer"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def create_app(runs: list[RunView], token: str, port: int = 0) -> Any:
    """The viewer's ASGI app over ``runs`` (already loaded), guarded by ``token`` (its session cookie named after
    ``port``); :meth:`_Guard.once` gives one-time codes for ``/login``."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route

    viewer = Viewer(runs)
    env = _env()
    reports: dict[str, str] = {}

    def page(name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        body = env.get_template(name).render(runs=viewer.runs, multi=len(viewer.runs) > 1, **ctx)
        return HTMLResponse(body, status_code=status, headers={"content-security-policy": CSP})

    def parsed(request: Request) -> tuple[dict[str, str], dict[str, list[str]], GridQuery, dict[str, Any]]:
        """The query string: one value per name, the filters given several values (a report's link to a finding
        comparing two variants keeps the rows of either), the grid query, and what a link carries on."""
        params = dict(request.query_params)
        params.pop("token", None)
        repeated = {k: request.query_params.getlist(k) for k in FILTERS if len(request.query_params.getlist(k)) > 1}
        query = GridQuery.parse(params, repeated)
        carried: dict[str, Any] = query_params(params)
        carried.update({k: list(query.filters[k]) for k in repeated if k in query.filters})
        return params, repeated, query, carried

    def grid_state(request: Request) -> dict[str, Any]:
        params, repeated, query, carried = parsed(request)
        rows, total, notes = viewer.select(query)
        # a filter given several values (a report's link to a finding comparing two variants): said above the grid
        notes = [f"{k}: {' or '.join(query.filters[k])} (the finding's rows)" for k in repeated if k in query.filters] \
            + notes
        pages = max(1, -(-total // query.per_page))
        return {"params": params, "query": query, "rows": grid_rows(viewer, rows, query, carried), "total": total,
                "notes": notes, "pages": pages, "summary": summary(viewer, query), "carried": carried,
                "repeated": repeated}

    def grid(request: Request) -> Response:
        st = grid_state(request)
        params, query = st["params"], st["query"]
        base: dict[str, Any] = {k: v for k, v in params.items() if k != "page" and v}
        base.update({k: list(query.filters[k]) for k in st["repeated"] if k in query.filters})

        def link(**change: Any) -> str:
            q = {**base, **{k: str(v) for k, v in change.items() if v not in (None, "")}}
            for k, v in change.items():
                if v in (None, ""):
                    q.pop(k, None)
            return "?" + urlencode(q, doseq=True)

        return page("grid.html.j2", rows=st["rows"], total=st["total"], query=query, notes=st["notes"],
                    options=viewer.options, questions=viewer.questions, filters=FILTERS, sorts=SORTS,
                    params=params, pages=st["pages"], link=link, n_all=len(viewer.grid), summary=st["summary"],
                    export_href="/export.csv?" + urlencode(st["carried"], doseq=True))

    def grid_api(request: Request) -> Response:
        st = grid_state(request)
        query = st["query"]
        return JSONResponse({"total": st["total"], "n_all": len(viewer.grid), "page": query.page,
                             "pages": st["pages"], "notes": st["notes"], "multi": len(viewer.runs) > 1,
                             "questions": [query.question] if query.question else viewer.questions,
                             "rows": [row_json(r) for r in st["rows"]], "summary": st["summary"],
                             "export_href": "/export.csv?" + urlencode(st["carried"], doseq=True)})

    def export(request: Request) -> Response:
        from ..export import to_csv

        frame = export_frame(viewer, parsed(request)[2])
        return Response(to_csv(frame), media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": 'attachment; filename="clinaudit-view-rows.csv"'})

    def case(request: Request) -> Response:
        params, _, query, carried = parsed(request)
        case_id = params.get("case", "")
        run = params.get("run", "")
        keys = [viewer.resolve_run(run)] if run else list(viewer.runs)
        keys = [k for k in keys if k is not None]
        views = [v for v in (case_view(viewer.runs[k], case_id) for k in keys) if v is not None]
        if not views:
            return page("message.html.j2", status=404, title="No such case",
                        message=f"case {case_id!r} is not in {'run ' + repr(run) if run else 'these runs'}")
        pairs = mark_differences(views) if len(views) > 1 else []
        query.filters.pop("case", None)  # the case page's own case, not a filter of the grid it came from
        prev, nxt, pos, n_cases = neighbours(viewer, query, case_id)

        def case_link(cid: str | None) -> str | None:
            return None if cid is None else "/case?" + urlencode({"case": cid, **({"run": run} if run else {}),
                                                                  **carried}, doseq=True)

        both = "/case?" + urlencode({"case": case_id, **{k: v for k, v in carried.items() if k != "run"}},
                                    doseq=True) if run and len(viewer.runs) > 1 else None
        back = "/?" + urlencode(carried, doseq=True) if carried else "/"
        return page("case.html.j2", case_id=case_id, views=views, questions=viewer.questions, pairs=pairs,
                    prev_href=case_link(prev), next_href=case_link(nxt), position=pos, n_cases=n_cases,
                    both_href=both, back_href=back, filtered=bool(carried))

    def report(request: Request) -> Response:
        name = request.query_params.get("run", "")
        run = viewer.resolve_run(name) if name else next(iter(viewer.runs))
        if run is None:
            return page("message.html.j2", status=404, title="No such run",
                        message=f"run {name!r} is not one of the runs this viewer serves")
        if run not in reports:
            reports[run] = _render_report(viewer.runs[run])
        return HTMLResponse(reports[run], headers={"content-security-policy": report_csp(reports[run])})

    def static(request: Request) -> Response:
        name = request.path_params["name"]
        types = {"viewer.css": "text/css", "viewer.js": "text/javascript"}
        if name not in types:
            return PlainTextResponse("not found", 404)
        return Response((_HERE / "static" / name).read_bytes(), media_type=types[name])

    def favicon(request: Request) -> Response:
        return Response(status_code=204)

    app = Starlette(routes=[Route("/", grid), Route("/cases", grid), Route("/case", case),
                            Route("/api/grid", grid_api), Route("/export.csv", export),
                            Route("/report", report), Route("/static/{name}", static),
                            Route("/favicon.ico", favicon)])
    return _Guard(app, token, port)


def _render_report(run: RunView) -> str:
    """The run's report as the viewer serves it: rendered into a temporary folder (nothing is written to the run
    directory) from a mirror of the run directory's own regular files (no link or special file below it is
    followed: :func:`clinaudit.viewer.confine.mirror`), marked ``data-viewer`` so its script shows the links to
    the viewer's grid."""
    import tempfile

    from ..report.render import build_report
    from .confine import mirror

    with tempfile.TemporaryDirectory(prefix="clinaudit-view-") as tmp:
        src = Path(tmp) / "runs" / run.path.resolve().name
        for note in mirror(run.path, src):
            if note not in run.notes:
                run.notes.append(note)
        files = build_report([src], Path(tmp) / "out" / "report.html")
        text = files.html.read_text(encoding="utf-8")
    return text.replace("<html", '<html data-viewer="1"', 1) if "<html" in text else html.escape(text)
