"""Layout rules the package keeps (docs/architecture.md): no family imports another, and no module
outside ``families/`` imports a family's modules (the core reaches families only through the registry)."""

from __future__ import annotations

import ast
from pathlib import Path

import clinaudit

ROOT = Path(clinaudit.__file__).resolve().parent


def _imports(path: Path, module: str) -> set[str]:
    pkg = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.add(target)
            out.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_no_family_imports_another_and_the_core_imports_none():
    families = {p.name for p in (ROOT / "families").iterdir() if (p / "__init__.py").exists()}
    assert {"treatment_shift", "note_generation", "reasoning_care", "hurtful_words", "adaptive_attack"} <= families
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        own = parts[2] if len(parts) > 2 and parts[1] == "families" else None
        for target in _imports(path, module):
            bits = target.split(".")
            if len(bits) >= 3 and bits[:2] == ["clinaudit", "families"] and bits[2] in families and bits[2] != own:
                found.append(f"{module} imports {target}")
    assert found == []
