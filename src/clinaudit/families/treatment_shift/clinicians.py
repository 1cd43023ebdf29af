"""Clinicians as a reference rater, accuracy against clinicians, invalid clinician labels.

Three additions to the treatment-shift analysis (issue 13 items 4 and 5), all
computed through the paired-statistics layer (:mod:`clinaudit.stats`):

**Clinicians' own shift.** When human labels exist for *every* variant (MedPerturb:
three clinicians per perturbed context), the clinicians are a rater like a model:
their TSR / RCR per perturbation is computed for the majority of the clinicians of a
row (rater ``clinicians``) and per clinician slot (``clinician_1`` …). In MedPerturb
each arm is labelled by a *different* set of clinicians, so the clinicians' shift is
"what another clinician team answers when given the perturbed text": it includes the
between-clinician disagreement. Table ``clinician_metrics``; the majority rows are also
appended to ``metrics`` with ``model = clinicians``.

**Excess over clinicians.** For each model × perturbation × question × metric, the
model's shift minus the clinicians' (majority) shift on the same cases: pairs of the
model (baseline vs perturbed answer, one per case and seed) form the arm, the
clinicians' pairs of the same case are the control arm
(:class:`clinaudit.stats.PairedFrame` with ``control="clinicians"``). CI: case
bootstrap (a case's model and clinician pairs move together); test: one-sided
sign-flip permutation over cases of d_c = mean(model flips of c) − clinicians' flip
of c (H1: the model shifts more). ``flagged`` = p_adj < 0.05 and excess > 0: a model
that shifts no more than clinicians do is never flagged. Table
``excess_over_clinicians``.

**Accuracy against clinicians.** Each model label against the reference label of the
same case, question and variant: the clinicians' majority on that variant when
per-variant clinician labels exist, else the clinician label V of the baseline case.
Rows ``accuracy`` (level, case-bootstrap CI, no test) and ``accuracy_change``
(perturbation − baseline, baseline answers of the same case as control arm, two-sided
sign-flip test, correction over the perturbations). Table ``accuracy_vs_clinicians``.

**Invalid clinician labels** (a value that is neither empty nor a 0/1, yes/no label)
are never silently "not validated": each distinct invalid value is a row of
``exclusions`` (the run's ledger: stage ``labels``, reason ``invalid_clinician_label``, source file,
row, field, value) and counted in the notes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...errors import InputError
from ...exclusions import EXCLUSION_COLUMNS as LEDGER_COLUMNS

__all__ = [
    "CLINICIANS",
    "CLINICIAN_COLUMNS",
    "EXCLUSION_COLUMNS",
    "INVALID_REASON",
    "parse_clinician_label",
    "case_validation",
    "read_medperturb_clinicians",
    "read_long_clinicians",
    "normalize_clinicians",
    "clinician_majority",
    "clinician_pairs",
    "shift_scores",
    "clinician_metrics",
    "excess_over_clinicians",
    "accuracy_vs_clinicians",
    "validation_exclusions",
    "add_clinician_tables",
]

#: Rater name of the clinicians' majority (the ``model`` value in ``metrics.csv``).
CLINICIANS = "clinicians"
#: Columns of a clinician label table (one row per clinician label).
CLINICIAN_COLUMNS = ["dataset", "case_id", "variant", "rater", "rater_id", "question", "label", "source_file",
                     "source_row"]
#: Columns of the ``exclusions`` rows of invalid clinician labels: the run's one exclusions ledger
#: (:data:`clinaudit.exclusions.EXCLUSION_COLUMNS`: stage, case_id, reason, detail, item, source, row) plus
#: where the value was and what it was.
EXCLUSION_COLUMNS = list(dict.fromkeys(LEDGER_COLUMNS + ["dataset", "variant", "question", "field", "value",
                                                          "effect"]))
#: ``stage`` and ``reason`` of an invalid clinician label in the ledger.
INVALID_STAGE, INVALID_REASON = "labels", "invalid_clinician_label"

_QUESTIONS = ("MANAGE", "VISIT", "RESOURCE")
_TRUE = {"1", "1.0", "yes", "y", "true", "t", "[yes]"}
_FALSE = {"0", "0.0", "no", "n", "false", "f", "[no]"}
_EMPTY = {"", "nan", "na", "none", "null"}
_NOISE_FLOOR = "noise_floor"


# --------------------------------------------------------------------------- parsing


def parse_clinician_label(value: Any) -> tuple[float, str]:
    """``(label, reason)``: 1.0 / 0.0 for a valid label, NaN for an empty one (reason ``""``),
    NaN with a reason for an invalid one (anything else, e.g. ``2`` or ``maybe``)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return math.nan, ""
    v = str(value).strip().lower()
    if v in _EMPTY:
        return math.nan, ""
    if v in _TRUE:
        return 1.0, ""
    if v in _FALSE:
        return 0.0, ""
    return math.nan, f"invalid clinician label {value!r}: expected 0/1 (or yes/no)"


