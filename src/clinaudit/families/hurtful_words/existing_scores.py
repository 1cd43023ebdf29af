"""Per-sentence association scores that already exist: readers for ``association --scores``.

Two formats (``docs/audits/association.md``):

``hurtfulwords``
    The TSV that HurtfulWords' scoring script writes: one row per filled sentence
    × target word, columns ``categories, demographic, tgt_text, log_probs,
    pred_sent`` (any extra column is ignored; ``pred_sent`` is not used). Rows
    come in blocks: for each filled sentence (``tgt_text``), each group's target
    words in list order. The file names no target word, so a row's *position*
    is its rank among the rows of the same category, sentence and group, in
    file order: male position k pairs with female position k (man↔woman,
    he↔she, male↔female, m↔f). The sentence frame is ``tgt_text``.

``tidy``
    A CSV (``.tsv``/``.tab``: tab-separated) with one row per scored sentence:
    ``category, group, score`` required; ``model`` (else the file's name);
    the frame from ``frame``, else ``template_id`` (or ``template``) joined with
    ``attribute`` when present; the position from ``target_index`` (or
    ``position``), needed by the paired tests (sign-flip, signed-rank). The ``scores.csv`` of
    an ``association`` run is a tidy file.

A value that is not a number is an :class:`~clinaudit.errors.InputError`
naming the file, the 1-based data row and the field; an empty or non-finite
score (the published script writes NaN as an empty field when a probability
is 0) is not analysed and is listed in the exclusions with its reason.
"""

from __future__ import annotations

import csv
import io
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ...errors import InputError, SpecError

__all__ = ["SCORE_FORMATS", "HURTFULWORDS_COLUMNS", "EXCLUSION_COLUMNS", "read_scores", "read_hurtfulwords",
           "read_tidy_scores", "load_scores"]

#: Formats of :func:`read_scores`.
SCORE_FORMATS: tuple[str, ...] = ("tidy", "hurtfulwords")
#: Columns of HurtfulWords' per-sentence TSV that the reader uses (``pred_sent`` is read when present).
HURTFULWORDS_COLUMNS: tuple[str, ...] = ("categories", "demographic", "tgt_text", "log_probs")
#: Columns of the exclusions table.
EXCLUSION_COLUMNS: list[str] = ["file", "row", "model", "category", "group", "field", "value", "reason"]

_NOT_FINITE = "score missing or not finite (e.g. a target probability of 0); not analysed"


def _read_rows(path: Path, delimiter: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """Header and ``(1-based data row, fields)`` of a delimited file; blank lines skipped, widths checked."""
    if not path.is_file():
        raise InputError("scores file not found", file=str(path))
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"cannot decode the file as UTF-8 at byte offset {e.start}: {e.reason}",
                         file=str(path)) from None
    if csv.field_size_limit() < 2**31 - 1:
        csv.field_size_limit(min(2**31 - 1, sys.maxsize))
    header: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    n = 0
    try:
        for rec in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            if not rec or (len(rec) == 1 and rec[0].strip() == ""):
                continue
            if header is None:
                header = [h.strip() for h in rec]
                dup = sorted({h for h in header if header.count(h) > 1})
                if dup:
                    raise InputError("duplicate column name in the header", file=str(path), field=dup[0])
                continue
            n += 1
            if len(rec) != len(header):
                raise InputError(f"malformed row: it has {len(rec)} fields but the header has {len(header)}",
                                 file=str(path), row=n)
            rows.append((n, rec))
    except csv.Error as e:
        raise InputError(f"malformed file: {e}", file=str(path), row=n + 1) from None
    if header is None:
        raise InputError("the file is empty (no header row)", file=str(path))
    return header, rows


def _require(path: Path, header: Sequence[str], columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in header]
    if missing:
        raise InputError(f"column not found; the header has: {', '.join(header)}", file=str(path), field=missing[0])


def _text(path: Path, row: int, field: str, value: str) -> str:
    v = value.strip()
    if not v:
        raise InputError("empty value", file=str(path), row=row, field=field)
    return v


def _score(path: Path, row: int, field: str, value: str) -> float:
    """The score, NaN when empty or not finite (excluded later); not a number → InputError."""
    v = value.strip()
    if not v:
        return math.nan
    try:
        x = float(v)
    except ValueError:
        raise InputError(f"not a number: {value!r}", file=str(path), row=row, field=field) from None
    return x if math.isfinite(x) else math.nan


