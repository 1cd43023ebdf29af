"""The run-level family of a run's effect rows: which rows are primary, which mirror another, and ``p_run``.

docs/verdicts.md, *The run-level family*. Per audit (every model of the run together: the gate over several
models controls the error over models × rows):

* **one row per question**: an effect row whose question another row already asks — the same audit, model,
  metric and strata with its ``group`` and ``reference`` swapped (F−M beside M−F) — is a ``mirror``: it is not
  counted in the family and takes its twin's ``p_run``;
* **primary rows** are the effect rows of the spec's ``verdicts.primary`` (metrics, optionally with strata), else
  of the metrics the audit declares primary (:class:`clinaudit.metrics.declared.MetricDecl` ``primary``); when
  none of an audit's tested rows is primary, every effect row is (the family before primaries);
* ``p_run`` is serial gatekeeping (:func:`clinaudit.stats.gatekeeping.serial_gatekeeping`): Holm over the
  primary rows at alpha, the secondary rows tested (Holm) only when every primary row is rejected; never below the
  row's own ``p_adj``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..spec import PrimarySelector

__all__ = ["FamilyRoles", "run_level", "primary_mask", "mirror_of", "primary_rows", "primary_note", "ROLE_PRIMARY",
           "ROLE_SECONDARY", "ROLE_MIRROR"]

ROLE_PRIMARY, ROLE_SECONDARY, ROLE_MIRROR = "primary", "secondary", "mirror"

#: columns that describe a row's statistics, not its question (left out when two rows are matched as mirrors)
_NOT_IDENTITY = {"group", "reference", "value", "n", "ci_low", "ci_high", "ci_method", "test", "statistic", "p",
                 "p_adj", "correction", "family", "raw", "note", "floor", "n_floor", "alternative", "null_hypothesis",
                 "test_note", "p_method", "n_permutations", "verdict", "verdict_reason", "margin", "effect", "n_units",
                 "p_run", "run_family", "p_run_floor", "run_note", "family_role", "significant", "favours",
                 "metric_label"}

FamilyRoles = tuple[pd.Series, pd.Series, pd.Series, pd.Series, pd.Series]


def _text(v: Any) -> str:
    t = "" if v is None else str(v).strip()
    return "" if t in ("nan", "None", "<NA>") else t


def _identity_columns(results: pd.DataFrame) -> list[str]:
    """The columns that name a row's question: text columns, not a statistic (nor a per-group count)."""
    out = []
    for c in results.columns:
        if c in _NOT_IDENTITY or c.startswith(("n_", "value_", "floor_", "ci_", "p_")):
            continue
        if pd.api.types.is_numeric_dtype(results[c]):
            continue
        out.append(c)
    return out


def mirror_of(results: pd.DataFrame, rows: Sequence[Any]) -> dict[Any, Any]:
    """``{mirror row label: its twin's label}`` among ``rows`` (labels of ``results``): a row whose group and
    reference are another row's swapped, every other question column equal; the first of the two in table order
    asks the question."""
    if "group" not in results.columns or "reference" not in results.columns:
        return {}
    cols = _identity_columns(results)
    seen: dict[tuple[Any, ...], Any] = {}
    out: dict[Any, Any] = {}
    for k in rows:
        r = results.loc[k]
        grp, ref = _text(r["group"]), _text(r["reference"])
        if not grp or not ref:
            continue
        rest = tuple(_text(r[c]) for c in cols)
        key = (*rest, grp, ref)
        twin = seen.get((*rest, ref, grp))
        if twin is not None:
            out[k] = twin
        else:
            seen.setdefault(key, k)
    return out


def _matches(r: Mapping[str, Any], sel: PrimarySelector) -> bool:
    if _text(r.get("metric")) != sel.metric:
        return False
    return all(_text(r.get(col)) in allowed for col, allowed in sel.where().items())


def primary_mask(results: pd.DataFrame, effect: pd.Series, selectors: list[PrimarySelector] | None,
                 decls: Mapping[tuple[str, str], Any]) -> tuple[pd.Series, pd.Series]:
    """(primary?, why) per row: the effect rows the spec's selectors name, else the audit's declared primary
    metrics; ``why`` says where the choice came from."""
    primary = pd.Series(False, index=results.index, dtype=bool)
    why = pd.Series("", index=results.index, dtype=object)
    recs = results.to_dict("records")
    for k, r in zip(results.index, recs):
        if not effect.loc[k]:
            continue
        audit, metric = _text(r.get("audit")), _text(r.get("metric"))
        if selectors is not None:
            hit = any(_matches(r, s) for s in selectors)
            if hit:
                primary.loc[k], why.loc[k] = True, "the spec's verdicts.primary"
        else:
            d = decls.get((audit, metric))
            if d is not None and getattr(d, "primary", False):
                primary.loc[k], why.loc[k] = True, f"the audit's declared primary metric {metric}"
    return primary, why


