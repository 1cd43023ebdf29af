"""The built-in audit families, one package each, on the shared core.

A family is a package here (:func:`family_modules` finds them; each package's docstring says what it
audits, and docs/architecture.md's family tables are checked against them by tests/test_docs_families.py);
its modules register their pieces (audits, judges, sections,
commands, metrics ...) with the same decorators a plugin uses, and :mod:`clinaudit.registry`
finds those declarations without importing anything heavy. A family's ``__init__`` holds
its docstring and ``ORDER`` (where its audits come in the report; its commands give their own
``order=``); no family imports another, and no module outside ``families/``
imports a family's modules. A plugin family outside clinaudit uses the entry-point group
``clinaudit.plugins`` instead (docs/extending.md).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

__all__ = ["family_modules", "family_of", "audit_order"]


def family_modules() -> list[ModuleType]:
    """The built-in family packages, in their ``ORDER`` (their ``__init__`` holds declarations only)."""
    mods = [importlib.import_module(f"{__name__}.{info.name}") for info in pkgutil.iter_modules(__path__)
            if info.ispkg]
    return sorted(mods, key=lambda m: (getattr(m, "ORDER", 100), m.__name__))


def family_of(module: str | None) -> str | None:
    """The built-in family a module belongs to (``clinaudit.families.<name>....`` -> name), else None."""
    prefix = f"{__name__}."
    if not module or not module.startswith(prefix):
        return None
    return module[len(prefix):].split(".", 1)[0]


def audit_order() -> list[str]:
    """Built-in audit names in family order, then by name (the report's section order)."""
    from ..registry import builtin_index

    declared, _ = builtin_index()["audit"]
    rank = {m.__name__.rsplit(".", 1)[1]: i for i, m in enumerate(family_modules())}
    audits = [(rank[fam], name) for name, module in declared.items()
              if (fam := family_of(module)) is not None and fam in rank]
    return [name for _, name in sorted(audits)]
