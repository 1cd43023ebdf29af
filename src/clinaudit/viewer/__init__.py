"""``clinaudit view``: a local, read-only web viewer of runs' cases, calls and judgments (docs/viewer.md).

:func:`load_runs` reads run directories (:mod:`.data`), :func:`clinaudit.viewer.app.create_app` builds the ASGI app,
:func:`serve` runs it with uvicorn on 127.0.0.1. Starlette and uvicorn are the extra ``clinaudit[view]``.
"""

from __future__ import annotations

import secrets
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ClinauditError

__all__ = ["load_runs", "serve", "check_installed", "MISSING"]

MISSING = ("clinaudit view needs starlette and uvicorn: pip install 'clinaudit[view]' "
           "(or: pip install -c requirements/runtime.txt starlette uvicorn)")


def check_installed() -> None:
    """A clear error when the web stack (the extra ``view``) is not installed."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise ClinauditError(MISSING) from None


def load_runs(paths: Sequence[str | Path]) -> list[Any]:
    """Each run directory read once (:func:`clinaudit.viewer.load.load_run`), keyed by its folder's name (made
    unique with ``-2``, ``-3`` ... when two have one name). A path holding no ``manifest.json`` is searched for the
    run directories below it, as ``clinaudit report`` does (``clinaudit view runs/demo``)."""
    from ..report.render import discover_run_dirs
    from .load import load_run

    keys: dict[str, int] = {}
    runs = []
    for p in discover_run_dirs(list(paths)):
        path = Path(p)
        name = path.resolve().name or "run"
        keys[name] = keys.get(name, 0) + 1
        key = name if keys[name] == 1 else f"{name}-{keys[name]}"
        runs.append(load_run(path, key))
    _give_back_memory()
    return runs


def _give_back_memory() -> None:
    """Return the memory freed after loading (the tables' temporary copies) to the system: the C allocator keeps
    it otherwise (100,000 answers: 431 MB resident after loading, 357 MB after this; 80 MB of frames held)."""
    import gc

    gc.collect()
    try:
        import pyarrow as pa

        pa.default_memory_pool().release_unused()
    except Exception:  # noqa: BLE001 - an optional nicety
        pass
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc (macOS, musl): nothing to do
        pass


def serve(paths: Sequence[str | Path], *, port: int = 0, open_browser: bool = True, token: str | None = None,
          out: Any = None) -> int:
    """Load the runs, bind 127.0.0.1:``port`` (0: a free port), print the URL with its token and serve until
    interrupted. Returns 0. The browser is opened on a private file that forwards it to a one-time link (the
    token is on no process's command line)."""
    check_installed()
    import uvicorn

    from .app import create_app

    out = out or sys.stdout
    runs = load_runs(paths)
    token = token or secrets.token_urlsafe(24)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(128)  # listening before the URL is printed: a client that reads it can connect at once
    except OSError as exc:
        sock.close()
        raise ClinauditError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}; choose another --port "
                             "(or leave it out for a free one)") from None
    real_port = sock.getsockname()[1]
    app = create_app(runs, token, real_port)
    url = f"http://127.0.0.1:{real_port}/?token={token}"
    rows = sum(len(r.grid) for r in runs)
    print(f"clinaudit view: {len(runs)} run(s), {rows} answer rows; read-only, 127.0.0.1 only", file=out)
    print(f"open: {url}", file=out, flush=True)
    for r in runs:
        if r.status != "complete":
            print(f"note: run {r.key} is {r.status}", file=out, flush=True)
    opener = _open_browser(f"http://127.0.0.1:{real_port}/login?once={app.once()}") if open_browser else None
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        for r in runs:
            r.close()
        if opener is not None:
            import shutil

            shutil.rmtree(opener, ignore_errors=True)
    return 0


def _open_browser(link: str) -> Path | None:
    """Open the browser on a file only this user can read (in a private temporary folder) that forwards to
    ``link`` (a one-time code), as Jupyter does; returns the folder (removed when the viewer stops)."""
    import tempfile
    import webbrowser
    from html import escape

    folder = Path(tempfile.mkdtemp(prefix="clinaudit-view-"))  # mode 0700
    page = folder / "open.html"
    page.write_text(f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={escape(link)}">'
                    f'<title>clinaudit view</title><p><a href="{escape(link)}">open clinaudit view</a></p>',
                    encoding="utf-8")
    page.chmod(0o600)
    try:
        webbrowser.open(page.as_uri())
    except Exception:  # noqa: BLE001 - no browser: the URL is printed
        pass
    return folder
