"""The report's links into ``clinaudit view``: each verdict's and each finding's grid of the rows it describes
(docs/report.md, *From the report to the viewer*).

A finding's link filters the grid to its run, model and stratum (dataset, question or note generation's context,
source and attribute) and to the **variants it compares**, read from the run's own tables (the labels the grid
shows, :func:`grid_variants`):

* its group, when that is a variant of the grid (``uppercase`` against the baseline; a counterfactual's ``Asian``);
  a group naming two variants (``Asian/Black``: the largest difference between them) and a reference that is a
  variant too (CARE's ``male`` vs ``female``, ``id1`` vs ``id2``) add theirs (the grid keeps rows of any of them);
* else the perturbation the finding was measured under (a gender gap's ``arm``: the rows of both sexes under it);
* else no variant filter (a gap pooled over every perturbation, CARE's drift of the gender pair against the
  control pair): every variant of the stratum.

A run whose grid has no rows (its calls name no variant: association's template scores, adaptive attack's turns,
classifier predictions) gets no link.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

__all__ = ["ViewLinks", "grid_variants", "viewer_query"]

#: stratum keys of a finding that are filters of the viewer's grid (``context`` is note generation's question)
_VIEW_FILTERS = ("model", "dataset", "question", "context", "source", "attribute")
#: stratum keys naming the perturbation a comparison of groups was measured under
_ARM_KEYS = ("arm", "perturbation")


def viewer_query(run_dir: Any, where: dict[str, Any], **extra: str) -> str:
    """The query string of ``clinaudit view``'s grid filtered to a verdict's or finding's cases (docs/report.md,
    *From the report to the viewer*): the run by its folder's name, then each filter given (empty ones left out; a
    list repeats the parameter: the grid keeps the rows of any of its values)."""
    from pathlib import Path
    from urllib.parse import urlencode

    q: dict[str, Any] = {"run": Path(str(run_dir)).name} if run_dir else {}
    q.update({k: [str(x) for x in v] if isinstance(v, list) else str(v) for k, v in where.items()
              if v not in (None, "", [])})
    q.update({k: v for k, v in extra.items() if v})
    return "cases?" + urlencode(q, doseq=True)


def grid_variants(run_dir: Path | str) -> frozenset[str]:
    """The variant labels of the viewer's grid of a run (:func:`clinaudit.records.variant_label` of the variants
    answered by a call that is not a judge's); empty when the run has no grid rows."""
    from ..records import variant_label
    from ..rundir import read_store_table

    t = Path(run_dir) / "tables"
    want_r, want_v = {"stage", "variant_id"}, {"variant_id", "family", "name"}
    try:
        resp = read_store_table(t / "responses.csv", usecols=lambda c: c in want_r, dtype=str)
        variants = read_store_table(t / "variants.csv", usecols=lambda c: c in want_v, dtype=str)
    except (OSError, ValueError, pd.errors.ParserError):  # no table (EmptyDataError is a ValueError)
        return frozenset()
    if "variant_id" not in resp or "variant_id" not in variants:
        return frozenset()
    stage = resp["stage"].fillna("") if "stage" in resp else pd.Series("", index=resp.index)
    answered = set(resp.loc[~stage.str.startswith("judge"), "variant_id"].dropna())
    v = variants[variants["variant_id"].isin(answered)]
    return frozenset(variant_label(f, n) for f, n in zip(v.get("family", pd.Series("", index=v.index)).fillna(""),
                                                         v.get("name", pd.Series("", index=v.index)).fillna("")))


def finding_variants(e: dict[str, Any], labels: frozenset[str]) -> list[str]:
    """The grid variants a finding compares (see the module doc); ``[]``: no variant filter."""
    group = [g for g in str(e.get("group") or "").split("/") if g]
    if group and all(g in labels for g in group):
        ref = str(e.get("reference") or "")
        return group + ([ref] if ref in labels and ref != "baseline" and ref not in group else [])
    stratum = e.get("stratum") or {}
    for k in _ARM_KEYS:
        if str(stratum.get(k) or "") in labels:
            return [str(stratum[k])]
    return []


class ViewLinks:
    """The viewer links of one report's verdicts and findings (each run's grid variants read once)."""

    def __init__(self) -> None:
        self._labels: dict[str, frozenset[str]] = {}

    def labels(self, run_dir: Any) -> frozenset[str]:
        key = str(run_dir or "")
        if key not in self._labels:
            self._labels[key] = grid_variants(key) if key else frozenset()
        return self._labels[key]

    def verdict(self, line: dict[str, Any]) -> str:
        """A verdict line's link: its run and model ("" when the run has no grid rows)."""
        if not self.labels(line.get("run_dir")):
            return ""
        return viewer_query(line.get("run_dir"), {"model": line.get("model")}, sort="flip")

    def finding(self, e: dict[str, Any]) -> str:
        """A finding's (or inconclusive entry's) link: its run, model, variants and stratum, flipped rows first
        ("" when the run has no grid rows)."""
        labels = self.labels(e.get("run_dir"))
        if not labels:
            return ""
        stratum = dict(e.get("stratum") or {})
        where: dict[str, Any] = {k: stratum[k] for k in _VIEW_FILTERS if stratum.get(k) not in (None, "")}
        if "context" in where and "question" not in where:
            where["question"] = where.pop("context")
        return viewer_query(e.get("run_dir"), {"model": where.pop("model", None),
                                               "variant": finding_variants(e, labels), **where}, sort="flip")
