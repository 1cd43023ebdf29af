"""Where clinaudit's built-in pieces are declared, read from the syntax tree (nothing is imported).

A built-in piece is declared only by its registration in its own module: a call of a registration
function (``@register_judge("incidence")``, ``register_backend("mock", ...)``) or an audit class
under ``@register_audit`` (``@register``). :func:`scan_module` reads one module with :mod:`ast`, as
inspect_ai lists ``@task`` functions without importing them, and follows how the module reached the
function: an alias (``from clinaudit.extend import register_judge as judge`` → ``@judge("x")``) or a
qualified call (``from clinaudit import extend`` → ``extend.register_judge("x")``) is found like the
plain name. :func:`scan_package` reads a whole package and refuses a name declared twice, naming
both places.

The name must be a string literal or a module-level string constant (defined in the module, or
imported from a module of the same package, as the families' ``AUDIT``); a name computed at import
(in a loop, through ``register_metric_decls``) marks the module *dynamic*: it is imported when its
kind is listed or a name misses. A module that imports a registration function and declares nothing
the scan can read is reported (:attr:`PackageScan.silent`), so a form the scan cannot follow fails a
test instead of hiding a piece.
"""

from __future__ import annotations

import ast
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["KINDS", "REGISTRATION_FUNCTIONS", "RegistryError", "Declaration", "ModuleScan", "PackageScan",
           "scan_module", "scan_package"]

KINDS = ("backend", "transform", "judge", "metric", "audit", "section", "loader", "command")

# every registration function, by the name it is defined (or re-exported) under -> the kind it registers
REGISTRATION_FUNCTIONS: dict[str, str] = {
    "register_backend": "backend",
    "register_transform": "transform",
    "register_judge": "judge",
    "register_metric": "metric",
    "register_metric_decls": "metric",
    "declare_metrics": "metric",
    "register_audit": "audit",
    "register": "audit",
    "register_section": "section",
    "register_loader": "loader",
    "register_command": "command",
}
# registration functions that register names computed at import (the module is then dynamic)
_COMPUTED = {"register_metric_decls", "declare_metrics"}
# the bare `register` is an audit decorator only when it comes from one of these modules
_AUDIT_REGISTER_HOMES = ("pipeline", "audit", "extend")
# keyword spellings of the name argument
_NAME_KEYWORDS = ("name", "prefix", "audit", "fmt")


class RegistryError(ValueError):
    """A piece is declared or registered twice under one name (the message names both places)."""


@dataclass(frozen=True)
class Declaration:
    """One registration read from the source: its kind, its name (None: computed at import), its line."""

    kind: str
    name: str | None
    line: int


@dataclass
class ModuleScan:
    """What one module declares, and whether it imports a registration function at all."""

    declarations: list[Declaration] = field(default_factory=list)
    imports_registration: bool = False  # binds a registration function (or a module holding one)
    reexports: bool = False  # a package's face: it hands registration functions on (``__init__``, ``__all__``)
    reads: list[str] = field(default_factory=list)  # other files of the package read for a constant


@dataclass
class PackageScan:
    """Per kind ``{name: module}``, the dynamic modules per kind, and the silent modules."""

    named: dict[str, dict[str, str]]
    dynamic: dict[str, tuple[str, ...]]
    silent: list[str]  # modules importing a registration function that declare nothing the scan reads


def _resolve(module: str | None, level: int, here: str, is_package: bool) -> str:
    """The absolute module an ``ImportFrom`` names, seen from module ``here``."""
    if not level:
        return module or ""
    parts = here.split(".") if is_package else here.split(".")[:-1]
    parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([module] if module else []))


def _is_ours(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".") or module == "clinaudit" \
        or module.startswith("clinaudit.")


