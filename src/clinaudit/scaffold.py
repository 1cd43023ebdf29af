"""``clinaudit init``: a commented, ready-to-run spec for a user's own CSV / JSONL file.

The columns of the file are read (strictly, as the loaders read them), their roles guessed from their names and
values (:func:`detect_columns`), and the audit's declaration turns the guess into the spec's ``data`` entry and
``params`` (an audit class's ``scaffold(columns)`` returning a :class:`Scaffold`). The spec is validated exactly as
``clinaudit run`` validates it before it is written, so what ``init`` writes runs without edits.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError

__all__ = ["Columns", "Scaffold", "detect_columns", "render_spec", "init_spec"]

#: how many rows are looked at to guess the columns' roles
SAMPLE_ROWS = 2000

_ID_NAMES = ("case_id", "id", "msg_id", "message_id", "note_id", "patient_id", "encounter_id", "row_id", "uid")
_TEXT_NAMES = ("text", "message", "patient_message", "msg", "question", "query", "note", "dialogue", "dialog",
               "transcript", "conversation", "content", "body", "prompt", "vignette")
_GENDER_NAMES = ("gender", "sex", "recorded_gender", "patient_gender", "patient_sex")
_DEMOGRAPHIC_NAMES = ("race", "ethnicity", "race_ethnicity", "race_and_ethnicity", "raceethnicity", "ethnic_group",
                      "ethnic_origin", "patient_race", "patient_ethnicity", "age", "patient_age", "age_group",
                      "age_band", "language", "preferred_language", "primary_language", "insurance",
                      "insurance_type", "payer", "religion", "marital_status", "nationality")
_LABEL_NAMES = ("label", "y", "y_true", "target", "outcome", "gold")
_SCORE_NAMES = ("score", "prob", "probability", "pred_prob", "y_score", "risk")
_PRED_NAMES = ("pred", "prediction", "y_pred", "predicted")
_GENDER_VALUES = {"f", "m", "female", "male", "woman", "man", "w"}
_DIALOG_LINE = re.compile(r"^\s*(doctor|patient|\[doctor\]|\[patient\])\s*:?", re.I | re.M)


@dataclass
class Columns:
    """What :func:`detect_columns` found in a data file (column names as in the file; None where absent)."""

    path: Path
    format: str  # csv | jsonl | mts | aci
    header: list[str]
    n_rows: int
    id: str | None = None
    text: str | None = None
    gender: str | None = None
    demographics: list[str] = field(default_factory=list)
    label: str | None = None
    score: str | None = None
    prediction: str | None = None
    split: str | None = None
    #: the split column's distinct values over all rows, in order of first appearance
    split_values: list[str] = field(default_factory=list)
    task: str | None = None
    dialogs: bool = False  # the text column holds doctor/patient dialogs
    delimiter: str = ","  # a CSV's field separator, as guessed (loaders.formats.guess_delimiter)
    spec_path: str = ""  # the file's path as the spec names it (relative to the spec's folder where possible)
    notes: list[str] = field(default_factory=list)  # how each guess was made, printed by `clinaudit init`
    #: the gender and demographic columns' values over all rows, with counts (most frequent first)
    values: dict[str, list[tuple[str, int]]] = field(default_factory=dict)

    def require_text(self) -> str:
        """The text column, or an error naming the file and its columns."""
        if self.text is None:
            raise InputError("no column holds text (none named like text, message, note, dialogue, and none with "
                             "values of 20 characters or more on average); columns: " + ", ".join(self.header),
                             file=str(self.path), field="columns")
        return self.text

    def guessed(self) -> list[str]:
        """One line per role: what was taken, or that nothing was found."""
        from .loaders.formats import delimiter_name

        out = []
        if self.format != "jsonl":
            out.append(f"{'delimiter':12s} <- {delimiter_name(self.delimiter)}" +
                       (" (guessed from the header; written to the spec as delimiter:)" if self.delimiter != "," else ""))
        for role in ("id", "text", "gender", "label", "score", "prediction", "split", "task"):
            col = getattr(self, role)
            if col is not None:
                out.append(f"{role:12s} <- column {col!r}")
        if self.demographics:
            out.append(f"{'demographics':12s} <- columns {', '.join(map(repr, self.demographics))}")
        out += self.value_lines()
        return out

    def value_lines(self) -> list[str]:
        """Per gender / demographic column: the values found and the mapping proposed (docs/specs.md)."""
        from .demographics import propose_gender_map

        out = []
        for col in ([self.gender] if self.gender else []) + list(self.demographics):
            vals = self.values.get(col, [])
            shown = ", ".join(f"{v!r} ({n})" for v, n in vals[:8]) + (f", ... ({len(vals)} values)" if len(vals) > 8
                                                                       else "")
            out.append(f"  values of {col!r}: {shown or 'none'}")
            if col == self.gender:
                out.append(f"    mapping: {propose_gender_map([v for v, _ in vals])[2]}")
            elif vals:
                numeric = all(_is_number(v) for v, _ in vals)
                if numeric and _norm(col) in ("age", "patient_age"):
                    out.append("    mapping: ages read as bands <18, 18-44, 45-64, 65+; reference: the largest band")
                else:
                    out.append(f"    mapping: each value its own group; reference group: {vals[0][0]!r} (the largest)")
        return out


@dataclass
class Scaffold:
    """An audit's part of a spec for a user's file: the data entry (None: the audit reads the file through a
    parameter, ``Columns.spec_path``), models, params, and a comment per key."""

    data: dict[str, Any] | None
    models: dict[str, Any]
    params: dict[str, Any]
    comments: dict[str, str] = field(default_factory=dict)  # "params.seeds" -> why this value
    header: list[str] = field(default_factory=list)  # lines at the top of the spec (without "# "); {spec}: its path
    notes: list[str] = field(default_factory=list)  # printed by `clinaudit init` (what needs a real model, ...)


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


def _read_rows(path: Path, encoding: str | None = None) -> tuple[str, list[str], list[dict[str, Any]], int, str]:
    """The file's format, header, every row, the row count and the CSV field separator (guessed). ``encoding``:
    the file's text encoding (``None``: UTF-8; a file that is not says to pass ``clinaudit init --encoding``)."""
    from .loaders.formats import read_csv_table, read_jsonl_rows

    if not path.is_file():
        raise InputError("data file not found", file=str(path))
    try:
        if path.suffix.lower() in (".jsonl", ".ndjson"):
            rows = [r for _, r in read_jsonl_rows(path, encoding or "utf-8")]
            header: list[str] = []
            for r in rows:
                header.extend(k for k in r if k not in header)
            return "jsonl", header, rows, len(rows), ","
        table = read_csv_table(path, encoding or "utf-8")
    except InputError as exc:
        if encoding is None and "cannot decode the file" in exc.reason:  # init's own switch, not the spec's option
            raise InputError(exc.reason.replace("set options.encoding to the file's encoding",
                                                "pass the file's encoding to clinaudit init with --encoding"),
                             file=exc.file, row=exc.row, field=exc.field) from None
        raise
    return "csv", list(table.header), [r for _, r in table.rows], len(table.rows), table.delimiter


