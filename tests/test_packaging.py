"""clinaudit installs as a package: a wheel and an sdist build from the checkout, the wheel installs into a fresh
virtual environment with its runtime dependencies held to the pinned requirements, and the installed command
runs an offline mock audit end to end (README: "Install as a package")."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def _index_args() -> list[str]:
    """The machine's package-index settings as pip resolves them (environment first, then its config files),
    as installer options, so the fresh environment installs from the same indexes as `make install`."""
    out = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True).stdout
    settings: dict[str, str] = {}
    for line in out.splitlines():
        key, _, value = line.partition("=")
        scope, _, name = key.partition(".")
        if scope in (":env:", "global") and name not in settings:
            settings[name] = value.strip().strip("'")
    args: list[str] = []
    for name, flag in (("index-url", "--index-url"), ("extra-index-url", "--extra-index-url"),
                       ("find-links", "--find-links")):
        for value in settings.get(name, "").split():
            args += [flag, value]
    return args


def _uv() -> str | None:
    found = Path(sys.executable).with_name("uv")
    return str(found) if found.exists() else shutil.which("uv")


def _build(dist: Path) -> tuple[Path, Path]:
    uv = _uv()
    if uv:
        cmd = [uv, "build", "--out-dir", str(dist), "--index-strategy", "unsafe-best-match", *_index_args(), str(REPO)]
    else:  # `make INSTALLER=pip`: the standard build front end of this environment's setuptools
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(dist), str(REPO)]
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300)
    wheels, sdists = sorted(dist.glob("clinaudit-*.whl")), sorted(dist.glob("clinaudit-*.tar.gz"))
    assert wheels, f"no wheel built in {dist}"
    return wheels[0], (sdists[0] if sdists else Path())


def test_wheel_installs_into_a_fresh_venv_and_runs_a_mock_audit(tmp_path):
    wheel, sdist = _build(tmp_path / "dist")
    names = set(zipfile.ZipFile(wheel).namelist())
    # the package data a run needs travels in the wheel: templates, prompts, demo data, the typing marker
    for needed in ("clinaudit/py.typed", "clinaudit/report/templates/report.html.j2",
                   "clinaudit/data/demo/patient_messages.csv", "clinaudit/viewer/templates/grid.html.j2",
                   "clinaudit/viewer/static/viewer.js", "clinaudit/viewer/static/viewer.css"):
        assert needed in names, f"{needed} missing from {wheel.name}"
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/"))]
    if sdist.name:
        with tarfile.open(sdist) as tar:
            members = {m.split("/", 1)[-1] for m in tar.getnames()}
        assert {"pyproject.toml", "README.md", "src/clinaudit/__init__.py"} <= members

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=_uv() is None).create(env_dir)
    py = env_dir / "bin" / "python"
    constraints = ["-c", str(REPO / "requirements" / "runtime.txt")]
    uv = _uv()
    if uv:
        cmd = [uv, "pip", "install", "-q", "--python", str(py), "--index-strategy", "unsafe-best-match",
               *_index_args(), *constraints, str(wheel)]
    else:
        cmd = [str(py), "-m", "pip", "install", "-q", *constraints, str(wheel)]
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=600)

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["CLINAUDIT_CACHE_DIR"] = str(tmp_path / "cache")
    exe = env_dir / "bin" / "clinaudit"
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, env=env, cwd=tmp_path,
                             check=True).stdout
    assert version.startswith("clinaudit ")
    # the installed package, not the checkout, is what runs
    where = subprocess.run([str(py), "-c", "import clinaudit; print(clinaudit.__file__)"], capture_output=True,
                           text=True, env=env, cwd=tmp_path, check=True).stdout.strip()
    assert str(env_dir) in where and str(REPO / "src") not in where

    run = tmp_path / "run"
    proc = subprocess.run([str(exe), "run", str(REPO / "examples" / "treatment_shift-mock.yaml"), "--out", str(run),
                           "--no-progress"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    manifest = json.loads((run / "manifest.json").read_text())
    assert str(manifest["status"]).startswith("complete")
    assert (run / "tables" / "results.csv").stat().st_size > 0

    # clinaudit view: without the extra `view` one line says what to install; with it, it serves the run
    proc = subprocess.run([str(exe), "view", str(run), "--no-browser"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert proc.returncode == 2, proc.stderr[-2000:]  # the wheel's own dependencies hold no web stack
    assert "pip install 'clinaudit[view]'" in proc.stderr and "Traceback" not in proc.stderr
    extra = [uv, "pip", "install", "-q", "--python", str(py), "--index-strategy", "unsafe-best-match",
             *_index_args()] if uv else [str(py), "-m", "pip", "install", "-q"]
    subprocess.run([*extra, *constraints, "starlette", "uvicorn"], check=True, capture_output=True, text=True,
                   timeout=600)
    _view_serves(exe, run, env, tmp_path)


def _view_serves(exe: Path, run: Path, env: dict, cwd: Path) -> None:
    import re

    import httpx

    server = subprocess.Popen([str(exe), "view", str(run), "--no-browser"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    try:
        assert server.stdout is not None
        m = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", server.stdout.readline() + server.stdout.readline())
        assert m, server.stderr.read() if server.stderr else ""
        r = httpx.get(m.group(0), timeout=60)
        assert r.status_code == 200 and "clinaudit view" in r.text
        assert httpx.get(m.group(0).split("?")[0] + "static/viewer.js", cookies=r.cookies).status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
