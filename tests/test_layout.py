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


def _state_set_on_self(path: Path) -> list[str]:
    """``self.<attr> = ...`` (or ``+=``, annotated) in a method other than ``__init__`` of a class deriving
    from ``Audit`` (or of ``Audit`` itself): run data carried from one stage to a later one on the instance;
    and any use of ``self.__dict__`` there (state kept behind the attributes' back)."""
    found = []
    for cls in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(cls, ast.ClassDef) or not (
                cls.name == "Audit" or any("Audit" in ast.unparse(b) for b in cls.bases)):
            continue
        for fn in cls.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name == "__init__":
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Attribute) and node.attr == "__dict__" and isinstance(node.value, ast.Name) \
                        and node.value.id == "self":
                    found.append(f"{cls.name}.{fn.name} (line {node.lineno}): self.__dict__")
                targets = node.targets if isinstance(node, ast.Assign) else (
                    [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
                for t in targets:
                    for e in ast.walk(t):
                        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
                            found.append(f"{cls.name}.{fn.name} (line {node.lineno}): self.{e.attr}")
    return found


def test_audit_stages_hand_data_on_not_through_self():
    """A stage reads what earlier stages produced from its argument and ``self.stages`` (docs/extending.md),
    never from attributes an earlier stage set on the audit; ``__init__`` may keep read-only configuration."""
    example = ROOT.parents[1] / "examples" / "plugin" / "clinaudit_name_swap" / "__init__.py"
    paths = [ROOT / "pipeline" / "audit.py"] + sorted((ROOT / "families").rglob("*.py")) + (
        [example] if example.exists() else [])
    audits, offending = 0, {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if "Audit" not in text:
            continue
        rel = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else "examples/plugin"
        audits += "@register" in text and "(Audit" in text
        found = _state_set_on_self(path)
        if found:
            offending[rel] = found
    assert audits >= 8  # the four audit.py files, hurtful_words' three audits and the plugin example
    assert not offending, offending


def test_state_scan_finds_assignments_outside_init(tmp_path):
    src = tmp_path / "a.py"
    src.write_text("class A(Audit[P]):\n    def __init__(self, ctx):\n        self.seed = 1\n"
                   "    def cases(self):\n        self.prep = 1\n        self.n += 1\n        x = self.seed\n"
                   "class B:\n    def cases(self):\n        self.prep = 1\n"
                   "class Audit:\n    def judge(self):\n        self.__dict__.setdefault('juries', [])\n")
    assert _state_set_on_self(src) == ["A.cases (line 5): self.prep", "A.cases (line 6): self.n",
                                       "Audit.judge (line 13): self.__dict__"]


STAGE_METHODS = ("cases", "variants", "calls", "judgments", "paired", "results")


def _names(node: ast.expr) -> set[str]:
    """Every name an annotation uses, string annotations ('Shifts | None') read too."""
    out: set[str] = set()
    for x in ast.walk(node):
        if isinstance(x, ast.Name):
            out.add(x.id)
        elif isinstance(x, ast.Constant) and isinstance(x.value, str):
            out |= _names(ast.parse(x.value, mode="eval").body)
    return out


def _untyped_stages(path: Path) -> tuple[int, list[str]]:
    """Per registered audit class: its ``Audit[...]`` base must name all seven type parameters (params and
    what each stage hands on) and no stage signature may say ``Any`` (docs/architecture.md, typed stages)."""
    audits, found = 0, []
    for cls in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(cls, ast.ClassDef) or not any(
                ast.unparse(d) in ("register", "register_audit") for d in cls.decorator_list):
            continue
        audits += 1
        base = next((b for b in cls.bases if isinstance(b, ast.Subscript) and ast.unparse(b.value) == "Audit"), None)
        args = base.slice.elts if base is not None and isinstance(base.slice, ast.Tuple) else []
        if len(args) != 7:
            found.append(f"{cls.name}: Audit[...] names {len(args)} of its 7 type parameters")
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and fn.name in STAGE_METHODS:
                notes = [a.annotation for a in fn.args.args[1:]] + [fn.returns]
                if any(n is None or "Any" in _names(n) for n in notes):
                    found.append(f"{cls.name}.{fn.name}: untyped or Any in its signature")
        found += [f"{cls.name}: Any in its stage types ({ast.unparse(arg)})" for arg in args if "Any" in _names(arg)]
    return audits, found


def test_every_builtin_audit_types_its_stage_data():
    example = ROOT.parents[1] / "examples" / "plugin" / "clinaudit_name_swap" / "__init__.py"
    audits, found = 0, []
    for path in sorted((ROOT / "families").rglob("*.py")) + [example]:
        n, f = _untyped_stages(path)
        audits, found = audits + n, found + f
    assert audits >= 8
    assert found == []


def test_untyped_stage_scan_finds_any_and_missing_parameters(tmp_path):
    src = tmp_path / "a.py"
    src.write_text("@register\nclass A(Audit[P]):\n    def variants(self, cases: Any) -> list[V]: ...\n"
                   "@register_audit\nclass B(Audit[P, C, V, None, 'dict[str, Any]', D, E]):\n"
                   "    def paired(self, j: J) -> D: ...\n")
    assert _untyped_stages(src) == (2, ["A: Audit[...] names 0 of its 7 type parameters",
                                        "A.variants: untyped or Any in its signature",
                                        "B: Any in its stage types ('dict[str, Any]')"])
