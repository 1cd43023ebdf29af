"""One registry for every extension point: built-ins and plugins declare pieces the same way.

clinaudit is extended by registering named pieces of eight kinds, each with one decorator
(or call) that a built-in module and a plugin module use alike:

==============  ============================================  =====================================
kind            what is registered                            registered by
==============  ============================================  =====================================
``backend``     a model backend class (``prefix:arg`` specs)   :func:`clinaudit.models.base.register_backend`
``transform``   a perturbation / counterfactual / setting      :func:`clinaudit.perturb.registry.register_transform`
``judge``       a judge (parses model output into labels)      :func:`register_judge`
``metric``      a metric (a function ``f(ref, alt)`` or a      :func:`register_metric`
                declaration object)
``audit``       an audit (an ``Audit`` subclass)               :func:`clinaudit.pipeline.register`
``section``     a report section builder for an audit          :func:`clinaudit.report.base.register_section`
``loader``      a data-source format                           :func:`clinaudit.loaders.base.register_loader`
``command``     a CLI sub-command (``register(subparsers)``)   :func:`register_command`
==============  ============================================  =====================================

Each kind is a :class:`Registry`; :func:`registry` returns it and each kind's module has a
typed lookup (``get_transform``, ``get_backend``, ``get_recipe``, ``get_section_builder`` ...).

**Built-ins.** A built-in piece is declared only in its own module, by its registration
decorator or call, e.g. ``@register_judge("incidence")``. The registry finds these
declarations by *reading* clinaudit's source (:func:`builtin_index`; nothing is imported)
and imports a module the first time one of its pieces is asked for, so ``clinaudit --help``
imports nothing heavy and adding a piece touches no list. The name must be a string
literal or a module-level constant (``AUDIT = "note_generation"``); an audit is an
``@register`` class whose ``name`` is one. A module that registers names computed at
import time (in a loop, or through a helper such as ``declare_metrics``) is imported when
its kind is listed or a name misses.

**Plugins.** A separate package declares a Python entry point in the group
``clinaudit.plugins`` whose value is a module; the module is imported the first time any
registry is listed or misses a name, and the same decorators register what it defines::

    # the plugin's pyproject.toml
    [project.entry-points."clinaudit.plugins"]
    name_swap = "clinaudit_name_swap.plugin"

A miss raises ``KeyError`` naming the known names and the closest one ("did you mean").
See docs/extending.md.
"""

from __future__ import annotations

import difflib
import importlib
import logging
import re
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, overload

if TYPE_CHECKING:  # pragma: no cover - the typed lookups only
    from .loaders.base import Loader
    from .models.base import BackendEntry
    from .perturb.registry import Transform
    from .pipeline.estimate import AuditRecipe
    from .report.base import SectionBuilder

__all__ = [
    "ENTRY_POINT_GROUP",
    "Registry",
    "PluginError",
    "registry",
    "builtin_index",
    "load_plugins",
    "loaded_plugins",
    "register_judge",
    "register_metric",
    "register_command",
    "KINDS",
]

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "clinaudit.plugins"

T = TypeVar("T")


class PluginError(RuntimeError):
    """A plugin entry point could not be loaded (the message names it and why)."""


_PLUGINS: dict[str, str] = {}  # entry-point name -> module, once loaded
_PLUGIN_ERRORS: dict[str, str] = {}
_PLUGINS_LOADED = False


