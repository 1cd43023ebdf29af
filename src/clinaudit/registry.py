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
declarations in clinaudit's syntax trees (:mod:`clinaudit.discovery`, :func:`builtin_index`;
nothing is imported; an aliased or qualified registration function is followed) and imports a
module the first time one of its pieces is asked for, so ``clinaudit --help`` imports nothing
heavy and adding a piece touches no list. The name must be a string literal or a module-level
constant (``AUDIT = "note_generation"``); an audit is an ``@register`` class whose ``name`` is
one. A module that registers names computed at import time (in a loop, or through
``declare_metrics``) is imported when its kind is listed or a name misses. A name declared
twice is a :class:`RegistryError` naming both files; so is registering a second piece under a
registered name at run time, or a plugin's piece under a built-in's name.

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
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar, cast, overload

from .discovery import KINDS, PackageScan, RegistryError, scan_package

__all__ = [
    "ENTRY_POINT_GROUP",
    "Registry",
    "RegistryError",
    "builtin_scan",
    "origin_of",
    "registry",
    "builtin_index",
    "load_plugins",
    "loaded_plugins",
    "register_judge",
    "register_metric",
    "register_command",
    "Command",
    "KINDS",
]

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "clinaudit.plugins"

T = TypeVar("T")


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


# -- the built-in index: declarations read from clinaudit's syntax tree, nothing imported --------
_PACKAGE_DIR = Path(__file__).resolve().parent
_PACKAGE = __name__.rsplit(".", 1)[0]


@lru_cache(maxsize=1)
def builtin_scan() -> PackageScan:
    """Every declaration of clinaudit's own modules (:func:`clinaudit.discovery.scan_package`), once."""
    cache = _PACKAGE_DIR / "__pycache__" / f"registry-index.{sys.implementation.cache_tag}.json"
    return scan_package(_PACKAGE_DIR, _PACKAGE, skip=(__name__,), cache=cache)


def builtin_index() -> dict[str, tuple[dict[str, str], tuple[str, ...]]]:
    """Per kind, ``({name: module}, modules that register computed names)`` of clinaudit's own pieces.

    Read from the package's syntax trees (a few tens of milliseconds; nothing is imported), so a
    built-in piece is declared by its registration in its own module and nowhere else; a name
    declared twice raises :class:`RegistryError` naming both files.
    """
    scan = builtin_scan()
    return {k: (dict(scan.named[k]), scan.dynamic[k]) for k in KINDS}


def origin_of(obj: object) -> str | None:
    """``module:qualname`` of a class or function (what registered a piece), None for other objects."""
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    return f"{module}:{qualname}" if isinstance(module, str) and isinstance(qualname, str) else None


def caller_origin(what: str, depth: int = 2) -> str:
    """``module:what`` naming the module that called a registration function (for a piece that is an
    object, not a class or function); ``depth`` frames up from the caller of this function."""
    frame = sys._getframe(depth)
    return f"{frame.f_globals.get('__name__', '?')}:{what}"


def _file_of(origin: str) -> str:
    module = sys.modules.get(origin.split(":", 1)[0])
    return str(getattr(module, "__file__", None) or origin.split(":", 1)[0])


class Registry(Generic[T]):
    """Named pieces of one kind: built-ins imported lazily, plugins from entry points.

    The built-ins come from :func:`builtin_index` (a name -> the module that declares it, and the
    modules that register computed names). ``get(name)`` imports the module declared for ``name``
    when it is not registered yet, then the plugins, and raises ``KeyError`` naming the known names
    (and the closest one) when it is still missing. A name is registered once: a second piece under
    it (another class or function, or a plugin's piece under a built-in's name) is a
    :class:`RegistryError` naming both.
    """

    def __init__(self, kind: str):
        self.kind = kind
        self._items: dict[str, T] = {}
        self._origins: dict[str, str | None] = {}
        self._all_builtin_loaded = False

    @property
    def _builtin(self) -> dict[str, str]:
        return builtin_scan().named.get(self.kind, {})

    @property
    def _builtin_modules(self) -> tuple[str, ...]:
        return builtin_scan().dynamic.get(self.kind, ())

    # -- registration
    def add(self, name: str, item: T, *, origin: str | None = None) -> T:
        """Register ``item`` as ``name``. ``origin`` (``module:qualname``, default: the item's own) says
        what registers it; registering the same origin again (a reloaded module) replaces the item."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"a {self.kind} needs a non-empty name")
        origin = origin or origin_of(item)
        if name in self._items:
            old = self._origins.get(name)
            if old is None or origin is None or old != origin:
                if not (old is None and origin is None and self._items[name] is item):
                    raise RegistryError(
                        f"{self.kind} '{name}' is registered twice: by {old or repr(self._items[name])} "
                        f"({_file_of(old) if old else 'unknown file'}) and by {origin or repr(item)} "
                        f"({_file_of(origin) if origin else 'unknown file'})")
        declared = self._builtin.get(name)
        if declared is not None and origin is not None and origin.split(":", 1)[0] != declared:
            raise RegistryError(
                f"{self.kind} '{name}' is a built-in of clinaudit (declared in {declared}, "
                f"{_file_of(declared + ':')}); {origin} ({_file_of(origin)}) cannot register it again: "
                f"give the piece a name of its own")
        self._items[name] = item
        self._origins[name] = origin
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
        return self._builtin.get(name)


_REGISTRIES: dict[str, Registry[Any]] = {k: Registry(k) for k in KINDS}


@overload
def registry(kind: Literal["command"]) -> Registry[Command]: ...
@overload
def registry(kind: str) -> Registry[Any]: ...
def registry(kind: str) -> Registry[Any]:
    """The registry of one kind (see the module table). Each kind's own module holds its typed handle
    (``models.base._BACKENDS: Registry[BackendEntry]``, ``perturb.registry``'s ``Registry[Transform]`` ...)
    and typed lookups (``get_backend``, ``get_transform`` ...), so this ground-floor module imports none
    of them."""
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
        return registry("metric").add(name, declaration, origin=caller_origin(f"register_metric({name!r})"))
    return registry("metric").register(name)


#: where a command registered without ``order=`` comes in ``clinaudit --help``: after the built-ins
PLUGIN_COMMAND_ORDER = 1000


@dataclass(frozen=True)
class Command:
    """A registered sub-command: ``add(subparsers)`` adds its parser; ``order`` places it in ``--help``."""

    name: str
    add: Callable[[Any], Any]
    order: int = PLUGIN_COMMAND_ORDER
    progress: bool = True  # False: it only lists what is installed (no progress bars, no --no-progress)

    def __call__(self, subparsers: Any) -> Any:
        return self.add(subparsers)


def register_command(name: str, *, order: int = PLUGIN_COMMAND_ORDER, progress: bool = True) -> Callable[[T], T]:
    """Register the CLI sub-command ``name``: a function ``add(subparsers)`` adding that one parser.

    ``order`` places it in ``clinaudit --help`` (ascending, then by name). The built-ins use 10-99 for
    the core's first commands (init, models, audits, judges, run, generate, perturbations, perturb),
    the family's ``ORDER`` × 10 + its position for a family's (treatment_shift 110, note_generation
    210, ...), 900-999 for the core's last (report, demo, compare, gate, view); a plugin's come after them.
    ``progress=False`` for a command that only lists what is installed: it gets no ``--no-progress``.
    """

    def deco(add: T) -> T:
        registry("command").add(name, Command(name, cast(Callable[[Any], Any], add), order, progress), origin=origin_of(add))
        return add

    return deco
