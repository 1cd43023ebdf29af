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

import difflib
import json
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError

__all__ = ["RunView", "Viewer", "load_run", "GridQuery", "FILTERS", "diff_html", "open_cache_readonly",
           "VERDICT_ORDER"]

#: the columns of the responses table the grid needs (prompts and messages stay on disk: the case page reads
#: them from the cache by request key)
_RESPONSE_COLS = ("request_key", "stage", "model", "case_id", "variant_id", "item_id", "attempt", "seed", "text",
                  "error", "attempts", "prompt_tokens", "completion_tokens", "latency_s", "cached", "finish_reason")
#: case fields read as the demographic group of a case, first found wins
_GROUP_FIELDS = ("gender", "sex", "recorded_gender", "race", "ethnicity", "name_origin")
#: verdicts from strongest to weakest: a grid row takes the strongest of the result rows it belongs to
VERDICT_ORDER = ("bias", "inconclusive", "within_margin", "not_measured")
#: query parameters the grid filters on (name -> grid column)
FILTERS = {"run": "run", "audit": "audit", "model": "model", "variant": "variant", "family": "family",
           "group": "group", "dataset": "dataset", "judge_status": "judge_status", "excluded": "excluded",
           "verdict": "verdict", "case": "case_id", "seed": "seed_text", "context": "context", "source": "source",
           "attribute": "attribute"}
SORTS = ("case", "variant", "model", "flip", "tokens", "latency", "run")


def _cat(s: pd.Series) -> pd.Series:
    return s.astype("string").astype("category")


def _read(path: Path, name: str, usecols: Sequence[str] | None = None) -> pd.DataFrame:
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
                out[key] = {"backend": backend, "request": _json(req), "response": _json(resp)}
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
            full = _read(self.path, "responses", _RESPONSE_COLS)
            mine = full[full["case_id"].astype("string") == case_id]
        return mine

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None