def load_plugins(force: bool = False) -> dict[str, str]:
    """Import every module declared in the ``clinaudit.plugins`` entry-point group (once).

    A plugin that fails to import is logged and remembered (``loaded_plugins``
    reports it); it does not break clinaudit's own pieces.
    """
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED and not force:
        return dict(_PLUGINS)
    _PLUGINS_LOADED = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _PLUGINS and not force:
            continue
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plugin must not break the rest
            msg = f"plugin '{ep.name}' ({ep.value}) failed to load: {type(exc).__name__}: {exc}"
            _PLUGIN_ERRORS[ep.name] = msg
            log.warning(msg)
            continue
        if callable(obj) and not isinstance(obj, type):
            # an entry point may name a function `setup()` instead of a module
            try:
                obj()
            except Exception as exc:
                msg = f"plugin '{ep.name}' ({ep.value}) failed in its setup: {type(exc).__name__}: {exc}"
                _PLUGIN_ERRORS[ep.name] = msg
                log.warning(msg)
                continue
        _PLUGINS[ep.name] = ep.value
    return dict(_PLUGINS)


def loaded_plugins() -> dict[str, Any]:
    """``{"loaded": {name: value}, "errors": {name: message}}`` after loading the plugins."""
    load_plugins()
    return {"loaded": dict(_PLUGINS), "errors": dict(_PLUGIN_ERRORS)}


KINDS = ("backend", "transform", "judge", "metric", "audit", "section", "loader", "command")

# -- the built-in index: declarations read from clinaudit's source, nothing imported --------------
_PACKAGE_DIR = Path(__file__).resolve().parent
_PACKAGE = __name__.rsplit(".", 1)[0]
# `@register_judge("x")`, `register_transform(\n "x", ...)`, `@register_section(AUDIT)` at a line's start
_CALL = re.compile(r"^[ \t]*@?register_(?P<kind>[a-z]+)\(\s*(?:(?P<q>[\"'])(?P<lit>[^\"'\n]+)(?P=q)|(?P<ident>[A-Za-z_]\w*))?",
                   re.MULTILINE)
# helpers that register several pieces of one kind at once (names computed at import)
_HELPERS = {"declare_metrics": "metric"}  # clinaudit.metrics.declared.declare_metrics(audit, *decls)
_HELPER_CALL = re.compile(r"^[ \t]*(?:[A-Za-z_]\w*(?:\s*:[^=\n]*)?\s*=\s*)?(?P<fn>" + "|".join(_HELPERS) + r")\(",
                          re.MULTILINE)
# an audit: `@register` on a class whose body sets `name = "x"` (or a module constant)
_AUDIT_CLASS = re.compile(r"^@register[ \t]*\n(?:@.*\n)*class\s+\w+", re.MULTILINE)
_CLASS_NAME = re.compile(r"^[ \t]+name(?:\s*:[^=\n]*)?\s*=\s*(?:(?P<q>[\"'])(?P<lit>[^\"'\n]+)(?P=q)|(?P<ident>[A-Za-z_]\w*))",
                         re.MULTILINE)


_DOCSTRING = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')


def _constant(source: str, ident: str | None, path: Path | None = None) -> str | None:
    """The string a module-level constant holds: defined in ``source``, or imported from a sibling module."""
    if not ident:
        return None
    m = re.search(rf"^{re.escape(ident)}(?:\s*:[^=\n]*)?\s*=\s*([\"'])([^\"'\n]+)\1", source, re.MULTILINE)
    if m:
        return m.group(2)
    imp = re.search(rf"^from \.(\w+) import (?:\([^)]*|[^\n]*)\b{re.escape(ident)}\b", source, re.MULTILINE)
    if imp and path is not None:
        sibling = path.parent / f"{imp.group(1)}.py"
        try:
            return _constant(sibling.read_text(encoding="utf-8"), ident)
        except OSError:
            return None
    return None


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(_PACKAGE_DIR).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([_PACKAGE, *parts])


def scan_declarations(source: str, path: Path | None = None) -> list[tuple[str, str | None]]:
    """The ``(kind, name)`` pieces one module's source declares (``name`` None: computed at import).

    Examples inside docstrings (triple-quoted strings) are not declarations.
    """
    found: list[tuple[str, str | None]] = []
    source = _DOCSTRING.sub('""', source)
    for m in _CALL.finditer(source):
        kind = m.group("kind")
        if kind not in KINDS:
            continue
        name = m.group("lit") or _constant(source, m.group("ident"), path)
        found.append((kind, name))
    for m in _HELPER_CALL.finditer(source):
        found.append((_HELPERS[m.group("fn")], None))
    for m in _AUDIT_CLASS.finditer(source):
        body = _CLASS_NAME.search(source, m.end())
        name = None
        if body is not None:
            name = body.group("lit") or _constant(source, body.group("ident"), path)
        found.append(("audit", name))
    return found


