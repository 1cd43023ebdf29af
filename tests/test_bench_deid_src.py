"""bench_deid_origin.py --src: the benchmark measures the code it is told to (a copy of another tree's src, main's
while a branch writes its sets), not the code PYTHONPATH or the benchmark's own tree holds."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from script_modules import ROOT

DATA = next((d for d in (ROOT.parent / "shared" / "data", ROOT.parent.parent / "shared" / "data") if d.exists()),
            ROOT.parent / "shared" / "data")  # where the benchmark looks


@pytest.mark.skipif(not (DATA / "aci-bench").exists(), reason="../shared/data not beside the repository")
def test_src_chooses_the_code_measured(tmp_path):
    shutil.copytree(ROOT / "src" / "clinaudit", tmp_path / "src" / "clinaudit",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_deid_origin.py"), "--halves", "none",
                          "--no-real", "--no-before", "--src", str(tmp_path / "src")],
                         env=env, capture_output=True, text=True, check=True).stdout
    assert f"after: the code of {tmp_path / 'src'}\n" in out
    default = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_deid_origin.py"), "--halves", "none",
                              "--no-real", "--no-before"], capture_output=True, text=True, check=True).stdout
    assert f"after: the code of {ROOT / 'src'}\n" in default
