"""Exclusions by group: does a step that drops cases drop some patients more than others?

Every audit leaves cases out (a dialog with a residual identifier, a vignette with a sex-specific
term, a quality gate, an unparseable answer; :mod:`clinaudit.exclusions`). A bias audit whose own
preprocessing drops, say, more female than male cases measures a skewed sample. For every run this
module compares, per demographic attribute the run knows, the share of cases excluded in each group:

* **attributes**: the recorded sex / gender, race / ethnicity and age band of the cases
  (:data:`ATTRIBUTE_FIELDS`: case fields or columns of these names; a numeric age becomes an
  :data:`AGE_BANDS` band) and the columns the spec declares (``verdicts.exclusion_attributes``; a
  classifier audit's ``params.group_columns``). A value missing or empty is *not recorded*: listed
  in the table, left out of the test. An attribute with one recorded group, or more than
  :data:`MAX_GROUPS` (an identifier rather than a group), is listed and not tested.
* **excluded**: a case with at least one row of the exclusions ledger that concerns the whole case
  (its ``item`` is empty); a row about one variant, label or judgment of a case (``item`` set) does
  not drop the case. Cases that are arms of one patient context (a ``pair_id`` field, as MedPerturb's)
  are counted once per context, excluded when any of its arms is: the test's units are independent.
* **test** per attribute, null hypothesis "exclusion is independent of the group": two groups,
  Fisher's exact test (two-sided, :func:`scipy.stats.fisher_exact`); three or more, the
  Freeman–Halton extension (the r × 2 table's probability under fixed margins as the statistic)
  with a Monte Carlo p over 9,999 random tables of the same margins
  (``scipy.stats.fisher_exact(..., method=MonteCarloMethod)``, seeded; p = (b + 1) / (R + 1), which
  keeps the type-I error at or below alpha). Exact enumeration of r × 2 tables
  (``PermutationMethod``) took 18 s for a 3 × 2 table of 30 cases, so it is not used.
* **correction**: Holm over the tested attributes of the run (:func:`clinaudit.stats.core.correct_pvalues`:
  :func:`statsmodels.stats.multitest.multipletests`).

An attribute with ``p_holm < alpha`` is a validity finding, **sample skewed by exclusions**: it is in
the run's validity block (``exclusions_by_group``), on every verdict line of the report's first screen
beside the coverage and in findings.json, and ``clinaudit gate`` calls such a run not gateable unless
its policy sets ``validity.allow_skewed_sample: true`` (docs/verdicts.md). The rates are written to
``tables/exclusion_rates.csv`` and shown in the report under every audit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["ATTRIBUTE_FIELDS", "AGE_BANDS", "MAX_GROUPS", "RATE_COLUMNS", "case_attributes", "excluded_case_ids",
           "exclusion_rates", "skew_block", "skew_line", "NOT_RECORDED", "declared_attributes", "population",
           "ledger_with_attributes", "audit_exclusions"]

#: case fields (or cases-table columns) read as demographic attributes, with the attribute they give
ATTRIBUTE_FIELDS: dict[str, str] = {
    "sex": "sex", "patient_sex": "sex", "gender": "gender", "recorded_gender": "gender", "patient_gender": "gender",
    "original_patient_gender": "gender", "race": "race", "patient_race": "race", "ethnicity": "ethnicity",
    "race_ethnicity": "race", "age_band": "age_band", "age_group": "age_band", "age": "age", "patient_age": "age",
}
#: bands of a numeric age: (label, lowest age, highest age)
AGE_BANDS: tuple[tuple[str, float, float], ...] = (("<18", 0, 18), ("18-44", 18, 45), ("45-64", 45, 65),
                                                  ("65+", 65, math.inf))
#: case fields naming the independent unit a case belongs to (MedPerturb's ``pair_id``: the arms of one patient
#: context): the test counts units, not their copies; a unit is excluded when any of its cases is
UNIT_FIELDS: tuple[str, ...] = ("pair_id",)
UNIT = "__unit__"
#: an attribute with more recorded values than this is an identifier, not a group: listed, not tested
MAX_GROUPS = 20
NOT_RECORDED = "(not recorded)"
MC_RESAMPLES = 9999
RATE_COLUMNS = ["attribute", "group", "n_cases", "n_excluded", "rate", "test", "p", "p_holm", "correction",
                "n_tested_attributes", "skewed"]


def _age_band(v: Any) -> str | None:
    x = pd.to_numeric(pd.Series([v]), errors="coerce").iloc[0]
    if pd.isna(x) or x < 0:
        return None
    return next(label for label, lo, hi in AGE_BANDS if lo <= x < hi)


def _value(v: Any) -> str | None:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    s = str(v).strip()
    return s or None


def _fields_of(row: dict[str, Any]) -> dict[str, Any]:
    f = row.get("fields")
    if isinstance(f, dict):
        return f
    if isinstance(f, str) and f.startswith("{"):
        try:
            out = json.loads(f)
            return out if isinstance(out, dict) else {}
        except ValueError:
            return {}
    return {}


def case_attributes(cases: Iterable[Any] | pd.DataFrame, declared: Sequence[str] = ()) -> pd.DataFrame:
    """One row per case (``case_id`` and one column per attribute the cases record).

    ``cases``: :class:`~clinaudit.records.Case` objects (their ``fields``) or a cases table (its columns and
    the JSON of its ``fields`` column). ``declared``: more field / column names to audit by, taken as given."""
    if isinstance(cases, pd.DataFrame):
        rows = cases.to_dict("records")
    else:
        rows = [{"case_id": c.case_id, "fields": dict(c.fields)} for c in cases]
    wanted = {**ATTRIBUTE_FIELDS, **{d: d for d in declared}}
    out: list[dict[str, Any]] = []
    for row in rows:
        if "case_id" not in row:
            continue
        found = {k: v for k, v in row.items() if k not in ("case_id", "fields")}
        found.update(_fields_of(row))
        rec: dict[str, Any] = {"case_id": str(row["case_id"])}
        unit = next((_value(found[u]) for u in UNIT_FIELDS if _value(found.get(u)) is not None), None)
        if unit is not None:
            rec[UNIT] = unit
        for name, attr in wanted.items():
            if name not in found or attr in rec and rec[attr] is not None:
                continue
            rec[attr] = _age_band(found[name]) if attr == "age" else _value(found[name])
        if "age" in rec:
            rec["age_band"] = rec.get("age_band") or rec.pop("age")
            rec.pop("age", None)
        out.append(rec)
    df = pd.DataFrame(out)
    if df.empty:
        return pd.DataFrame(columns=["case_id"])
    df = df.drop_duplicates("case_id", keep="first")
    keep = ["case_id"] + [c for c in df.columns if c != "case_id" and df[c].notna().any()]
    return df[keep].reset_index(drop=True)


def excluded_case_ids(ledger: pd.DataFrame) -> set[str]:
    """Cases the ledger drops as a whole: a row with a case id and no ``item``."""
    if ledger is None or ledger.empty or "case_id" not in ledger.columns:
        return set()
    item = ledger["item"] if "item" in ledger.columns else pd.Series("", index=ledger.index)
    whole = item.isna() | (item.astype(str).str.strip().isin(["", "nan"]))
    ids = ledger.loc[whole, "case_id"].dropna().astype(str).str.strip()
    return set(ids) - {"", "nan"}


def _test(counts: pd.DataFrame, seed: int, resamples: int) -> tuple[str, float]:
    from scipy.stats import MonteCarloMethod, fisher_exact

    table = np.column_stack([counts["n_excluded"].to_numpy(), (counts["n_cases"] - counts["n_excluded"]).to_numpy()])
    if table[:, 0].sum() == 0 or table[:, 1].sum() == 0:
        return "none (every case kept)" if table[:, 0].sum() == 0 else "none (every case excluded)", 1.0
    if len(table) == 2:
        return "Fisher exact (two-sided)", float(fisher_exact(table).pvalue)
    res = fisher_exact(table, method=MonteCarloMethod(n_resamples=resamples, rng=np.random.default_rng(seed)))
    # (scipy 1.17 gives a one-element array for some tables of one case per group)
    return f"Freeman-Halton (Monte Carlo, {resamples} tables)", float(np.asarray(res.pvalue).ravel()[0])


def exclusion_rates(attributes: pd.DataFrame, excluded: set[str], *, alpha: float = 0.05, seed: int = 0,
                    resamples: int = MC_RESAMPLES) -> pd.DataFrame:
    """Per attribute and group: cases, cases excluded, rate; per attribute the test, p and Holm-adjusted p
    (:data:`RATE_COLUMNS`). ``attributes``: :func:`case_attributes` of every case the run was given;
    ``resamples``: random tables of the Monte Carlo p of three or more groups."""
    from .stats.core import correct_pvalues

    rows: list[dict[str, Any]] = []
    tested: list[tuple[str, float]] = []
    if attributes.empty:
        return pd.DataFrame(columns=RATE_COLUMNS)
    attributes = attributes.assign(_ex=attributes["case_id"].astype(str).isin(excluded))
    if UNIT in attributes.columns:  # one row per independent unit: its first recorded values, excluded if any case is
        unit = attributes[UNIT].where(attributes[UNIT].notna(), attributes["case_id"].astype(str))
        attributes = (attributes.drop(columns=[UNIT]).assign(case_id=unit).groupby("case_id", sort=False)
                      .agg({c: ("max" if c == "_ex" else "first") for c in attributes.columns
                            if c not in ("case_id", UNIT)}).reset_index())
    is_ex = attributes.pop("_ex")
    for attr in [c for c in attributes.columns if c != "case_id"]:
        group = attributes[attr].where(attributes[attr].notna(), NOT_RECORDED).astype(str)
        counts = (pd.DataFrame({"group": group, "ex": is_ex}).groupby("group", sort=True)["ex"]
                  .agg(n_cases="size", n_excluded="sum").reset_index())
        recorded = counts[counts["group"] != NOT_RECORDED].reset_index(drop=True)
        if len(recorded) < 2:
            test, p = "not tested (one recorded group)", math.nan
        elif len(recorded) > MAX_GROUPS:
            test, p = f"not tested (more than {MAX_GROUPS} groups)", math.nan
        else:
            test, p = _test(recorded, seed, resamples)
            tested.append((attr, p))
        for r in counts.to_dict("records"):
            rows.append({"attribute": attr, "group": r["group"], "n_cases": int(r["n_cases"]),
                         "n_excluded": int(r["n_excluded"]), "rate": r["n_excluded"] / r["n_cases"],
                         "test": test if r["group"] != NOT_RECORDED else "not tested (value not recorded)",
                         "p": p if r["group"] != NOT_RECORDED else math.nan})
    df = pd.DataFrame(rows, columns=RATE_COLUMNS)
    adj: dict[str, float] = {}
    if tested:
        adj = dict(zip([a for a, _ in tested], correct_pvalues([p for _, p in tested], method="holm")))
    df["p_holm"] = [adj.get(a, math.nan) if t.startswith(("Fisher", "Freeman", "none")) else math.nan
                    for a, t in zip(df["attribute"], df["test"])]
    df["correction"] = "holm" if tested else ""
    df["n_tested_attributes"] = len(tested)
    df["skewed"] = df["p_holm"] < alpha
    return df


def skew_line(attribute: str, rows: pd.DataFrame) -> str:
    """``sample skewed by exclusions (sex: female 40% of 50 vs male 10% of 50 excluded; Fisher exact p_holm 0.001)``."""
    rec = rows[rows["group"] != NOT_RECORDED].sort_values("rate", ascending=False)
    rates = " vs ".join(f"{g} {r:.0%} of {n}" for g, r, n in zip(rec["group"], rec["rate"], rec["n_cases"]))
    test = str(rec["test"].iloc[0]).split(" (")[0]
    p, p_holm = float(rec["p"].iloc[0]), float(rec["p_holm"].iloc[0])
    return f"sample skewed by exclusions ({attribute}: {rates} excluded; {test} p {p:.2g}, Holm p_holm {p_holm:.2g})"


def skew_block(rates: pd.DataFrame, alpha: float = 0.05) -> dict[str, Any]:
    """The validity block's ``exclusions_by_group``: the attributes audited and each skewed one with its line."""
    if rates.empty:
        return {"attributes": [], "tested": [], "skewed": [], "alpha": alpha,
                "note": "no demographic attribute is recorded for the cases: exclusions could not be audited by group"}
    tested = sorted(set(rates.loc[rates["p_holm"].notna(), "attribute"]))
    skewed = []
    for attr in dict.fromkeys(rates.loc[rates["skewed"].astype(bool), "attribute"]):
        rows = rates[rates["attribute"] == attr]
        rec = rows[rows["group"] != NOT_RECORDED]
        skewed.append({"attribute": attr, "rates": {str(g): float(r) for g, r in zip(rec["group"], rec["rate"])},
                       "n": {str(g): int(n) for g, n in zip(rec["group"], rec["n_cases"])},
                       "test": str(rec["test"].iloc[0]), "p": float(rec["p"].iloc[0]),
                       "p_holm": float(rec["p_holm"].iloc[0]), "line": skew_line(attr, rows)})
    return {"attributes": list(dict.fromkeys(rates["attribute"])), "tested": tested, "skewed": skewed,
            "alpha": alpha, "correction": "holm over the tested attributes"}


