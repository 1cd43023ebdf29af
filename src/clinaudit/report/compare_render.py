"""Files of ``clinaudit compare``: ``comparison.csv``, ``comparison_cases.csv``, ``comparison.json`` and
``report.html`` (self-contained, the same CSS, script and Content-Security-Policy as the run report;
every string from the runs escaped by Jinja2)."""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import json
from pathlib import Path
from typing import Any

import pandas as pd

from .base import Compare
from .compare_metrics import CHANGED, POOLED, read_run_table
from .formatting import csv_text, data_uri, display_frame, header_rows, json_ready
from .views import PageIds, compare_view
from ..atomic import write_text

__all__ = ["write_comparison", "example_views", "N_EXAMPLES"]

N_EXAMPLES = 3  #: side-by-side examples per metric that changed
_TEMPLATES = Path(__file__).parent / "templates"



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
    """Per pooled metric row whose verdict says the runs differ: up to ``n`` cases whose per-case
    difference is largest in the direction of the change, each as a side-by-side view of run A's and run
    B's answer to the same input (same variant and seed; the first such pair whose texts differ). Keyed
    by metric (``model: metric`` when several model pairs were compared)."""
    t = comp.table
    changed = t[t["verdict"].isin(CHANGED) & (t["stratum"] == POOLED)]
    if not len(changed):
        return {}
    several = t["model_b"].nunique() > 1
    all_a, all_b = _target_responses(comp.run_a), _target_responses(comp.run_b)
    out: dict[str, list[dict[str, Any]]] = {}
    for rec in changed.to_dict("records"):
        ma, mb = rec["model_a"], rec["model_b"]
        ra, rb = all_a, all_b
        if ma and "model" in ra.columns and (ra["model"].astype(str) == ma).any():
            ra = ra[ra["model"].astype(str) == ma]
        if mb and "model" in rb.columns and (rb["model"].astype(str) == mb).any():
            rb = rb[rb["model"].astype(str) == mb]
        pc = comp.per_case[(comp.per_case["metric"] == rec["metric"]) & (comp.per_case["model_b"] == mb)]
        pc = pc.dropna(subset=["difference"])
        sign = 1.0 if rec["difference"] > 0 else -1.0
        pc = pc[pc["difference"] * sign > 0].sort_values("difference", key=lambda s: -s.abs() * 1.0)
        key = f"{mb}: {rec['metric']}" if several else str(rec["metric"])
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
            title = (f"{key}: case {case} (per-case difference B − A {d:+.3g}), "
                     f"input {pick['variant_id']}, seed {pick['seed']}")
            views.append(compare_view(Compare(title=title, case_id=case,
                                              variants={f"A: {ma or comp.run_a.name}": pick["text_a"],
                                                        f"B: {mb or comp.run_b.name}": pick["text_b"]}),
                                      f"compare-{key}", ids))
            if len(views) >= n:
                break
        out[key] = views
    return out


#: the comparison table's columns as the report and the notebook show them
SHOWN = ["model_b", "metric", "stratum", "level", "direction", "value_a", "value_b", "difference", "ci_low", "ci_high",
         "p", "p_adj", "margin", "verdict", "n_cases", "n_pairs_a", "n_pairs_b"]


def _shown(comp: Any) -> pd.DataFrame:
    cols = [c for c in SHOWN if c != "model_b" or comp.table["model_b"].nunique() > 1]
    return comp.table[cols].rename(columns={"model_b": "model", "difference": "difference (B − A)",
                                            "ci_low": "difference_ci_low", "ci_high": "difference_ci_high"})


def rules(alpha: float) -> dict[str, str]:
    """The verdict rules, as comparison.json and the report state them."""
    return {"verdict": f"better/worse when p_adj < {alpha} (Holm within the family: a model pair's pooled rows, or "
                       "one metric's strata) and the 95% CI of B − A excludes 0, signed by the metric's direction "
                       "(higher/lower without one); within_margin when the 95% CI lies inside ± the metric's margin "
                       "(a zero-width CI widened to the exact Clopper-Pearson bound for no case of n differing); "
                       "inconclusive otherwise",
            "inconclusive": "n_needed = ceil(n_cases * (CI half-width / margin)^2), the cases a CI as narrow as the "
                            "margin would need"}


