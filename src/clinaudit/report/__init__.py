"""HTML report: one self-contained file from one or more run directories.

* :func:`render_report` - run directories -> ``report.html`` (+ ``report.md``, ``tables.tex``),
  assembled by :mod:`clinaudit.report.render` from :mod:`~clinaudit.report.runs`,
  :mod:`~clinaudit.report.views`, :mod:`~clinaudit.report.formatting`, :mod:`~clinaudit.report.svg`,
  :mod:`~clinaudit.report.textdiff` and :mod:`~clinaudit.report.exports`;
* :mod:`clinaudit.report.base` - the blocks a section is made of and the section registry;
* :mod:`clinaudit.report.sections` - one section builder per audit.
"""

from __future__ import annotations

from typing import Any

__all__ = ["render_report", "build_report", "discover_run_dirs"]


def __getattr__(name: str) -> Any:  # lazy: importing clinaudit.report stays light
    if name in __all__:
        from . import render

        return getattr(render, name)
    raise AttributeError(name)