@lru_cache(maxsize=1)
def builtin_index() -> dict[str, tuple[dict[str, str], tuple[str, ...]]]:
    """Per kind, ``({name: module}, modules that register computed names)`` of clinaudit's own pieces.

    Read from the package's source files (a few milliseconds; nothing is imported), so a built-in
    piece is declared by its registration in its own module and nowhere else.
    """
    named: dict[str, dict[str, str]] = {k: {} for k in KINDS}
    dynamic: dict[str, list[str]] = {k: [] for k in KINDS}
    for path in sorted(_PACKAGE_DIR.rglob("*.py")):
        if path.name == "registry.py" and path.parent == _PACKAGE_DIR:
            continue  # this module defines the decorators; it declares nothing
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):  # pragma: no cover - unreadable file in an install
            continue
        if "register" not in source and not any(helper in source for helper in _HELPERS):
            continue
        module = _module_name(path)
        for kind, name in scan_declarations(source, path):
            if name is None:
                if module not in dynamic[kind]:
                    dynamic[kind].append(module)
            else:
                named[kind].setdefault(name, module)
    return {k: (named[k], tuple(dynamic[k])) for k in KINDS}


class Registry(Generic[T]):
    """Named pieces of one kind: built-ins imported lazily, plugins from entry points.

    ``builtin`` maps a name to the module that registers it, ``builtin_modules`` lists modules
    that register several (computed) names; the kind registries of :func:`registry` take both
    from :func:`builtin_index`. ``get(name)`` imports the module declared for ``name`` when it
    is not registered yet, then the plugins, and raises ``KeyError`` naming the known names
    (and the closest one) when it is still missing.
    """

    def __init__(self, kind: str, builtin: Mapping[str, str] | None = None, builtin_modules: tuple[str, ...] = (),
                 *, from_index: bool = False):
        self.kind = kind
        self._items: dict[str, T] = {}
        self._builtin: dict[str, str] = dict(builtin or {})
        self._builtin_modules = tuple(builtin_modules)
        self._indexed = not from_index  # True once the built-in index has been merged in
        self._all_builtin_loaded = False

    def _ensure_index(self) -> None:
        if self._indexed:
            return
        self._indexed = True
        named, modules = builtin_index().get(self.kind, ({}, ()))
        for name, module in named.items():
            self._builtin.setdefault(name, module)
        self._builtin_modules += tuple(m for m in modules if m not in self._builtin_modules)

    # -- registration
    def add(self, name: str, item: T) -> T:
        if not isinstance(name, str) or not name:
            raise ValueError(f"a {self.kind} needs a non-empty name")
        self._items[name] = item
        return item

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator: ``@registry("judge").register("my_judge")``."""

        def deco(obj: T) -> T:
            self.add(name, obj)
            return obj

        return deco

    # -- lookup
    def _import(self, module: str) -> None:
        importlib.import_module(module)

    def _load_builtin(self) -> None:
        self._ensure_index()
        if self._all_builtin_loaded:
            return
        self._all_builtin_loaded = True
        for mod in self._builtin_modules:
            self._import(mod)
        for name, mod in sorted(self._builtin.items()):
            if name not in self._items:
                try:
                    self._import(mod)
                except ModuleNotFoundError as exc:  # optional extra not installed
                    if exc.name != mod:
                        log.debug("built-in %s '%s' unavailable: %s", self.kind, name, exc)

    def get(self, name: str) -> T:
        self._ensure_index()
        if name not in self._items and name in self._builtin:
            self._import(self._builtin[name])
        if name not in self._items and self._builtin_modules and not self._all_builtin_loaded:
            for mod in self._builtin_modules:
                self._import(mod)
        if name not in self._items:
            load_plugins()
        if name not in self._items:
            raise KeyError(self.unknown(name))
        return self._items[name]

    def did_you_mean(self, name: str) -> str:
        """``"; did you mean 'y'?"`` naming the known name closest to ``name``, or ``""`` when none is close."""
        close = difflib.get_close_matches(name, self.names(), n=1, cutoff=0.6) if isinstance(name, str) else []
        return f"; did you mean '{close[0]}'?" if close else ""

    def unknown(self, name: str) -> str:
        """``unknown judge 'x'; known: a, b; did you mean 'y'?`` (the message of a miss)."""
        return f"unknown {self.kind} '{name}'; known: {', '.join(self.names()) or '(none)'}{self.did_you_mean(name)}"

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __getitem__(self, name: str) -> T:
        return self.get(name)

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        try:
            self.get(name)
        except KeyError:
            return False
        return True

    def names(self) -> list[str]:
        """Every name of this kind: built-ins (imported), then plugins; sorted."""
        self._load_builtin()
        load_plugins()
        return sorted(set(self._items))

    def items(self) -> Iterator[tuple[str, T]]:
        for name in self.names():
            if name in self._items:
                yield name, self._items[name]

    def module_of(self, name: str) -> str | None:
        """The module declared to register the built-in ``name`` (None for plugins and unknown names)."""
        self._ensure_index()
        return self._builtin.get(name)

    def declared(self) -> list[str]:
        """Names known without importing anything (built-in declarations and registered items)."""
        self._ensure_index()
        return sorted(set(self._builtin) | set(self._items))


_REGISTRIES: dict[str, Registry[Any]] = {k: Registry(k, from_index=True) for k in KINDS}


@overload
def registry(kind: Literal["backend"]) -> Registry[BackendEntry]: ...
@overload
def registry(kind: Literal["transform"]) -> Registry[Transform]: ...
@overload
def registry(kind: Literal["audit"]) -> Registry[AuditRecipe]: ...
@overload
def registry(kind: Literal["section"]) -> Registry[SectionBuilder]: ...
@overload
def registry(kind: Literal["loader"]) -> Registry[tuple[Loader, str]]: ...
@overload
def registry(kind: Literal["judge", "metric", "command"]) -> Registry[Any]: ...
@overload
def registry(kind: str) -> Registry[Any]: ...
def registry(kind: str) -> Registry[Any]:
    """The registry of one kind (see the module table), typed per kind: ``registry("transform").get(name)``
    is a :class:`~clinaudit.perturb.registry.Transform` to the type checker (as inspect_ai's
    ``registry_create`` overloads are)."""
    if kind not in _REGISTRIES:
        raise KeyError(f"unknown registry kind '{kind}'; kinds: {', '.join(KINDS)}")
    return _REGISTRIES[kind]


def register_judge(name: str) -> Callable[[T], T]:
    """Register a judge (a class or factory building a judge) under ``name`` so specs can name it."""
    return registry("judge").register(name)


def register_metric(name: str, declaration: Any = None) -> Any:
    """Register a metric under ``name``.

    As a decorator (``@register_metric("tsr")``) it registers the decorated object, a plain
    function ``f(ref, alt, *extra) -> per-pair scores`` or a declaration; called with a
    declaration object (``register_metric("tsr", MetricDeclaration(...))``) it registers that
    object and returns it. Either form, written in a built-in module, is found by the index.
    """
    if declaration is not None:
        return registry("metric").add(name, declaration)
    return registry("metric").register(name)


def register_command(name: str) -> Callable[[T], T]:
    """Register a CLI sub-command: a function ``register(subparsers)`` adding its parser."""
    return registry("command").register(name)