def _values(rows: Sequence[dict[str, Any]], col: str) -> list[str]:
    return [str(r[col]).strip() for r in rows if r.get(col) is not None and str(r.get(col)).strip() != ""]


def _by_name(header: Sequence[str], names: Sequence[str], taken: set[str]) -> str | None:
    by_norm = {_norm(h): h for h in header if h not in taken}
    for n in names:
        if n in by_norm:
            return by_norm[n]
    return None


def _is_number(v: str) -> bool:
    try:
        float(v)
    except ValueError:
        return False
    return True


def detect_columns(path: str | Path, encoding: str | None = None) -> Columns:
    """Guess the role of each column of a CSV / JSONL file from its name and its first rows (``encoding``: the
    file's text encoding, UTF-8 when ``None``)."""
    path = Path(path)
    fmt, header, all_rows, n_rows, delimiter = _read_rows(path, encoding)
    rows = all_rows[:SAMPLE_ROWS]  # the guesses look at the first rows
    if not rows:
        raise InputError("the file has no data rows", file=str(path))
    cols = Columns(path=path, format=fmt, header=header, n_rows=n_rows, delimiter=delimiter)
    norm = {_norm(h) for h in header}
    if fmt == "csv" and {"id", "section_header", "section_text", "dialogue"} <= norm:
        cols.format, cols.id, cols.text, cols.dialogs = "mts", "ID", "dialogue", True
        cols.notes.append("columns ID, section_header, section_text, dialogue: the MTS-Dialog format")
        return cols
    if fmt == "csv" and {"encounter_id", "dialogue"} <= norm:
        cols.format, cols.id, cols.text, cols.dialogs = "aci", "encounter_id", "dialogue", True
        cols.notes.append("columns encounter_id, dialogue: the ACI-Bench format")
        return cols
    taken: set[str] = set()

    def unique(col: str) -> bool:
        vals = _values(rows, col)
        return len(vals) == len(rows) and len(set(vals)) == len(vals)

    cols.id = _by_name(header, _ID_NAMES, taken)
    if cols.id is None:
        cols.id = next((h for h in header if _norm(h).endswith("_id") and unique(h)), None)
    if cols.id is not None and not unique(cols.id):
        cols.notes.append(f"column {cols.id!r} looks like an id but its values repeat: rows are numbered instead")
        cols.id = None
    if cols.id:
        taken.add(cols.id)
    cols.text = _by_name(header, _TEXT_NAMES, taken)
    if cols.text is None:  # the column with the longest values
        lengths = {h: sum(map(len, _values(rows, h))) / len(rows) for h in header if h not in taken}
        best = max(lengths, key=lambda h: lengths[h], default=None)
        if best is not None and lengths[best] >= 20:
            cols.text = best
            cols.notes.append(f"text: {best!r} has the longest values (mean {lengths[best]:.0f} characters)")
    if cols.text is not None:
        taken.add(cols.text)
        sample = _values(rows, cols.text)[:50]
        cols.dialogs = sum(len(_DIALOG_LINE.findall(t)) >= 2 for t in sample) > len(sample) / 2
    cols.gender = _by_name(header, _GENDER_NAMES, taken)
    if cols.gender is None:
        for h in header:
            vals = {v.lower() for v in _values(rows, h)}
            if h not in taken and vals and vals <= _GENDER_VALUES and len(vals) >= 2:
                cols.gender = h
                cols.notes.append(f"gender: the values of {h!r} are {', '.join(sorted(vals))}")
                break
    if cols.gender:
        taken.add(cols.gender)
    cols.demographics = [h for h in header if h not in taken and _norm(h) in _DEMOGRAPHIC_NAMES]
    taken.update(cols.demographics)
    from .demographics import value_counts

    cols.values = {h: value_counts(r.get(h) for r in all_rows)
                   for h in ([cols.gender] if cols.gender else []) + cols.demographics}
    for role, names in (("label", _LABEL_NAMES), ("score", _SCORE_NAMES), ("prediction", _PRED_NAMES),
                        ("split", ("split", "fold", "partition")), ("task", ("task", "outcome_name"))):
        col = _by_name(header, names, taken)
        if col is not None:
            setattr(cols, role, col)
            taken.add(col)
    if cols.score and not all(_is_number(v) for v in _values(rows, cols.score)):
        cols.notes.append(f"column {cols.score!r} is named like a score but holds non-numbers: not used as one")
        cols.score = None
    if cols.split:
        cols.split_values = list(dict.fromkeys(_values(all_rows, cols.split)))
    return cols


