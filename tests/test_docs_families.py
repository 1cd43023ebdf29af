"""docs/architecture.md's two family tables are held against the package: no list there drifts from the code."""

from __future__ import annotations

import re
from pathlib import Path

import clinaudit
from clinaudit.families import family_modules, family_of
from clinaudit.registry import builtin_index

ROOT = Path(clinaudit.__file__).resolve().parent
DOC = ROOT.parents[1] / "docs" / "architecture.md"


def _table(header_start: str) -> list[list[str]]:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[i:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return [rows[0]] + rows[2:]  # without the |---| line


def _ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _families() -> list[str]:
    return [m.__name__.rsplit(".", 1)[1] for m in family_modules()]


def test_family_table_names_every_family_and_its_audits():
    rows = _table("| family | paper | audits |")[1:]
    declared: dict[str, set[str]] = {}
    for audit, module in builtin_index()["audit"][0].items():
        if family_of(module):
            declared.setdefault(family_of(module) or "", set()).add(audit)
    assert [_ticked(r[0])[0] for r in rows] == _families()  # every family, in ORDER
    assert {_ticked(r[0])[0]: set(_ticked(r[2])) for r in rows} == declared


def test_rooms_table_has_a_column_per_family_and_names_files_that_exist():
    rows = _table("| room |")
    assert rows[0][1:] == _families()
    missing = []
    for row in rows[1:]:
        for family, cell in zip(rows[0][1:], row[1:]):
            for name in _ticked(cell):
                if name.endswith(".py") and "/" not in name and not (ROOT / "families" / family / name).exists():
                    missing.append(f"{row[0]}: {family}/{name}")
                elif name.startswith("tests/") and not (ROOT.parents[1] / name).exists():
                    missing.append(f"{row[0]}: {name}")
    assert missing == []
