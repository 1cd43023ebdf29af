"""Report section of the ``adaptive_attack`` audit: success rates, the excess over the control, transcripts."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...report.base import Compare, Metric, Section, Table, Text, register_section
from ...report.formatting import as_float

AUDIT = "adaptive_attack"
_RESULT_COLS = ("model", "metric", "group", "reference", "value", "n", "n_cases", "ci_low", "ci_high", "test", "p",
                "p_adj", "p_method", "correction", "family", "null_hypothesis")
_MAX_TRANSCRIPTS = 3


def _transcripts(tr: pd.DataFrame, paired: pd.DataFrame, cases: pd.DataFrame) -> list[Compare]:
    """Side by side, for up to three cases the attacker flipped: the question as written, then each turn."""
    if tr.empty or paired.empty or "flipped" not in paired.columns:
        return []
    text = dict(zip(cases["case_id"].astype(str), cases["text"].astype(str))) if not cases.empty else {}
    out = []
    won = paired[(paired["arm"] == "attack") & (paired["flipped"] == 1)]
    for rec in won.head(_MAX_TRANSCRIPTS).to_dict("records"):
        cid, model = str(rec["case_id"]), rec["model"]
        rows = tr[(tr["case_id"].astype(str) == cid) & (tr["model"] == model)].sort_values("turn", kind="stable")
        first = rows[rows["turn"] == 0]
        variants = {f"as written (answer {first['answer'].iloc[0] if len(first) else '?'})": text.get(cid, "")}
        for r in rows[(rows["turn"] > 0) & (rows["arm"] == "attack")].to_dict("records"):
            label = f"turn {int(r['turn'])}: {r['status']}" + (f" (answer {r['answer']})" if r.get("answer") == r.get(
                "answer") and r.get("answer") else "")
            body = str(r.get("background") or "")
            if r.get("guard") == "rejected":
                body += f"\n\n[rejected by the guard: {r.get('guard_reasons')}]"
            variants[label] = body + ("\n\n" + text.get(cid, "") if r.get("guard") == "accepted" else "")
        out.append(Compare(title=f"Attack transcript: case {cid}, {model}", case_id=cid, variants=variants))
    return out


@register_section(AUDIT)
def build(rundir: Any) -> Section:
    man = rundir.manifest
    summ = man.get("summary", {}) or {}
    params = (man.get("spec") or {}).get("params", {}) or {}
    sec = Section(title="Adaptive attacker (beyond the papers, MedFuzz-style)", audit=AUDIT)
    sec.blocks.append(Text(
        f"An attacker model writes non-clinical background about the patient, placed before the unchanged "
        f"question, for up to {params.get('max_turns', 3)} turns, seeing the target's answers, until the target's "
        "answer flips; a guard rejects passages with clinical content (rules"
        + (" then the clinical_guard judge" if params.get("guard") == "rules_then_judge" else "")
        + "). A control attacker makes neutral edits the same way. Success = the answer changed from the one given "
        "to the question as written; unparseable answers are counted apart, never as flips."))
    res = rundir.table_or_empty("results")
    for r in res[res["metric"] == "attack_success_excess"].to_dict("records") if not res.empty else []:
        lo, hi = as_float(r.get("ci_low")), as_float(r.get("ci_high"))
        # in percentage points, as the findings and the other audits' cards say a difference of rates (+4.8 pp)
        sec.blocks.append(Metric(label=f"{r.get('model')}: attack − control success rate (percentage points)",
                                 value=f"{100 * float(r['value']):+.1f} pp", n=int(r["n"]),
                                 ci=(round(100 * lo, 1), round(100 * hi, 1)) if lo is not None and hi is not None
                                 else None,
                                 test=str(r.get("test", "")), p=as_float(r.get("p")), p_adj=as_float(r.get("p_adj")),
                                 family=str(r.get("family", ""))))
    if not res.empty:
        sec.blocks.append(Table("Attack success, excess over the control, turns to flip",
                                res[[c for c in _RESULT_COLS if c in res.columns]], name="adaptive_attack_results",
                                caption="attack_success_rate: share of cases flipped within the turns (CI: bootstrap "
                                        "over cases); attack_success_excess: attack − control, one-sided sign-flip "
                                        "test over cases; turns_to_flip: among flipped cases."))
    paired = rundir.table_or_empty("paired")
    if not paired.empty:
        sec.blocks.append(Table("Per case and attacker", paired, name="adaptive_attack_paired"))
    tr = rundir.table_or_empty("transcripts")
    sec.blocks += _transcripts(tr, paired, rundir.table_or_empty("cases"))
    if not tr.empty:
        sec.blocks.append(Table("Every turn (transcripts)", tr.drop(columns=["answer_text"], errors="ignore"),
                                name="transcripts"))
    sec.summary = {"cases": summ.get("cases"), "guard rejections": summ.get("guard_rejected")}
    return sec
