"""``benchmarks/run_all.py``: each benchmark's RATIO lines; a failure or a missing ratio line fails the run, a
benchmark that cannot run here (exit 77, what it needs not installed) is reported skipped and fails nothing."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run_all(tmp_path: Path, benches: dict[str, str]) -> subprocess.CompletedProcess:
    shutil.copy(ROOT / "benchmarks" / "run_all.py", tmp_path / "run_all.py")
    for name, body in benches.items():
        (tmp_path / f"bench_{name}.py").write_text(body, encoding="utf-8")
    return subprocess.run([sys.executable, str(tmp_path / "run_all.py")], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)


def test_a_skipped_benchmark_fails_nothing(tmp_path):
    proc = _run_all(tmp_path, {
        "a": "print('RATIO bench_a: 1.00x')\n",
        "b": "import sys\nprint('spaCy is not importable here', file=sys.stderr)\nsys.exit(77)\n"})
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.splitlines() == ["RATIO bench_a: 1.00x", "SKIPPED bench_b.py: spaCy is not importable here"]


def test_a_failure_or_no_ratio_line_fails_the_run(tmp_path):
    proc = _run_all(tmp_path, {"a": "raise SystemExit('broken')\n", "c": "print('done')\n"})
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == ["FAILED bench_a.py (exit 1): broken", "NO RATIO LINE bench_c.py"]
