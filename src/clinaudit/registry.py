"""One registry for every extension point, with lazy built-ins and entry-point plugins.

clinaudit is extended by registering named pieces of eight kinds:

==============  ============================================  =====================================
kind            what is registered                            registered by
==============  ============================================  =====================================
``backend``     a model backend class (``prefix:arg`` specs)   :func:`clinaudit.models.base.register_backend`
``transform``   a perturbation / counterfactual / setting      :func:`clinaudit.perturb.registry.register_transform`
``judge``       a judge (parses model output into labels)      :func:`register_judge`
``metric``      a plain metric function ``f(ref, alt)``        :func:`register_metric`
``audit``       an audit recipe                                :func:`clinaudit.spec.register_audit`
``section``     a report section builder for an audit          :func:`clinaudit.report.base.register_section`
``loader``      a data-source format                           :func:`clinaudit.loaders.base.register_loader`
``command``     a CLI sub-command (``register(subparsers)``)   :func:`register_command`
==============  ============================================  =====================================

Each kind is a :class:`Registry`. Built-in pieces are declared by *module*
(``name -> module that registers it``) and imported only when first asked for,
so ``clinaudit --help`` does not import torch. A separate package adds pieces of
any kind without editing clinaudit by declaring a Python entry point in the
group ``clinaudit.plugins`` whose value is a module; the module is imported the
first time any registry is listed or misses a name, and its decorators register
what it defines::

    # the plugin's pyproject.toml
    [project.entry-points."clinaudit.plugins"]
    name_swap = "clinaudit_name_swap.plugin"

See docs/extending.md.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterator, Mapping
from importlib.metadata import entry_points
from typing import Any, Generic, TypeVar

__all__ = [
    "ENTRY_POINT_GROUP",
    "Registry",
    "PluginError",
    "registry",
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


class Registry(Generic[T]):
    """Named pieces of one kind: built-ins imported lazily, plugins from entry points.

    ``builtin`` maps a name to the module that registers it. ``get(name)``
    imports that module when the name is not registered yet, then the plugins,
    and raises ``KeyError`` naming the known names when it is still missing.
    """

    def __init__(self, kind: str, builtin: Mapping[str, str] | None = None, builtin_modules: tuple[str, ...] = ()):
        self.kind = kind
        self._items: dict[str, T] = {}
        self._builtin: dict[str, str] = dict(builtin or {})
        # modules that register several names at once (e.g. all regex perturbations)
        self._builtin_modules = tuple(builtin_modules)
        self._all_builtin_loaded = False

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

    def declare(self, name: str, module: str) -> None:
        """Declare that importing ``module`` registers ``name`` (lazy built-in)."""
        self._builtin[name] = module

    def declare_module(self, module: str) -> None:
        """Declare a module that registers several names of this kind when imported."""
        if module not in self._builtin_modules:
            self._builtin_modules += (module,)
            self._all_builtin_loaded = False

    # -- lookup
    def _import(self, module: str) -> None:
        importlib.import_module(module)

    def _load_builtin(self) -> None:
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
        if name not in self._items and name in self._builtin:
            self._import(self._builtin[name])
        if name not in self._items and self._builtin_modules and not self._all_builtin_loaded:
            for mod in self._builtin_modules:
                self._import(mod)
        if name not in self._items:
            load_plugins()
        if name not in self._items:
            raise KeyError(f"unknown {self.kind} '{name}'; known: {', '.join(self.names()) or '(none)'}")
        return self._items[name]

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
        return self._builtin.get(name)

    def declared(self) -> list[str]:
        """Names known without importing anything (built-in declarations and registered items)."""
        return sorted(set(self._builtin) | set(self._items))


KINDS = ("backend", "transform", "judge", "metric", "audit", "section", "loader", "command")
_REGISTRIES: dict[str, Registry[Any]] = {k: Registry(k) for k in KINDS}


def _declare_builtin_families() -> None:
    """Declare what every built-in family provides (``clinaudit.families``; nothing heavy is imported)."""
    from .families import family_modules

    for family in family_modules():
        for kind, declared in family.PROVIDES.items():
            reg = _REGISTRIES[kind]
            if isinstance(declared, Mapping):
                for name, module in declared.items():
                    reg.declare(name, module)
            else:
                for module in declared:
                    reg.declare_module(module)


_declare_builtin_families()
# core judges used by several families (clinically justified differences, issue 19)
_REGISTRIES["judge"].declare("clinical_relevance", "clinaudit.perturb.relevance")


def registry(kind: str) -> Registry[Any]:
    """The registry of one kind (see the module table)."""
    if kind not in _REGISTRIES:
        raise KeyError(f"unknown registry kind '{kind}'; kinds: {', '.join(KINDS)}")
    return _REGISTRIES[kind]


def register_judge(name: str) -> Callable[[T], T]:
    """Register a judge (a class or factory building a judge) under ``name`` so specs can name it."""
    return registry("judge").register(name)


def register_metric(name: str) -> Callable[[T], T]:
    """Register a plain metric function ``f(ref, alt, *extra) -> per-pair scores`` under ``name``."""
    return registry("metric").register(name)


def register_command(name: str) -> Callable[[T], T]:
    """Register a CLI sub-command: a function ``register(subparsers)`` adding its parser."""
    return registry("command").register(name)