class _Reader:
    """Resolves names, constants and registration bindings inside one module."""

    def __init__(self, tree: ast.Module, here: str, is_package: bool, package: str, root: Path | None):
        self.here, self.is_package, self.package, self.root = here, is_package, package, root
        self.functions: dict[str, str] = {}  # local name -> registration function name
        self.modules: set[str] = set()  # local names bound to one of our modules (qualified calls)
        self.constants: dict[str, str] = {}
        self.imported: dict[str, tuple[str, str]] = {}  # local name -> (module, name) for constants
        self.read: set[Path] = set()  # other files read for a constant (the scan depends on them)
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, str):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        self.constants[t.id] = node.value.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                self.constants[node.target.id] = node.value.value
        for sub in ast.walk(tree):  # lazy imports inside functions bind names too
            if isinstance(sub, ast.ImportFrom):
                source = _resolve(sub.module, sub.level, here, is_package)
                if not _is_ours(source, package):
                    continue
                for alias in sub.names:
                    local = alias.asname or alias.name
                    fn = alias.name
                    if fn in REGISTRATION_FUNCTIONS and (
                            fn != "register" or source.rsplit(".", 1)[-1] in _AUDIT_REGISTER_HOMES):
                        self.functions[local] = fn
                    elif alias.name[:1].islower():
                        self.modules.add(local)  # `from clinaudit import extend` (a module, maybe)
                    self.imported[local] = (source, alias.name)
            elif isinstance(sub, ast.Import):
                for alias in sub.names:
                    if _is_ours(alias.name, package):
                        local = alias.asname or alias.name.split(".", 1)[0]
                        self.modules.add(local)
                        if alias.asname:
                            parent, _, last = alias.name.rpartition(".")
                            self.imported[local] = (parent, last)

    def function_of(self, node: ast.expr) -> str | None:
        """The registration function ``node`` refers to: an (aliased) name, or ``module.attr`` chain."""
        if isinstance(node, ast.Name):
            return self.functions.get(node.id)
        if isinstance(node, ast.Attribute) and node.attr in REGISTRATION_FUNCTIONS:
            root: ast.expr = node.value
            chain = [node.attr]
            while isinstance(root, ast.Attribute):
                chain.append(root.attr)
                root = root.value
            if isinstance(root, ast.Name) and root.id in self.modules:
                if node.attr == "register":
                    owner = chain[1] if len(chain) > 1 else self.imported.get(root.id, ("", root.id))[1]
                    return "register" if owner in _AUDIT_REGISTER_HOMES else None
                return node.attr
        return None

    def constant(self, name: str, depth: int = 0) -> str | None:
        if name in self.constants:
            return self.constants[name]
        if name not in self.imported or self.root is None or depth > 3:
            return None
        module, attr = self.imported[name]
        path = _path_of(module, self.package, self.root)
        if path is None:
            return None
        try:
            other = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, UnicodeDecodeError):
            return None
        self.read.add(path)
        reader = _Reader(other, module, path.name == "__init__.py", self.package, self.root)
        found = reader.constant(attr, depth + 1)
        self.read |= reader.read
        return found

    def name_of(self, call: ast.Call) -> str | None:
        arg: ast.expr | None = call.args[0] if call.args else None
        if arg is None:
            arg = next((k.value for k in call.keywords if k.arg in _NAME_KEYWORDS), None)
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
        if isinstance(arg, ast.Name):
            return self.constant(arg.id)
        return None


def _path_of(module: str, package: str, root: Path) -> Path | None:
    if module != package and not module.startswith(package + "."):
        return None
    rel = module.split(".")[1:] if "." in module else []
    base = root.joinpath(*rel)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _audit_name(cls: ast.ClassDef, reader: _Reader) -> str | None:
    for node in cls.body:
        target = value = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        if isinstance(target, ast.Name) and target.id == "name" and value is not None:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
            if isinstance(value, ast.Name):
                return reader.constant(value.id)
    return None


