"""The last lines of ``clinaudit run`` and ``clinaudit demo``: the report's first-screen verdict in plain words
(:func:`clinaudit.report.verdict_view.plain_sentence`), one line per audit × model, and what ``clinaudit gate``
would decide on the run, with the gate's exit convention.

The verdicts are :func:`clinaudit.pipeline.validity.verdict_lines` (the same sentences as the report's first
screen and ``findings.json``); the gate is :func:`clinaudit.report.gate.gate_run` with the default policy,
nothing written. docs/verdicts.md has both.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["GATE_CONVENTION", "headline_lines"]

#: ``clinaudit gate``'s exit codes, in the words printed after a run
GATE_CONVENTION = "0 pass, 1 bias found, 3 not gateable (not measured or unfinished), 4 inconclusive"


def headline_lines(run_dir: str | Path, audit: str = "") -> list[str]:
    """``verdict <audit> <model>: <sentence>`` per audit × model, ``de-identification: ...`` (how far it reached,
    :func:`clinaudit.deid_reach.run_sentences`), then ``gate: ...`` (what ``clinaudit gate
    RUN`` would print as its outcome and exit code, and the convention)."""
    from ..errors import ClinauditError
    from ..pipeline.validity import verdict_lines, read_validity
    from ..report.gate import gate_run

    run = Path(run_dir)
    results, validity = read_validity(run, audit)
    audit = audit or str(validity.get("audit") or "")
    if not audit:
        import json

        try:
            manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            manifest = {}
        audit = str(manifest.get("audit") or (manifest.get("spec") or {}).get("audit") or "")
    from ..report.verdict_view import plain_sentence, settle_entry

    try:
        gate = gate_run(run, write=False)
    except ClinauditError as exc:  # pragma: no cover - a run directory that cannot be read back
        gate, undecided = None, f"gate: not decided ({exc})"
    from ..report.findings import run_findings

    found, _ = run_findings(run, audit=audit)  # the report's own entries: the same cases needed as its first screen
    lines = verdict_lines(results, validity, audit)
    from ..deid_reach import run_sentences

    reach = [f"de-identification: {x}" for x in run_sentences(run)]  # how far it reached (clinaudit.deid_reach)
    several = len({str(x["model"]) for x in lines}) > 1

    out = []
    for line in lines:
        e = settle_entry(found, str(line["audit"]), str(line["model"]) if several else None)
        who = " ".join(x for x in (line["audit"], line["model"]) if x)
        text = plain_sentence(line, int(e["n_needed"]) if e is not None else None, e)
        out.append(f"verdict {who}: {text}")
        out += [f"verdict {who}: not measured: {x}" for x in line.get("not_measured") or []]
        out += [f"verdict {who}: {x}" for x in line.get("attributes_not_measured") or []]  # never silence
        out += [f"verdict {who}: {x}" for x in line.get("sample_skew") or []]  # a validity finding (exclusion_skew)
    out += reach
    if gate is None:
        out.append(undecided)
        return out
    detail = ""
    if gate.outcome == "fail":
        detail = f": {len(gate.failures)} failing row(s)"
    elif gate.outcome == "not_gateable" and gate.reasons:
        detail = f": {gate.reasons[0]}"
    out.append(f"gate: `clinaudit gate {run}` exits {gate.exit_code} ({gate.outcome.replace('_', ' ')}{detail}); "
               f"exit codes: {GATE_CONVENTION} (docs/verdicts.md)")
    return out
