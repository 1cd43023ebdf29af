"""``clinaudit view``'s token and cookie (issue 51): the browser is opened on a private file holding a one-time
link (the token on no command line), the session cookie is named after the port and holds a value of the
instance's own (not the token), so a second viewer neither logs the first out nor learns its token."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from clinaudit.viewer import load_runs
from clinaudit.viewer.synthetic import make_run

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from clinaudit.viewer.app import cookie_name, create_app  # noqa: E402

TOKEN = "t0ken-for-tests"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return make_run(tmp_path_factory.mktemp("access") / "r", cases=3, perturbations=1, seeds=1)


def client(app) -> TestClient:
    return TestClient(app, base_url="http://127.0.0.1", client=("127.0.0.1", 50000), follow_redirects=False)


def test_cookie_is_named_per_port_and_is_not_the_token(run):
    views = load_runs([run])
    first, second = create_app(views, TOKEN, 8765), create_app(views, "other-token", 8766)
    r = client(first).get("/", params={"token": TOKEN})
    assert r.status_code == 200
    name, _, rest = r.headers["set-cookie"].partition("=")
    value = rest.split(";", 1)[0]
    assert name == cookie_name(8765) == "clinaudit_view_8765"
    assert value and TOKEN not in r.headers["set-cookie"]  # another server on 127.0.0.1 gets this, not the token
    assert "HttpOnly" in r.headers["set-cookie"] and "SameSite=Strict" in r.headers["set-cookie"]
    # a browser holding both viewers' cookies (cookies are not port-scoped) is let into each by its own
    r2 = client(second).get("/", params={"token": "other-token"})
    value2 = r2.headers["set-cookie"].split("=", 1)[1].split(";", 1)[0]
    both = {cookie_name(8765): value, cookie_name(8766): value2}
    for app in (first, second):
        c = client(app)
        c.cookies.update(both)
        assert c.get("/").status_code == 200
    # the other viewer's cookie (or the token as a cookie value) opens nothing here
    c = client(first)
    c.cookies.update({cookie_name(8765): value2})
    assert c.get("/").status_code == 403
    c = client(first)
    c.cookies.update({cookie_name(8765): TOKEN})
    assert c.get("/").status_code == 403


def test_one_time_link_swaps_for_the_cookie_once(run):
    app = create_app(load_runs([run]), TOKEN, 9000)
    code = app.once()
    c = client(app)
    r = c.get("/login", params={"once": code})
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert r.headers["set-cookie"].startswith(cookie_name(9000) + "=") and TOKEN not in r.headers["set-cookie"]
    assert c.get("/").status_code == 200  # the cookie from then on
    again = client(app)
    assert again.get("/login", params={"once": code}).status_code == 403  # spent
    assert again.get("/login", params={"once": "guess"}).status_code == 403
    assert again.get("/").status_code == 403


def test_serve_opens_the_browser_on_a_private_file_without_the_token(run, monkeypatch, capsys):
    import uvicorn

    import clinaudit.viewer as viewer

    opened: list[str] = []
    seen: dict[str, object] = {}

    def fake_open(url: str) -> bool:
        opened.append(url)
        path = Path(url.removeprefix("file://"))
        seen["text"] = path.read_text(encoding="utf-8")
        seen["mode"] = stat.S_IMODE(path.stat().st_mode)
        seen["dir_mode"] = stat.S_IMODE(path.parent.stat().st_mode)
        seen["path"] = path
        return True

    monkeypatch.setattr("webbrowser.open", fake_open)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # serve nothing; return at once
    assert viewer.serve([run], token=TOKEN, open_browser=True) == 0
    out = capsys.readouterr().out
    assert f"?token={TOKEN}" in out  # printed for the user, as before
    (url,) = opened
    assert url.startswith("file://") and TOKEN not in url  # what a browser launcher gets on its command line
    assert TOKEN not in str(seen["text"]) and "/login?once=" in str(seen["text"])
    assert seen["mode"] == 0o600 and seen["dir_mode"] == 0o700
    assert not Path(str(seen["path"])).exists()  # removed when the viewer stops
