"""benchmarks/deid_vignettes.py: what de-identification changes in the shared vignettes and patient messages
(issue 50, twentieth session). Needs ``../shared/data``; skipped without it."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("deid_vignettes", ROOT / "benchmarks" / "deid_vignettes.py")
assert _spec and _spec.loader
dv = importlib.util.module_from_spec(_spec)
sys.modules["deid_vignettes"] = dv
_spec.loader.exec_module(dv)

pytestmark = pytest.mark.skipif(not (dv.DATA / "craft-md").exists(), reason="no ../shared/data")


def _rows(fmt: str, path: Path, pattern: str, n: int = 6) -> list[dict]:
    cases = [c for c in dv.load(fmt, path) if re.search(pattern, c.text)][:n]
    assert cases, pattern
    return dv.measure(cases)["rows"]


@pytest.mark.parametrize("pattern", [r"Cl-: \d", r"β-hCG", r"μU/mL", r"T-wave", r"doesn’t"])
def test_craftmd_notation_is_kept(pattern: str) -> None:
    for r in _rows("craftmd", dv.DATA / "craft-md" / "usmle_and_derm_dataset.csv", pattern):
        assert re.findall(pattern, r["after"]) == re.findall(pattern, r["before"])


def test_medperturb_codes_and_origins_are_kept() -> None:
    rows = _rows("medperturb", dv.DATA / "medperturb" / "data.csv", r"Ethnicity: White British|21 Male, Indian")
    for r in rows:
        assert "White British" in r["after"] or "Indian" in r["after"]
    cases = dv.load("medperturb", dv.DATA / "medperturb" / "data.csv")[:5]
    from clinaudit.pipeline.identifiers import remove_listed_names

    for before, after in zip(cases, remove_listed_names(cases), strict=True):
        assert after.fields["dataset"] == before.fields["dataset"]
        assert after.fields["pair_id"] == before.fields["pair_id"]


def test_paired_counts() -> None:
    a = [{"id": "1", "masks": 0}, {"id": "2", "masks": 1}, {"id": "3", "masks": 2}]
    b = [{"id": "1", "masks": 0}, {"id": "2", "masks": 2}, {"id": "4", "masks": 2}]
    assert dv._paired(a, b, lambda r: r["id"]) == (2, 1)


@pytest.mark.slow
def test_the_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert dv.main([]) == 0
    out = capsys.readouterr().out
    assert "| CRAFT-MD, held-out rows (odd) |" in out and "MedPerturb askadoc arm 1 vs arm 5" in out
    assert "Fisher's exact test" in out
