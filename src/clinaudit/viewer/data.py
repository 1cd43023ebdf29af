"""The viewer's data: a run directory's tables read once (through the run store's reader) into one grid frame.

One grid row per model answer to a case's text (case × variant × seed × model; the target calls of the run),
with categorical columns for everything the grid filters on, the judge's labels per question, flips against
the baseline answer of the same case, model and seed, and whether the baseline's own re-samples disagree
(the noise floor). Filters are vectorised pandas operations on this frame; texts of variants are kept once
per variant (not per row) and diffs are computed only for the rows of the page shown.

Nothing here writes: tables are read with :func:`clinaudit.rundir.read_store_table` (exact ids and texts,
the run store's spreadsheet-safety prefix taken off), the response cache is opened read-only
(:func:`open_cache_readonly`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from .diff import diff_html

__all__ = ["RunView", "Viewer", "GridQuery", "FILTERS", "SORTS", "diff_html", "open_cache_readonly",
           "VERDICT_ORDER", "RESPONSE_COLS", "GROUP_FIELDS", "as_category", "read_table", "parse_json",
           "cache_value"]

#: the columns of the responses table the grid needs (prompts and messages stay on disk: the case page reads
#: them from the cache by request key)
RESPONSE_COLS = ("request_key", "stage", "model", "case_id", "variant_id", "item_id", "attempt", "seed", "text",
                  "error", "attempts", "prompt_tokens", "completion_tokens", "latency_s", "cached", "finish_reason")
#: case fields read as the demographic group of a case, first found wins
GROUP_FIELDS = ("gender", "sex", "recorded_gender", "race", "ethnicity", "name_origin")
#: verdicts from strongest to weakest: a grid row takes the strongest of the result rows it belongs to
VERDICT_ORDER = ("bias", "inconclusive", "within_margin", "not_measured")
#: query parameters the grid filters on (name -> grid column)
FILTERS = {"run": "run", "audit": "audit", "model": "model", "variant": "variant", "family": "family",
           "group": "group", "dataset": "dataset", "judge_status": "judge_status", "excluded": "excluded",
           "verdict": "verdict", "case": "case_id", "seed": "seed_text", "context": "context", "source": "source",
           "attribute": "attribute"}
SORTS = ("case", "variant", "model", "flip", "tokens", "latency", "run")


def as_category(s: pd.Series) -> pd.Series:
    return s.astype("string").astype("category")


def read_table(path: Path, name: str, usecols: Sequence[str] | None = None,
               notes: list[str] | None = None) -> pd.DataFrame:
    """``RUN/tables/NAME.csv`` through the run store's reader; an empty frame when it is missing or refused (a
    symbolic link, a FIFO ...: :func:`clinaudit.viewer.confine.refusal`, said in ``notes``)."""
    from ..rundir import read_store_table
    from .confine import refusal

    p = path / "tables" / f"{name}.csv"
    why = refusal(path, p)
    if why is not None:
        if why != "missing" and notes is not None:
            note = f"tables/{name}.csv: {why}"
            if note not in notes:
                notes.append(note)
        return pd.DataFrame()
    kw: dict[str, Any] = {}
    if usecols is not None:
        want = set(usecols)
        kw["usecols"] = lambda c: c in want
    try:
        return read_store_table(p, **kw)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    except (ValueError, pd.errors.ParserError) as exc:
        raise InputError(f"unreadable table: {' '.join(str(exc).split())}", file=str(p)) from None


def open_cache_readonly(path: Path) -> sqlite3.Connection | None:
    """The response cache opened read-only and immutable (``mode=ro&immutable=1``): SQLite writes nothing, creates
    no ``-shm``/``-wal`` file and ignores a write-ahead log beside the file (its answers are not shown).
    ``None`` when there is no readable cache there."""
    if not path.is_file():
        return None
    uri = path.resolve().as_uri() + "?mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
        conn.execute("SELECT 1 FROM responses LIMIT 1").fetchall()
    except sqlite3.DatabaseError:
        return None
    return conn


def cache_value(v: Any) -> Any:
    """A cache cell as the case page shows it: JSON decoded; a binary value (a BLOB) as UTF-8 JSON if it is one,
    else said to be binary, with its size and first bytes in hex."""
    if isinstance(v, (bytes, bytearray, memoryview)):
        raw = bytes(v)
        try:
            return parse_json(raw.decode("utf-8"))
        except UnicodeDecodeError:
            return f"(binary value, {len(raw):,} bytes: {raw[:32].hex(' ')}{' …' if len(raw) > 32 else ''})"
    return parse_json(v)


@dataclass
class RunView:
    """One run directory as the viewer shows it."""

    key: str
    path: Path
    audit: str
    manifest: dict[str, Any]
    grid: pd.DataFrame
    variants: pd.DataFrame  # indexed by variant_id: case_id, family, name, text, baseline_id
    cases: pd.DataFrame  # indexed by case_id
    questions: list[str]
    judgments: pd.DataFrame
    exclusions: pd.DataFrame
    paired: pd.DataFrame
    extra_tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    calls: pd.DataFrame = field(default_factory=pd.DataFrame)  # every call's metadata (not its text)
    notes: list[str] = field(default_factory=list)  # what was not read, and why (shown on the pages)
    status: str = "complete"  # the manifest's last run: complete, or why it is not (unfinished ...)
    _cache: sqlite3.Connection | None = None
    _cache_opened: bool = False

    def cache(self) -> sqlite3.Connection | None:
        """The run directory's own ``cache.sqlite``, read-only and immutable. A cache the manifest names outside
        the run directory (a shared ``CLINAUDIT_CACHE_DIR``), or a linked one, is not opened: a note says so."""
        if not self._cache_opened:
            from .confine import refusal

            self._cache_opened = True
            local = self.path / "cache.sqlite"
            why = refusal(self.path, local)
            named = self.manifest.get("cache")
            if why == "missing" and isinstance(named, str) and named:
                p = Path(named)
                if not (p.name == "cache.sqlite" and p.parent.name == self.path.name):
                    self.notes.append(f"the manifest names a response cache outside the run directory ({named}): "
                                      "not opened (the viewer reads only the run directory's own files); the case "
                                      "pages show the call log's texts")
            elif why is not None:
                self.notes.append(f"cache.sqlite: {why}; the case pages show the call log's texts")
            if why is None:
                self._cache = open_cache_readonly(local)
                if local.with_name("cache.sqlite-wal").exists():
                    self.notes.append("cache.sqlite-wal is beside the cache (a run still writing, or stopped): the "
                                      "cache is read as it is on disk, without the log, so nothing is written; "
                                      "answers only in the log show from the call log")
        return self._cache

    def cached_calls(self, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """``request key -> {"backend", "request", "response"}`` (decoded JSON) from the cache, for those it has."""
        conn = self.cache()
        keys = [k for k in dict.fromkeys(keys) if isinstance(k, str) and k]
        if conn is None or not keys:
            return {}
        out: dict[str, dict[str, Any]] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            q = "SELECT key, backend, request, response FROM responses WHERE key IN (%s)" % ",".join("?" * len(chunk))
            for key, backend, req, resp in conn.execute(q, chunk):
                out[str(cache_value(key))] = {"backend": cache_value(backend), "request": cache_value(req),
                                              "response": cache_value(resp)}
        return out

    def calls_of_case(self, case_id: str) -> pd.DataFrame:
        """Every call of the case (target and judge calls, retries included) from the responses table: its keys,
        tokens, latency and attempts held in memory; the texts read from the cache by request key (from the
        responses table on disk when the run has no cache)."""
        df = self.calls
        if df.empty or "case_id" not in df:
            return df
        mine = df[(df["case_id"] == case_id).fillna(False).to_numpy(dtype=bool)]
        if self.cache() is None and len(mine):
            full = read_table(self.path, "responses", RESPONSE_COLS, self.notes)
            mine = full[full["case_id"].astype("string") == case_id]
        return mine

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None


def parse_json(text: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


# --------------------------------------------------------------------------- queries

@dataclass
class GridQuery:
    """The grid's filters, search, sort and page, read from a query string."""

    #: filter name -> the values kept (a row matching any of them); one value as the grid's selects give it,
    #: several when a link repeats the parameter (a finding comparing two variants: ``variant=male&variant=female``)
    filters: dict[str, tuple[str, ...]]
    question: str = ""
    flipped: str = ""  # "1": flipped rows only; "0": not flipped; "differs": flips that differ between runs
    q: str = ""
    sort: str = "case"
    desc: bool = False
    page: int = 1
    per_page: int = 50

    @classmethod
    def parse(cls, params: Mapping[str, str], repeated: Mapping[str, Sequence[str]] | None = None) -> "GridQuery":
        """``params``: one value per name; ``repeated``: every value of a parameter given several times (a
        filter keeps the rows matching any of them)."""
        filters: dict[str, tuple[str, ...]] = {}
        for k in FILTERS:
            values = tuple(dict.fromkeys(v for v in (repeated or {}).get(k, ()) if v)) or \
                ((params[k],) if params.get(k) else ())
            if values:
                filters[k] = values
        try:
            page = max(1, int(params.get("page", "1")))
        except ValueError:
            page = 1
        try:
            per = min(500, max(10, int(params.get("per_page", "50"))))
        except ValueError:
            per = 50
        sort = params.get("sort", "case")
        return cls(filters=filters, question=params.get("question", ""), flipped=params.get("flipped", ""),
                   q=params.get("q", "").strip(), sort=sort if sort in SORTS else "case",
                   desc=params.get("desc", "") == "1", page=page, per_page=per)


