"""Demographic values read through a value map, and the effect gaps by every declared group column (issue 49
items 2 and 3, issue 48 item 4).

**Values understood or refused.** Every value of the recorded gender and of each declared group column
(``params.group_columns``) is read case- and whitespace-insensitively through a value map:

* recorded gender: :data:`clinaudit.demographics.GENDER_VALUES` (f / female / woman / w → female, m / male / man → male), plus
  the spec's ``value_maps.<field>`` (e.g. ``{"1": male, "2": female}`` for ISO/IEC 5218 codes);
* a group column: the spec's ``value_maps.<column>`` when given (every value must then be in it), else each
  distinct value is its own group (spelled as it first appears); a numeric ``age`` / ``patient_age`` column
  is read as the bands of :data:`clinaudit.exclusion_skew.AGE_BANDS`.

A blank value is *not recorded*; a value the spec declares unknown (``unknown_values.<field>``) too, and
the run says so (a note on the first screen). Any other value the map does not know stops the run before
a model is called: an input error (exit 2) naming the file, the column and the values, with the line to
add to the spec. A run never drops a demographic analysis silently.

**One row per question.** Each attribute has one reference group, fixed before the data: the spec's
``reference_groups.<column>``, else the largest group of the cases (ties: the first in sorted order).
Recorded gender's is ``male`` (the female − male gap, as P2). Each other group is compared with the
reference (``value`` = excess | group − excess | reference, the statistics of
:meth:`clinaudit.stats.PairedFrame.gap`): no mirrored rows, so the family counts each question once.
A group with fewer than ``min_group_cases`` cases, an attribute with one recorded group, or one with more
than :data:`clinaudit.exclusion_skew.MAX_GROUPS` groups (an identifier, not a group) cannot be measured: its rows carry ``not_measured_reason`` (the first screen says so).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ...demographics import GENDER_VALUES, norm_value
from ...errors import InputError
from ...records import Case

__all__ = ["age_band", "GENDER_FIELD", "AGE_COLUMNS", "GroupReading", "gender_of",
           "read_groups", "reference_group", "group_gaps"]

#: the name of the recorded gender among the attributes (its rows keep the ``gender_source`` column)
GENDER_FIELD = "gender"
#: group columns whose numeric values are read as age bands
AGE_COLUMNS = ("age", "patient_age")


def _user_map(params: Any, name: str) -> dict[str, str]:
    return {norm_value(k) or "": str(v).strip() for k, v in (params.value_maps.get(name) or {}).items()}


def _unknown(params: Any, name: str) -> set[str]:
    return {norm_value(x) or "" for x in params.unknown_values.get(name) or []}


def gender_of(raw: Any, params: Any, field_name: str) -> str | None:
    """The recorded gender through the map: ``female`` / ``male`` / the user map's value; None when blank or
    declared unknown; the normalised raw value when the map does not know it (refused earlier by
    :func:`read_groups`)."""
    v = norm_value(raw)
    if v is None or v in _unknown(params, field_name):
        return None
    return {**GENDER_VALUES, **_user_map(params, field_name)}.get(v, v)


def age_band(v: str) -> str | None:
    from ...exclusion_skew import AGE_BANDS

    try:
        x = float(v)
    except ValueError:
        return None
    if x < 0 or math.isnan(x):
        return None
    return next(label for label, lo, hi in AGE_BANDS if lo <= x < hi)


@dataclass
class GroupReading:
    """The groups of every case per group column (None: not recorded), the recorded gender, the notes, the
    reference group of each group column."""

    groups: dict[str, dict[str, str | None]] = field(default_factory=dict)
    #: the recorded gender of every case through its map (None: not recorded)
    gender: dict[str, str | None] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    references: dict[str, str] = field(default_factory=dict)


def _source_column(field_name: str, sources: Sequence[Any]) -> str:
    """The file column a case field comes from (the data entry's ``columns`` role), for messages."""
    for s in sources:
        cols = getattr(s, "columns", None) or {}
        if field_name in cols:
            return str(cols[field_name])
    return field_name


def reference_group(values: Sequence[str | None], declared: str | None = None) -> str | None:
    """The reference of one attribute: ``declared`` when given, else the largest group (ties: first sorted)."""
    if declared:
        return declared
    counts = Counter(v for v in values if v is not None)
    if not counts:
        return None
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]