def scan_module(source: str, module: str = "module", *, package: str = "clinaudit", root: Path | None = None,
                is_package: bool = False) -> ModuleScan:
    """The pieces one module's source declares (see the module docstring for the forms read).

    ``module`` is the module's dotted name (relative imports resolve from it); ``root`` is the
    package's folder, where a constant imported from a sibling module is read.
    """
    tree = ast.parse(source)
    reader = _Reader(tree, module, is_package, package, root)
    scan = ModuleScan(imports_registration=bool(reader.functions))
    names_all: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets):
            if isinstance(stmt.value, (ast.List, ast.Tuple)):
                names_all = {e.value for e in stmt.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    scan.reexports = is_package or bool(names_all & set(reader.functions))
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for deco in node.decorator_list:
                if not isinstance(deco, ast.Call) and reader.function_of(deco) in ("register", "register_audit"):
                    scan.declarations.append(Declaration("audit", _audit_name(node, reader), node.lineno))
        if not isinstance(node, ast.Call):
            continue
        fn = reader.function_of(node.func)
        if fn is None:
            continue
        kind = REGISTRATION_FUNCTIONS[fn]
        if fn in _COMPUTED:
            name = None
        elif kind == "audit":  # register_audit(MyAudit): the class's `name`
            arg = node.args[0] if node.args else None
            cls = classes.get(arg.id) if isinstance(arg, ast.Name) else None
            name = _audit_name(cls, reader) if cls is not None else None
        else:
            name = reader.name_of(node)
        scan.declarations.append(Declaration(kind, name, node.lineno))
    scan.declarations.sort(key=lambda d: d.line)
    scan.reads = sorted(str(p) for p in reader.read)
    return scan


def _module_name(path: Path, root: Path, package: str) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([package, *parts])


def _stamp(path: Path) -> list[int]:
    st = path.stat()
    return [st.st_mtime_ns, st.st_size]


class _ScanCache:
    """Module scans kept between processes, keyed by each file's (and its constants' files') mtime and size.

    Parsing every module costs about half a second; a scan whose files are unchanged is read back
    instead. Kept in the package's ``__pycache__`` (where Python keeps its bytecode) and, like
    bytecode, skipped where that folder cannot be written.
    """

    def __init__(self, path: Path | None):
        self.path, self.changed = path, False
        self.entries: dict[str, Any] = {}
        if path is not None:
            try:
                self.entries = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self.entries = {}

    def get(self, path: Path) -> ModuleScan | None:
        entry = self.entries.get(str(path))
        try:
            if not entry or any(_stamp(Path(f)) != s for f, s in entry["stamps"]):
                return None
        except OSError:
            return None
        return ModuleScan([Declaration(*d) for d in entry["declarations"]], entry["imports_registration"],
                          entry["reexports"], entry["reads"])

    def put(self, path: Path, scan: ModuleScan) -> None:
        try:
            stamps = [[str(f), _stamp(Path(f))] for f in (str(path), *scan.reads)]
        except OSError:
            return
        self.entries[str(path)] = {"stamps": stamps, "declarations": [[d.kind, d.name, d.line] for d in
                                                                      scan.declarations],
                                   "imports_registration": scan.imports_registration,
                                   "reexports": scan.reexports, "reads": scan.reads}
        self.changed = True

    def save(self) -> None:
        if self.path is None or not self.changed:
            return
        try:
            self.path.parent.mkdir(exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.entries), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:  # a read-only install: scan again next time
            pass


def scan_package(root: Path, package: str, *, skip: tuple[str, ...] = (), cache: Path | None = None) -> PackageScan:
    """Every declaration of the package in folder ``root`` (dotted name ``package``).

    Raises :class:`RegistryError` naming both files and lines when one name of one kind is
    declared twice. ``skip``: modules that define the registration functions themselves.
    ``cache``: a file where unchanged modules' scans are kept between processes.
    """
    kept = _ScanCache(cache)
    named: dict[str, dict[str, str]] = {k: {} for k in KINDS}
    where: dict[tuple[str, str], str] = {}
    dynamic: dict[str, list[str]] = {k: [] for k in KINDS}
    silent: list[str] = []
    for path in sorted(root.rglob("*.py")):
        module = _module_name(path, root, package)
        if module in skip:
            continue
        scan = kept.get(path)
        if scan is None:
            try:
                source = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):  # pragma: no cover - unreadable file in an install
                continue
            scan = ModuleScan()
            if any(fn in source for fn in REGISTRATION_FUNCTIONS):
                try:
                    scan = scan_module(source, module, package=package, root=root,
                                       is_package=path.name == "__init__.py")
                except SyntaxError:  # importing the module will say where; it declares nothing readable
                    continue
            kept.put(path, scan)
        if scan.imports_registration and not scan.declarations and not scan.reexports:
            silent.append(f"{path}: imports a registration function but declares nothing the index can read")
        for decl in scan.declarations:
            if decl.name is None:
                if module not in dynamic[decl.kind]:
                    dynamic[decl.kind].append(module)
                continue
            place = f"{path}:{decl.line}"
            first = where.setdefault((decl.kind, decl.name), place)
            if first != place:
                raise RegistryError(f"{decl.kind} '{decl.name}' is declared twice: {first} and {place}")
            named[decl.kind][decl.name] = module
    kept.save()
    return PackageScan(named, {k: tuple(v) for k, v in dynamic.items()}, silent)
