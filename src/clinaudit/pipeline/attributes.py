"""Which demographic attributes an audit measured, and which of the run's attributes it did not (issue 49 item 3:
"where an audit cannot measure a declared attribute, the first screen says so"; docs/verdicts.md).

The run's attributes are those its cases carry (:mod:`clinaudit.exclusion_skew`: sex / gender, race, ethnicity
and age found by column name, and the columns the spec names in ``verdicts.exclusion_attributes`` or
``params.group_columns``), listed in the validity block's ``exclusions_by_group.attributes``. An audit measured an
attribute when a comparison of its results is about it: a row whose ``attribute`` names it (treatment shift's gaps
by group column, note generation's counterfactual attributes), or, for sex / gender, a row that compares female
with male (``group`` / ``reference``, treatment shift's ``value_female``). Every other attribute gets one line,
"race: declared but not measured by this audit (…)", on the first screen, in ``findings.json`` and on the terminal,
instead of silence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..exclusion_skew import ATTRIBUTE_FIELDS

__all__ = ["attribute_concept", "audit_has_param", "measured_attributes", "reports_group_columns", "unmeasured_attributes"]

_GENDER_WORDS = frozenset({"female", "male", "f", "m", "woman", "man", "women", "men"})
_CONCEPTS = {"gender": "sex", "sex": "sex", "age_band": "age", "age": "age"}


def attribute_concept(name: str) -> str:
    """The attribute a column or ``attribute`` value stands for: ``race_ethnicity`` -> "race", ``gender`` and
    ``sex`` -> "sex", ``age_band`` -> "age" (:data:`clinaudit.exclusion_skew.ATTRIBUTE_FIELDS`); others as named,
    lower case."""
    key = str(name).strip().lower()
    attr = ATTRIBUTE_FIELDS.get(key, key)
    return _CONCEPTS.get(attr, attr)


def audit_has_param(audit: str, option: str) -> bool | None:
    """Whether the registered audit ``audit`` declares the parameter ``option`` in its ``params_model``; None when
    no audit of that name is registered here (e.g. results read back without its plugin)."""
    from ..registry import registry

    reg = registry("audit")
    if audit not in reg:
        return None
    return option in getattr(reg.get(audit).params_model, "model_fields", {})


def reports_group_columns(audit: str) -> bool:
    """Whether the registered audit ``audit`` reports gaps by any case column its spec names: its parameters declare
    ``group_columns`` (treatment shift, classifier gaps). Read from the audit's own registration, so a new audit
    with that parameter is covered without a list to edit."""
    return bool(audit_has_param(audit, "group_columns"))


def _names_a_gender(value: Any) -> bool:
    return bool(_GENDER_WORDS & set(re.split(r"[^a-z]+", str(value).lower())))


def measured_attributes(rows: pd.DataFrame) -> set[str]:
    """The attributes (:func:`attribute_concept`) the comparisons of ``rows`` are about."""
    out: set[str] = set()
    if not len(rows):
        return out
    if "attribute" in rows.columns:
        out |= {attribute_concept(a) for a in rows["attribute"].dropna().astype(str) if a.strip()}
    for col in ("group", "reference"):
        if col in rows.columns and any(_names_a_gender(v) for v in rows[col].dropna().astype(str).unique()):
            out.add("sex")
    if "value_female" in rows.columns and pd.to_numeric(rows["value_female"], errors="coerce").notna().any():
        out.add("sex")
    return out


def unmeasured_attributes(rows: pd.DataFrame, validity: Mapping[str, Any], audit: str) -> list[str]:
    """One line per attribute the run's cases carry (validity ``exclusions_by_group.attributes``) that no comparison
    of ``rows`` (one audit × model's effect rows) is about: "race: declared but not measured by this audit (…)"."""
    known = list((validity.get("exclusions_by_group") or {}).get("attributes") or [])
    if not known or not len(rows):
        return []
    measured = measured_attributes(rows)
    said = {"sex": "sex / gender"}
    what = ", ".join(sorted(said.get(m, m) for m in measured))
    if reports_group_columns(audit):
        fix = "name its column in params.group_columns to report gaps by it; clinaudit init does for race, " \
              "ethnicity, race_ethnicity, language, insurance, …"
    else:
        fix = (f"{audit or 'this audit'} " + (f"reports gaps by {what} only" if what else
                                               "reports no gap by a demographic attribute of the cases")
               + "; treatment_shift reports gaps by any column named in params.group_columns")
    out = []
    for name in dict.fromkeys(str(a) for a in known):
        if attribute_concept(name) not in measured:
            out.append(f"{name}: declared but not measured by this audit ({fix})")
    return out
