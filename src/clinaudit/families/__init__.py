"""The built-in audit families, one package each, on the shared core.

========================  =========================================================  =====
family                    audits                                                     paper
========================  =========================================================  =====
``treatment_shift``       treatment shift under non-clinical perturbations            001
``note_generation``       counterfactual note generation, stereotype incidence         000
``reasoning_care``        the CARE reasoning audit (gender quadruplets)               003
``hurtful_words``         association (log-probability bias) and classifier gaps      004
``adaptive_attack``       adaptive attacker (non-clinical rewrites until a flip)      beyond
========================  =========================================================  =====

Each family's ``__init__`` only *declares* what it provides (``PROVIDES``: registry
kind -> ``{name: module}`` for named pieces, or a list of modules that register
several pieces when imported, and ``COMMANDS``: CLI modules with ``register(subparsers)``);
:mod:`clinaudit.registry` reads the declarations, and nothing heavy is imported until a
piece is asked for. A plugin family outside clinaudit uses the entry-point group
``clinaudit.plugins`` instead (docs/extending.md).
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["BUILTIN_FAMILIES", "family_modules", "audit_order"]

#: the built-in families, in the order the CLI help and the report list them
BUILTIN_FAMILIES = ("treatment_shift", "note_generation", "reasoning_care", "hurtful_words", "adaptive_attack")


def family_modules() -> list[ModuleType]:
    """The built-in family packages (their ``__init__`` holds declarations only)."""
    return [importlib.import_module(f"{__name__}.{name}") for name in BUILTIN_FAMILIES]


def audit_order() -> list[str]:
    """Built-in audit names in family order (the report's section order)."""
    return [audit for fam in family_modules() for audit in fam.PROVIDES.get("audit", {})]