def _json(text: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def _variant_label(family: pd.Series, name: pd.Series) -> pd.Series:
    """What a variant changed, as the findings name it: a perturbation's name, a counterfactual's value
    (``race=Asian`` -> ``Asian``), ``baseline`` for the unchanged text."""
    name = name.astype("string").fillna("")
    label = name.str.split("=", n=1).str[-1]
    return label.mask(family.astype("string").fillna("") == "baseline", "baseline")


def _baselines(variants: pd.DataFrame) -> pd.Series:
    """The baseline variant of each variant: the same variant id with its name replaced by ``baseline`` when the
    run has it (counterfactuals of one augmented dialog), else the case's variant of family ``baseline``."""
    ids = set(variants.index)
    is_base = (variants["family"].astype("string").fillna("") == "baseline") | \
        (variants["name"].astype("string").fillna("") == "baseline")
    fam_base = variants["family"].astype("string").fillna("") == "baseline"
    case_base = (variants[fam_base].reset_index().drop_duplicates("case_id").set_index("case_id")["variant_id"])\
        .to_dict()
    out: dict[str, Any] = {}
    for vid, name, case, base in zip(variants.index, variants["name"].astype("string").fillna(""),
                                     variants["case_id"], is_base):
        if base:
            out[vid] = vid
            continue
        cand = vid.replace(f"::{name}::", "::baseline::", 1) if name else None
        out[vid] = cand if cand in ids else case_base.get(case, pd.NA)
    return pd.Series(out, dtype="string").reindex(variants.index)


def _case_groups(cases: pd.DataFrame, paired: pd.DataFrame) -> pd.Series:
    """A demographic group per case: the paired table's ``gender`` (treatment shift), else the first of
    :data:`_GROUP_FIELDS` in the case's fields."""
    groups: dict[str, Any] = {}
    if "gender" in paired.columns and "case_id" in paired.columns:
        g = paired[["case_id", "gender"]].dropna().drop_duplicates("case_id")
        groups.update(zip(g["case_id"].astype(str), g["gender"].astype(str)))
    if "fields" in cases.columns:
        for cid, fields in zip(cases.index, cases["fields"]):
            if cid in groups or not isinstance(fields, str):
                continue
            data = _json(fields)
            if isinstance(data, dict):
                for k in _GROUP_FIELDS:
                    if data.get(k) not in (None, ""):
                        groups[cid] = str(data[k])
                        break
    return pd.Series(groups, dtype="string")


def _long_labels(subject: pd.DataFrame, path: Path, judgments: pd.DataFrame) -> pd.DataFrame:
    """``request_key, question, label, status`` for the subject answers: the run's ``labels`` table where it has
    one (treatment shift: one row per answer × question), else its judgments, linked to an answer by its request
    key (``item_id``) or by variant and model."""
    labels = _read(path, "labels", ("response_key", "question", "label", "judge_status", "model"))
    if {"response_key", "question", "label"} <= set(labels.columns):
        out = pd.DataFrame({"request_key": labels["response_key"].astype("string"),
                            "question": labels["question"].astype("string"),
                            "label": _labels_text(labels["label"]),
                            "status": labels.get("judge_status", pd.Series("ok", index=labels.index))
                            .astype("string")})
        return out
    if judgments.empty:
        return pd.DataFrame(columns=["request_key", "question", "label", "status"])
    j = judgments
    status = j["status"].astype("string") if "status" in j else pd.Series("ok", index=j.index, dtype="string")
    label = _labels_text(j["label"]) if "label" in j else _value_labels(j.get("value", pd.Series(pd.NA, index=j.index)))
    question = (j["context"] if "context" in j else
                j.get("judge", pd.Series("judge", index=j.index)).astype("string").str.split(":").str[0])\
        .astype("string")
    parts = []
    keyset = set(subject["request_key"].dropna())
    by_item = pd.Series(_isin(j["item_id"], keyset) if "item_id" in j else False, index=j.index)
    if by_item.any():
        parts.append(pd.DataFrame({"request_key": j.loc[by_item, "item_id"].astype("string"),
                                   "question": question[by_item], "label": label[by_item], "status": status[by_item]}))
    # a judgment of the answer's own text under the answer's request key (CARE parses the answer it was given)
    by_key = ~by_item & pd.Series(_isin(j["request_key"], keyset) if "request_key" in j else False, index=j.index)
    if by_key.any():
        parts.append(pd.DataFrame({"request_key": j.loc[by_key, "request_key"].astype("string"),
                                   "question": question[by_key], "label": label[by_key], "status": status[by_key]}))
        by_item = by_item | by_key
    if "variant_id" in j and "model" in j:
        rest = ~by_item & j["variant_id"].notna()
        if rest.any():
            link = subject[["variant_id", "model", "request_key"]].astype("string")
            m = pd.DataFrame({"variant_id": j.loc[rest, "variant_id"].astype("string"),
                              "model": j.loc[rest, "model"].astype("string"), "question": question[rest],
                              "label": label[rest], "status": status[rest]}).merge(link, on=["variant_id", "model"])
            parts.append(m[["request_key", "question", "label", "status"]])
    if not parts:
        return pd.DataFrame(columns=["request_key", "question", "label", "status"])
    return pd.concat(parts, ignore_index=True)


def _labels_text(s: pd.Series) -> pd.Series:
    """Labels as text: a whole number without its ``.0`` (``1.0`` -> ``1``), anything else as written."""
    if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
        num = pd.to_numeric(s, errors="coerce")
        whole = (num.notna() & (num % 1 == 0)).to_numpy(dtype=bool)
        out = num.astype("string")
        out[whole] = num[whole].astype("int64").astype("string")
        return out
    return s.astype("string")


def _value_labels(value: pd.Series) -> pd.Series:
    """A judgment's label from its ``value`` JSON: its ``label``, ``answer`` or ``decision`` field (the text as
    written when it is not such a JSON object)."""
    def one(v: Any) -> Any:
        if not isinstance(v, str):
            return pd.NA
        data = _json(v)
        if isinstance(data, dict):
            for k in ("label", "answer", "decision"):
                if data.get(k) is not None:
                    return str(data[k])
            return pd.NA
        return v
    return pd.Series([one(v) for v in value], index=value.index, dtype="string")


def _isin(s: pd.Series, values: set[Any]) -> np.ndarray:
    """``s.isin(values)`` by Python set lookups (pandas' arrow-string ``isin`` builds a pyarrow scalar per value:
    seconds for 100,000 keys)."""
    arr = s.to_numpy(dtype=object, na_value=None)
    return np.fromiter((x in values for x in arr), dtype=bool, count=len(arr))


def _status_rank(s: pd.Series) -> pd.Series:
    return s.map({"ok": 0, "unparseable": 2, "error": 3}).fillna(1)


def load_run(path: Path, key: str) -> RunView:
    """Read a run directory into a :class:`RunView` (its grid built once)."""
    from ..rundir import read_manifest

    path = Path(path)
    if not path.is_dir():
        raise InputError("no such run directory" if not path.exists() else "not a run directory (a file)",
                         file=str(path))
    if not (path / "manifest.json").is_file():
        raise InputError("not a run directory (no manifest.json in it)", file=str(path))
    manifest = read_manifest(path / "manifest.json")
    spec = manifest.get("spec") or {}
    audit = str(manifest.get("audit") or spec.get("audit") or spec.get("command") or "")
    cases = _read(path, "cases", ("case_id", "dataset", "text", "fields"))
    if "case_id" in cases:
        cases["case_id"] = cases["case_id"].astype("string")
        cases = cases.drop_duplicates("case_id").set_index("case_id")
    variants = _read(path, "variants", ("variant_id", "case_id", "family", "name", "text", "description"))
    if "variant_id" in variants:
        variants = variants.astype({c: "string" for c in ("variant_id", "case_id", "family", "name")
                                    if c in variants}).drop_duplicates("variant_id").set_index("variant_id")
        for c in ("family", "name", "text", "description"):
            if c not in variants:
                variants[c] = pd.NA
        variants["baseline_id"] = _baselines(variants)
        variants["label"] = _variant_label(variants["family"], variants["name"])
    else:
        variants = pd.DataFrame(columns=["case_id", "family", "name", "text", "description", "baseline_id", "label"])
    judgments = _read(path, "judgments")
    exclusions = _read(path, "exclusions")
    paired = _read(path, "paired")
    resp = _read(path, "responses", _RESPONSE_COLS)
    grid, questions = _build_grid(path, key, audit, resp, variants, cases, judgments, exclusions, paired)
    extra = {}
    for p in sorted((path / "tables").glob("*.csv")):
        if re.search(r"clinician|human|jury|rater", p.stem):
            df = _read(path, p.stem)
            if "case_id" in df.columns:
                df["case_id"] = df["case_id"].astype("string")
                extra[p.stem] = df
    calls = resp.drop(columns=[c for c in ("text",) if c in resp.columns])
    if "case_id" in calls:
        calls["case_id"] = _cat(calls["case_id"])
    return RunView(key=key, path=path, audit=audit, manifest=manifest, grid=grid, variants=variants, cases=cases,
                   questions=questions, judgments=judgments, exclusions=exclusions, paired=paired, extra_tables=extra,
                   calls=calls)


def _build_grid(path: Path, key: str, audit: str, resp: pd.DataFrame, variants: pd.DataFrame, cases: pd.DataFrame,
                judgments: pd.DataFrame, exclusions: pd.DataFrame, paired: pd.DataFrame
                ) -> tuple[pd.DataFrame, list[str]]:
    # the answers shown: calls about a variant that are not a judge's (a judge's stage is named judge*, or carries no
    # variant: treatment shift's annotator); a judgment may share its answer's request key (CARE parses the answer)
    if resp.empty or "variant_id" not in resp:
        subject = pd.DataFrame(columns=list(_RESPONSE_COLS))
    else:
        stage = resp["stage"].astype("string").fillna("") if "stage" in resp else pd.Series("", index=resp.index)
        keep = resp["variant_id"].notna().to_numpy() & ~stage.str.startswith("judge").to_numpy(dtype=bool)
        subject = resp[keep].drop_duplicates(["request_key", "variant_id"], keep="last")
    subject = subject.reset_index(drop=True)
    for c in ("request_key", "variant_id", "case_id", "model"):
        subject[c] = subject[c].astype("string") if c in subject else pd.Series(pd.NA, index=subject.index,
                                                                                    dtype="string")
    g = pd.DataFrame({"request_key": subject["request_key"], "case_id": subject["case_id"],
                      "variant_id": subject["variant_id"], "model": subject["model"]})
    g["seed"] = pd.to_numeric(subject["seed"], errors="coerce").astype("Int64") if "seed" in subject else pd.NA
    g["answer"] = subject["text"].astype("string") if "text" in subject else pd.NA
    g["error"] = subject["error"].astype("string") if "error" in subject else pd.NA
    for c in ("prompt_tokens", "completion_tokens", "latency_s", "attempts"):
        g[c] = pd.to_numeric(subject[c], errors="coerce") if c in subject else np.nan
    vinfo = variants.reindex(g["variant_id"])
    g["family"] = vinfo["family"].to_numpy()
    g["variant"] = vinfo["label"].to_numpy()
    g["baseline_id"] = vinfo["baseline_id"].to_numpy()
    g["case_id"] = g["case_id"].fillna(pd.Series(vinfo["case_id"].to_numpy(), index=g.index))
    g["is_baseline"] = (g["variant_id"] == g["baseline_id"]).fillna(False).astype(bool)
    # extra strata of counterfactual variants (note generation: context, source, attribute) from the paired table
    if "variant_id" in paired.columns:
        cols = [c for c in ("context", "source", "attribute") if c in paired.columns]
        if cols:
            extra = paired[["variant_id", *cols]].astype("string").drop_duplicates("variant_id").set_index("variant_id")
            for c in cols:
                g[c] = extra[c].reindex(g["variant_id"]).to_numpy()
    # labels per question, judge status, flips against the baseline answer of the same case, model and seed
    long = _long_labels(subject, path, judgments)
    long = long[_isin(long["request_key"], set(g["request_key"].dropna()))]
    questions = sorted(long["question"].dropna().unique().tolist())
    # the answer's judge status: its worst (error > unparseable > any other, e.g. a jury's tie > ok); none: not judged
    worst = long.assign(rank=_status_rank(long["status"])).sort_values("rank", kind="stable")\
        .drop_duplicates("request_key", keep="last").set_index("request_key")["status"]
    g["judge_status"] = worst.reindex(g["request_key"]).astype("string").fillna("none").to_numpy()
    lab = long.drop_duplicates(["request_key", "question"]).pivot(index="request_key", columns="question",
                                                                  values="label")
    base_of = g.set_index("request_key")[["baseline_id", "model", "seed"]]
    g["noise"] = False
    any_true = np.zeros(len(g), dtype=bool)
    any_known = np.zeros(len(g), dtype=bool)
    for q in questions:
        col = lab[q].reindex(g["request_key"]).astype("string").to_numpy() if q in lab else np.full(len(g), pd.NA)
        g[f"label::{q}"] = pd.array(col, dtype="string")
        ref = pd.DataFrame({"variant_id": g["variant_id"], "model": g["model"], "seed": g["seed"],
                            "label": g[f"label::{q}"]})
        base = ref[g["is_baseline"].to_numpy()].dropna(subset=["label"])
        same = base.drop_duplicates(["variant_id", "model", "seed"]).rename(
            columns={"variant_id": "baseline_id", "label": "base_label"})
        m = g[["baseline_id", "model", "seed"]].merge(same, on=["baseline_id", "model", "seed"], how="left")
        mine = g[f"label::{q}"].to_numpy(dtype=object, na_value=None)
        theirs = m["base_label"].astype("string").to_numpy(dtype=object, na_value=None)
        unknown = (pd.isna(mine) | pd.isna(theirs)) | g["is_baseline"].to_numpy(dtype=bool)
        flip = pd.array(np.where(unknown, False, mine != theirs), dtype="boolean")
        flip[unknown] = pd.NA
        g[f"flip::{q}"] = flip
        any_true |= flip.fillna(False).to_numpy(dtype=bool)
        any_known |= ~unknown
        # the baseline's own re-samples (other seeds) disagree: a flip here is within the noise floor
        unstable = base.groupby(["variant_id", "model"])["label"].nunique() > 1
        uns = unstable.rename("u").reset_index().rename(columns={"variant_id": "baseline_id"})
        u = g[["baseline_id", "model"]].merge(uns, on=["baseline_id", "model"], how="left")["u"]
        g[f"noise::{q}"] = u.fillna(False).astype(bool).to_numpy()
        g["noise"] = g["noise"] | g[f"noise::{q}"]
    del base_of
    flips = pd.array(any_true, dtype="boolean")
    flips[~any_known] = pd.NA
    g["flip"] = flips
    # the row's result verdict: the strongest verdict of the result rows of its model and variant
    g["verdict"] = _verdicts(path, g)
    # demographic group and dataset of the case
    groups = _case_groups(cases, paired)
    g["group"] = groups.reindex(g["case_id"]).to_numpy()
    g["dataset"] = cases["dataset"].reindex(g["case_id"]).to_numpy() if "dataset" in cases else pd.NA
    # exclusions: by case (and the cases left out before any call get a row of their own)
    g["excluded"] = pd.NA
    if {"case_id", "reason"} <= set(exclusions.columns) and len(exclusions):
        ex = exclusions.dropna(subset=["case_id"]).astype({"case_id": "string", "reason": "string"})
        reasons = ex.groupby("case_id")["reason"].agg(lambda s: "; ".join(dict.fromkeys(s.dropna())))
        g["excluded"] = reasons.reindex(g["case_id"]).to_numpy()
        missing = reasons[~_isin(reasons.index.to_series(), set(g["case_id"].dropna()))]
        if len(missing):
            add = pd.DataFrame({"case_id": missing.index.astype("string"), "excluded": missing.to_numpy(),
                                "judge_status": "none", "noise": False, "is_baseline": False})
            add["group"] = groups.reindex(add["case_id"]).to_numpy()
            add["dataset"] = cases["dataset"].reindex(add["case_id"]).to_numpy() if "dataset" in cases else pd.NA
            g = pd.concat([g, add], ignore_index=True)
    g["run"] = key
    g["audit"] = audit
    g["seed_text"] = g["seed"].astype("string")
    g["flip"] = g["flip"].astype("boolean")
    for c in ("run", "audit", "case_id", "variant_id", "baseline_id", "model", "family", "variant", "group",
              "dataset", "judge_status", "excluded", "verdict", "seed_text", "context", "source", "attribute"):
        if c in g:
            g[c] = _cat(g[c])
    g["answer"] = g["answer"].astype("string")
    return g, questions


def _verdicts(path: Path, g: pd.DataFrame) -> np.ndarray:
    res = _read(path, "results", ("model", "group", "perturbation", "verdict"))
    if res.empty or "verdict" not in res:
        return np.full(len(g), None, dtype=object)
    res = res.dropna(subset=["verdict"])
    rank = {v: i for i, v in enumerate(VERDICT_ORDER)}
    vcol = "perturbation" if "perturbation" in res and res["perturbation"].notna().any() else "group"
    if vcol not in res or "model" not in res:
        return np.full(len(g), None, dtype=object)
    r = pd.DataFrame({"model": res["model"].astype("string"), "variant": res[vcol].astype("string"),
                      "rank": res["verdict"].map(rank).fillna(len(rank))})
    best = r.groupby(["model", "variant"])["rank"].min().rename("rank").reset_index()
    m = g[["model", "variant"]].astype("string").merge(best, on=["model", "variant"], how="left")["rank"]
    names = np.array([*VERDICT_ORDER, None], dtype=object)
    out = np.full(len(g), None, dtype=object)
    ok = m.notna().to_numpy()
    out[ok] = names[m[ok].astype(int).to_numpy()]
    return out


# --------------------------------------------------------------------------- queries

@dataclass
class GridQuery:
    """The grid's filters, search, sort and page, read from a query string."""

    filters: dict[str, str]
    question: str = ""
    flipped: str = ""  # "1": flipped rows only; "0": not flipped; "differs": flips that differ between runs
    q: str = ""
    sort: str = "case"
    desc: bool = False
    page: int = 1
    per_page: int = 50

    @classmethod
    def parse(cls, params: Mapping[str, str]) -> "GridQuery":
        filters = {k: params[k] for k in FILTERS if params.get(k)}
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
                        grid[c] = _cat(grid[c])
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
        for name, value in query.filters.items():
            col = FILTERS[name]
            if name == "run":
                value = self.resolve_run(value) or value
            if col not in g:
                notes.append(f"{name}: this run has no such column (filter not applied)")
                continue
            mask &= (g[col] == value).fillna(False).to_numpy(dtype=bool)
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


# --------------------------------------------------------------------------- diffs

_TOKENS = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


@lru_cache(maxsize=4096)
def _diff_ops(base: str, text: str) -> tuple[tuple[str, str], ...]:
    a, b = _TOKENS.findall(base), _TOKENS.findall(text)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    ops: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            ops.append(("eq", "".join(b[j1:j2])))
        else:
            if i2 > i1:
                ops.append(("del", "".join(a[i1:i2])))
            if j2 > j1:
                ops.append(("ins", "".join(b[j1:j2])))
    return tuple(ops)


def diff_html(base: Any, text: Any, *, context: int | None = None) -> Any:
    """``text`` with what differs from ``base`` marked (``<del>`` removed, ``<ins>`` added), every piece escaped.
    ``context``: keep only that many characters of unchanged text around each change (the grid's short form)."""
    from markupsafe import Markup, escape

    if not isinstance(text, str):
        return Markup("")
    if not isinstance(base, str) or base == text:
        body = text if context is None or len(text) <= 2 * context else text[: 2 * context] + " …"
        return Markup(escape(body))
    parts = []
    shown = 0
    for tag, piece in _diff_ops(base, text):
        if context is not None and shown > 8 * context:  # the grid's short form: the first changes only
            parts.append(Markup(" <span class=\"more\">… (more changes on the case page)</span>"))
            break
        if tag == "eq":
            if context is not None and len(piece) > 2 * context + 3:
                piece = piece[:context] + " … " + piece[-context:]
            parts.append(escape(piece))
        else:
            parts.append(Markup(f"<{tag}>") + escape(piece) + Markup(f"</{tag}>"))
        shown += len(piece)
    return Markup("").join(parts)
