"""P4's 57 tasks from MIMIC-III tables: three task tables, one row per ICU stay (Hurtful Words §3.2, Table 1).

    from clinaudit.families.hurtful_words.mimic_tasks import build_mimic_tasks
    res = build_mimic_tasks("/data/mimic-iii-1.4", test_subjects="testset.csv", seed=0)
    res.tables["inhosp_mort"]      # example_id, split, ids, attributes, text, sequences, Inhosp Mort
    res.labels_long()              # one row per example × task
    res.write("out/")              # inhosp_mort.csv, phenotype_all.csv, phenotype_first.csv, tasks.csv, ...

Note rules (our reading of P4 §3.2 and its published ``make_targets.py``; a
note's time is its ``CHARTTIME``; categories compared without surrounding
spaces and case — MIMIC writes ``"Physician "``; ``ISERROR = 1`` notes never
count):

* ``inhosp_mort`` — stays of at least 48 h (the benchmark's rule); the
  ``Nursing``, ``Nursing/other`` and ``Physician`` notes with ``INTIME ≤ time <
  INTIME + 48 h + ε`` (ε = 0.001 h as in P4's code: a note at exactly 48 h is
  in, one a minute later is out); stays without such a note are dropped.
* ``phenotype_all`` — every cohort stay with an ``OUTTIME``; the same three
  types over the whole stay (``INTIME ≤ time < OUTTIME + ε``) plus the
  admission's ``Discharge summary`` notes (they have no ``CHARTTIME``; P4's
  text adds them, its code's time filter would drop them: we follow the text
  and order them at the end of their ``CHARTDATE``).
* ``phenotype_first`` — the earliest ``Nursing`` or ``Physician`` note in the
  first 48 h (+ ε); if there is none, the earliest ``Nursing/other`` note in
  the first 48 h; if neither, the stay is dropped (``note_rule`` says which).
  P4's published code sorts newest first and takes the *latest* such note
  of the stay when it is within 48 h; we follow the paper's "first".

Sequences: each note is cut into token windows (:func:`.mimic_text.note_windows`,
510 tokens, stride 256, ≤ 10 per note); for ``inhosp_mort`` and ``phenotype_all``
notes are taken newest first while the total stays within 30 windows (a note
that does not fit is skipped, an older smaller one may still fit, as in P4's
code), then put back in time order. ``text`` is the chosen notes' texts in time
order joined by a blank line; ``sequences`` is a JSON list of the windows.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from ...export import store_csv
from ...errors import InputError
from ...loaders.mimic import iter_mimic_csv, parse_mimic_datetime, parse_mimic_int
from .mimic_cohorts import (ATTRIBUTE_COLUMNS, TABLE_REQUIRED, MimicTables, assign_splits, end_of_day,
                            read_mimic_tables, read_subject_list, stay_cohort)
from .mimic_phenotypes import MORTALITY_TASK, phenotype_labels, task_definitions
from .mimic_text import Tokenizer, note_windows, regex_tokenizer
from ...atomic import write_text

__all__ = ["build_mimic_tasks", "MimicTasks", "TaskOptions", "iter_notes", "COHORTS", "MORTALITY_TYPES",
           "FIRST_NOTE_TYPES", "FALLBACK_TYPES", "DISCHARGE", "KEY_COLUMNS"]

COHORTS = ("inhosp_mort", "phenotype_all", "phenotype_first")
MORTALITY_TYPES = ("nursing", "nursing/other", "physician")
FIRST_NOTE_TYPES = ("nursing", "physician")
FALLBACK_TYPES = ("nursing/other",)
DISCHARGE = "discharge summary"
KEY_COLUMNS = ["example_id", "split", "subject_id", "hadm_id", "icustay_id", "intime", "note_ids", "n_notes",
               "n_sequences"]


@dataclass(frozen=True)
class TaskOptions:
    """Parameters of the construction (defaults: P4's)."""

    window_hours: float = 48.0
    eps_hours: float = 0.001
    window: int = 510
    stride: int = 256
    max_windows: int = 10
    max_sequences: int = 30
    min_age: float = 18.0
    test_fraction: float = 0.15
    valid_fraction: float = 0.2
    seed: int = 0


@dataclass
class MimicTasks:
    """The three task tables, the 57-task index, the patient splits and every exclusion."""

    tables: dict[str, pd.DataFrame]
    tasks: pd.DataFrame
    splits: pd.DataFrame
    exclusions: pd.DataFrame
    options: TaskOptions
    source: dict[str, str] = field(default_factory=dict)

    def task_columns(self, cohort: str) -> list[str]:
        return [t.name for t in task_definitions() if t.cohort == cohort]

    def labels_long(self) -> pd.DataFrame:
        """``example_id, cohort, task, label, split``, the ids and the attributes: one row per example × task."""
        parts = []
        keep = ["example_id", "split", "subject_id", "hadm_id", "icustay_id"] + ATTRIBUTE_COLUMNS
        for cohort, df in self.tables.items():
            long = df[keep + self.task_columns(cohort)].melt(id_vars=keep, var_name="task", value_name="label")
            long.insert(1, "cohort", cohort)
            parts.append(long)
        cols = ["example_id", "cohort", "task", "label"] + keep[1:]
        return pd.concat(parts, ignore_index=True)[cols]

    def write(self, out: str | Path) -> dict[str, Path]:
        """Write the tables as CSV into ``out``; returns the paths by name."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        paths = {}
        for name, df in {**self.tables, "tasks": self.tasks, "splits": self.splits, "exclusions": self.exclusions,
                         "labels_long": self.labels_long()}.items():
            paths[name] = out / f"{name}.csv"
            store_csv(df, paths[name])  # safe to open; read_store_table gives it back exactly
        meta = {"generator": "clinaudit mimic-tasks", "options": self.options.__dict__, "source": self.source,
                "rows": {k: len(v) for k, v in self.tables.items()}, "tasks": len(self.tasks)}
        paths["manifest"] = out / "mimic_tasks.json"
        write_text(paths["manifest"], json.dumps(meta, indent=2) + "\n")
        return paths


def iter_notes(tables: MimicTables, *, hadm_ids: set[int] | None = None, categories: tuple[str, ...] | None = None,
               counts: Counter | None = None) -> Iterator[dict[str, Any]]:
    """Stream NOTEEVENTS: inpatient, non-error notes (of ``categories``, casefolded, and ``hadm_ids`` when given)."""
    path = tables.paths["NOTEEVENTS"]
    counts = Counter() if counts is None else counts
    owner = dict(zip(tables.admissions["hadm_id"], tables.admissions["subject_id"]))
    seen: dict[int, int] = {}
    for row, r in iter_mimic_csv(path, tables.encoding, TABLE_REQUIRED["NOTEEVENTS"]):
        counts["read"] += 1
        rid = parse_mimic_int(r["ROW_ID"], path, row, "ROW_ID")
        if rid in seen:
            raise InputError(f"duplicate ROW_ID {rid}: rows {seen[rid]} and {row}", file=str(path), row=row,
                             field="ROW_ID")
        seen[rid] = row  # type: ignore[index]
        hid = parse_mimic_int(r["HADM_ID"], path, row, "HADM_ID", required=False)
        if hid is None:
            counts["outpatient note (no HADM_ID)"] += 1
            continue
        if r.get("ISERROR", "").strip() in ("1", "1.0"):
            counts["ISERROR = 1"] += 1
            continue
        cat = r["CATEGORY"].strip()
        if categories is not None and cat.casefold() not in categories:
            counts["note category not used"] += 1
            continue
        if hadm_ids is not None and hid not in hadm_ids:
            counts["admission not in the cohort"] += 1
            continue
        sid = parse_mimic_int(r["SUBJECT_ID"], path, row, "SUBJECT_ID")
        if hid in owner and owner[hid] != sid:
            raise InputError(f"admission {hid} belongs to subject {owner[hid]}, the note says {sid}", file=str(path),
                             row=row, field="SUBJECT_ID")
        ctime = parse_mimic_datetime(r["CHARTTIME"], path, row, "CHARTTIME")
        cdate = parse_mimic_datetime(r["CHARTDATE"], path, row, "CHARTDATE")
        if ctime is None and cdate is None:
            raise InputError("a note needs a CHARTTIME or a CHARTDATE", file=str(path), row=row, field="CHARTDATE")
        counts["kept"] += 1
        yield {"row_id": rid, "subject_id": sid, "hadm_id": hid,
               "category": cat, "cat": cat.casefold(), "charttime": ctime, "chartdate": cdate,
               "order": ctime if ctime is not None else end_of_day(cdate), "text": r["TEXT"]}  # type: ignore[arg-type]


class _Builder:
    def __init__(self, opts: TaskOptions, tokenize: Tokenizer):
        self.o, self.tokenize = opts, tokenize
        self.windows: dict[int, list[str]] = {}

    def wins(self, note: dict[str, Any]) -> list[str]:
        rid = note["row_id"]
        if rid not in self.windows:
            self.windows[rid] = note_windows(note["text"], self.tokenize, window=self.o.window, stride=self.o.stride,
                                             max_windows=self.o.max_windows)
        return self.windows[rid]

    def in_window(self, note: dict[str, Any], start: datetime, hours: float) -> bool:
        t = note["charttime"]
        return t is not None and start <= t < start + timedelta(hours=hours + self.o.eps_hours)

    def aggregate(self, notes: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
        chosen, n = [], 0
        for note in sorted(notes, key=lambda x: (x["order"], x["row_id"]), reverse=True):
            w = self.wins(note)
            if w and n + len(w) <= self.o.max_sequences:
                chosen.append(note)
                n += len(w)
        chosen.reverse()
        return chosen, [s for note in chosen for s in self.wins(note)]


def _row(prefix: str, stay: Any, notes: list[dict[str, Any]], seqs: list[str]) -> dict[str, Any]:
    return {"example_id": f"{prefix}-{stay.icustay_id}", "subject_id": stay.subject_id, "hadm_id": stay.hadm_id,
            "icustay_id": stay.icustay_id, "intime": stay.intime.isoformat(sep=" "),
            "note_ids": " ".join(str(n["row_id"]) for n in notes), "n_notes": len(notes), "n_sequences": len(seqs),
            **{a: getattr(stay, a) for a in ATTRIBUTE_COLUMNS},
            "text": "\n\n".join(n["text"] for n in notes), "sequences": json.dumps(seqs, ensure_ascii=False)}


def build_mimic_tasks(folder: str | Path, *, test_subjects: str | Path | set[int] | None = None,
                      tokenizer: Tokenizer | None = None, options: TaskOptions | None = None,
                      encoding: str = "utf-8") -> MimicTasks:
    """Build the three task tables from a MIMIC-III folder (see the module docstring for every rule)."""
    o = options or TaskOptions()
    for name in ("window", "stride", "max_windows", "max_sequences"):
        if int(getattr(o, name)) < 1:
            raise InputError(f"expected a positive integer, got {getattr(o, name)!r}", field=name)
    tables = read_mimic_tables(folder, encoding)
    for name, df in (("PATIENTS", tables.patients), ("ADMISSIONS", tables.admissions), ("ICUSTAYS", tables.icustays)):
        if df.empty:
            raise InputError(f"the {name} table has no rows (a header only): there are no patients to build "
                             "cohorts from", file=str(tables.paths[name]))
    cohort = stay_cohort(tables, min_age=o.min_age)
    stays = cohort.stays
    if stays.empty:
        why = cohort.exclusions["reason"].value_counts().head(3) if "reason" in cohort.exclusions else {}
        raise InputError(f"no ICU stay of the {len(tables.icustays)} in ICUSTAYS passes the cohort rules (" +
                         ("; ".join(f"{reason}: {n}" for reason, n in why.items()) or "none read") + ")",
                         file=str(tables.paths["ICUSTAYS"]))
    b = _Builder(o, tokenizer or regex_tokenizer)
    counts: Counter = Counter()
    by_hadm: dict[int, list[dict[str, Any]]] = {}
    for note in iter_notes(tables, hadm_ids=set(stays["hadm_id"]), categories=MORTALITY_TYPES + (DISCHARGE,),
                           counts=counts):
        by_hadm.setdefault(note["hadm_id"], []).append(note)
    codes = tables.diagnoses.groupby("hadm_id")["icd9_code"].agg(list).to_dict()
    excl = [cohort.exclusions]
    drops: list[dict[str, Any]] = []

    def drop(name: str, stay: Any, reason: str) -> None:
        drops.append({"cohort": name, "level": "icustay", "subject_id": stay.subject_id, "hadm_id": stay.hadm_id,
                      "icustay_id": stay.icustay_id, "reason": reason})

    rows: dict[str, list[dict[str, Any]]] = {c: [] for c in COHORTS}
    h = o.window_hours
    for stay in stays.itertuples(index=False):
        notes = by_hadm.get(stay.hadm_id, [])
        los_h = None if stay.los is None or pd.isna(stay.los) else float(stay.los) * 24
        intime = stay.intime.to_pydatetime()
        early = [n for n in notes if n["cat"] in MORTALITY_TYPES and b.in_window(n, intime, h)]
        # in-hospital mortality
        if los_h is None:
            drop("inhosp_mort", stay, "no OUTTIME / LOS")
        elif los_h < h - 1e-6:
            drop("inhosp_mort", stay, f"ICU stay shorter than {h:g} h")
        elif not any(b.wins(n) for n in early):
            drop("inhosp_mort", stay, f"no Nursing, Nursing/other or Physician note in the first {h:g} h")
        else:
            chosen, seqs = b.aggregate(early)
            rows["inhosp_mort"].append({**_row("M", stay, chosen, seqs), MORTALITY_TASK: int(stay.inhosp_mort)})
        if los_h is None:
            drop("phenotype_all", stay, "no OUTTIME / LOS")
            drop("phenotype_first", stay, "no OUTTIME / LOS")
            continue
        labels = phenotype_labels(codes.get(stay.hadm_id, []))
        # phenotyping, all notes
        stay_notes = [n for n in notes if (n["cat"] in MORTALITY_TYPES and b.in_window(n, intime, los_h))
                      or n["cat"] == DISCHARGE]
        if not any(b.wins(n) for n in stay_notes):
            drop("phenotype_all", stay, "no Nursing, Nursing/other or Physician note during the stay and no "
                                        "Discharge summary")
        else:
            chosen, seqs = b.aggregate(stay_notes)
            rows["phenotype_all"].append({**_row("PA", stay, chosen, seqs),
                                          **{f"PA {k}": v for k, v in labels.items()}})
        # phenotyping, first note
        first = [n for n in early if n["cat"] in FIRST_NOTE_TYPES and b.wins(n)]
        rule = "Nursing or Physician"
        if not first:
            first, rule = [n for n in early if n["cat"] in FALLBACK_TYPES and b.wins(n)], "Nursing/other (fallback)"
        if not first:
            drop("phenotype_first", stay, f"no Nursing, Physician or Nursing/other note in the first {h:g} h")
            continue
        note = min(first, key=lambda x: (x["charttime"], x["row_id"]))
        rows["phenotype_first"].append({**_row("PF", stay, [note], b.wins(note)), "note_rule": rule,
                                        **{f"PF {k}": v for k, v in labels.items()}})

    if isinstance(test_subjects, (str, Path)):
        test_set: set[int] | None = read_subject_list(test_subjects)
    else:
        test_set = None if test_subjects is None else {int(s) for s in test_subjects}
    splits = assign_splits(tables.patients["subject_id"].to_numpy(), test_subjects=test_set,
                           test_fraction=o.test_fraction, valid_fraction=o.valid_fraction, seed=o.seed)
    split_of = dict(zip(splits["subject_id"], splits["split"]))
    out_tables = {}
    for c in COHORTS:
        cols = KEY_COLUMNS + ATTRIBUTE_COLUMNS + ["text", "sequences"] + (["note_rule"] if c == "phenotype_first"
                                                                          else []) + \
            [t.name for t in task_definitions() if t.cohort == c]
        df = pd.DataFrame(rows[c], columns=[x for x in cols if x != "split"])
        df.insert(1, "split", df["subject_id"].map(split_of))
        out_tables[c] = df[cols].reset_index(drop=True)
    if not any(len(df) for df in out_tables.values()):
        raise InputError(f"none of the {len(stays)} ICU stays of the cohort has a usable note in any task cohort "
                         f"(notes read: {counts.get('read', 0)}, kept: {counts.get('kept', 0)})",
                         file=str(tables.paths.get("NOTEEVENTS", Path(folder) / "NOTEEVENTS.csv")))
    note_excl = pd.DataFrame([{"cohort": "all", "level": "note", "reason": k, "n": v} for k, v in counts.items()
                              if k not in ("read", "kept")])
    exclusions = pd.concat(excl + [pd.DataFrame(drops)], ignore_index=True)
    exclusions["n"] = 1
    exclusions = pd.concat([exclusions, note_excl], ignore_index=True)
    if test_set is not None:
        unknown = sorted(test_set - set(split_of))
        if unknown:
            exclusions = pd.concat([exclusions, pd.DataFrame([{
                "cohort": "all", "level": "subject", "reason": "held-out test subject not in PATIENTS",
                "n": len(unknown)}])], ignore_index=True)
    for col in ("subject_id", "hadm_id", "icustay_id", "n"):
        exclusions[col] = exclusions[col].astype("Int64")
    src = {k: str(v) for k, v in tables.paths.items()}
    if isinstance(test_subjects, (str, Path)):
        src["test_subjects"] = str(test_subjects)
    return MimicTasks(tables=out_tables, tasks=_task_index(out_tables), splits=splits, exclusions=exclusions,
                      options=o, source=src)


def _task_index(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    recs = []
    for t in task_definitions():
        df = tables[t.cohort]
        y = df[t.name]
        rec = {"task": t.name, "cohort": t.cohort, "table": f"{t.cohort}.csv", "kind": t.kind,
               "description": t.description, "groups": ";".join(t.groups), "n": len(df), "n_pos": int(y.sum()),
               "prevalence": float(y.mean()) if len(df) else float("nan")}
        for s in ("train", "valid", "test"):
            m = df["split"] == s
            rec[f"n_{s}"], rec[f"n_pos_{s}"] = int(m.sum()), int(y[m].sum())
        recs.append(rec)
    return pd.DataFrame(recs)
