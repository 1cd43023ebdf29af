"""Render run directories into one self-contained HTML report (plus Markdown/LaTeX table exports).

:func:`render_report` takes one or more run directories (or parents holding several,
e.g. a ``clinaudit demo`` output folder; run directories are found by their
``manifest.json``), asks each audit's section builder (:mod:`clinaudit.report.base`)
for its blocks and writes:

* ``report.html`` — one file that needs no network: CSS and a small script inline,
  figures as sanitised inline SVG, every table and every figure's numbers downloadable
  as CSV through ``data:`` links. A Content-Security-Policy allows only the page's own
  script (by hash), so even markup that slipped into the page could not run;
* ``report.md`` and ``tables.tex`` — every :class:`~clinaudit.report.base.Table` as a
  Markdown and a LaTeX (booktabs) table, next to the HTML;
* ``findings.json`` and ``findings.csv`` — the page's first section, *Findings*: the effects that
  survive their correction family across all runs, ranked, plus "inconclusive" ones
  (:mod:`.findings`; rules and schema in docs/report.md).

Model output is untrusted: every string reaches the page through Jinja2 with
autoescaping on. The only markup the renderer produces itself is the SVG of
figures, which is parsed and re-serialised (comments, scripts, event handlers and
external references removed) before it is inlined.

A section that cannot be built never breaks the report: the section shows the error
(escaped) and the run's tables instead.

This module finds the run directories and assembles the page; the parts live in
:mod:`.runs` (one run: manifest, overview, section views), :mod:`.views` (one view
per block type), :mod:`.formatting` (cells, CIs, CSV downloads), :mod:`.svg`
(figure sanitising), :mod:`.textdiff` (Compare diffs), :mod:`.exports`
(Markdown and LaTeX tables) and :mod:`.findings` (the Findings section and its files).
"""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..family_index import audit_order
from .examples import finding_examples
from .exports import latex_export, markdown_export
from .findings import derive_findings, findings_view, link_anchors, write_findings
from .verdict_view import link_verdicts
from .formatting import format_value
from .glossary import DIRECTION, GLOSSARY, abbr
from .runs import audit_of, load_run, read_manifest, run_overview, toc_entries
from .views import PageIds
from ..atomic import write_text

__all__ = [
    "render_report",
    "build_report",
    "discover_run_dirs",
    "AUDIT_ORDER",
    "ReportFiles",
]

#: Order of audit sections in a report: the built-in families' audits in family order, then the
#: `generate` command's runs (plugins' audits follow, by path).
AUDIT_ORDER = audit_order() + ["generate"]

_TEMPLATES = Path(__file__).parent / "templates"
#: a section shows its first this many charts; later ones are behind a click ("Chart: …")
FIGURES_SHOWN = 2
#: ... and its first this many tables; later ones are behind a click ("Table: …"), so the page stays readable
TABLES_SHOWN = 4


# --------------------------------------------------------------------------- discovery

def discover_run_dirs(paths: Path | str | Sequence[Path | str]) -> list[Path]:
    """Run directories named by ``paths``: each path itself when it holds ``manifest.json``,
    otherwise every run directory below it (at most three levels down), audits in
    :data:`AUDIT_ORDER`. Raises :class:`~clinaudit.errors.InputError` when a path holds none."""
    from ..errors import InputError

    if isinstance(paths, (str, Path)):
        paths = [paths]
    found: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise InputError("no such run directory", file=str(p))
        if p.is_file() and p.name == "manifest.json":
            p = p.parent
        if (p / "manifest.json").is_file():
            found.append(p)
            continue
        below = [m.parent for depth in ("*", "*/*", "*/*/*") for m in sorted(p.glob(f"{depth}/manifest.json"))
                 if not any(part.startswith(".") for part in m.relative_to(p).parts)]
        if not below:
            raise InputError("not a run directory (no manifest.json in it or below it)", file=str(p))
        below.sort(key=lambda d: (_audit_rank(audit_of(read_manifest(d))), str(d)))
        found.extend(below)
    out: list[Path] = []
    for d in found:
        if d.resolve() not in {x.resolve() for x in out}:
            out.append(d)
    return out


def _audit_rank(audit: str) -> int:
    return AUDIT_ORDER.index(audit) if audit in AUDIT_ORDER else len(AUDIT_ORDER)


# --------------------------------------------------------------------------- main

@dataclass
class ReportFiles:
    """Paths written by :func:`build_report`."""

    html: Path
    markdown: Path
    latex: Path
    failed_sections: list[str] = field(default_factory=list)
    findings_json: Path | None = None
    findings_csv: Path | None = None
    downloads: list[Path] = field(default_factory=list)  # CSVs too large to inline, in <stem>-files/


def _default_out(paths: Sequence[Path | str]) -> Path:
    if len(paths) == 1 and Path(paths[0]).is_dir():
        return Path(paths[0]) / "report.html"
    return Path("report.html")


def _templates_env() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
        autoescape=True,  # every template, whatever its suffix
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = format_value
    env.filters["abbr"] = abbr
    return env


