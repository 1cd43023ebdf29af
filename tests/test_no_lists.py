"""No list of pieces in the package: a piece is declared by its own registration, and nothing enumerates them.

A module-level tuple, list, set or dict (keys) that names two or more registered audits, backends, commands,
sections or judges declared in other modules stands in for the registry: adding a piece would mean editing it.
(Transforms, metrics and loaders are not scanned: a module keeps the prompts and descriptions of its own
transforms, the transforms an audit applies by default are its design, and a dataset name that equals a
loader's format is data.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import clinaudit
from clinaudit.registry import builtin_index

ROOT = Path(clinaudit.__file__).resolve().parent
KINDS = ("audit", "backend", "command", "section", "judge")


def _strings(node: ast.expr | None) -> list[str]:
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if isinstance(node, ast.Dict):
        return [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    if isinstance(node, ast.Call) and node.args:  # frozenset({...}), tuple([...]), dict(...)
        return _strings(node.args[0])
    return []


def lists_of_pieces(root: Path, package: str, index: dict[str, tuple[dict[str, str], tuple[str, ...]]]) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        module = ".".join([package, *(parts[:-1] if parts[-1] == "__init__" else parts)])
        for stmt in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                continue
            names = _strings(stmt.value)
            for kind in KINDS:
                declared = index[kind][0]
                elsewhere = sorted({n for n in names if n in declared and declared[n] != module})
                if len(elsewhere) >= 2:
                    target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
                    found.append(f"{path.relative_to(root)}:{stmt.lineno} {ast.unparse(target)}: {kind}s "
                                 f"{', '.join(elsewhere)}")
    return found


def test_the_package_holds_no_list_of_pieces():
    assert lists_of_pieces(ROOT, "clinaudit", builtin_index()) == []


def test_the_scan_finds_a_list_of_another_package_s_pieces(tmp_path):
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "main.py").write_text('FIRST = ("init", "run")\nOWN = ("mine_a", "mine_b")\n'
                                            'ONE = {"init": 1}\n')
    index = {k: ({}, ()) for k in ("transform", "metric", "loader", *KINDS)}
    index["command"] = ({"init": "pkg.cli.init_cmd", "run": "pkg.cli.core", "mine_a": "pkg.cli.main",
                         "mine_b": "pkg.cli.main"}, ())
    assert lists_of_pieces(tmp_path, "pkg", index) == ["cli/main.py:1 FIRST: commands init, run"]
