"""The project's own demo cases (format ``demo:<name>``; no path needed).

Each demo file is read by its own format's loader.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import InputError
from ..records import Case
from .base import DataSource, register_loader
from .craftmd import load_craftmd
from .dialog_formats import load_aci, load_mts
from .formats import load_csv

__all__ = ["load_demo", "DEMO_SOURCES"]


# --------------------------------------------------------------------------- demo data

# demo name -> (file, format, column mapping)
DEMO_SOURCES: dict[str, tuple[str, str, dict[str, str]]] = {
    "patient_messages": ("patient_messages.csv", "csv", {"id": "case_id", "text": "message"}),
    "vignettes": ("vignettes.csv", "craftmd", {}),
    "dialogs": ("dialogs.csv", "mts", {}),
    "dialogs_aci": ("dialogs_aci.csv", "aci", {}),
}
_DEMO_LOADERS: dict[str, Callable[[DataSource, Path | None], list[Case]]] = {
    "csv": load_csv, "craftmd": load_craftmd, "mts": load_mts, "aci": load_aci,
}


@register_loader("demo", "the project's own demo cases: demo:patient_messages | demo:vignettes | demo:dialogs | "
                         "demo:dialogs_aci")
def load_demo(source: DataSource, path: Path | None) -> list[Case]:
    """Demo data shipped with clinaudit (``format: demo:<name>``; no path needed).

    Each demo file is read by its own format's loader; ``options`` pass through.
    """
    from ..data import demo_path

    _, _, name = source.format.partition(":")
    if name not in DEMO_SOURCES:
        raise InputError(f"unknown demo data {name!r}; available: "
                         + ", ".join(f"demo:{n}" for n in DEMO_SOURCES), field="format")
    file, fmt, columns = DEMO_SOURCES[name]
    inner = source.model_copy(update={
        "format": fmt,
        "path": None,
        "columns": {**columns, **source.columns},
        "name": source.name or f"demo:{name}",
    })
    return _DEMO_LOADERS[fmt](inner, demo_path(file))