def comparison_html(comp: Any, limit: int = 40) -> str:
    """The notebook display of a :class:`~clinaudit.report.compare.Comparison`: the runs, any differences
    beyond the model, the changed rows' sentences, then the table of verdicts (pooled rows first)."""
    from markupsafe import escape

    t = comp.table
    counts = t["verdict"].value_counts().to_dict()
    head = (f"<p><strong>clinaudit compare</strong> ({escape(comp.info['audit'])}): B <code>{escape(comp.run_b)}</code> "
            f"against A <code>{escape(comp.run_a)}</code>. "
            + ", ".join(f"{escape(v)}: {counts[v]}" for v in (*CHANGED, "within_margin", "inconclusive") if v in counts)
            + f" (of {len(t)} rows: {int((t['stratum'] == POOLED).sum())} pooled, "
            f"{int((t['stratum'] != POOLED).sum())} per stratum).</p>")
    diffs = "".join(f"<li>{escape(d)}</li>" for d in comp.info.get("differences", []))
    diffs = f"<p>The runs differ beyond the model:</p><ul>{diffs}</ul>" if diffs else ""
    found = "".join(f"<li><strong>{escape(f['verdict'])}</strong> {escape(f['sentence'])}</li>" for f in comp.findings)
    found = f"<ol>{found}</ol>" if found else "<p>No row shows a change (verdicts: within_margin or inconclusive).</p>"
    shown, _ = display_frame(_shown(comp).sort_values("stratum", key=lambda s: s != POOLED, kind="stable").head(limit))
    cols = [str(c) for c in shown.columns]
    rows = "".join("<tr>" + "".join(f"<td>{escape(v)}</td>" for v in rec) + "</tr>"
                   for rec in shown.itertuples(index=False))
    more = f"<p>{len(t) - limit} more rows in <code>.table</code>.</p>" if len(t) > limit else ""
    table = ("<table><thead><tr>" + "".join(f"<th>{escape(c)}</th>" for c in cols) + "</tr></thead><tbody>"
             + rows + "</tbody></table>")
    return f"<div class=\"clinaudit-comparison\">{head}{diffs}{found}{table}{more}</div>"


def _table_view(df: pd.DataFrame, limit: int = 200) -> dict[str, Any]:
    shown, kinds = display_frame(df.head(limit))
    cols = [str(c) for c in shown.columns]
    rows = [[{"text": str(v), "num": kinds.get(c, "text") in ("num", "int", "p", "pct", "ci")}
             for c, v in zip(cols, rec)] for rec in shown.itertuples(index=False)]
    return {"header": header_rows(shown.columns), "rows": rows, "total": len(df), "shown": len(shown)}


def write_comparison(comp: Any, out: Path, *, alpha: float) -> dict[str, Path]:
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
    doc = {"schema": "clinaudit.comparison/2", "run_a": str(comp.run_a), "run_b": str(comp.run_b),
           "comparability": comp.info, "alpha": alpha, "rules": rules(alpha),
           "metrics": comp.table.to_dict("records"), "findings": comp.findings, "inconclusive": comp.inconclusive,
           "examples": {k: [v["id"] for v in vs] for k, vs in examples.items()}}
    write_text(files["json"], json.dumps(json_ready(doc), indent=2, ensure_ascii=False, allow_nan=False) + "\n")
    shown = _shown(comp)
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
        metric_notes=comp.table[comp.table["stratum"] == "pooled"].drop_duplicates("metric")[
            ["metric", "direction", "margin", "scale", "description", "null_hypothesis"]].to_dict("records"),
        csv_href=data_uri(csv_text(comp.table)), cases_href=data_uri(csv_text(comp.per_case)),
        examples=examples, alpha=alpha, rules=doc["rules"],
        css=Markup(css), script=Markup(script),
        script_hash=base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii"))
    write_text(files["html"], html)
    return files
