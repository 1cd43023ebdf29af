"""Side-by-side examples for the report's findings: two or three cases that show each finding.

A finding compares a ``group`` (a perturbation, a counterfactual value, a gender …) with a
``reference`` (the baseline, the other gender …). The examples come from the run's own tables:

1. the **variants** of the group are the rows of ``tables/variants.csv`` whose ``name`` is the group
   (or ends with ``=<group>``, as ``race=Black``); the reference variants those named like the
   reference's first word, else the ``baseline`` variants;
2. for every case with both, the model's answers (``tables/responses.csv``, the stage that answered
   the group's variants, the finding's model and the first seed both have) to the group variant and to
   the reference variant of the same case (the one whose ``variant_id`` shares the longest prefix);
3. the cases are ranked by how much the two answers differ (1 − ``difflib`` word ratio) and the first
   :data:`N_EXAMPLES` shown side by side, the answers' word-level differences marked. Without answers
   (an audit that scores sentences), the two *inputs* are shown instead.

When no variant matches the group (classifier gaps, association rows without a variant name), the
finding links to up to :data:`N_EXAMPLES` side-by-side blocks of its run's section instead, if any.
Only findings get examples, never inconclusive entries, and at most :data:`MAX_FINDINGS_WITH_EXAMPLES`
findings per report (the rest link to their table), so a report stays small.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .base import Compare
from .views import PageIds, compare_view

__all__ = ["N_EXAMPLES", "MAX_FINDINGS_WITH_EXAMPLES", "finding_examples"]

N_EXAMPLES = 3
MAX_FINDINGS_WITH_EXAMPLES = 30
_MAX_TEXT = 4000  # characters of an answer shown in an example (the rest is cut, saying so)
_JUDGE_HINTS = ("judge", "annotator", "embed", "augment")


def _read(path: Path, cols: Sequence[str]) -> pd.DataFrame:
    if not path.is_file():
        return pd.DataFrame(columns=list(cols))
    try:
        from ..export import read_store_frame

        df = read_store_frame(pd.read_csv(path, keep_default_na=False, na_values=[""], dtype=str,
                                          usecols=lambda c: c in set(cols)))
    except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError, OSError):
        return pd.DataFrame(columns=list(cols))
    for c in cols:
        if c not in df.columns:
            df[c] = None
    return df


class _RunTables:
    """The variants and answer texts of one run, read once."""

    def __init__(self, run_dir: Path):
        t = Path(run_dir) / "tables"
        self.variants = _read(t / "variants.csv", ["variant_id", "case_id", "family", "name", "text"]).dropna(
            subset=["variant_id"])
        r = _read(t / "responses.csv", ["case_id", "variant_id", "model", "seed", "stage", "text", "error"])
        r = r.dropna(subset=["variant_id", "text"])
        self.responses = r[r["error"].isna()] if "error" in r.columns else r

    def named(self, name: str) -> pd.DataFrame:
        if not name or not len(self.variants):
            return self.variants.iloc[0:0]
        names = self.variants["name"].astype(str)
        return self.variants[(names == name) | names.str.endswith("=" + name)]


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.split(), b.split(), autojunk=False).ratio()


def _prefix(a: str, b: str) -> int:
    return len(os.path.commonprefix([a, b]))


def _cut(text: str) -> str:
    text = str(text)
    return text if len(text) <= _MAX_TEXT else text[:_MAX_TEXT] + f" … [cut: {len(text) - _MAX_TEXT} more characters]"


def _pairs(tables: _RunTables, e: dict[str, Any]) -> list[tuple[float, Compare]]:
    """(difference, Compare) for each case with a group variant and a reference variant."""
    group = e["group"]
    grp = tables.named(group)
    if not len(grp):
        return []
    ref_word = (e.get("reference") or "").split(" ")[0]
    ref = tables.named(ref_word) if ref_word and ref_word != group else tables.variants.iloc[0:0]
    if not len(ref):
        ref = tables.named("baseline")
        if not len(ref):
            ref = tables.variants[tables.variants["family"].astype(str) == "baseline"]
    if not len(ref):
        return []
    ref_label = ref_word if ref_word and len(tables.named(ref_word)) else "baseline"
    model = (e.get("stratum") or {}).get("model", "")
    resp = tables.responses
    if model and len(resp) and (resp["model"] == model).any():
        resp = resp[resp["model"] == model]
    answers = resp[resp["variant_id"].isin(grp["variant_id"])]
    stages = answers["stage"].astype(str)
    keep = [s for s in stages.value_counts().index if not any(h in s.lower() for h in _JUDGE_HINTS)]
    if keep:
        answers = answers[stages == keep[0]]
        ref_answers = resp[(resp["stage"].astype(str) == keep[0]) & resp["variant_id"].isin(ref["variant_id"])]
    else:
        answers = ref_answers = resp.iloc[0:0]
    by_case_ref = {c: g for c, g in ref.groupby("case_id")}
    out: list[tuple[float, Compare]] = []
    for case, gv in grp.groupby("case_id", sort=True):
        rv = by_case_ref.get(case)
        if rv is None:
            continue
        g_row = gv.iloc[0]
        r_row = max(rv.itertuples(index=False), key=lambda r: _prefix(str(r.variant_id), str(g_row["variant_id"])))
        a = answers[answers["variant_id"] == g_row["variant_id"]]
        b = ref_answers[ref_answers["variant_id"] == r_row.variant_id]
        common = sorted(set(a["seed"].astype(str)) & set(b["seed"].astype(str)))
        if common:
            s = common[0]
            ta = str(a[a["seed"].astype(str) == s]["text"].iloc[0])
            tb = str(b[b["seed"].astype(str) == s]["text"].iloc[0])
            what, seed = "answers", f", seed {s}"
        else:
            ta, tb, what, seed = str(g_row["text"] or ""), str(r_row.text or ""), "inputs", ""
        title = f"Case {case}: the {what} under {group} and {ref_label}{seed}" + (f" ({model})" if model else "")
        cmp_block = Compare(title=title, case_id=str(case), variants={ref_label: _cut(tb), group: _cut(ta)},
                            reference=ref_label)
        out.append((1.0 - _ratio(tb, ta), cmp_block))
    out.sort(key=lambda x: -x[0])
    return out


def finding_examples(doc: dict[str, Any], runs: Sequence[Any], ids: PageIds,
                     n: int = N_EXAMPLES) -> dict[int, list[dict[str, Any]]]:
    """Example views by finding rank (see the module doc); also records each finding's examples in
    ``doc`` (``examples``: ``[{"case_id", "title", "id"}]``, ``[]`` when there are none)."""
    by_dir = {str(r.path): r for r in runs}
    cache: dict[str, _RunTables] = {}
    out: dict[int, list[dict[str, Any]]] = {}
    for e in doc.get("inconclusive", []):
        e["examples"] = []
    for e in doc.get("findings", []):
        e["examples"] = []
        if e["rank"] > MAX_FINDINGS_WITH_EXAMPLES:
            continue
        info = by_dir.get(e["run_dir"])
        if info is None:
            continue
        if e["run_dir"] not in cache:
            cache[e["run_dir"]] = _RunTables(info.path)
        views: list[dict[str, Any]] = []
        for _, block in _pairs(cache[e["run_dir"]], e)[:n]:
            views.append(compare_view(block, f"finding-{e['rank']}-example", ids))
        if views:
            out[e["rank"]] = views
            e["examples"] = [{"case_id": v["case_id"], "title": v["title"], "id": v["id"]} for v in views]
        else:  # the section's own side-by-side blocks
            own = [v for v in info.views if v.get("type") == "compare"][:n]
            e["examples"] = [{"case_id": v["case_id"], "title": v["title"], "id": v["id"]} for v in own]
    return out