class Viewer:
    """The runs a viewer serves, their grids concatenated (one ``run`` column tells them apart)."""

    def __init__(self, runs: Sequence[RunView]):
        self.runs = {r.key: r for r in runs}
        self.questions = sorted({q for r in runs for q in r.questions})
        frames = [r.grid for r in runs]
        if len(frames) == 1:
            grid = frames[0]
        else:
            grid = pd.concat(frames, ignore_index=True)
            for c in frames[0].columns:
                if isinstance(frames[0][c].dtype, pd.CategoricalDtype) or c in ("context", "source", "attribute"):
                    if c in grid:
                        grid[c] = as_category(grid[c])
        for q in self.questions:
            for pre in ("label::", "flip::", "noise::"):
                if pre + q not in grid:
                    grid[pre + q] = pd.NA if pre != "noise::" else False
        grid["flip_differs"] = False
        if len(runs) > 1:
            grid["flip_differs"] = _flip_differs(grid)
        self.grid = grid
        self.options = {name: self._options(col) for name, col in FILTERS.items()
                        if col in grid and name not in ("case",)}

    def _options(self, col: str) -> list[str]:
        s = self.grid[col]
        cats = s.cat.categories if isinstance(s.dtype, pd.CategoricalDtype) else s.dropna().unique()
        used = set(s.dropna().unique().tolist())
        return sorted(str(c) for c in cats if c in used)

    def resolve_run(self, name: str) -> str | None:
        """A run named by its key or by its directory's name or path (as a report's link names it)."""
        if name in self.runs:
            return name
        for k, r in self.runs.items():
            if name in (r.path.name, str(r.path), str(r.path.resolve())):
                return k
        return None

    def select(self, query: GridQuery) -> tuple[pd.DataFrame, int, list[str]]:
        """The rows of ``query``'s page, the number of rows matching, and notes on filters not applied."""
        sub, notes = self.matching(query)
        order = self._order(sub, query)
        start = (query.page - 1) * query.per_page
        return self.grid.loc[sub.index[order[start:start + query.per_page]]], len(sub), notes

    def ordered(self, query: GridQuery) -> pd.DataFrame:
        """Every row matching ``query`` (no paging), in its sort order (the export, the case page's next/previous)."""
        sub, _ = self.matching(query)
        return self.grid.loc[sub.index[self._order(sub, query)]]

    def matching(self, query: GridQuery, *, flips: bool = True) -> tuple[pd.DataFrame, list[str]]:
        """The grid's rows matching ``query``'s filters and search (``flips=False``: whatever their flip, for the
        summary of flip rates), and notes on filters not applied. The rows come without their answer texts (the
        largest column, not copied for every request: 100,000 answers of 2 kB are 200 MB); the index is the
        grid's, so ``self.grid.loc[rows.index]`` has them."""
        g = self.grid
        mask = np.ones(len(g), dtype=bool)
        notes = []
        for name, values in query.filters.items():
            col = FILTERS[name]
            if name == "run":
                values = tuple(self.resolve_run(v) or v for v in values)
            if col not in g:
                notes.append(f"{name}: this run has no such column (filter not applied)")
                continue
            mask &= g[col].isin(values).fillna(False).to_numpy(dtype=bool)
        qcol = f"flip::{query.question}" if query.question else "flip"
        if query.question:
            if f"label::{query.question}" in g:
                mask &= g[f"label::{query.question}"].notna().to_numpy()
            else:
                notes.append(f"question {query.question!r}: not asked in these runs")
                mask &= False
        if not flips:
            pass
        elif query.flipped == "1":
            mask &= g[qcol].fillna(False).to_numpy(dtype=bool)
        elif query.flipped == "0":
            mask &= ~g[qcol].fillna(False).to_numpy(dtype=bool)
        elif query.flipped == "noise":
            mask &= g[qcol].fillna(False).to_numpy(dtype=bool) & g["noise"].to_numpy(dtype=bool)
        elif query.flipped == "differs":
            mask &= g["flip_differs"].to_numpy(dtype=bool)
        if query.q:
            mask &= self._search(query.q, mask)
        light = g.drop(columns=[c for c in ("answer", "error") if c in g.columns])  # no copy (copy-on-write)
        return light.iloc[np.flatnonzero(mask)], notes

    def _search(self, text: str, mask: np.ndarray) -> np.ndarray:
        """Rows whose answer, variant text, case id or variant id holds ``text`` (case-insensitive, literal)."""
        g = self.grid
        hit = np.zeros(len(g), dtype=bool)
        cand = np.flatnonzero(mask)
        if not len(cand):
            return hit
        # the whole column searched in place (taking the candidate rows first would copy their texts: 200 MB for
        # 100,000 answers of 2 kB), then narrowed to the candidates
        found = g["answer"].str.contains(text, case=False, regex=False).fillna(False).to_numpy(dtype=bool)[cand]
        for col in ("case_id", "variant_id"):
            cats = g[col].cat.categories.astype("string")
            hit_cat = np.append(cats.str.contains(text, case=False, regex=False).fillna(False).to_numpy(dtype=bool),
                                False)
            found |= hit_cat[g[col].cat.codes.to_numpy()[cand]]  # code -1 (missing) -> the appended False
        # variant texts: searched once per variant, then mapped onto the rows
        for key, run in self.runs.items():
            v = run.variants
            if not len(v):
                continue
            texts = v["text"].astype("string")
            ids = set(v.index[texts.str.contains(text, case=False, regex=False).fillna(False).to_numpy(dtype=bool)])
            if ids:
                found |= ((g["run"].iloc[cand] == key) & g["variant_id"].iloc[cand].isin(ids)).to_numpy(dtype=bool)
        hit[cand] = found
        return hit

    @staticmethod
    def order(sub: pd.DataFrame, query: GridQuery) -> np.ndarray:
        """Positions of ``sub``'s rows in ``query``'s sort order."""
        return Viewer._order(sub, query)

    @staticmethod
    def _order(sub: pd.DataFrame, query: GridQuery) -> np.ndarray:
        keys: list[Any]
        if query.sort == "flip":  # flipped rows first (on the question filtered to, if any)
            col = f"flip::{query.question}" if query.question and f"flip::{query.question}" in sub else "flip"
            keys = [-sub[col].fillna(False).to_numpy(dtype=int), sub["case_id"].cat.codes.to_numpy()]
        elif query.sort == "tokens":
            keys = [sub["completion_tokens"].fillna(-1).to_numpy()]
        elif query.sort == "latency":
            keys = [sub["latency_s"].fillna(-1).to_numpy()]
        else:
            col = {"case": "case_id", "variant": "variant", "model": "model", "run": "run"}[query.sort]
            keys = [sub[col].cat.codes.to_numpy()] if len(sub) else [np.array([], dtype=int)]
        tie = [sub["case_id"].cat.codes.to_numpy(), sub["variant_id"].cat.codes.to_numpy(),
               sub["model"].cat.codes.to_numpy(), sub["seed"].fillna(-1).to_numpy()]
        order = np.lexsort(tuple(reversed(keys + tie)))
        if query.desc:
            order = order[::-1]
        return order


def _flip_differs(grid: pd.DataFrame) -> np.ndarray:
    """Rows whose flip differs from the same case, variant and seed in another run (two models or versions)."""
    # a model that is in several runs is matched with itself (two versions of a spec); otherwise the runs' models
    # are compared with each other (two models)
    runs_of = grid.groupby("model", observed=True)["run"].nunique()
    model = grid["model"].astype("string").where(grid["model"].isin(runs_of[runs_of > 1].index), "")
    key = pd.concat([grid[["case_id", "variant_id", "seed"]].astype("string"), model.rename("m")], axis=1)\
        .fillna("").agg("\x1f".join, axis=1)
    flip = grid["flip"].astype("float")
    n = flip.groupby([key, grid["run"].astype("string")]).transform("max")
    spread = n.groupby(key).transform(lambda s: s.nunique(dropna=True))
    return (spread > 1).to_numpy()
