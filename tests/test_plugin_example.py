"""The worked plugin (examples/plugin) installed as a real distribution and found by entry point.

pip builds and installs it into a temporary folder (no network: no build isolation, no
dependencies); a fresh `clinaudit` process with that folder on its path lists the plugin's
audit, runs its spec on the mock backend and renders its report section.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "examples" / "plugin"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--disable-pip-version-check", "--target", str(target), str(PLUGIN)],
        capture_output=True, text=True, cwd=build, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert list(target.glob("clinaudit_name_swap-*.dist-info/entry_points.txt"))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(target)] + [p for p in [env.get("PYTHONPATH")] if p])
    return env


def _cli(env, *args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "clinaudit", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)


def test_plugin_audit_listed_run_and_reported(installed, tmp_path):
    out = _cli(installed, "audits")
    assert out.returncode == 0, out.stderr
    assert "name_swap" in out.stdout
    assert "name_swap" in _cli(installed, "perturbations").stdout
    run_dir = tmp_path / "run"
    res = _cli(installed, "run", str(PLUGIN / "spec.yaml"), "--out", str(run_dir), "--no-progress", "--report")
    assert res.returncode == 0, res.stderr[-3000:]
    table = pd.read_csv(run_dir / "tables" / "results.csv").set_index("group")
    # scripted: every group_b reply flips to urgent advice, group_a never does, the baseline never re-samples apart
    assert table.loc["group_b", "value"] == 100.0 and table.loc["group_a", "value"] == 0.0
    assert table.loc["group_b", "n_cases"] == 12 and table.loc["group_b", "n_pairs"] == 24
    assert table.loc["group_b", "p"] == pytest.approx(2.0**-12)  # exact sign-flip test over 12 cases
    assert (table["family"] == "name groups").all()
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    assert "Name swap (plugin example)" in html


def test_without_the_plugin_the_audit_is_unknown(tmp_path):
    env = dict(os.environ)
    res = _cli(env, "run", str(PLUGIN / "spec.yaml"), "--out", str(tmp_path / "r"), "--dry-run")
    assert res.returncode == 2
    assert "unknown audit 'name_swap'" in res.stderr
