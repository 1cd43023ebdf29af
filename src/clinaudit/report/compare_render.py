"""Files of ``clinaudit compare``: ``comparison.csv``, ``comparison_cases.csv``, ``comparison.json`` and
``report.html`` (self-contained, the same CSS, script and Content-Security-Policy as the run report;
every string from the runs escaped by Jinja2)."""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import json
import math
from pathlib import Path
from typing import Any

import pandas as pd

from .base import Compare
from .compare_metrics import read_run_table
from .formatting import csv_text, data_uri, display_frame, header_rows
from .views import PageIds, compare_view

__all__ = ["write_comparison", "example_views", "N_EXAMPLES"]

N_EXAMPLES = 3  #: side-by-side examples per metric that changed
_TEMPLATES = Path(__file__).parent / "templates"


def _clean(x: Any) -> Any:
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if isinstance(x, Path):
        return str(x)
    if hasattr(x, "item"):
        return _clean(x.item())
    return x


def _target_responses(run: Path) -> pd.DataFrame:
    r = read_run_table(run, "responses")
    if not len(r) or not {"case_id", "text"} <= set(r.columns):
        return pd.DataFrame(columns=["case_id", "variant_id", "seed", "text", "model"])
    if "stage" in r.columns:
        stages = r["stage"].astype(str)
        keep = "target" if (stages == "target").any() else stages.iloc[0]
        r = r[stages == keep]
    for c in ("variant_id", "seed", "model"):
        if c not in r.columns:
            r = r.assign(**{c: ""})
    r = r.assign(case_id=r["case_id"].astype(str), variant_id=r["variant_id"].astype(str),
                 seed=r["seed"].astype(str), text=r["text"].fillna("").astype(str))
    return r


def example_views(comp: Any, ids: PageIds, n: int = N_EXAMPLES) -> dict[str, list[dict[str, Any]]]:
    """Per metric with a verdict other than "no detectable change": up to ``n`` cases whose per-case
    difference is largest in the direction of the change, each as a side-by-side view of run A's and run
    B's answer to the same input (same variant and seed; the first such pair whose texts differ)."""
    changed = comp.table[comp.table["verdict"] != "no detectable change"]
    if not len(changed):
        return {}
    ra, rb = _target_responses(comp.run_a), _target_responses(comp.run_b)
    ma, mb = comp.table["model_a"].iloc[0], comp.table["model_b"].iloc[0]
    if ma and "model" in ra.columns and (ra["model"].astype(str) == ma).any():
        ra = ra[ra["model"].astype(str) == ma]
    if mb and "model" in rb.columns and (rb["model"].astype(str) == mb).any():
        rb = rb[rb["model"].astype(str) == mb]
    out: dict[str, list[dict[str, Any]]] = {}
    for rec in changed.to_dict("records"):
        pc = comp.per_case[comp.per_case["metric"] == rec["metric"]].dropna(subset=["difference"])
        sign = 1.0 if rec["difference"] > 0 else -1.0
        pc = pc[pc["difference"] * sign > 0].sort_values("difference", key=lambda s: -s.abs() * 1.0)
        views = []
        for case in pc["case_id"].astype(str):
            a = ra[ra["case_id"] == case]
            b = rb[rb["case_id"] == case]
            if not len(a) or not len(b):
                continue
            m = a.merge(b, on=["variant_id", "seed"], suffixes=("_a", "_b"))
            if not len(m):
                continue
            diff = m[m["text_a"] != m["text_b"]]
            pick = (diff if len(diff) else m).iloc[0]
            d = pc[pc["case_id"] == case]["difference"].iloc[0]
            title = (f"{rec['metric']}: case {case} (per-case difference B − A {d:+.3g}), "
                     f"input {pick['variant_id']}, seed {pick['seed']}")
            views.append(compare_view(Compare(title=title, case_id=case,
                                              variants={f"A: {ma or comp.run_a.name}": pick["text_a"],
                                                        f"B: {mb or comp.run_b.name}": pick["text_b"]}),
                                      f"compare-{rec['metric']}", ids))
            if len(views) >= n:
                break
        out[rec["metric"]] = views
    return out