def case_validation(fields: dict[str, Any], question: str, field_name: str = "validation") -> tuple[Any, str]:
    """The clinician label V of a case for ``question`` from its fields, and the field it came from.

    Candidates, in order: a ``<field_name>_<QUESTION>`` or ``V_<QUESTION>`` field, then a
    ``<field_name>`` or ``clinician_majority`` dict ``{QUESTION: label}`` (or its JSON
    text). The first non-empty candidate decides: a valid label gives 1.0 / 0.0; an
    invalid one is returned **as given** (so the analysis reports it, see
    :func:`validation_exclusions`); none gives ``(nan, "")``.
    """
    import json

    q = question.upper()
    cands: list[tuple[Any, str]] = []
    for key, val in fields.items():
        if key.lower() in {f"{field_name}_{q}".lower(), f"v_{q}".lower()}:
            cands.append((val, key))
    for name in (field_name, "clinician_majority"):
        d = fields.get(name)
        if isinstance(d, str) and d.strip().startswith("{"):
            try:
                d = json.loads(d)
            except json.JSONDecodeError:
                cands.append((d, name))
                continue
        if isinstance(d, dict):
            cands.append((d.get(q, d.get(q.lower())), f"{name}.{q}"))
    for val, key in cands:
        label, reason = parse_clinician_label(val)
        if reason:
            return val, key
        if not math.isnan(label):
            return label, key
    return math.nan, ""


def validation_exclusions(labels: pd.DataFrame, default_file: str = "") -> pd.DataFrame:
    """One ``exclusions`` row per distinct invalid clinician label V in a (raw) label table.

    Reads the ``validation`` column before it is coerced to numbers. File / row /
    field come from the optional columns ``validation_file`` / ``validation_row`` /
    ``validation_field`` (else ``source_file`` / ``source_row`` / ``validation``).
    """
    if "validation" not in labels.columns or labels.empty:
        return pd.DataFrame(columns=EXCLUSION_COLUMNS)
    bad = [(i, parse_clinician_label(v)[1]) for i, v in zip(labels.index, labels["validation"])]
    bad = [(i, r) for i, r in bad if r]
    rows = []
    for i, reason in bad:
        r = labels.loc[i]
        get = partial(_first_filled, r)
        row = get("validation_row", "source_row", default=None)
        q = str(get("question")).upper()
        rows.append({"case_id": str(r["case_id"]), "item": q, "detail": reason,
                     "source": str(get("validation_file", "source_file", default=default_file)),
                     "row": int(row) if row is not None else None, "dataset": str(get("dataset", default="data")),
                     "variant": str(get("variant")), "question": q,
                     "field": str(get("validation_field", default="validation")), "value": str(r["validation"]),
                     "effect": "case not validated for this question: left out of RCER and of accuracy against "
                               "clinicians"})
    out = _ledger(rows)
    # one row per invalid value (the same case field is repeated on every model / seed / variant row)
    return out.drop_duplicates(subset=["dataset", "case_id", "question", "source", "row", "field", "value"])\
        .reset_index(drop=True)


def _first_filled(row: pd.Series, *names: str, default: Any = "") -> Any:
    """The value of the first of ``names`` that ``row`` has and that is neither missing nor empty."""
    for n in names:
        if n in row.index and pd.notna(row[n]) and str(row[n]) != "":
            return row[n]
    return default


