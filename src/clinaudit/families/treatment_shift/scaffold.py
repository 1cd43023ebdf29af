"""What ``clinaudit init treatment_shift --data FILE`` writes for a file of patient messages."""

from __future__ import annotations

from ...scaffold import Columns, Scaffold
from .params import REGEX_PERTURBATIONS

__all__ = ["scaffold"]


def scaffold(cols: Columns) -> Scaffold:
    """Messages from ``cols.text``, the recorded gender (if a column holds it) as the case field ``gender``, the
    five regex perturbations, both roles on the embedded model."""
    columns = {"text": cols.require_text()}
    comments = {"data.columns": "the roles clinaudit init guessed: check them"}
    if cols.id:
        columns = {"id": cols.id, **columns}
    if cols.gender:
        columns["gender"] = cols.gender
    params = {
        "perturbations": list(REGEX_PERTURBATIONS),
        "seeds": [0, 1, 42],
        "temperature": 0.7,
        "max_tokens": 128,
        "infer_gender": False,
        "n_resamples": 1000,
    }
    comments.update({
        "params.perturbations": "regex perturbations; LLM rewrites (gender_swap, ...) need a capable models.rewrite",
        "params.seeds": "P2: three samples per message",
        "params.temperature": "P2's sampling temperature",
        "params.max_tokens": "P2 uses 512; 128 keeps a CPU run short",
        "params.infer_gender": "P2 infers gender from gender_removal rewrites (needs that perturbation)",
        "params.n_resamples": "bootstrap resamples of cases for every CI",
        "models.target": "the model audited: openai:<model>, hf:<path>, ... (clinaudit models)",
        "models.judge": "labels MANAGE / VISIT / RESOURCE in each answer",
    })
    header = [
        f"Treatment-shift audit (P2) of the patient messages in {cols.path.name} ({cols.n_rows} rows),",
        "written by `clinaudit init`. Run it with:",
        "  clinaudit run {spec} --out runs/treatment_shift --limit 5 --dry-run   # estimate first",
        "  clinaudit run {spec} --out runs/treatment_shift --report",
        "docs/audits/treatment_shift.md lists every parameter.",
    ]
    if not cols.gender:
        header.append("No gender column was found: gender gaps need one (add columns: {gender: <column>}).")
    return Scaffold(data={"columns": columns}, models={"target": "embedded", "judge": "embedded"}, params=params,
                    comments=comments, header=header)
