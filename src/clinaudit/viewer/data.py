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
           "VERDICT_ORDER", "RESPONSE_COLS", "GROUP_FIELDS", "as_category", "read_table", "parse_json"]

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


def read_table(path: Path, name: str, usecols: Sequence[str] | None = None) -> pd.DataFrame:
    from ..rundir import read_store_table

    p = path / "tables" / f"{name}.csv"
    if not p.is_file():
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


def open_cache_readonly(path: Path, run_dir: Path | None = None) -> sqlite3.Connection | None:
    """The response cache opened read-only (``mode=ro``). A cache inside the run directory with no write-ahead
    log beside it is opened ``immutable`` as well, so SQLite creates no ``-shm``/``-wal`` file there; a shared
    user-level cache (``CLINAUDIT_CACHE_DIR``), which another run may be writing, is read as a normal reader.
    ``None`` when there is no cache file."""
    if not path.is_file():
        return None
    wal = path.with_name(path.name + "-wal")
    inside = run_dir is not None and path.resolve().parent == Path(run_dir).resolve()
    uri = path.resolve().as_uri() + ("?mode=ro&immutable=1" if inside and not wal.exists() else "?mode=ro")
    try:
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
        conn.execute("SELECT 1 FROM responses LIMIT 1").fetchall()
    except sqlite3.DatabaseError:
        return None
    return conn


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
    _cache: sqlite3.Connection | None = None
    _cache_opened: bool = False

    def cache(self) -> sqlite3.Connection | None:
        if not self._cache_opened:
            self._cache_opened = True
            local = self.path / "cache.sqlite"
            named = Path(str(self.manifest.get("cache") or local))
            self._cache = open_cache_readonly(local if local.is_file() else named, self.path)
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
                out[key] = {"backend": backend, "request": parse_json(req), "response": parse_json(resp)}
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
            full = read_table(self.path, "responses", RESPONSE_COLS)
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
        if query.flipped == "1":
            mask &= g[qcol].fillna(False).to_numpy(dtype=bool)
        elif query.flipped == "0":
            mask &= ~g[qcol].fillna(False).to_numpy(dtype=bool)
        elif query.flipped == "noise":
            mask &= g[qcol].fillna(False).to_numpy(dtype=bool) & g["noise"].to_numpy(dtype=bool)
        elif query.flipped == "differs":
            mask &= g["flip_differs"].to_numpy(dtype=bool)
        if query.q:
            mask &= self._search(query.q, mask)
        idx = np.flatnonzero(mask)
        total = len(idx)
        sub = g.iloc[idx]
        order = self._order(sub, query)
        start = (query.page - 1) * query.per_page
        rows = sub.iloc[order[start:start + query.per_page]]
        return rows, total, notes

    def _search(self, text: str, mask: np.ndarray) -> np.ndarray:
        """Rows whose answer, variant text, case id or variant id holds ``text`` (case-insensitive, literal)."""
        g = self.grid
        hit = np.zeros(len(g), dtype=bool)
        cand = np.flatnonzero(mask)
        if not len(cand):
            return hit
        sub = g.iloc[cand]
        found = sub["answer"].str.contains(text, case=False, regex=False).fillna(False).to_numpy(dtype=bool)
        for col in ("case_id", "variant_id"):
            found |= sub[col].astype("string").str.contains(text, case=False, regex=False).fillna(False)\
                .to_numpy(dtype=bool)
        # variant texts: searched once per variant, then mapped onto the rows
        for key, run in self.runs.items():
            v = run.variants
            if not len(v):
                continue
            texts = v["text"].astype("string")
            ids = set(v.index[texts.str.contains(text, case=False, regex=False).fillna(False).to_numpy(dtype=bool)])
            if ids:
                found |= ((sub["run"] == key) & sub["variant_id"].isin(ids)).to_numpy(dtype=bool)
        hit[cand] = found
        return hit

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