def declared_attributes(spec: Any) -> list[str]:
    """The spec's own attribute columns: ``verdicts.exclusion_attributes`` and ``params.group_columns``."""
    out = list(getattr(getattr(spec, "verdicts", None), "exclusion_attributes", None) or [])
    params = getattr(spec, "params", None) or {}
    cols = params.get("group_columns") if isinstance(params, dict) else None
    if isinstance(cols, (list, tuple)):
        out += [str(c) for c in cols]
    elif isinstance(cols, str):
        out.append(cols)
    return list(dict.fromkeys(out))


def ledger_with_attributes(ledger: pd.DataFrame, attributes: pd.DataFrame) -> pd.DataFrame:
    """The ledger with each row's case attributes as more columns (a column the ledger has already is kept)."""
    if ledger.empty or attributes is None or attributes.empty or len(attributes.columns) < 2:
        return ledger
    attrs = attributes.set_index("case_id")
    attrs = attrs[[c for c in attrs.columns if c not in ledger.columns and c != UNIT]]
    if attrs.empty or not len(attrs.columns):
        return ledger
    ids = ledger["case_id"].astype(str)
    out = ledger.copy()
    for c in attrs.columns:
        out[c] = ids.map(attrs[c])
    return out


def population(cases: pd.DataFrame, ledger: pd.DataFrame, declared: Sequence[str] = ()) -> pd.DataFrame:
    """The attributes of every case a finished run was given, from its tables: the cases table, then the cases
    only the ledger names (with the attribute columns :func:`ledger_with_attributes` gave it)."""
    given = case_attributes(cases, declared) if not cases.empty else pd.DataFrame(columns=["case_id"])
    if ledger is None or ledger.empty or "case_id" not in ledger.columns:
        return given
    known = set(given["case_id"].astype(str))
    extra = ledger[~ledger["case_id"].astype(str).isin(known) & ledger["case_id"].notna()
                   & (ledger["case_id"].astype(str).str.strip() != "")]
    if extra.empty:
        return given
    more = case_attributes(extra.drop(columns=[c for c in ("fields",) if c in extra.columns]), declared)
    return pd.concat([given, more], ignore_index=True).drop_duplicates("case_id", keep="first")


def audit_exclusions(attributes: pd.DataFrame, ledger: pd.DataFrame, *, alpha: float = 0.05,
                     seed: int = 0) -> tuple[pd.DataFrame, dict[str, Any]]:
    """(``tables/exclusion_rates.csv``, the validity block ``exclusions_by_group``) of one run."""
    rates = exclusion_rates(attributes, excluded_case_ids(ledger), alpha=alpha, seed=seed)
    return rates, skew_block(rates, alpha)