def read_groups(cases: Sequence[Case], params: Any, gender_field: str | None, sources: Sequence[Any] = ()) -> GroupReading:
    """Read the recorded gender (``gender_field``: the case field holding it, None when no case has one) and
    every ``params.group_columns`` through their value maps; refuse unknown values (see the module docstring)."""
    out = GroupReading()
    fields = ([gender_field] if gender_field else []) + [c for c in params.group_columns if c != gender_field]
    for name in fields:
        is_gender = name == gender_field
        user = _user_map(params, name)
        vmap = {**GENDER_VALUES, **user} if is_gender else user
        unknown = _unknown(params, name)
        is_age = not is_gender and not user and name.lower() in AGE_COLUMNS
        got: dict[str, str | None] = {}
        unmapped: dict[str, list[Case]] = {}
        n_unknown = n_blank = 0
        spelled: dict[str, str] = {}
        for c in cases:
            raw = c.fields.get(name)
            v = norm_value(raw)
            if v is None:
                got[c.case_id] = None
                n_blank += 1
            elif v in unknown:
                got[c.case_id] = None
                n_unknown += 1
            elif vmap:
                if v in vmap:
                    got[c.case_id] = vmap[v]
                else:
                    unmapped.setdefault(str(raw).strip(), []).append(c)
            elif is_age:
                band = age_band(v)
                if band is None:
                    unmapped.setdefault(str(raw).strip(), []).append(c)
                got[c.case_id] = band
            else:
                got[c.case_id] = spelled.setdefault(v, " ".join(str(raw).split()))
        column = _source_column(name, sources)
        if unmapped:
            first = next(iter(unmapped.values()))[0]
            values = ", ".join(repr(v) for v in list(unmapped)[:10]) + (" ..." if len(unmapped) > 10 else "")
            known = ", ".join(sorted(set(vmap))) if vmap else "numbers (ages)"
            example = next(iter(unmapped))
            raise InputError(
                f"column {column!r} ({'recorded gender' if is_gender else 'group column'} {name!r}): value(s) "
                f"{values} not understood (known: {known}); declare them in the spec, e.g. params.value_maps: "
                f"{{{name}: {{{example!r}: {'female' if is_gender else '<group>'}}}}}, or as unknown: "
                f"params.unknown_values: {{{name}: [{example!r}]}}",
                file=first.source or None, row=first.source_row, field=column)
        if n_unknown:
            out.notes.append(f"{name} (column {column!r}): {n_unknown} case(s) with a value declared unknown "
                             "(params.unknown_values): not recorded, left out of its gaps")
        if n_blank and n_blank < len(cases):
            out.notes.append(f"{name} (column {column!r}): {n_blank} case(s) with no value: not recorded, left out "
                             "of its gaps")
        if is_gender:
            out.gender = got
            continue
        ref = reference_group(list(got.values()), params.reference_groups.get(name))
        if ref is not None and ref not in set(got.values()):
            raise InputError(f"params.reference_groups.{name} is {ref!r}, which no case has; groups: "
                             + ", ".join(sorted({str(v) for v in got.values() if v is not None})),
                             field=f"params.reference_groups.{name}")
        out.groups[name] = got
        if ref is not None:
            out.references[name] = ref
    return out


def group_gaps(paired: pd.DataFrame, attribute: str, reference: str, *, metrics: Sequence[str], by: Sequence[str],
               n_resamples: int, n_permutations: int, seed: int, audit: str, min_group_cases: int) -> pd.DataFrame:
    """Per metric, the gap of the excess of every group of ``attribute`` against ``reference`` (one row per
    non-reference group × stratum × perturbation), and a not-measured row for each group (or the attribute)
    that has too few cases."""
    from ...exclusion_skew import MAX_GROUPS
    from ...results import result_row, results_frame
    from ...stats import PairedFrame
    from .metrics import NOISE_FLOOR, score_table

    by = [c for c in by if c in paired.columns]
    strata = [c for c in by if c != "perturbation"]
    data = paired[paired[attribute].notna()].copy()
    data["perturbation"] = data["perturbation"].astype(str)
    case_groups = data.drop_duplicates("case_id").set_index("case_id")[attribute].astype(str)
    sizes = case_groups.value_counts()
    others = sorted(g for g in sizes.index if g != reference)
    perts = sorted(set(data["perturbation"]) - {NOISE_FLOOR})
    frames, missing = [], []
    if len(sizes) > MAX_GROUPS:
        missing.append(("", f"{attribute}: {len(sizes)} groups, more than {MAX_GROUPS} (an identifier rather than a "
                            "group; declare a coarser params.value_maps)"))
    elif reference not in sizes.index or not others:
        why = (f"{attribute}: one recorded group ({', '.join(sizes.index) or 'none'}), nothing to compare")
        missing.append(("", why))
    elif sizes[reference] < min_group_cases:
        missing += [(g, f"{attribute}: the reference group {reference!r} has {int(sizes[reference])} case(s), "
                        f"fewer than {min_group_cases} (params.min_group_cases)") for g in others]
    else:
        has_ctrl = bool((data["perturbation"] == NOISE_FLOOR).any())
        for g in others:
            if sizes[g] < min_group_cases:
                missing.append((g, f"{attribute}={g}: {int(sizes[g])} case(s), fewer than {min_group_cases} "
                                   "(params.min_group_cases)"))
                continue
            for metric in metrics:
                scored = score_table(data, metric, "case_id")
                if "model" in scored.columns:
                    scored["_case"] = scored["_case"] + "\x1f" + scored["model"].astype(str)
                scored["_grp"] = scored[attribute].astype(str)
                pf = PairedFrame(scored[strata + ["_case", "perturbation", "score", "_grp"]], case="_case",
                                 arm="perturbation", score="score", by=strata,
                                 control=NOISE_FLOOR if has_ctrl else None)
                t = pf.gap(between="_grp", a=g, b=reference, metric=metric, audit=audit, n_resamples=n_resamples,
                           n_permutations=n_permutations, seed=seed)
                if len(t):
                    t = t.assign(metric=f"{metric}_group_gap", group=g, reference=reference, perturbation=t["arm"], attribute=attribute)
                    t["null_hypothesis"] = t["null_hypothesis"].str.replace("_grp=", f"{attribute}=", regex=False)
                    t["ci_method"] = t["ci_method"].str.replace("within _grp", f"within {attribute}", regex=False)
                    frames.append(t.drop(columns=["between"], errors="ignore"))
    rows: list[dict[str, Any]] = []
    if missing:
        keys = data[strata].drop_duplicates().to_dict("records") if strata else [{}]
        for g, why in missing:
            for k in keys:
                for metric in metrics:
                    for p in perts:
                        rows.append(result_row(audit=audit, metric=f"{metric}_group_gap", group=g, reference=reference,
                                               perturbation=p, attribute=attribute, not_measured_reason=why,
                                               note=why, **k))
    parts = frames + ([results_frame(rows)] if rows else [])
    return results_frame(pd.concat(parts, ignore_index=True)) if parts else results_frame([])