def _ledger(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Ledger rows (stage ``labels``, reason ``invalid_clinician_label``); ``detail`` says what and where."""
    ex = pd.DataFrame(rows, columns=EXCLUSION_COLUMNS)
    ex["stage"], ex["reason"] = INVALID_STAGE, INVALID_REASON
    ex["detail"] = [f"{why}; {src or '(no file)'}, row {r if r is not None and not pd.isna(r) else '?'}, field {fld}"
                    for why, src, r, fld in zip(ex["detail"], ex["source"], ex["row"], ex["field"])]
    return ex


# --------------------------------------------------------------------------- clinician label tables


def read_medperturb_clinicians(path: str | Path, *, fix_published: bool = True) -> tuple[pd.DataFrame, list[str]]:
    """The clinician labels of MedPerturb ``data.csv`` → a clinician label table (:data:`CLINICIAN_COLUMNS`).

    Cases and arms as :func:`.labels.read_medperturb_labels`
    reads them (same published-file fixes, later duplicate rows ignored); ``rater`` =
    ``clinician_<k>`` for the k-th clinician column of a row, ``rater_id`` = its
    ``Clinician_<k>`` id.
    """
    from ...loaders.base import DataSource, load_cases
    from .labels import MEDPERTURB_FIXES

    p = Path(path)
    overrides = {str(i): fix[2] for i, fix in MEDPERTURB_FIXES.items()} if fix_published else {}
    cases = load_cases(DataSource(format="medperturb", path=str(p), options={"context_id_overrides": overrides}))
    expected: dict[Any, tuple[str, str]] = {i: (fix[0], fix[1]) for i, fix in MEDPERTURB_FIXES.items()}
    if any(expected.get(c.fields.get("index")) != (c.fields["dataset"], str(c.fields["context_id_published"]))
           for c in cases if c.fields.get("context_id_published") is not None):
        cases = load_cases(DataSource(format="medperturb", path=str(p)))  # not the file the fixes were written for
    rows: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for case in cases:
        f = case.fields
        key = (str(f["dataset"]), str(f["context_id"]), str(f.get("arm")))
        if f.get("arm") is None or key in seen:
            continue  # unknown arms raise and duplicates are noted by the model-label reader
        seen.add(key)
        ids = f.get("clinician_ids") or []
        for q in _QUESTIONS:
            for k, v in enumerate((f.get("clinician_labels") or {}).get(q, []), start=1):
                rid = ids[k - 1] if k - 1 < len(ids) else None
                rows.append({"dataset": key[0], "case_id": key[1], "variant": key[2], "rater": f"clinician_{k}",
                             "rater_id": "" if rid is None else str(int(rid) if float(rid).is_integer() else rid),
                             "question": q, "label": math.nan if v is None else float(v), "source_file": str(p),
                             "source_row": case.source_row})
    out = pd.DataFrame(rows, columns=CLINICIAN_COLUMNS)
    ids = out[out["rater_id"] != ""].drop_duplicates(["dataset", "case_id", "variant", "rater_id"])
    is_b = ids["variant"].isin(["baseline", "vignette"])
    same = ids[is_b].merge(ids[~is_b], on=["dataset", "case_id", "rater_id"])
    notes = [f"clinicians as a reference rater: MedPerturb labels every arm by {out['rater'].nunique()} clinicians; "
             f"{len(same)} (case, clinician) pairs have the same clinician on the baseline and a perturbed arm, so "
             "the clinicians' shift mostly compares different clinicians and includes their disagreement"]
    return out, notes


def read_long_clinicians(path: str | Path, *, encoding: str = "utf-8") -> pd.DataFrame:
    """A clinician label CSV (one row per clinician label) → a clinician label table.

    Columns: ``case_id``, ``variant``, ``rater`` (the clinician), ``question``, ``label``
    (required); ``dataset`` (default ``data``), ``rater_id`` (optional). A missing
    column, an empty key or an unknown question is an error naming file, row and field;
    an invalid *label* is kept as given and becomes an ``exclusions`` row in the analysis.
    A repeated (dataset, case, variant, rater, question) is an error naming both rows.
    """
    from ...loaders.formats import read_csv_table

    p = Path(path)
    if not p.exists():
        raise InputError("file not found", file=str(p))
    table = read_csv_table(p, encoding)
    need = ["case_id", "variant", "rater", "question", "label"]
    missing = [c for c in need if c not in table.header]
    if missing:
        raise InputError(f"missing required column(s) {', '.join(missing)}; a clinician label file needs "
                         f"{', '.join(need)} (optional: dataset, rater_id)", file=str(p), field=missing[0])
    rows: list[dict[str, Any]] = []
    seen: dict[tuple[Any, ...], int] = {}
    for row, rec in table.rows:
        out: dict[str, Any] = {"dataset": (rec.get("dataset") or "").strip() or "data",
                               "rater_id": (rec.get("rater_id") or "").strip(), "label": rec["label"],
                               "source_file": str(p), "source_row": row}
        for col in ("case_id", "variant", "rater"):
            out[col] = rec[col].strip()
            if not out[col]:
                raise InputError("empty value", file=str(p), row=row, field=col)
        out["question"] = rec["question"].strip().upper()
        if out["question"] not in _QUESTIONS:
            raise InputError(f"unknown question {rec['question']!r}; expected one of {', '.join(_QUESTIONS)}",
                             file=str(p), row=row, field="question")
        key = (out["dataset"], out["case_id"], out["variant"], out["rater"], out["question"])
        if key in seen:
            raise InputError(f"duplicate clinician label for {key} (first given in row {seen[key]})", file=str(p),
                             row=row, field="label")
        seen[key] = row
        rows.append(out)
    if not rows:
        raise InputError("no clinician label rows", file=str(p))
    return pd.DataFrame(rows, columns=CLINICIAN_COLUMNS)


def normalize_clinicians(clin: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Canonical clinician label table and the ``exclusions`` rows of its invalid labels (set to NaN)."""
    missing = [c for c in ("case_id", "variant", "rater", "question", "label") if c not in clin.columns]
    if missing:
        raise InputError(f"the clinician label table lacks column(s) {', '.join(missing)}", field=missing[0])
    d = clin.copy()
    for col, default in (("dataset", "data"), ("rater_id", ""), ("source_file", ""), ("source_row", None)):
        if col not in d.columns:
            d[col] = default
    for col in ("dataset", "case_id", "variant", "rater", "rater_id"):
        d[col] = d[col].fillna("").astype(str)
    d["question"] = d["question"].astype(str).str.upper()
    parsed = [parse_clinician_label(v) for v in d["label"]]
    excl = [{"case_id": r["case_id"], "item": f"{r['variant']}:{r['question']}:{r['rater']}", "detail": why,
             "source": r["source_file"], "row": r["source_row"], "dataset": r["dataset"], "variant": r["variant"],
             "question": r["question"], "field": r["rater"], "value": str(r["label"]),
             "effect": "label left out of the clinicians' majority, their shift and the accuracy reference"}
            for (_, r), (_, why) in zip(d.iterrows(), parsed) if why]
    d["label"] = [v for v, _ in parsed]
    return d[CLINICIAN_COLUMNS].reset_index(drop=True), _ledger(excl)


def clinician_majority(clin: pd.DataFrame) -> pd.DataFrame:
    """Majority label per (dataset, case, variant, question) over the clinicians with a label
    (a tie or no label → NaN), as rater :data:`CLINICIANS`, plus the per-clinician rows."""
    keys = ["dataset", "case_id", "variant", "question"]
    g = clin.dropna(subset=["label"]).groupby(keys, sort=False)["label"]
    s, n = g.sum(), g.count()
    maj = pd.Series(np.where(2 * s > n, 1.0, np.where(2 * s < n, 0.0, np.nan)), index=s.index, name="label")
    ids = clin.groupby(keys, sort=False)["rater_id"].agg(lambda x: ";".join(sorted({i for i in x if i})))
    m = pd.concat([maj, ids], axis=1).reset_index().assign(rater=CLINICIANS)
    return pd.concat([m, clin[keys + ["rater", "rater_id", "label"]]], ignore_index=True)


def _baselines(variants: pd.DataFrame, baseline: str | None) -> dict[str, str]:
    out = {}
    for ds, g in variants.groupby("dataset", sort=True):
        names = set(g["variant"])
        name = baseline or ("baseline" if "baseline" in names else "vignette" if "vignette" in names else None)
        if name is None or name not in names:
            raise InputError(f"dataset {ds!r} has no {name or 'baseline'!r} rows among the clinician labels; "
                             f"variants: {', '.join(sorted(names))}", field="variant")
        out[ds] = name
    return out


def clinician_pairs(raters: pd.DataFrame, baseline: str | None = None) -> pd.DataFrame:
    """Per rater, case and question: the baseline label ``T_b`` against each other variant's ``T_p``.

    ``raters``: the output of :func:`clinician_majority`. Columns ``dataset, case_id,
    rater, perturbation, question, T_b, T_p, ids_b, ids_p`` (rater ids on each side).
    """
    from ...pipeline.pairing import pair_with_baseline

    bnames = _baselines(raters, baseline)
    is_b = raters["variant"] == raters["dataset"].map(bnames)
    keys = ["dataset", "case_id", "rater", "question"]
    # clinicians' labels have no seed: each variant's label against the rater's baseline label of the case
    out = pair_with_baseline(raters, keys=keys, baseline=is_b, arm="variant", seed=None, value="label",
                             carry=["rater_id"])
    out = out.rename(columns={"variant": "perturbation", "alt": "T_p", "ref": "T_b", "rater_id": "ids_p",
                              "rater_id_b": "ids_b"})
    return out[["dataset", "case_id", "rater", "perturbation", "question", "T_b", "T_p", "ids_b", "ids_p"]]


# --------------------------------------------------------------------------- scores and statistics


def shift_scores(pairs: pd.DataFrame, metrics: Sequence[str] = ("TSR", "RCR")) -> pd.DataFrame:
    """Long per-pair scores: TSR → 1[T_b ≠ T_p]; RCR → 1[T_b = c⁺ ∧ T_p = c⁻]; NaN when a label is missing.

    Adds ``metric``, ``score`` and ``case`` (= ``dataset::case_id``, the unit of resampling).
    """
    from .metrics import care_plus

    b = pd.to_numeric(pairs["T_b"], errors="coerce").to_numpy(float)
    p = pd.to_numeric(pairs["T_p"], errors="coerce").to_numpy(float)
    ok = ~(np.isnan(b) | np.isnan(p))
    cp = np.array([care_plus(q) for q in pairs["question"]], dtype=float) if len(pairs) else np.zeros(0)
    frames = []
    for m in metrics:
        if m == "TSR":
            s = (b != p).astype(float)
        elif m == "RCR":
            s = ((b == cp) & (p == 1 - cp)).astype(float)
        else:
            raise ValueError(f"unknown metric {m!r}; expected TSR or RCR")
        frames.append(pairs.assign(metric=m, score=np.where(ok, s, np.nan)))
    out = pd.concat(frames, ignore_index=True) if frames else pairs.assign(metric="", score=np.nan)
    return out.assign(case=out["dataset"].astype(str) + "::" + out["case_id"].astype(str))


def _without_test(t: pd.DataFrame) -> pd.DataFrame:
    """A descriptive level (rate and its case-bootstrap CI) has no null to test: blank the test columns
    (the layer was called with a single permutation, whose p is meaningless)."""
    t = t.copy()
    for c in ("test", "alternative", "null_hypothesis", "effect_size_name", "test_note", "reference", "family",
              "correction"):
        if c in t.columns:
            t[c] = ""
    for c in ("statistic", "p", "p_adj", "effect_size"):
        if c in t.columns:
            t[c] = np.nan
    return t


def _stat_kw(n_resamples: int, seed: int, correction: str, audit: str, n_permutations: int = 9999) -> dict[str, Any]:
    return {"audit": audit, "n_resamples": n_resamples, "seed": seed, "correction": correction,
            "n_permutations": n_permutations}


def clinician_metrics(pairs: pd.DataFrame, *, n_resamples: int = 1000, seed: int = 0, correction: str = "holm",
                      audit: str = "treatment_shift", n_permutations: int = 9999) -> pd.DataFrame:
    """Clinicians' own TSR / RCR per dataset × rater × perturbation × question.

    ``value`` = ``rate`` (raw, no floor); CI: case bootstrap; no test (a shift rate
    without a re-sampled floor has no null: :data:`.metrics.NO_FLOOR_NO_TEST`; the
    clinicians' shift is the *reference* models are tested against,
    :func:`excess_over_clinicians`). ``ids_baseline`` / ``ids_perturbed``: the
    clinician ids on each side.
    """
    from ...stats import PairedFrame
    from .metrics import NO_FLOOR_NO_TEST

    sc = shift_scores(pairs)
    kw = _stat_kw(n_resamples, seed, correction, audit, n_permutations)
    frames = []
    for metric, g in sc.groupby("metric", sort=False):
        maj = g["rater"] == CLINICIANS
        pf = PairedFrame(g[maj], case="case", arm="perturbation", score="score", by=("dataset", "rater", "question"))
        own = _without_test(pf.compare(metric=metric, alternative="greater", null=0.0, **kw))
        frames.append(own.assign(test_note=NO_FLOOR_NO_TEST))
        if (~maj).any():  # single clinicians: descriptive (rate and CI), no test
            pf = PairedFrame(g[~maj], case="case", arm="perturbation", score="score",
                             by=("dataset", "rater", "question"))
            frames.append(_without_test(pf.compare(metric=metric, null=0.0, **{**kw, "n_permutations": 1})))
    t = pd.concat(frames, ignore_index=True).rename(columns={"group": "perturbation"})
    ids = pairs.groupby(["dataset", "rater", "perturbation"], sort=False).agg(
        ids_baseline=("ids_b", lambda x: ";".join(sorted({j for i in x.dropna() for j in str(i).split(";") if j}))),
        ids_perturbed=("ids_p", lambda x: ";".join(sorted({j for i in x.dropna() for j in str(i).split(";") if j}))))
    return t.merge(ids.reset_index(), on=["dataset", "rater", "perturbation"], how="left")


def excess_over_clinicians(model_pairs: pd.DataFrame, clin_pairs: pd.DataFrame, *, alpha: float = 0.05,
                           n_resamples: int = 1000, seed: int = 0, correction: str = "holm",
                           audit: str = "treatment_shift", n_permutations: int = 9999) -> pd.DataFrame:
    """Each model's TSR / RCR minus the clinicians' (majority) on the same cases, per perturbation.

    ``model_pairs``: the analysis' paired table (``dataset, case_id, model, perturbation,
    question, T_b, T_p``; noise-floor rows are ignored). Only (dataset, perturbation,
    question) cells that the clinicians labelled are compared.
    """
    from ...stats import PairedFrame

    mp = model_pairs[model_pairs["perturbation"].astype(str) != _NOISE_FLOOR]
    if (mp["model"].astype(str) == CLINICIANS).any():
        raise InputError(f"a model is named {CLINICIANS!r}, the reserved name of the clinicians' majority",
                         field="model")
    cp = clin_pairs[clin_pairs["rater"] == CLINICIANS]
    cells = cp[["dataset", "perturbation", "question"]].drop_duplicates()
    mp = mp.merge(cells, on=["dataset", "perturbation", "question"], how="inner")
    if mp.empty:
        return pd.DataFrame()
    cols = ["dataset", "case_id", "perturbation", "question", "T_b", "T_p"]
    both = pd.concat([mp[cols].assign(rater=mp["model"].astype(str)), cp[cols].assign(rater=CLINICIANS)],
                     ignore_index=True)
    sc = shift_scores(both)
    frames = []
    for metric, g in sc.groupby("metric", sort=False):
        pf = PairedFrame(g, case="case", arm="rater", score="score", by=("dataset", "perturbation", "question"),
                         control=CLINICIANS)
        frames.append(pf.compare(metric=f"{metric}_excess_over_clinicians", alternative="greater",
                                 family="perturbations", family_cols=["dataset", "group", "question"],
                                 **_stat_kw(n_resamples, seed, correction, audit, n_permutations)))
    t = pd.concat(frames, ignore_index=True).rename(columns={"group": "model", "rate": "model_rate",
                                                             "floor": "clinician_rate"})
    t["flagged"] = (t["p_adj"].astype(float) < alpha) & (t["value"].astype(float) > 0)
    return t


def accuracy_vs_clinicians(labels: pd.DataFrame, reference: pd.DataFrame, *, baseline: str | None = None,
                           n_resamples: int = 1000, seed: int = 0, correction: str = "holm",
                           audit: str = "treatment_shift", n_permutations: int = 9999) -> pd.DataFrame:
    """Model label vs the clinicians' reference label, per dataset × model × variant × question.

    ``labels``: normalised model labels (``dataset, case_id, variant, model, seed,
    question, label``); ``reference``: ``dataset, case_id, variant, question,
    reference`` (per variant) — or without ``variant`` (one label per case and
    question, applied to every variant). Rows ``accuracy`` (level; case-bootstrap
    CI; no test) and ``accuracy_change`` (variant − baseline; two-sided sign-flip over
    cases; corrected over the perturbations of one dataset × model × question).
    """
    from ...stats import PairedFrame

    keys = ["dataset", "case_id", "question"] + (["variant"] if "variant" in reference.columns else [])
    d = labels.merge(reference[keys + ["reference"]], on=keys, how="inner")
    if d.empty:
        return pd.DataFrame()
    lab, ref = d["label"].astype(float).to_numpy(), d["reference"].astype(float).to_numpy()
    d = d.assign(score=np.where(np.isnan(lab) | np.isnan(ref), np.nan, (lab == ref).astype(float)),
                 case=d["dataset"].astype(str) + "::" + d["case_id"].astype(str))
    kw = _stat_kw(n_resamples, seed, correction, audit, n_permutations)
    level = PairedFrame(d, case="case", arm="variant", score="score", by=("dataset", "model", "question"))
    frames = [_without_test(level.compare(metric="accuracy", null=0.0, **{**kw, "n_permutations": 1}))]
    bnames = _baselines(d[["dataset", "variant"]].drop_duplicates(), baseline)
    for ds, g in d.groupby("dataset", sort=True):
        if g["variant"].nunique() < 2:
            continue
        pf = PairedFrame(g, case="case", arm="variant", score="score", by=("dataset", "model", "question"),
                         control=bnames[ds])
        frames.append(pf.compare(metric="accuracy_change", alternative="two-sided", family="perturbations vs baseline",
                                 family_cols=["dataset", "model", "question"], **kw))
    out = pd.concat(frames, ignore_index=True).rename(columns={"group": "variant"})
    out["reference_label"] = ("clinicians' majority on the same variant" if "variant" in reference.columns
                              else "clinician label V of the baseline case")
    return out


# --------------------------------------------------------------------------- the hook


def _metrics_rows(cm: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Clinicians' majority rows in the ``metrics`` layout (``model`` = clinicians)."""
    m = cm[cm["rater"] == CLINICIANS]
    out = pd.DataFrame({
        "dataset": m["dataset"], "model": CLINICIANS, "perturbation": m["perturbation"], "question": m["question"],
        "metric": m["metric"], "value": m["rate"], "n": m["n_pairs"], "noise_floor": np.nan, "n_floor": 0,
        "adjusted": np.nan, "ci_low": m["ci_low"], "ci_high": m["ci_high"], "adjusted_ci_low": np.nan,
        "adjusted_ci_high": np.nan, "test": m["test"], "statistic": m["statistic"], "p": m["p"], "p_adj": m["p_adj"],
        "correction": m["correction"], "family": m["family"],
        "note": "clinicians (majority of the row's clinicians; another clinician set labels each arm): raw rate",
    })
    for c in ("n_cases", "n_pairs", "alternative", "null_hypothesis"):
        if c in m.columns:
            out[c] = m[c].to_numpy()
    return out.reindex(columns=list(dict.fromkeys(list(columns) + list(out.columns))))


def add_clinician_tables(analysis: Any, labels: pd.DataFrame, clinicians: pd.DataFrame | None = None, *,
                         baseline: str | None = None, n_resamples: int = 1000, seed: int = 0,
                         correction: str = "holm", audit: str = "treatment_shift", alpha: float = 0.05,
                         n_permutations: int = 9999, pooled: bool = False) -> Any:
    """Add the clinician tables to a :class:`~clinaudit.families.treatment_shift.analysis.LabelAnalysis` (in place).

    ``labels``: the raw label table given to the analysis (its ``validation`` column is
    checked for invalid clinician labels); ``clinicians``: a clinician label table
    (:data:`CLINICIAN_COLUMNS`) or None. Adds ``exclusions`` always,
    ``accuracy_vs_clinicians`` when a reference exists, and with ``clinicians``:
    ``clinician_metrics``, ``excess_over_clinicians`` and the ``model = clinicians``
    rows of ``metrics``; results go into ``results`` and a summary into the notes. ``pooled``: also
    ``excess_over_clinicians_pooled`` (all models as one, model = ALL), what P2 Table 3's stars follow
    when there is no noise floor.
    """
    from ...results import results_frame
    from .labels import normalize_labels

    extra: dict[str, pd.DataFrame] = {}
    results: list[pd.DataFrame] = []
    kw: dict[str, Any] = {"n_resamples": n_resamples, "seed": seed, "correction": correction, "audit": audit,
          "n_permutations": n_permutations}
    excl = [validation_exclusions(labels)]
    lab = normalize_labels(labels)
    reference = None
    if clinicians is not None and len(clinicians):
        clin, bad = normalize_clinicians(clinicians)
        excl.append(bad)
        raters = clinician_majority(clin)
        pairs = clinician_pairs(raters, baseline)
        cm = clinician_metrics(pairs, **kw)
        extra["clinician_metrics"] = cm
        analysis.metrics = pd.concat([analysis.metrics, _metrics_rows(cm, analysis.metrics.columns)],
                                     ignore_index=True)
        ex = excess_over_clinicians(analysis.per_case, pairs, alpha=alpha, **kw)
        extra["excess_over_clinicians"] = ex
        if pooled:
            extra["excess_over_clinicians_pooled"] = excess_over_clinicians(
                analysis.per_case.assign(model="ALL"), pairs, alpha=alpha, **kw)
        results += [cm, ex]
        reference = raters[raters["rater"] == CLINICIANS].rename(columns={"label": "reference"})
        tsr = cm[(cm["rater"] == CLINICIANS) & (cm["metric"] == "TSR")]
        analysis.notes.append(
            f"clinicians as a reference rater: {int(clin['label'].notna().sum())} clinician labels; clinicians' "
            f"majority TSR per perturbation {tsr['rate'].min():.2f}–{tsr['rate'].max():.2f}"
            if len(tsr) else "clinicians as a reference rater: no clinician pairs")
        if len(ex):
            for metric in ("TSR", "RCR"):
                e = ex[ex["metric"] == f"{metric}_excess_over_clinicians"]
                analysis.notes.append(
                    f"{metric} in excess of the clinicians' shift: {int(e['flagged'].sum())} of {len(e)} model × "
                    f"perturbation × question cells flagged (one-sided sign-flip test over cases, {correction} over "
                    f"the perturbations, p_adj < {alpha:g}); a model shifting no more than clinicians is not flagged")
    elif "validation" in lab.columns and lab["validation"].notna().any():
        bnames = _baselines(lab[["dataset", "variant"]].drop_duplicates(), baseline)
        base = lab[lab["variant"] == lab["dataset"].map(bnames)]
        reference = base.dropna(subset=["validation"]).groupby(["dataset", "case_id", "question"], sort=False)[
            "validation"].first().rename("reference").reset_index()
    if reference is not None and len(reference):
        acc = accuracy_vs_clinicians(lab, reference, baseline=baseline, **kw)
        if len(acc):
            extra["accuracy_vs_clinicians"] = acc
            results.append(acc)
    ex_all = pd.concat([e for e in excl if len(e)], ignore_index=True) if any(len(e) for e in excl) \
        else pd.DataFrame(columns=EXCLUSION_COLUMNS)
    extra["exclusions"] = ex_all
    if len(ex_all):
        analysis.notes.append(f"{len(ex_all)} invalid clinician label value(s) left out (not validated / not in the "
                              f"clinicians' reference), each listed in exclusions.csv with file, row and field")
    if results:
        analysis.results = results_frame(pd.concat([analysis.results] + [r for r in results if len(r)],
                                                   ignore_index=True))
    analysis.extra.update(extra)
    return analysis