def _table_view(df: pd.DataFrame, limit: int = 200) -> dict[str, Any]:
    shown, kinds = display_frame(df.head(limit))
    cols = [str(c) for c in shown.columns]
    rows = [[{"text": str(v), "num": kinds.get(c, "text") in ("num", "int", "p", "pct", "ci")}
             for c, v in zip(cols, rec)] for rec in shown.itertuples(index=False)]
    return {"header": header_rows(shown.columns), "rows": rows, "total": len(df), "shown": len(shown)}


def write_comparison(comp: Any, out: Path, *, alpha: float, margin: float) -> dict[str, Path]:
    """Write the comparison's files into ``out`` (created); returns their paths by kind."""
    import jinja2
    from markupsafe import Markup

    from .. import __version__
    from ..export import to_csv

    out.mkdir(parents=True, exist_ok=True)
    files = {"csv": out / "comparison.csv", "cases_csv": out / "comparison_cases.csv",
             "json": out / "comparison.json", "html": out / "report.html"}
    to_csv(comp.table, files["csv"])
    to_csv(comp.per_case, files["cases_csv"])
    ids = PageIds()
    ids.used.update({"findings", "comparability", "metrics", "examples", "top", "footer"})
    examples = example_views(comp, ids)
    doc = {"schema": "clinaudit.comparison/1", "run_a": str(comp.run_a), "run_b": str(comp.run_b),
           "comparability": comp.info, "alpha": alpha, "margin": margin,
           "rules": {"verdict": f"better/worse when p_adj < {alpha} (Holm over every metric) and the 95% CI of "
                                "B − A excludes 0, signed by the metric's direction; else no detectable change",
                     "inconclusive": f"no detectable change, proportion metric, CI half-width > {margin}: "
                                     "n_needed = ceil(n_cases * (half-width / margin)^2)"},
           "metrics": comp.table.to_dict("records"), "findings": comp.findings, "inconclusive": comp.inconclusive,
           "examples": {k: [v["id"] for v in vs] for k, vs in examples.items()}}
    files["json"].write_text(json.dumps(_clean(doc), indent=2, ensure_ascii=False, allow_nan=False) + "\n",
                             encoding="utf-8")
    shown = comp.table[["metric", "direction", "value_a", "value_b", "difference", "ci_low", "ci_high", "p", "p_adj",
                        "verdict", "n_cases", "n_pairs_a", "n_pairs_b"]].rename(
        columns={"difference": "difference (B − A)", "ci_low": "difference_ci_low", "ci_high": "difference_ci_high"})
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    script = (_TEMPLATES / "report.js").read_text(encoding="utf-8").strip()
    css = (_TEMPLATES / "report.css").read_text(encoding="utf-8")
    html = env.get_template("compare.html.j2").render(
        title=f"clinaudit compare: {comp.info['audit'].replace('_', ' ')}",
        generated=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"), version=__version__,
        run_a=str(comp.run_a), run_b=str(comp.run_b), info=comp.info,
        model_a=comp.table["model_a"].iloc[0] if len(comp.table) else "",
        model_b=comp.table["model_b"].iloc[0] if len(comp.table) else "",
        findings=comp.findings, inconclusive=comp.inconclusive, metrics=_table_view(shown),
        metric_notes=comp.table[["metric", "direction", "description", "null_hypothesis"]].to_dict("records"),
        csv_href=data_uri(csv_text(comp.table)), cases_href=data_uri(csv_text(comp.per_case)),
        examples=examples, alpha=alpha, margin=margin, rules=doc["rules"],
        css=Markup(css), script=Markup(script),
        script_hash=base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii"))
    files["html"].write_text(html, encoding="utf-8")
    return files
