"""The report's tables as Markdown (``report.md``) and LaTeX (``tables.tex``).

Cells are as printed in the HTML report. Model text cannot form Markdown links or
images, nor escape a LaTeX comment line.
"""

from __future__ import annotations

import re
from typing import Any

from .formatting import slug
from .views import RunInfo

__all__ = ["markdown_export", "latex_export"]


def _md_cell(s: Any) -> str:
    """Table cell text for report.md (``to_markdown`` adds the Markdown escapes)."""
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_MD_TEXT_SPECIAL = re.compile(r"([\\\[\]])")


def _md_text(s: Any) -> str:
    """Heading/caption text for report.md: like :func:`_md_cell`, plus ``\\ [ ]`` escaped so that no link
    or image (``[x](javascript:...)``) can form, and on one line."""
    text = _md_cell(s).replace("\r", " ").replace("\n", " ")
    return _MD_TEXT_SPECIAL.sub(r"\\\1", text)


def _tex_comment(s: Any) -> str:
    """Text for a LaTeX ``%`` comment line: one line, so nothing after it can become LaTeX code."""
    return re.sub(r"[\r\n\f\v\x85\u2028\u2029]+", " ", str(s))


def _tex_label(s: Any) -> str:
    return re.sub(r"[^A-Za-z0-9_.:-]+", "-", str(s)) or "x"


def markdown_export(title: str, runs: list[RunInfo], generated: str,
                    findings: dict[str, Any] | None = None) -> str:
    """report.md: the Findings (``findings``, the document of :func:`~clinaudit.report.findings.derive_findings`),
    when given, then every table of every run."""
    from ..export import to_markdown

    title = _md_text(title)
    parts = [f"# {title}", "", f"Tables of the clinaudit report generated {generated}. Cells are as printed in "
             "the HTML report (fractions as %, CIs merged); `<` and `>` in model text are escaped as HTML entities.",
             ""]
    if findings is not None:
        parts += ["## Findings", ""]
        if findings.get("headline"):
            parts += [f"**{_md_text(findings['headline'])}**", ""]
        lines = findings.get("verdicts") or []
        runs_of = findings.get("runs") or []
        for r in runs_of:  # how far de-identification reached: a fact of the run, said once, before the verdicts
            if r.get("deid_reach"):
                name = f"_{_md_text(r.get('title') or r.get('audit') or r.get('run_dir', ''))}_: " \
                    if len(runs_of) > 1 else ""
                parts += [name + " ".join(_md_text(x) for x in r["deid_reach"]), ""]
        parts += [f"- {_md_text(v.get('audit', ''))} · {_md_text(v.get('model', '') or '–')}: "
                  f"**{_md_text(v.get('label', ''))}** — {_md_text(v.get('sentence', ''))}"
                  + "".join(f" ({_md_text(x)})" for x in v.get("sample_skew") or [])
                  + "".join(f" (not measured: {_md_text(x)})" for x in v.get("not_measured") or []) for v in lines]
        if lines:
            parts.append("")
        found = findings.get("findings") or []
        nothing = bool(lines) and all(v.get("verdict") == "not_measured" for v in lines)
        parts += [f"{e['rank']}. {_md_text(e['sentence'])}" for e in found] or [
            "_No findings: nothing was measured._" if nothing else
            "_No effect is significant within its correction family._"]
        parts.append("")
        unsure = findings.get("inconclusive") or []
        if unsure:
            parts += ["### Inconclusive", ""] + [f"{e['rank']}. {_md_text(e['sentence'])}" for e in unsure] + [""]
    for info in runs:
        heading = info.section.title if info.section is not None else f"{info.audit} (section unavailable)"
        parts += [f"## {_md_text(heading)}", "", f"Run directory: {_md_text(info.path)}", ""]
        if not info.tables:
            parts += ["_No tables._", ""]
        for ttitle, disp, caption, _stem in info.tables:
            parts += [f"### {_md_text(ttitle)}", ""]
            if caption:
                parts += [_md_text(caption), ""]
            try:
                md_df = disp.map(_md_cell)
                md_df.columns = [_md_cell(" · ".join(c) if isinstance(c, tuple) else c) for c in md_df.columns]
                parts += [to_markdown(md_df, index=False), ""]
            except Exception as exc:  # noqa: BLE001
                parts += [f"_table could not be exported: {type(exc).__name__}: {exc}_", ""]
    return "\n".join(parts)


def latex_export(title: str, runs: list[RunInfo], generated: str) -> str:
    from ..export import to_latex

    parts = [f"% {_tex_comment(title)}: tables exported by clinaudit ({generated}).",
             "% Needs \\usepackage{booktabs}. Cells are as printed in the HTML report.", ""]
    for info in runs:
        parts.append(f"% ---- {_tex_comment(info.audit)}: {_tex_comment(info.path)}")
        for ttitle, disp, caption, stem in info.tables:
            cap = ttitle + (f". {caption}" if caption else "")
            try:
                parts += [to_latex(disp, caption=cap, label=f"tab:{_tex_label(info.audit)}:{slug(stem)}"), ""]
            except Exception as exc:  # noqa: BLE001
                parts += [f"% table '{_tex_comment(ttitle)}' could not be exported: {type(exc).__name__}", ""]
    return "\n".join(parts)
