"""The Python (notebook) API: build a spec, run it, read a run directory as pandas DataFrames.

The same work as the CLI (``clinaudit run``, ``clinaudit report``), for notebooks and scripts
(walk-through: docs/python-api.md)::

    import clinaudit

    spec = clinaudit.make_spec("examples/treatment_shift-mock.yaml")   # or a dict
    res = clinaudit.run_audit(spec, "runs/ts-mock")                     # a RunResults
    res.findings          # DataFrame: the effects that survive their correction family
    res.metrics           # DataFrame: tables/results.csv
    res.report()          # RUN_DIR/report.html

    res = clinaudit.open_run("runs/ts-mock")      # an existing run directory
    runs = clinaudit.open_runs("runs/demo")       # every run directory below a folder (RunSet)
    cmp = clinaudit.compare_runs("runs/v1", "runs/v2", out="runs/v1-vs-v2")   # B vs A, per metric
    gate = clinaudit.gate_run("runs/v2", baseline="runs/v1")   # pass / fail / not_gateable (exit_code)

Nothing here computes anything new: specs are validated by :mod:`clinaudit.spec`, runs by
:func:`clinaudit.pipeline.run_spec`, findings by :mod:`clinaudit.report.findings`, responses are read
through :func:`clinaudit.pipeline.normalize_responses` and reports rendered by
:func:`clinaudit.report.render_report`. Tables are read fresh from the run directory on each access.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import InputError, SpecError

__all__ = ["make_spec", "run_audit", "open_run", "open_runs", "compare_runs", "gate_run", "RunResults", "RunSet",
           "STANDARD_TABLES", "NotMeasuredWarning", "verdicts_frame", "deid_reach"]

#: The tables every run directory has (docs/architecture.md), each with its documented key columns.
STANDARD_TABLES = ("cases", "variants", "responses", "judgments", "paired", "results", "exclusions")

_SHOWN = 20  # findings shown by _repr_html_ (the rest are counted)


# --------------------------------------------------------------------------- specs

def _merge(base: dict[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``changes``: ``params`` and ``backends`` merged key by key, other fields replaced."""
    out = dict(base)
    for key, val in changes.items():
        if key in ("params", "backends") and isinstance(val, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = {**out[key], **val}
        else:
            out[key] = val
    return out


def make_spec(source: str | Path | Mapping[str, Any] | Any, **changes: Any) -> Any:
    """A validated :class:`clinaudit.spec.AuditSpec` from a YAML path, a dict or another spec.

    ``changes`` replace top-level fields (``name=``, ``seed=``, ``data=``, ``models=`` ...); ``params=`` and
    ``backends=`` are merged key by key into the spec's own. Errors are :class:`~clinaudit.errors.SpecError`
    naming the source and field (``params.seeds[1]``).

    Relative paths inside a YAML spec are taken from the YAML file's folder only when the path itself is
    given to :func:`run_audit`; in a spec built here they are taken from the current directory.
    """
    from .spec import AuditSpec, load_spec, parse_spec_dict

    if isinstance(source, AuditSpec):
        data, where = source.model_dump(mode="json"), "<spec>"
    elif isinstance(source, Mapping):
        data, where = dict(source), "<dict>"
    elif isinstance(source, (str, Path)):
        spec, _ = load_spec(source)
        if not changes:
            return spec
        data, where = spec.model_dump(mode="json"), str(source)
    else:
        raise SpecError(f"make_spec: expected a YAML path, a dict or an AuditSpec, got {type(source).__name__}")
    spec, _ = parse_spec_dict(_merge(data, changes), source=where)
    return spec


def run_audit(spec: str | Path | Mapping[str, Any] | Any, out: str | Path, *, force: bool = False,
              resume: bool = False, progress: bool = False, limit: int | None = None) -> RunResults:
    """Run a spec (YAML path, dict or :class:`~clinaudit.spec.AuditSpec`) into the run directory ``out``,
    as ``clinaudit run SPEC --out OUT`` does, and open the result.

    Re-running into the same ``out`` reuses its cache (no model call is made twice). A directory holding a
    run of another spec is refused (:class:`~clinaudit.rundir.RunDirReuseError`) unless ``force``.
    ``progress`` shows the progress bars (off by default: they clutter notebook output). ``limit`` audits
    only the first ``limit`` cases (``clinaudit run --limit``).
    """
    from .spec import AuditSpec
    from .pipeline import run_spec

    if isinstance(spec, Mapping):
        spec = make_spec(spec)
    elif not isinstance(spec, (AuditSpec, str, Path)):
        raise SpecError(f"run_audit: expected a YAML path, a dict or an AuditSpec, got {type(spec).__name__}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise SpecError(f"run_audit: limit must be an integer >= 1, got {limit!r}")
    rundir = run_spec(spec, out, progress=progress, force=force, resume=resume, command="clinaudit.run_audit",
                      limit=limit)
    status = str(rundir.manifest.get("status", ""))
    if status.startswith("not measured"):  # the CLI exits 3; from Python the run says so, loudly
        import warnings

        warnings.warn(f"clinaudit: {status}", NotMeasuredWarning, stacklevel=2)
    return RunResults(rundir.path)


class NotMeasuredWarning(UserWarning):
    """A run measured nothing (a validity gate failed): its status is ``not measured: <why>``."""


# --------------------------------------------------------------------------- reading run directories

def _read_csv(path: Path) -> pd.DataFrame:
    """A run-directory table as the run store reads it (empty cells -> NaN, the text "NA" kept)."""
    try:
        from .rundir import read_store_table

        return read_store_table(path)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    except (ValueError, pd.errors.ParserError) as exc:
        raise InputError(f"unreadable table: {exc}", file=str(path)) from None


def _with_columns(df: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """``df`` with at least ``columns`` (missing ones added empty, in order), its own columns after them."""
    if df.shape[1] == 0:
        return pd.DataFrame(columns=list(columns))
    out = df.copy()
    for c in columns:
        if c not in out.columns:
            out[c] = pd.NA
    return out[list(columns) + [c for c in out.columns if c not in columns]]


def _key_columns(name: str) -> list[str]:
    from .exclusions import EXCLUSION_COLUMNS
    from .pipeline.stages import LAYOUTS, RESPONSE_COLUMNS
    from .stats.results import RESULT_COLUMNS

    if name == "results":
        return list(RESULT_COLUMNS)
    if name == "responses":
        return list(RESPONSE_COLUMNS)
    if name == "exclusions":
        return list(EXCLUSION_COLUMNS)
    return list(LAYOUTS[name].keys) if name in LAYOUTS else []


def _esc(value: Any) -> str:
    return html.escape("" if value is None or (isinstance(value, float) and value != value) else str(value),
                       quote=True)


def verdicts_frame(doc: Mapping[str, Any]) -> pd.DataFrame:
    """The verdict lines of a findings document (one per audit × model) as a table."""
    cols = ["audit", "model", "verdict", "label", "sentence", "cases_used", "cases_given", "judge", "parsed", "items",
            "parse_rate", "sample_skew", "run_dir"]
    rows = [{c: ("; ".join(line.get(c) or []) if c == "sample_skew" else line.get(c)) for c in cols}
            for line in doc.get("verdicts", []) or []]
    return pd.DataFrame(rows, columns=cols)


def deid_reach(run: str | Path | RunResults) -> dict[str, Any]:
    """How far a run's de-identification reached, as its report says once above the verdicts
    (:func:`clinaudit.deid_reach.run_reach`): ``counts`` (the manifest summary's ``deid_reach``: ``cases``,
    ``lower``, ``cased``, ``mode``, ``deidentified``; None for a run that read no case text), ``sentences`` and
    ``warn`` (per sentence: whether it says names may have reached the audited model)."""
    from .deid_reach import run_reach

    return run_reach(run.path if isinstance(run, RunResults) else run)


def _reach_html(doc: Mapping[str, Any] | None) -> list[str]:
    """How far each run's de-identification reached, as the report says it above the verdicts table (one paragraph
    per distinct statement, the runs that make it named; a warning in red): escaped HTML."""
    from .report.verdict_view import reach_view

    out = []
    for block in reach_view(dict(doc or {})):
        who = ", ".join(str(n["name"]) for n in block["names"])
        said = " ".join(f"<span style='color:#b00020'>{_esc(s['text'])}</span>" if s["warn"] else _esc(s["text"])
                        for s in block["sentences"])
        out.append(f"<p>{f'<em>{_esc(who)}</em>: ' if who else ''}{said}</p>")
    return out


def _findings_html(frame: pd.DataFrame, heading: str, doc: Mapping[str, Any] | None = None) -> str:
    """The verdicts and findings (a findings table) as escaped HTML: every string from the run is escaped."""
    found = frame[frame["kind"] == "finding"]
    unsure = frame[frame["kind"] == "inconclusive"]
    parts = [f"<div class='clinaudit-results'><strong>{_esc(heading)}</strong>"]
    if doc is not None and doc.get("headline"):
        parts.append(f"<p><strong>{_esc(doc['headline'])}</strong></p>")
    parts += _reach_html(doc)
    lines = list((doc or {}).get("verdicts") or [])
    if lines:
        parts.append("<table><thead><tr><th>audit</th><th>model</th><th>verdict</th><th>coverage</th></tr></thead>"
                     "<tbody>")
        for v in lines:
            parse = (f"; judge parse rate {v['parse_rate']:.0%} ({_esc(v.get('parsed'))} of {_esc(v.get('items'))})"
                     if v.get("items") else "")
            parts.append(f"<tr><td>{_esc(v.get('audit'))}</td><td>{_esc(v.get('model'))}</td>"
                         f"<td>{_esc(v.get('label'))}</td><td>{_esc(v.get('cases_used'))} of "
                         f"{_esc(v.get('cases_given'))} cases used{_esc(parse)}"
                         + "".join(f"; {_esc(x)}" for x in v.get("sample_skew") or []) + "</td></tr>")
        parts.append("</tbody></table>")
    parts.append(f"<p>{len(found)} finding(s), {len(unsure)} inconclusive</p>")
    for title, rows in (("Findings", found), ("Inconclusive", unsure)):
        if not len(rows):
            continue
        parts.append(f"<p><em>{title}</em></p><ol>")
        for rec in rows.head(_SHOWN).to_dict("records"):
            caveats = rec.get("judge_caveats")
            note = f"<br><small>judge: {_esc(caveats)}</small>" if caveats and caveats == caveats else ""
            parts.append(f"<li>[{_esc(rec.get('audit'))}] {_esc(rec.get('sentence'))}{note}</li>")
        parts.append("</ol>")
        if len(rows) > _SHOWN:
            parts.append(f"<p>… and {len(rows) - _SHOWN} more (see <code>.findings</code>)</p>")
    if not len(frame) and not any(v.get("verdict") == "not_measured" for v in lines):
        parts.append("<p>No effect survives its correction family, and none is inconclusive.</p>")
    parts.append("</div>")
    return "\n".join(parts)


class RunResults:
    """One run directory, its tables as pandas DataFrames.

    ``metrics`` (tables/results.csv), ``findings`` (derived as the report derives them), ``responses``
    (every model call, in the current layout whatever version wrote the run), ``exclusions``, ``cases``,
    ``variants``, ``judgments``, ``paired``; :meth:`table` for any other table; ``manifest``, ``summary``,
    ``status``, ``audit``; :meth:`report` renders the HTML report. A missing standard table is an empty
    frame with the table's documented key columns.
    """

    def __init__(self, path: str | Path):
        from .rundir import read_manifest

        self.path = Path(path)
        if not self.path.exists():
            raise InputError("no such run directory", file=str(self.path))
        if not self.path.is_dir():
            raise InputError("not a run directory (a file, not a folder)", file=str(self.path))
        if not (self.path / "manifest.json").is_file():
            raise InputError("not a run directory (no manifest.json in it; run an audit into it first)",
                             file=str(self.path))
        self._read_manifest = read_manifest

    # ---- bookkeeping ---------------------------------------------------------
    @property
    def manifest(self) -> dict[str, Any]:
        """``manifest.json``: spec, models, data fingerprints, every invocation with its usage, status, summary."""
        return self._read_manifest(self.path / "manifest.json")

    @property
    def summary(self) -> dict[str, Any]:
        """The audit's summary (the manifest's ``summary``; empty while the run has not finished)."""
        return dict(self.manifest.get("summary") or {})

    @property
    def deid_reach(self) -> dict[str, Any]:
        """How far the run's de-identification reached (:func:`deid_reach`): ``counts``, ``sentences``, ``warn``."""
        return deid_reach(self)

    @property
    def audit(self) -> str:
        m = self.manifest
        return str(m.get("audit") or (m.get("spec") or {}).get("audit") or (m.get("spec") or {}).get("command") or "")

    @property
    def status(self) -> str:
        return str(self.manifest.get("status") or "not finished")

    @property
    def tables(self) -> list[str]:
        """Names of the tables in ``tables/`` (for :meth:`table`)."""
        return sorted(p.stem for p in (self.path / "tables").glob("*.csv"))

    # ---- tables ----------------------------------------------------------------
    def table(self, name: str) -> pd.DataFrame:
        """Any table of the run, by name (``"table3"`` reads ``tables/table3.csv``).

        A standard table the run lacks is an empty frame with its key columns; any other missing table
        is an :class:`~clinaudit.errors.InputError` listing the tables there are.
        """
        from .checks import check_table_name

        path = self.path / "tables" / f"{check_table_name(name)}.csv"
        if not path.is_file():
            if name in STANDARD_TABLES:
                return pd.DataFrame(columns=_key_columns(name))
            raise InputError(f"no table '{name}' in this run; its tables: {', '.join(self.tables) or '(none)'}",
                             file=str(path))
        df = _read_csv(path)
        if name == "responses":
            from .pipeline import normalize_responses

            return normalize_responses(df)
        return _with_columns(df, _key_columns(name)) if name in STANDARD_TABLES else df

    @property
    def metrics(self) -> pd.DataFrame:
        """``tables/results.csv``: one row per estimate (audit, metric, group, reference, value, n, CI, test,
        p, p_adj, correction, family, then the audit's own columns)."""
        return self.table("results")

    @property
    def responses(self) -> pd.DataFrame:
        """Every model call (judge retries included) in :data:`clinaudit.pipeline.RESPONSE_COLUMNS`."""
        return self.table("responses")

    @property
    def exclusions(self) -> pd.DataFrame:
        """What was left out and why (:data:`clinaudit.exclusions.EXCLUSION_COLUMNS`)."""
        return self.table("exclusions")

    @property
    def cases(self) -> pd.DataFrame:
        return self.table("cases")

    @property
    def variants(self) -> pd.DataFrame:
        return self.table("variants")

    @property
    def judgments(self) -> pd.DataFrame:
        return self.table("judgments")

    @property
    def paired(self) -> pd.DataFrame:
        return self.table("paired")

    # ---- findings and report ------------------------------------------------------
    def findings_doc(self, *, alpha: float | None = None, margin: float | None = None) -> dict[str, Any]:
        """The findings document of this run (the content ``findings.json`` would have)."""
        from .report import findings as fnd

        return fnd.derive_findings([self.path], audits=[self.audit], alpha=fnd.ALPHA if alpha is None else alpha,
                                   margin=fnd.MARGIN if margin is None else margin)

    @property
    def findings(self) -> pd.DataFrame:
        """Findings then inconclusive entries (columns :data:`clinaudit.report.findings.FINDING_FIELDS`;
        ``kind`` tells them apart), ranked as in the report (docs/report.md, *Findings*)."""
        from .report.findings import findings_frame

        return findings_frame(self.findings_doc())

    @property
    def verdicts(self) -> pd.DataFrame:
        """One verdict per audit × model (bias / within_margin / inconclusive / not_measured) with its sentence
        and coverage, as the report's first screen shows it (docs/verdicts.md)."""
        return verdicts_frame(self.findings_doc())

    @property
    def headline(self) -> str:
        """The report's first sentence for this run, in plain words."""
        return str(self.findings_doc().get("headline", ""))

    @property
    def validity(self) -> dict[str, Any]:
        """What the run measured (cases, judges' parse rates, calls, pairs; docs/verdicts.md)."""
        from .pipeline.validity import read_validity

        return read_validity(self.path, self.audit)[1]

    @property
    def measured(self) -> bool:
        """False when a validity gate left the whole run not measured (``clinaudit run`` exits 3)."""
        return bool(self.validity.get("measured", False))

    def report(self, path: str | Path | None = None, title: str | None = None) -> Path:
        """Render the HTML report (plus report.md, tables.tex, findings.json/.csv next to it);
        ``path`` defaults to ``RUN_DIR/report.html``. Returns the HTML path."""
        from .report.render import render_report

        return render_report(self.path, Path(path) if path is not None else None, title)

    # ---- display ----------------------------------------------------------------
    def __repr__(self) -> str:
        try:
            n_results = len(self.metrics)
            f = self.findings
            counts = f"{n_results} results, {int((f['kind'] == 'finding').sum())} findings, " \
                     f"{int((f['kind'] == 'inconclusive').sum())} inconclusive"
        except Exception as exc:  # noqa: BLE001 - a repr never raises
            counts = f"tables unreadable: {exc}"
        return f"RunResults('{self.path}', audit={self.audit}, status={self.status}, {counts})"

    def _repr_html_(self) -> str:
        head = f"{self.audit} run {self.path} ({self.status})"
        try:
            from .report.findings import findings_frame

            doc = self.findings_doc()
            return _findings_html(findings_frame(doc), head, doc)
        except Exception as exc:  # noqa: BLE001 - Jupyter shows the error instead of nothing
            return f"<div><strong>{_esc(head)}</strong><p>findings unavailable: {_esc(exc)}</p></div>"


class RunSet(Sequence[RunResults]):
    """Several run directories (e.g. a ``clinaudit demo`` output folder) read together.

    A sequence of :class:`RunResults` (audits in report order) with ``findings`` ranked across all runs
    (as one report over them ranks them), ``metrics`` concatenated (a ``run_dir`` column first) and
    :meth:`report` rendering one report over every run.
    """

    def __init__(self, paths: str | Path | Sequence[str | Path]):
        from .report.render import discover_run_dirs

        self.paths = discover_run_dirs(paths)
        self.runs = [RunResults(p) for p in self.paths]

    def __len__(self) -> int:
        return len(self.runs)

    def __getitem__(self, i: Any) -> Any:
        return self.runs[i]

    def __iter__(self) -> Iterator[RunResults]:
        return iter(self.runs)

    def by_audit(self, audit: str) -> RunResults:
        """The (first) run of ``audit``; :class:`~clinaudit.errors.InputError` listing the audits when none."""
        for r in self.runs:
            if r.audit == audit:
                return r
        raise InputError(f"no run of audit '{audit}'; audits here: {', '.join(r.audit for r in self.runs)}",
                         file=", ".join(str(p) for p in self.paths))

    def findings_doc(self) -> dict[str, Any]:
        from .report.findings import derive_findings

        return derive_findings(self.paths, audits=[r.audit for r in self.runs])

    @property
    def findings(self) -> pd.DataFrame:
        from .report.findings import findings_frame

        return findings_frame(self.findings_doc())

    @property
    def verdicts(self) -> pd.DataFrame:
        """One verdict per audit × model over every run (the report's first screen)."""
        return verdicts_frame(self.findings_doc())

    @property
    def headline(self) -> str:
        return str(self.findings_doc().get("headline", ""))

    @property
    def metrics(self) -> pd.DataFrame:
        frames = [r.metrics.assign(run_dir=str(r.path)) for r in self.runs]
        df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=_key_columns("results"))
        if "run_dir" not in df.columns:
            df["run_dir"] = pd.Series(dtype=object)
        return df[["run_dir"] + [c for c in df.columns if c != "run_dir"]]

    def report(self, path: str | Path = "report.html", title: str | None = None) -> Path:
        """One report over every run (as ``clinaudit report PATHS --out path``); returns the HTML path."""
        from .report.render import render_report

        return render_report(list(self.paths), Path(path), title)

    def __repr__(self) -> str:
        return f"RunSet({len(self)} runs: {', '.join(f'{r.audit} ({r.path})' for r in self.runs)})"

    def _repr_html_(self) -> str:
        try:
            from .report.findings import findings_frame

            doc = self.findings_doc()
            return _findings_html(findings_frame(doc), f"{len(self)} runs: " + ", ".join(r.audit for r in self.runs),
                                  doc)
        except Exception as exc:  # noqa: BLE001
            return f"<div>findings unavailable: {_esc(exc)}</div>"


def open_run(path: str | Path) -> RunResults:
    """Open an existing run directory (:class:`~clinaudit.errors.InputError` naming the path when it is
    missing or holds no ``manifest.json``)."""
    return RunResults(path)


def open_runs(*paths: str | Path) -> RunSet:
    """Open every run directory named by ``paths`` (a run directory, or a folder holding several, up to
    three levels down, as ``clinaudit report`` finds them)."""
    if not paths:
        raise InputError("open_runs: name at least one run directory or folder")
    return RunSet(list(paths))


def compare_runs(run_a: str | Path | RunResults, run_b: str | Path | RunResults, out: str | Path | None = None,
                 **options: Any) -> Any:
    """``clinaudit compare RUN_A RUN_B --out OUT``: run B against run A (two models, or two versions of one
    model, audited with the same spec), one row per metric and stratum (and pooled) with the paired
    difference B − A, its CI over cases, test, Holm-adjusted p and verdict (better / worse / within_margin /
    inconclusive).

    Returns a :class:`clinaudit.report.compare.Comparison` (``table``, ``per_case``, ``info`` with the
    differences between the runs, ``findings``, ``verdicts()``, ``changed()``; shown with its verdicts in a
    notebook); with ``out`` the files are written there. ``options``: ``model_a``, ``model_b``, ``alpha``,
    ``margin``, ``margins``, ``n_resamples``, ``n_permutations``, ``seed``. Raises
    :class:`~clinaudit.errors.NotComparableError` for unfinished or failed runs and runs without usable pairs.
    """
    from .report.compare import compare_runs as _compare

    a = run_a.path if isinstance(run_a, RunResults) else run_a
    b = run_b.path if isinstance(run_b, RunResults) else run_b
    return _compare(a, b, out, **options)


def gate_run(run: str | Path | RunResults, baseline: str | Path | RunResults | None = None, policy: Any = None,
             out: str | Path | None = None, **options: Any) -> Any:
    """``clinaudit gate RUN [--baseline RUN_B] [--policy FILE] [--out DIR]``: pass / fail / not gateable.

    ``policy``: a YAML file, a mapping or a :class:`clinaudit.report.gate_policy.GatePolicy` (``None``: fail on
    any ``bias`` verdict and, with a baseline, on any metric worse than it beyond its margin). Returns a
    :class:`clinaudit.report.gate.GateResult` (``outcome``, ``exit_code`` 0 / 1 / 3, ``failures``, ``reasons``,
    ``lines()``, ``comparison``; shown in a notebook); writes ``gate.json`` into ``out`` (default
    ``RUN/gate``). ``options``: ``n_resamples``, ``n_permutations``, ``seed``, ``write``. Bad input (no
    such run, a bad policy) raises :class:`~clinaudit.errors.InputError`.
    """
    from .report.gate import gate_run as _gate

    r = run.path if isinstance(run, RunResults) else run
    b = baseline.path if isinstance(baseline, RunResults) else baseline
    return _gate(r, b, policy, out, **options)
