"""The built-in audit families, seen from the core: which there are, in their ``ORDER``, and the order of
their audits (the report's section order).

The core (report, demo) reads this module, on the ground floor, instead of the ``clinaudit.families``
package above it: the family packages are found and imported by name (:mod:`importlib`), so no
import runs back up the floors. ``clinaudit.families`` hands the same functions on.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

__all__ = ["family_modules", "family_of", "audit_order"]

FAMILIES = "clinaudit.families"


def family_modules() -> list[ModuleType]:
    """The built-in family packages, in their ``ORDER`` (their ``__init__`` holds declarations only)."""
    package = importlib.import_module(FAMILIES)
    mods = [importlib.import_module(f"{FAMILIES}.{info.name}") for info in pkgutil.iter_modules(package.__path__)
            if info.ispkg]
    return sorted(mods, key=lambda m: (getattr(m, "ORDER", 100), m.__name__))


def family_of(module: str | None) -> str | None:
    """The built-in family a module belongs to (``clinaudit.families.<name>....`` -> name), else None."""
    prefix = f"{FAMILIES}."
    if not module or not module.startswith(prefix):
        return None
    return module[len(prefix):].split(".", 1)[0]


def audit_order() -> list[str]:
    """Built-in audit names in family order, then by name (the report's section order)."""
    from .registry import builtin_index

    declared, _ = builtin_index()["audit"]
    rank = {m.__name__.rsplit(".", 1)[1]: i for i, m in enumerate(family_modules())}
    audits = [(rank[fam], name) for name, module in declared.items()
              if (fam := family_of(module)) is not None and fam in rank]
    return [name for _, name in sorted(audits)]