def _split_exclusions(df: pd.DataFrame, path: Path, field: str, raw: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    bad = df["score"].isna().to_numpy()
    if bad.all():
        sample = ", ".join(repr(v) for v in list(dict.fromkeys(raw))[:3])
        raise InputError(f"no usable score: all {len(df)} row(s) have a missing or non-finite value (e.g. {sample})",
                         file=str(path), field=field)
    excl = pd.DataFrame({
        "file": str(path), "row": df.loc[bad, "source_row"].to_numpy(), "model": df.loc[bad, "model"].to_numpy(),
        "category": df.loc[bad, "category"].to_numpy(), "group": df.loc[bad, "group"].to_numpy(), "field": field,
        "value": [raw[i] for i in range(len(raw)) if bad[i]], "reason": _NOT_FINITE,
    }, columns=EXCLUSION_COLUMNS)
    return df[~bad].reset_index(drop=True), excl


def read_hurtfulwords(path: str | Path, model: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read a HurtfulWords per-sentence TSV: ``(scores, exclusions)``.

    ``scores`` columns: ``model, category, group, score, frame, position,
    template, template_id, attribute, sentence, pred_sent, source_file,
    source_row`` (``template`` is the filled sentence frame as written,
    ``template_id`` and ``attribute`` are empty: the format does not carry
    them). ``model`` defaults to the file name without its suffix.
    """
    p = Path(path)
    header, rows = _read_rows(p, "\t")
    _require(p, header, HURTFULWORDS_COLUMNS)
    ix = {c: header.index(c) for c in header}
    name = model or p.stem
    recs: list[dict[str, Any]] = []
    raw: list[str] = []
    seen: dict[tuple[str, str, str], int] = {}
    for n, rec in rows:
        cat = _text(p, n, "categories", rec[ix["categories"]])
        grp = _text(p, n, "demographic", rec[ix["demographic"]])
        frame = _text(p, n, "tgt_text", rec[ix["tgt_text"]])
        key = (cat, frame, grp)
        pos = seen.get(key, 0)
        seen[key] = pos + 1
        raw.append(rec[ix["log_probs"]])
        recs.append({"model": name, "category": cat, "group": grp,
                     "score": _score(p, n, "log_probs", rec[ix["log_probs"]]), "frame": frame, "position": pos,
                     "template": frame, "template_id": "", "attribute": "", "sentence": frame,
                     "pred_sent": rec[ix["pred_sent"]] if "pred_sent" in ix else "", "source_file": str(p),
                     "source_row": n})
    if not recs:
        raise InputError("no data rows", file=str(p))
    return _split_exclusions(pd.DataFrame(recs), p, "log_probs", raw)


def read_tidy_scores(path: str | Path, model: str | None = None, *,
                     need_positions: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read a tidy per-sentence score table (CSV; ``.tsv``/``.tab`` tab-separated): ``(scores, exclusions)``.

    A pairing key (model, category, group, frame, position) seen twice is an
    input error naming both rows. ``need_positions`` (the paired tests: sign-flip, signed-rank)
    makes ``target_index``/``position`` required.
    """
    p = Path(path)
    header, rows = _read_rows(p, "\t" if p.suffix.lower() in {".tsv", ".tab"} else ",")
    _require(p, header, ["category", "group", "score"])
    template_cols: tuple[str, ...] = ("template_id", "template")
    frame_cols = ["frame"] if "frame" in header else [c for c in template_cols if c in header][:1]
    if not frame_cols:
        raise InputError("no sentence-frame column: give 'frame', 'template_id' or 'template' (with 'attribute')",
                         file=str(p), field="template_id")
    if frame_cols != ["frame"] and "attribute" in header:
        frame_cols.append("attribute")
    pos_col = next((c for c in ("target_index", "position") if c in header), None)
    if pos_col is None and need_positions:
        raise InputError("the paired tests (sign-flip, signed-rank) pair sentences by target position: add "
                         "'target_index' (or choose unpaired tests: --tests rank-sum,t,ks)", file=str(p),
                         field="target_index")
    ix = {c: header.index(c) for c in header}
    name = model or p.stem
    recs: list[dict[str, Any]] = []
    raw: list[str] = []
    first: dict[tuple[str, ...], int] = {}
    for n, rec in rows:
        get = {c: rec[ix[c]] for c in header}
        mdl = get["model"].strip() if "model" in ix and get["model"].strip() else name
        cat = _text(p, n, "category", get["category"])
        grp = _text(p, n, "group", get["group"])
        frame = " | ".join(_text(p, n, c, get[c]) for c in frame_cols)
        pos = _text(p, n, pos_col, get[pos_col]) if pos_col else str(n)
        key = (mdl, cat, grp, frame, pos)
        if key in first and pos_col:
            raise InputError(f"the same sentence (frame {frame!r}, position {pos}) is scored twice for this model "
                             f"and group; first at row {first[key]}", file=str(p), row=n, field=pos_col)
        first[key] = n
        raw.append(get["score"])
        recs.append({"model": mdl, "category": cat, "group": grp, "score": _score(p, n, "score", get["score"]),
                     "frame": frame, "position": pos, "template": get.get("template", get.get("template_id", frame)),
                     "template_id": get.get("template_id", ""), "attribute": get.get("attribute", ""),
                     "sentence": get.get("sentence", ""), "source_file": str(p), "source_row": n})
    if not recs:
        raise InputError("no data rows", file=str(p))
    return _split_exclusions(pd.DataFrame(recs), p, "score", raw)


def read_scores(paths: Sequence[str | Path], fmt: str, models: Sequence[str | None] | None = None, *,
                need_positions: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read one or more score files of one format; ``(scores, exclusions)`` concatenated.

    ``models`` gives each file's model name (default: a tidy file's ``model``
    column, else the file name). Two files may not give the same model name.
    """
    if fmt not in SCORE_FORMATS:
        raise InputError(f"unknown scores format {fmt!r}; choose from {', '.join(SCORE_FORMATS)}",
                         field="scores_format")
    names = list(models) if models is not None else [None] * len(paths)
    parts: list[pd.DataFrame] = []
    excl: list[pd.DataFrame] = []
    for path, name in zip(paths, names):
        if fmt == "hurtfulwords":
            s, e = read_hurtfulwords(path, name)
        else:
            s, e = read_tidy_scores(path, name, need_positions=need_positions)
        clash = set(s["model"]) & {m for part in parts for m in part["model"].unique()}
        if clash:
            raise InputError(f"model name(s) {sorted(clash)} already come from another scores file; name the "
                             "models (tidy: a 'model' column)", file=str(path), field="model")
        parts.append(s)
        excl.append(e)
    if not parts:
        raise InputError("no scores file given", field="scores")
    return pd.concat(parts, ignore_index=True), pd.concat(excl, ignore_index=True)


def load_scores(paths: Sequence[str | Path], fmt: str, models: Sequence[str | None] | None = None, *,
                tests: Sequence[str] = ("sign-flip", "signed-rank"), categories: Sequence[str] | None = None,
                groups: Sequence[str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """:func:`read_scores`, then keep ``categories`` and check ``groups``: ``(scores, exclusions, groups)``.

    ``groups`` defaults to the groups in order of first appearance (the first
    is the reference); for the ``hurtfulwords`` format with both ``female`` and
    ``male`` present, to ``female, male`` (then any others): the reference is
    female, so every statistic is test(male, female), the sign of HurtfulWords'
    published ``ranksums(male, female)`` / ``ttest_ind(male, female)``.
    Unknown categories or groups are a :class:`SpecError`.
    """
    scores, excluded = read_scores(paths, fmt, models,
                                   need_positions=bool({"signed-rank", "sign-flip"} & set(tests)))
    if categories is not None:
        unknown = sorted(set(categories) - set(scores["category"]))
        if unknown:
            raise SpecError(f"params.categories {unknown} not in the scores (categories: "
                            f"{', '.join(sorted(set(scores['category'])))})")
        scores = scores[scores["category"].isin(list(categories))].reset_index(drop=True)
    present = list(dict.fromkeys(scores["group"].astype(str)))
    chosen = [str(g) for g in groups] if groups is not None else present
    if groups is None and fmt == "hurtfulwords" and {"female", "male"} <= set(present):
        chosen = ["female", "male"] + [g for g in present if g not in ("female", "male")]
    missing = [g for g in chosen if g not in present]
    if missing or len(chosen) < 2:
        raise SpecError(f"params.groups {chosen}: need at least two of the groups in the scores "
                        f"({', '.join(present)})")
    return scores, excluded, chosen
