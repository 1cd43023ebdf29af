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

from ..family_index import audit_order, family_modules, family_of

__all__ = ["family_modules", "family_of", "audit_order"]
