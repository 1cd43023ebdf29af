"""Data shipped with clinaudit: the project's own small, fictional demo data, and reference tables.

``hcup_ccs_2015_phenotypes.csv`` holds public code lists (the MIMIC-III benchmark's HCUP CCS
phenotype groups; its header names the source and licence; read it with
``clinaudit.families.hurtful_words.mimic_phenotypes``).

Every file under ``clinaudit/data/demo/`` was written for clinaudit (none is copied
from a published dataset). :func:`demo_path` finds one through
:mod:`importlib.resources`, so it works from a source checkout and from an
installed wheel alike; ``format: demo:<name>`` in a spec loads the case files.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..errors import InputError

__all__ = ["demo_path", "list_demo_files"]


def _demo_dir() -> Path:
    return Path(str(resources.files(__name__) / "demo"))


def list_demo_files() -> list[str]:
    """File names in the demo folder, sorted."""
    d = _demo_dir()
    return sorted(p.name for p in d.iterdir() if p.is_file() and not p.name.startswith("."))


def demo_path(name: str) -> Path:
    """Path of a demo file, by file name (``"vignettes.csv"``) or stem (``"vignettes"``).

    Raises :class:`~clinaudit.errors.InputError` listing the available files when
    the name matches none (or, given a stem, more than one).
    """
    d = _demo_dir()
    exact = d / name
    if name and exact.is_file():
        return exact
    files = list_demo_files()
    hits = [f for f in files if f.rsplit(".", 1)[0] == name]
    if len(hits) == 1:
        return d / hits[0]
    raise InputError(
        f"no demo file {name!r}" + (" (ambiguous)" if hits else "") + f"; available: {', '.join(files)}",
        field="demo",
    )
