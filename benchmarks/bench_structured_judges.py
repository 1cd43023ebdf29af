"""Judges with and without their answer grammar on the embedded model (issue 32).

For each judge role of the acceptance list (treatment-shift annotation, note incidence, gender inference, CARE MCQ)
and each source (the demo data; MTS-Dialog and CRAFT-MD from /work/shared/data when present), the same items are
judged twice by the embedded SmolLM2, one try each (``max_attempts=1``): once free (the judge's prompt only,
``constrain=False``) and once constrained (the grammar enforced by llguidance masks), each with its own empty cache,
one after the other in this process. Printed per role and source: parse rate free / constrained, agreement of the
labels where both parsed, seconds per judge call and per generated token in each mode.

``RATIO bench_structured_judges``: constrained / free time per judge call (all roles together), and the same per
generated token (the cost of computing the masks, without the effect of shorter answers).

    python benchmarks/bench_structured_judges.py [--quick] [--n N]
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from pathlib import Path
from typing import Any

from clinaudit.cache import ResponseCache
from clinaudit.data import demo_path
from clinaudit.families.note_generation.judges import IncidenceItem, IncidenceJudge
from clinaudit.families.treatment_shift.judges import GenderInferenceJudge, TreatmentAnnotator
from clinaudit.judges.base import Judge, Unparseable, run_judge
from clinaudit.judges.mcq import MCQAnswerParser, mcq_request
from clinaudit.runner import Runner, RunnerConfig

DATA = Path("/work/shared/data")


def _rows(path: Path, n: int) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        out = []
        for r in csv.DictReader(fh):
            out.append(r)
            if len(out) >= n:
                break
        return out


def sources(n: int) -> dict[str, dict[str, list[Any]]]:
    """source -> {"replies": texts, "notes": texts, "patients": texts, "mcq": (vignette, choices)}."""
    demo_pm = [r["message"] for r in _rows(demo_path("patient_messages.csv"), n)]
    demo_v = [(r["case_vignette"], [r[f"choice_{i}"] for i in range(1, 5)]) for r in _rows(demo_path("vignettes.csv"), n)]
    out = {"demo": {"replies": demo_pm, "notes": demo_pm, "patients": demo_pm, "mcq": demo_v}}
    mts = DATA / "mts-dialog" / "MTS-Dialog-ValidationSet.csv"
    if mts.exists():
        rows = _rows(mts, n)
        out["mts"] = {"replies": [r["section_text"] for r in rows], "notes": [r["section_text"] for r in rows],
                      "patients": [r["dialogue"][:1500] for r in rows], "mcq": []}
    craft = DATA / "craft-md" / "usmle_and_derm_dataset.csv"
    if craft.exists():
        rows = _rows(craft, n)
        out["craftmd"] = {"replies": [], "notes": [], "patients": [r["case_vignette"] for r in rows],
                          "mcq": [(r["case_vignette"], [r[f"choice_{i}"] for i in range(1, 5)]) for r in rows]}
    return out


def _runner(tmp: str, tag: str) -> Runner:
    return Runner(cache=ResponseCache(Path(tmp) / f"{tag}.sqlite"), config=RunnerConfig(progress=False))


def _judge_role(tmp: str, judge: Judge[Any], items: list[tuple[str, Any]], field: str, tag: str) -> dict[str, Any]:
    res: dict[str, Any] = {}
    for mode, constrain in (("free", False), ("constrained", True)):
        runner = _runner(tmp, f"{tag}-{mode}")
        t0 = time.perf_counter()
        js = run_judge(runner, judge, items, "embedded", max_attempts=1, constrain=constrain)
        dt = time.perf_counter() - t0
        toks = sum(u.completion_tokens for u in runner.usage.values())
        res[mode] = {"labels": [j.value.get(field) if j.status == "ok" else None for j in js],
                     "ok": sum(j.status == "ok" for j in js), "n": len(js), "time": dt, "tokens": toks}
    return res


def _mcq_role(tmp: str, items: list[tuple[str, list[str]]], tag: str) -> dict[str, Any]:
    res: dict[str, Any] = {}
    for mode, constrain in (("free", False), ("constrained", True)):
        runner = _runner(tmp, f"{tag}-{mode}")
        reqs = [mcq_request("embedded", v, ch, max_tokens=160, constrain=constrain) for v, ch in items]
        t0 = time.perf_counter()
        answers = runner.generate(reqs)
        dt = time.perf_counter() - t0
        labels = []
        for (_, ch), a in zip(items, answers):
            try:
                labels.append(MCQAnswerParser(ch).parse(a.text or "")["answer"])
            except Unparseable:
                labels.append(None)
        res[mode] = {"labels": labels, "ok": sum(x is not None for x in labels), "n": len(items), "time": dt,
                     "tokens": sum(a.completion_tokens or 0 for a in answers)}
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--n", type=int, default=None, help="items per role and source (default 10; --quick 3)")
    ap.add_argument("--sources", default="demo,mts,craftmd", help="comma-separated: demo, mts, craftmd")
    args = ap.parse_args()
    keep = set(args.sources.split(","))
    n = args.n or (3 if args.quick else 10)
    print(f"embedded SmolLM2-135M as judge, {n} items per role and source, one try each; free = prompt only, "
          "constrained = grammar enforced (llguidance)")
    totals = {"free": [0.0, 0, 0], "constrained": [0.0, 0, 0]}  # time, calls, tokens
    with tempfile.TemporaryDirectory() as tmp:
        for src, d in sources(n).items():
            if src not in keep:
                continue
            roles: dict[str, dict[str, Any]] = {}
            if d["replies"]:
                roles["treatment_annotator"] = _judge_role(
                    tmp, TreatmentAnnotator(max_tokens=128), [(str(i), t) for i, t in enumerate(d["replies"])],
                    "MANAGE", f"{src}-ta")
            if d["notes"]:
                roles["incidence"] = _judge_role(
                    tmp, IncidenceJudge(), [(str(i), IncidenceItem(t, "Poverty")) for i, t in enumerate(d["notes"])],
                    "incidence", f"{src}-inc")
            if d["patients"]:
                roles["gender_inference"] = _judge_role(
                    tmp, GenderInferenceJudge(), [(str(i), t) for i, t in enumerate(d["patients"])], "gender",
                    f"{src}-gen")
            if d["mcq"]:
                roles["mcq_answer"] = _mcq_role(tmp, d["mcq"], f"{src}-mcq")
            for role, r in roles.items():
                f, c = r["free"], r["constrained"]
                both = [(a, b) for a, b in zip(f["labels"], c["labels"]) if a is not None and b is not None]
                agree = f"{sum(a == b for a, b in both)}/{len(both)}" if both else "n/a (nothing parsed free)"
                line = (f"{src:8s} {role:20s} parse free {f['ok']}/{f['n']} constrained {c['ok']}/{c['n']}  "
                        f"agreement where both parsed {agree}  s/call free {f['time'] / f['n']:.2f} "
                        f"constrained {c['time'] / c['n']:.2f}")
                if f.get("tokens") and c.get("tokens"):
                    line += (f"  s/token free {f['time'] / f['tokens']:.3f} constrained "
                             f"{c['time'] / c['tokens']:.3f}")
                print(line, flush=True)
                for mode in totals:
                    totals[mode][0] += r[mode]["time"]
                    totals[mode][1] += r[mode]["n"]
                    totals[mode][2] += r[mode].get("tokens") or 0
    per_call = (totals["constrained"][0] / totals["constrained"][1]) / (totals["free"][0] / totals["free"][1])
    msg = f"RATIO bench_structured_judges: constrained/free time per judge call {per_call:.2f}"
    if totals["free"][2] and totals["constrained"][2]:
        per_tok = (totals["constrained"][0] / totals["constrained"][2]) / (totals["free"][0] / totals["free"][2])
        msg += f", per generated token {per_tok:.2f}"
    print(msg)


if __name__ == "__main__":
    main()