def _scalar(value: Any) -> str:
    """A YAML scalar or flow collection (JSON is valid YAML; plain words stay unquoted where that is safe)."""
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_./-]*", value) and value.lower() not in (
            "yes", "no", "true", "false", "null", "on", "off", "y", "n", "~"):
        return value
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {_scalar(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)


def _block(name: str, mapping: dict[str, Any], comments: dict[str, str], indent: str = "  ") -> list[str]:
    lines = [f"{name}:"]
    for key, value in mapping.items():
        line = f"{indent}{key}: {_scalar(value)}"
        note = comments.get(f"{name}.{key}")
        lines.append(f"{line:40s} # {note}" if note else line)
    return lines


def render_spec(audit: str, scaffold: Scaffold, *, name: str, seed: int = 0) -> str:
    """The spec's YAML text, with a comment on every guessed or chosen value."""
    lines = [f"# {h}" if h else "#" for h in scaffold.header]
    lines += [f"audit: {audit}", f"name: {_scalar(name)}", f"seed: {seed}"]
    if scaffold.data is not None:
        lines.append("data:")
    first = True
    for key, value in (scaffold.data or {}).items():
        line = f"  {'- ' if first else '  '}{key}: {_scalar(value)}"
        note = scaffold.comments.get(f"data.{key}")
        lines.append(f"{line:40s} # {note}" if note else line)
        first = False
    if scaffold.models:
        lines += _block("models", scaffold.models, scaffold.comments)
    lines += _block("params", scaffold.params, scaffold.comments)
    return "\n".join(lines) + "\n"


def init_spec(audit: str, data: str | Path, out: str | Path, *, limit: int | None = None,
              force: bool = False, encoding: str | None = None) -> tuple[Path, Columns]:
    """Write a spec for ``audit`` over ``data`` to ``out`` (validated first); return its path and the guesses.
    ``encoding``: the data file's text encoding (e.g. ``cp1252``, an Excel export on Windows), written into the
    spec's data source (``options.encoding``) when it is not UTF-8."""
    from .spec import get_recipe, load_spec

    out = Path(out)
    data = Path(data)
    if out.exists() and not force:
        raise InputError("the spec file exists already (use --force to overwrite it)", file=str(out))
    recipe = get_recipe(audit)
    make = getattr(recipe.declaration, "scaffold", None)
    if make is None:
        raise InputError(f"clinaudit init cannot yet write a spec for the {audit!r} audit; start from one of "
                         f"the examples/{audit}-*.yaml specs (docs/specs.md)", field="AUDIT")
    if encoding is not None:
        from .loaders.formats import text_codec

        try:
            codec = text_codec(encoding, data)
        except InputError:
            raise InputError(f"unknown text encoding {encoding!r} (e.g. cp1252, latin-1, utf-16)",
                             field="--encoding") from None
        encoding = None if codec in ("utf-8", "utf-8-sig") else encoding
    cols = detect_columns(data, encoding)
    try:
        cols.spec_path = str(data.resolve().relative_to(out.resolve().parent))
    except ValueError:
        cols.spec_path = str(data.resolve())
    scaffold: Scaffold = make(cols)
    cols.notes.extend(scaffold.notes)
    if scaffold.data is not None:
        scaffold.data = {"format": cols.format, "path": cols.spec_path, **scaffold.data}
        scaffold.comments.setdefault("data.path", "relative to this spec file")
        if cols.delimiter != ",":
            from .loaders.formats import delimiter_name

            scaffold.data["delimiter"] = cols.delimiter
            scaffold.comments["data.delimiter"] = (f"fields separated by {delimiter_name(cols.delimiter)}, guessed "
                                                   "from the header")
    if encoding is not None and scaffold.data is not None:
        scaffold.data["options"] = {**(scaffold.data.get("options") or {}), "encoding": encoding}
        scaffold.comments["data.options"] = "the file's text encoding (clinaudit init --encoding)"
    if limit is not None and scaffold.data is not None:
        scaffold.data["limit"] = limit
        scaffold.comments["data.limit"] = "first N cases only (remove to audit every row)"
    scaffold.header = [line.replace("{spec}", str(out)) for line in scaffold.header]
    text = render_spec(audit, scaffold, name=f"{audit}-{data.stem}")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    try:
        load_spec(tmp)  # exactly what `clinaudit run` checks; an invalid spec is never left behind
    except Exception:
        tmp.unlink()
        raise
    tmp.replace(out)
    return out, cols