def build_report(
    run_dirs: Path | str | Sequence[Path | str],
    out: Path | str | None = None,
    title: str | None = None,
    *,
    notes: Sequence[str] = (),
) -> ReportFiles:
    """Render the report and its exports; returns the paths written.

    ``notes`` are shown (escaped) at the top of the summary, e.g. audits the demo could not run.
    """
    from markupsafe import Markup

    from .. import __version__

    paths = [run_dirs] if isinstance(run_dirs, (str, Path)) else list(run_dirs)
    dirs = discover_run_dirs(paths)
    out_path = Path(out) if out is not None else _default_out(paths)
    if out_path.is_dir():
        out_path = out_path / "report.html"
    out_path.parent.mkdir(parents=True, exist_ok=True)
    files_dir = out_path.parent / f"{out_path.stem}-files"
    for stale in files_dir.glob("*.csv") if files_dir.is_dir() else []:
        stale.unlink()  # downloads of an earlier render of this report
    ids = PageIds(files_dir)
    ids.used.update({"findings", "summary", "toc", "top", "footer", "glossary"})
    runs = [load_run(d, ids) for d in dirs]
    audits = [r.audit for r in runs]
    if title is None:
        title = ("clinaudit report: " + ", ".join(dict.fromkeys(a.replace("_", " ") for a in audits))) if audits \
            else "clinaudit report"
    generated = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    overview = [run_overview(r) for r in runs]
    totals = {k: sum(o[k] for o in overview) for k in ("calls", "cache_hits", "failures", "tokens", "retries")}
    findings_doc, findings_paths, examples = _findings(runs, out_path, ids)
    script = (_TEMPLATES / "report.js").read_text(encoding="utf-8").strip()
    css = (_TEMPLATES / "report.css").read_text(encoding="utf-8")
    script_hash = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    env = _templates_env()
    html = env.get_template("report.html.j2").render(
        title=title, generated=generated, version=__version__, runs=runs, overview=overview, totals=totals,
        toc=[{"anchor": r.anchor, "title": (r.section.title if r.section is not None else r.audit),
              "failed": r.section is None, "entries": toc_entries(r)} for r in runs],
        notes=list(notes), findings=findings_view(findings_doc, examples), glossary=GLOSSARY, direction=DIRECTION,
        figures_shown=FIGURES_SHOWN, tables_shown=TABLES_SHOWN,
        # our own static CSS/JS (no model text): inlined verbatim; the CSP allows only this script's hash
        css=Markup(css), script=Markup(script), script_hash=script_hash,
    )
    write_text(out_path, html)  # atomically (clinaudit.atomic): the previous report or the new one
    md_path = out_path.with_suffix(".md")
    tex_path = out_path.parent / ("tables.tex" if out_path.stem == "report" else f"{out_path.stem}-tables.tex")
    write_text(md_path, markdown_export(title, runs, generated, findings_doc))
    write_text(tex_path, latex_export(title, runs, generated))
    return ReportFiles(html=out_path, markdown=md_path, latex=tex_path,
                       failed_sections=[f"{r.audit} ({r.path})" for r in runs if r.section is None],
                       findings_json=findings_paths[0], findings_csv=findings_paths[1], downloads=list(ids.files))


def _findings(runs: list[Any], out_path: Path, ids: PageIds
              ) -> tuple[dict[str, Any], tuple[Path | None, Path | None], dict[int, list[dict[str, Any]]]]:
    """The report's findings (:mod:`.findings`) with their side-by-side examples (:mod:`.examples`),
    written as ``findings.json``/``findings.csv`` next to the HTML (``<stem>-findings.*`` for another
    ``--out`` name). A failure shows in the section, never breaks the report."""
    import traceback

    stem = "findings" if out_path.stem == "report" else f"{out_path.stem}-findings"
    try:
        doc = derive_findings([r.path for r in runs], audits=[r.audit for r in runs])
        link_anchors(doc, runs)
        link_verdicts(doc, runs)
        examples = finding_examples(doc, runs, ids)
    except Exception as exc:  # noqa: BLE001 - the report still renders
        doc = derive_findings([])
        doc["error"] = f"findings could not be derived: {type(exc).__name__}: {exc}\n{traceback.format_exc()}"
        return doc, (None, None), {}
    # outside the try: a write that fails (a full disk) is an error naming its file, not "findings not derived"
    paths = write_findings(doc, out_path.parent / f"{stem}.json", out_path.parent / f"{stem}.csv")
    return doc, (paths[0], paths[1]), examples


def render_report(run_dirs: Path | str | list, out: Path | None = None, title: str | None = None) -> Path:
    """Render one self-contained HTML report from run directories; returns the HTML path.

    ``run_dirs``: a run directory, a folder holding several (found by their
    ``manifest.json``), or a list of either. ``out`` defaults to ``RUN_DIR/report.html``
    for a single directory argument, else ``./report.html``. ``report.md`` and
    ``tables.tex`` (every table of the report), ``findings.json`` and ``findings.csv`` are written next to it.
    """
    return build_report(run_dirs, out, title).html
