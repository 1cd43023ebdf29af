"""Data sources and the loader registry.

A data source is declared in a spec (or built in Python) as::

    data:
      - format: mts            # mts | aci | craftmd | medperturb | csv | jsonl | demo:<name> | ...
        path: ../shared/data/mts-dialog/MTS-Dialog-ValidationSet.csv
        limit: 5               # first N cases after filtering (optional)
        ids: [ ... ]           # keep only these case ids (optional)
        columns: {id: ID, text: dialogue}   # generic formats: column mapping
        options: {}            # loader-specific options

Each format has one loader function ``(source) -> list[Case]`` registered with
:func:`register_loader`; bad input raises :class:`~clinaudit.errors.InputError`
naming the file, row and field.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, overload

from pydantic import BaseModel, ConfigDict, Field

from ..errors import InputError
from ..records import Case
from ..registry import Registry, origin_of, registry

__all__ = ["DataSource", "register_loader", "load_cases", "load_sources", "list_loaders", "resolve_path"]


class DataSource(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: str
    path: str | None = None
    limit: int | None = Field(default=None, ge=1)
    ids: list[str] | None = None
    columns: dict[str, str] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    #: CSV field separator (one character, e.g. ";" or "\t"); default: guessed from the header (comma first)
    delimiter: str | None = Field(default=None, min_length=1, max_length=1)
    name: str | None = None  # dataset label in outputs (default: format or file stem)
    # columns whose values identify the person in the text (names): kept in fields["identifiers"] and removed
    # from the text wherever they occur by de-identification (docs/data-formats.md)
    identifiers: list[str] = Field(default_factory=list)

    def resolved_path(self, base_dir: Path | None = None) -> Path | None:
        return resolve_path(self.path, base_dir)


@overload
def resolve_path(path: str | Path, base_dir: Path | None = None) -> Path: ...
@overload
def resolve_path(path: None, base_dir: Path | None = None) -> None: ...
def resolve_path(path: str | Path | None, base_dir: Path | None = None) -> Path | None:
    """``path`` with ``~`` expanded; a relative path is taken relative to ``base_dir`` (the spec's folder)."""
    if path is None:
        return None
    p = Path(path).expanduser()
    if not p.is_absolute() and base_dir is not None:
        p = base_dir / p
    return p


Loader = Callable[[DataSource, Path | None], list[Case]]
# The shared registry of data formats (clinaudit.registry, kind "loader"): format -> (loader, summary).
# Each built-in format's module declares it with @register_loader (imported on first use); plugins
# add more by entry point.
_LOADERS: Registry[tuple[Loader, str]] = registry("loader")


def register_loader(fmt: str, summary: str) -> Callable[[Loader], Loader]:
    def deco(fn: Loader) -> Loader:
        _LOADERS.add(fmt, (fn, summary), origin=origin_of(fn))
        return fn

    return deco


def list_loaders() -> dict[str, str]:
    return {k: v[1] for k, v in _LOADERS.items()}


def load_cases(source: DataSource, base_dir: Path | None = None) -> list[Case]:
    """Load, filter by ``ids`` and cut to ``limit``."""
    fmt = source.format.split(":", 1)[0]
    if fmt not in _LOADERS:
        raise InputError(f"unknown data format '{source.format}'; known formats: {', '.join(sorted(_LOADERS))}"
                         f"{_LOADERS.did_you_mean(fmt)}", field="format")
    path = source.resolved_path(base_dir)
    if path is not None and not path.exists():
        raise InputError("file not found", file=str(path))
    cases = _LOADERS[fmt][0](source, path)
    if not cases and path is not None:
        raise InputError("no cases: the file has no data rows (or every row was skipped)", file=str(path))
    if source.identifiers:
        cases = _collect_identifiers(cases, source.identifiers, path)
    if source.ids is not None:
        wanted = set(map(str, source.ids))
        cases = [c for c in cases if c.case_id in wanted]
    if source.limit is not None:
        cases = cases[: source.limit]
    return cases


def _collect_identifiers(cases: list[Case], columns: list[str], path: Path | None) -> list[Case]:
    """Move the ``identifiers:`` columns of each case's fields into ``fields["identifiers"]``."""
    missing = [c for c in columns if not any(c in case.fields for case in cases)]
    if missing:
        avail = sorted({k for case in cases for k in case.fields if k != "identifiers"})
        raise InputError(f"identifier column(s) {missing} not found; available columns: {', '.join(avail)}",
                         file=str(path) if path else None, field="identifiers")
    out = []
    for case in cases:
        fields = dict(case.fields)
        ids = dict(fields.get("identifiers") or {})
        for col in columns:
            value = fields.pop(col, None)
            if value is not None and str(value).strip():
                ids[col] = str(value).strip()
        fields["identifiers"] = ids
        out.append(case.model_copy(update={"fields": fields}))
    return out


def _ids_are_row_numbers(cases: list[Case]) -> bool:
    """True when a source's ids are its row numbers (no id column: generic csv/jsonl without ``columns.id``)."""
    return bool(cases) and all(c.source_row is not None and c.case_id == str(c.source_row) for c in cases)


def load_sources(sources: list[DataSource], base_dir: Path | None = None) -> list[Case]:
    """All cases of several data sources, with case ids unique across them.

    A source without an id column gets its row numbers as ids ("1", "2", ...); with
    more than one source those ids are namespaced by the source's dataset name
    (``patients:1``), so two such files are never silently merged. Any id that still
    occurs in two sources (the same file listed twice, or two files sharing ids) is an
    :class:`~clinaudit.errors.InputError` naming both files and rows; give the sources
    distinct ``name:`` values or ids.
    """
    per_source = [load_cases(src, base_dir) for src in sources]
    if len(per_source) > 1:
        for i, cases in enumerate(per_source):
            if _ids_are_row_numbers(cases):
                per_source[i] = [c.model_copy(update={"case_id": f"{c.dataset}:{c.case_id}"}) for c in cases]
    seen: dict[str, tuple[int, Case]] = {}
    out: list[Case] = []
    for i, cases in enumerate(per_source):
        for c in cases:
            if c.case_id in seen and seen[c.case_id][0] != i:
                j, first = seen[c.case_id]
                raise InputError(
                    f"case id {c.case_id!r} occurs in two data sources: data[{j}] ({first.source or first.dataset}, "
                    f"row {first.source_row}) and data[{i}] ({c.source or c.dataset}, row {c.source_row}); "
                    "list each file once, or give the sources distinct ids (or distinct `name:` values when "
                    "the ids are row numbers)",
                    file=c.source or None, row=c.source_row, field=f"data[{i}]")
            seen.setdefault(c.case_id, (i, c))
            out.append(c)
    return out