def run_level(results: pd.DataFrame, effect: pd.Series, in_run: pd.Series,
              selectors: list[PrimarySelector] | None,
              decls: Mapping[tuple[str, str], Any]) -> FamilyRoles:
    """(``p_run``, ``run_family``, family size, ``family_role``, family key) per row of ``results``.

    ``effect``: the effect rows (a role each); ``in_run``: those whose test can make a finding (the family's
    candidates; a row also needs a raw ``p``). ``family_role``: primary / secondary / mirror ("" for a level).
    The family key (audit and role) groups the rows whose Holm family is the same, for the p floor."""
    from ..stats.gatekeeping import serial_gatekeeping

    idx = results.index
    p_run = pd.Series(math.nan, index=idx, dtype=float)
    family = pd.Series("", index=idx, dtype=object)
    size = pd.Series(0, index=idx, dtype=int)
    role = pd.Series("", index=idx, dtype=object)
    key = pd.Series("", index=idx, dtype=object)
    if not len(results):
        return p_run, family, size, role, key
    primary, why = primary_mask(results, effect, selectors, decls)
    raw = pd.to_numeric(results["p"], errors="coerce") if "p" in results.columns else pd.Series(math.nan, index=idx)
    adj = pd.to_numeric(results["p_adj"], errors="coerce") if "p_adj" in results.columns else raw
    adj = adj.where(adj.notna(), raw)
    audits = results["audit"].astype(str)
    for audit in pd.unique(audits[effect]):
        mine = effect & (audits == audit)
        tested = mine & in_run & raw.notna()
        if not (primary & tested).any():  # no primary row with a test: every effect row is primary
            primary[mine] = True
            why[mine] = "no primary row was tested: every effect is primary"
        role[mine & primary] = ROLE_PRIMARY
        role[mine & ~primary] = ROLE_SECONDARY
        mirrors = mirror_of(results, list(idx[tested]))
        for m in mirrors:
            role[m] = ROLE_MIRROR
        counted = [k for k in idx[tested] if k not in mirrors]
        if not counted:
            continue
        first = primary[counted].to_numpy(dtype=bool)
        gated = serial_gatekeeping(raw[counted].to_numpy(dtype=float), first)
        p_run[counted] = np.maximum(gated, adj[counted].to_numpy(dtype=float))
        n_p, n_s = int(first.sum()), int((~first).sum())
        models = sorted({_text(m) for m in results.loc[counted, "model"]} - {""}) \
            if "model" in results.columns else []
        over = f" of {len(models)} models" if len(models) > 1 else ""
        reasons = sorted({str(why[k]) for k in counted if primary[k]})
        for k, is_primary in zip(counted, first):
            if is_primary:
                family[k] = (f"run primary: {audit}, Holm over {n_p} primary rows{over} ({'; '.join(reasons)})"
                             + (f"; {n_s} secondary rows tested only if all are rejected (serial gatekeeping)"
                                if n_s else ""))
                size[k], key[k] = n_p, f"{audit}\x1fprimary"
            else:
                family[k] = (f"run secondary: {audit}, Holm over {n_s} secondary rows{over}, tested only if all "
                             f"{n_p} primary rows are rejected (serial gatekeeping)")
                size[k], key[k] = n_s, f"{audit}\x1fsecondary"
        for m, twin in mirrors.items():
            if twin in counted:
                p_run[m] = max(float(p_run[twin]), float(adj[m]) if not math.isnan(adj[m]) else 0.0)
                family[m] = f"mirror of another row ({_text(results.at[twin, 'group'])} vs " \
                            f"{_text(results.at[twin, 'reference'])}): the same question, counted once"
                size[m], key[m] = size[twin], key[twin]
    return p_run, family, size, role, key


def primary_rows(effects: pd.DataFrame, include_secondary: bool = False) -> pd.DataFrame:
    """The effect rows a headline or a gate decides on: the primary ones (``family_role``), or with
    ``include_secondary`` every row but mirrors. A table without ``family_role`` (a run made before primaries)
    is returned whole; so is one whose audit × model has no primary row."""
    if "family_role" not in effects.columns or not len(effects):
        return effects
    role = effects["family_role"].fillna("").astype(str)
    keep = role != ROLE_MIRROR if include_secondary else role == ROLE_PRIMARY
    keys = [c for c in ("audit", "model") if c in effects.columns]
    if keys:  # an audit × model without a role (rows from before primaries): all of its rows
        has_role = role.isin([ROLE_PRIMARY, ROLE_SECONDARY, ROLE_MIRROR])
        group = effects[keys].astype(str).agg("\x1f".join, axis=1)
        roled = has_role.groupby(group).transform("any")
        keep = keep | ~roled
    return effects[keep.to_numpy(dtype=bool)]


def _count(n: int, role: str) -> str:
    """"15 primary comparisons": an effect row is a comparison, named as pipeline.counts names it."""
    return f"{n:,} {role} comparison" + ("" if n == 1 else "s")


def primary_note(primary: pd.DataFrame, effects: pd.DataFrame) -> str:
    """Which rows were primary and why, in one sentence (empty when every effect row is primary)."""
    if "family_role" not in effects.columns or not len(primary):
        return ""
    role = effects["family_role"].fillna("").astype(str)
    n_sec, n_mir = int((role == ROLE_SECONDARY).sum()), int((role == ROLE_MIRROR).sum())
    if not n_sec and not n_mir:
        return ""
    metrics = ", ".join(dict.fromkeys(primary["metric"].astype(str)))
    fam = next((str(f) for f in primary.get("run_family", pd.Series(dtype=object)) if _text(f)), "")
    why = fam[fam.find("(") + 1:fam.find(")")] if "(" in fam else ""
    text = (f"The verdict is on the {_count(len(primary), 'primary')} ({metrics}" + (f"; {why}" if why else "") + ")")
    if n_sec:
        bias = int(((role == ROLE_SECONDARY) & (effects["verdict"].astype(str) == "bias")).sum()) \
            if "verdict" in effects.columns else 0
        text += (f"; {_count(n_sec, 'secondary')} {'was' if n_sec == 1 else 'were'} tested after them (serial gatekeeping)"
                 + (f", {bias} of them bias" if bias else ""))
    if n_mir:
        text += f"; {n_mir} mirrored row{'s' if n_mir != 1 else ''} repeat a question and are not counted"
    return text + "."
